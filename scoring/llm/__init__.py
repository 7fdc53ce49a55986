"""The llm engine: pure prompt builders and parsers per step, and the steps (:mod:`scoring.llm.steps`) that
run them with a caller-supplied ``complete(messages)`` call (:class:`scoring.llm.client.LiteLLMJudge`, a mock)."""

from __future__ import annotations

from scoring.llm.decompose import FactList, build_decompose_request, parse_decompose
from scoring.llm.revise import CheckedFact, build_revise_request, parse_revise
from scoring.llm.steps import Complete, LLMConfig, LLMDecompose, LLMRevise, LLMVerify
from scoring.llm.verify import Judgement, Page, VerifyGroup, batch_groups, build_verify_request, parse_verify

__all__ = [
    "CheckedFact",
    "Complete",
    "FactList",
    "Judgement",
    "LLMConfig",
    "LLMDecompose",
    "LLMRevise",
    "LLMVerify",
    "Page",
    "VerifyGroup",
    "batch_groups",
    "build_decompose_request",
    "build_revise_request",
    "build_verify_request",
    "parse_decompose",
    "parse_revise",
    "parse_verify",
]
