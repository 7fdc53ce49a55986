"""The request counter tells whose fault an error was, ``/v1/factcheck`` is a source and not a model,
and every request leaves one JSON access log line without the answer's text."""

from __future__ import annotations

import json
import logging

import httpx
import openai
import pytest

from tests.gateway.conftest import FAITHFUL, MERGED, GatewayFactory, RunningGateway, StartStack, ask


def requests_total(gw: RunningGateway, **labels: str) -> float:
    """The request counter summed over every label not given."""
    total = 0.0
    for metric in gw.gateway.registry.collect():
        if metric.name != "factsentry_gateway_requests":
            continue
        for s in metric.samples:
            if s.name.endswith("_total") and all(s.labels.get(k) == v for k, v in labels.items()):
                total += s.value
    return total


def access_lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, object]]:
    return [json.loads(r.getMessage()) for r in caplog.records if r.name == "factsentry.access"]


async def test_client_upstream_and_checker_errors_have_their_own_outcomes(
    start_gateway: GatewayFactory, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="factsentry.access")
    gw = await start_gateway({"default": {"mode": "observe"}})
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=30) as http:
        bad = await http.post("/v1/chat/completions", content=b"{not json")
        unknown = await http.post(
            "/v1/chat/completions", json={"model": "nope", "messages": [{"role": "user", "content": "hi"}]}
        )
        limited = await http.post(
            "/v1/chat/completions", json={"model": "fail-429", "messages": [{"role": "user", "content": "hi"}]}
        )
        fine = await http.post(
            "/v1/chat/completions", json={"model": "mock-lean", "messages": [{"role": "user", "content": "hi"}]}
        )
        odd_model = await http.post("/v1/factcheck", json={"text": "Paris is in France.", "model": "a b{}"})
    assert (bad.status_code, unknown.status_code, limited.status_code, fine.status_code) == (400, 404, 429, 200)
    assert odd_model.status_code == 400 and odd_model.json()["error"]["param"] == "model"

    assert requests_total(gw, outcome="client_error", source="proxy") == 2
    assert requests_total(gw, outcome="client_error", source="factcheck", model="unknown") == 1
    assert requests_total(gw, outcome="upstream_error", model="fail-429") == 1
    assert requests_total(gw, outcome="ok", model="mock-lean", source="proxy") == 1
    assert requests_total(gw, outcome="error") == 0  # the old catch-all label is gone

    lines = {line["request_id"]: line for line in access_lines(caplog)}
    by_status = {line["status"]: line for line in lines.values() if line["source"] == "proxy"}
    assert sorted(line["status"] for line in lines.values()) == [200, 400, 400, 404, 429]
    assert by_status[400]["outcome"] == "client_error" and by_status[400]["error"] == "invalid_json"
    assert by_status[429]["outcome"] == "upstream_error" and by_status[429]["model"] == "fail-429"
    ok = by_status[200]
    assert ok["request_id"] == fine.headers["x-request-id"]
    assert (ok["source"], ok["model"], ok["policy"]) == ("proxy", "mock-lean", "observe")
    assert (ok["method"], ok["path"]) == ("POST", "/v1/chat/completions")
    assert isinstance(ok["upstream_ms"], float) and isinstance(ok["total_ms"], float)
    assert ok["total_ms"] >= ok["upstream_ms"]


async def test_block_and_factcheck_lines_carry_the_verdict_but_never_the_text(
    start_stack: StartStack, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="factsentry.access")
    gw = await start_stack({"default": {"mode": "block", "threshold": 0.75, "timeout_s": 120}})
    blocked_id, _, _ = await ask(gw, MERGED)
    passed_id, _, _ = await ask(gw, FAITHFUL)
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=120) as http:
        checked = await http.post("/v1/factcheck", json={"text": FAITHFUL.answer, "name": FAITHFUL.name})
    assert checked.status_code == 200

    assert requests_total(gw, source="proxy", outcome="block", model="mock-lean", mode="block") == 1
    assert requests_total(gw, source="proxy", outcome="pass", model="mock-lean", mode="block") == 1
    # /v1/factcheck is a source of its own; without a model it is not counted as one called "factcheck"
    assert requests_total(gw, source="factcheck", outcome="ok") == 1
    assert requests_total(gw, model="factcheck") == 0

    lines = {line["request_id"]: line for line in access_lines(caplog)}
    blocked, passed = lines[blocked_id], lines[passed_id]
    assert blocked["outcome"] == "block" and blocked["check_status"] == "checked"
    assert isinstance(blocked["dfactscore"], float) and blocked["dfactscore"] < 0.75
    assert passed["outcome"] == "pass" and passed["dfactscore"] >= 0.75
    assert blocked["verdict_wait_ms"] > 0
    fc = lines[checked.headers["x-request-id"]]
    assert (fc["source"], fc["policy"], fc["status"], fc["outcome"]) == ("factcheck", "annotate", 200, "ok")
    text = caplog.text
    for sentence in (MERGED.answer.split(".")[0], FAITHFUL.answer.split(".")[0]):
        assert sentence not in text


async def test_access_log_can_be_switched_off(start_gateway: GatewayFactory, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="factsentry.access")
    gw = await start_gateway({"default": {"mode": "observe"}}, access_log=False)
    client = openai.AsyncOpenAI(base_url=gw.base_url + "/v1", api_key="unused", max_retries=0)
    await client.chat.completions.create(model="mock-lean", messages=[{"role": "user", "content": "hi"}])
    await client.close()
    assert access_lines(caplog) == []
    assert requests_total(gw, outcome="ok") == 1  # the counter does not depend on the log
