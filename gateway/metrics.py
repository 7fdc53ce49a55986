"""Gateway metrics (prometheus-client), built by a factory that takes the registry."""

from __future__ import annotations

from dataclasses import dataclass

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

LATENCY_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)


@dataclass(frozen=True)
class GatewayMetrics:
    requests: Counter
    upstream_seconds: Histogram
    added_seconds: Histogram
    verdict_wait_seconds: Histogram
    verdict_unavailable: Counter
    verdict_failed: Counter
    released_unchecked: Counter
    blocked: Counter
    revised: Counter
    reasks: Counter
    published: Counter
    publish_lost: Counter
    publish_queue: Gauge
    broker_resets: Counter
    broker_down: Counter


def build_metrics(registry: CollectorRegistry) -> GatewayMetrics:
    return GatewayMetrics(
        requests=Counter(
            "factsentry_gateway_requests_total",
            "Requests by source (proxy: chat completions, factcheck: /v1/factcheck, guardrail_api: LiteLLM's"
            " guardrail calls), model, policy mode and outcome (ok, pass, block, revise, timeout, failed,"
            " unavailable, pending, client_error, upstream_error, checker_error, gateway_error, client_closed).",
            ["source", "model", "mode", "outcome"],
            registry=registry,
        ),
        upstream_seconds=Histogram(
            "factsentry_gateway_upstream_seconds",
            "Time spent waiting for the upstream model.",
            ["model"],
            buckets=LATENCY_BUCKETS,
            registry=registry,
        ),
        added_seconds=Histogram(
            "factsentry_gateway_added_seconds",
            "Latency the gateway adds on top of the upstream call and the verdict wait (its own overhead).",
            ["model", "mode"],
            buckets=LATENCY_BUCKETS,
            registry=registry,
        ),
        verdict_wait_seconds=Histogram(
            "factsentry_gateway_verdict_wait_seconds",
            "Time spent waiting for a verdict (annotate, block and revise modes).",
            ["model"],
            buckets=LATENCY_BUCKETS,
            registry=registry,
        ),
        verdict_unavailable=Counter(
            "factsentry_gateway_verdict_unavailable_total",
            "Verdict waits that failed because the result store (Redis) was unreachable.",
            registry=registry,
        ),
        verdict_failed=Counter(
            "factsentry_gateway_verdict_failed_total",
            "Requests that got no verdict because the pipeline gave up on them (not published, dead-lettered, over"
            " budget).",
            registry=registry,
        ),
        released_unchecked=Counter(
            "factsentry_gateway_released_unchecked_total",
            "Answers released under block or revise without a verdict, by the operator's on_timeout/on_unavailable"
            " = open; reason: timeout, failed, unavailable.",
            ["model", "reason"],
            registry=registry,
        ),
        blocked=Counter("factsentry_gateway_blocked_total", "Answers blocked by policy.", ["model"], registry=registry),
        revised=Counter(
            "factsentry_gateway_revised_total", "Answers replaced by their revision.", ["model"], registry=registry
        ),
        reasks=Counter(
            "factsentry_gateway_reasks_total",
            "Answers sent back to the model once under a reask policy, by what came of it: improved (the "
            "rewritten answer was decided on), kept (the first scored as well or better), unavailable (the "
            "rewrite could not be checked: broker or Redis down), no_verdict (it got none otherwise), upstream_error.",
            ["model", "outcome"],
            registry=registry,
        ),
        published=Counter("factsentry_gateway_published_total", "Generations published to Kafka.", registry=registry),
        publish_lost=Counter(
            "factsentry_gateway_publish_lost_total",
            "Generations that could not be published (broker down, queue full, send failed).",
            ["reason"],
            registry=registry,
        ),
        publish_queue=Gauge(
            "factsentry_gateway_publish_queue", "Generations waiting to be sent to Kafka.", registry=registry
        ),
        broker_resets=Counter(
            "factsentry_gateway_broker_resets_total",
            "Times the broker came back without its state (the generations topic was re-created).",
            registry=registry,
        ),
        broker_down=Counter(
            "factsentry_gateway_broker_down_total",
            "Times the broker became unreachable (waits in progress and new requests follow on_unavailable).",
            registry=registry,
        ),
    )
