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
