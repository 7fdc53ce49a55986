"""The offline engine's settings (:class:`CheckConfig`), passed to every step: nothing in scoring/ reads the
environment.

It imports no step and no engine, so every step can import it. Rule names switched off are validated against
the registered rules (``scoring.rules.RULES``); :func:`scoring.rulebook.default_config` imports every module that
registers rules first.

>>> CheckConfig().without(["question"]).on("question")
False
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Literal

from scoring.language import LanguageConfig
from scoring.linking import MAX_CANDIDATES
from scoring.rules import known_names
from scoring.verify import VerifyConfig


@dataclass(frozen=True)
class CheckConfig:
    """Settings of the offline engine."""

    verify: VerifyConfig = field(default_factory=lambda: VerifyConfig(support=0.6))
    max_candidates: int = MAX_CANDIDATES
    # Which entities a fact "comes from" (entity_supporting, number of entities, conflation): those
    # supporting it within this margin of the strongest support, so a weak generic match to another
    # page does not count as a second source.
    attribution_margin: float = 0.1
    # A group is conflated when at least this many of its facts come from other entities (and not from
    # its own); an entity counts towards the number of entities when it is linked or is the source of
    # at least this many facts. Two, so that one stray match of a noisy verifier is not a second person.
    conflation_min_facts: int = 2
    revise: bool = True
    revise_mode: Literal["separate", "drop"] = "separate"
    max_sentences: int = 120
    # Names of rules (``scoring.rules``) switched off, in every step (the caller's setting: nothing here reads
    # the environment).
    rules_off: frozenset[str] = frozenset()
    # The languages the engine reads (English for the offline engine); an answer in another is unverifiable.
    language: LanguageConfig = field(default_factory=LanguageConfig)

    def on(self, name: str) -> bool:
        return name not in self.rules_off

    def without(self, names: Iterable[str]) -> CheckConfig:
        """This configuration with the rules ``names`` switched off (names or comma-separated lists, validated
        against the registered rules: an unknown name raises :class:`scoring.rules.UnknownRule`)."""
        off = self.rules_off | known_names(names)
        return replace(self, rules_off=off, verify=replace(self.verify, rules_off=off))
