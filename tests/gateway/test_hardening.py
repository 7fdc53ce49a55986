"""What a hostile or careless client, or a failing dependency, must not be able to do."""

from __future__ import annotations

import asyncio
import json
import logging
from datetime import UTC, datetime

import httpx
import pytest

from factsentry.embedded import free_port
from gateway.errors import InvalidRequest
from gateway.policy import PolicyTable, resolve
from schemas.check import CheckResult
from schemas.messages import ResultMessage
from tests.gateway.conftest import UPSTREAM_ANSWER, GatewayFactory

CHAT = {"model": "mock-litellm", "messages": [{"role": "user", "content": "hi"}]}


async def test_clients_cannot_pass_provider_settings_to_litellm(start_gateway: GatewayFactory) -> None:
    gw = await start_gateway()
    hostile = {**CHAT, "mock_response": "INJECTED", "api_base": "http://127.0.0.1:9/v1", "api_key": "x"}
    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        response = await http.post("/v1/chat/completions", json=hostile)
    assert response.status_code == 200
    assert response.json()["choices"][0]["message"]["content"] == UPSTREAM_ANSWER


async def test_a_reused_client_request_id_never_returns_an_old_verdict(start_gateway: GatewayFactory) -> None:
    gw = await start_gateway(policies={"default": {"mode": "block", "threshold": 0.9, "timeout_s": 0.5}})
    old = ResultMessage(
        request_id="dup-1",
        model="mock-lean",
        check=CheckResult(factscore=1.0, dfactscore=1.0),
        scored_at=datetime.now(UTC),
    )
    await gw.gateway.results.put(old)
    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        response = await http.post(
            "/v1/chat/completions",
            json={"model": "mock-lean", "messages": [{"role": "user", "content": "hi"}]},
            headers={"x-request-id": "dup-1"},
        )
    assert response.headers["x-client-request-id"] == "dup-1"
    assert response.headers["x-request-id"] != "dup-1"
    assert response.headers["x-factsentry-status"] == "timeout"
    assert "x-factsentry-dfactscore" not in response.headers


BAD = [
    ({"model": "mock-lean", "messages": [{"role": "user", "content": 5}]}, "messages[0].content"),
    ({"model": "mock-lean", "messages": [{"role": "user", "content": {"a": 1}}]}, "messages[0].content"),
    ({"model": "mock-lean", "n": 0, "messages": [{"role": "user", "content": "x"}]}, "n"),
]


@pytest.mark.parametrize(("body", "param"), BAD)
async def test_malformed_fields_are_400s_before_the_upstream_is_called(
    start_gateway: GatewayFactory, body: dict[str, object], param: str
) -> None:
    gw = await start_gateway()
    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        response = await http.post("/v1/chat/completions", json=body)
    assert response.status_code == 400
    assert response.json()["error"]["param"] == param


async def test_n_above_one_is_refused_when_answers_are_checked(start_gateway: GatewayFactory) -> None:
    gw = await start_gateway(policies={"default": {"mode": "block"}})
    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        response = await http.post("/v1/chat/completions", json={**CHAT, "model": "mock-lean", "n": 2})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "unsupported_parameter"


async def test_litellm_upstream_errors_keep_status_and_message(start_gateway: GatewayFactory) -> None:
    gw = await start_gateway()
    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        response = await http.post("/v1/chat/completions", json={**CHAT, "model": "mock-rate-limited"})
        streamed = await http.post("/v1/chat/completions", json={**CHAT, "model": "mock-rate-limited", "stream": True})
    for r in (response, streamed):
        assert r.status_code == 429
        assert r.json()["error"]["message"]


async def test_unknown_model_names_do_not_become_metric_labels(start_gateway: GatewayFactory) -> None:
    gw = await start_gateway()
    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        for i in range(3):
            await http.post("/v1/chat/completions", json={**CHAT, "model": f"random-{i}"})
        text = (await http.get("/metrics")).text
    assert "random-" not in text
    labels = 'mode="none",model="unknown",outcome="client_error",source="proxy"'
    assert f"factsentry_gateway_requests_total{{{labels}}} 3.0" in text


async def test_redis_down_is_reported_as_unavailable_and_the_policy_fails_as_configured(
    start_gateway: GatewayFactory,
) -> None:
    gw = await start_gateway(
        policies={"default": {"mode": "block", "timeout_s": 2, "on_timeout": "closed"}},
        redis_url=f"redis://127.0.0.1:{free_port()}/0",
    )
    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        response = await http.post("/v1/chat/completions", json={**CHAT, "model": "mock-lean"})
        results = await http.get("/v1/results/anything")
    assert response.headers["x-factsentry-status"] == "unavailable"
    assert response.headers["x-factsentry-action"] == "block"
    assert results.status_code == 503
    assert results.json()["error"]["code"] == "redis_unavailable"


async def test_factcheck_refuses_with_503_when_the_broker_is_down(start_gateway: GatewayFactory) -> None:
    gw = await start_gateway(kafka_bootstrap=f"127.0.0.1:{free_port()}")
    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        response = await http.post("/v1/factcheck", json={"text": "Ada Lovelace was born in 1815."})
        bad = await http.post("/v1/factcheck", json={"text": "x", "timeout_s": True})
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "unavailable"  # as chat completions name it
    assert bad.status_code == 400


