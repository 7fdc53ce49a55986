"""The llm and hybrid engines in the pipeline: gateway → Kafka → worker (LLM judge) → verdict, with the
official ``openai`` client, against a local OpenAI-compatible judge (tests/judge_server.py) that answers
with realistic scripted replies or misbehaves on cue. The judge comes from the operator's model list,
never from a request; its calls, tokens and errors are counted per engine and judge model."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from prometheus_client import CollectorRegistry

from tests.gateway.conftest import FAITHFUL, MERGED, StartStack, ask, released_unchecked
from tests.judge_server import JudgeServer

BLOCK = {"mode": "block", "threshold": 0.75, "timeout_s": 120}


@pytest.fixture
async def judge() -> AsyncIterator[JudgeServer]:
    server = await JudgeServer().start()
    yield server
    await server.stop()


def judge_worker(judge: JudgeServer, tmp_path: Path, **overrides: Any) -> dict[str, Any]:
    """Worker settings that give it the judge: the operator's model list and the entry's name."""
    models = tmp_path / "models.yaml"
    models.write_text(yaml.safe_dump(judge.model_list("judge")))
    return {"models_file": models, "judge_model": "judge", "judge_timeout_s": 5.0, **overrides}


def sample(registry: CollectorRegistry, name: str, **labels: str) -> float:
    return registry.get_sample_value(name, labels) or 0.0


async def settled(registry: CollectorRegistry, name: str, **labels: str) -> float:
    """The sample once the worker has observed its batch (metrics follow the commit, the verdict comes first)."""
    value = sample(registry, name, **labels)
    for _ in range(100):
        await asyncio.sleep(0.05)
        again = sample(registry, name, **labels)
        if again == value and value:
            return value
        value = again
    return value


async def result_of(gw: Any, request_id: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        response = await http.get(f"/v1/results/{request_id}")
    assert response.status_code == 200, response.text
    return response.json()


async def test_llm_engine_blocks_the_merged_biography_and_passes_the_faithful_one(
    start_stack: StartStack, judge: JudgeServer, tmp_path: Path
) -> None:
    registry = CollectorRegistry()
    gw = await start_stack(
        {"default": BLOCK}, worker=judge_worker(judge, tmp_path, engine="llm"), worker_registry=registry
    )
    rid, blocked, headers = await ask(gw, MERGED)
    assert headers["x-factsentry-action"] == "block"
    assert blocked.choices[0].finish_reason == "content_filter"
    _, passed, headers = await ask(gw, FAITHFUL)
    assert headers["x-factsentry-action"] == "pass" and passed.choices[0].message.content == FAITHFUL.answer
    check = (await result_of(gw, rid))["check"]
    assert check["engine"] == "llm" and check["llm_model"] == "judge" and check["llm_calls"] >= 2
    facts = [f for g in check["groups"] for f in g["facts"] if f["worthiness"] == "factual"]
    assert facts and {f["decided_by"] for f in facts} == {"llm"}
    assert check["num_entities"] == 2 and check["dfactscore"] < check["factscore"]
    kinds = judge.kinds()
    assert kinds.count("decompose") == 2 and "verify" in kinds
    calls = await settled(registry, "factsentry_worker_llm_calls_total", engine="llm", judge="judge")
    assert calls == len(judge.requests)
    assert await settled(registry, "factsentry_worker_llm_tokens_total", engine="llm", judge="judge") > 500


async def test_a_model_policy_picks_hybrid_and_only_uncertain_facts_reach_the_judge(
    start_stack: StartStack, judge: JudgeServer, tmp_path: Path
) -> None:
    registry = CollectorRegistry()
    policies = {"default": BLOCK, "models": {"mock-lean": {"engine": "hybrid"}}}
    gw = await start_stack(policies, worker=judge_worker(judge, tmp_path), worker_registry=registry)
    rid, _, headers = await ask(gw, MERGED)
    assert headers["x-factsentry-action"] == "block"
    check = (await result_of(gw, rid))["check"]
    assert check["engine"] == "hybrid" and check["llm_model"] == "judge"
    facts = [f for g in check["groups"] for f in g["facts"] if f["worthiness"] == "factual"]
    by_llm = [f for f in facts if f["decided_by"] == "llm"]
    assert all(f["decided_by"] for f in facts) and len(by_llm) < len(facts)
    assert "decompose" not in judge.kinds(), "hybrid decomposes offline unless the operator says otherwise"
    # one verify call for the answer's uncertain facts, and at most one more for those of its revision's re-check
    # (scoring.recheck checks a revision with the same engine before it is offered); every call is counted
    verify_calls = judge.kinds().count("verify")
    assert verify_calls == check["llm_calls"]
    assert (1 <= verify_calls <= 2) if by_llm else verify_calls == 0


async def test_malformed_replies_and_rate_limits_are_retried_and_counted(
    start_stack: StartStack, judge: JudgeServer, tmp_path: Path
) -> None:
    registry = CollectorRegistry()
    judge.script = ["malformed", "429", "500"]
    worker = judge_worker(judge, tmp_path, engine="llm")
    gw = await start_stack({"default": BLOCK}, worker=worker, worker_registry=registry)
    rid, _, headers = await ask(gw, MERGED)
    assert headers["x-factsentry-action"] == "block"
    check = (await result_of(gw, rid))["check"]
    assert check["engine"] == "llm" and check["llm_errors"] == 3 and check["num_entities"] == 2
    labels = {"engine": "llm", "judge": "judge"}
    assert await settled(registry, "factsentry_worker_llm_errors_total", **labels) == 3
    assert await settled(registry, "factsentry_worker_llm_calls_total", **labels) == len(judge.requests)


@pytest.mark.parametrize(
    ("behaviour", "kind"), [("429", "rate_limit"), ("slow", "timeout"), ("truncated", "truncated")]
)
async def test_a_judge_that_keeps_failing_gives_an_honest_failure_never_an_offline_verdict(
    start_stack: StartStack, judge: JudgeServer, tmp_path: Path, behaviour: str, kind: str
) -> None:
    """No verdict claims to be the LLM's when the LLM did not give one: the check fails (dead-lettered,
    counted by kind) and block refuses the answer; the faithful answer is refused too."""
    registry = CollectorRegistry()
    judge.default, judge.slow_s = behaviour, 3.0
    worker = judge_worker(
        judge, tmp_path, engine="llm", judge_timeout_s=1.0, judge_call_retries=1, max_retries=0, backoff_s=0.05
    )
    gw = await start_stack({"default": BLOCK}, worker=worker, worker_registry=registry)
    _, refused, headers = await ask(gw, FAITHFUL)
    assert headers["x-factsentry-action"] == "block"
    assert refused.model_extra["factsentry"]["status"] == "failed"  # type: ignore[index]
    assert released_unchecked(gw) == 0
    # A cut reply is not asked again as it was (it would be cut again) but for each half of the text, until a
    # part of one sentence is cut too: the whole answer (4 sentences), its first half, that half's first sentence.
    attempts = 3 if kind == "truncated" else 2
    assert len(judge.requests) == attempts
    assert await settled(registry, "factsentry_worker_llm_failures_total", engine="llm", judge="judge", kind=kind) == 1
    assert sample(registry, "factsentry_worker_llm_errors_total", engine="llm", judge="judge") == 0  # no result


async def test_factcheck_engine_field_within_what_the_operator_allows(
    start_stack: StartStack, judge: JudgeServer, tmp_path: Path
) -> None:
    gw = await start_stack(worker=judge_worker(judge, tmp_path), factcheck_engines="offline,llm")
    body = {"text": MERGED.answer, "name": MERGED.name, "timeout_s": 120}
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=180) as http:
        llm = (await http.post("/v1/factcheck", json={**body, "engine": "llm"})).json()
        offline = (await http.post("/v1/factcheck", json=body)).json()
        not_allowed = await http.post("/v1/factcheck", json={**body, "engine": "hybrid"})
        unknown = await http.post("/v1/factcheck", json={**body, "engine": "hybird"})
    assert llm["engine"] == "llm" and llm["llm_model"] == "judge" and llm["dfactscore"] < llm["factscore"]
    assert offline["engine"] == "offline" and offline["llm_calls"] == 0
    assert not_allowed.status_code == 400 and not_allowed.json()["error"]["code"] == "engine_not_allowed"
    assert "FACTSENTRY_FACTCHECK_ENGINES" in not_allowed.json()["error"]["message"]
    assert unknown.status_code == 400 and "did you mean 'hybrid'" in unknown.json()["error"]["message"]


async def test_a_worker_without_a_judge_fails_an_llm_record_at_once(start_stack: StartStack) -> None:
    """A policy asks for llm but the workers have no judge: the record is dead-lettered with the reason,
    the waiter is told at once, and block refuses the answer."""
    gw = await start_stack({"default": {**BLOCK, "engine": "llm"}})
    _, refused, headers = await ask(gw, FAITHFUL)
    assert headers["x-factsentry-action"] == "block"
    assert refused.model_extra["factsentry"]["status"] == "failed"  # type: ignore[index]
    assert released_unchecked(gw) == 0
