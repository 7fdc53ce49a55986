"""Dates given relative to another event (scoring/relative_dates.py) and the verify rule ``relative-date``:
"handed the foundry to his son four years before his death" is "in 1962" where the page dates his death 1966,
and "two years before his death" is then a wrong date, refuted or not supported, never left to the model."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.enums import Stance
from scoring.relative_dates import resolve
from scoring.verifier import OfflineVerifier
from scoring.verify import RELATIVE_DATE, EvidenceVerifier, VerifyConfig

TITLE = "Tobiah Quenneville"
TEXT = (
    "Tobiah Quenneville (1889 – 1966) was a Canadian bell founder. He studied metallurgy at Laval from 1906 to "
    "1910. He led the Sorel foundry strike of 1919. In 1921 he founded the Quenneville Bell Works in Trois-Rivières. "
    "From 1930 to 1948 he was master founder of the Ottawa Carillon Guild. His son Lucien took over the foundry in "
    "1962. Quenneville died in Trois-Rivières in 1966."
)
PAGES = [TEXT]


@pytest.mark.parametrize(
    ("fact", "read"),
    [
        (
            "His son Lucien took over the foundry four years before his death.",
            "His son Lucien took over the foundry in 1962.",
        ),
        (
            "Two years after the strike he founded the Quenneville Bell Works.",
            "In 1921 he founded the Quenneville Bell Works.",
        ),
        (
            "He was master founder of the Ottawa Carillon Guild the year after leaving Trois-Rivières.",
            None,  # the page dates no leaving of Trois-Rivières
        ),
        (
            "He set up his first workshop a couple of years after finishing.",
            None,  # two ranges of years on the page: which one was finished is not said
        ),
        (
            "He joined the Ottawa Carillon Guild twelve years after leaving Laval.",
            "He joined the Ottawa Carillon Guild in 1922.",
        ),
        ("He founded the Quenneville Bell Works in 1921.", None),  # no relative date
    ],
)
def test_a_relative_date_is_read_from_the_pages_date_of_its_event(fact: str, read: str | None) -> None:
    assert resolve(fact, PAGES) == read


def test_an_event_the_page_dates_twice_is_not_read() -> None:
    pages = ["She married Ansel Dorn in 1950. She married Piet Laar in 1961."]
    assert resolve("She moved to Utrecht three years after her marriage.", pages) is None


@pytest.mark.parametrize(
    "fact",
    [
        "His son Lucien took over the foundry four years before his death.",
        "Two years after the strike Tobiah Quenneville founded the Quenneville Bell Works.",
        "Tobiah Quenneville founded the Quenneville Bell Works eleven years after finishing at Laval.",
    ],
)
def test_a_right_relative_date_is_supported(store: Store, verifier: OfflineVerifier, fact: str) -> None:
    verdict = EvidenceVerifier(store, verifier).against(fact, TITLE, TITLE)
    assert verdict.stance is Stance.SUPPORT
    assert verdict.decided_by in (RELATIVE_DATE, "numeral-reading")


@pytest.mark.parametrize(
    "fact",
    [
        "His son Lucien took over the foundry two years before his death.",
        "Five years after the strike Tobiah Quenneville founded the Quenneville Bell Works.",
        "Tobiah Quenneville founded the Quenneville Bell Works three years after finishing at Laval.",
    ],
)
def test_a_wrong_relative_date_is_refuted_or_not_supported(store: Store, verifier: OfflineVerifier, fact: str) -> None:
    verdict = EvidenceVerifier(store, verifier).against(fact, TITLE, TITLE)
    assert verdict.stance is not Stance.SUPPORT
    assert verdict.decided_by in (RELATIVE_DATE, "numeral-reading")


def test_the_rule_can_be_switched_off(store: Store, verifier: OfflineVerifier) -> None:
    fact = "His son Lucien took over the foundry four years before his death."
    off = VerifyConfig(rules_off=frozenset({RELATIVE_DATE, "numeral-reading"}))
    assert EvidenceVerifier(store, verifier, config=off).against(fact, TITLE, TITLE).decided_by != RELATIVE_DATE
