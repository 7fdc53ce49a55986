"""Profiles in config and code notations inside a code fence (scoring/segment/fence_formats.py) read as records by the
fenced profiles reading (scoring/segment/fenced.py): TOML, INI, a script's object literal, Python literals and a
DataFrame's printout, a form's field dump, GEDCOM, iCalendar and vCard; an API response's envelope; true/false
fields and keys that abbreviate a phrase. Each reading: three phrasings it reads, three look-alikes it leaves."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from scoring.pipeline import check, default_config
from scoring.segment.fence_formats import Fence, a_profile, load
from scoring.segment.fenced import API_ENVELOPES, BOOLEAN_FIELDS, PHRASE_KEYS, profile_records

PAGES = [
    (
        "Ilona Varsányi",
        "Ilona Varsányi (born 1956 in Pécs) is a Hungarian puppeteer. She founded the Mecsek Puppet Company in 1981 "
        "and directed 64 productions for it. Her shadow play The Miller's Three Sons toured 23 countries. She is "
        "married to the set designer Gábor Kertész.",
        [],
    ),
]


@pytest.fixture(scope="module")
def kb() -> Store:
    store = Store.in_memory()
    store.add_pages(PAGES)
    return store


def _lines(code: str, language: str, rules_off: frozenset[str] = frozenset()) -> list[str]:
    found = profile_records(code, language, rules_off)
    assert found is not None, code
    return [r.text for r in found]


def _reading(code: str, language: str) -> str | None:
    loaded = load(Fence(code, language))
    return loaded.decided_by if loaded is not None else None


# --- each notation's reading: phrasings --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "language", "rule"),
    [
        ('[person]\nname = "Ada Quill"\nborn = 1815\n\n[family]\nspouse = "W. King"\n', "toml", "toml-profiles"),
        ('name = "Ada Quill"\nborn = 1815\ndied = 1852\n', "toml", "toml-profiles"),
        (
            '[person]\nname = "Ada Quill"\nborn = 1815\n[[honours]]\nname = "X Medal"\nyear = 1840\n',
            "",
            "toml-profiles",
        ),
        (
            "[quill_1815]\nborn = 1815\nspouse = W. King\n\n[quill_1902]\nborn = 1902\nchildren = 2\n",
            "ini",
            "ini-profiles",
        ),
        ("[person]\nname: Ada Quill\nborn: 1815\nnationality: British\n", "ini", "ini-profiles"),
        ("[a]\nborn = 1815 ; in London\nawards = X Medal, 1840\n", "", "ini-profiles"),
        (
            "interface P { name: string }\nexport const ada: P = { name: 'Ada Quill', born: 1815, spouse: 'W' };",
            "ts",
            "script-objects",
        ),
        ("export default {\n  born: 1815, // in London\n  died: 1852,\n};", "js", "script-objects"),
        (
            'const ada = { "fullName": "Ada Quill", "birthYear": 1815, awards: [{ name: "X", year: 1840 }] }',
            "javascript",
            "script-objects",
        ),
        ("extras = {'spouse': 'W. King', 'children': 3}\nextras", "python", "python-literals"),
        (
            "import pandas as pd\nt = pd.DataFrame([(1835, 'Married William King'), (1843, 'Published her notes')],"
            " columns=['year', 'event'])",
            "python",
            "python-literals",
        ),
        (
            "pd.DataFrame({'year': [1835, 1843], 'event': ['Married William King', 'Published her notes']})",
            "py",
            "python-literals",
        ),
        (
            "   year  event\n0  1835  Married William King\n1  1843  Published her notes on the engine",
            "",
            "frame-printouts",
        ),
        ("{'spouse': 'W. King', 'children': 'three'}", "", "frame-printouts"),
        (
            "   year  event\n0  1835  Married William King\n1  1843  Published notes\n2  1852  Died in London",
            "text",
            "frame-printouts",
        ),
        ("Full name ........ Ada Quill\nYear of birth ..... 1815\nPlace of birth .... London", "", "form-fields"),
        (
            "[Section A]\nFull name: Ada Quill\nNationality: British\nB1 ....... Notes on the engine (1843)",
            "",
            "form-fields",
        ),
        ("Name ...... Ada Quill\nDate of birth ...... 1815\nSpouse ...... W. King\n☒ I agree", "text", "form-fields"),
        ("0 @I1@ INDI\n1 NAME Ada /Quill/\n1 BIRT\n2 DATE 1815\n2 PLAC London\n0 TRLR", "", "gedcom-records"),
        (
            "0 @I1@ INDI\n1 NAME Ada /Quill/\n1 OCCU Mathematician\n1 NOTE Wrote notes.\n2 CONT Died young.",
            "gedcom",
            "gedcom-records",
        ),
        (
            "0 @I1@ INDI\n1 NAME Ada /Quill/\n1 FAMS @F1@\n0 @I2@ INDI\n1 NAME William /King/\n0 @F1@ FAM\n"
            "1 HUSB @I2@\n1 WIFE @I1@\n1 MARR\n2 DATE 1835",
            "",
            "gedcom-records",
        ),
        (
            "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20261203T190000Z\nDESCRIPTION:Born in London\\, 1815.\\n"
            "• 1843: published her notes\nEND:VEVENT\nEND:VCALENDAR",
            "",
            "calendar-entries",
        ),
        (
            "BEGIN:VEVENT\nSUMMARY:Talk\nDESCRIPTION:Ada Quill (1815–1852)\\, mathematician.\nEND:VEVENT",
            "ics",
            "calendar-entries",
        ),
        (
            "BEGIN:VCARD\nVERSION:3.0\nFN:Ada Quill\nBDAY:1815-12-10\nTITLE:Mathematician\nEND:VCARD",
            "vcard",
            "calendar-entries",
        ),
        (
            "LDR  00000nz  a2200000n  4500\n100  1# $a Quill, Ada, $d 1815-1852\n370  ## $a London\n372  ## $a Maths",
            "",
            "marc-records",
        ),
        (
            "=100  1\\$aQuill, Ada,$d1815-$c(Mathematician)\n=373  \\\\$aRoyal Society$s1840\n=374  \\\\$aPoets",
            "marc",
            "marc-records",
        ),
        (
            "100 1_ |a Quill, Ada |d 1815-\n372 __ |a Mathematics\n670 __ |a Notes, 1843: |b (b. London 1815)",
            "text",
            "marc-records",
        ),
    ],
)
def test_each_notation_is_read_by_its_own_reading(code: str, language: str, rule: str) -> None:
    assert _reading(code, language) == rule
    assert profile_records(code, language) is not None


@pytest.mark.parametrize(
    ("code", "language"),
    [
        # a program's config: no field of a life
        ('[server]\nhost = "0.0.0.0"\nport = 8080\n\n[database]\nurl = "postgres://db"\n', "toml"),
        ('[project]\nname = "factsentry"\nversion = "1.0"\n[tool.ruff]\nline-length = 120\n', "toml"),
        ("[server]\nhost = 0.0.0.0\nport = 8080\ndebug = false\n", "ini"),
        ("[core]\neditor = vim\n[user]\nname = Ada Quill\nemail = ada@example.org\n", ""),
        ("export default { port: 8080, debug: true, routes: ['/a', '/b'] };", "js"),
        ("interface Person { name: string; born: number }\ntype P = Person;", "ts"),
        ("const config = { title: 'My site', theme: 'dark' };", "typescript"),
        ("settings = {'lr': 0.01, 'epochs': 10}\nmodel.fit(settings)", "python"),
        ("df = pd.DataFrame([(2019, 1200), (2020, 1350)], columns=['year', 'revenue'])", "python"),
        ("   year  revenue\n0  2019  1200\n1  2020  1350\n2  2021  1500", ""),
        ("Status .......... OK\nHost ........... db01\nUptime ......... 3 days", ""),
        ("Name: build\nStatus: passed\nDuration: 42 s\nThis is a log line without a field", ""),
        ("0 HEAD\n1 SOUR MyTree\n0 TRLR", ""),
        ("BEGIN:VEVENT\nDTSTART:20261203T190000Z\nSUMMARY:Team lunch\nEND:VEVENT", ""),
        ("print('hello')", "python"),
        ("100 people came\n200 left\n300 stayed", ""),
        ("404 $a Not Found\n500 $a Server Error\n503 $a Unavailable", ""),
        ("245 10 $a Notes on the engine / $c A. Quill.\nThe rest is prose about the record.", ""),
    ],
)
def test_a_fence_that_holds_no_profile_is_left_as_code(code: str, language: str) -> None:
    assert load(Fence(code, language)) is None
    assert profile_records(code, language) is None


def test_a_profile_needs_two_fields_of_a_life_or_a_name_and_one() -> None:
    assert a_profile({"born": 1815, "spouse": "W"})
    assert a_profile({"name": "Ada", "died": 1852})
    assert a_profile({"birthYear": 1815, "awards": ["X"]})
    assert not a_profile({"name": "factsentry", "version": "1.0"})
    assert not a_profile({"host": "x", "port": 1})
    assert not a_profile({"title": "My site", "from": "x"})


# --- what each reading makes of its notation ---------------------------------------------------------------------


def test_toml_sections_of_one_person_are_one_profile_and_a_comment_says_a_claim() -> None:
    code = (
        '# kiosk profile\n[person]\nname = "Ada Quill"\nborn = 1815\n\n[craft]\nreads_music = false  # taught every '
        'piece to her pupils by ear\n\n[[honours]]\nname = "X Medal"\nyear = 1840\n'
    )
    assert _lines(code, "toml") == [
        "Ada Quill",
        "Born: 1815",
        "- did not read music",
        "- taught every piece to her pupils by ear",
        "Honours: X Medal in 1840",
    ]


def test_ini_sections_each_a_profile_are_people() -> None:
    code = (
        "; two people\n[quill_1815]\nfield = mathematics\nborn = 1815\nspouse = W. King\n\n"
        "[quill_1902]\nfield = botany\nborn = 1902\nchildren = 2\n"
    )
    found = profile_records(code, "ini")
    assert found is not None
    assert [(r.key, r.text, r.description) for r in found] == [
        ("item:1", "Field: mathematics", "mathematics"),
        ("item:1", "Born: 1815", "mathematics"),
        ("item:1", "Spouse: W. King", "mathematics"),
        ("item:2", "Field: botany", "botany"),
        ("item:2", "Born: 1902", "botany"),
        ("item:2", "Children: 2", "botany"),
    ]


def test_a_typescript_object_after_its_interface() -> None:
    code = (
        "interface Puppeteer {\n  name: string;\n  productionsDirected: number;\n}\n\n"
        'export const ilona: Puppeteer = {\n  name: "Ilona Varsányi",\n  born: { year: 1956, place: "Pécs" },\n'
        '  company: { founded: 1981, renamedTo: "Holdfény Puppet Theatre" },\n  productionsDirected: 64,\n'
        "  spokenWords: false,   // no production of hers uses spoken words\n"
        '  spouse: { name: "Gábor Kertész", occupation: "set designer" },\n};'
    )
    assert _lines(code, "ts") == [
        "Ilona Varsányi",
        "Born: Pécs in 1956",
        "- the company was founded in 1981",
        "- the company was renamed to Holdfény Puppet Theatre",
        "- directed 64 productions",
        "- no production of hers uses spoken words",
        "Spouse: Gábor Kertész, set designer",
    ]


def test_a_gedcom_record_is_its_first_individuals_profile() -> None:
    code = (
        "0 @I1@ INDI\n1 NAME Ada /Quill/\n1 BIRT\n2 DATE 1815\n2 PLAC London\n1 NOTE Wrote the notes.\n"
        "2 CONT Died young.\n1 FAMS @F1@\n0 @I2@ INDI\n1 NAME William /King/\n1 FAMS @F1@\n0 @F1@ FAM\n"
        "1 HUSB @I2@\n1 WIFE @I1@\n1 MARR\n2 DATE 1835\n1 NCHI 3\n0 TRLR"
    )
    found = profile_records(code, "")
    assert found is not None and {r.key for r in found} == {""}  # the husband's INDI is no second person
    assert [r.text for r in found] == [
        "Ada Quill",
        "Born: 1815, London",
        "- Wrote the notes.",
        "- Died young.",
        "Spouse: William King in 1835",
        "Children: 3",
    ]


def test_a_marc_record_is_its_headings_profile_without_codes() -> None:
    code = (
        "LDR  00000nz  a2200000n  4500\n008  ######n| azannaabn          |a aaa      c\n"
        "040  ## $a XX $b eng $e rda\n100  1# $a Quill, Ada, $d 1815-1852 $c (Mathematician)\n"
        "370  ## $a London (England) $e Marylebone\n373  ## $a Royal Society $s 1840 $t 1852\n"
        "375  ## $a female\n400  1# $a Quill, A.\n670  ## $a Her notes, 1843: $b (b. London 1815)"
    )
    assert _lines(code, "") == [
        "Ada Quill",
        "Born: 1815",
        "Died: 1852",
        "Occupation: Mathematician",
        "Place of birth: London (England)",
        "Residence: Marylebone",
        "Affiliation: Royal Society from 1840 to 1852",
        "- b. London 1815",
    ]


def test_an_events_description_is_read_without_its_times_and_escapes() -> None:
    code = (
        "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:x@y\nDTSTART:20261203T190000Z\nLOCATION:Room 2\\, Hall\n"
        "SUMMARY:Talk\nDESCRIPTION:Born in Kansas City\\, Missouri\\; self-taught.\\n• 1953: formed a trio\\, which\n"
        "  she led until 1975\nEND:VEVENT\nEND:VCALENDAR"
    )
    assert _lines(code, "") == [
        "- Born in Kansas City, Missouri; self-taught.",
        "- 1953: formed a trio, which she led until 1975",
    ]


def test_a_form_dumps_coded_fields_say_their_values_and_its_ticks_go() -> None:
    code = (
        "[Section A — Speaker]\nFull name .......... Ada Quill\nYear of birth ...... 1815\n\n[Section C]\n"
        "C1 ................. Tutor, London Institute (1840–1845)\n☒ I confirm the information above"
    )
    assert _lines(code, "") == ["Ada Quill", "Born: 1815", "- Tutor, London Institute from 1840 to 1845"]


def test_a_notebooks_frame_and_dict() -> None:
    code = (
        "import pandas as pd\ntimeline = pd.DataFrame([\n    (1835, 'Married William King'),\n"
        "    (1843, 'Published her notes on the engine'),\n], columns=['year', 'event'])\ntimeline"
    )
    assert _lines(code, "python") == ["- 1835: Married William King", "- 1843: Published her notes on the engine"]
    assert _lines("{'spouse': 'William King', 'children': 'three', 'lives_in': 'London'}", "") == [
        "Spouse: William King",
        "Children: three",
        "- lives in London",
    ]


# --- API envelopes -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code",
    [
        '{"data": {"people": [{"name": "A", "born": 1912}, {"name": "A", "born": 1986}]}, "extensions": {"cost": 1}}',
        '{"data": [{"name": "A", "born": 1912}, {"name": "A", "born": 1986}], "meta": {"count": 2}}',
        '{"results": [{"name": "A", "born": 1912}, {"name": "A", "born": 1986}], "page": 1, "next": null}',
    ],
)
def test_profiles_under_an_api_envelope_are_people(code: str) -> None:
    found = profile_records(code, "json")
    assert found is not None and {r.key for r in found} == {"item:1", "item:2"}
    assert not any("Cost" in r.text or "Count" in r.text or "Page" in r.text for r in found)
    off = profile_records(code, "json", frozenset({API_ENVELOPES}))
    assert off is None or {r.key for r in off} != {"item:1", "item:2"}


@pytest.mark.parametrize(
    "code",
    [
        # "data" beside a field of the person: the mapping is the profile, "data" one of its fields
        '{"name": "A", "born": 1912, "data": {"papers": 70}}',
        '{"people": [{"name": "A", "born": 1912}], "born": 1950}',
        '{"data": "none", "extensions": {"cost": 1}}',
    ],
)
def test_a_container_beside_a_persons_field_is_no_envelope(code: str) -> None:
    found = profile_records(code, "json")
    assert found is None or {r.key for r in found} == {""}


# --- true/false fields and phrase keys ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "line"),
    [
        ('"reads_music": false', "- did not read music"),
        ('"isRetired": false', "- is not retired"),
        ('"has_children": false', "- has no children"),
        ('"stillTeaching": true', "- still teaching"),
    ],
)
def test_a_boolean_field_says_its_key(field: str, line: str) -> None:
    assert _lines(f'{{"name": "A B", {field}}}', "json") == ["A B", line]


@pytest.mark.parametrize("field", ['"spokenWords": false', '"driving_licence": false', '"pension": false'])
def test_a_false_noun_field_claims_nothing(field: str) -> None:
    """No verb says what the false is of: a guessed one ("uses no driving licence") is a claim the answer did not
    make, which a revision then deleted with the profile's layout."""
    assert _lines(f'{{"name": "A B", {field}}}', "json") == ["A B"]


