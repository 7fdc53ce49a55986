"""Lengths of time checked against the dates a page gives: "spent 32 years as a consultant" is what "from
1982 to 2014 he was a consultant" says, and "spent 20 years" is not."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.enums import Stance
from scoring.durations import dated_in, durations
from scoring.verifier import OfflineVerifier
from scoring.verify import DATED_DURATION, EvidenceVerifier, VerifyConfig

TITLE = "Ilse Brandvold"
TEXT = (
    "Ilse Brandvold (born 1941 in Bergen) is a Norwegian hydrologist. From 1968 to 1996 she was a researcher at "
    "the Vestland Water Institute. She was mayor of Fjellby between 1999 and 2007. She edited the journal "
    "Nordic Rivers from 2001 to 2011, and served on its board for 4 years after that."
)
NAME = ("Ilse Brandvold",)


@pytest.mark.parametrize(
    ("phrase", "low", "high"),
    [
        ("for eight years", 7, 9),
        ("for 28 years", 27, 29),
        ("nearly three decades", 25, 30),
        ("more than three decades", 30, 39),
        ("over 30 years", 30, 34),
        ("about fifteen years", 13, 17),
        ("a decade", 6, 14),
        ("two dozen years", 22, 26),
    ],
)
def test_a_stated_length_admits_the_years_its_words_allow(phrase: str, low: int, high: int) -> None:
    (found,) = durations(f"She did it {phrase}.")
    assert (found.low, found.high) == (low, high)


def test_ages_and_compound_adjectives_are_no_lengths_of_time() -> None:
    assert durations("It comes with a two-year warranty.") == []
    assert durations("She was born in 1941.") == []


@pytest.mark.parametrize(
    "fact",
    [
        "Ilse Brandvold spent 28 years as a researcher at the Vestland Water Institute.",
        "Ilse Brandvold spent nearly three decades at the Vestland Water Institute.",
        "Ilse Brandvold ran Fjellby for eight years.",  # "ran" for "was mayor of": names and length suffice
        "Ilse Brandvold edited Nordic Rivers for a decade.",
    ],
)
def test_a_length_the_page_dates_is_stated_there(fact: str) -> None:
    assert dated_in(fact, [TEXT], NAME)


@pytest.mark.parametrize(
    "fact",
    [
        "Ilse Brandvold spent 20 years at the Vestland Water Institute.",  # the range is 28 years
        "Ilse Brandvold ran Fjellby for more than three decades.",
        "Ilse Brandvold spent 28 years at the Oslo Water Institute.",  # a name the sentence lacks
        "Ilse Brandvold spent 8 years in parliament.",  # a range of that length, about something else
        "Ilse Brandvold edited Nordic Rivers for a decade and 3 issues.",  # a number the sentence lacks
    ],
)
def test_a_length_that_does_not_fit_or_dates_something_else_is_not(fact: str) -> None:
    assert not dated_in(fact, [TEXT], NAME)


@pytest.mark.parametrize(
    "fact",
    [
        "Ilse Brandvold spent 28 years as a researcher at the Vestland Water Institute.",
        "Ilse Brandvold ran Fjellby for eight years.",
    ],
)
def test_the_verifier_supports_a_dated_length_by_the_rule(store: Store, verifier: OfflineVerifier, fact: str) -> None:
    verdict = EvidenceVerifier(store, verifier).against(fact, TITLE, TITLE)
    assert (verdict.stance, verdict.decided_by) == (Stance.SUPPORT, DATED_DURATION)
    assert verdict.evidence and "19" in verdict.evidence[0].text
    off = EvidenceVerifier(store, verifier, config=VerifyConfig(rules_off=frozenset({DATED_DURATION})))
    assert off.against(fact, TITLE, TITLE).stance is not Stance.SUPPORT


def test_a_wrong_length_is_not_supported(store: Store, verifier: OfflineVerifier) -> None:
    fact = "Ilse Brandvold spent 12 years as a researcher at the Vestland Water Institute."
    assert EvidenceVerifier(store, verifier).against(fact, TITLE, TITLE).stance is not Stance.SUPPORT


@pytest.mark.parametrize(
    "fact",
    [
        # a range whose end is dated in a clause of its own
        "Ilse Brandvold led the Vestland Water Institute for twelve years.",
        # a length said as an adjective, where a page dates it
        "Ilse Brandvold served a twelve-year term at the Vestland Water Institute.",
        # a title said otherwise: most of the names suffice ("Bureau" for "Institute" is not on the page)
        "Ilse Brandvold headed the Vestland Water Bureau for twelve years.",
        # a numbered line's number is no value of the fact
        "3/ Spent almost two decades as director of the Vestland Water Institute.",
    ],
)
def test_open_ranges_adjectives_and_numbered_lines(fact: str) -> None:
    page = "From 1999 until she retired in 2011 she was director of the Vestland Water Institute."
    assert dated_in(fact, [page], NAME) is ("two decades" not in fact)
    if "two decades" in fact:
        assert dated_in(fact, ["From 1993 to 2011 she was director of the Vestland Water Institute."], NAME)


@pytest.mark.parametrize(
    "fact",
    [
        "Ilse Brandvold led the Vestland Water Institute for fifteen years.",  # 12 by the page
        "Ilse Brandvold served a seven-year term at the Vestland Water Institute.",
        "Ilse Brandvold headed the Oslo Harbour Bureau for twelve years.",  # none of its names
        "Ilse Brandvold was a seven-year-old at the Vestland Water Institute.",  # an age, not a length
    ],
)
def test_a_wrong_length_in_those_forms_is_not_dated(fact: str) -> None:
    page = "From 1999 until she retired in 2011 she was director of the Vestland Water Institute."
    assert not dated_in(fact, [page], NAME)


def test_an_adjective_length_is_no_duration_where_sentences_are_split() -> None:
    assert durations("a seven-year apprenticeship") == []
    assert [(d.low, d.high) for d in durations("a seven-year apprenticeship", adjectives=True)] == [(6, 8)]
