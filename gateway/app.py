"""The ASGI gateway: OpenAI-compatible routes in front of the upstream models.

``create_app(settings)`` builds the Starlette app; ``factsentry gateway`` serves it with uvicorn.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import logging
import os
import re
import time
import uuid
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson
import redis.asyncio as aioredis
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bus.labels import LabelGuard
from bus.results import Outcome, ResultStore, VerdictListener
from gateway import holdback, review, sse
from gateway.access import Exchange, exchange
from gateway.access import write as write_access
from gateway.auth import ApiKey, KeyRing, check_model, check_token
from gateway.errors import (
    BlockedAnswer,
    BodyTooLarge,
    CheckFailed,
    Forbidden,
    GatewayError,
    InvalidRequest,
    ResultNotFound,
    Unauthorized,
    Unavailable,
)
from gateway.metrics import GatewayMetrics, build_metrics
from gateway.policy import Action, Override, PolicySpec, PolicyTable, decide, resolve, verdict_headers
from gateway.publisher import Publisher
from gateway.settings import GatewaySettings
from gateway.upstream import Completion, ModelRegistry, Upstream
from schemas.enums import ENGINE_NAMES, Policy, Verdict, Worthiness
from schemas.messages import ChatMessage, Document, GenerationMessage, ResultMessage, Usage

log = logging.getLogger(__name__)

# What a refusal says happened, by why the answer was not released.
REFUSALS = {
    "conflated": (
        "I can't give that answer: an automatic fact-check found that it merges different people into one "
        "(D-FActScore {score:.2f} below {threshold:.2f})."
    ),
    "unsupported": (
        "I can't give that answer: an automatic fact-check found {count} statement{s} in it that its sources do "
        "not support (D-FActScore {score:.2f} below {threshold:.2f})."
    ),
    "unverifiable": (
        "I can't give that answer: it could not be checked against the knowledge this assistant relies on."
    ),
    "partial": (
        "I can't give that answer: it is longer than the fact-checker reads, and the part it could not check "
        "cannot be released."
    ),
    "timeout": "I can't give that answer: it could not be fact-checked in time.",
    "failed": "I can't give that answer: it could not be fact-checked (the check failed).",
    "unavailable": "I can't give that answer: it could not be fact-checked (the fact-checker is unavailable).",
}


# /v1/factcheck: the model the checked text came from, when the caller says (a label on metrics).
MODEL_NAME = re.compile(r"[\w.:/@-]{1,100}")
UNSPECIFIED_MODEL = "unspecified"


class Gateway:
    """State shared by the routes: upstreams, policies, publisher, result store, metrics."""

    def __init__(
        self,
        settings: GatewaySettings,
        models: ModelRegistry,
        policies: PolicyTable,
        registry: CollectorRegistry,
    ) -> None:
        self.settings = settings
        self.models = models
        self.policies = policies
        self.registry = registry
        self.metrics: GatewayMetrics = build_metrics(registry)
        self.publisher = Publisher(
            settings,
            self.metrics,
            settings.publish_queue_max,
            settings.publish_queue_max_bytes,
            max_record_bytes=settings.max_record_bytes,
            on_lost=self._on_publish_lost,
            on_reset=self._on_broker_reset,
            partitions=settings.topic_partitions,
        )
        # One bounded pool that makes callers wait for a free connection instead of failing with
        # "Too many connections"; verdict waits hold none of it (they share the listener's one).
        pool = aioredis.BlockingConnectionPool.from_url(
            settings.redis_url,
            max_connections=settings.redis_max_connections,
            timeout=settings.redis_pool_timeout_s,
            socket_timeout=5,
            socket_connect_timeout=2,
            **settings.redis_options(),
        )
        self.redis: aioredis.Redis = aioredis.Redis(connection_pool=pool)
        self.results = ResultStore(self.redis, settings.redis_prefix, settings.result_ttl_s)
        self.listener = VerdictListener(self.results)
        self.keys = KeyRing(settings.keys_file)
        # Model names a caller chose (/v1/factcheck, guardrail calls, wildcard routes): labels while under 50.
        self.checked_models = LabelGuard(50, models.configured)

    async def judge(
        self, spec: PolicySpec, request_id: str, model: str, published: bool
    ) -> tuple[ResultMessage | None, str, Action]:
        """Wait for the verdict of a published text and decide; an unpublished one has none to wait for."""
        if published:
            outcome = await self.wait_verdict(request_id, spec.timeout_s)
        else:
            self.metrics.verdict_failed.inc()
            outcome = Outcome("failed", reason="the text could not be queued for checking")
        action = decide(spec, outcome.result, outcome.status)
        if outcome.result is None and action is Action.PASS and spec.mode in (Policy.BLOCK, Policy.REVISE):
            # Only the operator's on_timeout / on_unavailable = open gets here; counted so it is never silent.
            self.metrics.released_unchecked.labels(model, outcome.status).inc()
        return outcome.result, outcome.status, action

    def count(self, x: Exchange) -> None:
        """Count a finished request once, by source, model, policy mode and outcome."""
        self.metrics.requests.labels(x.source, x.model, x.mode, x.outcome).inc()

    def refused(self, x: Exchange, error: GatewayError, headers: dict[str, str]) -> Response:
        """Count a request that ended in ``error`` and answer it in OpenAI's error shape."""
        x.failed(error)
        self.count(x)
        return error.response(headers)

    def override_for(self, key: ApiKey | None) -> Override:
        return key.policy_override if key and key.policy_override else self.settings.policy_override

    def _on_publish_lost(self, request_id: str, reason: str) -> None:
        self.listener.fail_local(request_id, f"the generation was not published ({reason})")

    def _on_broker_reset(self, gone: set[str]) -> None:
        """The broker lost its log: generations it had acknowledged that the new log does not hold will
        never get a verdict. Those still waiting follow on_unavailable now instead of waiting out their
        timeout (a record a worker had already read may still be scored: failing it is the safe side)."""
        lost = self.listener.fail_waiting("the broker restarted without its log: the generation was lost", only=gone)
        if lost:
            self.metrics.publish_lost.labels("broker_reset").inc(len(lost))
            log.warning("broker reset: %d request(s) waiting for a verdict follow on_unavailable", len(lost))

    async def wait_verdict(self, request_id: str, timeout: float) -> Outcome:
        """The verdict, or why there is none: ``timeout``, ``failed`` or ``unavailable``."""
        outcome = await self.listener.wait(request_id, timeout)
        if outcome.status == "unavailable":
            self.metrics.verdict_unavailable.inc()
            log.warning("no verdict for %s (%s): the policy's on_unavailable applies", request_id, outcome.reason)
        elif outcome.status == "failed":
            self.metrics.verdict_failed.inc()
            log.warning("no verdict for %s (%s): the policy's on_unavailable applies", request_id, outcome.reason)
        return outcome


