"""The knowledge store: entities behind a name, their passages, importers, and the verdict cache.

>>> from knowledge import Store
>>> store = Store.in_memory([("Dick Hanley (swimmer)", "He swam."), ("Dick Hanley (coach)", "He coached.")])
>>> [c.title for c in store.candidates("Dick Hanley")]
['Dick Hanley (coach)', 'Dick Hanley (swimmer)']
"""

from __future__ import annotations

from knowledge.cache import Cache, CachedKnowledge, VersionedVerdictCache, cache_metrics, make_cache, verdict_key
from knowledge.errors import CacheUnavailableError, ImportFormatError, KnowledgeError, StoreError
from knowledge.importers import ImportReport, import_path
from knowledge.pages import Page
from knowledge.store import Store

__all__ = [
    "Cache",
    "CacheUnavailableError",
    "CachedKnowledge",
    "ImportFormatError",
    "ImportReport",
    "KnowledgeError",
    "Page",
    "Store",
    "StoreError",
    "VersionedVerdictCache",
    "cache_metrics",
    "import_path",
    "make_cache",
    "verdict_key",
]
