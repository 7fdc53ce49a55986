"""An answer as a document: the blocks a markdown parser (markdown-it-py, CommonMark with tables) finds in it.

Each block is frozen and knows its span of the answer as written: headings, paragraphs (a list item's with its
nesting, a block quote's marked as quoted), tables (header, rows, cells), code fences (with their language),
footnotes and the answer's sources (a list under a "Sources" heading or label, a paragraph of bare links).
Every block names the heading whose section it is in. Person scopes (``scoring.segment.scopes``) and sentences
(``scoring.sentences``) are read from these blocks; the answer is parsed once (the parse is cached by text).

>>> doc = parse("### Kenji Sato, potter\\n\\n- Born in 1951\\n  - in Mashiko\\n\\n|Born|1951|\\n|--|--|\\n|Died|-|")
>>> [(b.kind, b.text, b.depth) for b in doc.blocks]
[('heading', 'Kenji Sato, potter', 0), ('paragraph', 'Born in 1951', 1), ('paragraph', 'in Mashiko', 2), \
('table', '', 0)]
>>> doc.blocks[3].rows
(('Born', '1951'), ('Died', '-'))
>>> doc.text[slice(*doc.blocks[1].span)]
'- Born in 1951\\n'
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from scoring.segment.formats import read_formats
from vocabulary.document import SOURCE_LABELS

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

Span = tuple[int, int]

HEADING = "heading"
PARAGRAPH = "paragraph"
TABLE = "table"
FENCE = "fence"
FOOTNOTE = "footnote"
SOURCES = "sources"

TEXT = "text"
STRONG = "strong"
BREAK = "break"


@dataclass(frozen=True)
class Block:
    """One block of an answer.

    ``text`` is the block's inline content as written, without the markers of the containers it is in (list
    bullets, quote markers, indentation); a fence's is its code. ``depth`` is the list nesting (0: no list),
    ``items`` the ids of the list items the block is in (outermost first), ``item`` whether it opens its list
    item. ``section`` is the index of the heading whose section it is in (-1: before any heading)."""

    kind: str
    span: Span
    text: str = ""
    level: int = 0
    depth: int = 0
    items: tuple[int, ...] = ()
    item: bool = False
    quoted: bool = False
    info: str = ""
    rows: tuple[tuple[str, ...], ...] = ()
    header: bool = False
    section: int = -1
    # The inline content as the parser read it: (kind, text) pieces, kind one of ``TEXT``, ``STRONG`` (a bold
    # span's text), ``BREAK`` (a line break inside the block). Emphasis, code and link markup are gone; a table's
    # cells are in ``rows`` already read this way.
    inline: tuple[tuple[str, str], ...] = ()

    def plain(self, dash_labels: bool = False) -> str:
        """The block's text without inline markup; with ``dash_labels``, a bold label set off by a dash at the start
        of a line ("**War years** — He spent …") reads as a label with a colon ("War years: He spent …")."""
        return render(self.inline, dash_labels) if self.inline else self.text


@dataclass(frozen=True)
class Document:
    """The blocks of one answer, in order."""

    text: str
    blocks: tuple[Block, ...]
    # The spans of the answer's citation markers (with the space before one).
    citations: tuple[Span, ...] = ()

    def claims(self) -> tuple[Block, ...]:
        """The blocks that may make claims: all but footnotes and the answer's sources."""
        return tuple(b for b in self.blocks if b.kind not in (FOOTNOTE, SOURCES))


# A citation marker: "[4]", "[1, 2]", "[citation needed]", a footnote's "[^1]". Markdown has no syntax for the first
# three, so they are found in the text; none is a claim.
CITATION = re.compile(r"\s*\[(?:\d+(?:\s*[,–-]\s*\d+)*|citation needed|[a-z]\]|\^[\w-]{1,20})\]", re.IGNORECASE)

_parser: MarkdownIt | None = None


def _markdown() -> MarkdownIt:
    global _parser
    if _parser is None:
        from markdown_it import MarkdownIt

        # CommonMark and GFM tables; no raw HTML rendering is ever asked for (only the token stream is read).
        _parser = MarkdownIt("commonmark").enable("table")
    return _parser


