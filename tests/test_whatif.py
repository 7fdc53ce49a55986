"""Policy what-if (factsentry/whatif.py): stored verdicts decided under the policy in force and a candidate."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from factsentry.whatif import compare_policies, governed, latest_governed
from gateway.policy import PolicyTable
from schemas.check import CheckResult, Revision
from schemas.messages import ResultMessage
from schemas.policy import would


def verdict(request_id: str, model: str = "bot", **check: Any) -> ResultMessage:
    fields: dict[str, Any] = {"num_bios": 1, "num_entities": 1, **check}
    extra = {k: fields.pop(k) for k in ("source", "run", "partial_of") if k in fields}
    return ResultMessage(
        request_id=request_id, model=model, scored_at=datetime.now(UTC), check=CheckResult(**fields), **extra
    )


def table(default: dict[str, Any], models: dict[str, Any] | None = None) -> PolicyTable:
    return PolicyTable.model_validate({"default": default, "models": models or {}})


REVISED = Revision(text="Dick Hanley was an American swimmer born in 1936.")


@pytest.mark.parametrize(
    ("check", "candidate", "expected"),
    [
        # below the candidate's threshold: blocked; above: passes; at it: passes
        ({"factscore": 1.0, "dfactscore": 0.67}, {"mode": "block", "threshold": 0.75}, "block"),
        ({"factscore": 1.0, "dfactscore": 0.8}, {"mode": "block", "threshold": 0.75}, "pass"),
        ({"factscore": 0.75, "dfactscore": 0.75}, {"mode": "block", "threshold": 0.75}, "pass"),
        # revise needs a revision to offer; without one it blocks
        ({"factscore": 0.5, "dfactscore": 0.5, "revision": REVISED}, {"mode": "revise", "threshold": 0.7}, "revise"),
        ({"factscore": 0.5, "dfactscore": 0.5}, {"mode": "revise", "threshold": 0.7}, "block"),
        # annotate never withholds
        ({"factscore": 0.1, "dfactscore": 0.1}, {"mode": "annotate", "threshold": 0.9}, "pass"),
        # unverifiable follows on_unverifiable, never a score
        ({"unverifiable": True}, {"mode": "block"}, "pass"),
        ({"unverifiable": True}, {"mode": "block", "on_unverifiable": "block"}, "block"),
        # an abstention passes
        ({"abstained": True}, {"mode": "block", "threshold": 0.99}, "pass"),
        # a partial verdict cannot clear an answer, whatever its score, unless the operator opens
        ({"factscore": 1.0, "dfactscore": 1.0, "partial": True}, {"mode": "block"}, "block"),
        ({"factscore": 1.0, "dfactscore": 1.0, "partial": True}, {"mode": "block", "on_unavailable": "open"}, "pass"),
    ],
)
def test_a_verdict_is_decided_as_the_gateway_would(
    check: dict[str, Any], candidate: dict[str, Any], expected: str
) -> None:
    report = compare_policies([(v := verdict("r1", **check), v)], PolicyTable(), table(candidate))
    assert report["overall"]["now"] == {"pass": 1, "block": 0, "revise": 0}  # the built-in observe
    assert report["overall"]["candidate"][expected] == 1
    assert report["overall"]["flips"] == (expected != "pass")
    assert [f["candidate"] for f in report["flips"]] == ([expected] if expected != "pass" else [])


def test_rates_and_flips_per_model_follow_each_models_policy() -> None:
    verdicts = [
        verdict("a1", "alpha", factscore=1.0, dfactscore=0.9),
        verdict("a2", "alpha", factscore=1.0, dfactscore=0.6),
        verdict("a3", "alpha", factscore=0.5, dfactscore=0.5),
        verdict("a4", "alpha", factscore=1.0, dfactscore=0.95),
        verdict("b1", "beta", factscore=0.6, dfactscore=0.6),
        verdict("b2", "beta", factscore=0.9, dfactscore=0.9),
    ]
    current = table({"mode": "block", "threshold": 0.55}, {"beta": {"mode": "observe"}})
    candidate = table({"mode": "block", "threshold": 0.7}, {"beta": {"mode": "block", "threshold": 0.8}})
    report = compare_policies([(v, v) for v in verdicts], current, candidate)
    alpha, beta = report["models"]["alpha"], report["models"]["beta"]
    # alpha: now only a3 (0.5 < 0.55) is blocked; the candidate (0.7) blocks a2 too
    assert alpha["now"] == {"pass": 3, "block": 1, "revise": 0}
    assert alpha["candidate"] == {"pass": 2, "block": 2, "revise": 0}
    assert alpha["now_rate"]["block"] == 0.25 and alpha["candidate_rate"]["block"] == 0.5
    # beta: observed now, the candidate blocks b1 (0.6 < 0.8)
    assert beta["now"]["pass"] == 2 and beta["candidate"] == {"pass": 1, "block": 1, "revise": 0}
    assert report["overall"]["answers"] == 6 and report["overall"]["flips"] == 2
    assert [(f["request_id"], f["now"], f["candidate"]) for f in report["flips"]] == [
        ("a2", "pass", "block"),
        ("b1", "pass", "block"),
    ]
    assert report["flips"][0]["dfactscore"] == 0.6 and report["flips"][0]["status"] == "checked"


def test_a_looser_candidate_flips_blocks_to_passes() -> None:
    verdicts = [verdict(f"r{i}", factscore=s, dfactscore=s) for i, s in enumerate((0.5, 0.65, 0.9))]
    report = compare_policies(
        [(v, v) for v in verdicts],
        table({"mode": "block", "threshold": 0.8}),
        table({"mode": "block", "threshold": 0.6}),
    )
    assert [(f["request_id"], f["now"], f["candidate"]) for f in report["flips"]] == [("r1", "block", "pass")]


def test_fresh_verdicts_are_decided_by_the_candidate_and_live_ones_by_the_policy_in_force() -> None:
    live = verdict("r1", factscore=1.0, dfactscore=0.9)
    fresh = verdict("r1", factscore=1.0, dfactscore=0.5)  # re-scored against a changed store
    same_policy = table({"mode": "block", "threshold": 0.7})
    report = compare_policies([(live, fresh)], same_policy, same_policy)
    assert report["flips"] == [
        {
            "request_id": "r1",
            "model": "bot",
            "now": "pass",
            "candidate": "block",
            "status": "checked",
            "dfactscore": 0.5,
            "would": None,  # the live verdict recorded no shadow decision
        }
    ]


@pytest.mark.parametrize(
    ("extra", "counted"),
    [
        ({}, True),
        ({"source": "guardrail_api"}, True),
        ({"source": "factcheck"}, False),  # the direct API: no policy acts on it
        ({"partial_of": "req-1"}, False),  # a hold-back check of part of an answer
        ({"run": "replay-1"}, False),  # a replay's own verdict
    ],
)
def test_only_verdicts_a_policy_acted_on_are_counted(extra: dict[str, Any], counted: bool) -> None:
    v = verdict("r1", factscore=1.0, dfactscore=1.0, **extra)
    assert governed(v) is counted
    assert latest_governed([v]) == ([v] if counted else [])


def test_the_last_verdict_of_a_request_wins() -> None:
    first = verdict("r1", factscore=0.2, dfactscore=0.2)
    again = verdict("r1", factscore=0.9, dfactscore=0.9)
    other = verdict("r2", factscore=0.4, dfactscore=0.4)
    assert latest_governed([first, other, again]) == [again, other]


def test_recorded_shadow_decisions_are_counted_and_a_candidate_promoting_the_shadow_flips_exactly_them() -> None:
    shadow = {"mode": "block", "threshold": 0.75}
    spec = table({"mode": "observe", "shadow": shadow}).for_model("bot").shadow_policy()
    assert spec is not None
    verdicts = [verdict("low", factscore=0.6, dfactscore=0.6), verdict("high", factscore=0.9, dfactscore=0.9)]
    verdicts.append(verdict("none", factscore=0.5, dfactscore=0.5))  # scored before the shadow was set
    for v in verdicts[:2]:
        v.would = would(spec, v)
    # The candidate carries a shadow of its own: accepted, and it changes none of its actions.
    candidate = table({"mode": "block", "threshold": 0.75, "shadow": {"mode": "block", "threshold": 0.95}})
    report = compare_policies([(v, v) for v in verdicts], table({"mode": "observe", "shadow": shadow}), candidate)
    assert report["overall"]["would"] == {"pass": 1, "revise": 0, "block": 1}
    assert report["overall"]["candidate"] == {"pass": 1, "revise": 0, "block": 2}
    assert [(f["request_id"], f["would"]) for f in report["flips"]] == [("low", "block"), ("none", None)]
