"""A bare amount under a label that is no known predicate ("Price: £4.99 / month") is read as the subject's such
value, and a table's cell that is a bare amount keeps its row's label (rule ``amount-records``)."""

from __future__ import annotations

import pytest

from scoring.records import AMOUNT_RECORDS, amount_value, prose
from scoring.segment.tables import records


@pytest.mark.parametrize(
    ("line", "pronoun", "read"),
    [
        ("Price: £4.99 / month", "they", "Their price is £4.99 / month."),
        ("Entry fee: €40", "she", "Her entry fee is €40."),
        ("Monthly cost: $29 per agent", "it", "Its monthly cost is $29 per agent."),
        ("Launch price: $149", "he", "His launch price is $149."),
    ],
)
def test_a_bare_amount_is_the_value_the_label_names(line: str, pronoun: str, read: str) -> None:
    assert prose(line, pronoun).text == read
    assert prose(line, pronoun, rules_off=frozenset({AMOUNT_RECORDS})).text == line


@pytest.mark.parametrize(
    ("line", "pronoun", "read"),
    [
        # A count that takes a verb of its own keeps it; a year and a sentence are no amount.
        ("Caps: 23", "he", "Caps: he had 23."),
        ("Debut: 1998", "he", "Debut: he had 1998."),
        (
            "Olympics: 14th in the road race at the 2016 Summer Olympics",
            "she",
            "Olympics: she was 14th in the road race at the 2016 Summer Olympics.",
        ),
        ("Born: 1912, Tromsø", "she", "She was born in 1912 in Tromsø."),
    ],
)
def test_what_is_no_bare_amount_is_read_as_before(line: str, pronoun: str, read: str) -> None:
    assert prose(line, pronoun).text == read


@pytest.mark.parametrize(
    ("value", "amount"),
    [
        ("£4.99 / month", True),
        ("$12 per agent", True),
        ("Up to 2", True),
        ("every 4 hours", True),
        ("99.9%", True),
        ("1990 Boston Marathon", False),
        ("1985", False),
        ("1995–2009", False),
        ("Unlimited", False),
        ("3 titles with Rosenborg and Molde in Norway", False),
    ],
)
def test_a_bare_amount(value: str, amount: bool) -> None:
    assert amount_value(value) is amount


def test_a_tables_amount_cell_keeps_its_row_label_and_other_cells_do_not() -> None:
    rows = (
        ("", "Free", "Tallbrook Plus"),
        ("Price", "£0", "£3.50 / month"),
        ("Race win", "—", "2019 Boston Marathon"),
        ("Devices", "Phone only", "Phone and tablet"),
    )
    texts = [r.text for r in records(rows) if r.key == "col:2"]
    assert texts == ["Tallbrook Plus", "Price: £3.50 / month", "- 2019 Boston Marathon", "- Phone and tablet"]
