from __future__ import annotations

import math

import pytest

from schemas.check import CheckResult, FactGroup, FactResult
from schemas.enums import Stance, Verdict, Worthiness
from scoring.errors import UnknownMetricError
from scoring.metrics import aggregate, dfactscore, factscore, get_metric, length_penalty, metric_names

S, N = Verdict.SUPPORTED, Verdict.NOT_SUPPORTED


@pytest.mark.parametrize(
    ("flags", "expected"), [([True, True, False, True], 0.75), ([False], 0.0), ([True] * 3, 1.0), ([], None)]
)
def test_factscore(flags: list[bool], expected: float | None) -> None:
    assert factscore(flags) == expected


@pytest.mark.parametrize(
    ("groups", "expected"),
    [([[True, False], [True, True]], 0.75), ([[True, True, True]], 1.0), ([[False], [True]], 0.5), ([], None)],
)
def test_dfactscore(groups: list[list[bool]], expected: float | None) -> None:
    assert dfactscore(groups) == expected


@pytest.mark.parametrize(
    ("n", "expected"), [(0, 0.0), (1, math.exp(-9)), (5, math.exp(-1)), (9, math.exp(1 - 10 / 9)), (10, 1.0), (40, 1.0)]
)
def test_length_penalty(n: int, expected: float) -> None:
    assert length_penalty(n) == pytest.approx(expected)


def _result(any_flags: list[bool], linked: list[bool], abstained: bool = False, bios: int = 1) -> CheckResult:
    facts = [
        FactResult(text=f"f{i}", verdict=S if a else N, verdict_linked=S if b else N, stance=Stance.SUPPORT)
        for i, (a, b) in enumerate(zip(any_flags, linked, strict=True))
    ]
    facts.append(
        FactResult(
            text="I hope this helps.",
            worthiness=Worthiness.NOT_A_CLAIM,
            verdict=Verdict.IRRELEVANT,
            stance=Stance.IRRELEVANT,
        )
    )
    return CheckResult(
        abstained=abstained,
        factscore=factscore(any_flags) if not abstained else None,
        dfactscore=dfactscore([linked]) if not abstained else None,
        num_bios=bios,
        num_entities=bios,
        groups=[] if abstained else [FactGroup(facts=facts)],
    )


def test_aggregate_means_over_answered_prompts() -> None:
    results = [
        _result([True] * 10, [True] * 5 + [False] * 5),
        _result([True, False] * 5, [True, False] * 5, bios=2),
        _result([], [], abstained=True),
    ]
    score = aggregate(results)
    assert (score.n, score.abstained) == (3, 1)
    assert score.factscore == pytest.approx(0.75)
    assert score.dfactscore == pytest.approx(0.5)
    assert score.response_ratio == pytest.approx(2 / 3)
    assert score.facts_per_answer == pytest.approx(10.0)
    assert score.bios_per_answer == pytest.approx(1.5)


def test_length_penalty_uses_the_number_of_facts_not_groups() -> None:
    short = _result([True] * 5, [True] * 5, bios=5)
    assert aggregate([short], length_penalised=True).factscore == pytest.approx(math.exp(-1))
    assert get_metric("dfactscore_lp")([short]) == pytest.approx(math.exp(-1))


@pytest.mark.parametrize(("name", "hint"), [("dfactscor", "dfactscore"), ("respons_ratio", "response_ratio")])
def test_unknown_metric_suggests(name: str, hint: str) -> None:
    with pytest.raises(UnknownMetricError, match=f"did you mean '{hint}'"):
        get_metric(name)


def test_registry_lists_the_paper_metrics() -> None:
    assert {"factscore", "dfactscore", "response_ratio", "facts_per_answer"} <= set(metric_names())
