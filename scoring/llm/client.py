"""The LLM judge: one chat call through litellm, with the model and credentials of the operator's model list.

The judge is configured by the operator, never by a request: a worker names a ``model_name`` of the
same litellm ``model_list`` YAML the gateway reads (``FACTSENTRY_MODELS_FILE`` +
``FACTSENTRY_JUDGE_MODEL``), and its ``litellm_params`` (provider model, ``api_base``, ``api_key``
as a value or ``os.environ/NAME``) are used as they are. A call that fails raises
:class:`scoring.errors.LLMCallError` with a ``kind``; :func:`scoring.llm.steps.ask` retries the
transient kinds with backoff and counts every failed attempt.

>>> judge = LiteLLMJudge.from_model_list(yaml.safe_load(open("models.yaml")), "judge")  # doctest: +SKIP
>>> text, tokens = judge([{"role": "user", "content": "Say hi"}])  # doctest: +SKIP
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from scoring.errors import LLMCallError, ScoringError


class JudgeConfigError(ScoringError):
    """The judge model is not in the model list, or its entry cannot be used."""


@dataclass(frozen=True)
class LiteLLMJudge:
    """``complete(messages) -> (text, tokens)`` over litellm; ``name`` is the label in results and metrics."""

    name: str
    params: Mapping[str, Any] = field(default_factory=dict)
    timeout_s: float = 30.0
    max_tokens: int = 4096

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

    def __call__(self, messages: list[dict[str, str]]) -> tuple[str, int]:
        import litellm

        try:
            response = litellm.completion(
                **self.params,
                messages=messages,
                temperature=0,
                max_tokens=self.max_tokens,
                timeout=self.timeout_s,
                max_retries=0,  # retries are ``ask``'s, counted
                num_retries=0,
            )
        except Exception as e:  # litellm raises provider-specific errors; classify them
            raise LLMCallError(_kind(e), f"{self.name}: {type(e).__name__}: {str(e)[:200]}") from e
        choice = response.choices[0]
        text = choice.message.content or ""
        if getattr(choice, "finish_reason", None) == "length":
            # Cut at max_tokens: a fact list that stops early would silently drop facts, so the reply is not
            # used; asking again with the same prompt would be cut again.
            raise LLMCallError("truncated", f"{self.name}: the reply was cut at max_tokens={self.max_tokens}")
        usage = getattr(response, "usage", None)
        return text, int(getattr(usage, "total_tokens", 0) or 0)


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
