"""The decision record kept beside each verdict (gateway/decisions.py), against a real valkey."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import pytest
import redis.asyncio as aioredis

from factsentry.embedded import free_port
from gateway.decisions import DecisionStore, decision_key
from gateway.policy import Action, PolicySpec
from gateway.release import Decision, release
from gateway.settings import GatewaySettings
from schemas.check import CheckResult, FactGroup, FactResult
from schemas.enums import Policy, Stance, Verdict
from schemas.messages import ResultMessage

BLOCK = PolicySpec(mode=Policy.BLOCK, threshold=0.8, timeout_s=5)


def verdict(dfactscore: float, tenant: str | None = "acme") -> ResultMessage:
    fact = FactResult(text="x", verdict=Verdict.NOT_SUPPORTED, stance=Stance.IRRELEVANT)
    check = CheckResult(dfactscore=dfactscore, factscore=dfactscore, groups=[FactGroup(entity="E", facts=[fact])])
    return ResultMessage(request_id="r", model="m", check=check, scored_at=datetime.now(UTC), tenant=tenant)


async def recorded(store: DecisionStore, decision: Decision, question: str | None) -> dict[str, object]:
    store.record(decision, release(decision, GatewaySettings()), "m", question)
    await store.drain()
    found = await store.get(decision.request_id)
    assert found is not None
    return found


async def test_the_question_is_kept_only_when_the_operator_says_so(redis_url: str, unique: str) -> None:
    client = aioredis.Redis.from_url(redis_url)
    try:
        decision = Decision(BLOCK, verdict(0.5), "checked", Action.BLOCK, f"fs-{unique}-a")
        private = await recorded(DecisionStore(client, f"t{unique}", 60), decision, "Who is my neighbour?")
        assert private["question"] is None
        kept = DecisionStore(client, f"t{unique}", 60, keep_question=True)
        found = await recorded(kept, decision, "Who is my neighbour?")
        assert found["question"] == "Who is my neighbour?"
        assert {
            k: found[k] for k in ("action", "policy", "threshold", "verdict", "reason", "tenant", "dfactscore")
        } == {
            "action": "block",
            "policy": "block",
            "threshold": 0.8,
            "verdict": "checked",
            "reason": "unsupported",
            "tenant": "acme",
            "dfactscore": 0.5,
        }
        assert 0 < await client.ttl(decision_key(f"t{unique}", decision.request_id)) <= 60  # the results' TTL
    finally:
        await client.aclose()


@pytest.mark.parametrize(
    ("spec", "action", "expected"),
    [
        (BLOCK, Action.BLOCK, {"action": "block", "verdict": "timeout", "reason": "timeout", "on_timeout": "closed"}),
        (
            BLOCK.model_copy(update={"on_timeout": "open"}),
            Action.PASS,
            {"action": "pass", "verdict": "timeout", "reason": "timeout", "on_timeout": "open"},
        ),
    ],
)
async def test_an_answer_without_a_verdict_in_time_records_what_the_timeout_setting_did(
    redis_url: str, unique: str, spec: PolicySpec, action: Action, expected: dict[str, object]
) -> None:
    client = aioredis.Redis.from_url(redis_url)
    try:
        decision = Decision(spec, None, "timeout", action, f"fs-{unique}-t")
        found = await recorded(DecisionStore(client, f"t{unique}", 60), decision, None)
        assert {k: found[k] for k in expected} == expected
        assert found["dfactscore"] is None and found["timeout_s"] == 5
    finally:
        await client.aclose()


async def test_annotate_records_an_annotated_release_and_passing_records_no_reason(redis_url: str, unique: str) -> None:
    client = aioredis.Redis.from_url(redis_url)
    try:
        store = DecisionStore(client, f"t{unique}", 60)
        annotate = PolicySpec(mode=Policy.ANNOTATE)
        found = await recorded(store, Decision(annotate, verdict(0.2), "checked", Action.PASS, f"fs-{unique}-n"), None)
        assert (found["action"], found["reason"]) == ("annotate", None)
        cleared = Decision(BLOCK, verdict(0.9), "checked", Action.PASS, f"fs-{unique}-p")
        found = await recorded(store, cleared, None)
        assert (found["action"], found["reason"], found["verdict"]) == ("pass", None, "checked")
    finally:
        await client.aclose()


async def test_an_unreachable_store_costs_the_record_not_the_answer(caplog: pytest.LogCaptureFixture) -> None:
    client = aioredis.Redis.from_url(f"redis://127.0.0.1:{free_port()}/0", socket_connect_timeout=1)
    try:
        store = DecisionStore(client, "t", 60)
        decision = Decision(BLOCK, verdict(0.5), "checked", Action.BLOCK, "fs-gone")
        with caplog.at_level(logging.WARNING, logger="gateway.decisions"):
            store.record(decision, release(decision, GatewaySettings()), "m", None)  # returns at once, never raises
            await store.drain()
        assert "the decision on fs-gone was not recorded" in caplog.text
    finally:
        await client.aclose()
