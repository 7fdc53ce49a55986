"""factsentry as a LiteLLM ``CustomGuardrail`` class, for LiteLLM proxies that load guardrails as Python.

    guardrails:
      - guardrail_name: factsentry
        litellm_params:
          guardrail: factsentry.litellm_guardrail.FactSentryGuardrail
          mode: post_call
          default_on: true
          api_base: http://factsentry-gateway:8080   # the factsentry gateway
          api_key: os.environ/FACTSENTRY_API_KEY      # when its API keys are on
          unreachable_fallback: fail_closed           # or fail_open: pass answers when factsentry is down

The class sends each answer to the gateway's Generic Guardrail API endpoint, so the factsentry policy
of the model (threshold, on_timeout, on_unverifiable, revise) decides, as for any other route: a
blocked answer raises LiteLLM's ``GuardrailRaisedException`` (LiteLLM answers 400 with factsentry's
reason), a revised one comes back as the revision. A streamed answer is held whole and checked once
at its end (``streaming_end_of_stream_only`` and ``streaming_transform_mode: incremental_diff`` are
this class's defaults), so no unchecked text reaches a streaming client. Prompts are not fact-checked.

Beyond LiteLLM's own ``generic_guardrail_api`` hook, the class sends the alias the client asked for (the
``model_name`` of LiteLLM's config, as ``model_group``: factsentry keys policies and metrics on it when its
operator names it) and hands the deciding verdict's ``x-factsentry-*`` headers (request id, status, action,
scores) to LiteLLM's client through ``async_post_call_response_headers_hook``, a blocked answer's error too.
A stream's headers leave before its end-of-stream check, so a streamed answer carries none.
"""

from __future__ import annotations

from typing import Any, Literal

import httpx
from litellm.exceptions import GuardrailRaisedException
from litellm.integrations.custom_guardrail import CustomGuardrail

PATH = "/beta/litellm_basic_guardrail_api"
# Where apply_guardrail leaves the verdict's headers in LiteLLM's request data for the response headers hook.
HEADERS_KEY = "factsentry_headers"


class FactSentryGuardrail(CustomGuardrail):
    def __init__(
        self,
        api_base: str | None = None,
        api_key: str | None = None,
        unreachable_fallback: Literal["fail_open", "fail_closed"] = "fail_closed",
        additional_provider_specific_params: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        if not api_base:
            raise ValueError("the factsentry guardrail needs api_base: the URL of the factsentry gateway")
        if unreachable_fallback not in ("fail_open", "fail_closed"):
            raise ValueError(f"unreachable_fallback must be fail_open or fail_closed, not {unreachable_fallback!r}")
        self.url = api_base.rstrip("/") + PATH
        self.api_key = api_key
        self.fail_open = unreachable_fallback == "fail_open"
        self.params = additional_provider_specific_params or {}
        # LiteLLM reads these from the guardrail: hold a stream whole and check it once at its end, so no
        # unchecked text reaches a streaming client (the safe default; set them in litellm_params to change).
        self.streaming_end_of_stream_only = bool(kwargs.pop("streaming_end_of_stream_only", True))
        self.streaming_transform_mode = kwargs.pop("streaming_transform_mode", "incremental_diff")
        timeout = kwargs.get("timeout") or 60.0
        self.http = httpx.AsyncClient(timeout=httpx.Timeout(float(timeout), connect=5.0))
        super().__init__(**kwargs)

    async def apply_guardrail(  # type: ignore[override]
        self, inputs: dict[str, Any], request_data: dict[str, Any], input_type: str, logging_obj: Any = None
    ) -> dict[str, Any]:
        texts = inputs.get("texts")
        if input_type != "response" or not texts:
            return inputs
        payload = {
            "input_type": input_type,
            "texts": texts,
            "model": inputs.get("model") or request_data.get("model"),
            "model_group": model_alias(request_data),
            "litellm_call_id": request_data.get("litellm_call_id"),
            "additional_provider_specific_params": self.params,
        }
        headers = {"x-api-key": self.api_key} if self.api_key else {}
        try:
            response = await self.http.post(self.url, json=payload, headers=headers)
        except httpx.HTTPError as e:
            return self._unreachable(inputs, f"{type(e).__name__}: {e}")
        if response.status_code in (502, 503, 504):
            return self._unreachable(inputs, f"HTTP {response.status_code}")
        if response.status_code != 200:
            # A refused call (bad key, bad request) is a configuration error, never a silent pass.
            raise GuardrailRaisedException(
                self.guardrail_name,
                f"factsentry refused the check: HTTP {response.status_code} {response.text[:300]}",
                should_wrap_with_default_message=False,
                status_code=500,
            )
        verdict = response.json()
        request_data[HEADERS_KEY] = verdict_headers(verdict)
        action = verdict.get("action", "NONE")
        if action == "BLOCKED":
            raise GuardrailRaisedException(
                self.guardrail_name,
                verdict.get("blocked_reason") or "blocked by factsentry",
                should_wrap_with_default_message=False,
                blocked_content=True,
            )
        if action == "GUARDRAIL_INTERVENED" and isinstance(verdict.get("texts"), list):
            return {**inputs, "texts": verdict["texts"]}
        return inputs

    async def async_post_call_response_headers_hook(
        self,
        data: dict[str, Any],
        user_api_key_dict: Any,
        response: Any,
        request_headers: dict[str, str] | None = None,
        litellm_call_info: dict[str, object] | None = None,
    ) -> dict[str, str] | None:
        """The verdict's ``x-factsentry-*`` headers on LiteLLM's response to its client (a blocked one too)."""
        headers = data.get(HEADERS_KEY)
        return dict(headers) if isinstance(headers, dict) else None

    def _unreachable(self, inputs: dict[str, Any], why: str) -> dict[str, Any]:
        if self.fail_open:
            return inputs
        raise GuardrailRaisedException(
            self.guardrail_name,
            f"factsentry is unreachable ({why}); the guardrail fails closed",
            should_wrap_with_default_message=False,
            status_code=503,
        )


def model_alias(request_data: dict[str, Any]) -> str | None:
    """The name the client asked LiteLLM for: the ``model_name`` of LiteLLM's config (its model group), which
    factsentry keys policies and metrics on when its operator names it; None outside a LiteLLM proxy call."""
    for where in ("metadata", "litellm_metadata"):
        metadata = request_data.get(where)
        group = metadata.get("model_group") if isinstance(metadata, dict) else None
        if isinstance(group, str):
            return group
    model = request_data.get("model")
    return model if isinstance(model, str) else None


def verdict_headers(reply: dict[str, Any]) -> dict[str, str]:
    """The ``x-factsentry-*`` headers of factsentry's reply (the deciding verdict's scores, status, action and
    request id), for LiteLLM to send its client; nothing else the reply might carry."""
    headers = reply.get("headers")
    if not isinstance(headers, dict):
        return {}
    return {k: v for k, v in headers.items() if isinstance(v, str) and str(k).startswith("x-factsentry-")}
