"""The verify rules ``kin-stated`` and ``kin-contradicted``: children a fact counts in other words than the page's
("raised four boys" for "had four sons") are read by kind and number, so a right count is supported and a wrong
number or kind ("two daughters" for "two sons") is refuted, whatever the stance model reads."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.enums import Stance
from scoring.kin import KIN_CONTRADICTED, KIN_STATED, Kin, kin_counts
from scoring.verifier import OfflineVerifier
from scoring.verify import EvidenceVerifier, VerifyConfig

TITLE = "Odile Ferrant"
TEXT = (
    "Odile Ferrant (born 1958 in Nantes) is a French cellist. She studied at the Conservatoire de Lyon and joined "
    "the Orchestre de Bretagne in 1981. She is married to the violist Marc Ferrant; they have two sons and a "
    "daughter. Her brother Luc Ferrant has four children."
)


@pytest.mark.parametrize(
    ("sentence", "kin"),
    [
        ("The couple raised four boys.", Kin(sons=4)),
        ("They are the parents of three girls.", Kin(daughters=3)),
        ("They have twin boys.", Kin(sons=2)),
        ("They have two sons and a daughter.", Kin(sons=2, daughters=1)),
        ("He is the father of 5 children.", Kin(children=5)),
        # look-alikes: no count of the subject's children
        ("He was a ferryman's son.", None),
        ("She went to sea as a cabin boy at fourteen.", None),
        ("Her brother has three sons.", None),
        ("They have no children.", None),
        ("She has a daughter.", None),
        ("He had two sons of the king as pupils.", None),
    ],
)
def test_children_are_counted_by_kind(sentence: str, kin: Kin | None) -> None:
    assert kin_counts(sentence) == kin


@pytest.mark.parametrize(
    ("fact", "stance", "decided_by"),
    [
        # phrasings: the children in other words, supported
        ("Odile Ferrant and her husband raised two boys and a girl.", Stance.SUPPORT, KIN_STATED),
        ("Odile Ferrant and her husband are the parents of three children.", Stance.SUPPORT, KIN_STATED),
        ("Odile Ferrant has two boys.", Stance.SUPPORT, KIN_STATED),
        ("Odile Ferrant and Marc Ferrant have two sons and a girl.", Stance.SUPPORT, KIN_STATED),
        # look-alikes: another number or kind, refuted
        ("Odile Ferrant and her husband have two daughters.", Stance.REFUTE, KIN_CONTRADICTED),
        ("Odile Ferrant raised three boys.", Stance.REFUTE, KIN_CONTRADICTED),
        ("Odile Ferrant has four children.", Stance.REFUTE, KIN_CONTRADICTED),
        ("Odile Ferrant has a son and two daughters.", Stance.REFUTE, KIN_CONTRADICTED),
    ],
)
def test_children_in_other_words(
    store: Store, verifier: OfflineVerifier, fact: str, stance: Stance, decided_by: str
) -> None:
    verdict = EvidenceVerifier(store, verifier).against(fact, TITLE, TITLE)
    assert (verdict.stance, verdict.decided_by) == (stance, decided_by)


@pytest.mark.parametrize(
    "fact",
    [
        # a name the page lacks: the count alone does not support the fact
        "Odile Ferrant and her husband Paul Girard have two sons and a daughter.",
        # another relative's children: neither rule reads them
        "Her brother has three sons.",
        # a denied count
        "Odile Ferrant has no children.",
    ],
)
def test_look_alikes_are_left_to_the_other_rules(store: Store, verifier: OfflineVerifier, fact: str) -> None:
    verdict = EvidenceVerifier(store, verifier).against(fact, TITLE, TITLE)
    assert verdict.decided_by not in (KIN_STATED, KIN_CONTRADICTED)


def test_the_rules_can_be_switched_off(store: Store, verifier: OfflineVerifier) -> None:
    fact = "Odile Ferrant and her husband have two daughters."
    off = VerifyConfig(rules_off=frozenset({KIN_CONTRADICTED, KIN_STATED}))
    assert EvidenceVerifier(store, verifier, config=off).against(fact, TITLE, TITLE).decided_by not in (
        KIN_STATED,
        KIN_CONTRADICTED,
    )
