"""Real data: every AmbigBio page that shares a generation's name is a candidate for that name."""

from __future__ import annotations

from pathlib import Path

import orjson

from knowledge.names import fold, split_title
from knowledge.store import Store


def test_candidates_cover_every_page_behind_ambigbio_names(shared_data: Path) -> None:
    lines = (shared_data / "ambigbio" / "generations.dev.jsonl").read_bytes().splitlines()
    items = [orjson.loads(line) for line in lines[::5]]
    checked = 0
    for item in items:
        with Store.in_memory([(p["title"], [p["text"]]) for p in item["passages"]]) as store:
            found = {c.title for c in store.candidates(item["name"], limit=100)}
            for title in {p["title"] for p in item["passages"]}:
                if fold(split_title(title)[0]) == fold(item["name"]):
                    assert title in found, (item["name"], title)
                    assert store.passages(title, item["name"], k=1)[0].title == title
                    checked += 1
    assert checked >= len(items)  # most generations cite at least one page of their own name
