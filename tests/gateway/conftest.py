"""Gateway fixtures: a mock upstream (the edge we don't own) and the gateway under a real uvicorn."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import openai
import pytest
import uvicorn
import yaml
from prometheus_client import CollectorRegistry

from factsentry import mock_upstream
from factsentry.demo_data import CONVERSATIONS, Conversation
from factsentry.embedded import free_port
from factsentry.mock_upstream import RATE_LIMITED
from factsentry.stack import build_demo_kb
from gateway.app import Gateway, create_app
from gateway.server import protocol
from gateway.settings import GatewaySettings
from gateway.upstream import ModelRegistry
from workers.settings import load_settings
from workers.worker import run_worker

if TYPE_CHECKING:
    from bus.spans import Tracing

UPSTREAM_ANSWER = "Marie Curie was a physicist and chemist. She won the Nobel Prize in Physics in 1903."

# Answers of a retrieval-augmented assistant (tests/gateway/test_documents.py), keyed by question: about an
# invented product and two invented namesakes that no knowledge store holds, only the request's documents.
RAG_ANSWERS = {
    "How many ports does the Larkspur L7 have?": (
        "The Larkspur L7 is a cargo e-bike made by Larkspur Cycles. It has a 750 Wh battery and a range of "
        "110 kilometres. It comes with a three-year warranty on the frame."
    ),
    "Is the Larkspur L7 any good?": (
        "The Larkspur L7 is a cargo e-bike made by Larkspur Cycles. It has a 500 Wh battery and a range of "
        "60 kilometres. It comes with a ten-year warranty on the frame."
    ),
    "Who is Tomas Ebbeson?": (
        "Tomas Ebbeson is a Swedish cellist born in 1971 in Uppsala. He studied at the Royal College of Music "
        "in Stockholm. He won an Olympic bronze medal in the coxless four in 2000."
    ),
}


# The final answer of a support agent that looked an order up with three tool calls (tests/gateway/
# test_conversation.py), keyed by the customer's question: every value is read right from the tools' JSON but the
# dollar amount, 193.86 where the conversion returned 139.86.
AGENT_ANSWERS = {
    "Where is my order A-4417, and what did it cost in dollars?": (
        "Your order A-4417 was placed on 18 November 2026 and shipped on 20 November 2026 with Parcelia. It "
        "contains two Fennel desk lamps at 64.5 EUR each, 129.0 EUR in total. That is 193.86 USD at a rate of "
        "1.0842. Its estimated delivery is 26 November 2026."
    ),
}


# Answers longer than a worker's check limit in tests/gateway/test_release.py: the singer's true biography, then
# wrong facts in the tail the checker does not read (the limit is set just past the true part).
LONG_ANSWERS = {
    "Tell me everything about the singer John Stewart.": (
        next(c.answer for c in CONVERSATIONS if c.model == "demo-single-bio")
        + " He was born in 1950 in Chicago, Illinois. He won three Grammy Awards for Best Country Album. "
        "He was elected mayor of San Diego in 1988."
    ),
}


# The upstream's second turn, when a reask policy sends an answer back (tests/gateway/test_reask.py): the
# explorer's wrong publication year corrected, the merged biography merged again, the singer's rewrites refused.
REASK_ANSWERS = {
    "Give me a short bio of the explorer John Hemming.#2": (
        "John Hemming is a British explorer and historian of Latin America. He was born in 1935 in Vancouver, "
        "Canada. He was director of the Royal Geographical Society from 1975 to 1996. He wrote The Conquest of "
        "the Incas, which was first published in 1970."
    ),
    "Tell me a bio of Dick Hanley.#2": next(c.answer for c in CONVERSATIONS if c.model == "demo-merged-bio"),
    "Who was the singer John Stewart?#2": RATE_LIMITED,
    "Tell me everything about the singer John Stewart.#2": RATE_LIMITED,
}


@dataclass
class RunningGateway:
    base_url: str
    settings: GatewaySettings
    gateway: Gateway


@pytest.fixture(scope="session")
async def upstream_url() -> AsyncIterator[str]:
    port = free_port()
    answers = {
        **{c.question: c.answer for c in CONVERSATIONS},
        **RAG_ANSWERS,
        **REASK_ANSWERS,
        **LONG_ANSWERS,
        **AGENT_ANSWERS,
    }
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
        tracing = overrides.pop("tracing", None)
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
        app = create_app(settings, models=models, registry=CollectorRegistry(), tracing=tracing)
        # the protocol `factsentry gateway` serves with (httptools, with a header read timeout)
        http = protocol(settings.header_timeout_s)
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on", http=http)
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


MERGED = next(c for c in CONVERSATIONS if c.model == "demo-merged-bio")
FAITHFUL = next(c for c in CONVERSATIONS if c.model == "demo-single-bio")
StartStack = Callable[..., Awaitable[RunningGateway]]


@pytest.fixture(scope="session")
def demo_kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_demo_kb(tmp_path_factory.mktemp("kb") / "demo.sqlite3")


@pytest.fixture
async def start_stack(start_gateway: GatewayFactory, demo_kb: Path, unique: str) -> AsyncIterator[StartStack]:
    """A gateway plus one in-process worker on the same (unique) topics and Redis prefix."""
    stop = asyncio.Event()
    tasks: list[asyncio.Task[object]] = []

    async def start(
        policies: dict[str, object] | None = None,
        worker: dict[str, Any] | None = None,
        worker_registry: CollectorRegistry | None = None,
        worker_tracing: Tracing | None = None,
        **gateway: Any,
    ) -> RunningGateway:
        """``worker``: worker setting overrides (``worker_registry`` receives its metrics, ``worker_tracing`` its
        spans); ``gateway``: gateway setting overrides (and ``tracing``, the gateway's spans)."""
        gw = await start_gateway(policies, **gateway)
        options: dict[str, Any] = {
            "kafka_bootstrap": gw.settings.kafka_bootstrap,
            "redis_url": gw.settings.redis_url,
            "redis_prefix": gw.settings.redis_prefix,
            "generations_topic": gw.settings.generations_topic,
            "results_topic": gw.settings.results_topic,
            "group_id": f"e2e-{unique}",
            "metrics_port": 0,
            "kb_path": demo_kb,
            "concurrency": 1,
        }
        settings = load_settings(**{**options, **(worker or {})})
        registry = worker_registry if worker_registry is not None else CollectorRegistry()
        tasks.append(
            asyncio.create_task(run_worker(settings, stop_event=stop, registry=registry, tracing=worker_tracing))
        )
        return gw

    yield start
    stop.set()
    for task in tasks:
        await asyncio.wait_for(task, 60)


async def ask(
    gw: RunningGateway, conv: Conversation, **headers: str
) -> tuple[str, openai.types.chat.ChatCompletion, httpx.Headers]:
    client = openai.AsyncOpenAI(base_url=gw.base_url + "/v1", api_key="unused", max_retries=0, timeout=180)
    raw = await client.chat.completions.with_raw_response.create(
        model="mock-lean",
        messages=[{"role": "user", "content": conv.question}],
        extra_headers={"x-factsentry-name": conv.name, **headers},
    )
    await client.close()
    return raw.headers["x-request-id"], raw.parse(), raw.headers


def released_unchecked(gw: RunningGateway) -> float:
    """Answers the gateway released under block or revise without a verdict (every label summed)."""
    return sum(
        s.value
        for metric in gw.gateway.registry.collect()
        if metric.name == "factsentry_gateway_released_unchecked"
        for s in metric.samples
        if s.name.endswith("_total")
    )
