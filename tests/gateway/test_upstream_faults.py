"""An upstream that answers in the wrong shape, or not at all, gets an OpenAI-shaped 502/504 — never a 500 —
and an observed stream ends with an error event instead of being cut."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
import uvicorn
import yaml
from aiohttp import web
from prometheus_client import CollectorRegistry

from factsentry.embedded import free_port
from gateway.app import create_app
from gateway.settings import GatewaySettings
from gateway.upstream import ModelRegistry


def nested(depth: int) -> Any:
    value: Any = "deep"
    for _ in range(depth):
        value = [value]
    return value


ANSWER = {"index": 0, "message": {"role": "assistant", "content": "Hi."}, "finish_reason": "stop"}
BODIES: dict[str, Any] = {
    # an otherwise fine completion carrying a field nested 600 deep (the gateway cannot write it out again)
    "nested-600": {"choices": [ANSWER], "x": nested(600)},
    "choices-string": {"choices": "oops"},
    "choices-of-strings": {"choices": ["a", "b"]},
    "message-string": {"choices": [{"index": 0, "message": "hello"}]},
    "content-object": {"choices": [{"index": 0, "message": {"role": "assistant", "content": {"x": 1}}}]},
}
STREAMS: dict[str, list[Any]] = {
    "stream-nested-600": [{"choices": [{"index": 0, "delta": {"content": "Hi."}}], "x": nested(600)}],
    "delta-string": [{"choices": [{"index": 0, "delta": "hello"}]}],
    "stream-choices-string": [
        {"choices": [{"index": 0, "delta": {"content": "Fine so far. "}}]},
        {"choices": "oops"},
    ],
}


async def handle(request: web.Request) -> web.StreamResponse:
    body = await request.json()
    model = body["model"]
    if model == "hang":
        await asyncio.sleep(4)
    if body.get("stream"):
        response = web.StreamResponse(headers={"content-type": "text/event-stream"})
        await response.prepare(request)
        for chunk in STREAMS[model]:
            await response.write(b"data: " + orjson.dumps(chunk) + b"\n\n")
        await response.write(b"data: [DONE]\n\n")
        return response
    return web.json_response(BODIES[model])


@contextlib.asynccontextmanager
async def serve_faulty(
    kafka_bootstrap: str,
    redis_url: str,
    unique: str,
    policies: dict[str, Any] | None = None,
    policy_dir: Path | None = None,
) -> AsyncIterator[str]:
    """The gateway in front of the faulty upstream (``policies`` written to ``policy_dir``); yields its base URL."""
    upstream = web.Application()
    upstream.router.add_post("/v1/chat/completions", handle)
    runner = web.AppRunner(upstream)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    models = [*BODIES, *STREAMS, "hang"]
    config = {
        "model_list": [
            {"model_name": m, "litellm_params": {"model": f"openai/{m}", "api_base": f"http://127.0.0.1:{port}/v1"}}
            for m in models
        ]
    }
    policy_file = None
    if policies is not None and policy_dir is not None:
        policy_file = policy_dir / "policies.yaml"
        policy_file.write_text(yaml.safe_dump(policies))
    settings = GatewaySettings(
        kafka_bootstrap=kafka_bootstrap,
        redis_url=redis_url,
        redis_prefix=f"uf{unique}",
        generations_topic=f"gen-uf-{unique}",
        upstream_timeout_s=1.0,
        policy_file=policy_file,
    )
    models_registry = ModelRegistry.from_config(config, env={}, timeout_s=1.0)
    app = create_app(settings, models=models_registry, registry=CollectorRegistry())

    gw_port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=gw_port, log_level="warning", lifespan="on"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{gw_port}"
    finally:
        server.should_exit = True
        await task
        await runner.cleanup()


@pytest.fixture
async def faulty_gateway(kafka_bootstrap: str, redis_url: str, unique: str) -> AsyncIterator[str]:
    async with serve_faulty(kafka_bootstrap, redis_url, unique) as base_url:
        yield base_url


def ask(model: str) -> dict[str, Any]:
    return {"model": model, "messages": [{"role": "user", "content": "hi"}]}


def is_openai_error(body: Any) -> bool:
    error = body.get("error") if isinstance(body, dict) else None
    return isinstance(error, dict) and {"message", "type", "code"} <= error.keys() and bool(error["message"])


@pytest.mark.parametrize("model", list(BODIES))
async def test_a_completion_of_the_wrong_shape_is_a_502(faulty_gateway: str, model: str) -> None:
    async with httpx.AsyncClient(base_url=faulty_gateway) as http:
        response = await http.post("/v1/chat/completions", json=ask(model))
    assert response.status_code == 502
    assert is_openai_error(response.json())
    assert "wrong shape" in response.json()["error"]["message"]
    assert response.headers["x-request-id"].startswith("fs-")


@pytest.mark.parametrize("model", ["delta-string", "stream-nested-600"])
async def test_a_stream_chunk_of_the_wrong_shape_before_any_text_is_a_502(faulty_gateway: str, model: str) -> None:
    body = {"model": model, "stream": True, "messages": [{"role": "user", "content": "hi"}]}
    async with httpx.AsyncClient(base_url=faulty_gateway) as http:
        response = await http.post("/v1/chat/completions", json=body)
    assert response.status_code == 502
    assert is_openai_error(response.json())


async def test_an_observed_stream_that_goes_bad_ends_with_an_error_event(faulty_gateway: str) -> None:
    body = {"model": "stream-choices-string", "stream": True, "messages": [{"role": "user", "content": "hi"}]}
    async with httpx.AsyncClient(base_url=faulty_gateway) as http:
        response = await http.post("/v1/chat/completions", json=body)
    assert response.status_code == 200
    events = [line[6:] for line in response.text.splitlines() if line.startswith("data: ")]
    assert orjson.loads(events[0])["choices"][0]["delta"]["content"] == "Fine so far. "
    assert is_openai_error(orjson.loads(events[-1]))
    assert "wrong shape" in orjson.loads(events[-1])["error"]["message"]


async def test_a_silent_upstream_is_a_504_after_the_read_timeout(faulty_gateway: str) -> None:
    async with httpx.AsyncClient(base_url=faulty_gateway, timeout=20) as http:
        response = await http.post("/v1/chat/completions", json=ask("hang"))
    assert response.status_code == 504
    assert response.json()["error"]["code"] == "upstream_timeout"
    assert response.elapsed.total_seconds() < 10


async def test_a_holdback_stream_that_goes_bad_ends_with_an_error_event(
    kafka_bootstrap: str, redis_url: str, unique: str, tmp_path: Path
) -> None:
    """Past the status line, an upstream failure is an error event under hold-back too, and nothing unchecked went."""
    policies = {"models": {"stream-choices-string": {"mode": "block", "stream": "holdback", "timeout_s": 1}}}
    body = {"model": "stream-choices-string", "stream": True, "messages": [{"role": "user", "content": "hi"}]}
    async with serve_faulty(kafka_bootstrap, redis_url, unique, policies, tmp_path) as base_url:
        async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
            response = await http.post("/v1/chat/completions", json=body)
    assert response.status_code == 200 and response.headers["x-factsentry-stream"] == "holdback"
    events = [orjson.loads(line[6:]) for line in response.text.splitlines() if line.startswith("data: ")]
    assert is_openai_error(events[-1]) and "wrong shape" in events[-1]["error"]["message"]
    assert "Fine so far" not in response.text  # no verdict came for it: withheld
