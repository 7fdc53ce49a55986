"""The release gate: one function turns a decision on an answer into what leaves the gateway.

``policy.decide`` says pass, revise or block; :func:`release` says what that means for the client — the text
that replaces the answer (a revision, or none), the refusal, the ``finish_reason``, the ``x-factsentry-*``
headers and the ``factsentry`` object — and nothing else decides it. The JSON route (:func:`as_json`), SSE
(:func:`as_chunks`), hold-back (its last chunks, :func:`final_chunks`) and the LiteLLM guardrail API
(:func:`as_guardrail`) only render a :class:`Release`.

What leaves under each action (one vocabulary in headers, body and the access log):

- ``pass``: the answer as the model wrote it, with the verdict attached (annotate's every answer);
- ``revise``: the verdict's revision instead of the answer;
- ``block``: a refusal saying what happened — in ``refusal`` with ``content`` null, as OpenAI sends one
  (``FACTSENTRY_REFUSAL_IN_CONTENT``: in ``content`` too) and ``finish_reason: content_filter``, or an
  HTTP 422 (``FACTSENTRY_BLOCK_STYLE=error``). Never the answer, and never its suggested revision unless
  the operator opted in (``FACTSENTRY_SEND_REVISION``): the review page and ``/v1/results`` keep both.

A policy's ``shadow`` never changes the action: the ``factsentry`` object only gains ``would``, what the
shadow policy would have done (observe answers carry no ``factsentry`` object; their ``would`` is on the
stored verdict).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from starlette.responses import Response

from gateway import sse
from gateway.errors import BlockedAnswer
from gateway.policy import Action, PolicySpec, verdict_headers, would
from gateway.settings import GatewaySettings
from schemas.enums import Policy, Verdict, Worthiness
from schemas.messages import ResultMessage

# What a refusal says happened, by why the answer was not released (see ``refusal_reason``).
REFUSALS = {
    "conflated": (
        "I can't give that answer: an automatic fact-check found that it merges different people into one "
        "(D-FActScore {score:.2f} below {threshold:.2f})."
    ),
    "unsupported": (
        "I can't give that answer: an automatic fact-check found {count} statement{s} in it that its sources do "
        "not support (D-FActScore {score:.2f} below {threshold:.2f})."
    ),
    "unverifiable": "I can't give that answer: it could not be checked against the knowledge this assistant relies on.",
    "partial": (
        "I can't give that answer: it is longer than the fact-checker reads, and the part it could not check "
        "cannot be released."
    ),
    "timeout": "I can't give that answer: it could not be fact-checked in time.",
    "failed": "I can't give that answer: it could not be fact-checked (the check failed).",
    "unavailable": "I can't give that answer: it could not be fact-checked (the fact-checker is unavailable).",
}


@dataclass(frozen=True)
class Decision:
    """What the policy decided for one answer: its verdict (or ``status``, why there is none) and ``action``.

    ``request_id`` is the verdict's id (its ``/v1/results`` URL). ``streamed``: the answer already went out
    sentence by sentence (hold-back), so nothing replaces it; ``refusal`` then is the marker that ended it."""

    spec: PolicySpec
    result: ResultMessage | None
    status: str
    action: Action
    request_id: str
    streamed: bool = False
    refusal: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Release:
    """What leaves the gateway for one answer."""

    action: Action
    content: str | None  # replaces the answer's text when ``replaced`` (null for a refusal, as OpenAI sends it)
    refusal: str | None
    finish_reason: str | None  # None: the answer's own
    headers: dict[str, str]
    factsentry: dict[str, Any]
    error: bool = False  # blocked with FACTSENTRY_BLOCK_STYLE=error: an HTTP 422 instead of a refusal

    @property
    def replaced(self) -> bool:
        """Whether the answer's own text is replaced (by a revision or a refusal)."""
        return self.action is not Action.PASS


