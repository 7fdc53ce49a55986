"""The verify rule ``idiom-reading``: a life's event told in an idiom ("left us in 2015") is also read in the plain
words a page writes ("died in 2015"), so a rule that takes "left" for a move does not decide it."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.enums import Stance
from scoring.idioms import plain_reading
from scoring.verifier import OfflineVerifier
from scoring.verify import IDIOM_READING, EvidenceVerifier, VerifyConfig

TITLE = "Maren Oakhurst"
TEXT = (
    "Maren Oakhurst (1941 – 2012) was an English television producer. Born in Hexham, Northumberland, she joined "
    "the regional broadcaster Tyneview in 1963. She married the sound recordist Colin Brack in 1966. She retired "
    "in 2001 and died in Alnwick in 2012."
)


@pytest.mark.parametrize(
    ("fact", "plain"),
    [
        ("She left us in 2012.", "She died in 2012."),
        ("She came into the world in 1941.", "She was born in 1941."),
        ("She tied the knot with Colin Brack.", "She married Colin Brack."),
        ("She hung up her boots in 2001.", "She retired in 2001."),
        ("He breathed his last in Alnwick.", "He died in Alnwick."),
        # look-alikes: a plain "left" and "came" stay as written
        ("She left Tyneview in 2001.", "She left Tyneview in 2001."),
        ("She came to Tyneview in 1963.", "She came to Tyneview in 1963."),
    ],
)
def test_idioms_read_in_plain_words(fact: str, plain: str) -> None:
    assert plain_reading(fact) == plain


@pytest.mark.parametrize(
    ("fact", "stance"),
    [
        ("Maren Oakhurst left us in 2012.", Stance.SUPPORT),
        ("Maren Oakhurst left us in Alnwick.", Stance.SUPPORT),
        ("Maren Oakhurst came into the world in 1941.", Stance.SUPPORT),
        ("Maren Oakhurst tied the knot with the sound recordist Colin Brack in 1966.", Stance.SUPPORT),
        # the idiom with a wrong value: refuted by the rule the plain reading meets
        ("Maren Oakhurst left us in Hexham.", Stance.REFUTE),
    ],
)
def test_an_idiom_is_checked_in_plain_words(store: Store, verifier: OfflineVerifier, fact: str, stance: Stance) -> None:
    verdict = EvidenceVerifier(store, verifier).against(fact, TITLE, TITLE)
    assert (verdict.stance, verdict.decided_by) == (stance, IDIOM_READING)


def test_the_reading_can_be_switched_off(store: Store, verifier: OfflineVerifier) -> None:
    fact = "Maren Oakhurst left us in 2012."
    off = EvidenceVerifier(store, verifier, config=VerifyConfig(rules_off=frozenset({IDIOM_READING})))
    assert off.against(fact, TITLE, TITLE).decided_by != IDIOM_READING
