"""Errors raised by the scoring pipeline.

::

    ScoringError                 base class; ``retriable`` says whether the runner may retry
    ├── ModelUnavailableError    the spaCy model or the verifier weights cannot be loaded
    ├── UnknownMetricError       a metric name that is not registered (with "did you mean ...")
    ├── LLMOutputError           an LLM answer that stayed malformed after the retries (retriable)
    └── LLMCallError             an LLM call that failed (rate limit, timeout, ...); ``kind`` says which
"""

from __future__ import annotations

from typing import ClassVar


class ScoringError(Exception):
    """Base class of every error raised by ``scoring``."""

    retriable: ClassVar[bool] = False


class ModelUnavailableError(ScoringError):
    """A model the offline engine needs is not installed."""


class UnknownMetricError(ScoringError, KeyError):
    """A metric name that is not in the registry."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown metric"


class LLMOutputError(ScoringError):
    """The LLM kept answering in a shape the parser cannot read."""

    retriable = True

    def __init__(self, step: str, detail: str, raw: str = "") -> None:
        super().__init__(f"{step}: {detail}")
        self.step = step
        self.detail = detail
        self.raw = raw


class LLMCallError(ScoringError):
    """An LLM call that failed: ``kind`` is rate_limit, timeout, connection, server (transient: asked again),
    auth, bad_request, truncated (the reply hit max_tokens), refused (a provider's content filter) or other."""

    TRANSIENT = frozenset({"rate_limit", "timeout", "connection", "server"})

    def __init__(self, kind: str, detail: str, retry_after: float | None = None) -> None:
        super().__init__(f"LLM call failed ({kind}): {detail}")
        self.kind = kind
        self.detail = detail
        # Seconds the provider asked to wait before the next call (its Retry-After header), if it said.
        self.retry_after = retry_after

    @property
    def transient(self) -> bool:
        """Whether asking again later may succeed."""
        return self.kind in self.TRANSIENT

    @property
    def retriable(self) -> bool:  # type: ignore[override]
        return self.transient
