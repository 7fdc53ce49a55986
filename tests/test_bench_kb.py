"""`factsentry bench kb` imports a synthetic corpus and prints its figures (the figures are not judged here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from knowledge.store import Store


def test_bench_kb_prints_its_figures_and_keeps_the_store_on_request(tmp_path: Path) -> None:
    args = ["--json", "--passages", "3000", "--queries", "50", "--workdir", str(tmp_path), "--keep"]
    done = subprocess.run(
        [sys.executable, "-m", "factsentry", "bench", "kb", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout)
    assert figures["passages"] == 3000 and 0 < figures["pages"] <= 3000
    assert figures["import_passages_per_s"] > 0 and figures["import_cpu_seconds"] >= 0
    assert figures["import_reader_cpu_seconds"] == 0.0  # a source this small is read in a thread
    for key in ("query_p50_ms", "query_p99_ms", "candidates_p50_ms", "search_p50_ms", "peak_rss_mb"):
        assert figures[key] > 0, key
    with Store.open(tmp_path / "kb.sqlite3") as store:
        assert store.stats()["passages"] == 3000
        assert store.stats()["entities"] == figures["pages"]
