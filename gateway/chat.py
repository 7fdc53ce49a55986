"""``POST /v1/chat/completions``: call the upstream, publish the answer, wait for its verdict under the
policy, and send what the release gate (gateway/release.py) lets out — as JSON, a buffered SSE stream, or
a hold-back stream (gateway/holdback.py). Observe streams pass straight through and never wait.

The same path serves the Responses API (gateway/responses.py): an :class:`Api` says how a request becomes a
chat completion upstream and how what leaves is written back; everything between is this module's.
"""

from __future__ import annotations

import time
from collections.abc import AsyncGenerator, AsyncIterator
from datetime import UTC, datetime
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from gateway import holdback, release, sse
from gateway.access import exchange
from gateway.auth import check_model
from gateway.conversation import conversation_documents
from gateway.errors import GatewayError
from gateway.policy import Action, resolve
from gateway.reask import reask
from gateway.release import Decision, Release
from gateway.request import (
    About,
    ChatCall,
    allowed_documents,
    check_choices,
    for_upstream,
    id_headers,
    new_request_id,
    request_documents,
    subject_name,
    validate_chat,
)
from gateway.state import Gateway
from gateway.upstream import Completion
from schemas.enums import Policy
from schemas.messages import ResultMessage


class Api(Protocol):
    """What differs between the OpenAI APIs served on the chat path: how a request's body becomes the model asked
    for, the conversation and the chat completion body sent upstream, and how an answer is written back — passed
    as the upstream gave it (observe), as the release gate lets it out, or as a stream of chat completion chunks."""

    def read(self, body: dict[str, Any]) -> tuple[str, list[dict[str, Any]], dict[str, Any]]: ...

    def passed(self, call: ChatCall, completion: Completion) -> Response: ...

    def released(self, call: ChatCall, rel: Release, completion: dict[str, Any]) -> Response: ...

    def events(self, call: ChatCall, chunks: AsyncGenerator[dict[str, Any], None]) -> AsyncIterator[bytes]: ...


class ChatApi:
    """Chat completions: the body goes upstream as it came (less the gateway's own metadata), answers as OpenAI's."""

    def read(self, body: dict[str, Any]) -> tuple[str, list[dict[str, Any]], dict[str, Any]]:
        model, messages = validate_chat(body)
        return model, messages, body

    def passed(self, call: ChatCall, completion: Completion) -> Response:
        return Response(completion.raw, media_type="application/json", headers=call.headers)

    def released(self, call: ChatCall, rel: Release, completion: dict[str, Any]) -> Response:
        return release.as_json(rel, completion, call.headers)

    def events(self, call: ChatCall, chunks: AsyncGenerator[dict[str, Any], None]) -> AsyncIterator[bytes]:
        return sse.encode(chunks)


CHAT = ChatApi()


async def chat_completions(request: Request) -> Response:
    return await serve(request, CHAT)


