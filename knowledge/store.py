"""The knowledge store: one SQLite file with an FTS5 full-text index over the passages of entity pages.

Entities are page titles ("Dick Hanley (swimmer)"), kept as base name plus disambiguator, with
look-up keys for the base name and every alias (see ``knowledge.names``). A passage's rowid is
``entity_id << 20 | ordinal``, so the passages of one page are one rowid range: fetching them
needs no second index, and pages can be replaced or extended in place. Passages of one page are
ranked by BM25 within the page; ``search`` ranks across the store (see its docstring).

>>> store = Store.in_memory()
>>> store.add_pages([("Dick Hanley (swimmer)", "Dick Hanley won an Olympic silver medal in 1956.", ["Richard Hanley"])])
1
>>> [c.title for c in store.candidates("dick hanley")]
['Dick Hanley (swimmer)']
"""

from __future__ import annotations

import math
import sqlite3
import threading
from collections import defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson

from knowledge.errors import StoreError
from knowledge.names import KEY_FIRST_LAST, KEY_FULL, KEY_NO_INITIALS, mention_keys, split_title
from knowledge.pages import Page, PageWriter
from knowledge.text import bm25_scores, bm25_with_idf, fts_terms
from knowledge.writer import CACHE_KIB, ORD_BITS, SqliteWriter, rowid_range
from schemas.knowledge import EntityRef, Passage
from vocabulary import fold_name as fold
from vocabulary.fold import FOLD_VERSION