def release(decision: Decision, settings: GatewaySettings) -> Release:
    """The one place that turns a decision into what the client receives."""
    spec, result, status = decision.spec, decision.result, decision.status
    action = decision.action
    revision = result.check.revision.text if result is not None and result.check.revision is not None else None
    if action is Action.REVISE and not decision.streamed and not (revision and revision.strip()):
        action = Action.BLOCK  # nothing to revise with: a revise policy refuses
    headers = {**verdict_headers(result, status), "x-factsentry-action": action.value}
    shows = action is Action.REVISE or spec.mode is Policy.ANNOTATE or settings.send_revision
    factsentry = {**verdict_body(result, decision.request_id, action, status, spec.threshold, shows), **decision.extra}
    if spec.shadow is not None:
        factsentry["would"] = shadow_verdict(spec, result, status)
    if action is Action.PASS:
        return Release(action, None, None, None, headers, factsentry)
    if decision.streamed:
        # Hold-back: what went out stays out; a stop ends the answer with its marker.
        if decision.refusal is None:
            return Release(action, None, None, None, headers, factsentry)
        content = decision.refusal if settings.refusal_in_content else None
        return Release(action, content, decision.refusal, "content_filter", headers, factsentry)
    if action is Action.REVISE:
        return Release(action, revision, None, None, headers, factsentry)
    refusal = decision.refusal or refusal_text(spec, result, status)
    content = refusal if settings.refusal_in_content else None
    return Release(
        action, content, refusal, "content_filter", headers, factsentry, error=settings.block_style == "error"
    )


def shadow_verdict(spec: PolicySpec, result: ResultMessage | None, status: str) -> dict[str, Any] | None:
    """What ``spec``'s shadow policy would have done: the verdict's own record (the worker decided it), else
    decided here with the same function (a verdict from a worker that did not, or no verdict: ``status``)."""
    shadow = spec.shadow_policy()
    if shadow is None:
        return None
    recorded = result.would if result is not None else None
    return (recorded or would(shadow, result, status)).model_dump(mode="json")


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
    suggested revision goes too (see :func:`release`)."""
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
        "reason": check.reason,
        "language": check.language,
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


def unsupported_statements(result: ResultMessage) -> list[str]:
    """The check-worthy facts of a verdict that its linked pages do not support, in answer order."""
    out: list[str] = []
    for group in result.check.groups:
        for fact in group.facts:
            linked = fact.verdict_linked if fact.verdict_linked is not None else fact.verdict
            if fact.worthiness is Worthiness.FACTUAL and linked is Verdict.NOT_SUPPORTED and fact.text not in out:
                out.append(fact.text)
    return out


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


# --- renderers: each only writes a Release in its own format ---


def as_json(
    rel: Release,
    completion: dict[str, Any],
    headers: dict[str, str],
    reshape: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> Response:
    """A non-streamed chat completion: the upstream's, with choice 0 replaced as the release says (``reshape``:
    written in another API's shape, gateway/responses.py)."""
    headers.update(rel.headers)
    if rel.error:
        return BlockedAnswer(rel.refusal or "", code="factsentry_blocked").response(headers)
    data = dict(completion)
    if rel.replaced:
        choices = data.get("choices") or [{"index": 0, "message": {"role": "assistant"}}]
        first = dict(choices[0])
        # The message is replaced whole: a blocked or revised answer's tool calls (and its annotations, audio …)
        # go with its text, as a buffered stream's replacement drops them.
        first["message"] = {"role": "assistant", "content": rel.content, "refusal": rel.refusal}
        if rel.finish_reason:
            first["finish_reason"] = rel.finish_reason
        elif first.get("finish_reason") in ("tool_calls", "function_call"):
            first["finish_reason"] = "stop"
        data["choices"] = [first, *choices[1:]]
    data["factsentry"] = rel.factsentry
    if reshape is not None:
        data = reshape(data)
    return Response(orjson.dumps(data), media_type="application/json", headers=headers)


