"""contradicted-hours: a fact saying every hour or every day against a page that bounds the hours or the days."""

from __future__ import annotations

import pytest

from scoring.hours import hours_bounded

DESK = "The support desk answers calls from 9 am to 5 pm, Monday to Friday."


@pytest.mark.parametrize(
    ("fact", "pages", "at"),
    [
        # every hour, the page's clock range; every day, the page's weekdays
        ("The support desk answers calls around the clock.", [DESK], 0),
        ("The support desk is staffed 24/7.", ["Opening hours.", "The desk is staffed 8:30–18:00."], 1),
        ("The library opens round the clock.", ["The library opens between 8 and 20 on weekdays."], 0),
        ("The support desk answers calls seven days a week.", [DESK], 0),
        ("The pool is open every day.", ["The pool is open Monday to Saturday."], 0),
        # look-alikes: a page that says every hour too, a bounded sentence about something else, no such phrase
        ("The support desk answers calls around the clock.", [DESK, "Urgent calls are answered 24/7."], None),
        ("The café serves breakfast around the clock.", [DESK], None),
        ("The support desk answers calls from 9 am to 5 pm.", [DESK], None),
        ("The clock tower was built in 1890.", ["The tower was built from 1888 to 1890."], None),
        ("The support desk answers calls around the clock.", ["The support desk answers calls."], None),
    ],
)
def test_every_hour_or_day_is_refuted_by_a_page_that_bounds_them(fact: str, pages: list[str], at: int | None) -> None:
    assert hours_bounded(fact, pages) == at
