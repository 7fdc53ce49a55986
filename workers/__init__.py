"""The Kafka stage runtime: consume → score → produce → commit, with retries, DLQ, drain and metrics."""

from __future__ import annotations

from workers.runner import Runner, Summary
from workers.settings import WorkerSettings, load_settings
from workers.stage import Context, Stage
from workers.worker import run_worker

__all__ = ["Context", "Runner", "Stage", "Summary", "WorkerSettings", "load_settings", "run_worker"]
