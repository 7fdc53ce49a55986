"""Documents as pages: one markdown, HTML or plain-text file is one entity of the store.

A help-desk folder of articles imports as it is (``factsentry kb import DOCS_DIR``):

- the **title** is the ``title`` (or ``entity``) of a YAML front matter block, else the first heading
  (markdown ``#``/``===``, HTML ``<title>``, else its first ``<h1>``), else the file name
  (``reset-the-router.md`` -> ``reset the router``); ``aliases`` in the front matter become aliases;
- the **text** is cleaned: markdown markup (emphasis, links, images, code fences, tables, list
  markers, inline HTML) is removed and HTML is read with the standard library's parser, skipping
  ``<script>``, ``<style>``, ``<nav>`` and the like;
- **passages** are cut per section (a heading starts one) and inside a section on sentence and
  paragraph boundaries, as the other importers cut a page's text. A heading, a list item, a table
  row or a line of code is a sentence of its own (a full stop is added when it has none), so list
  items never run into each other.

A file that cannot be read (not UTF-8, bad front matter, no text left) is reported through the
``bad`` callback as ``FILE:LINE: reason`` and skipped; the other files import.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import yaml

from knowledge.pages import Page
from knowledge.readahead import BadLine, Progress
from knowledge.text import split_passages

MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdown", ".mkd")
HTML_SUFFIXES = (".html", ".htm", ".xhtml")
TEXT_SUFFIXES = (".txt", ".text")
DOC_SUFFIXES = MARKDOWN_SUFFIXES + HTML_SUFFIXES + TEXT_SUFFIXES
# A document larger than this is not a help-desk article: it is reported and skipped, so one stray
# dump in a docs folder cannot take the import's memory.
MAX_DOC_BYTES = 8 * 1024 * 1024

_FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.S)
_ATX_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_SETEXT_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_LIST_ITEM = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?")
_BLOCKQUOTE = re.compile(r"^[ \t]{0,3}>[ \t]?")
_TABLE_DIVIDER = re.compile(r"^[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$")
_THEMATIC_BREAK = re.compile(r"^ {0,3}([-*_])([ \t]*\1){2,}[ \t]*$")
_LINK_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:[ \t]+\S+")
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)|!\[[^\]]*\]\[[^\]]*\]")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)|\[([^\]]+)\]\[[^\]]*\]")
_AUTOLINK = re.compile(r"<((?:https?|mailto):[^>\s]+)>")
_INLINE_CODE = re.compile(r"(`+)(.+?)\1")
# Emphasis only at word edges, so snake_case_names and 2*3*4 keep their characters.
_EMPHASIS = re.compile(r"(?<!\w)(\*\*|__|\*|_|~~)(?=\S)(.+?)(?<=\S)\1(?!\w)")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")
_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_ENDS_SENTENCE = re.compile(r"[.!?:;…][\"')\]]*$")


class DocumentError(ValueError):
    """Why a document cannot be imported, with the line it concerns."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(reason)
        self.line = line


@dataclass
class Document:
    """A cleaned document: its title, aliases and sections (each a list of sentences or paragraphs)."""

    title: str
    aliases: list[str] = field(default_factory=list)
    sections: list[list[str]] = field(default_factory=list)

    def page(self) -> Page:
        """The page: the title, and the passages of every section, never one across two sections."""
        passages = [p for section in self.sections for p in split_passages("\n".join(section))]
        return Page.of(self.title, passages, self.aliases)


def _sentence(text: str) -> str:
    """``text`` on one line, with a full stop when it does not end a sentence (headings, list items)."""
    text = " ".join(text.split())
    return text if not text or _ENDS_SENTENCE.search(text) else f"{text}."


def _title_from_name(path: Path) -> str:
    stem = path.name
    for suffix in DOC_SUFFIXES:
        if stem.lower().endswith(suffix):
            stem = stem[: -len(suffix)]
            break
    return " ".join(re.sub(r"[-_]+", " ", stem).split())


def _front_matter(text: str) -> tuple[dict[str, object], str]:
    """The YAML front matter of ``text`` (empty when none) and the text after it."""
    match = _FRONT_MATTER.match(text)
    if match is None:
        return {}, text
    try:
        meta = yaml.safe_load(match.group(1))
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        raise DocumentError(2 + (mark.line if mark is not None else 0), f"front matter is not YAML ({e})") from e
    if meta is None:
        meta = {}
    if not isinstance(meta, dict):
        raise DocumentError(1, "front matter is not a mapping of keys")
    return meta, text[match.end() :]


