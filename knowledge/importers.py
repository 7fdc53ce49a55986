"""Importers: stream pages out of JSONL, FActScore SQLite, DPR/ALCE TSV and document files into a store.

Every reader yields ``Page`` objects one at a time (consecutive rows of one title become one page),
so memory stays bounded whatever the size of the source. A bad line is reported through the
``bad`` callback with its line number and skipped. A line longer than ``max_line_bytes`` (default
:data:`MAX_LINE_BYTES`) stops the import with :class:`ImportFormatError`: it is read only up to the
cap, so a small gzip that inflates to one huge line cannot exhaust memory.

>>> from knowledge.store import Store
>>> report = import_path("knowledge/demo", Store.in_memory())  # doctest: +SKIP
"""

from __future__ import annotations

import csv
import gzip
import re
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Literal, cast

import orjson
from tqdm import tqdm

from knowledge.docfiles import DOC_SUFFIXES, TEXT_SUFFIXES, read_docs
from knowledge.errors import ImportFormatError
from knowledge.pages import Page, page_digest
from knowledge.readahead import PROCESS_MIN_BYTES, BadLine, Progress, read_ahead, read_in_process
from knowledge.store import Store

Format = Literal["jsonl", "factscore", "dpr", "docs"]
FORMATS: tuple[Format, ...] = ("jsonl", "factscore", "dpr", "docs")
JSONL_SUFFIXES = (".jsonl", ".jsonl.gz")
FACTSCORE_SEPARATOR = "####SPECIAL####SEPARATOR####"
_SENTENCE_TAGS = re.compile(r"</?s>")
# One line is one page (JSONL) or one passage (DPR). The longest Wikipedia articles are 1-2 MB of
# text; 16 MiB leaves room for any real page while one line, decoded and parsed (a few times its
# size), stays around 100 MB of memory. `factsentry kb import --max-line-mb` raises it.
MAX_LINE_BYTES = 16 * 1024 * 1024


@dataclass
class ImportReport:
    """What one import did. ``bad_lines`` counts skipped lines; ``problems`` keeps the first few messages."""

    pages: int = 0
    passages: int = 0
    unchanged: int = 0
    empty: int = 0
    bad_lines: int = 0
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0
    version: str = ""

    @property
    def usable(self) -> int:
        """Pages that are in the store now: written or already there unchanged."""
        return self.pages + self.unchanged

    def as_dict(self) -> dict[str, Any]:
        """The report as a JSON-ready dict."""
        return {
            "pages": self.pages,
            "passages": self.passages,
            "unchanged": self.unchanged,
            "empty": self.empty,
            "bad_lines": self.bad_lines,
            "problems": self.problems,
            "seconds": round(self.seconds, 3),
            "version": self.version,
        }


def _lines(path: Path, max_line_bytes: int) -> Iterator[tuple[int, bytes]]:
    """``(line number, line)`` of a file, gunzipped if its name ends in ``.gz``; no line is read past the cap.

    Raises :class:`ImportFormatError` naming the file, the line and the cap when a line is longer.
    """
    with path.open("rb") as raw_file:
        stream = cast(IO[bytes], gzip.open(raw_file) if path.suffix == ".gz" else raw_file)
        n = 0
        while line := stream.readline(max_line_bytes + 1):
            n += 1
            if len(line) > max_line_bytes:
                raise ImportFormatError(
                    f"{path}:{n}: line longer than the {_size(max_line_bytes)} cap; import stopped here "
                    "(kb import --max-line-mb raises the cap for a trusted source)"
                )
            yield n, line


def _size(n: int) -> str:
    return f"{n / (1024 * 1024):g} MiB" if n >= 1024 * 1024 else f"{n} bytes"


def read_jsonl(
    path: Path, bad: BadLine, progress: Progress | None = None, max_line_bytes: int = MAX_LINE_BYTES
) -> Iterator[Page]:
    """Pages of a JSONL file: ``{"title": str, "text": str | [str, ...], "aliases"?: [str, ...]}`` per line.

    A string ``text`` is cut into passages of about 100-250 words on sentence boundaries; a list is
    taken as the passages.
    """
    for n, line in _lines(path, max_line_bytes):
        if progress is not None:
            progress(len(line))
        if not line.strip():
            continue
        try:
            row = orjson.loads(line)
        except orjson.JSONDecodeError as e:
            bad(str(path), n, f"not JSON ({e})")
            continue
        if not isinstance(row, dict):
            bad(str(path), n, "not a JSON object")
            continue
        title, text, aliases = row.get("title"), row.get("text"), row.get("aliases") or []
        if not isinstance(title, str) or not title.strip():
            bad(str(path), n, 'missing or empty "title"')
        elif not (isinstance(text, str) or (isinstance(text, list) and all(isinstance(t, str) for t in text))):
            bad(str(path), n, '"text" must be a string or a list of strings')
        elif not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
            bad(str(path), n, '"aliases" must be a list of strings')
        else:
            page = Page.of(title, text, aliases)
            if not page.passages:
                bad(str(path), n, f'empty "text" for {page.title!r}')
                continue
            yield page


