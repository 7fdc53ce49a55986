"""Errors of the knowledge package.

KnowledgeError                 base class; ``retriable`` says whether trying again can help
 ├── StoreError                the SQLite store is missing, unreadable or not a factsentry store
 ├── ImportFormatError         an import source has an unknown or unsupported format
 └── CacheUnavailableError     the Redis cache cannot be reached (retriable; callers fall back to no cache)
"""

from __future__ import annotations

from typing import ClassVar


class KnowledgeError(Exception):
    """Base class of every error raised by ``knowledge``."""

    retriable: ClassVar[bool] = False


class StoreError(KnowledgeError):
    """The store file cannot be opened or does not hold a factsentry knowledge store."""


class ImportFormatError(KnowledgeError):
    """An import source is of an unknown format, or does not look like the format that was asked for."""


class CacheUnavailableError(KnowledgeError):
    """The Redis cache did not answer; the caller carries on without it."""

    retriable: ClassVar[bool] = True