async def serve(request: Request, api: Api) -> Response:
    """One request on the chat path, read and written back by ``api``."""
    gw: Gateway = request.app.state.gateway
    started = time.perf_counter()
    created = datetime.now(UTC)
    request_id = new_request_id()
    headers = id_headers(request, request_id)
    x = exchange(request, "proxy", request_id)
    try:
        key = gw.keys.authenticate(request.headers)
        x.tenant = key.tenant if key else None
        body = await gw.read_body(request)
        requested, messages, chat_body = api.read(body)
        check_model(key, requested)  # before the lookup: a key learns nothing of models it may not use
        upstream = gw.models.get(requested)
        # only configured names (and at most 50 names a wildcard matched) become metric labels
        model = x.model = gw.checked_models(requested)
        spec = resolve(gw.policies, model, request.headers, gw.override_for(key))
        mode = x.mode = spec.mode.value
        check_choices(chat_body, spec)
        documents = allowed_documents(request_documents(body, gw.settings.max_documents), spec, "metadata.factsentry")
        conversation = conversation_documents(messages, spec.conversation, gw.settings.max_documents)
        about = About(subject_name(request, body), documents, conversation)
        call = ChatCall(request_id, created, headers, x, upstream, spec, about, for_upstream(chat_body), messages)
        if call.body.get("stream"):
            x.stream = True
            return await _stream(gw, call, api)
        t0 = time.perf_counter()
        completion = await upstream.complete(call.body)
        upstream_s = x.upstream_s = time.perf_counter() - t0
        gw.metrics.upstream_seconds.labels(model).observe(upstream_s)
        published = gw.publisher.publish(call.generation(completion.text, completion.usage, stream=False))
        if spec.mode is Policy.OBSERVE:
            gw.count(x)
            gw.metrics.added_seconds.labels(model, mode).observe(time.perf_counter() - started - upstream_s)
            return api.passed(call, completion)
        t1 = time.perf_counter()
        result, status, action = await gw.judge(spec, request_id, model, published)
        wait_s = x.wait_s = time.perf_counter() - t1
        gw.metrics.verdict_wait_seconds.labels(model).observe(wait_s)
        extra: dict[str, Any] = {}
        verdict_id = request_id
        if spec.reask and action is not Action.PASS and result is not None:
            again = await reask(gw, call, completion, result)
            x.wait_s = wait_s = time.perf_counter() - t1 - again.upstream_s  # a second check is waiting too
            x.upstream_s = upstream_s = upstream_s + again.upstream_s
            extra["reask"] = again.body()
            headers["x-factsentry-reask"] = again.outcome
            if again.request_id:
                headers["x-factsentry-reask-id"] = again.request_id
            if again.won is not None:
                completion, result, status, action = again.won
                verdict_id = again.request_id or request_id
        rel = gw.release(Decision(spec, result, status, action, verdict_id, extra=extra), model, call.question)
        x.result, x.outcome = result, _outcome(rel.action, result, status)
        gw.count(x)
        # The proxy's own overhead in every mode; the verdict wait has its own histogram.
        gw.metrics.added_seconds.labels(model, mode).observe(time.perf_counter() - started - upstream_s - wait_s)
        return api.released(call, rel, completion.data)
    except GatewayError as e:
        return gw.refused(x, e, headers)


def _outcome(action: Action, result: ResultMessage | None, status: str) -> str:
    """The access log's and request counter's outcome: the action taken on a verdict, else why there is none."""
    if result is None:
        return status
    return "partial" if result.check.partial and action is Action.PASS else action.value


async def _stream(gw: Gateway, call: ChatCall, api: Api) -> Response:
    x, model, headers = call.x, call.model, call.headers
    headers["cache-control"] = "no-cache"
    chunks = call.upstream.stream(call.body)
    t0 = time.perf_counter()
    first = await anext(chunks, None)  # errors before the first byte keep their HTTP status

    if call.spec.mode is Policy.OBSERVE:
        passthrough = _passthrough(gw, call, chunks, first, t0)
        return StreamingResponse(api.events(call, passthrough), media_type="text/event-stream", headers=headers)

    if call.spec.stream == "holdback" and call.spec.mode in (Policy.BLOCK, Policy.REVISE):
        return _holdback(gw, call, api, chunks, first, t0)

    # Other modes never let unverified text out: buffer, wait for the verdict, then stream what the policy allows.
    held = [first] if first is not None else []
    async for chunk in chunks:
        held.append(chunk)
    x.upstream_s = time.perf_counter() - t0
    gw.metrics.upstream_seconds.labels(model).observe(x.upstream_s)
    usage: dict[str, Any] = {}
    for chunk in held:
        if isinstance(chunk.get("usage"), dict):
            usage.update(chunk["usage"])
    text = "".join(sse.delta_text(c) for c in held)
    published = gw.publisher.publish(call.generation(text, usage, stream=True))
    t1 = time.perf_counter()
    result, status, action = await gw.judge(call.spec, call.request_id, model, published)
    x.wait_s = time.perf_counter() - t1
    gw.metrics.verdict_wait_seconds.labels(model).observe(x.wait_s)
    rel = gw.release(Decision(call.spec, result, status, action, call.request_id), model, call.question)
    x.result, x.outcome = result, _outcome(rel.action, result, status)
    gw.count(x)
    headers.update(rel.headers)
    if rel.error:
        return api.released(call, rel, {})
    created = int(call.created.timestamp())
    usage_out = usage if call.usage_requested else None
    out = release.as_chunks(rel, held, request_id=call.request_id, model=model, created=created, usage=usage_out)

    async def replay() -> AsyncGenerator[dict[str, Any], None]:
        for chunk in out:
            yield chunk

    return StreamingResponse(api.events(call, replay()), media_type="text/event-stream", headers=headers)


