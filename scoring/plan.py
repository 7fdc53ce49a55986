"""The working records of one check: facts with their verdicts per entity, grouped by individual.

Shared by the offline pipeline, the LLM engine and revision; the public result is
``schemas.CheckResult``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from schemas.enums import Worthiness
from scoring.decompose import AtomicFact
from scoring.grouping import PerceivedGroup
from scoring.verify import EntityVerdict


@dataclass
class PlannedFact:
    """A fact on its way through the pipeline: the atom, its standalone text, and its verdict per entity."""

    atom: AtomicFact
    text: str
    worthiness: Worthiness
    verdicts: dict[str, EntityVerdict] = field(default_factory=dict)
    # Entities the fact is attributed to on its own: supported, and close to the best support.
    attributed: set[str] = field(default_factory=set)
    # The rule that made the fact not check-worthy, if one did.
    worthiness_rule: str | None = None
    # Character ranges of its sentence's text the fact was made from (offline: its words; an engine
    # that cannot tell gives none, and the checker uses the whole sentence).
    ranges: tuple[tuple[int, int], ...] = ()
    # The claim came wrapped in a hedge ("I believe …"): checked all the same, reported as hedged.
    hedged: bool = False
    # Spans of the answer as written (``scoring.spans``), filled by the checker.
    spans: list[tuple[int, int]] = field(default_factory=list)

    def attribute(self, margin: float) -> None:
        """Fill ``attributed``: entities that support the fact within ``margin`` of the strongest one."""
        supported = [v for v in self.verdicts.values() if v.supported]
        if not supported:
            self.attributed = set()
            return
        best = max(v.support for v in supported)
        self.attributed = {v.entity for v in supported if v.support >= best - margin}


@dataclass
class PlannedGroup:
    """The facts of one perceived individual."""

    individual: PerceivedGroup
    facts: list[PlannedFact]

    @property
    def factual(self) -> list[PlannedFact]:
        return [f for f in self.facts if f.worthiness is Worthiness.FACTUAL]


def by_sentence(facts: Iterable[PlannedFact]) -> dict[int, list[PlannedFact]]:
    """``facts`` by the index of the sentence they come from, in their order: what compares facts of one
    sentence with each other looks only at its own sentence's, so a long answer costs in proportion."""
    out: dict[int, list[PlannedFact]] = {}
    for fact in facts:
        out.setdefault(fact.atom.sentence_index, []).append(fact)
    return out
