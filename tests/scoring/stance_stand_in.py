"""A stance model of the tests' own, standing in for the learned one where a test is about a rule.

A test of a rule that reads the stance model's output (a reading the model scores better, a fact the model leaves
uncertain) must not depend on what the packaged weights happen to say about its inputs: retrained weights may
decide the fact themselves, and the test would no longer exercise its rule.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from schemas.enums import Stance
from scoring.verifier import StanceScore


class StandInStance:
    """``StanceModel`` whose P(support) of a passage is ``support(claim, passage)``; P(refute) is fixed at 0.05."""

    def __init__(self, support: Callable[[str, str], float], version: str = "stand-in") -> None:
        self._support = support
        self.version = version

    def score(self, claim: str, passages: Sequence[str]) -> list[StanceScore]:
        out = []
        for passage in passages:
            s = self._support(claim, passage)
            stance = Stance.SUPPORT if s >= 0.5 else Stance.IRRELEVANT
            out.append(StanceScore(stance, s, 0.05, max(0.0, 0.95 - s)))
        return out


def fixed(p: float) -> StandInStance:
    """The same P(support) for every claim and passage."""
    return StandInStance(lambda _claim, _passage: p, version=f"stand-in-fixed-{p}")


_NAME_WORD = re.compile(r"\b[A-Z][\w-]*")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _names_in_one_sentence(claim: str, passage: str) -> float:
    # Every capitalised word of the claim in one sentence of the passage: 0.9; otherwise 0.2.
    words = set(_NAME_WORD.findall(claim))
    sentences = _SENTENCE_END.split(passage)
    return 0.9 if any(words <= set(_NAME_WORD.findall(s)) for s in sentences) else 0.2


def names_in_one_sentence() -> StandInStance:
    """A model that reads every name word of the claim as a word one page sentence must hold."""
    return StandInStance(_names_in_one_sentence, version="stand-in-names-in-one-sentence")


_WORD = re.compile(r"\w{3,}")


def _word_share(claim: str, passage: str) -> float:
    # The largest share of the claim's words (three letters or more) that one sentence of the passage holds.
    words = {w.lower() for w in _WORD.findall(claim)}
    if not words:
        return 0.0
    return max(len(words & {w.lower() for w in _WORD.findall(s)}) / len(words) for s in _SENTENCE_END.split(passage))


def word_share() -> StandInStance:
    """A lexical model: P(support) is the largest share of the claim's words one sentence of the passage holds."""
    return StandInStance(_word_share, version="stand-in-word-share")
