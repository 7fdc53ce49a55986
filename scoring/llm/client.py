"""The LLM judge: one chat call through litellm, with the model and credentials of the operator's model list.

The judge is configured by the operator, never by a request: a worker names a ``model_name`` of the
same litellm ``model_list`` YAML the gateway reads (``FACTSENTRY_MODELS_FILE`` +
``FACTSENTRY_JUDGE_MODEL``), and its ``litellm_params`` (provider model, ``api_base``, ``api_key``
as a value or ``os.environ/NAME``) are used as they are. A call that fails raises
:class:`scoring.errors.LLMCallError` with a ``kind``; :func:`scoring.llm.steps.ask` retries the
transient kinds with backoff and counts every failed attempt.

>>> judge = LiteLLMJudge.from_model_list(yaml.safe_load(open("models.yaml")), "judge")  # doctest: +SKIP
>>> reply = judge([{"role": "user", "content": "Say hi"}])  # doctest: +SKIP
>>> reply.text, reply.prompt_tokens, reply.completion_tokens, reply.cost_usd  # doctest: +SKIP
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any, ClassVar

import yaml

from scoring.errors import LLMCallError, ScoringError
from scoring.llm.reply import JudgeReply


class JudgeConfigError(ScoringError):
    """The judge model is not in the model list, or its entry cannot be used."""


@dataclass(frozen=True)
class LiteLLMJudge:
    """``complete(messages, schema=None) -> JudgeReply`` over litellm (the text, prompt and completion tokens,
    the cost by litellm's cost map); ``name`` is the label in results and metrics.

    The call's settings are the judge's defaults (``temperature`` 0, ``max_tokens``, ``timeout``, ``seed``)
    under the model-list entry's ``litellm_params``: an entry that sets any of them wins, it does not
    collide. With ``schema`` the reply is asked for as that JSON schema where the provider supports it
    (``litellm.supports_response_schema``), as a JSON object (JSON mode) otherwise; parameters a provider
    does not take are dropped (``drop_params``).
    """

    name: str
    params: Mapping[str, Any] = field(default_factory=dict)
    timeout_s: float = 30.0
    max_tokens: int = 4096
    seed: int = 0

    accepts_schema: ClassVar[bool] = True

    @classmethod
    def from_model_list(
        cls, config: Mapping[str, Any], name: str, env: Mapping[str, str] | None = None, timeout_s: float = 30.0
    ) -> LiteLLMJudge:
        """The entry ``model_name: name`` of a litellm ``model_list`` (``os.environ/`` references resolved)."""
        env = os.environ if env is None else env
        entries = [e for e in config.get("model_list") or [] if isinstance(e, Mapping)]
        names = [str(e.get("model_name")) for e in entries]
        for entry in entries:
            if entry.get("model_name") != name:
                continue
            params = dict(entry.get("litellm_params") or {})
            if not params.get("model"):
                raise JudgeConfigError(f"judge model {name!r}: its litellm_params has no 'model'")
            for key, value in list(params.items()):
                if isinstance(value, str) and value.startswith("os.environ/"):
                    var = value.removeprefix("os.environ/")
                    if var not in env:
                        raise JudgeConfigError(f"judge model {name!r}: {key} refers to {var}, which is not set")
                    params[key] = env[var]
            return cls(name, params, timeout_s)
        close = difflib.get_close_matches(name, names, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else f"; the list has: {', '.join(names) or 'nothing'}"
        raise JudgeConfigError(f"judge model {name!r} is not in the model list{hint}")

    @classmethod
    def load(cls, path: Path, name: str, timeout_s: float = 30.0) -> LiteLLMJudge:
        try:
            config = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except (OSError, yaml.YAMLError) as e:
            raise JudgeConfigError(f"models file {path}: {e}") from e
        if not isinstance(config, Mapping):
            raise JudgeConfigError(f"models file {path}: not a mapping with a model_list")
        return cls.from_model_list(config, name, timeout_s=timeout_s)

    def request(self, messages: list[dict[str, str]], schema: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The keyword arguments of the ``litellm.completion`` call."""
        call: dict[str, Any] = {
            "temperature": 0,
            "max_tokens": self.max_tokens,
            "timeout": self.timeout_s,
            "seed": self.seed,
            **self.params,
            "messages": messages,
            "max_retries": 0,  # retries are ``ask``'s, counted
            "num_retries": 0,
            "drop_params": True,
        }
        if schema is not None:
            call["response_format"] = _response_format(str(call["model"]), schema)
        return call

    def __call__(self, messages: list[dict[str, str]], schema: Mapping[str, Any] | None = None) -> JudgeReply:
        import litellm

        call = self.request(messages, schema)
        try:
            response = litellm.completion(**call)
        except Exception as e:  # litellm raises provider-specific errors; classify them
            raise LLMCallError(_kind(e), f"{self.name}: {type(e).__name__}: {str(e)[:200]}", _retry_after(e)) from e
        choice = response.choices[0]
        text = choice.message.content or ""
        finish = getattr(choice, "finish_reason", None)
        if finish == "length":
            # Cut at max_tokens: a fact list that stops early would silently drop facts, so the reply is not
            # used; the verify step asks again in smaller batches.
            raise LLMCallError("truncated", f"{self.name}: the reply was cut at max_tokens={call['max_tokens']}")
        if finish == "content_filter":
            raise LLMCallError("refused", f"{self.name}: the provider's content filter stopped the reply")
        usage = getattr(response, "usage", None)
        prompt = int(getattr(usage, "prompt_tokens", 0) or 0)
        completion = int(getattr(usage, "completion_tokens", 0) or 0)
        if not prompt and not completion:
            completion = int(getattr(usage, "total_tokens", 0) or 0)
        return JudgeReply(text, prompt, completion, cost(str(call["model"]), prompt, completion))


def cost(model: str, prompt_tokens: int, completion_tokens: int) -> float | None:
    """US dollars of one call by litellm's cost map; None for a model it does not know (a local one)."""
    import litellm

    try:
        p, c = litellm.cost_per_token(model=model, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)
    except Exception:  # litellm raises its own errors for unmapped models
        return None
    return float(p) + float(c)


def _response_format(model: str, schema: Mapping[str, Any]) -> dict[str, Any]:
    import litellm

    try:
        strict = bool(litellm.supports_response_schema(model=model))
    except Exception:  # an unknown model: JSON mode
        strict = False
    if strict:
        return {"type": "json_schema", "json_schema": {"name": "reply", "schema": dict(schema), "strict": True}}
    return {"type": "json_object"}


def _retry_after(e: Exception) -> float | None:
    """The seconds a provider's Retry-After header (seconds or an HTTP date) asks to wait, if it sent one."""
    headers: Any = getattr(e, "litellm_response_headers", None)
    if headers is None:
        response = getattr(e, "response", None)
        headers = getattr(response, "headers", None)
    if headers is None:
        return None
    try:
        value = headers.get("retry-after-ms")
        if value is not None:
            return max(0.0, float(value) / 1000)
        value = headers.get("retry-after")
    except Exception:
        return None
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        import datetime as dt

        return max(0.0, (parsedate_to_datetime(str(value)) - dt.datetime.now(dt.UTC)).total_seconds())
    except (TypeError, ValueError):
        return None


def _kind(e: Exception) -> str:
    from litellm import exceptions as x

    if getattr(e, "status_code", None) in (401, 403):
        return "auth"  # litellm reports some providers' 401 as a BadRequestError
    kinds: list[tuple[type[BaseException], str]] = [
        (x.RateLimitError, "rate_limit"),
        (x.Timeout, "timeout"),
        (x.AuthenticationError, "auth"),
        (x.PermissionDeniedError, "auth"),
        (x.ContextWindowExceededError, "bad_request"),
        (x.BadRequestError, "bad_request"),
        (x.NotFoundError, "bad_request"),
        (x.APIConnectionError, "connection"),
        (x.ServiceUnavailableError, "server"),
        (x.InternalServerError, "server"),
        (x.BadGatewayError, "server"),
    ]
    for cls, kind in kinds:
        if isinstance(e, cls):
            return kind
    if isinstance(e, TimeoutError):
        return "timeout"
    return "server" if isinstance(e, x.APIError) else "other"
