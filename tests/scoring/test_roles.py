"""A year or place supports a fact only in the fact's role (born vs died vs drafted)."""

from __future__ import annotations

import pytest

from scoring.roles import misplaced_values

PAGE = (
    "Tomasz Wierzbicki (3 March 1871 – 19 October 1934) was a Polish cartographer. "
    "He was born in Lublin and studied at the academy in Kraków. In 1902 he joined the Geographical Society. "
    "He died in Gdańsk."
)
PAGE_BORN = "Odile Marchetti (born 1958) is a French cellist. She moved to Lyon in 1980 and was raised in Nantes."


@pytest.mark.parametrize(
    ("fact", "page", "misplaced"),
    [
        ("Tomasz Wierzbicki was born in 1934.", PAGE, ["1934"]),
        ("Tomasz Wierzbicki was born in 1871.", PAGE, []),
        ("Tomasz Wierzbicki died in 1934.", PAGE, []),
        ("Tomasz Wierzbicki died in 1871.", PAGE, ["1871"]),
        ("Tomasz Wierzbicki was born in Gdańsk.", PAGE, ["gdansk"]),
        ("Tomasz Wierzbicki was born in Gdansk.", PAGE, ["gdansk"]),
        ("Tomasz Wierzbicki was born in Lublin.", PAGE, []),
        ("Tomasz Wierzbicki joined the Geographical Society in 1902.", PAGE, []),
        ("Tomasz Wierzbicki joined the Geographical Society in 1871.", PAGE, ["1871"]),
        ("Tomasz Wierzbicki was born in 1902.", PAGE, ["1902"]),
        ("Odile Marchetti was born in 1958.", PAGE_BORN, []),
        ("Odile Marchetti was born in 1980.", PAGE_BORN, ["1980"]),
        ("Odile Marchetti was born in Nantes.", PAGE_BORN, ["nantes"]),
        ("Odile Marchetti moved to Lyon in 1980.", PAGE_BORN, []),
        # A year the page never mentions is the key-term gate's business, not a role mismatch.
        ("Odile Marchetti was born in 1961.", PAGE_BORN, []),
    ],
)
def test_value_counts_only_in_its_role(fact: str, page: str, misplaced: list[str]) -> None:
    name = " ".join(fact.split()[:2])
    assert [v.text for v in misplaced_values(fact, [page], (name,))] == misplaced
