"""Policy resolution and decisions, as tables."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from gateway.errors import ConfigError, InvalidRequest
from gateway.policy import Action, PolicySpec, PolicyTable, decide, resolve, verdict_headers
from schemas.check import CheckResult, Revision
from schemas.enums import Policy
from schemas.messages import ResultMessage


def result(dfs: float | None, *, abstained: bool = False, revision: str | None = "Revised.") -> ResultMessage:
    check = CheckResult(
        abstained=abstained,
        factscore=None if dfs is None else min(1.0, dfs + 0.2),
        dfactscore=dfs,
        num_facts=5,
        num_bios=1,
        num_entities=2,
        revision=Revision(text=revision) if revision is not None else None,
    )
    return ResultMessage(request_id="r", model="m", check=check, scored_at=datetime.now(UTC))


DECISIONS = [
    (PolicySpec(mode=Policy.OBSERVE), result(0.1), Action.PASS),
    (PolicySpec(mode=Policy.ANNOTATE), result(0.1), Action.PASS),
    (PolicySpec(mode=Policy.BLOCK, threshold=0.7), result(0.69), Action.BLOCK),
    (PolicySpec(mode=Policy.BLOCK, threshold=0.7), result(0.7), Action.PASS),
    (PolicySpec(mode=Policy.BLOCK, threshold=0.7), result(0.2, abstained=True), Action.PASS),
    (PolicySpec(mode=Policy.BLOCK, threshold=0.7), result(None), Action.PASS),
    (PolicySpec(mode=Policy.REVISE, threshold=0.7), result(0.5), Action.REVISE),
    (PolicySpec(mode=Policy.REVISE, threshold=0.7), result(0.5, revision=""), Action.BLOCK),
    (PolicySpec(mode=Policy.REVISE, threshold=0.7), result(0.5, revision=None), Action.BLOCK),
    (PolicySpec(mode=Policy.BLOCK, on_timeout="open"), None, Action.PASS),
    (PolicySpec(mode=Policy.BLOCK, on_timeout="closed"), None, Action.BLOCK),
    (PolicySpec(mode=Policy.REVISE, on_timeout="closed"), None, Action.BLOCK),
    (PolicySpec(mode=Policy.ANNOTATE, on_timeout="closed"), None, Action.PASS),
]


@pytest.mark.parametrize(("spec", "verdict", "expected"), DECISIONS)
def test_decide(spec: PolicySpec, verdict: ResultMessage | None, expected: Action) -> None:
    assert decide(spec, verdict) is expected


def test_model_policies_override_the_default_and_headers_override_both(tmp_path: Path) -> None:
    path = tmp_path / "p.yaml"
    path.write_text("default: {mode: annotate, threshold: 0.6}\nmodels:\n  strict: {mode: block, threshold: 0.9}\n")
    table = PolicyTable.load(path)
    assert table.for_model("other") == PolicySpec(mode=Policy.ANNOTATE, threshold=0.6)
    assert table.for_model("strict") == PolicySpec(mode=Policy.BLOCK, threshold=0.9)
    spec = resolve(table, "strict", {"x-factsentry-policy": "REVISE", "x-factsentry-timeout": "3"}, "any")
    assert (spec.mode, spec.threshold, spec.timeout_s) == (Policy.REVISE, 0.9, 3.0)


@pytest.mark.parametrize(
    ("headers", "param"),
    [
        ({"x-factsentry-policy": "loud"}, "x-factsentry-policy"),
        ({"x-factsentry-threshold": "1.5"}, "x-factsentry-threshold"),
        ({"x-factsentry-timeout": "-1"}, "x-factsentry-timeout"),
    ],
)
def test_bad_override_headers_name_the_header(headers: dict[str, str], param: str) -> None:
    with pytest.raises(InvalidRequest) as caught:
        resolve(PolicyTable(), "m", headers)
    assert caught.value.param == param
    assert param in caught.value.message


@pytest.mark.parametrize(
    "text",
    ["default: {mode: shout}", "models:\n  m: {threshold: 2}", "default: {mode: block, colour: red}", "[: not yaml"],
)
def test_bad_policy_files_fail_at_startup(tmp_path: Path, text: str) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=str(path)):
        PolicyTable.load(path)


def test_verdict_headers() -> None:
    assert verdict_headers(None) == {"x-factsentry-status": "timeout"}
    assert verdict_headers(result(0.5)) == {
        "x-factsentry-status": "checked",
        "x-factsentry-factscore": "0.7000",
        "x-factsentry-dfactscore": "0.5000",
        "x-factsentry-bios": "1",
        "x-factsentry-entities": "2",
    }
