"""The import writer: FTS5 merges deferred during a large import, one merge of the index at its end."""

from __future__ import annotations

from pathlib import Path

import pytest

from knowledge.pages import Page
from knowledge.store import Store
from knowledge.writer import OPTIMIZE_AFTER_SEGMENTS, SqliteWriter


def _pages(n: int, start: int = 0) -> list[Page]:
    words = [f"w{i:03d}" for i in range(400)]
    return [
        Page.of(
            f"Person {i}",
            [
                " ".join(words[(i * 7 + j * 31 + k * k) % len(words)] for k in range(40)) + f" in {1800 + i}."
                for j in range(3)
            ],
        )
        for i in range(start, start + n)
    ]


def _segments(store: Store) -> int:
    return int(store._conn.execute("SELECT count(DISTINCT segid) FROM passages_idx").fetchone()[0])


def _merging(store: Store) -> dict[str, int]:
    rows = store._conn.execute("SELECT k, v FROM passages_config WHERE k IN ('automerge', 'crisismerge')")
    return {str(k): int(v) for k, v in rows}


def _small_hash(store: Store) -> Store:
    # a segment every few hundred passages, so that a test-sized import writes many
    store._conn.execute("INSERT INTO passages(passages, rank) VALUES ('hashsize', 16384)")
    return store


def _write(store: Store, pages: list[Page], defer_merges_after: int) -> None:
    with SqliteWriter(store, batch_passages=600, defer_merges_after=defer_merges_after) as w:
        for page in pages:
            w.write(page)


def test_a_large_import_merges_the_index_once_at_its_end(tmp_path: Path) -> None:
    pages = _pages(900)
    with (
        _small_hash(Store(tmp_path / "deferred.sqlite3")) as deferred,
        _small_hash(Store(tmp_path / "merging.sqlite3")) as merging,
    ):
        _write(deferred, pages, defer_merges_after=100)
        _write(merging, pages, defer_merges_after=10**9)
        assert _segments(deferred) == 1  # optimized: every term's entries in one segment
        assert _segments(merging) > 1
        assert _merging(deferred) == {"automerge": 4, "crisismerge": 16}  # FTS5's defaults again
        assert _merging(merging) == {}  # an import that never deferred leaves the settings alone
        deferred._conn.execute("INSERT INTO passages(passages) VALUES ('integrity-check')")
        assert deferred.stats()["passages"] == merging.stats()["passages"] == 2700
        for query in ("w001 w399", "w123 in 1850", "w200", "w017 w018 w019 w020"):
            found = deferred.search(query, k=10)
            assert found == merging.search(query, k=10) and len(found) == 10
        assert deferred.passages("Person 77", "w100") == merging.passages("Person 77", "w100")


def test_a_medium_import_restores_merging_without_optimizing(tmp_path: Path) -> None:
    with _small_hash(Store(tmp_path / "kb.sqlite3")) as store:
        _write(store, _pages(300), defer_merges_after=10**9)  # segments from an earlier import
        before = _segments(store)
        store._conn.execute("INSERT INTO passages(passages, rank) VALUES ('hashsize', 1 << 20)")
        _write(store, _pages(30, start=300), defer_merges_after=30)  # deferred, but one segment more
        assert _segments(store) == before + 1 < before + OPTIMIZE_AFTER_SEGMENTS
        assert _merging(store) == {"automerge": 4, "crisismerge": 16}
        assert store.stats()["passages"] == 990


def test_an_import_stopped_by_an_error_keeps_its_pages_and_restores_merging(tmp_path: Path) -> None:
    with _small_hash(Store(tmp_path / "kb.sqlite3")) as store:
        with pytest.raises(RuntimeError, match="stopped"), SqliteWriter(store, defer_merges_after=100) as w:
            for i, page in enumerate(_pages(400)):
                if i == 300:
                    raise RuntimeError("stopped")
                w.write(page)
        assert store.stats()["passages"] == 900
        assert _merging(store) == {"automerge": 4, "crisismerge": 16}
        assert _segments(store) > OPTIMIZE_AFTER_SEGMENTS  # not merged: the import did not finish


def test_small_writes_never_touch_the_merge_settings() -> None:
    store = Store.in_memory([("A Person", "She wrote a program.")])
    assert _merging(store) == {}
