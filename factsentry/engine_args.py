"""``--engine``, ``--model`` and ``--models`` for the commands that check answers (check, eval, replay).

The llm and hybrid engines call an LLM judge: ``--models FILE --model NAME`` takes the entry ``NAME``
of a litellm ``model_list`` YAML (the gateway's ``--models`` file, so the operator's model and
credentials are used); ``--model`` alone is a litellm model string whose credentials litellm reads
from the environment (``OPENAI_API_KEY`` …).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def add_engine_arguments(p: argparse.ArgumentParser, default_model: str | None = "gpt-4o-mini") -> None:
    # The names only (schemas.enums, kept in step with scoring.engines by a test): building the CLI's parser
    # for any command, `factsentry gateway` included, must not import the checker (2 s and more).
    from schemas.enums import ENGINE_NAMES

    p.add_argument("--engine", choices=sorted(ENGINE_NAMES), default="offline", help="scoring engine (default offline)")
    p.add_argument(
        "--model",
        default=default_model,
        help="the LLM judge of the llm and hybrid engines: a litellm model, or with --models an entry's "
        "model_name" + (f" (default {default_model})" if default_model else ""),
    )
    p.add_argument("--models", type=Path, metavar="FILE", help="litellm model_list YAML that --model is looked up in")
    p.add_argument("--judge-timeout", type=float, default=60.0, metavar="S", help="seconds per LLM call (default 60)")


def judge_from_args(args: argparse.Namespace) -> Any:
    """The LLM judge (:class:`scoring.llm.client.LiteLLMJudge`) of ``--engine``, or ``None`` for offline."""
    from factsentry.cli import UserError
    from scoring.engines import get_engine
    from scoring.errors import ScoringError
    from scoring.llm.client import LiteLLMJudge

    try:
        if not get_engine(args.engine).needs_judge:
            return None
        if not args.model:
            raise UserError(f"--engine {args.engine} needs --model (the LLM judge)")
        if getattr(args, "models", None):
            return LiteLLMJudge.load(args.models, args.model, timeout_s=args.judge_timeout)
        return LiteLLMJudge(args.model, {"model": args.model}, timeout_s=args.judge_timeout)
    except ScoringError as e:
        raise UserError(str(e)) from e


def build_from_args(args: argparse.Namespace, config: Any) -> Any:
    """The :class:`scoring.checker.Checker` the arguments ask for; a one-line :class:`UserError` otherwise."""
    from factsentry.cli import UserError
    from scoring.engines import build_checker
    from scoring.errors import ScoringError

    judge = judge_from_args(args)
    try:
        return build_checker(args.engine, config=config, complete=judge, judge=judge.name if judge else None)
    except ScoringError as e:
        raise UserError(str(e)) from e
