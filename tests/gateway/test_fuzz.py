"""Property-based fuzzing of the HTTP API: whatever a client sends, the gateway never answers 500,
and every error is in OpenAI's shape ``{"error": {"message", "type", "code"}}``.

The gateway runs under a real uvicorn in a thread of its own, against the session's broker and valkey;
hypothesis drives it over HTTP with random JSON bodies, raw bytes, headers and result ids.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
import uvicorn
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from prometheus_client import CollectorRegistry

from factsentry.embedded import free_port, wait_until_ready
from gateway.app import create_app
from gateway.settings import GatewaySettings
from gateway.upstream import ModelRegistry
from tests.gateway.conftest import model_list

FUZZ = settings(
    max_examples=300,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
ALLOWED = {200, 202, 400, 404, 405, 413, 422}

json_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=25,
)
roles = st.sampled_from(["user", "system", "assistant", "tool"]) | json_values
text_parts = st.lists(st.fixed_dictionaries({"type": st.just("text"), "text": json_values}), max_size=3)
contents = st.text(max_size=200) | json_values | text_parts
messages = st.lists(
    st.fixed_dictionaries({"role": roles}, optional={"content": contents, "name": json_values}), max_size=3
)
chat_bodies = st.fixed_dictionaries(
    {"model": st.sampled_from(["mock-lean", "mock-litellm"]) | json_values, "messages": messages | json_values},
    optional={
        "stream": st.booleans() | json_values,
        "n": st.integers(-2, 3) | json_values,
        "temperature": json_values,
        "metadata": st.fixed_dictionaries({"factsentry_name": json_values}) | json_values,
        "max_tokens": json_values,
    },
)
factcheck_bodies = st.fixed_dictionaries(
    {"timeout_s": st.sampled_from([0, 0.05]) | st.text(max_size=5) | st.booleans()},
    optional={
        "text": st.text(max_size=300) | json_values,
        "name": json_values,
        "question": json_values,
        "model": json_values,
    },
)
header_values = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=12).map(str.strip)
policy_headers = st.fixed_dictionaries(
    {},
    optional={
        "x-factsentry-policy": st.sampled_from(["observe", "annotate", "block", "revise"]) | header_values,
        "x-factsentry-threshold": header_values,
        "x-factsentry-timeout": st.sampled_from(["0.05", "0.1"]) | header_values,
        "x-factsentry-name": header_values,
        "x-request-id": header_values,
    },
)


def _serve(port: int, upstream_port: int, kafka_bootstrap: str, redis_url: str, policy_file: Path) -> None:
    """The mock upstream and the gateway, in a process of their own (see ``gateway_url``)."""
    from factsentry import mock_upstream

    async def main() -> None:
        await mock_upstream.serve("127.0.0.1", upstream_port, {}, default="A short answer.")
        gw_settings = GatewaySettings(
            port=port,
            kafka_bootstrap=kafka_bootstrap,
            redis_url=redis_url,
            redis_prefix="fuzz",
            generations_topic="gen-fuzz",
            policy_file=policy_file,
        )
        models = ModelRegistry.from_config(model_list(f"http://127.0.0.1:{upstream_port}/v1"), env={})
        app = create_app(gw_settings, models=models, registry=CollectorRegistry())
        await uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error")).serve()

    asyncio.run(main())


@pytest.fixture(scope="module")
def gateway_url(kafka_bootstrap: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The gateway runs in another process: hypothesis refuses draws while the global ``random`` state
    moves, and the gateway's clients (aiokafka, redis) use that module."""
    upstream_port, port = free_port(), free_port()
    policy_file: Path = tmp_path_factory.mktemp("fuzz") / "policies.yaml"
    policy_file.write_text(yaml.safe_dump({"default": {"mode": "observe", "timeout_s": 0.2}}))
    process = multiprocessing.get_context("spawn").Process(
        target=_serve, args=(port, upstream_port, kafka_bootstrap, redis_url, policy_file), daemon=True
    )
    process.start()
    try:
        wait_until_ready(f"http://127.0.0.1:{port}/healthz")
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.join(30)


@pytest.fixture(scope="module")
def http(gateway_url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=gateway_url, timeout=30) as client:
        yield client


def assert_well_formed(response: httpx.Response) -> None:
    assert response.status_code in ALLOWED, (response.status_code, response.text[:500])
    assert response.headers.get("x-request-id")
    if response.status_code >= 400:
        error = response.json().get("error")
        assert isinstance(error, dict), response.text[:500]
        assert isinstance(error.get("message"), str) and error["message"]
        assert isinstance(error.get("type"), str) and "code" in error


@FUZZ
@given(body=chat_bodies, headers=policy_headers)
def test_chat_completions_never_500(http: httpx.Client, body: dict[str, Any], headers: dict[str, str]) -> None:
    assert_well_formed(http.post("/v1/chat/completions", content=json.dumps(body), headers=headers))


@FUZZ
@given(raw=st.binary(max_size=300) | json_values.map(lambda v: json.dumps(v).encode()))
def test_any_bytes_as_a_body_never_500(http: httpx.Client, raw: bytes) -> None:
    for path in ("/v1/chat/completions", "/v1/factcheck"):
        assert_well_formed(http.post(path, content=raw, headers={"content-type": "application/json"}))


@FUZZ
@given(body=factcheck_bodies)
def test_factcheck_never_500(http: httpx.Client, body: dict[str, Any]) -> None:
    assert_well_formed(http.post("/v1/factcheck", content=json.dumps(body)))


@FUZZ
@given(request_id=st.text(min_size=1, max_size=300))
def test_results_never_500(http: httpx.Client, request_id: str) -> None:
    response = http.get("/v1/results/" + quote(request_id, safe=""))
    assert_well_formed(response)
    if response.status_code == 404:
        assert len(response.json()["error"]["message"]) < 400, "an id is never echoed in full"
