"""Verification against a made-up page: values in the wrong role refute, outright statements support."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.enums import Stance
from scoring.verifier import OfflineVerifier
from scoring.verify import EvidenceVerifier

TITLE = "Hendrika Vos"
TEXT = (
    "Hendrika Vos (4 May 1902 – 30 January 1977) was a Dutch astronomer. She was born in Leiden and died in Utrecht. "
    "She discovered the comet 31P/Vos in 1931 and 1938. In 1946 she became director of the Sonnenborgh observatory."
)


@pytest.fixture(scope="module")
def store() -> Store:
    kb = Store.in_memory()
    kb.add_pages([(TITLE, TEXT, [])])
    return kb


@pytest.mark.parametrize(
    ("fact", "stance"),
    [
        ("Hendrika Vos was born in 1977.", Stance.REFUTE),  # her death year
        ("Hendrika Vos was born in Utrecht.", Stance.REFUTE),  # where she died
        ("Hendrika Vos died in 1902.", Stance.REFUTE),
        ("Hendrika Vos became director of the Sonnenborgh observatory in 1946.", Stance.SUPPORT),
        ("Hendrika Vos discovered the comet in 1938.", Stance.SUPPORT),  # "in 1931 and 1938"
    ],
)
def test_values_are_verified_in_their_role(store: Store, verifier: OfflineVerifier, fact: str, stance: Stance) -> None:
    assert EvidenceVerifier(store, verifier).against(fact, TITLE, TITLE).stance is stance
