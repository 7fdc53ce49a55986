"""The FActScore length penalty counts an answer's check-worthy facts: not its fact groups, not the people it
told apart, not its sentences that claim nothing (scoring/metrics.py; the D-FActScore reference code
applies it to the number of groups, which is a bug we do not copy)."""

from __future__ import annotations

import math

import pytest

from schemas.check import CheckResult, FactGroup, FactResult
from schemas.enums import Stance, Verdict, Worthiness
from scoring.metrics import aggregate, dfactscore, factscore, get_metric

S, N = Verdict.SUPPORTED, Verdict.NOT_SUPPORTED


def _fact(i: int, ok: bool = True) -> FactResult:
    return FactResult(text=f"fact {i}", verdict=S if ok else N, verdict_linked=S if ok else N, stance=Stance.SUPPORT)


def _talk(i: int) -> FactResult:
    return FactResult(
        text=f"I hope this helps ({i}).",
        worthiness=Worthiness.NOT_A_CLAIM,
        verdict=Verdict.IRRELEVANT,
        stance=Stance.IRRELEVANT,
    )


def _answer(sizes: list[int], *, talk: int = 0, wrong: int = 0) -> CheckResult:
    """An answer whose facts fall in groups of ``sizes``, the first ``wrong`` facts not supported, with
    ``talk`` sentences that claim nothing in the first group."""
    groups: list[FactGroup] = []
    n = 0
    for size in sizes:
        facts = []
        for _ in range(size):
            facts.append(_fact(n, ok=n >= wrong))
            n += 1
        groups.append(FactGroup(mention=f"person {len(groups)}", entity=f"page {len(groups)}", facts=facts))
    groups[0].facts.extend(_talk(i) for i in range(talk))
    flags = [f.verdict is S for g in groups for f in g.facts if f.worthiness is Worthiness.FACTUAL]
    return CheckResult(
        factscore=factscore(flags),
        dfactscore=dfactscore(
            [[f.verdict_linked is S for g in groups for f in g.facts if f.worthiness is Worthiness.FACTUAL]]
        ),
        num_facts=len(flags),
        num_bios=len(sizes),
        num_entities=len(sizes),
        groups=groups,
    )


@pytest.mark.parametrize(
    ("sizes", "facts"),
    [
        ([4, 4, 4], 12),  # 12 facts in 3 groups: no penalty (on groups it would be exp(1 - 10/3))
        ([3, 1], 4),  # 4 facts in 2 groups: exp(1 - 10/4), not exp(1 - 10/2)
        ([6], 6),  # one group: exp(1 - 10/6), not exp(-9)
        ([2, 2, 2, 2, 1], 9),  # 9 facts in 5 groups: exp(1 - 10/9), not exp(-1)
    ],
)
def test_length_penalty_counts_facts_not_groups(sizes: list[int], facts: int) -> None:
    result = _answer(sizes, wrong=1)
    lp = 1.0 if facts >= 10 else math.exp(1 - 10 / facts)
    on_groups = math.exp(1 - 10 / len(sizes))
    assert lp != pytest.approx(on_groups)
    fs = (facts - 1) / facts
    assert get_metric("factscore_lp")([result]) == pytest.approx(fs * lp)
    assert get_metric("dfactscore_lp")([result]) == pytest.approx(fs * lp)
    assert aggregate([result], length_penalised=True).factscore == pytest.approx(fs * lp)


def test_length_penalty_leaves_out_what_claims_nothing() -> None:
    # 5 facts and 7 sentences of talk: penalised as 5 facts (exp(-1)), not as 12 (no penalty).
    result = _answer([3, 2], talk=7)
    assert get_metric("factscore_lp")([result]) == pytest.approx(math.exp(-1))


def test_length_penalty_is_per_answer_before_the_mean() -> None:
    # One answer of 12 facts in 2 groups and one of 5 facts in 5 groups: (1·1 + 1·e^-1) / 2.
    long, short = _answer([6, 6]), _answer([1, 1, 1, 1, 1])
    assert get_metric("factscore_lp")([long, short]) == pytest.approx((1 + math.exp(-1)) / 2)
