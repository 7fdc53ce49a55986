"""Counts whose noun is left out after the first ("won 61 fights, lost 9 and drawn 3") and perfect participles
("having won …", "drawn 3" without an auxiliary) are decomposed as the statements they make; look-alikes stay."""

from __future__ import annotations

import pytest

from scoring.decompose import decompose_sentence


@pytest.mark.parametrize(
    ("sentence", "facts"),
    [
        ("He won 61 fights, lost 9 and drew 3.", ["He won 61 fights.", "He lost 9 fights.", "He drew 3 fights."]),
        ("She played 120 matches and won 80.", ["She played 120 matches.", "She won 80 matches."]),
        (
            "He retired in 1941, having won 61 bouts and lost 9.",
            ["He retired in 1941.", "He won 61 bouts.", "He lost 9 bouts."],
        ),
        (
            "He ended his career in 1941 having won 61 fights, lost 9 and drawn 3.",
            [
                "He ended his career.",
                "He ended his career in 1941.",
                "He won 61 fights.",
                "He lost 9 fights.",
                "He drew 3 fights.",
            ],
        ),
        ("He left the club, having scored 40 goals.", ["He left the club.", "He scored 40 goals."]),
        # look-alikes: a year is no count; a passive's second participle leans on its auxiliary
        ("He won 3 titles and lost 1995.", ["He won 3 titles.", "He lost 1995."]),
        ("He was born in 1950 and raised in Leeds.", ["He was born in 1950.", "He was raised in Leeds."]),
        (
            "She was elected in 1990 and re-elected in 1994.",
            ["She was elected in 1990.", "She was re-elected in 1994."],
        ),
    ],
)
def test_elided_counts_and_perfect_participles(sentence: str, facts: list[str]) -> None:
    assert [f.text for f in decompose_sentence(sentence)] == facts
