"""What the gateway's routes share: upstreams, policies, publisher, result store, keys and metrics."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Literal

import redis.asyncio as aioredis
from prometheus_client import CollectorRegistry
from starlette.requests import Request
from starlette.responses import Response

from bus.labels import OTHER, LabelGuard
from bus.results import Outcome, ResultStore, VerdictListener
from gateway.access import Exchange
from gateway.auth import ApiKey, KeyRing
from gateway.decisions import DecisionStore
from gateway.errors import GatewayError
from gateway.metrics import GatewayMetrics, build_metrics
from gateway.policy import Action, Override, PolicySpec, PolicyTable, decide
from gateway.publisher import UNAVAILABLE_REASONS, Publisher
from gateway.release import Decision, Release, release
from gateway.request import UNSPECIFIED_MODEL, read_json
from gateway.settings import GatewaySettings
from gateway.upstream import ModelRegistry
from schemas.enums import Policy
from schemas.messages import ResultMessage

if TYPE_CHECKING:
    from bus.spans import Tracing

log = logging.getLogger(__name__)


class Gateway:
    """State shared by the routes: upstreams, policies, publisher, result store, metrics."""

    def __init__(
        self,
        settings: GatewaySettings,
        models: ModelRegistry,
        policies: PolicyTable,
        registry: CollectorRegistry,
        tracing: Tracing | None = None,
    ) -> None:
        self.settings = settings
        self.tracing = tracing
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
            waiting=self._waiting_ids,
            on_down=self._on_broker_down,
            partitions=settings.topic_partitions,
            ack_timeout_s=settings.publish_ack_timeout_s,
            broker_check_timeout_s=settings.broker_check_timeout_s,
            tracing=tracing,
        )
        # One bounded pool that makes callers wait for a free connection instead of failing with
        # "Too many connections"; verdict waits hold none of it (they share the listener's one).
        pool = aioredis.BlockingConnectionPool.from_url(
            settings.redis_url,
            max_connections=settings.redis_max_connections,
            timeout=settings.redis_pool_timeout_s,
            socket_timeout=5,
            socket_connect_timeout=2,
            **settings.redis_pool_options(),
        )
        self.redis: aioredis.Redis = aioredis.Redis(connection_pool=pool)
        self.results = ResultStore(self.redis, settings.redis_prefix, settings.result_ttl_s)
        # The subscription has a connection of its own that never reconnects silently: a Redis restart
        # ends the waits in progress (a notification may be lost) and the listener re-subscribes.
        subscription = aioredis.ConnectionPool.from_url(
            settings.redis_url,
            max_connections=2,
            socket_connect_timeout=2,
            **settings.redis_pool_options(retries=0),
        )
        self.listener = VerdictListener(self.results, client=aioredis.Redis(connection_pool=subscription))
        # What was done with each answer, beside its verdict (the review page; gateway/decisions.py).
        self.decisions = DecisionStore(
            self.redis, settings.redis_prefix, settings.result_ttl_s, settings.review_keep_question
        )
        self.keys = KeyRing(settings.keys_file)
        # Model names a wildcard route matched: labels while under 50 (the operator's routes).
        self.checked_models = LabelGuard(50, models.configured)
        # The model a /v1/factcheck or guardrail caller names is free text: only the operator's names (the model
        # list and the policy file) are labels, and what is published; any other is one label, ``other``.
        self.known_models = frozenset({*models.configured, *policies.models, UNSPECIFIED_MODEL})

    async def judge(
        self, spec: PolicySpec, request_id: str, model: str, published: bool
    ) -> tuple[ResultMessage | None, str, Action]:
        """Wait for the verdict of a published text and decide; an unpublished one has none to wait for (traced as
        the ``apply_guardrail`` span when tracing is on)."""
        if self.tracing is None:
            return await self._judge(spec, request_id, model, published)
        from gateway.tracing import decision_attributes

        with self.tracing.guardrail(model, spec.mode.value) as span:
            decided = await self._judge(spec, request_id, model, published)
            span.set_attributes(decision_attributes(*decided))
            return decided

    async def _judge(
        self, spec: PolicySpec, request_id: str, model: str, published: bool
    ) -> tuple[ResultMessage | None, str, Action]:
        outcome = await self.verdict(request_id, spec.timeout_s, published)
        action = decide(spec, outcome.result, outcome.status)
        if action is Action.PASS and spec.mode in (Policy.BLOCK, Policy.REVISE):
            # Only the operator's on_timeout / on_unavailable = open gets here; counted so it is never silent.
            if outcome.result is None:
                self.metrics.released_unchecked.labels(model, outcome.status).inc()
            elif outcome.result.check.partial:
                self.metrics.released_unchecked.labels(model, "partial").inc()
        return outcome.result, outcome.status, action

    async def verdict(self, request_id: str, timeout: float, published: bool) -> Outcome:
        """The verdict of a text, or why there is none, by one vocabulary for every route (chat completions,
        the guardrail API, /v1/factcheck, reask): a text that could not be queued has none to wait for, and is
        ``unavailable`` while the broker is down (the broker's fault), else ``failed``."""
        if published:
            return await self.wait_verdict(request_id, timeout)
        down = self.broker_down()
        if down is not None:
            self.metrics.verdict_unavailable.inc()
            return Outcome("unavailable", reason=f"the broker is unreachable ({down})")
        self.metrics.verdict_failed.inc()
        return Outcome("failed", reason="the text could not be queued for checking")

    def broker_down(self) -> str | None:
        """Why the broker cannot take a generation now (down, or not reached since the start), else None."""
        if self.publisher.down is not None:
            return self.publisher.down
        return None if self.publisher.connected.is_set() else "not reached since the gateway started"

    async def read_body(self, request: Request) -> dict[str, Any]:
        """The request's JSON body within the settings' size, depth and time limits (gateway/request.py)."""
        s = self.settings
        return await read_json(request, s.max_body_bytes, s.max_json_depth, s.body_timeout_s)

    def model_label(self, name: str) -> str:
        """A caller-chosen model name as a metric label and as the published ``model``: an operator's name, or
        ``other`` (so a client naming 1,000 models adds one label value, at the gateway and in the workers)."""
        return name if name in self.known_models else OTHER

    def release(self, decision: Decision, model: str, question: str | None = None) -> Release:
        """What leaves the gateway for ``decision`` (gateway/release.py), counted by action and recorded for the
        review page (``question``: the user's, kept only when the operator says so)."""
        rel = release(decision, self.settings)
        self.decisions.record(decision, rel, model, question)
        if rel.action is Action.BLOCK:
            self.metrics.blocked.labels(model).inc()
        elif rel.action is Action.REVISE:
            self.metrics.revised.labels(model).inc()
        return rel

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
        """A queued generation the broker did not take: its wait ends now, ``unavailable`` when the broker
        was at fault (down, unreachable, not acknowledging in time), ``failed`` when the record was."""
        status: Literal["failed", "unavailable"] = "unavailable" if reason in UNAVAILABLE_REASONS else "failed"
        self.listener.fail_local(request_id, f"the generation was not published ({reason})", status)

    def _on_broker_down(self, reason: str) -> None:
        """The broker is unreachable: no verdict can come for a generation a worker has not read yet, so every
        wait in progress follows on_unavailable now instead of running out its timeout (one a worker had
        already read may still get its verdict: ending it is the safe side)."""
        ended = self.listener.fail_waiting(f"the broker is unreachable ({reason})", status="unavailable")
        if ended:
            self.metrics.publish_lost.labels("broker_down").inc(len(ended))
            log.warning("broker down: %d request(s) waiting for a verdict follow on_unavailable", len(ended))

    def _waiting_ids(self) -> list[str]:
        """The request ids waiting for a verdict now (the publisher's candidates after a broker reset)."""
        return self.listener.waiting_ids()

    def _on_broker_reset(self, gone: set[str]) -> None:
        """The broker lost its log: generations it had acknowledged that the new log does not hold will
        never get a verdict. Those still waiting follow on_unavailable now instead of waiting out their
        timeout (a record a worker had already read may still be scored: failing it is the safe side)."""
        lost = self.listener.fail_waiting(
            "the broker restarted without its log: the generation was lost", only=gone, status="unavailable"
        )
        if lost:
            self.metrics.publish_lost.labels("broker_reset").inc(len(lost))
            log.warning("broker reset: %d request(s) waiting for a verdict follow on_unavailable", len(lost))

    async def wait_verdict(self, request_id: str, timeout: float) -> Outcome:
        """The verdict, or why there is none: ``timeout``, ``failed`` or ``unavailable``."""
        outcome = await self.listener.wait(request_id, timeout)
        if outcome.status == "timeout" and self.publisher.unacknowledged(request_id):
            # Not a slow verdict: the broker never took the generation, so none could come.
            outcome = Outcome("unavailable", reason="the broker did not acknowledge the generation in time")
        if outcome.status == "unavailable":
            self.metrics.verdict_unavailable.inc()
            log.warning("no verdict for %s (%s): the policy's on_unavailable applies", request_id, outcome.reason)
        elif outcome.status == "failed":
            self.metrics.verdict_failed.inc()
            log.warning("no verdict for %s (%s): the policy's on_unavailable applies", request_id, outcome.reason)
        return outcome
