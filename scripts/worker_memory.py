"""Resident memory of one worker's scoring path over many checks of varied answers, in process.

Builds what a worker builds (``workers.kb.open_knowledge`` behind a real valkey, ``build_checkers``, the
warm-up), then checks AmbigBio dev answers one after another (cycling when ``--checks`` exceeds them) and
prints RSS every ``--every`` checks with what the process holds that can grow: the parse cache
(``scoring.nlp``), spaCy's vocabulary and string store.

    PYTHONPATH=$PWD .venv/bin/python scripts/worker_memory.py --data /work/shared/data/ambigbio/generations.dev.jsonl
"""

from __future__ import annotations

import argparse
import gc
import json
import tempfile
import time
from pathlib import Path

import psutil


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="AmbigBio generations JSONL (read only)")
    parser.add_argument("--checks", type=int, default=3000)
    parser.add_argument("--every", type=int, default=250)
    parser.add_argument("--parse-cache-size", type=int, default=None, help="FACTSENTRY_PARSE_CACHE_SIZE")
    args = parser.parse_args()

    from factsentry import embedded
    from factsentry.bench.pipeline import _answers, _store
    from scoring import nlp
    from workers.kb import open_knowledge
    from workers.scoring_stage import EngineOptions, Scorer, bound_parse_cache, build_checkers, warm_up

    rows = _answers(args.data, 100_000)
    work = Path(tempfile.mkdtemp(prefix="factsentry-worker-memory-"))
    kb = _store(rows, work / "kb.sqlite3")
    server = embedded.valkey().start()
    proc = psutil.Process()
    try:
        knowledge = open_knowledge(kb, f"redis://{server.host}:{server.port}/0", prefix="wm")
        options = EngineOptions()
        if args.parse_cache_size is not None:
            options = EngineOptions(parse_cache_size=args.parse_cache_size)
        bound_parse_cache(options.parse_cache_size)
        scorer = Scorer(knowledge, build_checkers(options), "offline")
        warm_up(knowledge.store)
        gc.collect()
        base = proc.memory_info().rss / 2**20
        print(json.dumps({"answers": len(rows), "rss_mb_after_warm_up": round(base, 1)}), flush=True)
        t0 = time.perf_counter()
        for i in range(args.checks):
            row = rows[i % len(rows)]
            scorer(row["output"], row["name"], None)
            if (i + 1) % args.every == 0:
                vocab = nlp.get_nlp().vocab
                line = {
                    "checks": i + 1,
                    "rss_mb": round(proc.memory_info().rss / 2**20, 1),
                    "parse_cache": len(nlp._docs),
                    "vocab_lexemes": len(vocab),
                    "strings": len(vocab.strings),
                    "s": round(time.perf_counter() - t0, 1),
                }
                print(json.dumps(line), flush=True)
        knowledge.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
