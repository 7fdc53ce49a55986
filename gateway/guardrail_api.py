"""LiteLLM's Generic Guardrail API: ``POST /beta/litellm_basic_guardrail_api``.

A LiteLLM proxy configured with ``guardrail: generic_guardrail_api`` (``mode: post_call``) sends each
answer here as ``{"input_type": "response", "texts": [...], "model": ..., ...}`` and acts on the reply:
``NONE`` lets the answer through, ``GUARDRAIL_INTERVENED`` replaces it with ``texts``, ``BLOCKED``
refuses it with ``blocked_reason`` (LiteLLM answers its client with a 400). This endpoint publishes
each text like a generation (``source = guardrail_api``), waits for the verdict and lets the factsentry
policy of that model decide, exactly as the proxy route does:

- observe / annotate: ``NONE`` at once (the verdict is computed and stored, nothing waits for it);
- block: ``BLOCKED`` below the threshold, and without a verdict when on_timeout/on_unavailable is closed;
- revise: ``GUARDRAIL_INTERVENED`` with the revision, ``BLOCKED`` when there is none to give.

The policy and the metric labels are those of LiteLLM's model alias (``model_group``: the ``model_name`` a team
configured in LiteLLM) when the call names one the operator knows (policy file or model list), else of the
provider model (``model``). LiteLLM's own ``generic_guardrail_api`` hook sends only the provider model and keeps
only ``action``, ``texts`` and ``blocked_reason`` of the reply; factsentry.litellm_guardrail sends the alias too
and hands the reply's ``headers`` (the verdict's ``x-factsentry-*`` headers and request id) to LiteLLM's client.

Requests (``input_type: request``) are not fact-checked: ``NONE``. The LiteLLM guardrail's
``additional_provider_specific_params`` may carry ``policy``, ``threshold`` and ``timeout_s`` (as the
``x-factsentry-*`` headers: by default only stricter than the model's policy) and ``name`` (the subject).
Keys: ``x-api-key`` (LiteLLM's ``api_key``) or ``Authorization: Bearer``; the key needs /v1/factcheck rights.
"""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response

from gateway import release
from gateway.access import exchange
from gateway.auth import check_model
from gateway.errors import Forbidden, GatewayError, InvalidRequest
from gateway.policy import Action, resolve
from gateway.release import Decision
from gateway.request import MODEL_NAME, UNSPECIFIED_MODEL, id_headers, new_request_id
from gateway.state import Gateway
from schemas.enums import Policy
from schemas.messages import GenerationMessage, ResultMessage

MAX_TEXTS = 16  # one per choice; LiteLLM sends one text per choice of the answer

# additional_provider_specific_params → the per-request header it stands for
PARAM_HEADERS = {
    "policy": "x-factsentry-policy",
    "threshold": "x-factsentry-threshold",
    "timeout_s": "x-factsentry-timeout",
}