@lru_cache(maxsize=256)
def parse(text: str, rules_off: frozenset[str] = frozenset()) -> Document:
    """The document of ``text`` (cached: the checker and its steps ask for the same answer's more than once). A part
    written in another notation (LaTeX, XML, CSV, …: ``scoring.segment.formats``) is read as the markdown it stands
    for; the document's text and spans are then those of that reading."""
    text = read_formats(text, rules_off)
    tokens = _markdown().parse(text)
    starts = [0]
    for k, ch in enumerate(text):
        if ch == "\n":
            starts.append(k + 1)
    citations = tuple(m.span() for m in CITATION.finditer(text))
    return Document(text, tuple(_sources(_Walk(text, starts).blocks(tokens))), citations)


class _Walk:
    """One pass over the token stream, keeping the containers open at each token."""

    def __init__(self, text: str, starts: list[int]) -> None:
        self.text = text
        self.starts = starts
        self.items: list[int] = []
        self.next_item = 0
        self.quotes = 0
        self.section = -1

    def span(self, lines: list[int] | None) -> Span:
        if not lines:
            return (0, 0)
        first, last = lines
        end = self.starts[last] if last < len(self.starts) else len(self.text)
        return (self.starts[min(first, len(self.starts) - 1)], end)

    def blocks(self, tokens: list[Token]) -> list[Block]:
        out: list[Block] = []
        opens_item = False
        i = 0
        while i < len(tokens):
            t = tokens[i]
            kind = t.type
            if kind == "list_item_open":
                self.items.append(self.next_item)
                self.next_item += 1
                opens_item = True
            elif kind == "list_item_close":
                self.items.pop()
            elif kind == "blockquote_open":
                self.quotes += 1
            elif kind == "blockquote_close":
                self.quotes -= 1
            elif kind == "heading_open":
                level = int(t.tag[1:]) if t.tag[1:].isdigit() else 1
                self.section = len(out)
                inline = _inline(tokens[i + 1])
                out.append(self._block(HEADING, t, tokens[i + 1].content.strip(), level=level, inline=inline))
                opens_item = False
                i += 3
                continue
            elif kind == "paragraph_open":
                content = tokens[i + 1].content
                block_kind = FOOTNOTE if content.startswith("[^") and "]:" in content[:12] else PARAGRAPH
                out.append(self._block(block_kind, t, content, item=opens_item, inline=_inline(tokens[i + 1])))
                opens_item = False
                i += 3
                continue
            elif kind in ("code_block", "html_block"):  # indented prose and stray HTML: read as text
                out.append(self._block(PARAGRAPH, t, t.content.strip("\n"), item=opens_item))
                opens_item = False
            elif kind == "fence":
                out.append(self._block(FENCE, t, t.content, info=t.info.strip().split(" ")[0].lower()))
                opens_item = False
            elif kind == "table_open":
                i = self._table(tokens, i, out)
                opens_item = False
                continue
            i += 1
        return out

    def _block(self, kind: str, t: Token, text: str, **more: object) -> Block:
        return Block(
            kind,
            self.span(t.map),
            text,
            depth=len(self.items),
            items=tuple(self.items),
            quoted=self.quotes > 0,
            section=self.section,
            **more,  # type: ignore[arg-type]
        )

    def _table(self, tokens: list[Token], i: int, out: list[Block]) -> int:
        opening = tokens[i]
        rows: list[tuple[str, ...]] = []
        cells: list[str] = []
        header = False
        while i < len(tokens) and tokens[i].type != "table_close":
            kind = tokens[i].type
            if kind == "thead_open":
                header = True
            elif kind == "tr_open":
                cells = []
            elif kind == "tr_close":
                rows.append(tuple(cells))
            elif kind == "inline":
                cells.append(render(_inline(tokens[i])).strip())
            i += 1
        out.append(self._block(TABLE, opening, "", rows=tuple(rows), header=header))
        return i + 1


def _inline(token: Token) -> tuple[tuple[str, str], ...]:
    """The pieces of an inline token (see ``Block.inline``)."""
    out: list[tuple[str, str]] = []
    strong = 0
    for child in token.children or ():
        kind = child.type
        if kind == "strong_open":
            strong += 1
        elif kind == "strong_close":
            strong = max(strong - 1, 0)
        elif kind in ("softbreak", "hardbreak"):
            out.append((BREAK, "\n"))
        elif kind in ("text", "code_inline", "html_inline") and child.content:
            # a backtick left in text opens no code span: a stray quote ("`Enjoy'"), not a word's
            content = child.content.replace("`", "") if kind == "text" else child.content
            piece = (STRONG if strong else TEXT, content)
            if out and out[-1][0] == piece[0]:
                piece = (piece[0], out.pop()[1] + piece[1])
            out.append(piece)
        elif kind == "image":
            out.append((TEXT, child.content))
    return tuple(out)