def _meta_names(meta: dict[str, object]) -> tuple[str | None, list[str]]:
    """``title`` (or ``entity``) and ``aliases`` of a front matter, checked."""
    title = meta.get("title", meta.get("entity"))
    if title is not None and (not isinstance(title, str) or not title.strip()):
        raise DocumentError(1, 'front matter "title" must be a non-empty string')
    aliases = meta.get("aliases", [])
    if isinstance(aliases, str):
        aliases = [aliases]
    if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
        raise DocumentError(1, 'front matter "aliases" must be a list of strings')
    return (title.strip() if isinstance(title, str) else None), list(aliases)


def _inline_markdown(text: str) -> str:
    """One line of markdown without its inline markup (a backslash-escaped character stays as it is)."""
    escaped = "\\" in text
    if escaped:  # hide escaped characters from the patterns below, in the private-use area
        text = _ESCAPE.sub(lambda m: chr(0xE000 + ord(m.group(1))), text)
    text = _IMAGE.sub("", text)
    text = _LINK.sub(lambda m: m.group(1) or m.group(2), text)
    text = _AUTOLINK.sub(r"\1", text)
    text = _INLINE_CODE.sub(lambda m: m.group(2).strip(), text)
    text = _TAG.sub("", text)
    for _ in range(3):  # nested emphasis: ***a*** or **_a_**
        text = _EMPHASIS.sub(r"\2", text)
    return re.sub("[\ue000-\ue07f]", lambda m: chr(ord(m.group(0)) - 0xE000), text) if escaped else text


def _cells(line: str) -> list[str]:
    return [_inline_markdown(c).strip() for c in line.strip().strip("|").split("|")]


def _table_row(header: list[str], cells: list[str]) -> str:
    """A table row as one sentence, each cell named by its column: ``Setting: SSID; Default: Acme-X2.``"""
    named = [f"{h}: {c}" if h else c for h, c in zip(header + [""] * len(cells), cells, strict=False) if c]
    return _sentence("; ".join(named))


def read_markdown(text: str) -> tuple[str | None, list[list[str]]]:
    """The first heading and the sections of a markdown text (front matter already removed)."""
    title: str | None = None
    sections: list[list[str]] = [[]]
    paragraph: list[str] = []
    fence: str | None = None
    header: list[str] | None = None  # inside a table: its header cells
    lines = text.splitlines()

    def flush() -> None:
        if paragraph:
            sections[-1].append(_sentence(" ".join(paragraph)))
            paragraph.clear()

    def heading(words: str) -> None:
        nonlocal title
        flush()
        words = " ".join(_inline_markdown(words).split())
        if not words:
            return
        if title is None:
            title = words
        sections.append([_sentence(words)])

    for i, raw in enumerate(lines):
        if fence is not None:  # inside a code block: each line is a sentence of its own
            if raw.strip().startswith(fence):
                fence = None
            elif raw.strip():
                sections[-1].append(_sentence(raw))
            continue
        if m := _FENCE.match(raw):
            flush()
            fence = m.group(1)
            continue
        line = _BLOCKQUOTE.sub("", raw)
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if header is None and "|" in line and _TABLE_DIVIDER.match(nxt) and "-" in nxt:
            flush()
            header = _cells(line)
            continue
        if header is not None:
            if line.strip() and "|" in line:
                if not _TABLE_DIVIDER.match(line):
                    sections[-1].append(_table_row(header, _cells(line)))
                continue
            header = None
        if m := _ATX_HEADING.match(line):
            heading(m.group(2))
        elif line.strip() and paragraph == [] and _SETEXT_UNDERLINE.match(nxt) and not _LIST_ITEM.match(line):
            heading(line)
        elif _SETEXT_UNDERLINE.match(line) and sections[-1] and not paragraph:
            continue  # the underline of the heading just read
        elif not line.strip() or _THEMATIC_BREAK.match(line) or _LINK_DEFINITION.match(line):
            flush()
        elif _LIST_ITEM.match(line):
            flush()
            paragraph.append(_inline_markdown(_LIST_ITEM.sub("", line, count=1)))
            sections[-1].append(_sentence(" ".join(paragraph)))
            paragraph.clear()
        else:
            paragraph.append(_inline_markdown(line))
    flush()
    return title, [s for s in sections if s]


