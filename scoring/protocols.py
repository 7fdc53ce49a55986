"""What scoring is handed by its caller. Scoring never does I/O itself; these are the seams.

``knowledge.Store`` (SQLite), ``knowledge.CachedKnowledge`` (Redis) and test tables all satisfy
``KnowledgeSource`` structurally; ``scoring.verifier.OfflineVerifier`` satisfies ``StanceModel``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from schemas.enums import Stance
from schemas.knowledge import EntityRef, Passage


class KnowledgeSource(Protocol):
    """Entities behind a name and the passages of each entity's page."""

    @property
    def version(self) -> str:
        """Content version of the store; every cache key includes it."""
        ...

    def candidates(self, mention: str, limit: int = 20) -> list[EntityRef]:
        """Every entity ``mention`` can refer to, best first."""
        ...

    def passages(self, title: str, query: str, k: int = 5) -> list[Passage]:
        """The best ``k`` passages of the page ``title`` for ``query``."""
        ...

    def search(self, query: str, k: int = 5) -> list[Passage]:
        """The best ``k`` passages across the whole store."""
        ...


@runtime_checkable
class DocumentGrounded(Protocol):
    """A knowledge source built from a request's own documents (``knowledge.documents.DocumentSource``):
    every document is a candidate entity of every group, and ``store`` is the store used as well, if any."""

    documents: list[EntityRef]
    store: KnowledgeSource | None


class VerdictCache(Protocol):
    """A synchronous key/value cache for verdicts (Redis or in-process LRU)."""

    def get(self, key: str) -> bytes | None: ...

    def set(self, key: str, value: bytes) -> None: ...


class MemoryVerdictCache:
    """A ``VerdictCache`` in a dict, never evicted: for one check's re-check, the scoring bench and tests
    (the worker uses Redis or a bounded LRU)."""

    def __init__(self, items: dict[str, bytes] | None = None) -> None:
        self.data: dict[str, bytes] = {} if items is None else items

    def get(self, key: str) -> bytes | None:
        return self.data.get(key)

    def set(self, key: str, value: bytes) -> None:
        self.data[key] = value


class StanceLike(Protocol):
    """The stance of one passage towards a claim, with probabilities (``scoring.verifier.StanceScore``)."""

    @property
    def stance(self) -> Stance: ...

    @property
    def support(self) -> float: ...

    @property
    def refute(self) -> float: ...

    @property
    def irrelevant(self) -> float: ...


class StanceModel(Protocol):
    """Scores passages against a claim (``scoring.verifier.OfflineVerifier``, an NLI model, ...)."""

    @property
    def version(self) -> str:
        """Changes whenever the model's outputs may change; verdict cache keys include it."""
        ...

    def score(self, claim: str, passages: Sequence[str]) -> Sequence[StanceLike]:
        """One stance per passage, in order."""
        ...
