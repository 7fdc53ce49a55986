"""`factsentry bench soak` runs a real stack at a fixed rate and prints memory per process, latency and errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def bench_soak(*args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "factsentry", "bench", "soak", "--json", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "FACTSENTRY_VALKEY_MAXMEMORY": "64mb"},
    )


def test_bench_soak_prints_memory_per_process(shared_data: Path) -> None:
    data = shared_data / "ambigbio" / "generations.dev.jsonl"
    done = bench_soak(
        "--rate", "2", "--minutes", "0.5", "--warmup-minutes", "0.2", "--workers", "1", "--factcheck-every", "3",
        "--data", str(data), "--result-ttl-s", "600", timeout=400,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    figures: dict[str, Any] = json.loads(done.stdout)
    assert figures["requests"] == 60 and figures["errors"] == 0 and figures["errors_by_kind"] == {}
    assert 0 < figures["timed_after_warmup"] < 60
    assert 0 < figures["p50_ms"] <= figures["p99_ms"]
    for name in ("tansu", "valkey", "gateway", "worker-0"):
        rss = figures[f"rss_mb_{name}"]
        assert rss["start"] > 0 and rss["after_warmup"] > 0 and rss["end"] > 0, name
        assert isinstance(rss["growth_after_warmup_pct"], float), name
    # valkey runs with the limit it was given; every request left keys there (results, caches)
    assert figures["valkey_end"]["maxmemory_mb"] == 64.0
    assert figures["valkey_end"]["keys"] > figures["valkey_after_warmup"]["keys"] > 0
    # what holds valkey's memory, by kind of key: every key factsentry writes has a TTL
    kinds = figures["valkey_end"]["by_kind"]
    assert sum(k["keys"] for k in kinds.values()) == figures["valkey_end"]["keys"]
    assert any(":result:" in name for name in kinds), sorted(kinds)
    assert all(k["no_ttl"] == 0 for k in kinds.values()), kinds
    # the embedded stack rotates its broker's topics by default; results live --result-ttl-s (not the warm-up's
    # 12 s, by default: none expires between the key count and the scan by kind)
    assert figures["broker_rotation"] == {"generations_deleted": 0, "recreated": []}
    assert figures["result_ttl_s"] == 600
    for name in ("tansu", "gateway"):
        rss = figures[f"rss_mb_{name}"]
        assert rss["max_after_warmup"] >= max(rss["after_warmup"], rss["end"]), name
    timeline = figures["rss_mb_timeline"]  # sampled every minute from the start, and the end
    assert len(timeline) == 2 and timeline[0]["minute"] == 0.0
    assert all(point["worker-0"] > 0 for point in timeline)


def test_a_warm_up_as_long_as_the_run_is_refused_in_one_line() -> None:
    done = bench_soak("--minutes", "1", "--warmup-minutes", "1", timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip() == "factsentry bench: --warmup-minutes 1 leaves nothing of --minutes 1 to measure"
