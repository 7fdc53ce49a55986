"""Import a synthetic corpus into a knowledge store and time look-ups.

The corpus is written first as a DPR-style TSV (``id``, ``text``, ``title``; ~100 words a passage)
and then imported with the real importer, so the import rate includes parsing. Names are drawn
from a small pool so that many pages share a base name ("Ilna Varo (painter)", "Ilna Varo
(swimmer)", ...). Queries are ``Store.passages(title, claim)`` for random pages, the look-up the
checker makes once per fact group.

Goals on a 2-core machine: import ≥ 25,000 passages/s (issue 12), p50 ≤ 5 ms at 1M passages, peak RSS < 1 GB.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import random
import resource
import shutil
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from factsentry.bench import at_least

SYLLABLES = (
    "ba be bi bo da de di do ka ke ki ko la le li lo ma me mi mo na ne ni no ra re ri ro sa se si so ta te ti to va "
    "ve vi vo za ze zi zo an el in or ul ar en is"
).split()
OCCUPATIONS = (
    "swimmer",
    "American football",
    "politician",
    "painter",
    "cricketer",
    "bishop",
    "explorer",
    "musician",
    "footballer",
    "actor",
    "writer",
    "judge",
    "architect",
    "physician",
    "engineer",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``factsentry bench kb``."""
    parser.add_argument(
        "--passages", type=at_least(1), default=1_000_000, help="passages in the corpus (default 1,000,000)"
    )
    parser.add_argument("--passages-per-page", type=at_least(1), default=5, help="mean passages per page (default 5)")
    parser.add_argument("--queries", type=at_least(1), default=2_000, help="timed passage look-ups (default 2,000)")
    parser.add_argument("--seed", type=int, default=7, help="random seed")
    parser.add_argument("--workdir", type=Path, help="where to write the corpus and store (default: a temp dir)")
    parser.add_argument("--keep", action="store_true", help="keep the corpus and store afterwards")


def _names(rng: random.Random, n: int) -> list[str]:
    def word(k: int) -> str:
        return "".join(rng.choice(SYLLABLES) for _ in range(k)).capitalize()

    return list(dict.fromkeys(word(rng.randint(2, 3)) for _ in range(n)))


def _sentence_pool(rng: random.Random, vocab: list[str], size: int) -> list[str]:
    cumulative = list(itertools.accumulate(1.0 / (rank + 1) for rank in range(len(vocab))))  # Zipf
    pool = []
    for _ in range(size):
        words = rng.choices(vocab, cum_weights=cumulative, k=rng.randint(8, 16))
        pool.append(" ".join(words).capitalize() + ".")
    return pool


