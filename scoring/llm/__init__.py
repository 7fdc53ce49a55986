"""The llm engine: pure prompt builders and parsers per step, and :func:`check_llm` that runs them with a
caller-supplied async ``complete(messages)`` call (litellm, OpenAI, a mock)."""

from __future__ import annotations

from scoring.llm.decompose import FactList, build_decompose_request, parse_decompose
from scoring.llm.engine import Complete, LLMConfig, check_llm
from scoring.llm.revise import CheckedFact, build_revise_request, parse_revise
from scoring.llm.verify import Judgement, Page, VerifyGroup, batch_groups, build_verify_request, parse_verify

__all__ = [
    "CheckedFact",
    "Complete",
    "FactList",
    "Judgement",
    "LLMConfig",
    "Page",
    "VerifyGroup",
    "batch_groups",
    "build_decompose_request",
    "build_revise_request",
    "build_verify_request",
    "check_llm",
    "parse_decompose",
    "parse_revise",
    "parse_verify",
]
