"""The knowledge store: entities behind a name, their passages, importers, and the verdict cache."""

from __future__ import annotations

from knowledge.errors import CacheUnavailableError, ImportFormatError, KnowledgeError, StoreError
from knowledge.pages import Page
from knowledge.store import Store

__all__ = ["CacheUnavailableError", "ImportFormatError", "KnowledgeError", "Page", "Store", "StoreError"]
