"""A request's own documents as a knowledge source: retrieval-augmented answers checked against what
the application retrieved for them.

Each source is a page of a private in-memory store and a candidate entity of every fact group, so
D-FActScore links each group to the source that supports it — two documents about two namesakes are
two entities, as two pages of the store are. A source is a document's ``entity`` when the caller
names one, else its title; documents of the same source are one page (chunks of one article, or
the manual and the warranty of one product when both name it as their entity), and documents
without either are one page, "Context". With ``store`` given (a policy's ``grounding:
documents_and_store``) the store's entities are candidates as well; a title both have is the
document's.

>>> docs = DocumentSource.of([("Acme X2 manual", "The Acme X2 router has four ports.")])
>>> [ref.title for ref in docs.documents]
['Acme X2 manual']
>>> docs.passages("Acme X2 manual", "ports")[0].text
'The Acme X2 router has four ports.'
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from knowledge.cache import KnowledgeSource
from knowledge.pages import Page
from knowledge.store import Store
from schemas.check import CheckResult
from schemas.knowledge import EntityRef, Passage

CONTEXT = "Context"


def source_title(title: str, entity: str = "") -> str:
    """The page a document belongs to: its entity, else its title, else the untitled documents' page."""
    return " ".join(entity.split()) or " ".join(title.split()) or CONTEXT


class DocumentSource:
    """The documents of one request (and the store too, when given) as one ``KnowledgeSource``."""

    def __init__(
        self,
        pages: Store,
        documents: list[EntityRef],
        digest: str,
        store: KnowledgeSource | None,
        ids: dict[tuple[str, str], str] | None = None,
    ) -> None:
        self._pages = pages
        self.documents = documents
        self._titles = frozenset(d.title for d in documents)
        self._digest = digest
        self.store = store
        self._ids = ids or {}

    @classmethod
    def of(
        cls,
        documents: Sequence[tuple[str, ...]],
        store: KnowledgeSource | None = None,
    ) -> DocumentSource:
        """From ``(title, text[, entity[, id]])`` tuples in the request's order; ``store``: checked against as
        well. A document's ``id`` (a tool message's ``tool_call_id``) names the evidence its passages give."""
        pages = [Page.of(source_title(d[0], d[2] if len(d) > 2 else ""), d[1]) for d in documents]
        ids: dict[tuple[str, str], str] = {}
        for page, d in zip(pages, documents, strict=True):
            for passage in page.passages if len(d) > 3 and d[3] else ():
                ids.setdefault((page.title, passage), d[3])
        memory = Store.in_memory(pages)
        h = hashlib.blake2b(digest_size=8)
        for page in pages:
            h.update(page.title.encode() + b"\x1f" + "\x1e".join(page.passages).encode() + b"\x1d")
        refs: dict[str, EntityRef] = {}
        for page in pages:
            if page.title not in refs and page.passages:
                refs[page.title] = next(
                    (r for r in memory.candidates(page.title) if r.title == page.title),
                    EntityRef(title=page.title, base_name=page.title),
                )
        return cls(memory, list(refs.values()), h.hexdigest(), store, ids)

    def name_evidence(self, check: CheckResult) -> None:
        """Name on each piece of ``check``'s evidence the document it is from (``Evidence.document``), by id."""
        for group in check.groups:
            for fact in group.facts:
                for evidence in fact.evidence:
                    evidence.document = self._ids.get((evidence.title, evidence.text), evidence.document)

    @property
    def version(self) -> str:
        """The documents' digest, and the store's version when it is used too (every cache key holds it)."""
        own = f"docs-{self._digest}"
        return own if self.store is None else f"{own}+{self.store.version}"

    def candidates(self, mention: str, limit: int = 20) -> list[EntityRef]:
        """Documents whose title names ``mention`` first, then the store's entities of that name."""
        own = self._pages.candidates(mention, limit=limit)
        if self.store is None:
            return own
        theirs = [r for r in self.store.candidates(mention, limit=limit) if r.title not in self._titles]
        return (own + theirs)[:limit]

    def passages(self, title: str, query: str, k: int = 5) -> list[Passage]:
        if title in self._titles or self.store is None:
            return self._pages.passages(title, query, k)
        return self.store.passages(title, query, k)

    def search(self, query: str, k: int = 5) -> list[Passage]:
        """The documents' best passages, then the store's (their scores are not comparable)."""
        own = self._pages.search(query, k)
        if self.store is None or len(own) >= k:
            return own
        theirs = [p for p in self.store.search(query, k) if p.title not in self._titles]
        return (own + theirs)[:k]

    def close(self) -> None:
        self._pages.close()
