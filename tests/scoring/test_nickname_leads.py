"""``quoted-nickname-leads``: a nickname in quotes inside a lead's name is no word of the name, so headings that
present namesakes, one with a nickname, still scope them."""

from __future__ import annotations

import pytest

from scoring.segment.scopes import QUOTED_NICKNAME_LEADS, person_lead


@pytest.mark.parametrize(
    ("lead", "name"),
    [
        ('Theodore "Ironhand" Vance (1909–1971)', "Theodore Vance"),
        ('Robert "Bob" Hale, potter', "Robert Hale"),
        ("Ada “Dot” Brook — cellist", "Ada Brook"),
    ],
)
def test_a_nickname_in_quotes_is_no_word_of_the_leads_name(lead: str, name: str) -> None:
    found = person_lead(lead)
    assert found is not None and found.name == name
    off = person_lead(lead, frozenset({QUOTED_NICKNAME_LEADS}))
    assert off is None or off.name != name


@pytest.mark.parametrize(
    ("lead", "name"),
    [
        ('"Ironhand"', None),  # all quotes: no name
        ('Ada Brook, "Sea Songs"', "Ada Brook"),  # a quoted title after the name stays the description
        ("Ada Brook (cellist)", "Ada Brook"),
    ],
)
def test_look_alikes_of_a_nickname_are_read_as_before(lead: str, name: str | None) -> None:
    found = person_lead(lead)
    assert (found.name if found is not None else None) == name
    before = person_lead(lead, frozenset({QUOTED_NICKNAME_LEADS}))
    assert found == before
