"""Writing pages into a ``Store``: batched transactions, idempotent replacement, the content digest.

A passage's rowid is ``entity_id << ORD_BITS | ordinal``. Re-writing a title from an earlier import
replaces the page (or keeps it, when its digest is unchanged); the same title again within one
import extends the page. The store's content hash is the sum of its pages' digests, kept up to
date as pages come and go, so it never needs a pass over the store.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import orjson

from knowledge.errors import StoreError
from knowledge.names import entity_keys, split_title
from knowledge.pages import Page, PageWriter, page_digest
from knowledge.text import folded_words

if TYPE_CHECKING:
    from knowledge.store import Store

ORD_BITS = 20
ORD_MASK = (1 << ORD_BITS) - 1
CACHE_KIB = 32 << 10  # SQLite page cache per connection
IMPORT_CACHE_KIB = 256 << 10  # and for the writer during an import: FTS5 merges stay in memory
# FTS5 writes its pending index as a new segment every FTS_HASH_BYTES and by default merges segments
# four at a time as they pile up, rewriting every entry at each level. An import this large stops
# that (it merges only past IMPORT_CRISIS_MERGE segments on one level, which bounds their number)
# and, if it wrote OPTIMIZE_AFTER_SEGMENTS segments or more, merges the whole index once at the end.
DEFER_MERGES_AFTER = 20_000  # passages
IMPORT_CRISIS_MERGE = 64
OPTIMIZE_AFTER_SEGMENTS = 8
FTS5_MERGING = {"automerge": 4, "crisismerge": 16}  # FTS5's defaults, the settings outside imports


def rowid_range(entity_id: int) -> tuple[int, int]:
    """The first and last rowid the passages of ``entity_id`` can have."""
    return entity_id << ORD_BITS, (entity_id << ORD_BITS) | ORD_MASK


class SqliteWriter(PageWriter):
    """Writes pages into a ``Store`` in batched transactions; see ``Store.writer``."""

    def __init__(
        self, store: Store, batch_passages: int = 200_000, defer_merges_after: int = DEFER_MERGES_AFTER
    ) -> None:
        super().__init__()
        self.store = store
        self.conn = store._conn
        self.batch_passages = batch_passages
        self.defer_merges_after = defer_merges_after
        self._pending = 0
        self._sum_start = 0
        self._sum = 0
        self._import_id = 0
        self._names_buf: list[tuple[str, int, int, int]] = []
        self._passages_buf: list[tuple[int, str]] = []
        self._merges_deferred = False
        self._segments_before = 0

    def __enter__(self) -> SqliteWriter:
        self.store._lock.acquire()
        try:
            row = self.conn.execute("SELECT value FROM meta WHERE key = 'import_seq'").fetchone()
            self._import_id = int(row[0]) + 1 if row else 1
            self._sum_start = self._sum = int(self.store._meta("content_sum") or 0)
            self.conn.execute(f"PRAGMA cache_size=-{IMPORT_CACHE_KIB}")
            self.conn.execute("BEGIN")
            self.conn.execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES ('import_seq', ?)", (str(self._import_id),)
            )
        except BaseException:
            self.store._lock.release()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        # Commit on errors too: an import stopped half-way keeps the pages it finished.
        try:
            self._finish_batch(final=True)
            if self._merges_deferred:
                self._merge_index(optimize=exc[0] is None)
        finally:
            self.conn.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
            self.store._version_cache = None
            self.store._lock.release()

    def _finish_batch(self, final: bool = False) -> None:
        self._flush()
        meta = [("content_sum", str(self._sum))]
        if self._sum != self._sum_start:
            meta.append(("imported_at", str(int(time.time()))))
        self.conn.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", meta)
        self.conn.execute("COMMIT")
        self._pending = 0
        if not final:
            self.conn.execute("BEGIN")

    def _segments(self) -> int:
        # Every segment has at least one row in the index's b-tree table: the key of its first leaf.
        return int(self.conn.execute("SELECT count(DISTINCT segid) FROM passages_idx").fetchone()[0])

    def _set_merging(self, settings: dict[str, int]) -> None:
        self.conn.executemany("INSERT INTO passages(passages, rank) VALUES (?, ?)", list(settings.items()))

    def _defer_merges(self) -> None:
        self._merges_deferred = True
        self._segments_before = self._segments()
        self._set_merging({"automerge": 0, "crisismerge": IMPORT_CRISIS_MERGE})

    def _merge_index(self, optimize: bool) -> None:
        """Merge as FTS5 does by default again and, after a large import, merge the index into one segment.

        The defaults are set, not a saved copy: an import that died before this left its own settings.
        """
        self.conn.execute("BEGIN")
        try:
            self._set_merging(FTS5_MERGING)
            if optimize and self._segments() - self._segments_before >= OPTIMIZE_AFTER_SEGMENTS:
                self.conn.execute("INSERT INTO passages(passages) VALUES ('optimize')")
        finally:
            self.conn.execute("COMMIT")
            self._merges_deferred = False

    def _flush(self) -> None:
        if self._names_buf:
            self.conn.executemany(
                "INSERT OR REPLACE INTO names(key, entity_id, kind, via_alias) VALUES (?, ?, ?, ?)", self._names_buf
            )
            self._names_buf = []
        if self._passages_buf:
            self.conn.executemany(
                "INSERT INTO passages(rowid, text, folded) VALUES (?, ?, ?)",
                [(rowid, text, folded_words(text)) for rowid, text in self._passages_buf],
            )
            self._passages_buf = []

    def _write(self, page: Page, digest: int) -> bool:
        conn = self.conn
        base, disamb = split_title(page.title)
        aliases = list(page.aliases)
        first_ord = 0
        old_keys: dict[str, tuple[int, int]] = {}
        old_digest = 0
        # Most pages of an import are new: insert first, and look the title up only when it is taken.
        added = conn.execute(
            "INSERT OR IGNORE INTO entities(title, base_name, disambiguator, aliases, n_passages, digest, import_id) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (page.title, base, disamb, orjson.dumps(aliases).decode(), len(page.passages), digest, self._import_id),
        )
        if added.rowcount == 1:
            entity_id = added.lastrowid
            assert entity_id is not None
        else:
            row = conn.execute(
                "SELECT id, digest, import_id, n_passages, base_name, aliases FROM entities WHERE title = ?",
                (page.title,),
            ).fetchall()[0]  # to the end: a statement left active slows every later write
            if row[1] == digest:
                return False
            entity_id, old_digest, import_id, n_old, old_base, old_aliases_json = row
            old_aliases = orjson.loads(old_aliases_json)
            old_keys = entity_keys(old_base, old_aliases)
            if import_id == self._import_id:  # the same title again within one import: extend the page
                self._flush()
                lo, hi = rowid_range(entity_id)
                known = {t for (t,) in conn.execute("SELECT text FROM passages WHERE rowid BETWEEN ? AND ?", (lo, hi))}
                fresh = tuple(p for p in page.passages if p not in known)
                new_aliases = [a for a in aliases if a not in old_aliases]
                if not fresh and not new_aliases:
                    return False
                page = Page(page.title, fresh, tuple(new_aliases))
                first_ord = n_old
                aliases = old_aliases + new_aliases
                digest = page_digest(page, seed=old_digest)
            else:
                self._flush()
                lo, hi = rowid_range(entity_id)
                conn.execute("DELETE FROM passages WHERE rowid BETWEEN ? AND ?", (lo, hi))
            if first_ord + len(page.passages) > ORD_MASK:
                raise StoreError(f"page {page.title!r} has more than {ORD_MASK} passages")
            conn.execute(
                "UPDATE entities SET aliases = ?, n_passages = ?, digest = ?, import_id = ? WHERE id = ?",
                (orjson.dumps(aliases).decode(), first_ord + len(page.passages), digest, self._import_id, entity_id),
            )
        new_keys = entity_keys(base, aliases)
        stale = [(key, entity_id) for key in old_keys if old_keys[key] != new_keys.get(key)]
        if stale:
            self._flush()
            conn.executemany("DELETE FROM names WHERE key = ? AND entity_id = ?", stale)
        self._names_buf.extend(
            (key, entity_id, kind, via) for key, (kind, via) in new_keys.items() if old_keys.get(key) != (kind, via)
        )
        base_rowid = (entity_id << ORD_BITS) + first_ord
        self._passages_buf.extend(zip(range(base_rowid, base_rowid + len(page.passages)), page.passages, strict=True))
        if len(self._passages_buf) >= 5_000:
            self._flush()
        self._sum = (self._sum - old_digest + digest) % (1 << 63)
        self._pending += len(page.passages)
        if not self._merges_deferred and self.passages + len(page.passages) >= self.defer_merges_after:
            self._defer_merges()
        if self._pending >= self.batch_passages:
            self._finish_batch()
        return True
