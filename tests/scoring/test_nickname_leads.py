"""``quoted-nickname-leads``: a nickname in quotes inside a lead's name is no word of the name, so headings that
present namesakes, one with a nickname, still scope them."""

from __future__ import annotations

import pytest

from scoring.segment.scopes import BOLD_LEAD_DATES, QUOTED_NICKNAME_LEADS, item_lead, person_lead


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


# ``bold-lead-dates``: a disambiguation page's entry, too long for a lead, leads with its bold name and its dates.
@pytest.mark.parametrize(
    ("item", "name", "dates"),
    [
        (
            "**Phạm Quốc Bảo (cinematographer)** (born 1976), Vietnamese director of photography from Huế; shot *The "
            "Ferryman's Daughter* (2014) and won the Silver Kite at the Mekong Film Festival",
            "Phạm Quốc Bảo",
            "born 1976",
        ),
        (
            "**Ada Brook (cellist)** (1950–2020), Polish cellist who taught at the Gdańsk Academy of Music for thirty "
            "years and recorded the Bach cello suites twice",
            "Ada Brook",
            "1950–2020",
        ),
        (
            "**Kenji Sato (sprinter)** (b. 1991), Japanese sprinter; ran the 100 metres at two Olympic Games and won "
            "the national title four times between 2012 and 2019",
            "Kenji Sato",
            "b. 1991",
        ),
    ],
)
def test_a_long_entry_leads_with_its_bold_name_and_dates(item: str, name: str, dates: str) -> None:
    lead = person_lead(item_lead(item) or "")
    assert lead is not None and lead.name == name and lead.dates == dates
    off = person_lead(item_lead(item, frozenset({BOLD_LEAD_DATES})) or "")
    assert off is None or off.dates != dates


@pytest.mark.parametrize(
    ("item", "description"),
    [
        ("**Ada Brook** (b. 1950), cellist: taught in Gdańsk.", "cellist"),
        ("**Kenji Sato** (1951–2020), potter", "potter"),
        ("**Ada Brook (ecologist)**: studied peat bogs in Biebrza.", "ecologist"),
    ],
)
def test_a_short_lead_is_read_with_its_description_as_before(item: str, description: str) -> None:
    lead = person_lead(item_lead(item) or "")
    assert lead is not None and lead.description == description
    assert item_lead(item) is not None
