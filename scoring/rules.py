"""Named rules: every place where a hand-written rule, not the stance model, decides a verdict.

A rule is registered once, here, with the step it belongs to and one sentence on what it does; the
code that applies it asks ``config.on(NAME)`` first and records the rule's name as the verdict's
``decided_by``. Rules can be switched off by name (``CheckConfig.without(...)``,
``factsentry eval SET --ablate NAME``) to measure what each one earns; ``scoring/RULES.md`` lists
them with their measured effect on the dev sets.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

MODEL = "model"  # decided_by of a verdict the stance model decided
LLM = "llm"  # decided_by of a verdict the LLM judge gave (llm and hybrid engines)


@dataclass(frozen=True)
class Rule:
    name: str
    step: str
    summary: str


RULES: dict[str, Rule] = {}


def rule(name: str, step: str, summary: str) -> str:
    """Register a rule and return its name (the constant the code refers to)."""
    if name in RULES:
        raise ValueError(f"rule {name!r} is registered twice")
    RULES[name] = Rule(name, step, summary)
    return name


class UnknownRule(ValueError):
    pass


def env_rules_off() -> frozenset[str]:
    """The rules ``FACTSENTRY_RULES_OFF`` switches off: the default of every step that has rules."""
    return _parse_env(os.environ.get("FACTSENTRY_RULES_OFF", ""))


@lru_cache(maxsize=8)
def _parse_env(value: str) -> frozenset[str]:
    return rule_names([value]) if value.strip() else frozenset()


def rule_names(names: Iterable[str]) -> frozenset[str]:
    """Validate rule names (comma-separated strings allowed); unknown ones raise with a suggestion."""
    import scoring.engines  # noqa: F401  (every module that registers rules is imported by the engines)

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
