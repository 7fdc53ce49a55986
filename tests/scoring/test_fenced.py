"""Fenced JSON and YAML profiles read as records (scoring/segment/fenced.py): keys that are no predicate of a person,
closing dates in parentheses, list values, nested objects, and several people in one fence or one fence each."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from scoring.pipeline import check, default_config
from scoring.segment.fence_formats import key_words
from scoring.segment.fenced import FENCED_DATES, FENCED_KEYS, FENCED_PEOPLE, dated, profile_records
from scoring.sentences import split_sentences
from tests.scoring.test_document import _groups

PAGES = [
    (
        "Ingrid Halvorsen (footballer)",
        "Ingrid Halvorsen (born 1986 in Bodø, Norway) is a Norwegian former footballer. She played for Tromsvik IL "
        "from 2005 to 2009 and for FC Aarhavn in Denmark from 2014 to 2017. She captained the Deccan Falcons from "
        "2019 to 2023. Since 2020 she has been head coach of the Kjellvik FK under-19 team.",
        [],
    ),
    (
        "Ingrid Halvorsen (composer)",
        "Ingrid Halvorsen (1912–1988) was a Norwegian composer and organist. She was born in Tromsø. She studied at "
        "the Oslo Conservatory from 1930 to 1935 and won the Lindeman Prize in 1962.",
        [],
    ),
]


@pytest.fixture(scope="module")
def kb() -> Store:
    store = Store.in_memory()
    store.add_pages(PAGES)
    return store


def _records(code: str, language: str = "json", rules_off: frozenset[str] = frozenset()) -> list[str]:
    found = profile_records(code, language, rules_off)
    assert found is not None
    return [r.text for r in found]


# --- keys as attributes (fenced-keys) ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "language", "line"),
    [
        (
            '{"name": "A B", "race_win": "Meridian Ocean Race winner (2018)"}',
            "json",
            "- Meridian Ocean Race winner in 2018",
        ),
        (
            "name: A B\ncaptaincy: Captain, Deccan Falcons (2019–2023)\n",
            "yaml",
            "- Captain, Deccan Falcons from 2019 to 2023",
        ),
        (
            '{"name": "A B", "holtbreen": "Holtbreen drilling campaign, Svalbard"}',
            "json",
            "- Holtbreen drilling campaign, Svalbard",
        ),
        ('{"name": "A B", "family": "Married to oboist Piotr Zając"}', "json", "- Married to oboist Piotr Zając"),
    ],
)
def test_a_key_that_is_no_predicate_leaves_its_value_to_say_the_claim(code: str, language: str, line: str) -> None:
    assert _records(code, language) == ["A B", line]


@pytest.mark.parametrize(
    ("code", "line"),
    [
        ('{"name": "A B", "born": "1986, Bodø, Norway"}', "Born: 1986, Bodø, Norway"),
        ('{"name": "A B", "awards": "Lindeman Prize (1962)"}', "Awards: Lindeman Prize in 1962"),
        ('{"name": "A B", "birth_place": "Bodø, Norway"}', "Birthplace: Bodø, Norway"),
        ('{"name": "A B", "spouseName": "Piotr Zając"}', "Spouse: Piotr Zając"),
        ('{"name": "A B", "height": "1.85 m"}', "Height: 1.85 m"),  # a bare value needs its key
    ],
)
def test_a_key_the_records_know_or_a_bare_value_keeps_its_label(code: str, line: str) -> None:
    assert _records(code) == ["A B", line]


def test_keys_switched_off_stay_labels() -> None:
    code = '{"name": "A B", "race_win": "Meridian Ocean Race winner"}'
    assert _records(code, rules_off=frozenset({FENCED_KEYS})) == ["A B", "Race win: Meridian Ocean Race winner"]


# --- closing dates (fenced-dates) --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "read"),
    [
        ("Hansa Prize for Green Chemistry (2012)", "Hansa Prize for Green Chemistry in 2012"),
        ("Captain, Deccan Falcons (2019–2023)", "Captain, Deccan Falcons from 2019 to 2023"),
        ("Team Velora (2011-16)", "Team Velora from 2011 to 16"),
        ("Cello teacher, Wrocław Conservatory (since 2012)", "Cello teacher, Wrocław Conservatory since 2012"),
        ("Domestic cricket for Hyderabad (from 2011)", "Domestic cricket for Hyderabad from 2011"),
        ("Head coach, Kjellvik FK (2014–present)", "Head coach, Kjellvik FK since 2014"),
        ("Swedish champion (1994, 1997)", "Swedish champion in 1994 and 1997"),
        ("Coach, Hyderabad Academy (after retiring in 2023)", "Coach, Hyderabad Academy after retiring in 2023"),
        ("Harbour Mill (c. 1950)", "Harbour Mill around 1950"),
        ("The Ochre Houses (debut novel, 2009)", "The Ochre Houses (debut novel) in 2009"),
        (
            "Correspondent, The Ledger (2006–2014) (not fully certain)",
            "Correspondent, The Ledger from 2006 to 2014 (not fully certain)",
        ),
    ],
)
def test_a_closing_date_is_the_values_time(value: str, read: str) -> None:
    assert dated(value) == read


@pytest.mark.parametrize(
    "value",
    [
        "Kenji Sato (potter)",  # a description, no date
        "Atlas of the Southern Andes (1978), 212 map sheets",  # the date does not close the value
        "Le Feu Lent (born 1999)",  # no time a value has
        "(2012)",  # nothing before it
        "Hansa Prize (I think)",
        "Lindeman Prize (2012 or 2013)",
    ],
)
def test_what_is_no_closing_date_stays_as_written(value: str) -> None:
    assert dated(value) == value


def test_dates_switched_off_stay_in_parentheses() -> None:
    code = '{"name": "A B", "awards": "Lindeman Prize (1962)"}'
    assert _records(code, rules_off=frozenset({FENCED_DATES})) == ["A B", "Awards: Lindeman Prize (1962)"]


# --- list values and nested objects ------------------------------------------------------------------------------


def test_list_elements_with_commas_are_a_line_each() -> None:
    code = '{"name": "A B", "awards": ["Golden Bow Prize, Polish Guild (2005)", "Lindeman Prize (2010)"]}'
    assert _records(code) == ["A B", "Awards: Golden Bow Prize, Polish Guild in 2005", "Awards: Lindeman Prize in 2010"]


def test_a_list_of_short_values_is_one_line() -> None:
    assert _records('{"name": "A B", "awards": ["Lindeman Prize", "Grieg Medal"]}') == [
        "A B",
        "Awards: Lindeman Prize, Grieg Medal",
    ]


@pytest.mark.parametrize(
    ("code", "lines"),
    [
        (  # a mapping that is one value: its dates close it
            '{"name": "A B", "education": {"degree": "PhD", "institution": "Kingsmere University", "year": 1992}}',
            ["Education: PhD, Kingsmere University in 1992"],
        ),
        (  # a list of entries, each a mapping with a span of years
            '{"name": "A B", "career": [{"role": "Captain", "team": "Deccan Falcons", "from": 2019, "to": 2023}]}',
            ["Career: Captain, Deccan Falcons from 2019 to 2023"],
        ),
        (
            "name: A B\ncoaching:\n  - role: Head coach\n    club: Kjellvik FK\n    since: 2020\n",
            ["- Head coach, Kjellvik FK since 2020"],
        ),
        (  # a section of the profile: its keys are fields
            '{"name": "A B", "early_life": {"born": 1986, "birthplace": "Bodø"}, "awards": ["Grieg Medal"]}',
            ["Born: 1986", "Birthplace: Bodø", "Awards: Grieg Medal"],
        ),
    ],
)
def test_nested_objects(code: str, lines: list[str]) -> None:
    assert _records(code, "yaml" if code.startswith("name:") else "json") == ["A B", *lines]


# --- several people (fenced-people) ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code",
    [
        '{"Kenji Sato (potter)": {"born": 1951, "awards": ["Mashiko Prize"]},'
        ' "Kenji Sato (sprinter)": {"born": 1990, "club": "Osaka AC"}}',
        '{"people": [{"name": "Kenji Sato", "description": "potter", "born": 1951},'
        ' {"name": "Kenji Sato", "description": "sprinter", "born": 1990}]}',
        '{"potter": {"name": "Kenji Sato", "born": 1951}, "sprinter": {"name": "Kenji Sato", "born": 1990}}',
    ],
)
def test_several_people_in_one_fence_are_a_block_each_with_its_scope(code: str) -> None:
    found = profile_records(code, "json")
    assert found is not None
    assert {r.key for r in found} == {"item:1", "item:2"}
    sentences = split_sentences(f"```json\n{code}\n```", frozenset())
    scopes = {(s.scope.name, s.scope.description) for s in sentences if s.scope is not None}
    assert scopes == {("Kenji Sato", "potter"), ("Kenji Sato", "sprinter")}
    assert len(_groups(f"```json\n{code}\n```")) == 2


def test_a_person_key_names_its_profile() -> None:
    assert _records('{"Kenji Sato": {"born": 1951, "occupation": "potter"}}') == [
        "Kenji Sato",
        "Born: 1951",
        "Occupation: potter",
    ]
    # a container key names no one
    assert _records('{"person": {"name": "Kenji Sato", "born": 1951}}') == ["Kenji Sato", "Born: 1951"]
    # a key the records know is a field, not a person
    assert _records('{"born": {"year": 1951, "place": "Mashiko"}}') == ["Born: Mashiko in 1951"]


@pytest.mark.parametrize(
    "code",
    [
        '{"early_life": {"born": 1951, "birthplace": "Mashiko"}, "achievements": {"award": "Mashiko Prize"}}',
        '{"personal": {"born": 1951}, "career": {"occupation": "potter"}}',
        '{"Achievements": {"award": "Mashiko Prize"}, "Training": {"school": "Kyoto City University of Arts"}}',
    ],
)
def test_sections_of_one_profile_are_no_people(code: str) -> None:
    found = profile_records(code, "json")
    assert found is not None and {r.key for r in found} == {""}


def test_people_switched_off_are_one_profile() -> None:
    code = '{"Kenji Sato (potter)": {"born": 1951}, "Kenji Sato (sprinter)": {"born": 1990}}'
    found = profile_records(code, "json", frozenset({FENCED_PEOPLE}))
    assert found is not None and {r.key for r in found} == {""}


def test_one_fence_per_person_opens_a_scope_each() -> None:
    text = (
        "Two people share the name.\n\n```yaml\nname: Kenji Sato\ndescription: potter\nborn: 1951\n```\n\n"
        "```yaml\nname: Kenji Sato\ndescription: sprinter\nborn: 1990\n```"
    )
    profiles = [g for g in _groups(text) if "Kenji Sato" in g]
    assert len(profiles) == 2
    assert "Born: 1951" in profiles[0] and "Born: 1990" in profiles[1]
    with_people_off = split_sentences(text, frozenset({FENCED_PEOPLE}))
    assert all(s.scope is None for s in with_people_off)


@pytest.mark.parametrize(
    "text",
    [
        "Kenji Sato is a potter.\n\n```yaml\nname: Kenji Sato\nborn: 1951\n```",  # one fence: no boundary to draw
        "```yaml\nname: Kenji Sato\nborn: 1951\n```\n\n```yaml\nname: Kenji Sato\nclub: Osaka AC\n```",  # one person
    ],
)
def test_fences_of_one_person_open_no_scopes(text: str) -> None:
    assert all(s.scope is None for s in split_sentences(text, frozenset()))


# --- read through the pipeline -----------------------------------------------------------------------------------


def _profile_answer() -> str:
    return (
        "Here is the profile as JSON:\n\n```json\n"
        '{\n  "name": "Ingrid Halvorsen",\n  "description": "Norwegian former footballer",\n'
        '  "born": "1986, Bodø, Norway",\n  "tromsvik_il": "Tromsvik IL (2005–2009)",\n'
        '  "denmark": "FC Aarhavn, Denmark (2014–2017)",\n  "captaincy": "Captain, Deccan Falcons (2019–2023)"\n}\n```'
    )


def test_a_fenced_profiles_closing_dates_are_no_lifespans(kb: Store) -> None:
    result = check(_profile_answer(), kb=kb, name="Ingrid Halvorsen", question="Who is Ingrid Halvorsen?")
    facts = [f.text for g in result.groups for f in g.facts]
    assert not any("born in 2005" in f or "died in 2023" in f for f in facts)
    assert any("2019" in f and "2023" in f and "Ingrid Halvorsen" in f for f in facts)
    assert result.num_bios == 1  # "FC Aarhavn, Denmark …" is where she played, no one new


def test_with_dates_off_the_same_profile_reads_lifespans(kb: Store) -> None:
    config = default_config().without(frozenset({FENCED_DATES, FENCED_KEYS}))
    result = check(
        _profile_answer(), kb=kb, name="Ingrid Halvorsen", question="Who is Ingrid Halvorsen?", config=config
    )
    facts = [f.text for g in result.groups for f in g.facts]
    assert not any("2019" in f and "2023" in f and "Ingrid Halvorsen" in f for f in facts)


@pytest.mark.parametrize(
    "field",
    [
        '"summary": "Ingrid Halvorsen is a Norwegian former footballer who captained the Deccan Falcons."',
        '"bio": "Ingrid Halvorsen played for Tromsvik IL from 2005 to 2009."',
        '"career_note": "Halvorsen coached the Kjellvik FK under-19 team from 2020."',
    ],
)
def test_a_field_that_names_the_profiles_person_opens_no_second_biography(kb: Store, field: str) -> None:
    text = f'```json\n{{"name": "Ingrid Halvorsen", "born": "1986, Bodø, Norway", {field}}}\n```'
    result = check(text, kb=kb, name="Ingrid Halvorsen", question="Who is Ingrid Halvorsen?")
    assert result.num_bios == 1
    assert [g.entity for g in result.groups] == ["Ingrid Halvorsen (footballer)"]


def test_a_list_item_that_names_someone_outside_a_profile_still_opens_a_biography() -> None:
    text = "Two people share the name:\n\n- Ingrid Halvorsen is a footballer.\n- Ingrid Halvorsen is a composer."
    assert len(_groups(text, "Ingrid Halvorsen")) >= 2


# --- one reading of a key's words (fence_formats.key_words, used by the fenced profiles too) ----------------------


@pytest.mark.parametrize(
    ("key", "words"),
    [
        ("date_of_birth", "date of birth"),
        ("productionsDirected", "productions directed"),
        ("full-name", "full name"),
        ("DOB", "dob"),  # a run of capitals is one word, not "d o b"
        ("birthYearUS", "birth year us"),
        ("PeakRating", "peak rating"),
    ],
)
def test_a_key_is_read_as_the_same_words_by_both_fence_readings(key: str, words: str) -> None:
    assert key_words(key) == words
    answer = f'```json\n{{"name": "Ada Quill", "{key}": "Leeds"}}\n```'
    texts = [s.text for s in split_sentences(answer)]
    assert not any(" o b" in t or " u s" in t for t in texts), texts
