"""The engine registry: an engine is a named composition of steps run by the one :class:`Checker`.

=========  ============================================  ===========================================
engine     steps                                         needs
=========  ============================================  ===========================================
offline    spaCy decomposition and grouping, stance      nothing (CPU; the packaged stance model)
           model and named rules, revision by rules
llm        one decomposition+grouping call, batched      an LLM judge (``complete``)
           verification calls, one revision call
hybrid     offline decomposition, the stance model for   an LLM judge; the LLM also decomposes and/or
           confident facts and the LLM for uncertain     revises when ``LLMConfig.hybrid_llm_steps``
           ones, revision by rules                       names ``decompose`` / ``revise``
=========  ============================================  ===========================================

>>> build_checker("ofline")  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
UnknownEngine: unknown engine 'ofline'; did you mean 'offline'?
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, replace

from scoring import offline
from scoring.checker import Checker
from scoring.config import CheckConfig
from scoring.errors import ScoringError
from scoring.llm.steps import Complete, LLMConfig, LLMDecompose, LLMRevise, LLMVerify
from scoring.protocols import StanceModel
from scoring.rulebook import default_config

HYBRID_LLM_STEPS = ("decompose", "revise")


class UnknownEngine(ScoringError, ValueError):
    """An engine name that is not registered (with "did you mean ...")."""


class EngineNeedsJudge(ScoringError):
    """An engine that calls an LLM was asked for where no LLM judge is configured."""


@dataclass(frozen=True)
class Parts:
    """What an engine is built from."""

    config: CheckConfig
    stance_model: StanceModel | None
    complete: Complete | None
    llm: LLMConfig
    judge: str | None = None


@dataclass(frozen=True)
class Engine:
    name: str
    summary: str
    needs_judge: bool
    make: Callable[[Parts], Checker]


ENGINES: dict[str, Engine] = {}


def register(engine: Engine) -> Engine:
    if engine.name in ENGINES:
        raise ValueError(f"engine {engine.name!r} is registered twice")
    ENGINES[engine.name] = engine
    return engine


def engine_names() -> list[str]:
    return sorted(ENGINES)


def get_engine(name: str) -> Engine:
    """The registered engine ``name``; an unknown name raises :class:`UnknownEngine` with a suggestion."""
    try:
        return ENGINES[name]
    except KeyError:
        close = difflib.get_close_matches(name, ENGINES, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else f"; known: {', '.join(engine_names())}"
        raise UnknownEngine(f"unknown engine {name!r}{hint}") from None


def build_checker(
    name: str,
    *,
    config: CheckConfig | None = None,
    stance_model: StanceModel | None = None,
    complete: Complete | None = None,
    llm: LLMConfig | None = None,
    judge: str | None = None,
) -> Checker:
    """The :class:`Checker` of engine ``name``; an engine that calls an LLM needs ``complete`` (``judge``
    is its name in results and metrics)."""
    engine = get_engine(name)
    if engine.needs_judge and complete is None:
        raise EngineNeedsJudge(
            f"engine {name!r} calls an LLM judge and none is configured "
            "(workers: FACTSENTRY_JUDGE_MODEL, a model of the FACTSENTRY_MODELS_FILE model list; CLI: --model)"
        )
    judge = (judge or "llm") if engine.needs_judge else None
    return engine.make(Parts(config or default_config(), stance_model, complete, llm or LLMConfig(), judge))


def _offline(p: Parts) -> Checker:
    return Checker(
        "offline",
        offline.decompose,
        offline.verify,
        offline.revise_by_rules,
        p.config,
        p.stance_model,
        parse_ahead=offline.parse_ahead,
    )


def _llm(p: Parts) -> Checker:
    assert p.complete is not None
    return Checker(
        "llm",
        LLMDecompose(p.complete, p.llm),
        LLMVerify(p.complete, p.llm),
        LLMRevise(p.complete, p.llm),
        replace(p.config, language=replace(p.config.language, reads=None)),  # the judge reads any language
        p.stance_model,
        p.judge,
        recheck=False,  # LLMRevise guards the judge's revision itself
    )


def _hybrid(p: Parts) -> Checker:
    assert p.complete is not None
    steps = p.llm.hybrid_llm_steps
    return Checker(
        "hybrid",
        LLMDecompose(p.complete, p.llm) if "decompose" in steps else offline.decompose,
        LLMVerify(p.complete, p.llm, settle=True),
        LLMRevise(p.complete, p.llm) if "revise" in steps else offline.revise_by_rules,
        p.config,
        p.stance_model,
        p.judge,
        parse_ahead=None if "decompose" in steps else offline.parse_ahead,
        recheck="revise" not in steps,  # the rules' revision is checked again; the judge's guards its own
    )


register(Engine("offline", "spaCy decomposition, the packaged stance model, named rules; no network", False, _offline))
register(Engine("llm", "an LLM judge decomposes, verifies (batched) and revises", True, _llm))
register(
    Engine(
        "hybrid",
        "offline decomposition; the stance model settles confident facts, the LLM judge decides the rest",
        True,
        _hybrid,
    )
)