def read_dpr(
    path: Path, bad: BadLine, progress: Progress | None = None, max_line_bytes: int = MAX_LINE_BYTES
) -> Iterator[Page]:
    """Pages of a DPR/ALCE passage TSV (``id``, ``text``, ``title``; header optional; may be ``.gz``).

    Consecutive rows of one title form one page; passages are taken as they are (DPR's are ~100 words).
    """
    # A quoted field may span lines: the cap holds for one field too.
    csv.field_size_limit(max_line_bytes)
    source = str(path)
    text_lines = (line.decode("utf-8", errors="replace") for _, line in _lines(path, max_line_bytes))
    reader = csv.reader(text_lines, delimiter="\t", quotechar='"')
    title: str | None = None
    passages: list[str] = []
    try:
        for row in reader:
            if progress is not None:
                progress(sum(map(len, row)) + len(row))
            if len(row) != 3:
                bad(source, reader.line_num, f"expected 3 tab-separated fields (id, text, title), found {len(row)}")
                continue
            _, text, row_title = row
            if not text or not row_title or text.isspace() or row_title.isspace():
                if reader.line_num != 1 or row[0].strip().lower() != "id":
                    bad(source, reader.line_num, "empty title or text")
                continue
            if row_title != title:
                if title is not None and passages:
                    yield Page(" ".join(title.split()), tuple(passages))
                if reader.line_num == 1 and row[0].strip().lower() == "id":
                    continue
                title, passages = row_title, []
            passages.append(text.strip())
    except csv.Error as e:  # a quoted field longer than the cap, over several lines
        raise ImportFormatError(f"{path}:{reader.line_num}: {e}; stopped the import there") from e
    if title is not None and passages:
        yield Page(" ".join(title.split()), tuple(passages))