def json_depth_over(value: Any, limit: int) -> bool:
    """Whether ``value`` nests deeper than ``limit`` (iterative: a hostile body cannot exhaust the stack)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


async def read_json(request: Request, limit: int, max_depth: int = 32) -> dict[str, Any]:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise BodyTooLarge(
            f"request body of {declared} bytes is over the limit of {limit} bytes", code="body_too_large"
        )
    body = bytearray()
    async for part in request.stream():
        body += part
        if len(body) > limit:
            raise BodyTooLarge(f"request body is over the limit of {limit} bytes", code="body_too_large")
    if not body:
        raise InvalidRequest("request body is empty: send a JSON object", code="invalid_json")
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError as e:
        raise InvalidRequest(f"request body is not valid JSON: {e}", code="invalid_json") from e
    if not isinstance(data, dict):
        raise InvalidRequest("request body must be a JSON object", code="invalid_json")
    # Every parser downstream (orjson when forwarding, pydantic, the workers) must accept what passes here.
    if json_depth_over(data, max_depth):
        raise InvalidRequest(f"request body nests deeper than {max_depth} levels", code="invalid_json")
    return data


def validate_chat(body: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    model = body.get("model")
    if not isinstance(model, str) or not model:
        raise InvalidRequest(
            "you must provide a model parameter (a non-empty string)", param="model", code="missing_model"
        )
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise InvalidRequest("'messages' must be a non-empty array", param="messages", code="invalid_messages")
    for i, m in enumerate(messages):
        if not isinstance(m, dict) or not isinstance(m.get("role"), str):
            raise InvalidRequest(
                f"messages[{i}] must be an object with a 'role'", param=f"messages[{i}]", code="invalid_messages"
            )
        content = m.get("content")
        if content is not None and not isinstance(content, str | list):
            raise InvalidRequest(
                f"messages[{i}].content must be a string, an array of content parts or null",
                param=f"messages[{i}].content",
                code="invalid_messages",
            )
        for k, part in enumerate(content if isinstance(content, list) else []):
            # A part without a type ({}) or a text part without its text reaches no upstream as OpenAI reads it.
            if (
                not isinstance(part, dict)
                or not isinstance(part.get("type"), str)
                or (part["type"] == "text" and not isinstance(part.get("text"), str))
            ):
                raise InvalidRequest(
                    f"messages[{i}].content[{k}] must be a content part object with a 'type' (and 'text' for text)",
                    param=f"messages[{i}].content[{k}]",
                    code="invalid_messages",
                )
    if "stream" in body and not isinstance(body["stream"], bool):
        raise InvalidRequest("'stream' must be a boolean", param="stream", code="invalid_type")
    return model, messages


def new_request_id() -> str:
    """A fresh id for every request. A client's own ``x-request-id`` is never used as the key of
    a verdict: retries and proxies reuse it, and a stored verdict would then pass an unchecked answer."""
    return "fs-" + uuid.uuid4().hex


def id_headers(request: Request, request_id: str) -> dict[str, str]:
    headers = {"x-request-id": request_id}
    given = request.headers.get("x-request-id", "")
    if given and len(given) <= 200 and given.isprintable():
        headers["x-client-request-id"] = given
    return headers


def check_choices(body: dict[str, Any], spec: PolicySpec) -> None:
    """Only one choice can be checked and acted on: ``n > 1`` is refused outside observe mode."""
    n = body.get("n", 1)
    if n is None:
        return
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise InvalidRequest("'n' must be a positive integer", param="n", code="invalid_type")
    if n > 1 and spec.mode is not Policy.OBSERVE:
        raise InvalidRequest(
            f"'n' = {n} is not supported under the {spec.mode.value} policy: only one choice can be fact-checked",
            param="n",
            code="unsupported_parameter",
        )


def subject_name(request: Request, body: dict[str, Any]) -> str | None:
    name = request.headers.get("x-factsentry-name")
    metadata = body.get("metadata")
    if not name and isinstance(metadata, dict):
        value = metadata.get("factsentry_name") or metadata.get("name")
        name = value if isinstance(value, str) else None
    return name.strip() or None if name else None


@dataclass(frozen=True)
class About:
    """What a request tells the checker about its answer: whom it is about, and the documents it is
    grounded in (retrieval-augmented generation)."""

    name: str | None = None
    documents: tuple[Document, ...] = ()


def request_documents(body: dict[str, Any], limit: int) -> tuple[Document, ...]:
    """The documents of ``metadata.factsentry.documents`` (none when absent); a malformed list is refused."""
    metadata = body.get("metadata")
    if not isinstance(metadata, dict) or metadata.get("factsentry") is None:
        return ()
    ours = metadata["factsentry"]
    if not isinstance(ours, dict):
        raise InvalidRequest(
            "'metadata.factsentry' must be an object", param="metadata.factsentry", code="invalid_type"
        )
    return parse_documents(ours.get("documents"), "metadata.factsentry.documents", limit)


def allowed_documents(documents: tuple[Document, ...], spec: PolicySpec, where: str) -> tuple[Document, ...]:
    """``documents`` when the model's policy lets a request bring them (``grounding``), else a 400: a client
    must not bring the evidence its answer is judged by unless the operator allows it."""
    if documents and spec.grounding == "store":
        param = f"{where}.documents" if where else "documents"
        raise InvalidRequest(
            "this model's policy checks answers against the knowledge store only, so a request may not bring "
            "documents (the operator allows them with the policy's grounding: documents or documents_and_store)",
            param=param,
            code="documents_not_allowed",
        )
    return documents


def parse_documents(value: object, param: str, limit: int) -> tuple[Document, ...]:
    """A list of ``{"title", "text"[, "entity"]}`` objects, at most ``limit`` of them."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise InvalidRequest(f"'{param}' must be a list of documents", param=param, code="invalid_type")
    if len(value) > limit:
        raise InvalidRequest(
            f"'{param}' holds {len(value)} documents; this gateway checks at most {limit} (FACTSENTRY_MAX_DOCUMENTS)",
            param=param,
            code="too_many_documents",
        )
    documents: list[Document] = []
    for i, item in enumerate(value):
        try:
            documents.append(Document.model_validate(item))
        except ValidationError as e:
            first = e.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            detail = f"'{where}': {first['msg']}" if where else first["msg"]
            raise InvalidRequest(
                f'\'{param}[{i}]\' is not a document ({{"title", "text"}}): {detail}',
                param=f"{param}[{i}]",
                code="invalid_document",
            ) from e
    return tuple(documents)


