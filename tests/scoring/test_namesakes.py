"""Namesakes laid out in one sentence (``namesake-coordination``): the same full name twice, each time told apart
by a description, the second after a joining word, is read as one sentence a namesake; look-alikes stay whole."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from scoring.decompose import decompose_sentence
from scoring.pipeline import CheckConfig, check
from scoring.segment.namesakes import NAMESAKE, namesake_lead, namesake_parts, namesake_tag
from scoring.sentences import split_sentences


@pytest.mark.parametrize(
    ("sentence", "parts"),
    [
        (
            "There are two: Ada Brook the cellist, who taught in Gdańsk, and Ada Brook the ecologist, who studied "
            "peat bogs.",
            [
                "There are two:",
                "Ada Brook the cellist, who taught in Gdańsk,",
                "Ada Brook the ecologist, who studied peat bogs.",
            ],
        ),
        (
            "Ada Brook (cellist) taught in Gdańsk, while Ada Brook (ecologist) studied peat bogs.",
            ["Ada Brook (cellist) taught in Gdańsk,", "Ada Brook (ecologist) studied peat bogs."],
        ),
        (
            "You may mean Ada Brook, a cellist born in 1950, or Ada Brook, an ecologist born in 1975.",
            ["You may mean Ada Brook, a cellist born in 1950,", "Ada Brook, an ecologist born in 1975."],
        ),
        (
            "Two people share the name: Jon Hale-Ito the potter, who fired his first kiln in 1970, whereas Jon "
            "Hale-Ito the sprinter ran for Kenya.",
            [
                "Two people share the name:",
                "Jon Hale-Ito the potter, who fired his first kiln in 1970,",
                "Jon Hale-Ito the sprinter ran for Kenya.",
            ],
        ),
    ],
)
def test_namesakes_joined_in_one_sentence_are_read_one_a_sentence(sentence: str, parts: list[str]) -> None:
    assert namesake_parts(sentence) == parts
    read = split_sentences(sentence)
    assert [s.text for s in read] == parts
    assert all(s.list_item for s in read[1:])
    assert [s.text for s in split_sentences(sentence, frozenset({"namesake-coordination"}))] == [sentence]


@pytest.mark.parametrize(
    "sentence",
    [
        "Ada Brook was born in Leeds, and Ada Brook Day is held in May.",  # the second naming is not described
        "Ada Brook the cellist married Tom Reed, and Ada Brook the cellist later taught in Gdańsk.",  # one person
        "Ada Brook, a cellist, and Tom Reed, an ecologist, founded the trio.",  # two names, each once
        "Ada Brook met Ada Brook's niece, a painter, in Leeds.",  # a possessive is another name
        "Ada Brook, a cellist, taught Ada Brook, an ecologist.",  # no joining word before the second naming
    ],
)
def test_look_alikes_stay_one_sentence(sentence: str) -> None:
    assert namesake_parts(sentence) is None
    assert [s.text for s in split_sentences(sentence)] == [sentence]


def test_a_relative_clause_on_the_description_of_a_bare_name_is_said_of_the_person() -> None:
    facts = [f.text for f in decompose_sentence("Ada Brook, a cellist who taught in Gdańsk and retired in 2010.")]
    assert facts == ["Ada Brook is a cellist.", "Ada Brook taught in Gdańsk.", "Ada Brook retired in 2010."]
    # whose relative clause tells of someone else
    assert [f.text for f in decompose_sentence("Ada Brook, a cellist whose teacher was born in Lviv.")] == [
        "Ada Brook is a cellist."
    ]


PAGES = [
    ("Ada Brook (cellist)", "Ada Brook (born 1950) is a Polish cellist. She taught at the Gdańsk Academy of Music."),
    ("Ada Brook (ecologist)", "Ada Brook (born 1975) is a Polish ecologist. She studied peat bogs in Biebrza."),
]


def test_two_namesakes_in_one_sentence_are_two_people_not_one_merged() -> None:
    answer = (
        "There are two: Ada Brook, a Polish cellist who taught at the Gdańsk Academy of Music, and Ada Brook, a "
        "Polish ecologist who studied peat bogs in Biebrza."
    )
    store = Store.in_memory(PAGES)
    result = check(answer, kb=store, name="Ada Brook")
    assert result.num_bios == 2 and not any(g.conflated for g in result.groups)
    by_page = {g.entity: {f.text for f in g.facts if f.verdict.value == "supported"} for g in result.groups}
    assert "Ada Brook taught at the Gdańsk Academy of Music." in by_page["Ada Brook (cellist)"]
    assert "Ada Brook studied peat bogs in Biebrza." in by_page["Ada Brook (ecologist)"]
    off = check(answer, kb=store, name="Ada Brook", config=CheckConfig().without(["namesake-coordination"]))
    assert off.num_bios == 1


@pytest.mark.parametrize(
    ("part", "lead", "read"),
    [
        # a tag, then a description set off by a comma: the part reads without the tag
        (
            "Ada Brook the cellist, a Polish cellist who taught in Gdańsk,",
            ("Ada Brook", "cellist"),
            "Ada Brook, a Polish cellist who taught in Gdańsk",
        ),
        (
            "Jon Hale-Ito the film director, an Indian film director who shot Kite Season,",
            ("Jon Hale-Ito", "film director"),
            "Jon Hale-Ito, an Indian film director who shot Kite Season",
        ),
        (
            "Theodore Vance the boxer, an American middleweight boxer who retired in 1941.",
            ("Theodore Vance", "boxer"),
            "Theodore Vance, an American middleweight boxer who retired in 1941",
        ),
        # look-alikes: a tag the part needs (no description after it), a role in parentheses, a description alone
        ("Ada Brook the cellist taught in Gdańsk,", ("Ada Brook", "cellist"), None),
        ("Ada Brook (cellist) taught in Gdańsk,", ("Ada Brook", "cellist"), None),
        ("Ada Brook, a cellist born in 1950,", ("Ada Brook", "cellist"), None),
        ("Ada Brook the cellist, who taught in Gdańsk,", ("Ada Brook", "cellist"), None),
        ("Ada Brook, who taught in Gdańsk.", ("Ada Brook", None), None),
        ("There are two:", None, None),
    ],
)
def test_a_namesakes_part_names_its_person_and_reads_without_a_tag_a_description_follows(
    part: str, lead: tuple[str, str | None] | None, read: str | None
) -> None:
    assert namesake_lead(part) == lead
    tag = namesake_tag(part)
    if read is None:
        assert tag is None
    else:
        assert tag is not None
        assert (part[: tag[0]] + part[tag[1] :]).rstrip(" ,.") == read


@pytest.mark.parametrize(
    ("sentence", "scopes"),
    [
        (
            "There are two: Ada Brook the cellist, a Polish cellist who taught in Gdańsk, and Ada Brook the "
            "ecologist, a Polish ecologist who studied peat bogs.",
            [None, ("Ada Brook", "cellist"), ("Ada Brook", "ecologist")],
        ),
        (
            "Ada Brook (cellist) taught in Gdańsk, while Ada Brook (ecologist) studied peat bogs.",
            [("Ada Brook", "cellist"), ("Ada Brook", "ecologist")],
        ),
        (
            "You may mean Ada Brook, a cellist born in 1950, or Ada Brook, an ecologist born in 1975.",
            [None, ("Ada Brook", "ecologist")],
        ),
    ],
)
def test_each_namesakes_part_opens_a_scope_of_its_own(sentence: str, scopes: list[tuple[str, str] | None]) -> None:
    read = split_sentences(sentence)
    assert [(s.scope.name, s.scope.description) if s.scope else None for s in read] == scopes
    indices = [s.scope.index for s in read if s.scope is not None]
    assert len(set(indices)) == len(indices) and all(s.scope.kind == NAMESAKE for s in read if s.scope)
    assert all(s.scope is None for s in split_sentences(sentence, frozenset({"namesake-coordination"})))


@pytest.mark.parametrize(
    "sentence",
    [
        "Ada Brook the cellist married Tom Reed, and Ada Brook the cellist later taught in Gdańsk.",
        "Ada Brook, a cellist, and Tom Reed, an ecologist, founded the trio.",
        "Ada Brook the cellist, a Polish cellist who taught in Gdańsk.",
    ],
)
def test_a_sentence_that_names_one_person_opens_no_scope(sentence: str) -> None:
    assert all(s.scope is None for s in split_sentences(sentence))


@pytest.mark.parametrize(
    ("sentence", "facts"),
    [
        ("Ada Brook, who taught in Gdańsk.", ["Ada Brook taught in Gdańsk."]),
        (
            "Kenji Sato, who won the Mashiko Prize in 1988.",
            ["Kenji Sato won the Mashiko Prize.", "Kenji Sato won the Mashiko Prize in 1988."],
        ),
        (
            "Ada Brook, who taught in Gdańsk and retired in 2010.",
            ["Ada Brook taught in Gdańsk.", "Ada Brook retired in 2010."],
        ),
        ("The Gdańsk Academy, which was founded in 1947.", ["The Gdańsk Academy was founded in 1947."]),
        # look-alikes: a description without a name is the answer's subject's; "whose" tells of someone else
        (
            "A Danish marine biologist, born in Aarhus in 1988, who specialises in coral reefs.",
            ["A Danish marine biologist, born in Aarhus in 1988, who specialises in coral reefs."],
        ),
        ("Tom Reed, whose band toured Japan.", ["Tom Reed, whose band toured Japan."]),
    ],
)
def test_a_relative_clause_on_a_bare_name_is_said_of_it(sentence: str, facts: list[str]) -> None:
    assert [f.text for f in decompose_sentence(sentence)] == facts


RICHER = [
    (
        "Ada Brook (cellist)",
        "Ada Brook (born 1950) is a Polish cellist. She taught at the Gdańsk Academy of Music. She recorded the Bach "
        "cello suites in 1984.",
    ),
    (
        "Ada Brook (ecologist)",
        "Ada Brook (born 1975) is a Polish ecologist. She studied peat bogs in Biebrza. She founded the Wetland Pulse "
        "project in 2015.",
    ),
]
# Each namesake told two things of their own and one of the other's (the crossed fact).
CROSSED = [
    (
        "There are two: Ada Brook the cellist, a Polish cellist who recorded the Bach cello suites in 1984 and founded "
        "the Wetland Pulse project, and Ada Brook the ecologist, a Polish ecologist who studied peat bogs in Biebrza.",
        "Wetland Pulse",
    ),
    (
        "Ada Brook the ecologist, a Polish ecologist who studied peat bogs in Biebrza and taught at the Gdańsk Academy "
        "of Music, while Ada Brook the cellist, a Polish cellist who recorded the Bach cello suites in 1984.",
        "Gdańsk Academy",
    ),
    (
        "Two people share the name: Ada Brook the cellist, a Polish cellist who founded the Wetland Pulse project and "
        "recorded the Bach cello suites, whereas Ada Brook the ecologist, a Polish ecologist who studied peat bogs.",
        "Wetland Pulse",
    ),
]


@pytest.mark.parametrize(("answer", "crossed"), CROSSED)
def test_facts_crossed_between_namesakes_of_one_sentence_are_caught(answer: str, crossed: str) -> None:
    store = Store.in_memory(RICHER)
    result = check(answer, kb=store, name="Ada Brook")
    assert result.num_bios == 2
    assert {g.entity for g in result.groups} == {"Ada Brook (cellist)", "Ada Brook (ecologist)"}
    assert {g.mention for g in result.groups} == {"Ada Brook (cellist)", "Ada Brook (ecologist)"}
    said = [f for g in result.groups for f in g.facts if crossed in f.text]
    # said of the namesake whose page does not state it: not supported by the page it is linked to
    assert said and all(f.verdict_linked is not None and f.verdict_linked.value == "not_supported" for f in said)
    # and each namesake's part is read as a sentence about them, the tag left out
    facts = {f.text for g in result.groups for f in g.facts}
    assert {"Ada Brook is a cellist.", "Ada Brook is an ecologist."} <= facts
    off = check(answer, kb=store, name="Ada Brook", config=CheckConfig().without(["namesake-coordination"]))
    assert off.num_bios == 1
