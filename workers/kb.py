"""The knowledge store a worker scores against, and its Redis cache.

Which store: ``FACTSENTRY_KB_PATH`` (``--kb``) when set; else the demo store that ``make kb`` builds
at ``var/demo-kb.sqlite3``; else an in-memory store imported from the demo pages shipped in
``knowledge/demo``, so a worker always starts.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prometheus_client import CollectorRegistry

import knowledge
from knowledge.cache import Cache, CachedKnowledge, RedisBackend, VersionedVerdictCache, cache_metrics
from knowledge.errors import KnowledgeError
from knowledge.importers import import_path
from knowledge.store import Store
from workers.errors import ScoringUnavailable

log = logging.getLogger(__name__)

DEMO_KB_PATH = Path("var/demo-kb.sqlite3")
DEMO_PAGES = Path(knowledge.__file__).resolve().parent / "demo"


def resolve_kb_path(configured: Path | None) -> Path | None:
    """The store file to open: ``configured``, else the demo file if built; None means the in-memory demo."""
    if configured is not None:
        return configured
    return DEMO_KB_PATH if DEMO_KB_PATH.is_file() else None


def open_store(path: Path | None) -> Store:
    """Open the store at ``path``, or build the demo store in memory when ``path`` is None.

    Raises :class:`ScoringUnavailable` with the reason when the store cannot be used.
    """
    try:
        if path is not None:
            return Store.open(path)
        store = Store.in_memory()
        report = import_path(DEMO_PAGES, store)
        log.info("no knowledge store configured: using the %d demo pages in memory", report.usable)
        return store
    except (KnowledgeError, OSError) as e:
        raise ScoringUnavailable(f"cannot open the knowledge store {path or DEMO_PAGES}: {e}") from e


@dataclass
class Knowledge:
    """What scoring reads: the store (cached when Redis is configured) and a versioned verdict cache."""

    store: Store
    source: Store | CachedKnowledge
    verdicts: VersionedVerdictCache | None

    def close(self) -> None:
        self.store.close()


def open_knowledge(
    path: Path | None,
    redis_url: str | None,
    registry: CollectorRegistry | None = None,
    prefix: str = "factsentry",
    redis_options: dict[str, Any] | None = None,
) -> Knowledge:
    """The store at ``path`` (see :func:`open_store`), behind the Redis cache at ``redis_url`` if given.

    Cache hit/miss counters go to ``registry`` (the worker's), so they are served with its metrics.
    """
    store = open_store(path)
    if not redis_url:
        return Knowledge(store, store, None)
    metrics = cache_metrics(registry) if registry is not None else None
    cache = Cache(RedisBackend.from_url(redis_url, **(redis_options or {})), metrics=metrics, prefix=f"{prefix}:cache:")
    return Knowledge(store, CachedKnowledge(store, cache), VersionedVerdictCache(cache, store))