def test_booleans_switched_off_are_dropped_as_before() -> None:
    assert _lines('{"name": "A B", "born": 1950, "reads_music": false}', "json", frozenset({BOOLEAN_FIELDS})) == [
        "A B",
        "Born: 1950",
    ]


@pytest.mark.parametrize(
    ("field", "line"),
    [
        ('"productionsDirected": 46', "- directed 46 productions"),
        ('"countries_toured": 23', "- toured 23 countries"),
        ('"puppetsMade": "900+"', "- made 900+ puppets"),
        ('"lives_in": "Sežana"', "- lives in Sežana"),
    ],
)
def test_a_key_that_abbreviates_a_phrase_is_read_as_it(field: str, line: str) -> None:
    assert _lines(f'{{"name": "A B", {field}}}', "json") == ["A B", line]


@pytest.mark.parametrize(
    ("field", "line"),
    [
        ('"height": "1.85 m"', "Height: 1.85 m"),  # no participle, no preposition
        ('"panorama_wins": "1971, 1974"', "panorama wins: 1971, 1974"),  # a plural, no participle: as written
        ('"seed": 4', "Seed: 4"),  # "seed" ends in "ed" but is too short to be a participle
        ('"died_in": "Oslo"', "Died: Oslo"),  # a key the records know keeps its label
    ],
)
def test_keys_that_are_no_phrase_keep_their_label(field: str, line: str) -> None:
    assert _lines(f'{{"name": "A B", {field}}}', "json") == ["A B", line]


