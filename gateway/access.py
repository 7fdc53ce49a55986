"""One record per request: the request counter's labels and the JSON access log line.

A route handler opens an :class:`Exchange` (``exchange(request, source)``), fills in what it learns
(model, policy, tenant, timings, verdict) and sets the outcome; ``RequestIdMiddleware`` writes the
access log line once the response has been sent, streams included. No answer or prompt text is ever
written: the line says who asked which model under which policy, what happened and how long it took.

Outcomes (the ``outcome`` label of ``factsentry_gateway_requests_total``):

- ``ok`` — served without a verdict to act on (observe mode, a finished ``/v1/factcheck``);
- ``pass`` / ``block`` / ``revise`` — the policy's action on a verdict;
- ``timeout`` / ``failed`` / ``unavailable`` — no verdict; the policy's on_timeout/on_unavailable acted;
- ``partial`` — released under on_unavailable open with a verdict that checked only part of the answer;
- ``pending`` — ``/v1/factcheck`` answered 202, the verdict will be at the result URL;
- ``client_error`` — the request was refused (4xx: bad body, key, model, size), or the upstream refused it;
- ``upstream_error`` — the model provider failed (5xx, 429, its own auth, timeout, unreachable);
- ``checker_error`` — the checking pipeline failed (broker or result store down, text not checkable);
- ``gateway_error`` — a fault of the gateway itself (500);
- ``client_closed`` — the client went away during a stream.
"""

from __future__ import annotations

import logging
import time
from collections.abc import MutableMapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    from starlette.requests import Request

    from gateway.errors import GatewayError
    from schemas.messages import ResultMessage, Source

SCOPE_KEY = "factsentry.exchange"
access_log = logging.getLogger("factsentry.access")


@dataclass
class Exchange:
    source: Source
    request_id: str
    started: float = field(default_factory=time.perf_counter)
    model: str = "unknown"  # a metric label: only configured model names (or "unknown") go here
    mode: str = "none"
    tenant: str | None = None
    stream: bool = False
    outcome: str = "ok"
    error_code: str | None = None
    upstream_s: float | None = None
    wait_s: float | None = None
    result: ResultMessage | None = None

    def failed(self, error: GatewayError) -> None:
        self.outcome = error.outcome
        self.error_code = error.code

    def fields(self) -> dict[str, Any]:
        """The access log's view of the request (the middleware adds method, path, status and time)."""
        out: dict[str, Any] = {
            "source": self.source,
            "tenant": self.tenant,
            "model": self.model,
            "policy": self.mode,
            "stream": self.stream,
            "outcome": self.outcome,
        }
        if self.error_code:
            out["error"] = self.error_code
        if self.upstream_s is not None:
            out["upstream_ms"] = round(self.upstream_s * 1000, 1)
        if self.wait_s is not None:
            out["verdict_wait_ms"] = round(self.wait_s * 1000, 1)
        if self.result is not None:
            check = self.result.check
            out.update(
                check_status=check.status,
                factscore=_rounded(check.factscore),
                dfactscore=_rounded(check.dfactscore),
                facts=check.num_facts,
                entities=check.num_entities,
                partial=check.partial,
            )
        return out


def exchange(request: Request, source: Source, request_id: str) -> Exchange:
    """Open the request's exchange; the middleware finds it in the ASGI scope when the response is out."""
    x = Exchange(source, request_id)
    request.scope[SCOPE_KEY] = x
    return x


def write(scope: MutableMapping[str, Any], status: int, request_id: str, started: float) -> None:
    if not access_log.isEnabledFor(logging.INFO):
        return
    line: dict[str, Any] = {
        "ts": round(time.time(), 3),
        "request_id": request_id,
        "method": scope.get("method"),
        "path": scope.get("path"),
        "status": status,
    }
    x: Exchange | None = scope.get(SCOPE_KEY)
    if x is not None:
        line["request_id"] = x.request_id
        line.update(x.fields())
    line["total_ms"] = round((time.perf_counter() - started) * 1000, 1)
    access_log.info(orjson.dumps(line).decode())


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)
