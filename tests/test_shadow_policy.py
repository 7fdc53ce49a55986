"""Shadow policies (schemas/policy.py): what a policy would have done, decided by the one pure function the
gateway enforces with, recorded by the worker, and never changing what a client receives."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import pytest
from prometheus_client import CollectorRegistry
from pydantic import ValidationError

import gateway.policy
from gateway.errors import ConfigError
from gateway.policy import PolicySpec, PolicyTable, resolve
from gateway.release import Decision, as_json, release
from gateway.settings import GatewaySettings
from schemas.check import CheckResult, FactGroup, Revision
from schemas.enums import Policy
from schemas.messages import GenerationMessage, ResultMessage, Would
from schemas.policy import Action, DecisionSpec, ShadowSpec, decide, decide_why, would
from workers.metrics import make_metrics
from workers.scoring_stage import _result, observe

NOW = datetime.now(UTC)


def verdict(dfs: float | None = None, **check: Any) -> ResultMessage:
    fields: dict[str, Any] = {"num_bios": 1, "num_entities": 1, "num_facts": 4, **check}
    if dfs is not None:
        fields.setdefault("factscore", dfs)
        fields["dfactscore"] = dfs
    return ResultMessage(request_id="r1", model="bot", scored_at=NOW, check=CheckResult(**fields))


BLOCK_75 = DecisionSpec(mode=Policy.BLOCK, threshold=0.75)
REVISE_75 = DecisionSpec(mode=Policy.REVISE, threshold=0.75)
REVISED = Revision(text="Dick Hanley was an American football coach.")
MERGED_GROUPS = [FactGroup(mention="Dick Hanley", entity="Dick Hanley", conflated=True)]

# (shadow spec, verdict or None, status, expected action, expected reason)
WOULD = [
    (BLOCK_75, verdict(0.67), "timeout", "block", "unsupported"),
    (BLOCK_75, verdict(0.67, groups=MERGED_GROUPS), "timeout", "block", "conflated"),
    (BLOCK_75, verdict(0.75), "timeout", "pass", "cleared"),
    (BLOCK_75, verdict(0.93), "timeout", "pass", "cleared"),
    (DecisionSpec(mode=Policy.BLOCK, threshold=0.95), verdict(0.93), "timeout", "block", "unsupported"),
    (REVISE_75, verdict(0.5, revision=REVISED), "timeout", "revise", "unsupported"),
    (REVISE_75, verdict(0.5, revision=Revision(text="  ")), "timeout", "block", "unsupported"),
    (REVISE_75, verdict(0.5), "timeout", "block", "unsupported"),
    (BLOCK_75, verdict(abstained=True), "timeout", "pass", "abstained"),
    (BLOCK_75, verdict(unverifiable=True), "timeout", "pass", "unverifiable"),
    (
        DecisionSpec(mode=Policy.BLOCK, on_unverifiable="block"),
        verdict(unverifiable=True),
        "timeout",
        "block",
        "unverifiable",
    ),
    (BLOCK_75, verdict(), "timeout", "pass", "no_score"),
    (BLOCK_75, verdict(0.99, partial=True), "timeout", "block", "partial"),
    (DecisionSpec(mode=Policy.BLOCK, on_unavailable="open"), verdict(0.99, partial=True), "timeout", "pass", "partial"),
    (BLOCK_75, None, "timeout", "block", "timeout"),
    (DecisionSpec(mode=Policy.BLOCK, on_timeout="open"), None, "timeout", "pass", "timeout"),
    (DecisionSpec(mode=Policy.BLOCK, on_timeout="open"), None, "failed", "block", "failed"),
    (BLOCK_75, None, "unavailable", "block", "unavailable"),
    (DecisionSpec(mode=Policy.OBSERVE), verdict(0.1), "timeout", "pass", "not_enforced"),
    (DecisionSpec(mode=Policy.ANNOTATE), None, "timeout", "pass", "timeout"),
]


@pytest.mark.parametrize(("spec", "result", "status", "action", "reason"), WOULD)
def test_would_under_a_shadow_policy(
    spec: DecisionSpec, result: ResultMessage | None, status: str, action: str, reason: str
) -> None:
    expected = {"action": action, "reason": reason, "mode": spec.mode.value, "threshold": spec.threshold}
    assert would(spec, result, status) == Would.model_validate(expected)
    # The reasoned decision and the enforcing one never disagree.
    assert decide(spec, result, status).value == action == decide_why(spec, result, status)[0].value


def test_the_gateway_decides_with_the_shared_function() -> None:
    assert gateway.policy.decide is decide and gateway.policy.Action is Action
    spec = PolicySpec(mode=Policy.BLOCK, threshold=0.75, timeout_s=3, shadow=ShadowSpec(mode=Policy.BLOCK))
    assert isinstance(spec, DecisionSpec) and decide(spec, verdict(0.7)) is Action.BLOCK


def test_a_shadow_follows_the_policy_it_sits_on_where_it_says_nothing() -> None:
    spec = PolicySpec(mode=Policy.OBSERVE, threshold=0.6, on_unverifiable="block", on_timeout="open")
    assert ShadowSpec(mode=Policy.BLOCK).over(spec) == DecisionSpec(
        mode=Policy.BLOCK, threshold=0.6, on_unverifiable="block", on_timeout="open"
    )
    assert ShadowSpec(mode=Policy.REVISE, threshold=0.8, on_unverifiable="pass").over(spec) == DecisionSpec(
        mode=Policy.REVISE, threshold=0.8, on_unverifiable="pass", on_timeout="open"
    )
    assert PolicySpec().shadow_policy() is None


def test_policy_files_carry_a_shadow_per_default_and_per_model(tmp_path: Path) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(
        "default: {mode: observe, shadow: {mode: block, threshold: 0.8}}\n"
        "models:\n"
        "  strict: {mode: block, threshold: 0.9}\n"
        "  trial: {shadow: {mode: revise, threshold: 0.6}}\n"
        "  plain: {shadow: null}\n"
    )
    table = PolicyTable.load(path)
    assert table.for_model("any").shadow == ShadowSpec(mode=Policy.BLOCK, threshold=0.8)
    strict = table.for_model("strict")
    assert (strict.mode, strict.shadow) == (Policy.BLOCK, ShadowSpec(mode=Policy.BLOCK, threshold=0.8))
    assert table.for_model("trial").shadow_policy() == DecisionSpec(mode=Policy.REVISE, threshold=0.6)
    assert table.for_model("plain").shadow is None
    # Header overrides keep the model's shadow (a client cannot change what is recorded).
    resolved = resolve(table, "any", {"x-factsentry-policy": "block", "x-factsentry-threshold": "0.9"})
    assert resolved.mode is Policy.BLOCK and resolved.shadow == ShadowSpec(mode=Policy.BLOCK, threshold=0.8)


@pytest.mark.parametrize(
    "text",
    [
        "default: {shadow: {mode: observe}}",  # a shadow decides: block or revise only
        "default: {shadow: {mode: annotate}}",
        "default: {shadow: {threshold: 0.8}}",  # no mode
        "default: {shadow: {mode: block, threshold: 1.5}}",
        "models:\n  m: {shadow: {mode: block, timeout_s: 3}}",  # only decision fields
    ],
)
def test_bad_shadows_fail_at_startup(tmp_path: Path, text: str) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match="shadow"):
        PolicyTable.load(path)


def generation(shadow: DecisionSpec | None, **fields: Any) -> GenerationMessage:
    return GenerationMessage(
        request_id="r1", model="bot", answer="A.", created_at=NOW, completed_at=NOW, shadow=shadow, **fields
    )


def test_the_shadow_travels_on_the_generation_message() -> None:
    spec = PolicySpec(mode=Policy.OBSERVE, threshold=0.6, shadow=ShadowSpec(mode=Policy.BLOCK, threshold=0.75))
    message = generation(spec.shadow_policy())
    back = GenerationMessage.model_validate_json(message.model_dump_json())
    assert back.shadow == BLOCK_75.model_copy(update={"threshold": 0.75})
    # Older generations (no shadow field) still read.
    raw = orjson.loads(generation(None).model_dump_json())
    del raw["shadow"]
    assert GenerationMessage.model_validate(raw).shadow is None


@pytest.mark.parametrize(
    ("shadow", "dfs", "partial_of", "expected"),
    [
        (BLOCK_75, 0.67, None, "block"),
        (BLOCK_75, 0.9, None, "pass"),
        (REVISE_75, 0.67, None, "block"),  # no revision in this check: revise refuses
        (BLOCK_75, 0.67, "r0", None),  # a hold-back check of part of an answer records nothing
        (None, 0.67, None, None),
    ],
)
def test_the_worker_records_and_counts_would(
    shadow: DecisionSpec | None, dfs: float, partial_of: str | None, expected: str | None
) -> None:
    check = CheckResult(factscore=dfs, dfactscore=dfs, num_bios=1, num_entities=1, num_facts=3)
    result = _result(generation(shadow, partial_of=partial_of), "A.", (check, 1.0, ()), "w1")
    assert (result.would.action if result.would else None) == expected
    stored = ResultMessage.model_validate_json(result.model_dump_json())
    assert stored.would == result.would
    metrics = make_metrics(CollectorRegistry())
    observe(result, metrics)
    for action in ("pass", "revise", "block"):
        labels = {"source": "proxy", "model": "bot", "action": action}
        count = metrics.value("factsentry_worker_would_total", labels) or 0.0
        assert count == (1.0 if action == expected else 0.0)


SETTINGS = GatewaySettings()
COMPLETION = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1,
    "model": "m",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "An answer."}, "finish_reason": "stop"}],
}


@pytest.mark.parametrize("mode", [Policy.ANNOTATE, Policy.BLOCK, Policy.REVISE])
@pytest.mark.parametrize(
    ("result", "status"),
    [
        (verdict(0.67, revision=REVISED), "done"),
        (verdict(0.9), "done"),
        (verdict(unverifiable=True), "done"),
        (None, "timeout"),
        (None, "unavailable"),
    ],
)
@pytest.mark.parametrize("shadow", [ShadowSpec(mode=Policy.BLOCK, threshold=0.95), ShadowSpec(mode=Policy.REVISE)])
def test_a_shadow_never_changes_what_the_client_receives(
    mode: Policy, result: ResultMessage | None, status: str, shadow: ShadowSpec
) -> None:
    plain = PolicySpec(mode=mode, threshold=0.75)
    shadowed = plain.model_copy(update={"shadow": shadow})
    rels = [
        release(Decision(spec, result, status, decide(spec, result, status), "r1"), SETTINGS)
        for spec in (plain, shadowed)
    ]
    bodies = [orjson.loads(as_json(rel, COMPLETION, {}).body) for rel in rels]
    assert orjson.dumps(bodies[0]["choices"]) == orjson.dumps(bodies[1]["choices"])
    assert (rels[0].action, rels[0].headers) == (rels[1].action, rels[1].headers)
    assert "would" not in bodies[0]["factsentry"]
    expected = would(shadow.over(plain), result, status).model_dump(mode="json")
    assert {k: v for k, v in bodies[1]["factsentry"].items() if k != "would"} == bodies[0]["factsentry"]
    assert bodies[1]["factsentry"]["would"] == expected


def test_the_response_shows_the_workers_record_of_would() -> None:
    spec = PolicySpec(mode=Policy.ANNOTATE, shadow=ShadowSpec(mode=Policy.BLOCK, threshold=0.75))
    recorded = verdict(0.67)
    recorded.would = Would(action="block", reason="conflated", mode="block", threshold=0.75)
    rel = release(Decision(spec, recorded, "done", Action.PASS, "r1"), SETTINGS)
    assert rel.factsentry["would"] == {"action": "block", "reason": "conflated", "mode": "block", "threshold": 0.75}


def test_a_would_is_validated() -> None:
    with pytest.raises(ValidationError):
        Would.model_validate({"action": "maybe", "reason": "x", "mode": "block", "threshold": 0.5})


@pytest.mark.parametrize(("module", "other"), [("workers.scoring_stage", "gateway"), ("gateway.app", "workers")])
def test_gateway_and_workers_do_not_import_each_other(module: str, other: str) -> None:
    code = f"import sys, {module}; print(sorted(m for m in sys.modules if m.split('.')[0] == {other!r}))"
    root = Path(__file__).parents[1]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
