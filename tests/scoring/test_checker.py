"""The orchestration's own helpers."""

from __future__ import annotations

from schemas.enums import Worthiness
from scoring.checker import identity_names
from scoring.decompose import AtomicFact
from scoring.grouping import PerceivedGroup
from scoring.plan import PlannedFact, PlannedGroup


def _group(name: str, *facts: str, worthiness: Worthiness = Worthiness.FACTUAL) -> PlannedGroup:
    return PlannedGroup(PerceivedGroup(name), [PlannedFact(AtomicFact(f), f, worthiness) for f in facts])


def test_identity_names_in_order_each_once() -> None:
    groups = [
        _group("Mother Mary", "Mother Mary was Mary Ellen Castellane.", "Mother Mary was born in 1890."),
        _group("Tex", "Tex is the ring name of Theodore Vance (1909–1971).", "Tex was Mary Ellen Castellane."),
        _group("Kid", "Kid was probably Ronald Okafor.", worthiness=Worthiness.OPINION),
    ]
    assert identity_names(groups) == ["Mary Ellen Castellane", "Theodore Vance"]
    assert identity_names([]) == []