_DASHES = ("—", "–", "-")


def render(inline: tuple[tuple[str, str], ...], dash_labels: bool = False) -> str:
    """The text of inline pieces; with ``dash_labels``, "**label** — rest" at a line's start becomes "label: rest"."""
    out: list[str] = []
    at_line_start = True
    skip_dash = False
    for k, (kind, text) in enumerate(inline):
        if skip_dash:  # the dash after a bold label, and the spaces around it
            text = text.lstrip(" \t")[1:].lstrip(" \t")
            skip_dash = False
        elif dash_labels and at_line_start and kind == STRONG and len(text) <= 60 and _dash_follows(inline, k):
            out.append(text.rstrip(" :") + ": ")
            skip_dash = True
            at_line_start = False
            continue
        out.append(text)
        at_line_start = kind == BREAK
    return "".join(out)


def _dash_follows(inline: tuple[tuple[str, str], ...], k: int) -> bool:
    """Whether the piece after ``k`` opens with a dash set off by a space ("— He spent …", " – Roughly 600")."""
    if k + 1 >= len(inline) or inline[k + 1][0] != TEXT:
        return False
    rest = inline[k + 1][1].lstrip(" \t")
    return rest[:1] in _DASHES and rest[1:2] in (" ", "\t")


def label_of(text: str) -> str:
    """A short line folded as a label: no emphasis, no trailing colon, lower case ("**Sources:**" → "sources")."""
    return text.replace("*", "").replace("_", "").replace("#", "").strip().rstrip(":").strip().lower()


def _bare_links(text: str) -> bool:
    """A paragraph of links only ("https://…", "[1] https://…", "<https://…>")."""
    words = text.split()
    return bool(words) and all(
        w.strip("<>()[].,").startswith(("http://", "https://", "www.")) or w.strip("[]().").isdigit() for w in words
    )


# What sets a label off from the rest of its line: a colon, or a search snippet's middle dot, bar or dash
# ("Sources · sailing-news.example · heart-surgery-history.example", "References | a.example").
_LABEL_SEPARATOR = re.compile(r"\s*:\s*|\s+[·•|—–]\s+")


def _sources(blocks: list[Block]) -> list[Block]:
    """The blocks under a sources heading or label ("## References", "**Sources:**", "Sources: …") and paragraphs of
    bare links, as ``SOURCES``. Under a heading, its whole section; under a label, the list that follows it."""
    out: list[Block] = []
    under_heading: int | None = None  # the level of the sources heading whose section this is
    under_label = False
    for b in blocks:
        parts = _LABEL_SEPARATOR.split(b.text, maxsplit=1) if b.kind in (HEADING, PARAGRAPH) else [""]
        label = label_of(parts[0])
        if b.kind == HEADING:
            under_label = False
            if under_heading is not None and b.level <= under_heading:
                under_heading = None
            if label in SOURCE_LABELS:
                under_heading = b.level
                out.append(_as(b, SOURCES))
                continue
        if under_heading is not None:
            out.append(_as(b, SOURCES))
            continue
        if (
            b.kind == PARAGRAPH
            and not b.depth
            and label in SOURCE_LABELS
            and len(label) + 2 >= len(b.text.strip("*: "))
        ):
            under_label = True  # "Sources:" alone on its line: the list after it
            out.append(_as(b, SOURCES))
            continue
        if b.kind == PARAGRAPH and not b.depth and label in SOURCE_LABELS and len(parts) > 1:
            out.append(_as(b, SOURCES))  # "Sources: Japan Ceramics Society; …", "Sources · a.example · b.example"
            continue
        if under_label and b.depth:
            out.append(_as(b, SOURCES))
            continue
        under_label = False
        out.append(_as(b, SOURCES) if b.kind == PARAGRAPH and _bare_links(b.text) else b)
    return out


def _as(block: Block, kind: str) -> Block:
    return replace(block, kind=kind)


def block_at(doc: Document, offset: int) -> int:
    """The index of the block whose span holds ``offset`` (the last one starting at or before it; -1 for none)."""
    starts = [b.span[0] for b in doc.blocks]
    return bisect.bisect_right(starts, offset) - 1
