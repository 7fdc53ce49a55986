"""The folded forms text is compared in."""

from __future__ import annotations

import pytest

from vocabulary import fold_ascii, fold_claim


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("Søren Ødegaard", "soren odegaard"),
        ("Łódź", "lodz"),
        ("Straße", "strasse"),
        ("Æsir", "aesir"),
        ("Ågot Lindstrøm-Hale", "agot lindstrom-hale"),
        ("Zoë Ferrán", "zoe ferran"),
        # punctuation outside ASCII is kept as its ASCII form, so words stay apart
        ("Tromsvik IL (2005–2009)", "tromsvik il (2005-2009)"),
        ("O’Brien — “the Wall”", 'o\'brien - "the wall"'),
        ("plain ascii, kept", "plain ascii, kept"),
    ],
)
def test_fold_ascii_keeps_every_word(text: str, folded: str) -> None:
    assert fold_ascii(text) == folded


def test_fold_claim_reads_a_year_range_as_two_years() -> None:
    assert fold_claim("He began at Tromsvik IL (2005–2009), then") == "he began at tromsvik il 2005 2009 then"
    assert fold_claim("Ødegaard’s club") == "odegaard s club"
