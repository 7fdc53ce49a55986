"""The routes around checking: ``/v1/factcheck`` (check a given text), ``/v1/results/{id}`` (a verdict, and
its review page) and ``/v1/models``."""

from __future__ import annotations

import difflib
import time
from datetime import UTC, datetime
from typing import Any

import orjson
import redis.asyncio as aioredis
from starlette.requests import Request
from starlette.responses import Response

from bus.results import Outcome
from gateway import review
from gateway.access import exchange
from gateway.errors import (
    CheckFailed,
    Forbidden,
    GatewayError,
    InvalidRequest,
    ResultNotFound,
    Unavailable,
)
from gateway.request import (
    MODEL_NAME,
    UNSPECIFIED_MODEL,
    allowed_documents,
    id_headers,
    new_request_id,
    parse_documents,
)
from gateway.state import Gateway
from schemas.enums import ENGINE_NAMES, Policy
from schemas.messages import ChatMessage, GenerationMessage, ResultMessage


async def list_models(request: Request) -> Response:
    gw: Gateway = request.app.state.gateway
    try:
        key = gw.keys.authenticate(request.headers)
    except GatewayError as e:
        return e.response()
    models = [m for m in gw.models.list() if key is None or key.allows(str(m.get("id")))]
    return Response(orjson.dumps({"object": "list", "data": models}), media_type="application/json")


async def factcheck(request: Request) -> Response:
    """Check a given text directly: publish it like a generation and wait for the verdict."""
    gw: Gateway = request.app.state.gateway
    request_id = new_request_id()
    headers = id_headers(request, request_id)
    x = exchange(request, "factcheck", request_id)
    x.mode = Policy.ANNOTATE.value
    try:
        key = gw.keys.authenticate(request.headers)
        x.tenant = key.tenant if key else None
        if key is not None and not key.factcheck:
            raise Forbidden(
                f"the API key of tenant {key.tenant!r} may not use /v1/factcheck", code="factcheck_not_allowed"
            )
        body = await gw.read_body(request)
        text = body.get("text")
        if not isinstance(text, str) or not text.strip():
            raise InvalidRequest("'text' must be a non-empty string", param="text", code="missing_text")
        name, question = body.get("name"), body.get("question")
        for field, value in (("name", name), ("question", question)):
            if value is not None and not isinstance(value, str):
                raise InvalidRequest(f"'{field}' must be a string", param=field, code="invalid_type")
        model = body.get("model", UNSPECIFIED_MODEL)
        if not isinstance(model, str) or not MODEL_NAME.fullmatch(model):
            raise InvalidRequest(
                "'model' must be a model name: 1-100 letters, digits and . _ - : / @",
                param="model",
                code="invalid_type",
            )
        x.model = gw.model_label(model)
        engine = _factcheck_engine(body.get("engine"), gw, model)
        policy = gw.policies.for_model(model)
        documents = allowed_documents(
            parse_documents(body.get("documents"), "documents", gw.settings.max_documents), policy, ""
        )
        timeout = body.get("timeout_s", 30.0)
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 <= timeout <= 600:
            raise InvalidRequest("'timeout_s' must be a number from 0 to 600", param="timeout_s", code="invalid_type")
        now = datetime.now(UTC)
        messages = [{"role": "user", "content": question}] if question else []
        message = GenerationMessage(
            request_id=request_id,
            model=x.model,
            messages=[ChatMessage.model_validate(m) for m in messages],
            answer=text,
            created_at=now,
            completed_at=now,
            policy=Policy.ANNOTATE,
            name=name,
            question=question,
            tenant=key.tenant if key else None,
            source="factcheck",
            engine=engine,
            documents=list(documents),
            grounding="documents_and_store" if policy.grounding == "documents_and_store" else "documents",
        )
        published = gw.publisher.connected.is_set() and gw.publisher.publish(message)
        if not published and gw.broker_down() is None:
            raise Unavailable("the check cannot be queued: the gateway is overloaded; try again", code="overloaded")
        t1 = time.perf_counter()
        waits = timeout or not published
        outcome = await gw.verdict(request_id, float(timeout), published) if waits else Outcome("timeout")
        x.wait_s = time.perf_counter() - t1
        result, status = outcome.result, outcome.status
        if status == "failed":
            raise CheckFailed(f"the text could not be checked: {outcome.reason}", code="check_failed")
        if status == "unavailable":
            # Named as chat completions name it (x-factsentry-status: unavailable): the broker or Redis is down.
            raise Unavailable(f"the text cannot be checked now: {outcome.reason}; try again", code="unavailable")
        if result is None:
            x.outcome = "pending"
            gw.count(x)
            payload = {"request_id": request_id, "status": "pending", "result_url": f"/v1/results/{request_id}"}
            return Response(orjson.dumps(payload), status_code=202, media_type="application/json", headers=headers)
        # ``status`` is the request's (done, pending); the verdict's own is ``check_status``.
        check = result.check.model_dump(mode="json")
        payload = {"request_id": request_id, **check, "status": "done", "check_status": check["status"]}
        x.result = result
        gw.count(x)
        return Response(orjson.dumps(payload), media_type="application/json", headers=headers)
    except GatewayError as e:
        return gw.refused(x, e, headers)


