"""Structure rules found on blind set p9: namesakes as table rows, an emoji key over an interleaved timeline, lines
that point at a namesake by role, a namesake's aside that ends with its section, a word of assent read as a name,
an answer's lead around its people, and a third person of a stored name (``emoji-keys``, ``pointed-role``,
``section-ends-aside``, ``answer-word-name``, ``lead-after-people``, ``unplaced-birth-year``; the table, YAML and
thousands readings of ``markdown-tables``, ``fenced-profiles`` and ``listed-description``)."""

from __future__ import annotations

import pytest

from schemas.enums import Stance, Worthiness
from schemas.knowledge import EntityRef
from scoring import nlp
from scoring.config import CheckConfig
from scoring.decompose import AtomicFact
from scoring.grouping import Mention, NameCase, PerceivedGroup, group_sentences
from scoring.plan import PlannedFact, PlannedGroup
from scoring.rulebook import STEPS
from scoring.score import LEAD_AFTER_PEOPLE, lead_after_people, score_groups
from scoring.segment.emoji_keys import emoji_key
from scoring.segment.fenced import profile_records
from scoring.segment.tables import records
from scoring.sentences import split_sentences
from scoring.verify import EntityVerdict

# --- markdown-tables: a row per namesake under an empty header ----------------------------------------------------


@pytest.mark.parametrize(
    "names",
    [
        ("Ada Brook (cellist)", "Ada Brook (ecologist)"),
        ("**Kenji Sato (potter)**", "**Kenji Sato (sprinter)**"),
        ("Lena Holm, painter", "Lena Holm, surgeon"),
    ],
)
def test_namesake_rows_are_a_block_per_person(names: tuple[str, str]) -> None:
    plain = tuple(n.replace("*", "") for n in names)
    rows = (("", "Born", "Family"), (plain[0], "1968, Brno", "two sons"), (plain[1], "1974, Olomouc", "one daughter"))
    read = records(rows)
    assert {r.key for r in read} == {"row:1", "row:2"}
    assert [r.text for r in read if r.key == "row:1"] == ["Born: 1968, Brno", "- two sons"]
    if "(" in plain[0]:
        first = next(r for r in read if r.key == "row:1")
        assert first.name == plain[0].split(" (")[0] and first.description == plain[0].split("(")[1].rstrip(")")


@pytest.mark.parametrize(
    "rows",
    [
        # Two different people, not namesakes: no rows per person by this reading.
        (("", "Born", "Field"), ("Ada Brook", "1968", "Virology"), ("Lena Holm", "1974", "Surgery")),
        # Things, not people ("Brew One Pro" and "Brew One Mini" share no name before a description).
        (("", "Price", "Boiler"), ("Brew One Pro", "£349", "dual"), ("Brew One Mini", "£249", "single")),
        # A header over the first column that is no name's.
        (("Year", "Born", "Field"), ("Ada Brook (cellist)", "1968", "Music"), ("Ada Brook (ecologist)", "1975", "x")),
    ],
)
def test_other_tables_are_not_namesake_rows(rows: tuple[tuple[str, ...], ...]) -> None:
    assert not any(r.key.startswith("row:") for r in records(rows))


# --- fenced-profiles: YAML documents, listed-description: thousands ----------------------------------------------


@pytest.mark.parametrize("separator", ["---\n", "--- # the second\n", "...\n---\n"])
def test_yaml_documents_are_a_profile_each(separator: str) -> None:
    code = f"---\nname: Ada Brook\nrole: cellist\nborn: 1968\n{separator}name: Ada Brook\nrole: ecologist\nborn: 1975\n"
    read = profile_records(code, "yaml")
    assert read is not None
    assert {r.key for r in read} == {"item:1", "item:2"}


@pytest.mark.parametrize("code", ["name: Ada Brook\nborn: 1968\n", "---\nname: Ada Brook\nborn: 1968\n", "- a\n- b\n"])
def test_one_yaml_document_is_read_as_before(code: str) -> None:
    read = profile_records(code, "yaml")
    assert read is None or {r.key for r in read} == {""}


@pytest.mark.parametrize(
    ("line", "kept"),
    [
        ("- Best-known work: the organ of St Oswin's, Carlisle (1978), with 4,210 pipes", "with 4,210 pipes"),
        ("- Danish potter (b. 1951): founder of the Kiln Group, teacher at Kyoto Arts, maker of 12,000 pots", "12,000"),
        ("- Polish cellist (b. 1968): principal cellist of X, founder of Y, owner of 1,200 scores", "1,200 scores"),
    ],
)
def test_a_number_s_comma_splits_no_list(line: str, kept: str) -> None:
    texts = [s.text for s in split_sentences(line)]
    assert any(kept in t for t in texts), texts


def test_a_list_s_commas_between_years_still_split() -> None:
    line = "- Danish potter (b. 1951): founder of X Group, teacher at Y, won in 1988, 1990 and 1992"
    texts = [s.text for s in split_sentences(line)]
    assert "won in 1988," in texts


