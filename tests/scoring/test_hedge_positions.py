"""strip_hedges builds the text it keeps again only when a hedge goes: what it returns is still the characters at
the positions it keeps, and a sentence without a hedge comes back whole."""

from __future__ import annotations

import pytest

from scoring.hedges import strip_hedges


@pytest.mark.parametrize(
    ("text", "stripped", "hedged"),
    [
        ("Hanley, I think, was born in 1896.", "Hanley was born in 1896.", True),
        ("If I recall correctly, she joined IK Norrvik in 1990.", "she joined IK Norrvik in 1990.", True),
        ("She played for IK Norrvik (1990–1998) (I think).", "She played for IK Norrvik (1990–1998).", True),
        ("I believe he moved to Lagos in 1980, if I'm not mistaken.", "he moved to Lagos in 1980.", True),
        # a preface comes off, and the claim is not reported as hedged
        (
            "Note that a reset erases all settings on the Nimbus AX3200.",
            "a reset erases all settings on the Nimbus AX3200.",
            False,
        ),
    ],
)
def test_the_kept_positions_spell_the_stripped_text(text: str, stripped: str, hedged: bool) -> None:
    assert strip_hedges(text)[::2] == (stripped, hedged)
    out, keep, _ = strip_hedges(text)
    assert out == "".join(text[i] for i in keep)
    assert keep == sorted(set(keep))


@pytest.mark.parametrize(
    "text",
    [
        "Hanley was born in 1896 in Oslo.",
        "She thinks in colours, her critics wrote in 1990.",
        "He recalled the 1956 final in Melbourne.",
    ],
)
def test_a_sentence_without_a_hedge_comes_back_whole(text: str) -> None:
    assert strip_hedges(text) == (text, list(range(len(text))), False)
