"""Gateway fixtures: a mock upstream (the edge we don't own) and the gateway under a real uvicorn."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import uvicorn
import yaml
from prometheus_client import CollectorRegistry

from factsentry import mock_upstream
from factsentry.demo_data import CONVERSATIONS
from factsentry.embedded import free_port
from gateway.app import Gateway, create_app
from gateway.settings import GatewaySettings
from gateway.upstream import ModelRegistry

UPSTREAM_ANSWER = "Marie Curie was a physicist and chemist. She won the Nobel Prize in Physics in 1903."


@dataclass
class RunningGateway:
    base_url: str
    settings: GatewaySettings
    gateway: Gateway


@pytest.fixture(scope="session")
async def upstream_url() -> AsyncIterator[str]:
    port = free_port()
    answers = {c.question: c.answer for c in CONVERSATIONS}
    server = await mock_upstream.serve("127.0.0.1", port, answers, default=UPSTREAM_ANSWER)
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.close()
        await server.wait_closed()


def model_list(upstream_url: str) -> dict[str, Any]:
    return {
        "model_list": [
            {
                "model_name": "mock-lean",
                "litellm_params": {"model": "openai/mock", "api_base": upstream_url, "api_key": "k"},
            },
            {"model_name": "fail-429", "litellm_params": {"model": "openai/fail-429", "api_base": upstream_url}},
            {
                "model_name": "mock-rate-limited",
                "litellm_params": {
                    "model": "openai/gpt-4o-mini",
                    "api_key": "k",
                    "mock_response": "litellm.RateLimitError",
                },
            },
            {
                "model_name": "mock-litellm",
                "litellm_params": {"model": "openai/gpt-4o-mini", "api_key": "k", "mock_response": UPSTREAM_ANSWER},
            },
        ]
    }


GatewayFactory = Callable[..., Awaitable[RunningGateway]]


@pytest.fixture
async def start_gateway(
    tmp_path: Path, upstream_url: str, kafka_bootstrap: str, redis_url: str, unique: str
) -> AsyncIterator[GatewayFactory]:
    """Start the gateway under uvicorn on a free port; its topics and Redis prefix are unique to the test."""
    servers: list[tuple[uvicorn.Server, asyncio.Task[None]]] = []

    async def start(policies: dict[str, Any] | None = None, **overrides: Any) -> RunningGateway:
        policy_file = None
        if policies is not None:
            policy_file = tmp_path / "policies.yaml"
            policy_file.write_text(yaml.safe_dump(policies))
        port = free_port()
        settings = GatewaySettings(
            port=port,
            kafka_bootstrap=overrides.pop("kafka_bootstrap", kafka_bootstrap),
            redis_url=overrides.pop("redis_url", redis_url),
            redis_prefix=f"t{unique}",
            generations_topic=f"gen-{unique}",
            results_topic=f"res-{unique}",
            policy_file=policy_file,
            **overrides,
        )
        models = ModelRegistry.from_config(model_list(upstream_url), env={})
        app = create_app(settings, models=models, registry=CollectorRegistry())
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
        server = uvicorn.Server(config)
        task = asyncio.create_task(server.serve())
        servers.append((server, task))
        while not server.started:
            if task.done():
                task.result()
            await asyncio.sleep(0.01)
        gateway = app.state.gateway
        return RunningGateway(f"http://127.0.0.1:{port}", settings, gateway)

    yield start
    for server, task in servers:
        server.should_exit = True
        await task
