"""The gateway as a client sees it: the real openai SDK against uvicorn, Kafka and valkey for real."""

from __future__ import annotations

import asyncio

import httpx
import openai
import pytest
from aiokafka import AIOKafkaConsumer

from factsentry.embedded import free_port
from schemas.messages import GenerationMessage
from tests.gateway.conftest import UPSTREAM_ANSWER, GatewayFactory


async def published(bootstrap: str, topic: str, request_id: str, wait_s: float = 10.0) -> list[GenerationMessage]:
    """Every generation on ``topic`` with ``request_id`` (reads until ``wait_s`` passes without a new match)."""
    consumer = AIOKafkaConsumer(topic, bootstrap_servers=bootstrap, group_id=None, auto_offset_reset="earliest")
    await consumer.start()
    found: list[GenerationMessage] = []
    try:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait_s
        while loop.time() < deadline:
            batch = await consumer.getmany(timeout_ms=500)
            for records in batch.values():
                for record in records:
                    message = GenerationMessage.model_validate_json(record.value)
                    if message.request_id == request_id:
                        found.append(message)
                        deadline = min(deadline, loop.time() + 1.5)
    finally:
        await consumer.stop()
    return found


@pytest.mark.parametrize("model", ["mock-lean", "mock-litellm"])
async def test_openai_client_gets_the_upstream_answer_and_the_generation_is_published(
    start_gateway: GatewayFactory, kafka_bootstrap: str, model: str
) -> None:
    gw = await start_gateway()
    client = openai.AsyncOpenAI(base_url=gw.base_url + "/v1", api_key="unused")
    raw = await client.chat.completions.with_raw_response.create(
        model=model,
        messages=[{"role": "user", "content": "Tell me a bio of Marie Curie"}],
        extra_headers={"x-factsentry-name": "Marie Curie"},
    )
    completion = raw.parse()
    request_id = raw.headers["x-request-id"]
    assert completion.choices[0].message.content == UPSTREAM_ANSWER
    messages = await published(kafka_bootstrap, gw.settings.generations_topic, request_id)
    assert len(messages) == 1
    assert messages[0].answer == UPSTREAM_ANSWER
    assert messages[0].model == model
    assert messages[0].name == "Marie Curie"
    assert messages[0].question == "Tell me a bio of Marie Curie"
    await client.close()


async def test_streaming_returns_the_same_text_and_publishes_once(
    start_gateway: GatewayFactory, kafka_bootstrap: str
) -> None:
    gw = await start_gateway()
    client = openai.AsyncOpenAI(base_url=gw.base_url + "/v1", api_key="unused")
    whole = await client.chat.completions.create(model="mock-lean", messages=[{"role": "user", "content": "hi"}])
    raw = await client.chat.completions.with_raw_response.create(
        model="mock-lean", messages=[{"role": "user", "content": "hi"}], stream=True
    )
    request_id = raw.headers["x-request-id"]
    pieces = [chunk.choices[0].delta.content or "" async for chunk in raw.parse() if chunk.choices]
    assert len(pieces) > 3
    assert "".join(pieces) == whole.choices[0].message.content == UPSTREAM_ANSWER
    messages = await published(kafka_bootstrap, gw.settings.generations_topic, request_id)
    assert [m.answer for m in messages] == [UPSTREAM_ANSWER]
    assert messages[0].stream is True
    await client.close()


async def test_annotate_fails_open_when_no_verdict_arrives(start_gateway: GatewayFactory) -> None:
    gw = await start_gateway(policies={"default": {"mode": "annotate", "timeout_s": 0.5, "on_timeout": "open"}})
    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        response = await http.post(
            "/v1/chat/completions", json={"model": "mock-lean", "messages": [{"role": "user", "content": "hi"}]}
        )
    assert response.status_code == 200
    assert response.headers["x-factsentry-status"] == "timeout"
    body = response.json()
    assert body["choices"][0]["message"]["content"] == UPSTREAM_ANSWER
    assert body["factsentry"]["status"] == "timeout"


async def test_block_fails_closed_when_configured(start_gateway: GatewayFactory) -> None:
    gw = await start_gateway(policies={"default": {"mode": "block", "timeout_s": 0.3, "on_timeout": "closed"}})
    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        response = await http.post(
            "/v1/chat/completions", json={"model": "mock-lean", "messages": [{"role": "user", "content": "hi"}]}
        )
    assert response.status_code == 200
    body = response.json()
    assert body["choices"][0]["finish_reason"] == "content_filter"
    message = body["choices"][0]["message"]
    assert (
        message["content"] is None
        and message["refusal"] == "I can't give that answer: it could not be fact-checked in time."
    )
    assert UPSTREAM_ANSWER not in response.text
    assert response.headers["x-factsentry-action"] == "block"


