"""What a hostile or careless client, or a failing dependency, must not be able to do."""

from __future__ import annotations

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
    assert response.json()["error"]["code"] == "broker_down"
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
