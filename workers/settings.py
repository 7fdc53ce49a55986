"""Settings of one worker process (env prefix ``FACTSENTRY_``), built once at startup.

Every field can be set from the environment, e.g. ``FACTSENTRY_CONCURRENCY=4``; the command line
overrides the few that have flags. :func:`load_settings` turns a bad value into one
:class:`~workers.errors.SettingsError` that names the variable and the value.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator

from bus.settings import BusSettings
from workers.errors import SettingsError


def _default_worker_id() -> str:
    return f"{socket.gethostname()}-{os.getpid()}"


class WorkerSettings(BusSettings):
    """What a worker consumes, how hard it works, how it retries and where it reports."""

    group_id: str = Field(default="factsentry-workers", min_length=1, description="Kafka consumer group")
    stage: str = Field(default="scoring", min_length=1, description="built-in stage name or module:attr")
    concurrency: int = Field(default=2, ge=1, le=512, description="scoring threads (or processes)")
    executor: Literal["thread", "process"] = Field(default="thread", description="where scoring runs")
    batch_size: int = Field(default=32, ge=1, le=10_000, description="records fetched and handled together")
    max_inflight_batches: int = Field(
        default=2,
        ge=1,
        le=64,
        description="batches handled at once: the next is fetched while one is still checking (1: one at a time)",
    )
    max_retries: int = Field(default=3, ge=0, le=100, description="retries of a retriable failure, then DLQ")
    backoff_s: float = Field(default=0.5, gt=0, description="first retry delay; doubles each attempt")
    backoff_max_s: float = Field(default=10.0, gt=0, description="longest retry delay")
    drain_timeout_s: float = Field(default=30.0, ge=0, description="on SIGTERM, wait this long for in-flight work")
    stop_timeout_s: float = Field(
        default=5.0,
        gt=0,
        description="after the drain, longest wait for the broker to take the producer's last records and the"
        " consumer's leave (a dead or hung broker does not keep the worker from exiting)",
    )
    session_timeout_ms: int = Field(
        default=10_000,
        ge=1000,
        le=300_000,
        description="group session timeout; a dead worker's partitions move after it",
    )
    poll_timeout_ms: int = Field(default=500, ge=1, le=60_000, description="longest wait of one fetch")
    # A broker that holds a fetch for its whole wait instead of answering when a record arrives (tansu,
    # the embedded broker, does) adds up to this much to every verdict: 500 ms cost ~200 ms p50 a check.
    fetch_max_wait_ms: int = Field(
        default=25,
        ge=1,
        le=10_000,
        description="longest the broker may hold a fetch waiting for records (latency of a record on a quiet topic)",
    )
    broker_check_s: float = Field(
        default=2.0, gt=0, description="how often the worker checks that the broker did not restart empty"
    )
    lag_interval_s: float = Field(default=5.0, gt=0, description="how often the consumer-lag gauge is refreshed")
    metrics_port: int = Field(default=9464, ge=0, le=65535, description="Prometheus port; 0 turns it off")
    metrics_host: str = Field(
        default="127.0.0.1",
        description="address the metrics server binds; deployments set 0.0.0.0 where Prometheus scrapes the pod",
    )
    topic_partitions: int = Field(default=4, ge=1, le=10_000, description="partitions of topics the worker creates")
    max_answer_chars: int = Field(
        default=20_000, ge=100, description="longest text checked; beyond it the check is partial (whole sentences)"
    )
    max_check_seconds: float = Field(
        default=60.0, gt=0, description="longest check of one record; past it the record fails (DLQ + notify)"
    )
    kb_path: Path | None = Field(default=None, description="knowledge store file; default var/demo-kb.sqlite3")
    engine: str = Field(default="offline", description="scoring engine of records that name none: offline, llm, hybrid")
    models_file: Path | None = Field(
        default=None, description="litellm model_list YAML (the gateway's) that holds the LLM judge's entry"
    )
    judge_model: str | None = Field(
        default=None, description="model_name of the LLM judge in models_file; enables the llm and hybrid engines"
    )
    judge_timeout_s: float = Field(default=30.0, gt=0, le=600, description="seconds per LLM judge call")
    judge_call_retries: int = Field(
        default=3, ge=0, le=20, description="retries of a judge call that failed transiently (rate limit, timeout)"
    )
    nli_model_dir: Path | None = Field(
        default=None,
        description="a Hugging Face NLI sequence-classification directory to use as the stance model (factsentry[nli])",
    )
    hybrid_llm_steps: str = Field(
        default="", description="steps the LLM also does in the hybrid engine: decompose, revise (comma-separated)"
    )
    rules_off: str = Field(
        default="", description="rules switched off in every check (scoring/RULES.md; comma-separated)"
    )
    parse_cache_size: int = Field(
        default=4_000, ge=1, le=1_000_000, description="parsed sentences each scoring process keeps (~40 KB each)"
    )
    worker_id: str = Field(default_factory=_default_worker_id, description="written into each result")

    @field_validator("kb_path")
    @classmethod
    def _kb_exists(cls, value: Path | None) -> Path | None:
        if value is not None and not value.exists():
            raise ValueError(f"no knowledge store at {value}: build one with `factsentry kb import`")
        return value

    @field_validator("nli_model_dir")
    @classmethod
    def _nli_dir_exists(cls, value: Path | None) -> Path | None:
        if value is not None and not value.is_dir():
            raise ValueError(f"no model directory at {value}")
        return value

    @field_validator("models_file")
    @classmethod
    def _models_exists(cls, value: Path | None) -> Path | None:
        if value is not None and not value.is_file():
            raise ValueError(f"no models file at {value}")
        return value

    @field_validator("hybrid_llm_steps")
    @classmethod
    def _known_steps(cls, value: str) -> str:
        steps = {s.strip() for s in value.split(",") if s.strip()}
        unknown = steps - {"decompose", "revise"}
        if unknown:
            raise ValueError(f"unknown step(s) {', '.join(sorted(unknown))}: the LLM can do decompose, revise")
        return ",".join(sorted(steps))

    @field_validator("group_id", "stage", "worker_id")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be blank")
        return value.strip()

    def retry_delay(self, attempt: int) -> float:
        """Seconds to wait before retry number ``attempt`` (1-based): ``backoff_s · 2^(attempt−1)``, capped."""
        return float(min(self.backoff_max_s, self.backoff_s * 2 ** max(0, attempt - 1)))


def load_settings(**overrides: Any) -> WorkerSettings:
    """Settings from the environment with ``overrides`` on top (None values are ignored).

    Raises :class:`SettingsError` naming the variable and the value, e.g.
    ``FACTSENTRY_BATCH_SIZE='0': Input should be greater than or equal to 1``.
    """
    given = {k: v for k, v in overrides.items() if v is not None}
    try:
        return WorkerSettings(**given)
    except ValidationError as e:
        prefix = str(WorkerSettings.model_config.get("env_prefix", ""))
        problems = []
        for err in e.errors():
            field = ".".join(str(part) for part in err["loc"]) or "settings"
            problems.append(f"{prefix}{field.upper()}={err.get('input')!r}: {err['msg']}")
        raise SettingsError("bad setting " + "; ".join(problems)) from e
