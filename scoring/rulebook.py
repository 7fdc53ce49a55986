"""Every rule of every step, in one place: the modules that register rules, each step's ordered tuples of rule
objects (the order is the precedence), and validation of rule names.

>>> [r.name for r in STEPS["worthiness"]][:2]
['question', 'assistant-chatter']
>>> sorted(rule_names(["stated-outright, decline"]))
['decline', 'stated-outright']
"""

from __future__ import annotations

from collections.abc import Iterable

# Every module that registers rules: importing them fills ``scoring.rules.RULES``.
from scoring import (
    abstain,
    checker,
    contentless,
    corrections,
    decompose,
    decontext,
    grouping,
    hedges,
    offline,
    recheck,
    records,
    revise,
    score,
    sentences,
    transcripts,
    verify,
    worthiness,
)
from scoring.config import CheckConfig
from scoring.rules import Rule, known_names
from scoring.segment import fence_formats, formats, sections, turns, units

_ = (checker, offline, recheck, revise, score)  # registered by name, asked where their step runs

# The steps whose rules are objects, each tuple in its precedence.
STEPS: dict[str, tuple[Rule, ...]] = {  # type: ignore[type-arg]
    "segment": abstain.ABSTAIN_RULES,
    "segment-split": sentences.SPLIT_RULES,
    "segment-formats": formats.FORMAT_RULES,
    "segment-fences": fence_formats.FENCE_READINGS,
    "segment-turns": turns.TURN_RULES,
    "segment-labels": sections.LABEL_ITEM_RULES,
    "segment-role-units": units.ROLE_UNIT_RULES,
    "group-names": grouping.NO_PERSON_RULES,
    "decompose": corrections.CORRECTION_RULES,
    "decompose-inversions": corrections.INVERSION_RULES,
    "decompose-parse": decompose.PARSE_READINGS,
    "decompose-parts": decompose.PART_READINGS,
    "decompose-content": contentless.CONTENT_RULES,
    "decompose-hedges": hedges.HEDGE_READINGS,
    "decompose-names": decontext.DECONTEXT_READINGS,
    "decompose-labels": transcripts.LABEL_RULES,
    "decompose-dates": records.DATED_RULES,
    "decompose-records": records.LABEL_LINE_RULES,
    "worthiness": worthiness.WORTHINESS_RULES,
    "verify": verify.VERIFY_RULES,
    "verify-readings": verify.VERIFY_READINGS,
    "verify-key-terms": verify.KEY_TERM_RULES,
}


def rule_names(names: Iterable[str]) -> frozenset[str]:
    """Validate rule names (comma-separated strings allowed) against every rule; unknown ones raise with a
    suggestion."""
    return known_names(names)


def default_config(rules_off: Iterable[str] = ()) -> CheckConfig:
    """The offline engine's configuration with the rules named in ``rules_off`` (names or comma-separated
    lists, validated: an unknown name raises :class:`scoring.rules.UnknownRule`) switched off in every step."""
    return CheckConfig().without(rules_off)
