"""The fault suite of the guardrail: under block, nothing leaves without a clearing verdict unless the
operator chose ``open`` for what went wrong — and then it is counted.

Each test reproduces one way an unchecked answer used to get through (issue: "a guardrail that
holds") against the real broker and valkey, a real uvicorn gateway and, where a verdict is needed,
a real worker.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer
from prometheus_client import CollectorRegistry

from bus.results import ResultStore, VerdictListener
from factsentry.embedded import free_port
from gateway.errors import InvalidRequest
from gateway.policy import PolicyTable, resolve
from gateway.release import REFUSALS
from schemas.messages import GenerationMessage
from tests.gateway.conftest import FAITHFUL, MERGED, GatewayFactory, RunningGateway, StartStack, released_unchecked
from workers.settings import load_settings
from workers.worker import run_worker

BLOCK_OPEN = {"default": {"mode": "block", "threshold": 0.75, "timeout_s": 120, "on_timeout": "open"}}


def sample(gw: RunningGateway, name: str, **labels: str) -> float:
    return gw.gateway.registry.get_sample_value(name, labels) or 0.0


def chat(conv: Any = MERGED) -> dict[str, Any]:
    return {"model": "mock-lean", "messages": [{"role": "user", "content": conv.question}]}


async def post_chat(gw: RunningGateway, body: dict[str, Any], **headers: str) -> tuple[httpx.Response, float]:
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=180) as http:
        start = time.perf_counter()
        response = await http.post("/v1/chat/completions", json=body, headers=headers)
        return response, time.perf_counter() - start


async def test_block_at_concurrency_256_releases_nothing_unchecked(start_stack: StartStack) -> None:
    """Pool pressure: 256 waits at once used to exhaust Redis connections and fail open (918 of 1,000)."""
    gw = await start_stack(BLOCK_OPEN, worker={"concurrency": 2})
    convs = [MERGED if i % 2 else FAITHFUL for i in range(256)]
    limits = httpx.Limits(max_connections=300, max_keepalive_connections=300)
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=300, limits=limits) as http:

        async def one(conv: Any) -> httpx.Response:
            return await http.post("/v1/chat/completions", json=chat(conv), headers={"x-factsentry-name": conv.name})

        responses = await asyncio.gather(*(one(c) for c in convs))
    statuses = [r.headers.get("x-factsentry-status") for r in responses]
    assert [r.status_code for r in responses] == [200] * 256
    assert statuses == ["checked"] * 256, {s: statuses.count(s) for s in set(statuses)}
    for conv, response in zip(convs, responses, strict=True):
        content = response.json()["choices"][0]["message"]["content"] or ""
        if conv is MERGED:
            assert response.headers["x-factsentry-action"] == "block"
            assert content != MERGED.answer
        else:
            assert response.headers["x-factsentry-action"] == "pass"
            assert content == FAITHFUL.answer
    assert released_unchecked(gw) == 0
    assert sample(gw, "factsentry_gateway_verdict_unavailable_total") == 0


def test_a_shorter_client_timeout_is_refused_where_the_operators_timeout_opens() -> None:
    table = PolicyTable.model_validate(BLOCK_OPEN)
    with pytest.raises(InvalidRequest) as refused:
        resolve(table, "m", {"x-factsentry-timeout": "0.01"})
    assert refused.value.code == "policy_override_not_allowed"
    closed = PolicyTable.model_validate({"default": {**BLOCK_OPEN["default"], "on_timeout": "closed"}})
    assert resolve(closed, "m", {"x-factsentry-timeout": "0.01"}).timeout_s == 0.01
    # Equal timeouts and stricter thresholds stay allowed under an open timeout.
    assert resolve(table, "m", {"x-factsentry-timeout": "120", "x-factsentry-threshold": "0.9"}).threshold == 0.9


async def test_a_client_timeout_header_cannot_release_a_merged_biography(start_gateway: GatewayFactory) -> None:
    gw = await start_gateway(BLOCK_OPEN)
    response, _ = await post_chat(gw, chat(), **{"x-factsentry-timeout": "0.01"})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "policy_override_not_allowed"
    assert released_unchecked(gw) == 0


@pytest.mark.parametrize("depth", [40, 200, 300])
async def test_a_deeply_nested_body_is_refused_before_anything_is_published(
    start_gateway: GatewayFactory, depth: int
) -> None:
    gw = await start_gateway(BLOCK_OPEN)
    junk: Any = "x"
    for _ in range(depth):
        junk = {"a": [junk]}
    body = chat()
    body["messages"][0]["junk"] = junk
    response, _ = await post_chat(gw, body)
    assert response.status_code == 400
    assert response.json()["error"]["type"] == "invalid_request_error"
    assert "deeper than" in response.json()["error"]["message"]
    assert gw.gateway.publisher.queue.qsize() == 0
    assert sample(gw, "factsentry_gateway_published_total") == 0


async def test_only_role_and_text_of_messages_are_published(start_gateway: GatewayFactory) -> None:
    gw = await start_gateway()
    body = {
        "model": "mock-lean",
        "messages": [
            {"role": "system", "content": "Be brief.", "name": "sys", "extra": {"k": [1, 2, {"z": 3}]}},
            {
                "role": "user",
                "content": [{"type": "text", "text": MERGED.question, "cache": {"x": 1}}, {"type": "image_url"}],
            },
        ],
    }
    response, _ = await post_chat(gw, body)
    assert response.status_code == 200
    consumer = AIOKafkaConsumer(
        gw.settings.generations_topic,
        bootstrap_servers=gw.settings.kafka_bootstrap,
        group_id=None,
        auto_offset_reset="earliest",
    )
    await consumer.start()
    try:
        record = await asyncio.wait_for(consumer.getone(), 30)
    finally:
        await consumer.stop()
    raw = GenerationMessage.model_validate_json(record.value).model_dump(mode="json")
    assert raw["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": [{"type": "text", "text": MERGED.question}]},
    ]


@pytest.mark.parametrize(("on_unavailable", "released"), [("closed", False), ("open", True)])
async def test_an_answer_over_the_record_limit_follows_on_unavailable_at_once(
    start_gateway: GatewayFactory, on_unavailable: str, released: bool
) -> None:
    policies = {"default": {**BLOCK_OPEN["default"], "on_unavailable": on_unavailable}}
    gw = await start_gateway(policies, max_record_bytes=1200)
    response, elapsed = await post_chat(gw, chat())
    assert response.status_code == 200
    assert elapsed < 10, "must not wait out the 120 s timeout"
    assert response.headers["x-factsentry-status"] == "failed"
    assert sample(gw, "factsentry_gateway_publish_lost_total", reason="too_large") == 1
    content = response.json()["choices"][0]["message"]["content"]
    assert (content == MERGED.answer) is released
    assert released_unchecked(gw) == (1 if released else 0)


async def test_broker_down_blocks_at_once_instead_of_waiting_out_the_timeout(start_gateway: GatewayFactory) -> None:
    gw = await start_gateway(BLOCK_OPEN, kafka_bootstrap=f"127.0.0.1:{free_port()}")
    response, elapsed = await post_chat(gw, chat())
    assert elapsed < 30, "must not wait out the 120 s timeout"
    assert response.headers["x-factsentry-action"] == "block"
    assert response.headers["x-factsentry-status"] == "unavailable"  # the broker's fault, not the record's
    assert response.json()["choices"][0]["message"]["refusal"] == REFUSALS["unavailable"]
    assert sample(gw, "factsentry_gateway_publish_lost_total", reason="broker_down") >= 1
    assert released_unchecked(gw) == 0


async def test_redis_down_blocks_at_once_and_open_is_counted(start_gateway: GatewayFactory) -> None:
    dead = f"redis://127.0.0.1:{free_port()}/0"
    gw = await start_gateway(BLOCK_OPEN, redis_url=dead)
    response, elapsed = await post_chat(gw, chat())
    assert elapsed < 10
    assert response.headers["x-factsentry-status"] == "unavailable"
    assert response.headers["x-factsentry-action"] == "block"
    opened = await start_gateway({"default": {**BLOCK_OPEN["default"], "on_unavailable": "open"}}, redis_url=dead)
    response, _ = await post_chat(opened, chat())
    assert response.json()["choices"][0]["message"]["content"] == MERGED.answer
    assert released_unchecked(opened) == 1
    assert (
        opened.gateway.registry.get_sample_value(
            "factsentry_gateway_released_unchecked_total", {"model": "mock-lean", "reason": "unavailable"}
        )
        == 1
    )


async def test_a_check_over_the_workers_budget_blocks_at_once(start_stack: StartStack) -> None:
    """A record the worker gives up on (over its time budget → DLQ) wakes the waiting request."""
    gw = await start_stack(BLOCK_OPEN, worker={"max_check_seconds": 0.001})
    response, elapsed = await post_chat(gw, chat(), **{"x-factsentry-name": MERGED.name})
    assert elapsed < 60, "must not wait out the 120 s timeout"
    assert response.headers["x-factsentry-status"] == "failed"
    assert response.headers["x-factsentry-action"] == "block"
    assert released_unchecked(gw) == 0


async def test_a_dead_lettered_record_ends_the_wait_for_its_request(
    kafka_bootstrap: str, redis_url: str, unique: str
) -> None:
    settings = load_settings(
        kafka_bootstrap=kafka_bootstrap,
        redis_url=redis_url,
        redis_prefix=f"dlq{unique}",
        generations_topic=f"gen-dlq-{unique}",
        results_topic=f"res-dlq-{unique}",
        group_id=f"dlq-{unique}",
        metrics_port=0,
        concurrency=1,
    )
    client = aioredis.from_url(redis_url)
    listener = VerdictListener(ResultStore(client, settings.redis_prefix))
    await listener.start()
    stop = asyncio.Event()
    worker = asyncio.create_task(run_worker(settings, stop_event=stop, registry=CollectorRegistry()))
    try:
        waiting = asyncio.create_task(listener.wait("fs-junk", timeout=120))
        producer = AIOKafkaProducer(bootstrap_servers=kafka_bootstrap)
        await producer.start()
        try:
            await producer.send_and_wait(settings.generations_topic, b'{"not": "a generation"}', key=b"fs-junk")
        finally:
            await producer.stop()
        outcome = await asyncio.wait_for(waiting, 90)
    finally:
        stop.set()
        await asyncio.wait_for(worker, 60)
        await listener.stop()
        await client.aclose()
    assert outcome.status == "failed"
    assert outcome.reason and "GenerationMessage" in outcome.reason


async def test_an_answer_the_store_cannot_judge_follows_on_unverifiable(start_stack: StartStack) -> None:
    """Marie Curie is not in the demo store: her biography is unverifiable, not false — it passes under
    the default policy (annotated as unverifiable) and is refused only where the operator says so."""
    gw = await start_stack(
        {
            "default": {"mode": "block", "threshold": 0.75, "timeout_s": 120},
            "models": {"mock-litellm": {"on_unverifiable": "block"}},
        }
    )
    question = {"role": "user", "content": "Who was Marie Curie?"}
    passed, _ = await post_chat(gw, {"model": "mock-lean", "messages": [question]})
    assert passed.headers["x-factsentry-status"] == "unverifiable"
    assert passed.headers["x-factsentry-action"] == "pass"
    body = passed.json()
    assert body["choices"][0]["message"]["content"].startswith("Marie Curie was a physicist")
    assert body["factsentry"]["status"] == "unverifiable" and body["factsentry"]["factscore"] is None
    assert body["factsentry"]["coverage"] == 0.0
    blocked, _ = await post_chat(gw, {"model": "mock-litellm", "messages": [question]})
    assert blocked.headers["x-factsentry-status"] == "unverifiable"
    assert blocked.headers["x-factsentry-action"] == "block"
    message = blocked.json()["choices"][0]["message"]
    assert "could not be checked against the knowledge" in message["refusal"] and message["content"] is None
    assert released_unchecked(gw) == 0
