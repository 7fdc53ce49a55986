"""Readings that broke on blind answers (issue 28): each written as the pattern behind it, with look-alikes that
must keep their reading."""

from __future__ import annotations

import pytest

from scoring.records import thing_name


@pytest.mark.parametrize(
    "first",
    [
        "There are two:",
        "There is one plan for teams:",
        "Here are the main features:",
        "These are the specs:",
        "It is a budgeting app.",
        "This is what the X2 offers:",
    ],
)
def test_an_existential_or_pointing_opening_names_no_thing(first: str) -> None:
    assert thing_name([first, "Security: AES-256 encryption"]) is None


@pytest.mark.parametrize(
    ("first", "name"),
    [
        ("Tallyleaf is a personal budgeting app.", "Tallyleaf"),
        ("Acme X2 is a dual-band router.", "Acme X2"),
        ("Thereon Labs is a startup in Oslo.", "Thereon Labs"),
        ("Heren Cloud was launched in 2019.", "Heren Cloud"),
    ],
)
def test_a_thing_named_at_the_start_is_the_things_name(first: str, name: str) -> None:
    assert thing_name([first]) == name