# What ``metadata`` holds for the gateway alone: never sent upstream (OpenAI takes string values only).
OUR_METADATA = ("factsentry", "factsentry_name")


def for_upstream(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` without the gateway's own ``metadata`` keys (and without ``metadata`` if nothing else is left)."""
    metadata = body.get("metadata")
    if not isinstance(metadata, dict) or not any(k in metadata for k in OUR_METADATA):
        return body
    rest = {k: v for k, v in metadata.items() if k not in OUR_METADATA}
    trimmed = {k: v for k, v in body.items() if k != "metadata"}
    if rest:
        trimmed["metadata"] = rest
    return trimmed


def last_user_text(messages: list[dict[str, Any]]) -> str | None:
    for m in reversed(messages):
        if m.get("role") == "user" and isinstance(m.get("content"), str):
            return str(m["content"])
    return None


def verdict_body(
    result: ResultMessage | None,
    request_id: str,
    action: Action | None = None,
    status: str = "timeout",
    threshold: float | None = None,
    revision: bool = False,
) -> dict[str, Any]:
    """The ``factsentry`` object attached to annotated, blocked and revised answers.

    ``flagged`` (as in OpenAI's moderation results): the verdict put the answer below the threshold,
    whatever the policy then did with it; ``null`` without a verdict to judge by. ``revision``: whether the
    suggested revision goes too — never for an answer that was withheld, unless the operator opted in
    (``FACTSENTRY_SEND_REVISION``): what the client gets is the refusal, scores and ids."""
    url = f"/v1/results/{request_id}"
    if result is None:
        action_value = action.value if action else None
        return {"request_id": request_id, "status": status, "action": action_value, "flagged": None, "result_url": url}
    check = result.check
    flagged = None
    if check.dfactscore is not None and threshold is not None:
        flagged = check.dfactscore < threshold
    return {
        "request_id": request_id,
        "result_url": url,
        "flagged": flagged,
        "status": check.status,
        "coverage": check.coverage,
        "action": action.value if action else None,
        "factscore": check.factscore,
        "dfactscore": check.dfactscore,
        "num_facts": check.num_facts,
        "num_bios": check.num_bios,
        "num_entities": check.num_entities,
        "conflated": any(g.conflated for g in check.groups),
        "partial": check.partial,
        "revision": check.revision.text if check.revision and revision else None,
    }


def published_message(message: dict[str, Any]) -> ChatMessage:
    """What the pipeline needs of a chat message: its role and its text (other fields stay in the gateway)."""
    content = message.get("content")
    if isinstance(content, list):
        texts = [p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)]
        content = [{"type": "text", "text": t} for t in texts]
    return ChatMessage(role=str(message.get("role", "")), content=content if isinstance(content, str | list) else None)


def _message(
    request_id: str,
    model: str,
    messages: list[dict[str, Any]],
    answer: str,
    usage: Mapping[str, Any],
    created: datetime,
    spec: PolicySpec,
    about: About,
    stream: bool,
    tenant: str | None,
) -> GenerationMessage:
    return GenerationMessage(
        request_id=request_id,
        model=model,
        messages=[published_message(m) for m in messages],
        answer=answer,
        usage=Usage.model_validate({k: v for k, v in usage.items() if k in Usage.model_fields and isinstance(v, int)}),
        created_at=created,
        completed_at=datetime.now(UTC),
        policy=spec.mode,
        name=about.name,
        question=last_user_text(messages),
        stream=stream,
        tenant=tenant,
        engine=spec.engine,
        documents=list(about.documents),
        grounding="documents_and_store" if spec.grounding == "documents_and_store" else "documents",
    )


async def chat_completions(request: Request) -> Response:
    gw: Gateway = request.app.state.gateway
    started = time.perf_counter()
    created = datetime.now(UTC)
    request_id = new_request_id()
    headers = id_headers(request, request_id)
    x = exchange(request, "proxy", request_id)
    try:
        key = gw.keys.authenticate(request.headers)
        tenant = x.tenant = key.tenant if key else None
        body = await read_json(request, gw.settings.max_body_bytes, gw.settings.max_json_depth)
        requested, messages = validate_chat(body)
        check_model(key, requested)  # before the lookup: a key learns nothing of models it may not use
        upstream = gw.models.get(requested)
        # only configured names (and at most 50 names a wildcard matched) become metric labels
        model = x.model = gw.checked_models(requested)
        spec = resolve(gw.policies, model, request.headers, gw.override_for(key))
        mode = x.mode = spec.mode.value
        check_choices(body, spec)
        documents = allowed_documents(request_documents(body, gw.settings.max_documents), spec, "metadata.factsentry")
        about = About(subject_name(request, body), documents)
        body = for_upstream(body)
        if body.get("stream"):
            x.stream = True
            return await _stream(gw, upstream, body, messages, spec, about, request_id, created, headers, x)
        t0 = time.perf_counter()
        completion = await upstream.complete(body)
        upstream_s = x.upstream_s = time.perf_counter() - t0
        gw.metrics.upstream_seconds.labels(model).observe(upstream_s)
        message = _message(
            request_id, model, messages, completion.text, completion.usage, created, spec, about, False, tenant
        )
        published = gw.publisher.publish(message)
        if spec.mode is Policy.OBSERVE:
            gw.count(x)
            gw.metrics.added_seconds.labels(model, mode).observe(time.perf_counter() - started - upstream_s)
            return Response(completion.raw, media_type="application/json", headers=headers)
        t1 = time.perf_counter()
        result, status, action = await gw.judge(spec, request_id, model, published)
        wait_s = x.wait_s = time.perf_counter() - t1
        gw.metrics.verdict_wait_seconds.labels(model).observe(wait_s)
        extra: dict[str, Any] = {}
        if spec.reask and action is not Action.PASS and result is not None:
            again = await _reask(gw, upstream, body, messages, completion, result, spec, about, created, tenant, model)
            x.wait_s = wait_s = time.perf_counter() - t1 - again.upstream_s  # a second check is waiting too
            x.upstream_s = upstream_s = upstream_s + again.upstream_s
            extra["reask"] = again.body()
            headers["x-factsentry-reask"] = again.outcome
            if again.request_id:
                headers["x-factsentry-reask-id"] = again.request_id
            if again.won is not None:
                completion, result, status, action = again.won
                request_id = again.request_id or request_id
        headers.update(verdict_headers(result, status))
        response = _apply(gw, completion, spec, result, action, request_id, model, headers, status, extra)
        x.result, x.outcome = result, action.value if result else status
        gw.count(x)
        # The proxy's own overhead in every mode; the verdict wait has its own histogram.
        gw.metrics.added_seconds.labels(model, mode).observe(time.perf_counter() - started - upstream_s - wait_s)
        return response
    except GatewayError as e:
        return gw.refused(x, e, headers)


# What the model is told when its answer is sent back under a reask policy.
REASK_PROMPT = (
    "An automatic fact-check could not confirm these statements in your previous answer:\n{facts}\n"
    "Rewrite your answer to the same question: correct or leave out these statements, keep what is right, "
    "and do not add claims you are not sure of. Reply with the new answer only."
)
# At most this many statements are listed (the worst first, in answer order).
REASK_MAX_FACTS = 12


@dataclass
class Reask:
    """What came of sending an answer back once: ``won`` holds the rewrite's completion, verdict, status and
    action when the rewrite is the one decided on."""

    outcome: str
    listed: int = 0
    request_id: str | None = None
    upstream_s: float = 0.0
    dfactscore: float | None = None
    won: tuple[Completion, ResultMessage, str, Action] | None = None

    def body(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "statements_listed": self.listed,
            "request_id": self.request_id,
            "dfactscore": self.dfactscore,
        }


def unsupported_statements(result: ResultMessage) -> list[str]:
    """The check-worthy facts of a verdict that its linked pages do not support, in answer order."""
    out: list[str] = []
    for group in result.check.groups:
        for fact in group.facts:
            linked = fact.verdict_linked if fact.verdict_linked is not None else fact.verdict
            if fact.worthiness is Worthiness.FACTUAL and linked is Verdict.NOT_SUPPORTED and fact.text not in out:
                out.append(fact.text)
    return out


async def _reask(
    gw: Gateway,
    upstream: Upstream,
    body: dict[str, Any],
    messages: list[dict[str, Any]],
    first: Completion,
    result: ResultMessage,
    spec: PolicySpec,
    about: About,
    created: datetime,
    tenant: str | None,
    model: str,
) -> Reask:
    """Send an answer that did not clear back to the model once, with the statements the check could not
    support, and check the rewrite. The rewrite is decided on only when it clears, or scores a higher
    D-FActScore than the first; otherwise — no verdict for it, an upstream error — the first answer's
    verdict and action stand, so a reask never releases anything the policy would not."""
    statements = unsupported_statements(result)[:REASK_MAX_FACTS]
    if not statements:
        gw.metrics.reasks.labels(model, "kept").inc()
        return Reask("nothing_listed")
    prompt = REASK_PROMPT.format(facts="\n".join(f"- {s}" for s in statements))
    turns = [*messages, {"role": "assistant", "content": first.text}, {"role": "user", "content": prompt}]
    t0 = time.perf_counter()
    try:
        second = await upstream.complete({**body, "messages": turns})
    except GatewayError as e:
        gw.metrics.reasks.labels(model, "upstream_error").inc()
        log.warning("reask of a %s answer failed upstream (%s): the first verdict stands", model, e)
        return Reask("upstream_error", len(statements), upstream_s=time.perf_counter() - t0)
    upstream_s = time.perf_counter() - t0
    rid = new_request_id()
    message = _message(rid, model, turns, second.text, second.usage, created, spec, about, False, tenant)
    # The rewrite answers the user's question, not the fact-check's prompt.
    message = message.model_copy(update={"question": last_user_text(messages)})
    if not gw.publisher.publish(message):
        gw.metrics.reasks.labels(model, "no_verdict").inc()
        return Reask("no_verdict", len(statements), rid, upstream_s)
    outcome = await gw.wait_verdict(rid, spec.timeout_s)
    if outcome.result is None or outcome.result.check.partial:
        # No whole verdict for the rewrite: it cannot replace an answer that has one, whatever the
        # operator's open settings would do with an answer that had none.
        gw.metrics.reasks.labels(model, "no_verdict").inc()
        return Reask("no_verdict", len(statements), rid, upstream_s)
    second_result = outcome.result
    action = decide(spec, second_result, outcome.status)
    score = second_result.check.dfactscore
    before = result.check.dfactscore
    better = action is Action.PASS or (score is not None and (before is None or score > before))
    if not better:
        gw.metrics.reasks.labels(model, "kept").inc()
        return Reask("kept", len(statements), rid, upstream_s, score)
    gw.metrics.reasks.labels(model, "improved").inc()
    won = (second, second_result, outcome.status, action)
    return Reask("improved", len(statements), rid, upstream_s, score, won)


def _apply(
    gw: Gateway,
    completion: Completion,
    spec: PolicySpec,
    result: ResultMessage | None,
    action: Action,
    request_id: str,
    model: str,
    headers: dict[str, str],
    status: str,
    extra: dict[str, Any] | None = None,
) -> Response:
    data = dict(completion.data)
    data["factsentry"] = {
        **verdict_body(result, request_id, action, status, spec.threshold, shows_revision(gw, spec, action)),
        **(extra or {}),
    }
    if action is Action.PASS:
        headers["x-factsentry-action"] = Action.PASS.value
        return Response(orjson.dumps(data), media_type="application/json", headers=headers)
    if action is Action.REVISE and result is not None and result.check.revision is not None:
        gw.metrics.revised.labels(model).inc()
        _set_content(data, result.check.revision.text, None)
        headers["x-factsentry-action"] = Action.REVISE.value
        return Response(orjson.dumps(data), media_type="application/json", headers=headers)
    gw.metrics.blocked.labels(model).inc()
    headers["x-factsentry-action"] = Action.BLOCK.value
    message = refusal_text(spec, result, status)
    if gw.settings.block_style == "error":
        return BlockedAnswer(message, code="factsentry_blocked").response(headers)
    _set_content(data, message, "content_filter", refusal=True, in_content=gw.settings.refusal_in_content)
    return Response(orjson.dumps(data), media_type="application/json", headers=headers)


def shows_revision(gw: Gateway, spec: PolicySpec, action: Action) -> bool:
    """Whether the client may see the verdict's suggested revision: when it is the answer it gets (revise),
    under annotate (nothing is withheld there), or where the operator opted in (FACTSENTRY_SEND_REVISION)."""
    return action is Action.REVISE or spec.mode is Policy.ANNOTATE or gw.settings.send_revision


def refusal_reason(result: ResultMessage | None, status: str) -> str:
    """Why an answer is refused, as a key of ``REFUSALS``: no verdict (its status), a partial or
    unverifiable one, merged people, or statements the sources do not support."""
    if result is None:
        return status if status in REFUSALS else "unavailable"
    check = result.check
    if check.partial:
        return "partial"
    if check.unverifiable:
        return "unverifiable"
    if check.dfactscore is None:
        return "failed"
    return "conflated" if any(g.conflated for g in check.groups) else "unsupported"


def refusal_text(spec: PolicySpec, result: ResultMessage | None, status: str = "timeout") -> str:
    """The refusal a client gets, saying what happened (see ``REFUSALS``)."""
    reason = refusal_reason(result, status)
    if reason not in ("conflated", "unsupported") or result is None:
        return REFUSALS[reason]
    count = len(unsupported_statements(result))
    score = result.check.dfactscore or 0.0
    return REFUSALS[reason].format(score=score, threshold=spec.threshold, count=count, s="" if count == 1 else "s")


def _set_content(
    data: dict[str, Any], text: str, finish_reason: str | None, refusal: bool = False, in_content: bool = False
) -> None:
    """Replace choice 0's text. A refusal goes in ``message.refusal`` with ``content`` null, as OpenAI sends
    one (``in_content``: in ``content`` too, for clients that read only that)."""
    choices = data.get("choices") or [{"index": 0, "message": {"role": "assistant"}}]
    first = dict(choices[0])
    first["message"] = {
        **(first.get("message") or {}),
        "role": "assistant",
        "content": text if not refusal or in_content else None,
        "refusal": text if refusal else None,
    }
    if finish_reason:
        first["finish_reason"] = finish_reason
    data["choices"] = [first, *choices[1:]]


async def _stream(
    gw: Gateway,
    upstream: Upstream,
    body: dict[str, Any],
    messages: list[dict[str, Any]],
    spec: PolicySpec,
    about: About,
    request_id: str,
    created: datetime,
    headers: dict[str, str],
    x: Exchange,
) -> Response:
    model = x.model
    tenant = x.tenant
    headers["cache-control"] = "no-cache"
    chunks = upstream.stream(body)
    t0 = time.perf_counter()
    first = await anext(chunks, None)  # errors before the first byte keep their HTTP status
    usage: dict[str, Any] = {}

    if spec.mode is Policy.OBSERVE:

        async def passthrough() -> AsyncIterator[bytes]:
            text: list[str] = []
            outcome = "client_closed"  # unless the stream ends or fails first
            try:
                if first is not None:
                    text.append(sse.delta_text(first))
                    if isinstance(first.get("usage"), dict):
                        usage.update(first["usage"])
                    yield sse.event(first)
                async for chunk in chunks:
                    text.append(sse.delta_text(chunk))
                    if isinstance(chunk.get("usage"), dict):
                        usage.update(chunk["usage"])
                    yield sse.event(chunk)
                yield sse.DONE
                outcome = "ok"
            except GatewayError as e:
                outcome = e.outcome
                yield sse.event(e.body())
            finally:
                x.outcome, x.upstream_s = outcome, time.perf_counter() - t0
                gw.count(x)
                gw.metrics.upstream_seconds.labels(model).observe(x.upstream_s)
                answer = "".join(text)
                message = _message(request_id, model, messages, answer, usage, created, spec, about, True, tenant)
                message.truncated = outcome != "ok"
                gw.publisher.publish(message)

        return StreamingResponse(passthrough(), media_type="text/event-stream", headers=headers)

    if spec.stream == "holdback" and spec.mode in (Policy.BLOCK, Policy.REVISE):
        return _holdback(gw, chunks, first, spec, messages, about, request_id, created, headers, x, t0)

    # Other modes never let unverified text out: buffer, wait for the verdict, then stream what the policy allows.
    held = [first] if first is not None else []
    async for chunk in chunks:
        held.append(chunk)
    x.upstream_s = time.perf_counter() - t0
    gw.metrics.upstream_seconds.labels(model).observe(x.upstream_s)
    for chunk in held:
        if isinstance(chunk.get("usage"), dict):
            usage.update(chunk["usage"])
    text = "".join(sse.delta_text(c) for c in held)
    published = gw.publisher.publish(
        _message(request_id, model, messages, text, usage, created, spec, about, True, tenant)
    )
    t1 = time.perf_counter()
    result, status, action = await gw.judge(spec, request_id, model, published)
    x.wait_s = time.perf_counter() - t1
    gw.metrics.verdict_wait_seconds.labels(model).observe(x.wait_s)
    headers.update(verdict_headers(result, status))
    x.result, x.outcome = result, action.value if result else status
    gw.count(x)
    if action is Action.PASS:
        out = held
        headers["x-factsentry-action"] = Action.PASS.value
    elif action is Action.REVISE and result is not None and result.check.revision is not None:
        gw.metrics.revised.labels(model).inc()
        headers["x-factsentry-action"] = Action.REVISE.value
        out = sse.text_chunks(result.check.revision.text, request_id=request_id, model=model)
    else:
        gw.metrics.blocked.labels(model).inc()
        headers["x-factsentry-action"] = Action.BLOCK.value
        if gw.settings.block_style == "error":
            return BlockedAnswer(refusal_text(spec, result, status), code="factsentry_blocked").response(headers)
        out = sse.text_chunks(
            refusal_text(spec, result, status),
            request_id=request_id,
            model=model,
            finish_reason="content_filter",
            refusal=True,
            in_content=gw.settings.refusal_in_content,
        )
    # One id for the whole stream (OpenAI's convention): the upstream's when its chunks are released.
    stream_id = next((c["id"] for c in out if isinstance(c.get("id"), str)), request_id)
    final: dict[str, Any] = {
        "id": stream_id,
        "object": "chat.completion.chunk",
        "created": int(created.timestamp()),
        "model": model,
        "choices": [],
        "factsentry": verdict_body(
            result, request_id, action, status, spec.threshold, shows_revision(gw, spec, action)
        ),
    }

    async def release() -> AsyncIterator[bytes]:
        for chunk in out:
            yield sse.event(chunk)
        yield sse.event(final)
        yield sse.DONE

    return StreamingResponse(release(), media_type="text/event-stream", headers=headers)


def _holdback(
    gw: Gateway,
    chunks: AsyncIterator[dict[str, Any]],
    first: dict[str, Any] | None,
    spec: PolicySpec,
    messages: list[dict[str, Any]],
    about: About,
    request_id: str,
    created: datetime,
    headers: dict[str, str],
    x: Exchange,
    t0: float,
) -> Response:
    """Sentence hold-back: each sentence released once its facts are verified (gateway/holdback.py)."""
    model = x.model
    usage: dict[str, Any] = {}

    async def judge(text: str, rid: str, final: bool) -> tuple[ResultMessage | None, str, Action]:
        message = _message(rid, model, messages, text, usage, created, spec, about, True, x.tenant)
        if not final:
            message.partial_of = request_id
        return await gw.judge(spec, rid, model, gw.publisher.publish(message))

    checker = holdback.Holdback(spec, request_id, judge)

    async def counted() -> AsyncIterator[dict[str, Any]]:
        async for chunk in chunks:
            if isinstance(chunk.get("usage"), dict):
                usage.update(chunk["usage"])
            yield chunk

    async def on_done(text: str) -> dict[str, Any]:
        x.upstream_s = time.perf_counter() - t0
        result, status, _ = checker.last or (None, "failed", Action.BLOCK)
        decided = checker.decided
        action = Action.BLOCK if decided.stopped else Action.REVISE if decided.dropped else Action.PASS
        x.result, x.outcome = result, action.value if result else status
        gw.count(x)
        if action is Action.BLOCK:
            gw.metrics.blocked.labels(model).inc()
        elif action is Action.REVISE:
            gw.metrics.revised.labels(model).inc()
        verdict = verdict_body(result, checker.last_id, action, status, spec.threshold, gw.settings.send_revision)
        verdict["holdback"] = {
            "checks": checker.checks,
            "released_sentences": len(decided.released),
            "withheld_sentences": decided.dropped + (1 if decided.stopped else 0),
            "released_unchecked": decided.unchecked,
        }
        return verdict

    upstream_id = (first or {}).get("id")
    stream_id = upstream_id if isinstance(upstream_id, str) else request_id
    body = holdback.stream(
        counted(),
        first,
        checker,
        stream_id=stream_id,
        model=model,
        created=int(created.timestamp()),
        on_done=on_done,
        refusal_in_content=gw.settings.refusal_in_content,
    )
    headers["x-factsentry-stream"] = "holdback"
    return StreamingResponse(body, media_type="text/event-stream", headers=headers)


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
        body = await read_json(request, gw.settings.max_body_bytes, gw.settings.max_json_depth)
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
        x.model = gw.checked_models(model)
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
            model=model,
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
        if not gw.publisher.connected.is_set():
            raise Unavailable("the check cannot be queued: the broker is unreachable; try again", code="broker_down")
        if not gw.publisher.publish(message):
            raise Unavailable("the check cannot be queued: the gateway is overloaded; try again", code="overloaded")
        t1 = time.perf_counter()
        outcome = await gw.wait_verdict(request_id, float(timeout)) if timeout else Outcome("timeout")
        x.wait_s = time.perf_counter() - t1
        result, status = outcome.result, outcome.status
        if status == "failed":
            raise CheckFailed(f"the text could not be checked: {outcome.reason}", code="check_failed")
        if status == "unavailable":
            raise Unavailable("the result store is unreachable; poll the result URL later", code="redis_unavailable")
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


async def _find_result(request: Request) -> ResultMessage | Response:
    """The verdict of the path's request id, readable by the caller's tenant; else the error response."""
    gw: Gateway = request.app.state.gateway
    request_id = request.path_params["request_id"]
    try:
        key = gw.keys.authenticate(request.headers)
        result = await gw.results.get(request_id)
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
    return result


async def get_result(request: Request) -> Response:
    found = await _find_result(request)
    if isinstance(found, Response):
        return found
    return Response(found.model_dump_json(), media_type="application/json")


async def view_result(request: Request) -> Response:
    """The review page of one verdict (HTML, nothing loaded from elsewhere)."""
    found = await _find_result(request)
    if isinstance(found, Response):
        return found
    headers = {
        "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
    }
    return Response(review.render(found), media_type="text/html; charset=utf-8", headers=headers)


async def healthz(request: Request) -> Response:
    return Response(b'{"status":"ok"}', media_type="application/json")


async def readyz(request: Request) -> Response:
    gw: Gateway = request.app.state.gateway
    checks: dict[str, str] = {}
    producer = gw.publisher.producer
    try:
        if producer is None or not gw.publisher.connected.is_set():
            raise ConnectionError("not connected yet")
        await asyncio.wait_for(producer.client.fetch_all_metadata(), 2.0)
        checks["kafka"] = "ok"
    except Exception as e:
        checks["kafka"] = f"error: {e!r}"
    try:
        await asyncio.wait_for(gw.redis.ping(), 2.0)
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
) -> Starlette:
    """Build the gateway app. ``models`` defaults to ``settings.models_file``."""
    if models is None:
        if settings.models_file is None:
            raise GatewayError("no models configured: set FACTSENTRY_MODELS_FILE to a litellm model_list YAML")
        models = ModelRegistry.load(
            settings.models_file, os.environ if env is None else env, settings.upstream_timeout_s
        )
    gateway = Gateway(settings, models, PolicyTable.load(settings.policy_file), registry or CollectorRegistry())
    for note in models.notes:
        log.warning("%s", note)
    from gateway.guardrail_api import litellm_guardrail  # it builds on this module's request helpers

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await gateway.models.warm_up()  # litellm's first-call loading, before the gateway takes requests
        await gateway.publisher.start()
        await gateway.listener.start()
        try:
            yield
        finally:
            await gateway.listener.stop()
            await gateway.publisher.stop()
            await gateway.models.aclose()
            with contextlib.suppress(Exception):
                await gateway.redis.aclose()
                await gateway.redis.connection_pool.disconnect()  # the client does not own the pool

    app = Starlette(
        routes=[
            Route("/v1/chat/completions", chat_completions, methods=["POST"]),
            Route("/v1/models", list_models, methods=["GET"]),
            Route("/v1/factcheck", factcheck, methods=["POST"]),
            Route("/v1/results/{request_id}", get_result, methods=["GET"]),
            Route("/v1/results/{request_id}/view", view_result, methods=["GET"]),
            Route("/beta/litellm_basic_guardrail_api", litellm_guardrail, methods=["POST"]),
            Route("/healthz", healthz, methods=["GET"]),
            Route("/readyz", readyz, methods=["GET"]),
            Route("/metrics", metrics, methods=["GET"]),
        ],
        exception_handlers={404: not_found, 405: method_not_allowed, Exception: server_error},
        middleware=[Middleware(RequestIdMiddleware, access_log=settings.access_log)],
        lifespan=lifespan,
    )
    app.router.redirect_slashes = False  # an API answers a stray slash with a JSON 404, not a redirect
    app.state.gateway = gateway
    return app
