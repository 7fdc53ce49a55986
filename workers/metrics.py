"""Prometheus metrics of the worker pool, built by a factory that takes the registry.

    factsentry_worker_records_total{outcome}        scored | abstained | dlq | retried | failed
    factsentry_worker_stage_seconds{stage}          decode | score | produce | commit
    factsentry_worker_factscore{model}              FActScore of each scored answer (0..1)
    factsentry_worker_dfactscore{model}             D-FActScore of each scored answer (0..1)
    factsentry_worker_facts_total{model,verdict}    atomic facts by verdict
    factsentry_worker_coverage{model}               share of an answer's check-worthy facts the store speaks to
    factsentry_worker_answers_total{model,status}   answers by status: checked | unverifiable | abstained
    factsentry_worker_answer_languages_total{model,language}  answers by detected language (und: too short)
    factsentry_worker_would_total{source,model,action}  verdicts by what the model's shadow policy would have
                                                    done (pass | revise | block); counted here, not in the
                                                    gateway, because only the worker sees every verdict
                                                    (observed answers are never waited for)
    factsentry_worker_consumer_lag{topic,partition} highwater minus committed offset
    factsentry_worker_dlq_total                     records written to a dead-letter topic

Outcomes of one record are exclusive: ``scored`` or ``abstained`` (handled, output produced),
``dlq`` (dead-lettered: invalid, or failing after its retries), ``failed`` (fetched but left
uncommitted: abandoned at shutdown, redelivered later). ``retried`` counts retry attempts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

Outcome = Literal["scored", "abstained", "dlq", "retried", "failed"]
Step = Literal["decode", "score", "produce", "commit"]

SCORE_BUCKETS = tuple(round(i / 10, 1) for i in range(11))
ANSWER = ("source", "model")  # the labels of every per-answer figure
JUDGE = ("engine", "judge")  # the labels of every LLM judge figure
STEP_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)


@dataclass(frozen=True)
class WorkerMetrics:
    """The worker's metric objects, all registered in one registry."""

    registry: CollectorRegistry
    records: Counter
    stage_seconds: Histogram
    factscore: Histogram
    dfactscore: Histogram
    facts: Counter
    coverage: Histogram
    answers: Counter
    languages: Counter
    would: Counter
    consumer_lag: Gauge
    dlq: Counter
    broker_resets: Counter
    llm_calls: Counter
    llm_tokens: Counter
    llm_errors: Counter
    llm_rejected: Counter
    llm_cost_usd: Counter
    llm_cached: Counter
    llm_failures: Counter
    ready: Gauge

    def count(self, outcome: Outcome, n: int = 1) -> None:
        """Add ``n`` records with ``outcome``."""
        if n:
            self.records.labels(outcome=outcome).inc(n)

    def value(self, name: str, labels: dict[str, str] | None = None) -> float | None:
        """Current value of one sample (for tests and the summary line); None if never set."""
        return self.registry.get_sample_value(name, labels or {})


def make_metrics(registry: CollectorRegistry) -> WorkerMetrics:
    """Create and register every worker metric in ``registry``.

    Example::

        metrics = make_metrics(CollectorRegistry())
        metrics.count("scored")
    """

    def counter(name: str, documentation: str, *labels: str) -> Counter:
        return Counter(name, documentation, labels, registry=registry)

    def per_answer(name: str, documentation: str) -> Histogram:
        """A figure of each scored answer between 0 and 1, by source and model."""
        return Histogram(name, documentation, ANSWER, buckets=SCORE_BUCKETS, registry=registry)

    records = counter(
        "factsentry_worker_records_total", "Records by final outcome (retried: retry attempts)", "outcome"
    )
    for outcome in ("scored", "abstained", "dlq", "retried", "failed"):
        records.labels(outcome=outcome)
    return WorkerMetrics(
        registry=registry,
        records=records,
        stage_seconds=Histogram(
            "factsentry_worker_stage_seconds",
            "Seconds per batch in each step of the runner",
            ["stage"],
            buckets=STEP_BUCKETS,
            registry=registry,
        ),
        factscore=per_answer("factsentry_worker_factscore", "FActScore per answer"),
        dfactscore=per_answer("factsentry_worker_dfactscore", "D-FActScore per answer"),
        facts=counter("factsentry_worker_facts_total", "Atomic facts by verdict", *ANSWER, "verdict"),
        coverage=per_answer(
            "factsentry_worker_coverage",
            "Share of an answer's check-worthy facts on which some page of the store takes a stance",
        ),
        answers=counter(
            "factsentry_worker_answers_total",
            "Answers by status: checked, unverifiable (the store cannot judge them), abstained",
            *ANSWER,
            "status",
        ),
        languages=counter(
            "factsentry_worker_answer_languages",
            "Answers by their detected main language: an ISO 639-1 code the detector knows (scoring.language), "
            "und when too short to tell, other otherwise",
            *ANSWER,
            "language",
        ),
        would=counter(
            "factsentry_worker_would",
            "Verdicts by what the model's shadow policy (policy file: shadow) would have done with the answer: "
            "pass, revise or block; never enforced",
            *ANSWER,
            "action",
        ),
        consumer_lag=Gauge(
            "factsentry_worker_consumer_lag",
            "Records not yet committed: highwater minus committed offset",
            ["topic", "partition"],
            registry=registry,
        ),
        dlq=counter("factsentry_worker_dlq_total", "Records written to a dead-letter topic"),
        broker_resets=counter(
            "factsentry_worker_broker_resets_total",
            "Times the broker came back without its state (topics re-created, group re-joined from the start)",
        ),
        ready=Gauge(
            "factsentry_worker_ready",
            "1 once the stage's models are loaded and the consumer group has given this worker its partitions",
            registry=registry,
        ),
        llm_calls=counter(
            "factsentry_worker_llm_calls_total",
            "Calls to the LLM judge by engine (llm, hybrid) and judge model, failed attempts included",
            *JUDGE,
        ),
        llm_tokens=counter(
            "factsentry_worker_llm_tokens_total",
            "Tokens the LLM judge used (prompt and reply) by engine and judge model",
            *JUDGE,
        ),
        llm_errors=counter(
            "factsentry_worker_llm_errors_total",
            "LLM judge calls that failed or whose reply could not be read (asked again within the check)",
            *JUDGE,
        ),
        llm_rejected=counter(
            "factsentry_worker_llm_rejected_total",
            "What the engine's validations rejected of the judge's replies, by check (verify:quote-not-found, "
            "decompose:value-not-in-answer, revise:refusal, ...; scoring/llm)",
            *JUDGE,
            "check",
        ),
        llm_cost_usd=counter(
            "factsentry_worker_llm_cost_usd_total",
            "What the judge's calls cost in US dollars by litellm's cost map (models it knows only)",
            *JUDGE,
        ),
        llm_cached=counter(
            "factsentry_worker_llm_cached_calls_total",
            "Judge calls answered from the cache (same prompt, judge model and prompt version), not made",
            *JUDGE,
        ),
        llm_failures=counter(
            "factsentry_worker_llm_failures_total",
            "Check attempts that failed on the LLM judge after its own retries, by kind (rate_limit, timeout, "
            "connection, server, auth, bad_request, unreadable, other)",
            *JUDGE,
            "kind",
        ),
    )
