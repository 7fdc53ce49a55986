"""The first sentence moved out of a merged biography names the other person by the page title."""

from __future__ import annotations

import pytest

from scoring.revise import _relabel

LABEL = "Ines Holloway (sculptor)"


@pytest.mark.parametrize(
    ("sentence", "first", "expected"),
    [
        (
            "Holloway also carved the river gate in 1990.",
            True,
            "Ines Holloway (sculptor) also carved the river gate in 1990.",
        ),
        ("She carved the river gate.", True, "Ines Holloway (sculptor) carved the river gate."),
        ("Ines Holloway carved the river gate.", True, "Ines Holloway (sculptor) carved the river gate."),
        ("Holloway also carved the river gate.", False, "Holloway also carved the river gate."),
        ("The river gate was carved in 1990.", True, "The river gate was carved in 1990."),
    ],
)
def test_first_moved_sentence_gets_the_title(sentence: str, first: bool, expected: str) -> None:
    assert _relabel(sentence, "Ines Holloway", LABEL, first=first) == expected
