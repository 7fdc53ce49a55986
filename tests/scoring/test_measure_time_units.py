"""``contradicted-measure`` across the units of time: a page that gives a time in a finer unit ("9 hours and 47
minutes", read as 587 minutes) rivals a fact's time in a coarser one ("in 11 hours") that is no rounding of it;
a rounding either way ("10 hours", "9 hours") and a page in a coarser unit than the fact's are left alone."""

from __future__ import annotations

import pytest

from scoring.measures import measure_contradicted

PAGE = [
    "In 2010 she swam the English Channel in 9 hours and 47 minutes.",
    "In 2014 she swam around the Cape Peninsula, taking 14 hours and 20 minutes.",
    "The relay leg lasted about 2 hours.",
]


@pytest.mark.parametrize(
    "fact",
    [
        "She swam the English Channel in 11 hours.",
        "She swam the English Channel in 11 hours and 47 minutes.",  # one time in two units, 707 minutes
        "She swam around the Cape Peninsula in 12 hours.",
        "The English Channel swim took her 8 hours.",
    ],
)
def test_a_time_no_rounding_of_the_pages_is_contradicted(fact: str) -> None:
    assert measure_contradicted(fact, PAGE) != []


@pytest.mark.parametrize(
    "fact",
    [
        "She swam the English Channel in 10 hours.",  # rounded up
        "She swam the English Channel in 9 hours.",  # rounded down
        "She swam the English Channel in 9 hours and 47 minutes.",  # the page's time
        "She swam around the Cape Peninsula in 15 hours.",  # 14 hours and 20 minutes, rounded up
        "The relay leg lasted 130 minutes.",  # the page's unit is coarser: "about 2 hours" may round it
    ],
)
def test_a_rounding_or_a_coarser_page_unit_is_not_contradicted(fact: str) -> None:
    assert measure_contradicted(fact, PAGE) == []
