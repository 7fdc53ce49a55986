"""Enumerations used across the pipeline (stances, verdicts, check-worthiness, gateway policies)."""

from __future__ import annotations

from enum import Enum


class Stance(str, Enum):
    """Stance of one evidence passage towards a claim (Factcheck-Bench step 5)."""

    SUPPORT = "support"
    PARTIAL = "partial"
    REFUTE = "refute"
    IRRELEVANT = "irrelevant"


class Verdict(str, Enum):
    """Label of an atomic fact, as in FActScore (S / NS / IR)."""

    SUPPORTED = "supported"
    NOT_SUPPORTED = "not_supported"
    IRRELEVANT = "irrelevant"


class Worthiness(str, Enum):
    """Check-worthiness of a claim (Factcheck-Bench step 3)."""

    FACTUAL = "factual"
    OPINION = "opinion"
    NOT_A_CLAIM = "not_a_claim"
    OTHER = "other"


class Policy(str, Enum):
    """What the gateway does with an answer (DESIGN.md, modes of the gateway)."""

    OBSERVE = "observe"
    ANNOTATE = "annotate"
    BLOCK = "block"
    REVISE = "revise"


# Scoring engines (``scoring.engines`` registers one of each; a test keeps the two in step). Kept here
# so the gateway can validate a policy's or a request's engine without importing the checker.
ENGINE_NAMES = ("hybrid", "llm", "offline")
