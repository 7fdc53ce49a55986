"""Numbers against a request's own documents (a tool's output, a retrieved document) are read exactly: a number the
fact writes that the document does not hold, where the document gives numbers beside the fact's words, is refuted
(``unmatched-number``); against a page of the store the rule does not apply."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from knowledge.documents import DocumentSource
from knowledge.store import Store
from schemas.enums import Stance
from scoring.verifier import OfflineVerifier
from scoring.verify import KEY_TERMS_MISSING, UNMATCHED_NUMBER, EvidenceVerifier, VerifyConfig, digit_numbers

SHIPPING = (
    "The order id is A-4417. The carrier is Parcelia. The shipped on is 2026-11-20. The estimated delivery is "
    "2026-11-26. The weight kg is 3.4."
)
CONVERSION = "The from is EUR. The to is USD. The amount is 129.0. The rate is 1.0842. The converted amount is 139.86."
SOURCE = "Conversation"
DOCUMENTS = [
    ("get_shipping", SHIPPING, SOURCE, "call_ship"),
    ("convert_currency", CONVERSION, SOURCE, "call_fx"),
]


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("That is 139.86 USD.", {139.86}),
        ("129 EUR and 129.0 EUR", {129.0}),
        ("Order A-4417 was placed on 2026-11-18.", {4417.0, 2026.0, 11.0, 18.0}),
        ("a total of 1,250.5 EUR", {1250.5}),
        ("two lamps", set()),
    ],
)
def test_digit_numbers_are_values(text: str, numbers: set[float]) -> None:
    assert digit_numbers(text) == numbers


@pytest.fixture
def documents() -> Iterator[DocumentSource]:
    source = DocumentSource.of(DOCUMENTS)
    yield source
    source.close()


@pytest.mark.parametrize(
    ("fact", "refuted_by"),
    [
        # a misread amount, date, weight: another value of a thing the tool output gives
        ("The order A-4417 is 193.86 USD.", "call_fx"),
        ("The order A-4417 was shipped on 21 November 2026.", "call_ship"),
        ("The parcel of order A-4417 weighs 4.3 kg.", "call_ship"),
        # the values as the tools wrote them, or the same value written otherwise: not this rule's
        ("The order A-4417 is 139.86 USD.", None),
        ("The order A-4417 is 129 EUR.", None),
        ("The order A-4417 was shipped on 20 November 2026.", None),
        # no number the fact writes in digits
        ("The order A-4417 was shipped with Parcelia.", None),
    ],
)
def test_a_number_the_tool_output_does_not_hold_is_refuted_by_it(
    documents: DocumentSource, verifier: OfflineVerifier, fact: str, refuted_by: str | None
) -> None:
    verdict = EvidenceVerifier(documents, verifier).against(fact, SOURCE, "A-4417")
    if refuted_by is None:
        assert verdict.decided_by != UNMATCHED_NUMBER
        return
    assert (verdict.stance, verdict.decided_by) == (Stance.REFUTE, UNMATCHED_NUMBER)
    check_evidence = verdict.evidence[0]
    assert check_evidence.stance is Stance.REFUTE
    assert (check_evidence.title, check_evidence.text) in [(SOURCE, t) for _, t, _, i in DOCUMENTS if i == refuted_by]


def test_the_rule_can_be_switched_off(documents: DocumentSource, verifier: OfflineVerifier) -> None:
    off = EvidenceVerifier(documents, verifier, config=VerifyConfig(rules_off=frozenset({UNMATCHED_NUMBER})))
    assert off.against("The order A-4417 is 193.86 USD.", SOURCE, "A-4417").decided_by != UNMATCHED_NUMBER


def test_against_a_page_of_the_store_numbers_are_left_to_the_other_rules(verifier: OfflineVerifier) -> None:
    """The store's pages are prose that rounds; a year the page lacks stays not enough evidence there."""
    store = Store.in_memory([(SOURCE, CONVERSION + " " + SHIPPING, [])])
    try:
        verifier_of_store = EvidenceVerifier(store, verifier)
        assert verifier_of_store.against("The order A-4417 is 193.86 USD.", SOURCE, "A-4417").decided_by != (
            UNMATCHED_NUMBER
        )
        shipped = verifier_of_store.against("The order A-4417 was shipped in 2025.", SOURCE, "A-4417")
        assert shipped.decided_by == KEY_TERMS_MISSING
    finally:
        store.close()