def _factcheck_engine(value: object, gw: Gateway, model: str) -> str | None:
    """The engine a /v1/factcheck body asks for (within FACTSENTRY_FACTCHECK_ENGINES), else the model policy's."""
    if value is None:
        return gw.policies.for_model(model).engine
    if not isinstance(value, str) or value not in ENGINE_NAMES:
        close = difflib.get_close_matches(str(value), ENGINE_NAMES, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else f"; engines: {', '.join(ENGINE_NAMES)}"
        raise InvalidRequest(f"'engine' must be an engine name{hint}", param="engine", code="invalid_value")
    allowed = gw.settings.allowed_factcheck_engines
    if value not in allowed:
        raise InvalidRequest(
            f"engine {value!r} is not enabled for /v1/factcheck on this gateway "
            f"(enabled: {', '.join(sorted(allowed))}; the operator sets FACTSENTRY_FACTCHECK_ENGINES)",
            param="engine",
            code="engine_not_allowed",
        )
    return value


async def _find_result(request: Request) -> tuple[ResultMessage, dict[str, Any] | None] | Response:
    """The verdict of the path's request id, readable by the caller's tenant, and what the gateway decided
    for its answer (gateway/decisions.py; None for /v1/factcheck, observe, or a decision not recorded);
    else the error response."""
    gw: Gateway = request.app.state.gateway
    request_id = request.path_params["request_id"]
    try:
        key = gw.keys.authenticate(request.headers)
        result = await gw.results.get(request_id)
        decision = await gw.decisions.get(request_id) if result is not None else None
    except GatewayError as e:
        return e.response()
    except (aioredis.RedisError, OSError) as e:
        return Unavailable(f"result store unavailable: {e}", code="redis_unavailable").response()
    if result is not None and key is not None and result.tenant != key.tenant:
        result = None  # another tenant's verdict: as if it did not exist
    if result is None:
        shown = request_id if len(request_id) <= 80 else request_id[:80] + "…"
        return ResultNotFound(
            f"no result for request {shown!r} (not scored yet, expired, or unknown)", code="result_not_found"
        ).response()
    return result, decision


async def get_result(request: Request) -> Response:
    """The verdict, with ``decision``: the action taken, the policy and threshold that decided it, and the
    rest of gateway/decisions.py's record (null when the gateway decided nothing, e.g. /v1/factcheck)."""
    found = await _find_result(request)
    if isinstance(found, Response):
        return found
    result, decision = found
    payload = {**result.model_dump(mode="json"), "decision": decision}
    return Response(orjson.dumps(payload), media_type="application/json")


async def view_result(request: Request) -> Response:
    """The review page of one verdict (HTML, nothing loaded from elsewhere)."""
    found = await _find_result(request)
    if isinstance(found, Response):
        return found
    return Response(review.render(*found), media_type="text/html; charset=utf-8", headers=PAGE_HEADERS)


PAGE_HEADERS = {
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}


async def view_rules(request: Request) -> Response:
    """``/v1/rules``: the named rules of scoring/RULES.md, each row with an anchor the review page links to."""
    return Response(review.rules_page(), media_type="text/html; charset=utf-8", headers=PAGE_HEADERS)