BAD_REQUESTS = [
    (b"{not json", 400, "invalid_json"),
    (b"[]", 400, "invalid_json"),
    (b"", 400, "invalid_json"),
    (b'{"messages": [{"role": "user", "content": "x"}]}', 400, "missing_model"),
    (b'{"model": "mock-lean"}', 400, "invalid_messages"),
    (b'{"model": "mock-lean", "messages": ["hi"]}', 400, "invalid_messages"),
    # content parts as OpenAI defines them: an object with a type, a text part with its text (the fuzz test found
    # that {} reached the upstream client and came back as a 500)
    (b'{"model": "mock-lean", "messages": [{"role": "user", "content": [{}]}]}', 400, "invalid_messages"),
    (b'{"model": "mock-lean", "messages": [{"role": "user", "content": [{"type": "text"}]}]}', 400, "invalid_messages"),
    (b'{"model": "mock-lean", "messages": [{"role": "user", "content": ["hi"]}]}', 400, "invalid_messages"),
    (b'{"model": "no-such-model", "messages": [{"role": "user", "content": "x"}]}', 404, "model_not_found"),
    (b'{"model": "mock-lean", "stream": "yes", "messages": [{"role": "user", "content": "x"}]}', 400, "invalid_type"),
]


@pytest.mark.parametrize(("body", "status", "code"), BAD_REQUESTS)
async def test_bad_input_gets_an_openai_shaped_error(
    start_gateway: GatewayFactory, body: bytes, status: int, code: str
) -> None:
    gw = await start_gateway()
    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        response = await http.post("/v1/chat/completions", content=body, headers={"content-type": "application/json"})
    assert response.status_code == status
    error = response.json()["error"]
    assert error["code"] == code
    assert error["type"] == "invalid_request_error"
    assert error["message"]
    assert response.headers["x-request-id"]


async def test_body_over_the_limit_is_refused(start_gateway: GatewayFactory) -> None:
    gw = await start_gateway(max_body_bytes=1000)
    big = {"model": "mock-lean", "messages": [{"role": "user", "content": "x" * 5000}]}
    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        response = await http.post("/v1/chat/completions", json=big)
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "body_too_large"


async def test_upstream_errors_keep_their_status_and_message(start_gateway: GatewayFactory) -> None:
    gw = await start_gateway()
    client = openai.AsyncOpenAI(base_url=gw.base_url + "/v1", api_key="unused", max_retries=0)
    with pytest.raises(openai.RateLimitError) as caught:
        await client.chat.completions.create(model="fail-429", messages=[{"role": "user", "content": "hi"}])
    assert caught.value.status_code == 429
    assert "Rate limit reached" in str(caught.value)
    await client.close()


async def test_invalid_policy_header_is_a_400(start_gateway: GatewayFactory) -> None:
    gw = await start_gateway()
    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        response = await http.post(
            "/v1/chat/completions",
            json={"model": "mock-lean", "messages": [{"role": "user", "content": "hi"}]},
            headers={"x-factsentry-policy": "shout"},
        )
    assert response.status_code == 400
    assert response.json()["error"]["param"] == "x-factsentry-policy"


async def test_answer_returns_when_the_broker_is_down_and_the_loss_is_counted(start_gateway: GatewayFactory) -> None:
    gw = await start_gateway(kafka_bootstrap=f"127.0.0.1:{free_port()}")
    client = openai.AsyncOpenAI(base_url=gw.base_url + "/v1", api_key="unused")
    for _ in range(3):
        completion = await client.chat.completions.create(
            model="mock-lean", messages=[{"role": "user", "content": "x"}]
        )
        assert completion.choices[0].message.content == UPSTREAM_ANSWER
    await client.close()
    lost = 0.0
    for _ in range(100):
        lost = sum(
            sample.value
            for metric in gw.gateway.registry.collect()
            if metric.name == "factsentry_gateway_publish_lost"
            for sample in metric.samples
            if sample.name.endswith("_total")
        )
        if lost >= 3:
            break
        await asyncio.sleep(0.1)
    assert lost == 3
    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        ready = await http.get("/readyz")
    assert ready.status_code == 503
    assert ready.json()["kafka"].startswith("error")


async def test_models_health_readiness_and_metrics(start_gateway: GatewayFactory) -> None:
    gw = await start_gateway()
    client = openai.AsyncOpenAI(base_url=gw.base_url + "/v1", api_key="unused")
    models = await client.models.list()
    assert sorted(m.id for m in models.data) == ["fail-429", "mock-lean", "mock-litellm", "mock-rate-limited"]
    await client.chat.completions.create(model="mock-lean", messages=[{"role": "user", "content": "x"}])
    await client.close()
    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        assert (await http.get("/healthz")).json() == {"status": "ok"}
        await asyncio.wait_for(gw.gateway.publisher.connected.wait(), 10)
        ready = await http.get("/readyz")
        assert ready.status_code == 200, ready.text
        assert ready.json() == {"ready": True, "kafka": "ok", "redis": "ok"}
        text = (await http.get("/metrics")).text
        labels = 'mode="observe",model="mock-lean",outcome="ok",source="proxy"'
        assert f"factsentry_gateway_requests_total{{{labels}}} 1.0" in text
        missing = await http.get("/v1/results/nope")
        assert missing.status_code == 404
        assert missing.json()["error"]["code"] == "result_not_found"
