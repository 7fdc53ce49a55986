"""Check that two knowledge stores built from the same source answer every look-up alike.

    .venv/bin/python scripts/compare_kb_stores.py OLD.sqlite3 NEW.sqlite3 [--queries 400]

Used when the store's layout or import path changes: build one store with the old code and one
with the new from the same corpus (``factsentry bench kb --workdir DIR --keep`` keeps its store),
then compare. Titles are sampled from the first store; for each, ``passages`` for a claim made of
the base name and words of the corpus, ``candidates`` for the base name and the page's length, and
``search`` for the first 200 claims and a few all-common queries. Prints ``identical`` and the
digest, or the first look-up that differs; exits 1 when any differs.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import random
import sqlite3
import sys
from pathlib import Path
from typing import Any

import orjson

from knowledge.store import Store


def sample(path: Path, n: int, seed: int) -> list[tuple[str, str, str]]:
    """``(title, base name, claim)`` for ``n`` pages drawn at random from the store at ``path``."""
    rng = random.Random(seed)
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        max_id = conn.execute("SELECT max(id) FROM entities").fetchone()[0]
        texts = conn.execute("SELECT text FROM passages WHERE rowid IN (SELECT rowid FROM passages LIMIT 300)")
        words = [w for (text,) in texts for w in text.split()]
        out: list[tuple[str, str, str]] = []
        while len(out) < n:
            row = conn.execute(
                "SELECT title, base_name FROM entities WHERE id >= ? LIMIT 1", (rng.randint(1, max_id),)
            ).fetchone()
            if row:
                claim = f"{row[1]} was born in {rng.randint(1800, 2020)} and {' '.join(rng.choices(words, k=3))}"
                out.append((row[0], row[1], claim))
    return out


def lookups(path: Path, queries: list[tuple[str, str, str]]) -> list[tuple[str, Any]]:
    """Every look-up's name and result, as JSON-ready values."""
    out: list[tuple[str, Any]] = []
    with Store.open(path) as store:
        stats = store.stats()
        out.append(("stats", [stats["entities"], stats["passages"], str(stats["version"]).split("-")[0]]))
        for title, base, claim in queries:
            out.append((f"passages({title!r}, {claim!r})", [p.model_dump() for p in store.passages(title, claim)]))
            out.append((f"candidates({base!r})", [c.model_dump() for c in store.candidates(base)]))
            out.append((f"page({title!r})", [p.passage_id for p in store.page(title)]))
        for query in [claim for _, _, claim in queries[:200]] + ["was born in the", "moved to", "in the"]:
            out.append((f"search({query!r})", [p.model_dump() for p in store.search(query, k=10)]))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--queries", type=int, default=400, help="pages sampled (default 400)")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args(argv)
    queries = sample(args.old, args.queries, args.seed)
    old, new = lookups(args.old, queries), lookups(args.new, queries)
    for (name, a), (_, b) in zip(old, new, strict=True):
        if a != b:
            print(f"DIFFERENT at {name}:\n  old {orjson.dumps(a)[:400]!r}\n  new {orjson.dumps(b)[:400]!r}")
            return 1
    digest = hashlib.sha256(orjson.dumps(old)).hexdigest()[:16]
    print(f"identical: {len(old)} look-ups, digest {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
