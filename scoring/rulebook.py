"""Every rule of every step, in one place: the modules that register rules, each step's ordered tuples of rule
objects (the order is the precedence), and validation of rule names.

>>> [r.name for r in STEPS["worthiness"]][:2]
['question', 'assistant-chatter']
>>> sorted(rule_names(["stated-outright, decline"]))
['decline', 'stated-outright']
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

# Every module that registers rules: importing them fills ``scoring.rules.RULES``.
from scoring import (
    abstain,
    checker,
    corrections,
    grouping,
    offline,
    recheck,
    records,
    revise,
    sentences,
    verify,
    worthiness,
)
from scoring.rules import RULES, Rule, UnknownRule

_ = (checker, grouping, offline, recheck, records, revise, sentences)  # registered by name, asked where their step runs

# The steps whose rules are objects, each tuple in its precedence.
STEPS: dict[str, tuple[Rule, ...]] = {  # type: ignore[type-arg]
    "segment": abstain.ABSTAIN_RULES,
    "decompose": corrections.CORRECTION_RULES,
    "worthiness": worthiness.WORTHINESS_RULES,
    "verify": verify.VERIFY_RULES,
    "verify-readings": verify.VERIFY_READINGS,
    "verify-key-terms": verify.KEY_TERM_RULES,
}


def rule_names(names: Iterable[str]) -> frozenset[str]:
    """Validate rule names (comma-separated strings allowed); unknown ones raise with a suggestion."""
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
