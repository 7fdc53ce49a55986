from __future__ import annotations

import pytest

from scoring.datelines import date_lines
from scoring.decompose import decompose_sentence
from scoring.records import DATED_LINES, DATED_RULES, dated_line
from scoring.sentences import split_sentences


@pytest.mark.parametrize(
    ("item", "pronoun", "read"),
    [
        ("1955 – marries the bassist Eddie Coles", "she", "In 1955, she marries the bassist Eddie Coles."),
        ("1939–1942 – studies at the Tybee Art School", "he", "From 1939 to 1942, he studies at the Tybee Art School."),
        ("1921 – born in Charleston, South Carolina", "he", "In 1921, he was born in Charleston, South Carolina."),
        ("1958 – the trio releases Brushfire", "she", "In 1958, the trio releases Brushfire."),
        ("2004: dies in Beaufort", "he", "In 2004, he dies in Beaufort."),
        ("1987 — Won the Ostrava Marathon", "she", "In 1987, she won the Ostrava Marathon."),
        ("2011–14 – coaches Vitesse Arnhem", "he", "From 2011 to 2014, he coaches Vitesse Arnhem."),
        ("2016–present – serves as dean of the law school", "she", "Since 2016, she serves as dean of the law school."),
        ("1961 – Born in Strasbourg", "they", "In 1961, they were born in Strasbourg."),
        # an item that dates itself keeps its own dates: the label's year is not put before all its claims
        (
            "1977 — Comes from Dingle, where she was born in 1977.",
            "she",
            "She comes from Dingle, where she was born in 1977.",
        ),
        (
            "2004 — Played in Ceol na Mara between 2004 and 2014",
            "she",
            "She played in Ceol na Mara between 2004 and 2014.",
        ),
        ("1990 – born in Leeds in 1990", "he", "He was born in Leeds in 1990."),
    ],
)
def test_an_item_of_a_date_list_is_read_with_its_date_first(item: str, pronoun: str, read: str) -> None:
    reading = dated_line(item, pronoun)
    assert reading is not None and reading.text == read
    # every character maps back into the item as written
    assert len(reading.offsets) == len(reading.text) and all(0 <= o < len(item) for o in reading.offsets)
    assert dated_line(item, pronoun, rules_off=frozenset({DATED_LINES})) is None


@pytest.mark.parametrize(
    ("item", "pronoun"),
    [
        ("1990 – retrospective at the Whitlow Museum of Art", "he"),  # no verb: left as it is
        ("He retired in 1990 – the year of the merger.", "he"),  # the year is not the line's first word
        ("1,200 – the number of paintings he made", "he"),  # a count, not a year
        ("1955 – marries the bassist Eddie Coles", None),  # an answer about no person
        ("Summer 1990 – tours Japan", "she"),
    ],
)
def test_what_is_no_date_list_item_is_not_read_as_one(item: str, pronoun: str | None) -> None:
    assert dated_line(item, pronoun) is None


def test_the_rule_object_holds_its_phrasings_and_reads_them() -> None:
    (rule,) = DATED_RULES
    assert rule.name == DATED_LINES and len(rule.examples) >= 3
    for example in rule.examples:
        assert dated_line(example, "she") is not None, example


@pytest.mark.parametrize(
    ("lines", "flags"),
    [
        (["1927 – born in Kansas City", "1946 – joins the orchestra"], [True, True]),
        (["Timeline", "1990: joins Acme", "1995: leaves Acme", "Then she retired."], [False, True, True, False]),
        (["2001 – 2004 – studies law", "2005 – called to the bar"], [True, True]),
        # one line opening with a year is a sentence, not a date list
        (["1990 – a good year for the club.", "She joined it then."], [False, False]),
        (["In 1990 – she joined.", "In 1995 – she left."], [False, False]),
    ],
)
def test_date_lines_need_two_lines_that_open_with_a_date(lines: list[str], flags: list[bool]) -> None:
    assert date_lines(lines) == flags


def test_a_date_list_without_full_stops_is_one_sentence_a_line() -> None:
    answer = (
        "Ona Vale — timeline\n\n1931 – born in Tartu\n1950–1954 – studies chemistry in Riga\n"
        "1962 – marries the pianist Aivo Kask\n2009 – dies in Tallinn"
    )
    texts = [s.text for s in split_sentences(answer)]
    assert texts == [
        "Ona Vale — timeline",
        "1931 – born in Tartu",
        "1950–1954 – studies chemistry in Riga",
        "1962 – marries the pianist Aivo Kask",
        "2009 – dies in Tallinn",
    ]
    assert all(s.list_item for s in split_sentences(answer)[1:])


def test_lines_that_are_prose_still_join() -> None:
    answer = "She moved to Riga in\n1950 and studied chemistry there.\nShe married in 1962."
    texts = [s.text for s in split_sentences(answer)]
    assert texts == ["She moved to Riga in 1950 and studied chemistry there.", "She married in 1962."]


def test_a_dated_reading_decomposes_with_its_date() -> None:
    reading = dated_line("1962 – marries the pianist Aivo Kask", "she")
    assert reading is not None
    facts = [f.text for f in decompose_sentence(reading.text)]
    assert "She marries the pianist Aivo Kask." in facts
    assert any("1962" in f and "marries" in f for f in facts), facts