# 3: passages carry the transliterated forms of their non-ASCII words in a second indexed column, and names
# are keyed in vocabulary.fold's transliteration ("Władysław" under "wladyslaw"); older stores are re-imported.
SCHEMA_VERSION = "3"
FTS_HASH_BYTES = 16 << 20  # pending index memory before FTS5 writes a segment
# New stores use 16 KiB database pages and FTS5 leaves that fill one: a quarter as many index
# blobs and B-tree pages to write, read and merge as with 4 KiB. Stores made before keep theirs.
PAGE_BYTES = 16384
FTS_LEAF_BYTES = 16000
MAX_CANDIDATE_ROWS = 2_000  # candidates() considers at most this many name matches
COMMON_DF = 2_000  # search() ignores terms in more passages than this (or a tenth of the store)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entities(
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL UNIQUE,
    base_name TEXT NOT NULL,
    disambiguator TEXT,
    aliases TEXT NOT NULL,
    n_passages INTEGER NOT NULL,
    digest INTEGER NOT NULL,
    import_id INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS names(
    key TEXT NOT NULL,
    entity_id INTEGER NOT NULL,
    kind INTEGER NOT NULL,
    via_alias INTEGER NOT NULL,
    PRIMARY KEY (key, entity_id)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS passages
    USING fts5(text, folded, tokenize='unicode61 remove_diacritics 2', detail='none', columnsize='0');
"""

# How well a mention key meets an entity key, by the looser of the two kinds.
_MATCH_SCORE = {KEY_FULL: 1.0, KEY_NO_INITIALS: 0.8, KEY_FIRST_LAST: 0.5}


class Store:
    """A knowledge store in one SQLite file (or in memory); satisfies ``scoring.protocols.KnowledgeSource``.

    ``Store(path)`` creates the file if needed; ``Store.open(path)`` requires it to exist;
    ``Store(":memory:")`` / ``Store.in_memory()`` build a private store in memory. Reads are safe from
    many threads (each thread gets its own connection to a file store); writes are serialised.
    """

    def __init__(self, path: str | Path = ":memory:") -> None:
        self.path = str(path)
        self._memory = self.path == ":memory:"
        self._lock = threading.RLock()
        self._local = threading.local()
        self._conn = self._connect()
        try:
            with self._lock:
                self._conn.executescript(_SCHEMA)
                found = self._conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
                if found is None:
                    self._conn.execute("INSERT INTO passages(passages, rank) VALUES ('hashsize', ?)", (FTS_HASH_BYTES,))
                    self._conn.execute("INSERT INTO passages(passages, rank) VALUES ('pgsz', ?)", (FTS_LEAF_BYTES,))
                    self._conn.executemany(
                        "INSERT INTO meta(key, value) VALUES (?, ?)",
                        [("schema_version", SCHEMA_VERSION), ("fold", FOLD_VERSION)],
                    )
                elif found[0] != SCHEMA_VERSION:
                    raise StoreError(
                        f"{self.path} is a knowledge store of schema {found[0]}, this factsentry reads schema "
                        f"{SCHEMA_VERSION}: delete it and import again"
                    )
                else:
                    folded = self._conn.execute("SELECT value FROM meta WHERE key = 'fold'").fetchone()
                    if folded is None or folded[0] != FOLD_VERSION:
                        raise StoreError(
                            f"{self.path} keys its names by the transliteration {folded and folded[0]}, this "
                            f"factsentry by {FOLD_VERSION}: delete it and import again"
                        )
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{self.path} is not a usable knowledge store: {e}") from e
        self._version_cache: str | None = None
        self._count_cache: tuple[str, int] = ("", 1)

    # ---- construction -------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | Path) -> Store:
        """Open an existing store file; raises ``StoreError`` naming the path when it does not exist."""
        p = Path(path)
        if not p.is_file():
            raise StoreError(f"no knowledge store at {p}: build one with `factsentry kb import PATH --db {p}`")
        return cls(p)

    @classmethod
    def in_memory(cls, pages: Iterable[Page | tuple[Any, ...]] = ()) -> Store:
        """A private in-memory store, filled with ``pages`` (see ``add_pages``)."""
        store = cls(":memory:")
        store.add_pages(pages)
        return store

    def _connect(self) -> sqlite3.Connection:
        try:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30.0)
            conn.execute(f"PRAGMA page_size={PAGE_BYTES}")  # takes effect only in a file not yet written
            if not self._memory:
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{self.path} is not a usable knowledge store: {e}") from e
        return conn

    def _reader(self) -> sqlite3.Connection:
        if self._memory:
            return self._conn
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._connect()
            self._local.conn = conn
        return conn

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        if self._memory:
            with self._lock:
                yield self._conn
        else:
            yield self._reader()

    def close(self) -> None:
        """Close the store's connections (the calling thread's and the writer's)."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None
        self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- metadata -----------------------------------------------------------------------------

    def _meta(self, key: str) -> str | None:
        with self._read() as conn:
            row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    @property
    def version(self) -> str:
        """``<content hash>-<import time>``: changes whenever an import changes the content, and only then."""
        if self._memory and self._version_cache is not None:
            return self._version_cache
        digest = int(self._meta("content_sum") or 0)
        version = f"{digest:016x}-{self._meta('imported_at') or '0'}"
        if self._memory:
            self._version_cache = version
        return version

    def stats(self) -> dict[str, int | str]:
        """Counts of entities and passages, and the version."""
        with self._read() as conn:
            entities, passages = conn.execute("SELECT count(*), coalesce(sum(n_passages), 0) FROM entities").fetchone()
        return {"entities": int(entities), "passages": int(passages), "version": self.version}

    # ---- writing ------------------------------------------------------------------------------

    def writer(self) -> PageWriter:
        """A writer for one import: ``with store.writer() as w: w.write(page)``; commits in batches.

        A page whose title already exists from an earlier import is replaced (or kept when unchanged);
        a title seen again within the same import has its passages appended.
        """
        return SqliteWriter(self)

    def add_pages(self, pages: Iterable[Page | tuple[Any, ...]]) -> int:
        """Add pages as ``Page`` or ``(title, text_or_passages[, aliases])``; returns how many were written.

        ``text`` as one string is cut into passages on sentence boundaries; a list of strings is taken
        as the passages themselves. Rows with the same title are merged into one page.
        """
        with self.writer() as w:
            for p in pages:
                w.write(p if isinstance(p, Page) else Page.of(*p))
            return w.written

    def optimize(self) -> None:
        """Merge the full-text index into one segment, the fastest layout for store-wide ``search``.

        A large import ends with this merge already (see ``knowledge.writer``); after smaller ones it
        costs about 3 s per million passages in the store. Page look-ups do not need it."""
        with self._lock:
            self._conn.execute("INSERT INTO passages(passages) VALUES ('optimize')")

    # ---- look-ups -----------------------------------------------------------------------------

    def _entity(self, conn: sqlite3.Connection, title: str) -> tuple[int, int] | None:
        row = conn.execute("SELECT id, n_passages FROM entities WHERE title = ?", (title,)).fetchone()
        return None if row is None else (int(row[0]), int(row[1]))

    def candidates(self, mention: str, limit: int = 20) -> list[EntityRef]:
        """Every entity ``mention`` can refer to, best first.

        Matches the base name or an alias ignoring case, diacritics and script (names are keyed
        transliterated: "Wladyslaw" finds "Władysław", "Odegaard" "Ødegaard"), punctuation, middle initials
        and "Jr."; looser matches (first and last name only, the name without a title before it,
        a short word read as letters: see ``mention_keys``) rank lower. A mention with a
        disambiguator ("Dick Hanley (swimmer)") puts the page it names first.
        """
        base, disamb = split_title(mention)
        mkeys = mention_keys(base)
        if not mkeys:
            return []
        with self._read() as conn:
            marks = ",".join("?" * len(mkeys))
            # The strictest matches first, and not unboundedly many for a name shared by thousands of pages.
            rows = conn.execute(
                "SELECT n.key, n.kind, n.via_alias, e.title, e.base_name, e.disambiguator, e.aliases, e.n_passages "
                f"FROM (SELECT * FROM names WHERE key IN ({marks}) ORDER BY kind, via_alias LIMIT ?) n "
                "JOIN entities e ON e.id = n.entity_id",
                [*mkeys, max(MAX_CANDIDATE_ROWS, 4 * limit)],
            ).fetchall()
            exact = conn.execute(
                "SELECT base_name, 0, 0, title, base_name, disambiguator, aliases, n_passages FROM entities "
                "WHERE title = ?",
                (" ".join(mention.split()),),
            ).fetchall()
            rows += [(fold(r[0]) if fold(r[0]) in mkeys else next(iter(mkeys)), *r[1:]) for r in exact]
        folded_mention, folded_disamb = fold(mention), fold(disamb) if disamb else None
        best: dict[str, tuple[float, tuple[Any, ...]]] = {}
        for key, kind, via_alias, title, base_name, disambiguator, aliases, n_passages in rows:
            score = _MATCH_SCORE[max(kind, mkeys[key])] - 0.1 * via_alias
            if fold(title) == folded_mention:
                score += 0.5
            elif disamb and any(fold(a) == folded_mention for a in orjson.loads(aliases)):
                score += 0.45
            elif folded_disamb and disambiguator and folded_disamb in fold(disambiguator):
                score += 0.3
            if disambiguator is None:
                score += 0.02
            score += 0.01 * min(1.0, math.log1p(n_passages) / math.log(101))
            if title not in best or score > best[title][0]:
                best[title] = (score, (title, base_name, disambiguator, aliases))
        ranked = sorted(best.values(), key=lambda sv: (-sv[0], sv[1][0]))[:limit]
        return [
            EntityRef(title=t, base_name=b, disambiguator=d, aliases=orjson.loads(a), score=round(s, 4))
            for s, (t, b, d, a) in ranked
        ]

    def page(self, title: str) -> list[Passage]:
        """Every passage of the page ``title`` in page order (empty when there is no such page)."""
        with self._read() as conn:
            found = self._entity(conn, title)
            if found is None:
                return []
            lo, hi = rowid_range(found[0])
            rows = conn.execute("SELECT rowid, text FROM passages WHERE rowid BETWEEN ? AND ?", (lo, hi)).fetchall()
        return [Passage(title=title, text=text, passage_id=rowid) for rowid, text in rows]

    def passages(self, title: str, query: str, k: int = 5) -> list[Passage]:
        """The best ``k`` passages of the page ``title`` for ``query``, by BM25 within the page.

        Passages that share no word with ``query`` follow in page order, so a page always yields
        its first passages; an unknown title yields ``[]``.
        """
        page = self.page(title)
        if not page:
            return []
        scores = bm25_scores(query, [p.text for p in page])
        order = sorted(range(len(page)), key=lambda i: (-scores[i], i))[:k]
        return [page[i].model_copy(update={"score": round(scores[i], 4)}) for i in order]

    def search(self, query: str, k: int = 5) -> list[Passage]:
        """The best ``k`` passages across the whole store for ``query``.

        Words match however their letters are written: the query is transliterated, and every passage is
        indexed with the transliterated forms of its non-ASCII words beside its text ("Wroclaw" finds
        "Wrocław", "Strasse" "Straße").

        Cost stays bounded at any corpus size: terms found in more than ``COMMON_DF`` passages do not
        pick passages (they weigh little in BM25); passages holding the rarer terms are ranked by the
        sum of those terms' idf, and the best 50 are re-ranked by BM25 with term frequencies. When
        every term is common, passages holding all of them (or all but the last few) are ranked.
        """
        words = fts_terms(query)
        if not words:
            return []
        with self._read() as conn:
            total = self._passage_count(conn)
            common_df = max(50, min(COMMON_DF, total // 10))
            idf: dict[str, float] = {}
            hits: dict[int, float] = defaultdict(float)
            common = []
            for word in words:
                phrase = f'"{word}"'
                df = conn.execute(
                    "SELECT count(*) FROM (SELECT 1 FROM passages WHERE passages MATCH ? LIMIT ?)",
                    (phrase, common_df + 1),
                ).fetchone()[0]
                if df > common_df:
                    common.append(word)
                    continue
                rows = conn.execute("SELECT rowid FROM passages WHERE passages MATCH ?", (phrase,)).fetchall()
                idf[word] = w = math.log(1.0 + (total - len(rows) + 0.5) / (len(rows) + 0.5))
                for (rowid,) in rows:
                    hits[rowid] += w
            if not hits:  # only common words: passages holding all of them, else all but the last, ...
                for n in range(len(common), max(0, len(common) - 4), -1):
                    expr = " AND ".join(f'"{w}"' for w in common[:n])
                    rows = conn.execute(
                        "SELECT rowid FROM passages WHERE passages MATCH ? LIMIT 50", (expr,)
                    ).fetchall()
                    if rows:
                        hits = defaultdict(float, {rowid: 0.0 for (rowid,) in rows})
                        break
            idf.update({w: math.log(1.0 + total / common_df) for w in common})  # at most a rare word's weight
            shortlist = sorted(hits, key=lambda r: (-hits[r], r))[:50]
            if not shortlist:
                return []
            marks = ",".join("?" * len(shortlist))
            rows = conn.execute(
                f"SELECT p.rowid, p.text, e.title FROM passages p JOIN entities e ON e.id = (p.rowid >> {ORD_BITS}) "
                f"WHERE p.rowid IN ({marks})",
                shortlist,
            ).fetchall()
        scored = [(bm25_with_idf(idf, text), rowid, text, title) for rowid, text, title in rows]
        scored.sort(key=lambda x: (-x[0], x[1]))
        return [Passage(title=t, text=x, passage_id=r, score=round(sc, 4)) for sc, r, x, t in scored[:k]]

    def _passage_count(self, conn: sqlite3.Connection) -> int:
        version = self.version
        if self._count_cache[0] != version:  # a full scan of the entities, once per store version
            total = int(conn.execute("SELECT coalesce(sum(n_passages), 0) FROM entities").fetchone()[0])
            self._count_cache = (version, max(1, total))
        return self._count_cache[1]

    def titles(self, base_name: str) -> list[str]:
        """Titles of every page whose base name folds to the same key as ``base_name``."""
        return [c.title for c in self.candidates(base_name, limit=10_000) if fold(c.base_name) == fold(base_name)]
