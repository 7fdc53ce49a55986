"""Named rules: every place where a hand-written rule, not the stance model, decides.

A rule is an object (:class:`Rule`): its name, the step it belongs to, one sentence on what it does, the
phrasings it is tested on and, for a rule that decides on its own, an ``apply`` that returns a decision or
None. A step holds its rules in one ordered tuple; the order is the precedence, and :func:`run` applies them
in that order, skips those switched off and stamps the deciding rule's name as the decision's
``decided_by``. The tuples of the verify, worthiness and abstention steps are ``scoring.verify.VERIFY_RULES``
(with ``VERIFY_READINGS``), ``scoring.worthiness.WORTHINESS_RULES`` and ``scoring.abstain.ABSTAIN_RULES``;
rules of the other steps are still tested by name where their step runs (``config.on(NAME)``).

Every rule is registered in ``RULES`` when its module is imported; ``scoring.rulebook`` imports every such
module (the one place that lists the steps and their tuples) and validates names. This module imports no other
module of scoring/, so no rule module depends on the steps that run it.

Rules can be switched off by name (``CheckConfig.without(...)``, ``factsentry eval SET --ablate NAME``,
``factsentry check --rules-off``) to measure what each one earns; ``scoring/RULES.md`` lists them with their
measured effect. This module reads no environment: the caller passes the names switched off.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, Self, TypeVar

MODEL = "model"  # decided_by of a verdict the stance model decided
LLM = "llm"  # decided_by of a verdict the LLM judge gave (llm and hybrid engines)


class Decision(Protocol):
    """What a rule's ``apply`` returns: a decision the runner stamps with the rule's name."""

    def stamped(self, name: str) -> Self: ...


CaseT = TypeVar("CaseT", contravariant=True)
DecisionT = TypeVar("DecisionT", bound=Decision)


@dataclass(frozen=True)
class Rule(Generic[CaseT, DecisionT]):
    """A named rule: ``apply`` (None for a rule its step asks by name) decides a case or returns None."""

    name: str
    step: str
    summary: str
    # The phrasings the rule is tested on (its tests hold these and look-alikes it must leave alone).
    examples: tuple[str, ...] = ()
    apply: Callable[[CaseT], DecisionT | None] | None = None


RULES: dict[str, Rule[object, Decision]] = {}


def register(*rules: Rule[CaseT, DecisionT]) -> tuple[Rule[CaseT, DecisionT], ...]:
    """Register rule objects (a step's ordered tuple) and return them in their order."""
    for r in rules:
        if r.name in RULES:
            raise ValueError(f"rule {r.name!r} is registered twice")
        RULES[r.name] = r  # type: ignore[assignment]
    return rules


def rule(name: str, step: str, summary: str) -> str:
    """Register a rule its step tests by name and return the name (the constant the code refers to)."""
    register(Rule(name, step, summary))
    return name


def run(rules: Sequence[Rule[CaseT, DecisionT]], case: CaseT, off: frozenset[str]) -> DecisionT | None:
    """The decision of the first rule (in the tuple's order) that is on and decides ``case``, stamped with its
    name as ``decided_by``; None when none does."""
    for r in rules:
        if r.apply is None or r.name in off:
            continue
        decided = r.apply(case)
        if decided is not None:
            return decided.stamped(r.name)
    return None


def known_names(names: Iterable[str]) -> frozenset[str]:
    """Validate rule names (comma-separated strings allowed) against the rules registered so far; an unknown one
    raises with a suggestion (``scoring.rulebook.rule_names`` first imports every module that registers rules)."""
    out: set[str] = set()
    for item in names:
        for name in (n.strip() for n in item.split(",")):
            if not name:
                continue
            if name not in RULES:
                close = difflib.get_close_matches(name, RULES, n=1)
                hint = f"; did you mean {close[0]!r}?" if close else f"; known: {', '.join(sorted(RULES))}"
                raise UnknownRule(f"unknown rule {name!r}{hint}")
            out.add(name)
    return frozenset(out)


class UnknownRule(ValueError):
    pass
