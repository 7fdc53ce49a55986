"""The ASGI gateway: OpenAI-compatible routes in front of the upstream models.

``create_app(settings)`` builds the Starlette app; ``factsentry gateway`` serves it with uvicorn. The
routes live by concern: gateway/chat.py (chat completions), gateway/responses.py (the Responses API on the
same path), gateway/results.py (factcheck, results,
models), gateway/guardrail_api.py (LiteLLM's guardrail contract); what they share is gateway/state.py,
how a request is read gateway/request.py, and what an answer's decision lets out gateway/release.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

import orjson
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bus.tracing import TracingSettingError
from bus.tracing import from_env as tracing_from_env
from gateway.access import write as write_access
from gateway.auth import check_token
from gateway.chat import chat_completions
from gateway.errors import GatewayError, InvalidRequest, Unauthorized
from gateway.guardrail_api import litellm_guardrail
from gateway.policy import PolicyTable
from gateway.request import new_request_id
from gateway.responses import responses
from gateway.results import factcheck, get_result, list_models, view_result, view_rules
from gateway.settings import GatewaySettings
from gateway.state import Gateway
from gateway.upstream import ModelRegistry

if TYPE_CHECKING:
    from bus.spans import Tracing

__all__ = ["Gateway", "create_app"]

log = logging.getLogger(__name__)


async def healthz(request: Request) -> Response:
    return Response(b'{"status":"ok"}', media_type="application/json")


async def readyz(request: Request) -> Response:
    """Green only when this process could check an answer now: the broker answers a metadata request (and
    the publisher does not take it for down), Redis answers a PING through the pool, and the verdict
    listener is subscribed (after a Redis restart it re-subscribes within ``reconnect_max_s``)."""
    gw: Gateway = request.app.state.gateway
    checks: dict[str, str] = {}
    producer = gw.publisher.producer
    try:
        if producer is None or not gw.publisher.connected.is_set():
            raise ConnectionError("not connected yet")
        if gw.publisher.down is not None:
            raise ConnectionError(f"the broker is taken for down: {gw.publisher.down}")
        await asyncio.wait_for(producer.client.fetch_all_metadata(), 2.0)
        checks["kafka"] = "ok"
    except Exception as e:
        checks["kafka"] = f"error: {e!r}"
    try:
        await asyncio.wait_for(gw.redis.ping(), 2.0)
        if not gw.listener.up.is_set():
            raise ConnectionError("the verdict listener is not subscribed")
        checks["redis"] = "ok"
    except Exception as e:
        checks["redis"] = f"error: {e!r}"
    ready = all(v == "ok" for v in checks.values())
    return Response(
        orjson.dumps({"ready": ready, **checks}), status_code=200 if ready else 503, media_type="application/json"
    )


async def metrics(request: Request) -> Response:
    """``/metrics`` on the main port: behind ``metrics_token`` when one is set; with API keys on and no
    token, not here at all (serve it on ``metrics_port``, a listener the network keeps private)."""
    gw: Gateway = request.app.state.gateway
    token = gw.settings.metrics_token
    if token is not None:
        if not check_token(request.headers, token.get_secret_value()):
            return Unauthorized(
                "/metrics needs 'Authorization: Bearer <metrics token>'", code="invalid_api_key"
            ).response()
    elif gw.keys.enabled:
        where = f"port {gw.settings.metrics_port}" if gw.settings.metrics_port else "a FACTSENTRY_METRICS_PORT listener"
        return Unauthorized(
            "/metrics is not served on the API port when API keys are on: "
            f"set FACTSENTRY_METRICS_TOKEN or scrape {where}",
            code="metrics_not_here",
        ).response()
    return Response(generate_latest(gw.registry), media_type=CONTENT_TYPE_LATEST)


async def not_found(request: Request, exc: Exception) -> Response:
    err = InvalidRequest(f"unknown route {request.method} {request.url.path}", code="not_found")
    return Response(orjson.dumps(err.body()), status_code=404, media_type="application/json")


async def server_error(request: Request, exc: Exception) -> Response:
    log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return GatewayError(
        "the gateway failed to handle the request; it has been logged", code="internal_error"
    ).response()


# Probes and scrapes: frequent and uninteresting, not in the access log.
UNLOGGED_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})


class RequestIdMiddleware:
    """Every response carries ``x-request-id`` (routes that set their own keep it), errors included.

    An unhandled error is logged once here and answered with an OpenAI-shaped 500; it does not travel
    on to Starlette's and uvicorn's handlers, which would log it twice and drop the id.
    """

    def __init__(self, app: ASGIApp, access_log: bool = True) -> None:
        self.app = app
        self.access_log = access_log

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        t0 = time.perf_counter()
        fallback_id = new_request_id()
        started = False
        status = 500

        async def send_with_id(message: Message) -> None:
            nonlocal started, status
            if message["type"] == "http.response.start":
                started, status = True, message["status"]
                headers = list(message.get("headers", []))
                if not any(k.lower() == b"x-request-id" for k, _ in headers):
                    headers.append((b"x-request-id", fallback_id.encode()))
                    message["headers"] = headers
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        except Exception:
            log.exception("unhandled error on %s %s (%s)", scope.get("method"), scope.get("path"), fallback_id)
            if not started:  # once the status line is out, the client sees the connection end
                error = GatewayError(
                    "the gateway failed to handle the request; it has been logged", code="internal_error"
                )
                await error.response({"x-request-id": fallback_id})(scope, receive, send)
        finally:
            if self.access_log and scope.get("path") not in UNLOGGED_PATHS:
                write_access(scope, status, fallback_id, t0)


async def method_not_allowed(request: Request, exc: Exception) -> Response:
    err = InvalidRequest(f"method {request.method} not allowed on {request.url.path}", code="method_not_allowed")
    return Response(orjson.dumps(err.body()), status_code=405, media_type="application/json")


def create_app(
    settings: GatewaySettings,
    *,
    models: ModelRegistry | None = None,
    registry: CollectorRegistry | None = None,
    env: Mapping[str, str] | None = None,
    tracing: Tracing | None = None,
) -> Starlette:
    """Build the gateway app. ``models`` defaults to ``settings.models_file``; ``tracing`` to what the ``OTEL_*``
    variables configure (bus/tracing.py: off unless they ask for traces)."""
    environ = os.environ if env is None else env
    own_tracing = tracing is None
    if tracing is None:
        try:
            tracing = tracing_from_env("factsentry-gateway", environ)
        except TracingSettingError as e:
            raise GatewayError(str(e)) from e
    if models is None:
        if settings.models_file is None:
            raise GatewayError("no models configured: set FACTSENTRY_MODELS_FILE to a litellm model_list YAML")
        models = ModelRegistry.load(settings.models_file, environ, settings.upstream_timeout_s)
    policies = PolicyTable.load(settings.policy_file)
    gateway = Gateway(settings, models, policies, registry or CollectorRegistry(), tracing)
    for note in models.notes:
        log.warning("%s", note)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await gateway.publisher.start()
        await gateway.listener.start()
        # litellm (10–20 s to import on a busy machine) loads in a thread as the gateway starts serving, after
        # the rest of its startup; a request for a litellm model waits for it, lean models never do
        # (gateway/upstream.py, LazyRouter).
        gateway.models.start_loading()
        try:
            yield
        finally:
            await gateway.listener.stop()
            await gateway.decisions.drain()
            await gateway.publisher.stop()
            await gateway.models.aclose()
            with contextlib.suppress(Exception):
                await gateway.redis.aclose()
                await gateway.redis.connection_pool.disconnect()  # the client does not own the pool
            if own_tracing and tracing is not None:
                tracing.shutdown()

    app = Starlette(
        routes=[
            Route("/v1/chat/completions", chat_completions, methods=["POST"]),
            Route("/v1/responses", responses, methods=["POST"]),
            Route("/v1/models", list_models, methods=["GET"]),
            Route("/v1/factcheck", factcheck, methods=["POST"]),
            Route("/v1/results/{request_id}", get_result, methods=["GET"]),
            Route("/v1/results/{request_id}/view", view_result, methods=["GET"]),
            Route("/v1/rules", view_rules, methods=["GET"]),
            Route("/beta/litellm_basic_guardrail_api", litellm_guardrail, methods=["POST"]),
            Route("/healthz", healthz, methods=["GET"]),
            Route("/readyz", readyz, methods=["GET"]),
            Route("/metrics", metrics, methods=["GET"]),
        ],
        exception_handlers={404: not_found, 405: method_not_allowed, Exception: server_error},
        middleware=[*_tracing_middleware(tracing), Middleware(RequestIdMiddleware, access_log=settings.access_log)],
        lifespan=lifespan,
    )
    app.router.redirect_slashes = False  # an API answers a stray slash with a JSON 404, not a redirect
    app.state.gateway = gateway
    return app


def _tracing_middleware(tracing: Tracing | None) -> list[Middleware]:
    """The server span's middleware when tracing is on (none at all when off: nothing to skip per request)."""
    if tracing is None:
        return []
    from gateway.tracing import TraceMiddleware

    return [Middleware(TraceMiddleware, tracing=tracing)]
