"""What the gateway decided for each answer, kept beside its verdict for the reviewer.

The worker's verdict (``/v1/results/{id}``) does not know what the gateway then did with the answer: the
release gate records it here — the action taken, the policy and threshold that decided it, what happened
when there was no verdict in time, the model, tenant and engine, when, and the user's question when the
operator keeps it (``FACTSENTRY_REVIEW_KEEP_QUESTION``, off by default: a question can hold personal data).
One small JSON record per verdict id in Redis with the results' TTL; ``/v1/results/{id}`` returns it as
``decision`` and the review page shows it.

Recording never delays or fails an answer: the write runs beside the response, and a Redis error is logged.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from typing import Any

import orjson
import redis.asyncio as aioredis

from gateway.policy import Action
from gateway.release import Decision, Release, refusal_reason
from schemas.enums import Policy

log = logging.getLogger(__name__)

MAX_QUESTION_CHARS = 4000


def decision_key(prefix: str, request_id: str) -> str:
    return f"{prefix}:decision:{request_id}"


def record_of(
    decision: Decision, rel: Release, model: str, question: str | None, tenant: str | None = None
) -> dict[str, Any]:
    """The decision record of one answer (see the module's docstring)."""
    spec, result, status = decision.spec, decision.result, decision.status
    no_verdict = result is None
    action = rel.action.value
    if rel.action is Action.PASS and spec.mode is Policy.ANNOTATE:
        action = "annotate"  # released with the verdict attached
    # Why an answer was held back, or why one without a (whole) verdict was let out.
    reason = refusal_reason(result, status) if rel.action is not Action.PASS or no_verdict else None
    if result is not None and result.check.partial and rel.action is Action.PASS and spec.mode in GUARDING:
        reason = "partial"
    return {
        "request_id": decision.request_id,
        "action": action,
        "policy": spec.mode.value,
        "threshold": spec.threshold,
        "timeout_s": spec.timeout_s,
        "on_timeout": spec.on_timeout,
        "on_unavailable": spec.on_unavailable,
        "on_unverifiable": spec.on_unverifiable,
        # checked (a verdict arrived in time), or timeout / failed / unavailable: none to decide by
        "verdict": "checked" if not no_verdict else status,
        "reason": reason,
        "dfactscore": result.check.dfactscore if result is not None else None,
        "streamed": decision.streamed,
        "model": model,
        "tenant": result.tenant if result is not None else tenant,
        "engine": result.check.engine if result is not None else spec.engine,
        "decided_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "question": question[:MAX_QUESTION_CHARS] if question else None,
    }


GUARDING = (Policy.BLOCK, Policy.REVISE)


class DecisionStore:
    """Decision records in Redis, one per verdict id, with the results' TTL."""

    def __init__(self, client: aioredis.Redis, prefix: str, ttl_s: int, keep_question: bool = False) -> None:
        self.client = client
        self.prefix = prefix
        self.ttl_s = ttl_s
        self.keep_question = keep_question
        self._writing: set[asyncio.Task[None]] = set()

    def record(self, decision: Decision, rel: Release, model: str, question: str | None = None) -> None:
        """Write the record of ``decision`` beside the response (never awaited by it)."""
        kept = question if self.keep_question else None
        payload = orjson.dumps(record_of(decision, rel, model, kept))
        try:
            task = asyncio.get_running_loop().create_task(self._write(decision.request_id, payload))
        except RuntimeError:  # no loop: nothing serves a response either
            return
        self._writing.add(task)
        task.add_done_callback(self._writing.discard)

    async def _write(self, request_id: str, payload: bytes) -> None:
        try:
            await self.client.set(decision_key(self.prefix, request_id), payload, ex=self.ttl_s)
        except (aioredis.RedisError, OSError) as e:
            log.warning("the decision on %s was not recorded (%s): its review page will not show it", request_id, e)

    async def get(self, request_id: str) -> dict[str, Any] | None:
        raw = await self.client.get(decision_key(self.prefix, request_id))
        if raw is None:
            return None
        data = orjson.loads(raw)
        return data if isinstance(data, dict) else None

    async def drain(self) -> None:
        """Wait for the writes in flight (shutdown)."""
        if self._writing:
            await asyncio.gather(*self._writing, return_exceptions=True)
