"""The working records of one check: facts by the sentence they come from."""

from __future__ import annotations

from schemas.enums import Worthiness
from scoring.decompose import AtomicFact
from scoring.plan import PlannedFact, by_sentence


def _fact(text: str, sentence: int) -> PlannedFact:
    return PlannedFact(AtomicFact(text, sentence), text, Worthiness.FACTUAL)


def test_facts_by_sentence_keep_their_order() -> None:
    facts = [_fact("a", 2), _fact("b", 0), _fact("c", 2), _fact("d", 1), _fact("e", 0)]
    grouped = by_sentence(facts)
    assert list(grouped) == [2, 0, 1]
    assert {k: [f.text for f in v] for k, v in grouped.items()} == {2: ["a", "c"], 0: ["b", "e"], 1: ["d"]}
    assert all(f is facts[0] for f in grouped[2][:1])
    assert by_sentence([]) == {}
