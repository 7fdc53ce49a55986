"""Traces in a receiver users run: Arize Phoenix (``phoenix serve``, from the dev extra) takes the gateway's and the
worker's spans over OTLP/HTTP, configured by the standard ``OTEL_*`` variables alone, and its REST API shows one
trace holding both services' spans."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from factsentry.embedded import ServerProcess, free_port
from tests.gateway.conftest import MERGED, StartStack, ask
from tests.gateway.test_tracing import topic_created

PHOENIX = Path(sys.executable).with_name("phoenix")


@pytest.fixture(scope="module")
def phoenix(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Phoenix server on free ports with its own working directory; its base URL."""
    env = {
        "PHOENIX_HOST": "127.0.0.1",
        "PHOENIX_GRPC_PORT": str(free_port()),
        "PHOENIX_WORKING_DIR": str(tmp_path_factory.mktemp("phoenix")),
        "PHOENIX_TELEMETRY_ENABLED": "false",
    }
    port = free_port()
    server = ServerProcess("phoenix", [str(PHOENIX), "serve"], port, env={**env, "PHOENIX_PORT": str(port)})
    server.start(timeout=240)  # it listens after 10-40 s, later on a busy machine
    url = f"http://127.0.0.1:{port}"
    try:
        assert httpx.get(f"{url}/healthz", timeout=10).status_code == 200
        yield url
    finally:
        server.stop(20)


async def trace_in_phoenix(url: str, names: set[str], wait_s: float = 60.0) -> list[dict[str, Any]]:
    """The spans of the one trace in Phoenix's default project that holds every span named in ``names``."""
    async with httpx.AsyncClient(base_url=url) as http:
        deadline = asyncio.get_running_loop().time() + wait_s
        while True:
            spans = (await http.get("/v1/projects/default/spans", params={"limit": 1000})).json()["data"]
            traces: dict[str, list[dict[str, Any]]] = {}
            for span in spans:
                traces.setdefault(span["context"]["trace_id"], []).append(span)
            found = [t for t in traces.values() if names <= {s["name"] for s in t}]
            if found:
                assert len(found) == 1
                return found[0]
            assert asyncio.get_running_loop().time() < deadline, f"no trace with {sorted(names)}: {spans}"
            await asyncio.sleep(0.25)


async def test_phoenix_shows_one_trace_with_the_gateway_and_the_worker(
    phoenix: str, start_stack: StartStack, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", phoenix)  # nothing else: otlp over HTTP/protobuf
    monkeypatch.setenv("OTEL_BSP_SCHEDULE_DELAY", "200")  # export every 0.2 s instead of 5 s
    gw = await start_stack({"default": {"mode": "block", "threshold": 0.75, "timeout_s": 120}})
    await topic_created(gw)
    request_id, _, headers = await ask(gw, MERGED)
    assert headers["x-factsentry-action"] == "block"
    topic = gw.settings.generations_topic
    gateway_names = {"POST /v1/chat/completions", f"send {topic}", "apply_guardrail factsentry"}
    worker_names = {f"process {topic}", "factsentry.decompose", "factsentry.verify"}
    spans = await trace_in_phoenix(phoenix, gateway_names | worker_names)
    by_name = {s["name"]: s for s in spans}
    server, send, process = by_name["POST /v1/chat/completions"], by_name[f"send {topic}"], by_name[f"process {topic}"]
    assert server["parent_id"] is None
    assert send["parent_id"] == server["context"]["span_id"]
    assert process["parent_id"] == send["context"]["span_id"]
    assert by_name["apply_guardrail factsentry"]["attributes"]["gen_ai.security.decision.type"] == "deny"
    assert server["attributes"]["factsentry.request_id"] == request_id
    assert process["attributes"]["messaging.kafka.message.key"] == request_id
    assert process["attributes"]["factsentry.dfactscore"] < 0.75
    assert {s["attributes"].get("gen_ai.request.model") for s in (server, process)} == {"mock-lean"}
