"""Numbers an answer spells out, read in digits (scoring/numerals.py), and the verify rule ``numeral-reading`` that
checks a fact in that reading: "forty-three tide gauges" is what a page's "43 tide gauges" says, "forty-four" is
not."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.enums import Stance
from scoring.numerals import in_digits
from scoring.verifier import OfflineVerifier
from scoring.verify import NUMERAL_READING, STATED_COUNT, EvidenceVerifier, VerifyConfig

TITLE = "Brannoc Ilvesmaa"
TEXT = (
    "Brannoc Ilvesmaa (1938 – 2011) was a Finnish oceanographer. In 1974 he installed a network of 43 tide gauges "
    "along the Gulf of Bothnia. He charted 27 submerged reefs off Åland. In 1990 he built a 1,600-piece map "
    "archive for the Turku Marine Station. His sediment cores span about 7,000 years of Baltic history."
)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("installed forty-three tide gauges", "installed 43 tide gauges"),
        ("installed forty three tide gauges", "installed 43 tide gauges"),
        ("a map archive of sixteen hundred pieces", "a map archive of 1,600 pieces"),
        ("born in nineteen thirty-eight", "born in 1938"),
        ("died in twenty eleven", "died in 2011"),
        ("in two thousand and eight", "in 2008"),
        ("three hundred and forty clocks", "340 clocks"),
        ("finished in '92", "finished in 1992"),
        ("cores spanning roughly seven millennia", "cores spanning roughly 7,000 years"),
        ("a seven-year apprenticeship", "a 7-year apprenticeship"),
    ],
)
def test_spelled_numbers_are_read_in_digits(text: str, read: str) -> None:
    assert in_digits(text) == read


@pytest.mark.parametrize(
    "text",
    [
        "one of the founders",  # a lone "one" is too often no number
        "he counted two three times",  # no one number
        "a hundred reasons",
        "born in Bergen",
        "the 1974 network",
    ],
)
def test_what_is_no_spelled_number_stays_as_written(text: str) -> None:
    assert in_digits(text) == text


@pytest.mark.parametrize(
    ("fact", "rule"),
    [
        # a spelled count of things is read by the count rule itself ("forty-three" is 43, scoring/counts.py)
        ("Brannoc Ilvesmaa installed forty-three tide gauges along the Gulf of Bothnia.", STATED_COUNT),
        ("Brannoc Ilvesmaa charted twenty-seven submerged reefs off Åland.", STATED_COUNT),
        ("Brannoc Ilvesmaa died in twenty eleven.", NUMERAL_READING),
        ("His sediment cores span roughly seven millennia of Baltic history.", NUMERAL_READING),
    ],
)
def test_a_spelled_number_the_page_writes_in_digits_is_supported(
    store: Store, verifier: OfflineVerifier, fact: str, rule: str
) -> None:
    verdict = EvidenceVerifier(store, verifier).against(fact, TITLE, TITLE)
    assert (verdict.stance, verdict.decided_by) == (Stance.SUPPORT, rule)


@pytest.mark.parametrize(
    "fact",
    [
        "Brannoc Ilvesmaa installed forty-four tide gauges along the Gulf of Bothnia.",
        "Brannoc Ilvesmaa charted thirty-seven submerged reefs off Åland.",
        "Brannoc Ilvesmaa died in twenty twelve.",
        "His sediment cores span roughly nine millennia of Baltic history.",
    ],
)
def test_a_wrong_spelled_number_is_not_supported(store: Store, verifier: OfflineVerifier, fact: str) -> None:
    assert EvidenceVerifier(store, verifier).against(fact, TITLE, TITLE).stance is not Stance.SUPPORT


def test_the_reading_can_be_switched_off(store: Store, verifier: OfflineVerifier) -> None:
    fact = "Brannoc Ilvesmaa died in twenty eleven."
    assert EvidenceVerifier(store, verifier).against(fact, TITLE, TITLE).decided_by == NUMERAL_READING
    off = EvidenceVerifier(store, verifier, config=VerifyConfig(rules_off=frozenset({NUMERAL_READING})))
    assert off.against(fact, TITLE, TITLE).decided_by != NUMERAL_READING


@pytest.mark.parametrize(
    ("page", "fact", "read"),
    [
        # the page spells the number as the fact does: read as written (against a request's own document, a digit
        # reading would find no "3" and be refuted)
        ("The L7 comes with a three-year warranty.", "The L7 comes with a three-year warranty.", False),
        ("The club won twenty-one titles.", "The club won twenty-one titles.", False),
        ("Ilvesmaa mapped forty-three reefs in twenty eleven.", "Ilvesmaa mapped forty-three reefs.", False),
        # look-alikes: the page writes digits, or spells another number
        ("The L7 comes with a 3-year warranty.", "The L7 comes with a three-year warranty.", True),
        ("Ilvesmaa retired from mapping reefs in 2011.", "Ilvesmaa retired from mapping reefs in twenty eleven.", True),
    ],
)
def test_a_page_that_spells_the_number_too_is_read_as_written(page: str, fact: str, read: bool) -> None:
    kb = Store.in_memory()
    kb.add_pages([("Larkspur L7", page, [])])
    verdict = EvidenceVerifier(kb, OfflineVerifier.load()).against(fact, "Larkspur L7", "Larkspur L7")
    assert (verdict.decided_by == NUMERAL_READING) is read