# --- emoji-keys --------------------------------------------------------------------------------------------------

TIMELINE = """Here's one timeline, each entry tagged {a} for the chemist or {b} for the journalist:

- **1970** {a} Born in Hamburg
- **1982** {b} Born in Vancouver
- **1999–2008** {a} Works at Vosskamp Chemie

{key}"""


@pytest.mark.parametrize(
    ("a", "b", "key"),
    [
        ("🧪", "📰", "Key: 🧪 = Ada Brook (chemist) · 📰 = Ada Brook (journalist)"),
        ("🔬", "🗞️", "Legend: 🔬 – the chemist; 🗞️ – the journalist"),
        ("⚗️", "✍️", "⚗️ means the chemist, ✍️ means the journalist."),
    ],
)
def test_emoji_keyed_lines_are_their_person_s(a: str, b: str, key: str) -> None:
    sentences = split_sentences(TIMELINE.format(a=a, b=b, key=key))
    scoped = {s.text: s.scope.description for s in sentences if s.scope is not None}
    assert scoped == {
        "1970 Born in Hamburg": "chemist",
        "1982 Born in Vancouver": "journalist",
        "1999–2008 Works at Vosskamp Chemie": "chemist",
    }
    off = split_sentences(TIMELINE.format(a=a, b=b, key=key), frozenset({"emoji-keys"}))
    assert all(s.scope is None for s in off)


@pytest.mark.parametrize(
    "text",
    [
        "🏆 Won the Carrow Award in 2013\n\n🎓 Studied at Leeds",  # decorations, no key
        "Key: 🧪 = Ada Brook (chemist)",  # one emoji keyed
        "🧪 = Ada Brook (chemist) · 📰 = Ada Brook (chemist)",  # one person twice
    ],
)
def test_emoji_without_a_key_of_two_people_scope_nothing(text: str) -> None:
    assert len(emoji_key(text)) == 0 or all(s.scope is None for s in split_sentences(text))


# --- pointed-role ------------------------------------------------------------------------------------------------

NAMESAKES = ["### Ada Brook, the botanist (1871–1944)", "She described 112 ferns.", "### Ada Brook, the archer"]


@pytest.mark.parametrize(
    "pointer",
    [
        "Ferns, Yunnan, Glasgow → the botanist.",
        "ferns, Yunnan, herbarium, Royal Society: the botanist",
        'If it asks "Who described 112 ferns?", it\'s the botanist.',
    ],
)
def test_a_line_pointing_at_a_role_is_that_namesake_s(pointer: str) -> None:
    sentences = split_sentences("\n\n".join([*NAMESAKES, "She won a bronze medal in 2018.", "## How to tell", pointer]))
    texts = [s.text for s in sentences]
    groups = group_sentences(
        texts,
        "Ada Brook",
        scopes=[s.scope for s in sentences],
        labels=[s.label for s in sentences],
        written=texts,
    )
    last = len(texts) - 1
    botanist = next(g for g in groups if g.role == "botanist")
    assert last in botanist.sentences


@pytest.mark.parametrize(
    "line",
    [
        "Her partner is the archer.",  # a claim whose object is a role, not a pointer
        "She trained under the coach.",
        "Ferns → the gardener.",  # a role no namesake was presented by
    ],
)
def test_other_lines_ending_in_a_role_point_nowhere(line: str) -> None:
    from scoring.grouping import _Individuals, _pointed_role

    individuals = _Individuals(PerceivedGroup("Ada Brook"))
    individuals.add(PerceivedGroup("Ada Brook", role="archer", disambiguator="archer"))
    individuals.add(PerceivedGroup("Ada Brook", role="botanist", disambiguator="botanist"))
    assert _pointed_role(individuals, line) is None


# --- section-ends-aside -------------------------------------------------------------------------------------------

ASIDE = [
    "Cormac Brook was an English organ builder.",
    "He founded his firm in 1962.",
    "A note on the name",
    "There is also a much younger Cormac Brook, a mountaineer from Keswick.",
]


OFF = frozenset({"section-ends-aside"})


@pytest.mark.parametrize("heading", ["Quick facts", "Honours", "Legacy"])
def test_a_heading_ends_a_namesake_aside(heading: str) -> None:
    texts = [*ASIDE, heading, "Born: Lancaster, 1931"]
    labels = [False, False, True, False, True, False]
    groups = group_sentences(texts, "Cormac Brook", labels=labels, sections=labels)
    assert 5 in groups[0].sentences
    off = group_sentences(texts, "Cormac Brook", labels=labels, sections=labels, rules_off=OFF)
    assert 5 not in off[0].sentences


