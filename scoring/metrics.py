"""FActScore and D-FActScore, per answer and per model, registered by name.

Per answer y with atomic facts A_y (only check-worthy facts count):

- FActScore  FS(y)   = (1/|A_y|) · Σ_{a∈A_y} 1[a is supported by some page of the knowledge source]
- D-FActScore D-FS(y) = (1/|A_y|) · Σ_i Σ_{a∈A_{y,i}} 1[a is supported by C_{i*}], the page of the
  entity linked to fact group i.
- Length penalty (FActScore, later version): LP(y) = exp(1 − γ/|A_y|) when |A_y| < γ (γ = 10), else 1,
  applied to the number of *facts* (the D-FActScore reference code applies it to the number of
  groups, which is a bug).

Per model over answers Y: the score is the mean over answers that were not abstained and have at
least one fact; ``response_ratio`` = answered / all; ``facts_per_answer`` = mean |A_y| over answered.

>>> factscore([True, True, False, True])
0.75
>>> round(length_penalty(5), 4)
0.3679
>>> get_metric("dfactscor")
Traceback (most recent call last):
...
scoring.errors.UnknownMetricError: unknown metric 'dfactscor'; did you mean 'dfactscore' or ...? (known: ...)
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from schemas.check import CheckResult
from schemas.enums import Verdict, Worthiness
from scoring.errors import UnknownMetricError

GAMMA = 10

AnswerMetric = Callable[[Sequence[CheckResult]], float | None]
_REGISTRY: dict[str, AnswerMetric] = {}


def factscore(supported: Sequence[bool]) -> float | None:
    """FS = Σ 1[supported] / |facts|; None for an answer without facts."""
    if not supported:
        return None
    return sum(1 for s in supported if s) / len(supported)


def dfactscore(groups: Sequence[Sequence[bool]]) -> float | None:
    """D-FS = Σ_i Σ_{a∈group i} 1[a supported by group i's linked entity] / Σ_i |group i|."""
    n = sum(len(g) for g in groups)
    if n == 0:
        return None
    return sum(1 for g in groups for s in g if s) / n


def length_penalty(n_facts: int, gamma: int = GAMMA) -> float:
    """exp(1 − γ/n) for 0 < n < γ, 1 otherwise (and 0 for no facts)."""
    if n_facts <= 0:
        return 0.0
    if n_facts >= gamma:
        return 1.0
    return math.exp(1.0 - gamma / n_facts)


def scored_facts(result: CheckResult) -> list[tuple[bool, bool]]:
    """(supported by any page, supported by the linked entity) for every check-worthy fact."""
    out: list[tuple[bool, bool]] = []
    for group in result.groups:
        for fact in group.facts:
            if fact.worthiness is not Worthiness.FACTUAL:
                continue
            out.append((fact.verdict is Verdict.SUPPORTED, fact.verdict_linked is Verdict.SUPPORTED))
    return out


def register(name: str) -> Callable[[AnswerMetric], AnswerMetric]:
    """Register a model-level metric ``f(results) -> float | None`` under ``name``."""

    def wrap(fn: AnswerMetric) -> AnswerMetric:
        if name in _REGISTRY:
            raise ValueError(f"metric {name!r} is already registered")
        _REGISTRY[name] = fn
        return fn

    return wrap


def get_metric(name: str) -> AnswerMetric:
    """The metric registered as ``name``; unknown names fail with the closest known names."""
    try:
        return _REGISTRY[name]
    except KeyError:
        close = difflib.get_close_matches(name, list(_REGISTRY), n=3, cutoff=0.5)
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        raise UnknownMetricError(f"unknown metric {name!r}{hint} (known: {', '.join(sorted(_REGISTRY))})") from None


def metric_names() -> list[str]:
    """Every registered metric name."""
    return sorted(_REGISTRY)


def _answered(results: Sequence[CheckResult]) -> list[CheckResult]:
    return [r for r in results if not r.abstained and scored_facts(r)]


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


@register("factscore")
def model_factscore(results: Sequence[CheckResult]) -> float | None:
    """Mean FActScore over answered prompts."""
    return _mean([r.factscore for r in _answered(results) if r.factscore is not None])


@register("dfactscore")
def model_dfactscore(results: Sequence[CheckResult]) -> float | None:
    """Mean D-FActScore over answered prompts."""
    return _mean([r.dfactscore for r in _answered(results) if r.dfactscore is not None])


@register("factscore_lp")
def model_factscore_lp(results: Sequence[CheckResult]) -> float | None:
    """Mean of FS(y) · LP(|A_y|) over answered prompts."""
    return _mean(
        [r.factscore * length_penalty(len(scored_facts(r))) for r in _answered(results) if r.factscore is not None]
    )


@register("dfactscore_lp")
def model_dfactscore_lp(results: Sequence[CheckResult]) -> float | None:
    """Mean of D-FS(y) · LP(|A_y|) over answered prompts."""
    return _mean(
        [r.dfactscore * length_penalty(len(scored_facts(r))) for r in _answered(results) if r.dfactscore is not None]
    )


@register("response_ratio")
def response_ratio(results: Sequence[CheckResult]) -> float | None:
    """Share of prompts answered (not abstained)."""
    if not results:
        return None
    return sum(1 for r in results if not r.abstained) / len(results)


@register("facts_per_answer")
def facts_per_answer(results: Sequence[CheckResult]) -> float | None:
    """Mean number of check-worthy facts per answered prompt."""
    return _mean([float(len(scored_facts(r))) for r in results if not r.abstained])


@register("bios_per_answer")
def bios_per_answer(results: Sequence[CheckResult]) -> float | None:
    """Mean number of distinguishable bios (fact groups) per answered prompt."""
    return _mean([float(r.num_bios) for r in _answered(results)])


@register("entities_per_answer")
def entities_per_answer(results: Sequence[CheckResult]) -> float | None:
    """Mean number of distinct entities the facts come from, per answered prompt."""
    return _mean([float(r.num_entities) for r in _answered(results)])


@register("conflated_ratio")
def conflated_ratio(results: Sequence[CheckResult]) -> float | None:
    """Share of answered prompts with at least one conflated group (merged individuals)."""
    answered = _answered(results)
    if not answered:
        return None
    return sum(1 for r in answered if any(g.conflated for g in r.groups)) / len(answered)


@dataclass(frozen=True)
class ModelScore:
    """The model-level summary FActScore and D-FActScore papers report."""

    n: int
    abstained: int
    factscore: float | None
    dfactscore: float | None
    response_ratio: float | None
    facts_per_answer: float | None
    bios_per_answer: float | None
    entities_per_answer: float | None
    length_penalty: bool = False


def aggregate(results: Sequence[CheckResult], *, length_penalised: bool = False) -> ModelScore:
    """Aggregate per-answer results into model-level scores (optionally with the length penalty)."""
    fs = model_factscore_lp if length_penalised else model_factscore
    dfs = model_dfactscore_lp if length_penalised else model_dfactscore
    return ModelScore(
        n=len(results),
        abstained=sum(1 for r in results if r.abstained),
        factscore=fs(results),
        dfactscore=dfs(results),
        response_ratio=response_ratio(results),
        facts_per_answer=facts_per_answer(results),
        bios_per_answer=bios_per_answer(results),
        entities_per_answer=entities_per_answer(results),
        length_penalty=length_penalised,
    )