def test_phrase_keys_switched_off() -> None:
    assert _lines('{"name": "A B", "productionsDirected": 46}', "json", frozenset({PHRASE_KEYS})) == [
        "A B",
        "Productions directed: 46",
    ]


# --- through the pipeline: a wrong value stays refuted ------------------------------------------------------------


def _typescript(directed: int) -> str:
    return (
        "```ts\nexport const ilona = {\n"
        '  name: "Ilona Varsányi",\n  born: { year: 1956, place: "Pécs" },\n'
        f"  productionsDirected: {directed},\n"
        '  spouse: { name: "Gábor Kertész", occupation: "set designer" },\n};\n```'
    )


def test_a_wrong_count_in_a_typescript_object_is_refuted(kb: Store) -> None:
    result = check(_typescript(46), kb=kb, name="Ilona Varsányi", question="Ilona Varsányi as a TS object?")
    facts = {f.text: f.verdict.name for g in result.groups for f in g.facts}
    wrong = [t for t in facts if "46" in t]
    assert wrong and all(facts[t] == "NOT_SUPPORTED" for t in wrong), facts


def test_the_right_count_is_supported(kb: Store) -> None:
    result = check(_typescript(64), kb=kb, name="Ilona Varsányi", question="Ilona Varsányi as a TS object?")
    facts = {f.text: f.verdict.name for g in result.groups for f in g.facts}
    right = [t for t in facts if "64" in t]
    assert right and all(facts[t] == "SUPPORTED" for t in right), facts


def test_a_programs_config_makes_no_claims(kb: Store) -> None:
    text = 'Here is the config:\n\n```toml\n[server]\nhost = "0.0.0.0"\nport = 8080\n```'
    result = check(text, kb=kb, name="Ilona Varsányi", question="Set up the server")
    facts = [f.text for g in result.groups for f in g.facts]
    assert not any("8080" in f and "Ilona" in f for f in facts)


def test_readings_switched_off_leave_the_fence_as_code() -> None:
    code = '[person]\nname = "Ada Quill"\nborn = 1815\nspouse = "W. King"\n'
    assert profile_records(code, "toml", frozenset({"toml-profiles"})) is None
    assert default_config().without(["toml-profiles"]) is not None
