"""Namesakes laid out in one sentence (``namesake-coordination``): the same full name twice, each time told apart
by a description, the second after a joining word, is read as one sentence a namesake; look-alikes stay whole."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from scoring.decompose import decompose_sentence
from scoring.pipeline import CheckConfig, check
from scoring.segment.namesakes import namesake_parts
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
