"""The gateway app driven in-process through httpx's ASGI transport (no server, same behaviour)."""

from __future__ import annotations

import httpx
from prometheus_client import CollectorRegistry

from gateway.app import create_app
from gateway.settings import GatewaySettings
from gateway.upstream import ModelRegistry
from tests.gateway.conftest import UPSTREAM_ANSWER, model_list


async def test_in_process_round_trip_and_errors(
    upstream_url: str, kafka_bootstrap: str, redis_url: str, unique: str
) -> None:
    settings = GatewaySettings(
        kafka_bootstrap=kafka_bootstrap, redis_url=redis_url, generations_topic=f"gen-{unique}", redis_prefix=unique
    )
    app = create_app(
        settings, models=ModelRegistry.from_config(model_list(upstream_url), env={}), registry=CollectorRegistry()
    )
    async with app.router.lifespan_context(app):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gw") as http:
            ok = await http.post(
                "/v1/chat/completions",
                json={"model": "mock-lean", "messages": [{"role": "user", "content": "hi"}]},
                headers={"x-request-id": "my-id-1"},
            )
            assert ok.status_code == 200
            # The client's id is echoed, never used as the verdict's key (retries reuse it).
            assert ok.headers["x-client-request-id"] == "my-id-1"
            assert ok.headers["x-request-id"].startswith("fs-")
            assert ok.json()["choices"][0]["message"]["content"] == UPSTREAM_ANSWER
            unknown_route = await http.get("/v2/nothing")
            assert unknown_route.status_code == 404
            assert unknown_route.json()["error"]["code"] == "not_found"
            assert unknown_route.headers["x-request-id"]
            wrong_method = await http.get("/v1/chat/completions")
            assert wrong_method.status_code == 405
            assert wrong_method.json()["error"]["code"] == "method_not_allowed"