def corpus(n_passages: int, per_page: int, seed: int) -> Iterator[tuple[str, list[str]]]:
    """``(title, passages)`` pages of a synthetic corpus of ``n_passages`` passages of ~100 words."""
    rng = random.Random(seed)
    vocab = _names(rng, 40_000)
    pool = _sentence_pool(rng, vocab, 30_000)
    firsts, lasts = _names(rng, 400), _names(rng, 3_000)
    n_pages = max(1, n_passages // per_page)
    n_bases = max(1, n_pages // 3)  # three pages per base name on average, many more for some
    bases = [f"{rng.choice(firsts)} {rng.choice(lasts)}" for _ in range(n_bases)]
    seen: set[str] = set()
    written = 0
    while written < n_passages:
        # 30% of pages go to the 1% most common names (~90 pages each, like "John Smith"); the rest spread out.
        popular = rng.random() < 0.3
        base = bases[rng.randrange(max(1, n_bases // 100))] if popular else rng.choice(bases)
        disamb = rng.choice(OCCUPATIONS)
        title = base if base not in seen else f"{base} ({disamb})"
        if title in seen:
            title = f"{base} ({disamb}, born {rng.randint(1800, 2005)})"
            if title in seen:
                continue
        seen.add(title)
        count = min(n_passages - written, max(1, int(rng.expovariate(1 / per_page)) + 1))
        passages = []
        for i in range(count):
            body = " ".join(rng.choices(pool, k=8))
            year = rng.randint(1800, 2020)
            lead = (
                f"{base} was a {disamb} born in {year}."
                if i == 0
                else f"In {year} {base.split()[0]} moved to {rng.choice(lasts)}."
            )
            passages.append(f"{lead} {body}")
        written += count
        yield title, passages


def _write_tsv(path: Path, pages: Iterator[tuple[str, list[str]]]) -> int:
    n = 0
    with path.open("w", encoding="utf-8") as f:
        f.write("id\ttext\ttitle\n")
        for title, passages in pages:
            for text in passages:
                n += 1
                f.write(f"{n}\t{text}\t{title}\n")
    return n


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def _cpu_seconds(who: int = resource.RUSAGE_SELF) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def _peak_rss_mb() -> float:
    # The importer's reader process counts too: the sum bounds what the import held at once.
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return (own + resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Generate, import and query; returns the figures (see the module docstring)."""
    from knowledge.importers import import_path
    from knowledge.store import Store

    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="factsentry-bench-kb-"))
    workdir.mkdir(parents=True, exist_ok=True)
    tsv, db = workdir / "corpus.tsv", workdir / "kb.sqlite3"
    for stale in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        stale.unlink(missing_ok=True)
    try:
        t0 = time.perf_counter()
        n = _write_tsv(tsv, corpus(args.passages, args.passages_per_page, args.seed))
        generate_s = time.perf_counter() - t0

        with Store(db) as store:
            cpu_before, reader_cpu_before = _cpu_seconds(), _cpu_seconds(resource.RUSAGE_CHILDREN)
            report = import_path(tsv, store, "dpr")
            import_cpu_s = _cpu_seconds() - cpu_before
            # a source this large is read in a child process (reaped by now); a small one in a thread
            reader_cpu_s = _cpu_seconds(resource.RUSAGE_CHILDREN) - reader_cpu_before
            rng = random.Random(args.seed + 1)
            sample: list[tuple[str, str]] = []
            with contextlib.closing(sqlite3.connect(db)) as conn:
                max_id = conn.execute("SELECT max(id) FROM entities").fetchone()[0]
                while len(sample) < args.queries:
                    row = conn.execute(
                        "SELECT title, base_name FROM entities WHERE id >= ? LIMIT 1", (rng.randint(1, max_id),)
                    ).fetchone()
                    if row:
                        sample.append((row[0], row[1]))
            claims = [f"{base} was born in {rng.randint(1800, 2020)} and moved to the city" for _, base in sample]

            def timed(fn: Any, items: list[Any]) -> list[float]:
                out = []
                for item in items:
                    t = time.perf_counter()
                    fn(*item)
                    out.append((time.perf_counter() - t) * 1000)
                return out

            passage_ms = timed(store.passages, [(t, c) for (t, _), c in zip(sample, claims, strict=True)])
            candidate_ms = timed(store.candidates, [(b,) for _, b in sample])
            search_ms = timed(store.search, [(c,) for c in claims[:200]])
        return {
            "passages": n,
            "pages": report.pages,
            "import_passages_per_s": round(report.passages / report.seconds),
            "import_seconds": round(report.seconds, 1),
            "import_cpu_seconds": round(import_cpu_s, 1),
            "import_reader_cpu_seconds": round(reader_cpu_s, 1),
            "generate_seconds": round(generate_s, 1),
            "query_p50_ms": round(statistics.median(passage_ms), 3),
            "query_p99_ms": round(_percentile(passage_ms, 0.99), 3),
            "candidates_p50_ms": round(statistics.median(candidate_ms), 3),
            "candidates_p99_ms": round(_percentile(candidate_ms, 0.99), 3),
            "search_p50_ms": round(statistics.median(search_ms), 3),
            "search_p99_ms": round(_percentile(search_ms, 0.99), 3),
            "db_mb": round(db.stat().st_size / 2**20),
            "peak_rss_mb": round(_peak_rss_mb()),
        }
    finally:
        if not args.keep:
            if args.workdir is None:
                shutil.rmtree(workdir, ignore_errors=True)
            else:
                for path in (tsv, db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
                    path.unlink(missing_ok=True)