def as_chunks(
    rel: Release,
    held: list[dict[str, Any]],
    *,
    request_id: str,
    model: str,
    created: int,
    usage: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """A buffered stream's chunks: the held upstream chunks that have a choice (pass) or the replacement, the
    verdict on the finishing chunk, then the usage chunk when the client asked for it (``usage``)."""
    if not rel.replaced:
        out = [c for c in held if c.get("choices")]
    elif rel.refusal is not None:
        out = sse.text_chunks(
            rel.refusal,
            request_id=request_id,
            model=model,
            finish_reason=rel.finish_reason or "content_filter",
            created=created,
            refusal=True,
            in_content=rel.content is not None,
        )
    else:
        out = sse.text_chunks(rel.content or "", request_id=request_id, model=model, created=created)
    # One id for the whole stream (OpenAI's convention): the upstream's when its chunks are released.
    stream_id = next((c["id"] for c in out if isinstance(c.get("id"), str)), request_id)
    base = {"id": stream_id, "object": "chat.completion.chunk", "created": created, "model": model}
    return [*with_verdict(out, rel, base), *usage_chunk(base, usage)]


def final_chunks(
    rel: Release,
    base: dict[str, Any],
    with_role: bool,
    usage: dict[str, Any] | None = None,
    finish: str | None = None,
) -> list[dict[str, Any]]:
    """The last chunks of a hold-back stream: the stop marker (a refusal delta) if the release has one, the
    finishing chunk with the verdict (``finish``: its reason when the release sets none, e.g. ``tool_calls``
    after the tool calls the stream released), then the usage chunk when the client asked for it."""
    out: list[dict[str, Any]] = []
    if rel.refusal is not None:
        delta: dict[str, Any] = {"content": rel.content, "refusal": rel.refusal}
        if with_role:
            delta["role"] = "assistant"
        out.append({**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]})
    reason = rel.finish_reason or finish or "stop"
    out.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": reason}]})
    return [*with_verdict(out, rel, base), *usage_chunk(base, usage)]


def with_verdict(chunks: list[dict[str, Any]], rel: Release, base: dict[str, Any]) -> list[dict[str, Any]]:
    """``chunks`` with the ``factsentry`` object on the one that finishes choice 0: a chunk every client reads
    (the canonical loop reads ``chunk.choices[0]`` of every chunk). Without a finishing chunk, one is added."""
    last = next(
        (i for i in range(len(chunks) - 1, -1, -1) if (chunks[i].get("choices") or [{}])[0].get("finish_reason")),
        None,
    )
    if last is None:
        finish = {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}], "factsentry": rel.factsentry}
        return [*chunks, finish]
    return [*chunks[:last], {**chunks[last], "factsentry": rel.factsentry}, *chunks[last + 1 :]]


def usage_chunk(base: dict[str, Any], usage: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The usage chunk OpenAI sends last for ``stream_options.include_usage`` (no choices), in every mode."""
    return [{**base, "choices": [], "usage": usage}] if usage else []


def as_guardrail(texts: list[str], checked: dict[int, Release], send_revision: bool) -> dict[str, Any]:
    """LiteLLM's reply for one answer of several choices (``checked``: the release of each checked text by its
    index): any text blocked blocks the whole answer (``BLOCKED`` with the first refusal), revisions replace
    their own text (``GUARDRAIL_INTERVENED``), else ``NONE``. A blocked reply carries no revision."""
    releases = list(checked.values())
    blocked = next((r for r in releases if r.action is Action.BLOCK), None)
    if blocked is not None:
        verdicts = [r.factsentry if send_revision else _without_revision(r.factsentry) for r in releases]
        return {"action": "BLOCKED", "blocked_reason": blocked.refusal, "factsentry": verdicts, **_headers(blocked)}
    verdicts = [r.factsentry for r in releases]
    if all(r.action is Action.PASS for r in releases):
        return {"action": "NONE", "factsentry": verdicts, **_headers(releases[0])}
    revised = list(texts)
    for i, r in checked.items():
        if r.action is Action.REVISE and r.content is not None:
            revised[i] = r.content
    deciding = next(r for r in releases if r.action is Action.REVISE)
    return {"action": "GUARDRAIL_INTERVENED", "texts": revised, "factsentry": verdicts, **_headers(deciding)}


def _headers(rel: Release) -> dict[str, dict[str, str]]:
    """The ``x-factsentry-*`` headers of the verdict that decided a guardrail reply, with its request id: what
    factsentry.litellm_guardrail hands to LiteLLM's client."""
    return {"headers": {**rel.headers, "x-factsentry-request-id": rel.factsentry["request_id"]}}


def _without_revision(factsentry: dict[str, Any]) -> dict[str, Any]:
    return {**factsentry, "revision": None} if "revision" in factsentry else factsentry
