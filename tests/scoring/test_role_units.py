"""role-units (scoring.segment.units): after an answer says a name is shared, list items, question-and-answer pairs,
sections and paragraphs that each describe one namesake by a role open that namesake's scope, and grouping keeps
each unit's sentences (pronouns included) with it. Look-alikes: one person's achievements that mention other
people's occupations, "two different awards", a one-person answer laid out as questions and answers."""

from __future__ import annotations

import pytest

from scoring.grouping import group_sentences
from scoring.rulebook import STEPS
from scoring.segment.document import parse
from scoring.segment.units import ROLE_UNIT_RULES, ROLE_UNITS, announces, role_scopes, roles_in
from scoring.sentences import split_sentences

NUMBERED = (
    "There are two different Ada Brooks:\n\n"
    "1. The cellist, born in 1950 in Leeds. She taught in Gdańsk for thirty years.\n"
    "2. The other, a chef, opened a restaurant in Lyon in 2008. She has two Michelin stars."
)
PAIRS = (
    "**Q: Is Ada Brook the botanist related to the archer?**\n"
    "A: Not as far as anyone knows. They are two different people who share a name.\n\n"
    "**Q: Who is the botanist?**\nA: Born in Penzance in 1871, he kept the herbarium in Glasgow. He died in 1944.\n\n"
    "**Q: And the archer?**\nA: He was born in Shrewsbury in 1993 and won bronze in 2018.\n\n"
    "**Q: Did the archer go to Cambridge?**\n"
    "A: No, he studied at Loughborough University. It was the botanist who went to Trinity College, Cambridge."
)
CHAPTERS = (
    'The source names "Ada Brook" in chapters 2 and 7, but these are two different musicians.\n\n'
    "– Chapter 2 refers to the harpsichordist (b. 1961, Poznań), who teaches at the Kraków Academy.\n"
    "– Chapter 7 refers to the jazz saxophonist (b. 1989, Łódź), whose debut album appeared in 2014."
)
PARAGRAPHS = (
    "No, they are two different Norwegian women who happen to share a name.\n\n"
    "The astronomer Ada Brook was born in Trondheim in 1958. She directed the Kvarven Observatory.\n\n"
    "The ceramic artist Ada Brook, by contrast, was born in Stavanger in 1981. She opened her studio in 2006."
)
SECTIONS = (
    "Ada Brook may refer to two people.\n\n"
    "## Who is the cellist?\n\nShe was born in Leeds in 1950. She taught in Gdańsk.\n\n"
    "## Who is the ecologist?\n\nShe was born in Perth in 1975. She studies wetlands."
)


def _groups(text: str, rules_off: frozenset[str] = frozenset()) -> list[tuple[str | None, list[str]]]:
    sentences = split_sentences(text, rules_off)
    groups = group_sentences(
        [s.text for s in sentences], "Ada Brook", scopes=[s.scope for s in sentences], rules_off=rules_off
    )
    return [(g.disambiguator, [sentences[i].text for i in g.sentences]) for g in groups]


def _roles(text: str, rules_off: frozenset[str] = frozenset()) -> list[str | None]:
    return [s.scope.description if s.scope is not None else None for s in split_sentences(text, rules_off)]


def test_the_rule_is_an_object_of_its_step_with_its_phrasings() -> None:
    (rule,) = ROLE_UNIT_RULES
    assert rule.name == ROLE_UNITS and STEPS["segment-role-units"] == ROLE_UNIT_RULES
    assert len(rule.examples) >= 3
    for example in rule.examples:
        found = role_scopes(parse(example))
        assert found is not None and len(found.scopes) == 2, example


def test_numbered_items_each_present_a_namesake_and_keep_their_pronouns() -> None:
    assert _roles(NUMBERED) == [None, "cellist", "cellist", "chef", "chef"]
    groups = _groups(NUMBERED)
    assert groups[-2] == (
        "cellist",
        ["The cellist, born in 1950 in Leeds.", "She taught in Gdańsk for thirty years."],
    )
    assert groups[-1] == (
        "chef",
        ["The other, a chef, opened a restaurant in Lyon in 2008.", "She has two Michelin stars."],
    )


def test_question_and_answer_pairs_present_the_namesakes_and_a_cleft_turns_to_the_other() -> None:
    groups = dict(_groups(PAIRS)[1:])
    assert groups["botanist"] == [
        "Q: Who is the botanist?",
        "A: Born in Penzance in 1871, he kept the herbarium in Glasgow.",
        "He died in 1944.",
        "It was the botanist who went to Trinity College, Cambridge.",
    ]
    assert groups["archer"] == [
        "Q: And the archer?",
        "A: He was born in Shrewsbury in 1993 and won bronze in 2018.",
        "Q: Did the archer go to Cambridge?",
        "A: No, he studied at Loughborough University.",
    ]


