"""Bounded metric label values: a client-chosen value (the ``model`` of ``/v1/factcheck``) becomes a
label only while fewer than ``limit`` distinct values have been seen; later ones count as ``other``,
so a client cannot grow the metrics endpoint without bound."""

from __future__ import annotations

import threading

OTHER = "other"


class LabelGuard:
    def __init__(self, limit: int = 50, allowed: frozenset[str] = frozenset()) -> None:
        self.limit = limit
        self.allowed = allowed  # always their own label (the configured model names)
        self._seen: set[str] = set()
        self._lock = threading.Lock()

    def __call__(self, value: str) -> str:
        if value in self.allowed or value in self._seen:
            return value
        with self._lock:
            if len(self._seen) >= self.limit:
                return OTHER
            self._seen.add(value)
            return value
