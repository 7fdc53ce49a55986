"""The gateway's spans, when tracing is on (bus/tracing.py): the server span of each request, named by its route
and carrying what the access log says of it (gateway/access.py), and the attributes of a verdict's decision.

Nothing here imports OpenTelemetry: the spans are :class:`bus.spans.Tracing`'s, and with tracing off none of
this runs (the middleware is not installed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bus.tracing import Attributes, check_attributes
from gateway.access import SCOPE_KEY, Exchange
from schemas.policy import Action

if TYPE_CHECKING:
    from bus.spans import Tracing
    from schemas.messages import ResultMessage

# What is not worth a trace: probes and scrapes.
UNTRACED_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})

# The GenAI security conventions' decision for each action of a policy.
DECISIONS = {"pass": "allow", "block": "deny", "revise": "modify"}


class TraceMiddleware:
    """The server span of every HTTP request (outermost: it sees the status the client gets)."""

    def __init__(self, app: ASGIApp, tracing: Tracing) -> None:
        self.app = app
        self.tracing = tracing

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path") in UNTRACED_PATHS:
            await self.app(scope, receive, send)
            return
        status = 500

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        method = scope.get("method", "GET")
        with self.tracing.serve(method, scope.get("path", ""), scope.get("headers", [])) as span:
            try:
                await self.app(scope, receive, send_status)
            finally:
                route = getattr(scope.get("route"), "path", None)
                if route:
                    span.update_name(f"{method} {route}")
                    span.set_attribute("http.route", route)
                span.set_attributes(_response_attributes(status, scope.get(SCOPE_KEY)))


def _response_attributes(status: int, x: Exchange | None) -> Attributes:
    out: Attributes = {"http.response.status_code": status}
    if status >= 500:
        out["error.type"] = str(status)
    return out if x is None else {**out, **exchange_attributes(x)}


def exchange_attributes(x: Exchange) -> Attributes:
    """What the access log records of a request, as span attributes (model and tenant are the operator's names)."""
    out: Attributes = {
        "factsentry.request_id": x.request_id,
        "factsentry.source": x.source,
        "gen_ai.request.model": x.model,
        "factsentry.policy.mode": x.mode,
        "factsentry.outcome": x.outcome,
        "factsentry.stream": x.stream,
    }
    if x.tenant is not None:
        out["factsentry.tenant"] = x.tenant
    if x.error_code is not None:
        out["error.type"] = x.error_code
    if x.result is not None:
        out.update(check_attributes(x.result.check))
    return out


def decision_attributes(result: ResultMessage | None, status: str, action: Action) -> Attributes:
    """The ``apply_guardrail`` span's decision: the GenAI conventions' ``allow`` / ``deny`` / ``modify``, the
    verdict's status (``done`` or why there is none) and its scores."""
    out: Attributes = {
        "gen_ai.security.decision.type": DECISIONS[action.value],
        "factsentry.action": action.value,
        "factsentry.verdict.status": status,
    }
    if result is None:
        out["gen_ai.security.decision.reason"] = f"no verdict: {status}"
        return out
    return {**out, **check_attributes(result.check)}