async def litellm_guardrail(request: Request) -> Response:
    gw: Gateway = request.app.state.gateway
    request_id = new_request_id()
    headers = id_headers(request, request_id)
    x = exchange(request, "guardrail_api", request_id)
    try:
        key = gw.keys.authenticate(_with_bearer(request.headers))
        x.tenant = key.tenant if key else None
        if key is not None and not key.factcheck:
            raise Forbidden(
                f"the API key of tenant {key.tenant!r} may not submit texts for checking", code="factcheck_not_allowed"
            )
        body = await gw.read_body(request)
        input_type = body.get("input_type")
        if input_type not in ("request", "response"):
            # Without it the call cannot say whether it carries an answer: refused, never passed unchecked.
            raise InvalidRequest(
                f"'input_type' must be 'request' or 'response', not {input_type!r}",
                param="input_type",
                code="invalid_input_type",
            )
        texts = _texts(body)
        params = body.get("additional_provider_specific_params") or {}
        if not isinstance(params, dict):
            raise InvalidRequest(
                "'additional_provider_specific_params' must be an object", param="additional_provider_specific_params"
            )
        model = _model(gw, body)
        check_model(key, model)
        x.model = gw.model_label(model)
        overrides = {h: str(params[p]) for p, h in PARAM_HEADERS.items() if params.get(p) is not None}
        try:
            spec = resolve(gw.policies, model, overrides, gw.override_for(key))
        except InvalidRequest as e:  # say which parameter, not which header it stands for
            for param, header in PARAM_HEADERS.items():
                e.message = e.message.replace(f"header {header}", f"additional_provider_specific_params.{param}")
                e.message = e.message.replace(header, f"additional_provider_specific_params.{param}")
                if e.param == header:
                    e.param = f"additional_provider_specific_params.{param}"
            raise
        x.mode = spec.mode.value
        todo = [i for i, text in enumerate(texts) if text.strip()]  # blank choices have nothing to check
        if input_type == "request" or not todo:
            gw.count(x)  # prompts are not fact-checked; nothing to check is nothing to act on
            return _reply({"action": "NONE"}, headers)
        name = params.get("name") if isinstance(params.get("name"), str) else None
        ids = [request_id] if len(todo) == 1 else [f"{request_id}.{i}" for i in todo]
        now = datetime.now(UTC)
        published = [
            gw.publisher.publish(
                GenerationMessage(
                    request_id=rid,
                    model=x.model,
                    answer=texts[i],
                    created_at=now,
                    completed_at=now,
                    policy=spec.mode,
                    name=name,
                    tenant=x.tenant,
                    source="guardrail_api",
                    engine=spec.engine,
                    shadow=spec.shadow_policy(),
                )
            )
            for rid, i in zip(ids, todo, strict=True)
        ]
        if spec.mode not in (Policy.BLOCK, Policy.REVISE):
            gw.count(x)
            verdict_ids = {"x-factsentry-request-id": ",".join(ids)}
            return _reply({"action": "NONE", "factsentry": {"request_ids": ids}, "headers": verdict_ids}, headers)
        t1 = time.perf_counter()
        judged = await asyncio.gather(
            *(gw.judge(spec, rid, x.model, ok) for rid, ok in zip(ids, published, strict=True))
        )
        x.wait_s = time.perf_counter() - t1
        releases = {
            i: gw.release(Decision(spec, result, status, action, rid), x.model)
            for i, rid, (result, status, action) in zip(todo, ids, judged, strict=True)
        }
        reply = release.as_guardrail(texts, releases, gw.settings.send_revision)
        results = [r for r, _, _ in judged]
        x.result = results[0] if len(results) == 1 else None
        x.outcome = _outcome(judged, list(releases.values()))
        gw.count(x)
        return _reply(reply, headers)
    except GatewayError as e:
        return gw.refused(x, e, headers)


def _model(gw: Gateway, body: dict[str, Any]) -> str:
    """The model whose policy decides and whose name labels the metrics: LiteLLM's alias (``model_group``, the
    ``model_name`` of its config, sent by factsentry.litellm_guardrail) when the operator names it in the policy
    file or the model list, else the provider model LiteLLM called (``model``)."""
    provider, alias = _model_name(body, "model"), _model_name(body, "model_group")
    if alias is not None and alias in gw.known_models:
        return alias
    return provider or UNSPECIFIED_MODEL


def _model_name(body: dict[str, Any], field: str) -> str | None:
    name = body.get(field)
    if not name:
        return None
    if not isinstance(name, str) or not MODEL_NAME.fullmatch(name):
        raise InvalidRequest(f"'{field}' must be a model name", param=field, code="invalid_type")
    return name


def _outcome(judged: list[tuple[ResultMessage | None, str, Action]], releases: list[release.Release]) -> str:
    actions = {r.action for r in releases}
    worst = Action.BLOCK if Action.BLOCK in actions else Action.REVISE if Action.REVISE in actions else Action.PASS
    missing = next((status for result, status, _ in judged if result is None), None)
    return worst.value if missing is None else missing


def _texts(body: dict[str, Any]) -> list[str]:
    texts = body.get("texts")
    if texts is None:
        return []
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise InvalidRequest("'texts' must be an array of strings", param="texts", code="invalid_type")
    if len(texts) > MAX_TEXTS:
        raise InvalidRequest(f"at most {MAX_TEXTS} texts per call", param="texts", code="too_many_texts")
    return texts


def _with_bearer(headers: Any) -> dict[str, str]:
    """LiteLLM sends the guardrail's ``api_key`` as ``x-api-key``: read it like a bearer token."""
    found = {"authorization": headers.get("authorization", "")}
    if not found["authorization"] and headers.get("x-api-key"):
        found["authorization"] = "Bearer " + headers["x-api-key"]
    return found


def _reply(payload: dict[str, Any], headers: dict[str, str]) -> Response:
    return Response(orjson.dumps(payload), media_type="application/json", headers=headers)
