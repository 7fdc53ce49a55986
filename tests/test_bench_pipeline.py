"""`factsentry bench pipeline` runs a real stack and prints every figure (the figures are not judged here)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any


def bench_pipeline(*args: str, timeout: float) -> dict[str, Any]:
    """``factsentry bench pipeline --json ARGS``: its figures (the run must succeed)."""
    done = subprocess.run(
        [sys.executable, "-m", "factsentry", "bench", "pipeline", "--json", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    figures: dict[str, Any] = json.loads(done.stdout)
    return figures


def test_bench_pipeline_prints_its_figures() -> None:
    figures = bench_pipeline("--requests", "20", "--rate", "20", timeout=300)
    for key in ("block_added_p50_ms", "block_added_p99_ms", "delivery_overhead_p50_ms", "first_request_ms"):
        assert isinstance(figures[key], float), key
    assert figures["requests"] == 20 and figures["rate_rps"] == 20.0 and figures["achieved_rps"] > 0
    # checking is part of what block adds: the transport share is never more than the whole
    assert figures["delivery_overhead_p50_ms"] <= figures["block_added_p50_ms"]
    assert figures["first_request_ms"] > 0 and figures["observe_p50_ms"] > 0
    # the first answer is new to the worker: checked, not found cached, and its check is part of its time
    assert 0 < figures["first_request_scoring_ms"] < figures["first_request_ms"]
    assert isinstance(figures["first_request_overhead_ms"], float)
    assert isinstance(figures["new_answers_overhead_ms"], float)
    # each process's time from spawn to ready: a worker loads its models and warms up before it says so
    assert 0 < figures["gateway_ready_ms"] and 0 < figures["worker_ready_ms"]
    # the machine's load comes with the figures: the tail on a shared machine follows it
    assert figures["load_before"] >= 0 and figures["load_after"] > 0


def test_bench_pipeline_scale_out_checks_new_answers_with_one_and_two_workers() -> None:
    figures = bench_pipeline("--scale-out", "--answers", "20", timeout=600)
    assert figures["answers"] == 20 and figures["workers_1_failed"] == figures["workers_2_failed"] == 0
    assert figures["workers_1_checks_per_s"] > 0 and figures["workers_2_checks_per_s"] > 0
    ratio = figures["workers_2_checks_per_s"] / figures["workers_1_checks_per_s"]
    assert abs(figures["scale_out_ratio"] - ratio) <= 0.01