async def test_client_disconnect_mid_stream_is_published_as_truncated(
    start_gateway: GatewayFactory, kafka_bootstrap: str
) -> None:
    from tests.gateway.test_proxy import published

    gw = await start_gateway()
    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        async with http.stream(
            "POST", "/v1/chat/completions", json={**CHAT, "model": "mock-lean", "stream": True}
        ) as response:
            request_id = response.headers["x-request-id"]
            async for _ in response.aiter_lines():
                break
    messages = await published(kafka_bootstrap, gw.settings.generations_topic, request_id)
    assert len(messages) == 1
    assert messages[0].stream is True
    # The mock upstream sends everything at once, so the whole text may have been read before the close.
    assert messages[0].truncated or messages[0].answer == UPSTREAM_ANSWER


@pytest.mark.parametrize(
    ("headers", "allowed"),
    [
        ({"x-factsentry-policy": "observe"}, False),
        ({"x-factsentry-policy": "block"}, True),
        ({"x-factsentry-threshold": "0.5"}, False),
        ({"x-factsentry-threshold": "0.9"}, True),
        ({"x-factsentry-timeout": "60"}, False),
        ({"x-factsentry-timeout": "1"}, True),
    ],
)
def test_headers_may_only_make_the_policy_stricter(headers: dict[str, str], allowed: bool) -> None:
    table = PolicyTable.model_validate({"default": {"mode": "revise", "threshold": 0.7, "timeout_s": 10}})
    if allowed:
        assert resolve(table, "m", headers).mode.value in ("revise", "block")
        assert resolve(table, "m", {"x-factsentry-policy": "observe"}, "any").mode.value == "observe"
    else:
        with pytest.raises(InvalidRequest) as caught:
            resolve(table, "m", headers)
        assert caught.value.code == "policy_override_not_allowed"
        assert resolve(table, "m", headers, "none").mode.value == "revise"


async def partial_body(port: int, path: str, hang_up: bool) -> bytes:
    """A request whose body promises 1,000 bytes and sends 20; then hang up, or wait for the answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = f"POST {path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n"
    writer.write(head.encode() + b'{"model": "mock-lean"')
    await writer.drain()
    if hang_up:
        await asyncio.sleep(0.2)
        writer.close()
        return b""
    answer = await asyncio.wait_for(reader.read(4096), 20)
    writer.close()
    return answer


@pytest.mark.parametrize("path", ["/v1/chat/completions", "/v1/factcheck", "/beta/litellm_basic_guardrail_api"])
async def test_client_hang_ups_mid_body_are_499s_without_tracebacks(
    start_gateway: GatewayFactory, caplog: pytest.LogCaptureFixture, path: str
) -> None:
    caplog.set_level(logging.INFO)
    gw = await start_gateway()
    for _ in range(20):
        await partial_body(gw.settings.port, path, hang_up=True)

    def access_lines() -> list[dict[str, object]]:
        return [json.loads(r.getMessage()) for r in caplog.records if r.name == "factsentry.access"]

    for _ in range(200):  # the server logs a hang-up once it notices it: on a busy machine that can take a while
        if len(access_lines()) >= 20:
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.2)  # and nothing more follows
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    lines = access_lines()
    assert [(line["status"], line["outcome"]) for line in lines] == [(499, "client_closed")] * 20
    counted = [
        (sample.labels["source"], sample.labels["outcome"], sample.value)
        for metric in gw.gateway.registry.collect()
        for sample in metric.samples
        if sample.name == "factsentry_gateway_requests_total"
    ]
    assert counted == [(SOURCES[path], "client_closed", 20.0)]


SOURCES = {
    "/v1/chat/completions": "proxy",
    "/v1/factcheck": "factcheck",
    "/beta/litellm_basic_guardrail_api": "guardrail_api",
}


async def test_a_body_that_does_not_arrive_in_time_is_a_408(start_gateway: GatewayFactory) -> None:
    gw = await start_gateway(body_timeout_s=1.0)
    loop = asyncio.get_running_loop()
    started = loop.time()
    answer = await partial_body(gw.settings.port, "/v1/chat/completions", hang_up=False)
    assert answer.startswith(b"HTTP/1.1 408 ")
    assert b'"code":"body_timeout"' in answer
    assert loop.time() - started < 5


async def test_headers_that_do_not_arrive_in_time_are_a_408_and_the_connection_closes(
    start_gateway: GatewayFactory,
) -> None:
    """A slow-loris: the request line and one header, then nothing more."""
    gw = await start_gateway(header_timeout_s=1.0)
    loop = asyncio.get_running_loop()
    held = []
    for _ in range(50):
        reader, writer = await asyncio.open_connection("127.0.0.1", gw.settings.port)
        writer.write(b"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\n")
        held.append((reader, writer))
    started = loop.time()
    answers = await asyncio.gather(*(asyncio.wait_for(r.read(), 10) for r, _ in held))  # read() ends at the close
    assert loop.time() - started < 5
    assert all(a.startswith(b"HTTP/1.1 408 ") and b'"code":"header_timeout"' in a for a in answers)
    for _, writer in held:
        writer.close()
    async with httpx.AsyncClient(base_url=gw.base_url) as http:  # whole requests are served as before
        assert (await http.get("/healthz")).status_code == 200
