"""`factsentry bench gateway` runs and prints every figure (the figures themselves are not judged here)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

KEYS = {
    "direct_p50_ms",
    "gateway_p50_ms",
    "added_p50_ms",
    "added_p99_ms",
    "throughput_rps",
    "gateway_cpu_ms_per_request",
    "start_ms",  # process start to the first 200 from /healthz, the median of --starts
    "start_ms_min",
    "start_ms_max",
    "start_load_avg",
    "holdback_ttft_added_ms",
    "holdback_total_added_ms",
    "holdback_first_sentence_added_ms",
    # the LiteLLM proxy beside it, same upstream, same rounds
    "litellm_added_p50_ms",
    "litellm_cpu_ms_per_request",
    "litellm_throughput_rps",
    "litellm_ratio",
}


def test_bench_gateway_prints_its_figures() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "factsentry",
            "bench",
            "gateway",
            "--json",
            "--requests",
            "100",
            "--concurrent-requests",
            "200",
            "--concurrency",
            "10",
            "--holdback-runs",
            "2",
            "--starts",
            "3",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout)
    assert KEYS <= figures.keys()
    assert figures["requests_sequential"] == 100
    assert figures["p99_reliable"] is False  # 100 requests: the output says its p99 is rough
    assert 0 < figures["direct_p50_ms"] < figures["gateway_p50_ms"]
    assert abs(figures["added_p50_ms"] - (figures["gateway_p50_ms"] - figures["direct_p50_ms"])) <= 0.002
    assert figures["throughput_rps"] > 0
    assert figures["gateway_cpu_ms_per_request"] > 0
    assert 0 < figures["start_ms_min"] <= figures["start_ms"] <= figures["start_ms_max"]
    assert figures["start_runs"] == 3 and figures["start_load_avg"] >= 0
    # LiteLLM's side is measured in the same rounds; the ratio is the two added p50s'
    assert figures["litellm_added_p50_ms"] > 0 and figures["litellm_cpu_ms_per_request"] > 0
    ratio = figures["added_p50_ms"] / figures["litellm_added_p50_ms"]
    assert abs(figures["litellm_ratio"] - ratio) <= 0.002
    # sentence hold-back at 20 tokens/s: the whole verified answer arrives, and its first token never
    # before the upstream has finished the first sentence (nothing goes out unchecked)
    assert figures["holdback_answers_released_whole"] == "2/2"
    assert figures["holdback_ttft_ms"] >= 0.9 * figures["holdback_direct_first_sentence_ms"] > 0
    assert figures["holdback_total_ms"] >= 0.9 * figures["holdback_direct_total_ms"]