class _HTMLText(HTMLParser):
    """Text blocks of an HTML page: block elements and ``<br>`` end a block, headings start a section."""

    SKIP = frozenset({"script", "style", "noscript", "template", "svg", "nav", "iframe", "object", "canvas"})
    BLOCKS = frozenset(
        {
            "p", "div", "li", "ul", "ol", "dl", "dt", "dd", "br", "tr", "table", "section", "article", "main",
            "header", "footer", "aside", "blockquote", "pre", "hr", "figure", "figcaption", "form", "address",
            "details", "summary", "body", "html",
        }
    )  # fmt: skip
    HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
    CELLS = frozenset({"td", "th"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title: str | None = None
        self.first_h1: str | None = None
        self.sections: list[list[str]] = [[]]
        self._text: list[str] = []
        self._skip: list[str] = []
        self._in_title = False
        self._title_text: list[str] = []
        self._heading: str | None = None
        self._pre = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title" and not self._skip:
            self._in_title = True
            return
        if tag in self.SKIP:
            self._skip.append(tag)
            return
        if self._skip:
            return
        if tag in self.HEADINGS:
            self._end_block()
            self._heading = tag
        elif tag in self.BLOCKS:
            self._end_block()
            if tag == "pre":
                self._pre += 1
        elif tag in self.CELLS and "".join(self._text).strip():
            self._text.append(", ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title" and self._in_title:
            self._in_title = False
            title = " ".join("".join(self._title_text).split())
            if title and self.title is None:
                self.title = title
            return
        if self._skip:
            if tag == self._skip[-1]:
                self._skip.pop()
            return
        if tag in self.HEADINGS:
            words = " ".join("".join(self._text).split())
            self._text.clear()
            if words:
                if tag == "h1" and self.first_h1 is None:
                    self.first_h1 = words
                self.sections.append([_sentence(words)])
            self._heading = None
        elif tag in self.BLOCKS:
            self._end_block()
            if tag == "pre":
                self._pre = max(0, self._pre - 1)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in {"br", "hr"} and not self._skip:
            self._end_block()

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self._title_text.append(data)
        elif not self._skip:
            if self._pre:
                for line in data.splitlines():
                    self._text.append(line)
                    self._end_block()
            else:
                self._text.append(data)

    def _end_block(self) -> None:
        if self._heading is not None:
            return  # a <br> inside a heading: the heading goes on
        words = " ".join("".join(self._text).split())
        self._text.clear()
        if words:
            self.sections[-1].append(_sentence(words))

    def close(self) -> None:
        super().close()
        self._heading = None
        self._end_block()


def read_html(text: str) -> tuple[str | None, list[list[str]]]:
    """The title (``<title>``, else the first ``<h1>``) and the sections of an HTML page."""
    parser = _HTMLText()
    parser.feed(text)
    parser.close()
    return parser.title or parser.first_h1, [s for s in parser.sections if s]


def read_plain_text(text: str) -> tuple[str | None, list[list[str]]]:
    """Plain text: paragraphs (blank-line separated; lines inside one are joined), one section. A first
    paragraph of one short line without a full stop, with text after it, is the heading."""
    paragraphs = [p for p in (" ".join(p.split()) for p in re.split(r"\n[ \t]*\n", text.strip())) if p]
    first = text.strip().split("\n", 1)[0].strip()
    heading = None
    if len(paragraphs) > 1 and paragraphs[0] == first and len(first.split()) <= 10 and not _ENDS_SENTENCE.search(first):
        heading = first
    return heading, [[_sentence(p) for p in paragraphs]]


def read_document(path: Path) -> Document:
    """One document file as a :class:`Document`; raises :class:`DocumentError` when it cannot be read."""
    data = path.read_bytes()
    if len(data) > MAX_DOC_BYTES:
        raise DocumentError(1, f"larger than {MAX_DOC_BYTES // (1024 * 1024)} MiB: not imported as one document")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise DocumentError(data.count(b"\n", 0, e.start) + 1, f"not UTF-8 text ({e.reason} at byte {e.start})") from e
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\x00" in text:
        raise DocumentError(text.count("\n", 0, text.index("\x00")) + 1, "binary file, not a document")
    name = path.name.lower()
    if name.endswith(HTML_SUFFIXES):
        meta: dict[str, object] = {}
        heading, sections = read_html(text)
    else:
        meta, body = _front_matter(text)
        reader = read_markdown if name.endswith(MARKDOWN_SUFFIXES) else read_plain_text
        heading, sections = reader(body)
    meta_title, aliases = _meta_names(meta)
    title = meta_title or heading or _title_from_name(path)
    document = Document(title, aliases, sections)
    if not document.page().passages:
        raise DocumentError(1, "no text left after removing the markup")
    return document


def read_docs(path: Path, bad: BadLine, progress: Progress | None = None) -> Iterator[Page]:
    """The page of one document file (nothing, with a ``bad`` report, when it cannot be read)."""
    if progress is not None:
        progress(path.stat().st_size)
    try:
        document = read_document(path)
    except DocumentError as e:
        bad(str(path), e.line, str(e))
        return
    except OSError as e:
        bad(str(path), 1, f"cannot be read ({e.strerror or e})")
        return
    yield document.page()
