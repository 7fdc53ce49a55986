"""The correction rule: a sentence that takes a value back and gives another is read as the claim it makes."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from scoring.corrections import CORRECTION, corrected
from scoring.pipeline import CheckConfig, check
from scoring.records import Reading
from scoring.verifier import OfflineVerifier
from scoring.verify import NEGATION_MISMATCH
from tests.scoring.test_meaning_rules import NAME, PAGE


@pytest.fixture
def kb() -> Store:
    return Store.in_memory([(NAME, PAGE, [])])


@pytest.mark.parametrize(
    ("written", "read"),
    [
        (
            "Actually, she wasn't born in Oslo — she was born in Bergen.",
            "Actually, she wasn't born in Oslo; she was born in Bergen.",
        ),
        ("She was born not in Oslo but in Bergen.", "She was born in Bergen, not in Oslo."),
        ("He wasn't trained in Vienna but in Prague.", "He was trained in Prague, not in Vienna."),
        ("She was not born in Oslo, but in Bergen in 1961.", "She was born in Bergen in 1961, not in Oslo."),
        (
            "It does not run on batteries – it runs on mains power.",
            "It does not run on batteries; it runs on mains power.",
        ),
        # Look-alikes: no negation before the dash, a dash before a lower-case aside, "not only … but".
        ("She was born in Oslo — a city she loved.", None),
        ("He never played for Leeds - the club signed him but he left.", None),
        ("She performed not only in Oslo but in Bergen too.", None),
        ("She was born in Oslo — she moved to Bergen in 1980.", None),
    ],
)
def test_a_correction_is_read_as_the_claim_it_makes(written: str, read: str | None) -> None:
    reading = corrected(Reading(written, list(range(len(written)))))
    assert reading.text == (read or written)
    assert reading.rewritten is (read is not None)
    # Every character maps back into the sentence as written.
    assert len(reading.offsets) == len(reading.text) and all(0 <= o < len(written) for o in reading.offsets)
    assert corrected(Reading(written, list(range(len(written)))), frozenset({CORRECTION})).text == written


def test_a_correction_is_checked_as_what_it_claims(kb: Store, verifier: OfflineVerifier) -> None:
    """The answer corrects the page's Oslo to Bergen: both of its claims are wrong, neither is supported."""
    text = "Actually, Ingrid Solberg wasn't born in Oslo — she was born in Bergen."
    result = check(text, kb=kb, name=NAME, verifier=verifier)
    facts = {f.text: f for g in result.groups for f in g.facts}
    assert result.factscore == 0.0, facts
    assert any(f.decided_by == NEGATION_MISMATCH for f in facts.values())
    # colon-splice reads the dash between the two clauses apart too: off with it, the whole parse glues them
    off = check(text, kb=kb, name=NAME, verifier=verifier, config=CheckConfig().without([CORRECTION, "colon-splice"]))
    assert {f.text for g in off.groups for f in g.facts} != set(facts)


@pytest.mark.parametrize(
    "text",
    [
        "Actually, Ingrid Solberg wasn't born in Bergen — she was born in Oslo.",
        "Ingrid Solberg was born not in Bergen but in Oslo.",
        "Ingrid Solberg wasn't born in Bergen but in Oslo.",
    ],
)
def test_a_right_correction_is_supported_whole(kb: Store, verifier: OfflineVerifier, text: str) -> None:
    """The page says Oslo: both what the answer takes back and what it gives are supported."""
    result = check(text, kb=kb, name=NAME, verifier=verifier)
    facts = [f for g in result.groups for f in g.facts]
    assert result.factscore == 1.0, [(f.text, f.decided_by) for f in facts]
    assert any(f.decided_by == "negated-value" for f in facts)
