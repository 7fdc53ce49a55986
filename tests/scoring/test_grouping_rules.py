"""Grouping: a person named in passing (a spouse, a team-mate) is no new biography."""

from __future__ import annotations

import pytest

from scoring import nlp
from scoring.grouping import find_mention, group_sentences


@pytest.mark.parametrize(
    ("subject", "sentences", "expected"),
    [
        (
            "Pim Okonkwo",
            [
                "Pim Okonkwo is a Nigerian chess player.",
                "His long-time rival Tariq Bello was also a grandmaster.",
                "Okonkwo won the national title in 2004.",
            ],
            [[0, 1, 2]],
        ),
        (
            "Lotte Brandvik",
            [
                "Lotte Brandvik was a Norwegian painter.",
                "Her husband Arne Solheim famously left her his studio.",
                "She died in Bergen in 1980.",
            ],
            [[0, 1, 2]],
        ),
        (  # a sentence about someone else that no longer speaks of the subject is a bio of its own
            "Pim Okonkwo",
            ["Pim Okonkwo is a Nigerian chess player.", "Tariq Bello is a Ghanaian footballer."],
            [[0], [1]],
        ),
        (  # the same name introduced again still opens a new individual
            "Lotte Brandvik",
            [
                "Lotte Brandvik was a Norwegian painter.",
                "Another Lotte Brandvik was a Swedish skier.",
            ],
            [[0], [1]],
        ),
    ],
)
def test_bystanders_stay_in_the_current_group(subject: str, sentences: list[str], expected: list[list[int]]) -> None:
    assert [g.sentences for g in group_sentences(sentences, subject)] == expected


@pytest.mark.parametrize(
    ("sentence", "name"),
    [
        ("Lucía Ferrer Ortega de la Vega, known as Lucy, is a Spanish sailor.", "Lucía Ferrer Ortega de la Vega"),
        ("Lucía Ferrer is a sailor.", "Lucía Ferrer"),
    ],
)
def test_particles_stay_inside_the_name(sentence: str, name: str) -> None:
    mention = find_mention(nlp.parse_one(sentence))
    assert mention is not None and mention.name == name


def test_a_transcript_turns_to_each_namesake_by_role() -> None:
    """ "Q: And the sailor?" opens the sailor's group; the question's "Q" is no name and presents no one."""
    sentences = [
        "Q: Which Declan Fairweather is this about?",
        "There are two well-known ones, so I'll cover both briefly.",
        "Q: Who is the surgeon?",
        "Declan Fairweather (1949–2019) was an Irish cardiac surgeon from Cork.",
        "Q: And the sailor?",
        "Declan Fairweather, born in Plymouth in 1983, was an English offshore sailor.",
    ]
    groups = group_sentences(sentences, "Declan Fairweather")
    assert [g.sentences for g in groups] == [[0, 1], [2, 3], [4, 5]]
    assert [g.disambiguator for g in groups] == [None, "surgeon", "sailor"]
    assert all(g.name == "Declan Fairweather" for g in groups)


def test_a_role_question_before_the_name_is_shared_is_no_cue() -> None:
    """Without an answer saying the name is shared, "And the sailor?" is a question about the same person."""
    sentences = [
        "Q: Who is Declan Fairweather?",
        "Declan Fairweather was an English offshore sailor.",
        "Q: And the sailor's boat?",
        "He sailed the Storm Petrel.",
    ]
    assert [g.sentences for g in group_sentences(sentences, "Declan Fairweather")] == [[0, 1, 2, 3]]


@pytest.mark.parametrize(
    "announcement",
    ["Søren Ødegaard may refer to:", "There are two well-known ones, so I'll cover both."],
)
def test_role_led_items_after_an_announcement_are_namesakes(announcement: str) -> None:
    sentences = [
        announcement,
        "the composer and organist (1912–1988), born in Bodø, wrote the symphony Polar Night.",
        "the footballer (born 1986) was a midfielder for Kjellvik FK.",
    ]
    groups = group_sentences(sentences, "Søren Ødegaard")
    assert [g.sentences for g in groups] == [[0], [1], [2]]
    assert [g.disambiguator for g in groups[1:]] == ["composer", "footballer"]


@pytest.mark.parametrize(
    ("item", "role"),
    [
        ("The film director, born 1978 in Bengaluru, made The Ninth Window.", "film director"),
        ("The road cyclist, born 1990 in Freiburg, rode for Team Velora.", "road cyclist"),
        ("The cellist, born 1968 in Kraków, founded a quartet.", "cellist"),
    ],
)
def test_a_role_of_two_words_presents_a_namesake(item: str, role: str) -> None:
    sentences = ["Three people named Priya Raghunathan are well known:", "The mathematician proved a bound.", item]
    groups = group_sentences(sentences, "Priya Raghunathan")
    assert [g.sentences for g in groups] == [[0, 1], [2]]
    assert groups[1].disambiguator == role
