"""The llm engine: pure prompt builders and parsers per step, and the steps (:mod:`scoring.llm.steps`) that
run them with a caller-supplied ``complete(messages)`` call (:class:`scoring.llm.client.LiteLLMJudge`, a mock).

Prompts are versioned (``PROMPT_VERSIONS``): a change of a prompt's text changes its version."""

from __future__ import annotations

from scoring.llm import decompose as _decompose
from scoring.llm import revise as _revise
from scoring.llm import verify as _verify
from scoring.llm.decompose import FactList, build_decompose_request, parse_decompose, values_not_in
from scoring.llm.reply import JudgeReply
from scoring.llm.revise import CheckedFact, build_revise_request, parse_revise, revision_problem
from scoring.llm.steps import Complete, LLMConfig, LLMDecompose, LLMRevise, LLMVerify
from scoring.llm.verify import (
    Judgement,
    Page,
    VerifyGroup,
    VerifyReply,
    batch_groups,
    build_verify_request,
    parse_verify,
    split_batch,
)

PROMPT_VERSIONS = {
    "decompose": _decompose.PROMPT_VERSION,
    "verify": _verify.PROMPT_VERSION,
    "revise": _revise.PROMPT_VERSION,
}

__all__ = [
    "PROMPT_VERSIONS",
    "CheckedFact",
    "Complete",
    "FactList",
    "JudgeReply",
    "Judgement",
    "LLMConfig",
    "LLMDecompose",
    "LLMRevise",
    "LLMVerify",
    "Page",
    "VerifyGroup",
    "VerifyReply",
    "batch_groups",
    "build_decompose_request",
    "build_revise_request",
    "build_verify_request",
    "parse_decompose",
    "parse_revise",
    "parse_verify",
    "revision_problem",
    "split_batch",
    "values_not_in",
]