def test_dash_items_that_refer_to_a_role_and_paragraphs_led_by_role_and_name() -> None:
    assert _roles(CHAPTERS)[1:] == ["harpsichordist", "jazz saxophonist"]
    assert _roles(PARAGRAPHS) == [None, "astronomer", "astronomer", "ceramic artist", "ceramic artist"]
    groups = _groups(PARAGRAPHS)
    assert [g for g, _ in groups[-2:]] == ["astronomer", "ceramic artist"]
    assert groups[-1][1][-1] == "She opened her studio in 2006."


def test_sections_under_headings_that_ask_for_a_role() -> None:
    roles = _roles(SECTIONS)
    assert roles[0] is None
    assert set(roles[1:]) == {"cellist", "ecologist"}
    assert [g for g, _ in _groups(SECTIONS)[-2:]] == ["cellist", "ecologist"]


@pytest.mark.parametrize("text", [NUMBERED, PAIRS, CHAPTERS, PARAGRAPHS])
def test_switched_off_no_unit_opens_a_scope(text: str) -> None:
    assert set(_roles(text, frozenset({ROLE_UNITS}))) == {None}


LOOK_ALIKES = {
    # one person's achievements that mention other people's occupations
    "achievements": (
        "Ada Brook is a Polish cellist.\n\n"
        "- Studied with the harpsichordist Anna Kowalska\n- Toured with the drummer Jan Olech\n"
        "- Married the photographer Daniel Leclair"
    ),
    # the same, after a count of things that are no people
    "two different awards": (
        "Ada Brook received two different awards.\n\n"
        "- In 2001 the conductor praised her debut.\n- In 2005 the critic named her album the best of the year."
    ),
    # a one-person answer laid out as questions and answers
    "one person's Q and A": (
        "**Q: Who is Ada Brook?**\nA: A Polish cellist, born in 1950.\n\n"
        "**Q: Who taught her?**\nA: The harpsichordist Anna Kowalska.\n\n"
        "**Q: Whom did she marry?**\nA: She married the drummer Jan Olech in 1979."
    ),
    # a merged answer: two namesakes' roles told as one person's, the name never said to be shared
    "merged": (
        "Ada Brook is a Polish musician.\n\n- The harpsichordist was born in Poznań in 1961.\n"
        "- The jazz saxophonist released her debut album in 2014."
    ),
    # an announcement, but only one unit presents a namesake by role; the other describes someone else
    "a spouse's role": (
        "There are two people named Ada Brook.\n\n- The cellist was born in 1950.\n- Her husband is a drummer."
    ),
    # an announcement, but a unit that presents no one stands between the roles: the layout is no unit each
    "roles far apart": (
        "There are two people named Ada Brook.\n\nOne Ada Brook is a Polish cellist.\n\nShe was born in 1950.\n\n"
        "The other Ada Brook is a lawyer and politician.\n\nShe is married to Jan Olech, a schoolteacher."
    ),
}


@pytest.mark.parametrize("name", list(LOOK_ALIKES))
def test_look_alikes_open_no_scope(name: str) -> None:
    assert role_scopes(parse(LOOK_ALIKES[name])) is None


def test_a_merged_answer_stays_one_individual() -> None:
    assert [g for g, _ in _groups(LOOK_ALIKES["merged"])] == [None]


def test_what_announces_namesakes_and_what_does_not() -> None:
    assert announces("but these are two different musicians and I kept them apart")
    assert announces("Which Ada Brook wrote the cookbook?")
    assert announces("There are two Ada Brooks.")
    assert not announces("She received two different awards.")
    assert not announces("He played for two different clubs in three seasons.")
    assert announces("Which one of them wrote the cookbook?")


def test_roles_read_from_a_sentence() -> None:
    assert [r.words for r in roles_in("The other, a jazz saxophonist, was born in Łódź.")] == ["jazz saxophonist"]
    assert [(r.words, r.name) for r in roles_in("She studied with the harpsichordist Anna Kowalska.")] == [
        ("harpsichordist", "Anna Kowalska")
    ]
    assert roles_in("Her husband is a drummer.") == []
    assert roles_in("He was the principal author of the Clean Rivers Act.") == []


def test_a_question_of_which_one_takes_the_role_from_its_answer() -> None:
    text = (
        "Ada Brook may refer to two people.\n\n"
        "**Q: Which one wrote the cookbook?**\nA: The chef, born in 1979. She opened a restaurant in 2008.\n\n"
        "**Q: Which one taught in Gdańsk?**\nA: The cellist. She was born in 1950."
    )
    assert _groups(text)[1:] == [
        (
            "chef",
            ["Q: Which one wrote the cookbook?", "A: The chef, born in 1979.", "She opened a restaurant in 2008."],
        ),
        ("cellist", ["Q: Which one taught in Gdańsk?", "A: The cellist.", "She was born in 1950."]),
    ]