@pytest.mark.parametrize(
    ("texts", "labels", "sections"),
    [
        # A bold label inside the namesake's paragraph, not a section's heading.
        ([*ASIDE, "Career:", "He climbed Everest in 2012."], [False, False, True, False, True, False], [False] * 6),
        # The answer said up front the name is shared: sections are the people's.
        (
            ["There are two people named Cormac Brook.", *ASIDE[:2], ASIDE[3], "Honours", "He won a medal in 2015."],
            [False, False, False, False, True, False],
            [False, False, False, False, True, False],
        ),
        # No aside: the heading keeps the answer's person, as before.
        ([*ASIDE[:2], "Honours", "He won a medal in 1988."], [False, False, True, False], [False, False, True, False]),
    ],
)
def test_other_labels_leave_the_current_person(texts: list[str], labels: list[bool], sections: list[bool]) -> None:
    on = group_sentences(texts, "Cormac Brook", labels=labels, sections=sections)
    off = group_sentences(texts, "Cormac Brook", labels=labels, sections=sections, rules_off=OFF)
    assert [g.sentences for g in on] == [g.sentences for g in off]


# --- answer-word-name ---------------------------------------------------------------------------------------------


def _rule(name: str):  # type: ignore[no-untyped-def]
    return next(r for r in STEPS["group-names"] if r.name == name)


@pytest.mark.parametrize("word", ["Ja", "Oui", "Sí", "Nein", "Hola"])
def test_a_word_of_assent_is_no_name(word: str) -> None:
    case = NameCase(nlp.parse_one(f"{word} / Yes — two people."), Mention(word), "Cormac Brook")
    assert _rule("answer-word-name").apply(case) is not None


@pytest.mark.parametrize("name", ["Jan", "Nora Oui", "Si Chen", "Hai"])
def test_names_like_answer_words_stay_names(name: str) -> None:
    case = NameCase(nlp.parse_one(f"{name} was born in 1990."), Mention(name), "Cormac Brook")
    assert _rule("answer-word-name").apply(case) is None


# --- unplaced-birth-year, lead-after-people -------------------------------------------------------------------------

BUILDER = "Cormac Brook (organ builder)"
CLIMBER = "Cormac Brook (mountaineer)"
PAGES = [
    EntityRef(title=BUILDER, base_name="Cormac Brook", disambiguator="organ builder"),
    EntityRef(title=CLIMBER, base_name="Cormac Brook", disambiguator="mountaineer"),
]


def _group(facts: list[tuple[str, set[str]]], lead: bool = False) -> PlannedGroup:
    planned = []
    for i, (text, by) in enumerate(facts):
        fact = PlannedFact(AtomicFact(text, i, tokens=frozenset({i})), text, Worthiness.FACTUAL)
        for ref in PAGES:
            yes = ref.title in by
            fact.verdicts[ref.title] = EntityVerdict(
                ref.title, Stance.SUPPORT if yes else Stance.IRRELEVANT, 0.9 if yes else 0.1, 0.0
            )
        fact.attribute(0.1)
        planned.append(fact)
    return PlannedGroup(PerceivedGroup("Cormac Brook", sentences=list(range(len(facts))), lead=lead), planned)


def test_an_unlinked_lead_comes_after_the_people() -> None:
    lead = _group([("Ja Yes is zwei Personen.", set())], lead=True)
    climber = _group([("Cormac Brook climbed Everest in 2012.", {CLIMBER})])
    builder = _group([("Cormac Brook built 74 organs.", {BUILDER})])
    groups = [lead, climber, builder]
    result = score_groups(groups, PAGES, CheckConfig())
    ordered, reordered = lead_after_people(groups, result, CheckConfig())
    assert [g.entity for g in reordered.groups] == [CLIMBER, BUILDER, None]
    assert ordered == [climber, builder, lead]
    same, kept = lead_after_people(groups, result, CheckConfig().without([LEAD_AFTER_PEOPLE]))
    assert same == groups and [g.entity for g in kept.groups] == [None, CLIMBER, BUILDER]


@pytest.mark.parametrize(
    "lead_facts",
    [
        [("Both are Cumbrian.", {CLIMBER, BUILDER})],  # a lead a page supports: linked, it stays first
        [],  # no lead
    ],
)
def test_a_linked_or_absent_lead_keeps_the_order(lead_facts: list[tuple[str, set[str]]]) -> None:
    people = [_group([("Cormac Brook climbed Everest.", {CLIMBER})]), _group([("He built organs.", {BUILDER})])]
    groups = [_group(lead_facts, lead=True), *people] if lead_facts else people
    result = score_groups(groups, PAGES, CheckConfig())
    ordered, _ = lead_after_people(groups, result, CheckConfig())
    assert ordered == groups


def test_an_unlinked_group_that_is_no_lead_keeps_its_place() -> None:
    first = _group([("Cormac Brook was a poet.", set())])
    groups = [first, _group([("Cormac Brook climbed Everest.", {CLIMBER})])]
    result = score_groups(groups, PAGES, CheckConfig())
    ordered, _ = lead_after_people(groups, result, CheckConfig())
    assert ordered == groups