async def _passthrough(
    gw: Gateway, call: ChatCall, chunks: AsyncIterator[dict[str, Any]], first: dict[str, Any] | None, t0: float
) -> AsyncGenerator[dict[str, Any], None]:
    """Observe: the upstream's events as they come; the answer is published when the stream ends (or stops)."""
    x = call.x
    text: list[str] = []
    usage: dict[str, Any] = {}
    outcome = "client_closed"  # unless the stream ends or fails first
    try:
        if first is not None:
            text.append(sse.delta_text(first))
            if isinstance(first.get("usage"), dict):
                usage.update(first["usage"])
            yield first
        async for chunk in chunks:
            text.append(sse.delta_text(chunk))
            if isinstance(chunk.get("usage"), dict):
                usage.update(chunk["usage"])
            yield chunk
        outcome = "ok"
    except GatewayError as e:
        outcome = e.outcome
        raise  # the renderer writes it as an error event
    finally:
        x.outcome, x.upstream_s = outcome, time.perf_counter() - t0
        gw.count(x)
        gw.metrics.upstream_seconds.labels(call.model).observe(x.upstream_s)
        message = call.generation("".join(text), usage, stream=True)
        message.truncated = outcome != "ok"
        gw.publisher.publish(message)


def _holdback(
    gw: Gateway,
    call: ChatCall,
    api: Api,
    chunks: AsyncIterator[dict[str, Any]],
    first: dict[str, Any] | None,
    t0: float,
) -> Response:
    """Sentence hold-back: each sentence released once its facts are verified (gateway/holdback.py)."""
    x, model, spec = call.x, call.model, call.spec
    usage: dict[str, Any] = {}

    async def judge(text: str, rid: str, final: bool) -> tuple[ResultMessage | None, str, Action]:
        message = call.generation(text, usage, stream=True, request_id=rid)
        if not final:
            message.partial_of = call.request_id
        return await gw.judge(spec, rid, model, gw.publisher.publish(message))

    checker = holdback.Holdback(spec, call.request_id, judge)

    async def counted() -> AsyncIterator[dict[str, Any]]:
        async for chunk in chunks:
            if isinstance(chunk.get("usage"), dict):
                usage.update(chunk["usage"])
            yield chunk

    async def on_done(text: str) -> release.Release:
        x.upstream_s = time.perf_counter() - t0
        result, status, _ = checker.last or (None, "failed", Action.BLOCK)
        decided = checker.decided
        action = Action.BLOCK if decided.stopped else Action.REVISE if decided.dropped else Action.PASS
        extra = {
            "holdback": {
                "checks": checker.checks,
                "released_sentences": len(decided.released),
                "withheld_sentences": decided.dropped + (1 if decided.stopped else 0),
                "released_unchecked": decided.unchecked,
            }
        }
        marker = holdback.withheld(decided.reason) if decided.stopped else None
        decision = Decision(spec, result, status, action, checker.last_id, streamed=True, refusal=marker, extra=extra)
        rel = gw.release(decision, model, call.question)
        x.result, x.outcome = result, _outcome(rel.action, result, status)
        gw.count(x)
        return rel

    def on_closed(text: str, final_check_started: bool, outcome: str) -> None:
        """The client dropped the stream before its end: what was received is still published as the
        answer under the request's own id (marked truncated), so it gets its whole-answer verdict, and the
        request is counted by ``outcome`` (client_closed; the final check, if it began, publishes it already)."""
        x.upstream_s = time.perf_counter() - t0
        if not final_check_started:
            message = call.generation(text, usage, stream=True)
            message.truncated = True
            gw.publisher.publish(message)
        x.outcome = outcome
        gw.count(x)

    upstream_id = (first or {}).get("id")
    stream_id = upstream_id if isinstance(upstream_id, str) else call.request_id
    body = holdback.stream(
        counted(),
        first,
        checker,
        stream_id=stream_id,
        model=model,
        created=int(call.created.timestamp()),
        on_done=on_done,
        usage=lambda: usage if call.usage_requested else None,
        on_closed=on_closed,
    )
    call.headers["x-factsentry-stream"] = "holdback"
    return StreamingResponse(api.events(call, body), media_type="text/event-stream", headers=call.headers)
