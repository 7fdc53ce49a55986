"""A page as importers produce it, its content digest, and the writer interface a store offers."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from knowledge.text import split_passages


def _squash(text: str) -> str:
    # Substring tests run in C; splitting and joining every passage of a dump would not.
    odd = "  " in text or "\n" in text or "\t" in text or "\r" in text or text[:1].isspace() or text[-1:].isspace()
    return " ".join(text.split()) if odd else text


@dataclass(frozen=True, slots=True)
class Page:
    """One entity page: its title, its passages in page order, and other names it goes by."""

    title: str
    passages: tuple[str, ...]
    aliases: tuple[str, ...] = ()

    @classmethod
    def of(cls, title: str, text: str | Sequence[str], aliases: Sequence[str] = ()) -> Page:
        """Build a page from a whole text (cut into passages) or a list of passages.

        >>> Page.of(" Dick  Hanley ", "He swam.", ["Richard Hanley"])
        Page(title='Dick Hanley', passages=('He swam.',), aliases=('Richard Hanley',))
        """
        title = " ".join(title.split())
        if isinstance(text, str):
            passages = tuple(split_passages(text))
        else:
            passages = tuple(p for p in (_squash(t) for t in text) if p)
        clean_aliases = tuple(dict.fromkeys(a2 for a in aliases if (a2 := " ".join(a.split())) and a2 != title))
        return cls(title, passages, clean_aliases)


def page_digest(page: Page, seed: int = 0) -> int:
    """A 62-bit digest of a page's title, aliases and passages (chained onto ``seed`` for appended parts)."""
    h = hashlib.blake2b(digest_size=8)
    h.update(seed.to_bytes(8, "little"))
    h.update(page.title.encode())
    for alias in page.aliases:
        h.update(b"\x1f" + alias.encode())
    for passage in page.passages:
        h.update(b"\x1e" + passage.encode())
    return int.from_bytes(h.digest(), "little") >> 2


@dataclass
class PageWriter:
    """Base of a store's import writer: counts what ``write`` did; subclasses implement ``_write``."""

    written: int = 0
    unchanged: int = 0
    passages: int = 0
    empty: int = field(default=0)

    def write(self, page: Page, digest: int | None = None) -> bool:
        """Write one page; returns ``False`` when it was skipped (unchanged, or without passages).

        ``digest`` is ``page_digest(page)`` when the caller has it already (importers compute it in
        their reader thread).
        """
        if not page.passages or not page.title:
            self.empty += 1
            return False
        if self._write(page, page_digest(page) if digest is None else digest):
            self.written += 1
            self.passages += len(page.passages)
            return True
        self.unchanged += 1
        return False

    def _write(self, page: Page, digest: int) -> bool:
        raise NotImplementedError

    def __enter__(self) -> PageWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        return None