def read_factscore(path: Path, bad: BadLine, progress: Progress | None = None) -> Iterator[Page]:
    """Pages of a FActScore SQLite file: ``documents(title, text)``, passages joined by the separator."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        cursor = conn.execute("SELECT title, text FROM documents")
    except sqlite3.DatabaseError as e:
        raise ImportFormatError(f"{path} is not a FActScore database with a documents(title, text) table: {e}") from e
    try:
        for n, (title, text) in enumerate(cursor, start=1):
            if progress is not None:
                progress(1)
            if not isinstance(title, str) or not isinstance(text, str) or not title.strip():
                bad(str(path), n, "row without a text title and text")
                continue
            pieces = [_SENTENCE_TAGS.sub(" ", p) for p in text.split(FACTSCORE_SEPARATOR)]
            page = Page.of(title, pieces)
            if not page.passages:
                bad(str(path), n, f"no passages for {page.title!r}")
                continue
            yield page
    finally:
        conn.close()


READERS: dict[Format, Callable[[Path, BadLine, Progress | None], Iterator[Page]]] = {
    "jsonl": read_jsonl,
    "factscore": read_factscore,
    "dpr": read_dpr,
    "docs": read_docs,
}


def guess_format(path: Path) -> Format:
    """The format of a source file, from its name and, failing that, its first bytes.

    Markdown and HTML files are documents; a ``.txt`` file is a DPR TSV when its first line has the
    three tab-separated fields (id, text, title), else a document.
    """
    name = path.name.lower().removesuffix(".gz")
    if name.endswith((".jsonl", ".json", ".ndjson")):
        return "jsonl"
    if name.endswith((".tsv", ".tsv.txt")):
        return "dpr"
    if path.name.lower().endswith(DOC_SUFFIXES) and not path.name.lower().endswith(TEXT_SUFFIXES):
        return "docs"
    opener = gzip.open if path.name.lower().endswith(".gz") else open
    with opener(path, "rb") as f:
        head: bytes = f.read(4096)
    if path.name.lower().endswith(TEXT_SUFFIXES):
        return "dpr" if head.split(b"\n", 1)[0].count(b"\t") == 2 else "docs"
    if head.startswith(b"SQLite format 3\x00"):
        return "factscore"
    if head.lstrip().startswith(b"{"):
        return "jsonl"
    if b"\t" in head:
        return "dpr"
    raise ImportFormatError(f"cannot tell the format of {path}: pass --format with one of {', '.join(FORMATS)}")


def source_files(path: Path, fmt: Format | None = None) -> list[tuple[Path, Format]]:
    """The files an import of ``path`` reads, each with its format: the file itself, or a directory's
    ``*.jsonl`` (``.jsonl.gz``) files and its documents (markdown, HTML, plain text), in name order.

    With ``fmt``, a directory's files of that kind only (``jsonl`` or ``docs``). Hidden files and
    subdirectories are not read.
    """
    if path.is_dir():
        if fmt not in (None, "jsonl", "docs"):
            raise ImportFormatError(f"a directory imports jsonl or docs files, not --format {fmt}")
        files: list[tuple[Path, Format]] = []
        for p in sorted(path.iterdir()):
            name = p.name.lower()
            if not p.is_file() or p.name.startswith("."):
                continue
            kind: Format | None = (
                "jsonl" if name.endswith(JSONL_SUFFIXES) else "docs" if name.endswith(DOC_SUFFIXES) else None
            )
            if kind is not None and fmt in (None, kind):
                files.append((p, kind))
        if not files:
            raise ImportFormatError(
                f"{path} holds no .jsonl files and no documents ({', '.join(DOC_SUFFIXES)})"
                if fmt is None
                else f"{path} holds no {fmt} files"
            )
        return files
    if not path.exists():
        raise ImportFormatError(f"{path} does not exist")
    return [(path, fmt or guess_format(path))]


def read_sources(
    files: list[Path], formats: list[str], bad: BadLine, progress: Progress | None, max_line_bytes: int
) -> Iterator[tuple[Page, int]]:
    """``(page, digest)`` of every page of ``files`` read as ``formats``, in order."""
    for file, file_fmt in zip(files, formats, strict=True):
        if file_fmt == "factscore":  # rows come whole out of SQLite, bounded by the database file itself
            found = read_factscore(file, bad, progress)
        elif file_fmt == "docs":  # one page per file, each file bounded by docfiles.MAX_DOC_BYTES
            found = read_docs(file, bad, progress)
        else:
            found = (read_jsonl if file_fmt == "jsonl" else read_dpr)(file, bad, progress, max_line_bytes)
        for page in found:
            yield page, page_digest(page)


def import_path(
    path: str | Path,
    store: Store,
    fmt: Format | None = None,
    show_progress: bool = False,
    max_problems: int = 20,
    on_problem: Callable[[str], None] | None = None,
    max_line_bytes: int = MAX_LINE_BYTES,
    process_min_bytes: int = PROCESS_MIN_BYTES,
) -> ImportReport:
    """Import a file, or a directory of JSONL files and documents, into ``store``; returns the counts.

    Pages already in the store unchanged are skipped; changed pages are replaced; the store's
    version changes only when content did. ``on_problem`` receives each bad-line message
    (``"file:line: reason"``) as it is found; a document that cannot be read is one such message and
    the other files import. A JSONL or TSV line longer than ``max_line_bytes``
    raises :class:`ImportFormatError` (pages before it stay imported). Sources of at least
    ``process_min_bytes`` are read in a second process, beside the writer (see ``knowledge.readahead``).
    """
    report = ImportReport()
    started = time.perf_counter()

    def bad(source: str, line: int, reason: str) -> None:
        report.bad_lines += 1
        message = f"{source}:{line}: {reason}"
        if len(report.problems) < max_problems:
            report.problems.append(message)
        if on_problem is not None:
            on_problem(message)

    found = source_files(Path(path), fmt)
    files, formats = [f for f, _ in found], [f_fmt for _, f_fmt in found]
    total = sum(f.stat().st_size for f, f_fmt in zip(files, formats, strict=True) if f_fmt != "factscore")
    unit_rows = all(f_fmt == "factscore" for f_fmt in formats)
    bar = tqdm(
        total=None if unit_rows else total,
        unit="row" if unit_rows else "B",
        unit_scale=True,
        disable=not show_progress,
        file=sys.stderr,
        desc="import",
        mininterval=0.5,
    )
    pending = 0

    def progress(amount: int) -> None:
        nonlocal pending
        pending += amount
        if pending >= 1 << 20 or (unit_rows and pending >= 1000):
            bar.update(pending)
            pending = 0

    shown = progress if show_progress else None
    if sum(f.stat().st_size for f in files) >= process_min_bytes:
        pages = read_in_process("knowledge.importers:read_sources", files, list(formats), bad, shown, max_line_bytes)
    else:
        pages = read_ahead(read_sources(files, list(formats), bad, shown, max_line_bytes))
    try:
        with store.writer() as writer:
            for page, digest in pages:
                writer.write(page, digest)
        bar.update(pending)
    finally:
        bar.close()
    report.pages, report.passages = writer.written, writer.passages
    report.unchanged, report.empty = writer.unchanged, writer.empty
    report.seconds = time.perf_counter() - started
    report.version = store.version
    return report
