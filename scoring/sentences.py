"""Sentence splitting (pysbd), with citation markers removed and paragraph numbers kept.

>>> [s.text for s in split_sentences("He was born in 1936 [4]. He died in 1970.[1][2]")]
['He was born in 1936.', 'He died in 1970.']
"""

from __future__ import annotations

import itertools
import re
import threading
from dataclasses import dataclass
from functools import lru_cache
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from scoring.rules import rule

if TYPE_CHECKING:
    import pysbd

_CITATION = re.compile(r"\s*\[(?:\d+(?:\s*[,–-]\s*\d+)*|citation needed|[a-z]\])\]", re.IGNORECASE)
_SPACES = re.compile(r"[ \t\u00a0]+")
_PARAGRAPH = re.compile(r"\n\s*\n|\n(?=\s*(?:\d+[.)]|[-*•])\s)")
# A line this short without end punctuation, followed by a capital, is a heading ("John Smith (poet)").
_HEADING_WORDS = 8
# A list item that pysbd keeps glued to the previous sentence: "... refer to: 1. Joseph F. Smith".
_INLINE_ITEM = re.compile(r"(?<=[:;.])\s+(?=\d{1,2}[.)]\s+[A-Z])")
_BULLET = re.compile(r"^\s*(?:\d{1,2}[.)]|[-*•])\s+")
# An infobox-like "Label: value" line ("Born: 1912, Tromsø", "**Teams:** Rosenborg (2008–2013)"): a block of its own.
_LABEL_LINE = re.compile(r"^\s*[A-Z][\w'’/&() -]{0,40}:\s+\S")

_local = threading.local()


@dataclass(frozen=True)
class Sentence:
    """One sentence of an answer; ``paragraph`` counts blank-line separated blocks and list items."""

    index: int
    text: str
    paragraph: int = 0
    list_item: bool = False


def strip_citations(text: str) -> str:
    """Remove citation markers such as ``[4]``, ``[1][2]`` and ``[citation needed]``."""
    return _CITATION.sub("", text)


def _segmenter() -> pysbd.Segmenter:
    seg: pysbd.Segmenter | None = getattr(_local, "segmenter", None)
    if seg is None:
        import pysbd

        seg = pysbd.Segmenter(language="en", clean=False)
        _narrow_abbreviations(seg.language_module.AbbreviationReplacer)
        _local.segmenter = seg
    return seg


# The characters other than ASCII letters that a case-insensitive pattern of ASCII letters matches (İ ı ſ K):
# where none occurs, what such a pattern finds lower-cases to the pattern itself.
ASCII_LOOKALIKES = re.compile("[\u0130\u0131\u017f\u212a]")
_PLAIN_ABBREVIATION = re.compile(r"[a-z]+")


def _narrow_abbreviations(replacer: Any) -> None:
    """Hand pysbd's abbreviation pass of a line only the abbreviations it can act on there.

    For each of its ~190 abbreviations found anywhere in a line ("is" in "this", "p" in every word with a p)
    pysbd lists the places where a word starts with it and, for each, rewrites the whole line with a pattern
    compiled for it (more patterns than ``re`` keeps compiled): most of the splitting's time. Every rewrite
    replaces only a period right after the abbreviation, so an abbreviation of plain letters that is nowhere
    followed by a period cannot change the line and is left out. The pass itself is pysbd's, unchanged.
    """
    original = replacer.search_for_abbreviations_in_string
    if getattr(original, "narrowed", False):
        return
    # For each list of abbreviations (a language's, read once): each with the text that must occur for it to
    # act, "" for one that is not plain letters (kept always).
    tables: dict[int, tuple[list[str], list[tuple[str, str]]]] = {}

    def search(self: Any, text: str) -> Any:
        if ASCII_LOOKALIKES.search(text):  # "ſt." is an "st." to pysbd but not to str.lower()
            return original(self, text)
        abbreviations = self.lang.Abbreviation.ABBREVIATIONS
        entry = tables.get(id(abbreviations))
        if entry is None or entry[0] is not abbreviations:
            table = [(a, a.strip() + "." if _PLAIN_ABBREVIATION.fullmatch(a.strip()) else "") for a in abbreviations]
            entry = tables[id(abbreviations)] = (abbreviations, table)
        lowered = text.lower()
        kept = [a for a, dotted in entry[1] if dotted in lowered]  # "" is in every text
        return original(_Narrowed(self, kept), text)

    search.narrowed = True  # type: ignore[attr-defined]
    search.original = original  # type: ignore[attr-defined]  # pysbd's pass over every abbreviation (tests)
    replacer.search_for_abbreviations_in_string = search


class _Narrowed:
    """An abbreviation replacer as pysbd's pass reads it (its language's abbreviations and its rewriting step),
    with only ``abbreviations`` listed."""

    def __init__(self, replacer: Any, abbreviations: list[str]) -> None:
        self.lang = SimpleNamespace(Abbreviation=SimpleNamespace(ABBREVIATIONS=abbreviations))
        self.scan_for_replacements = replacer.scan_for_replacements


# "...Latter-day Saints; he was born in 1838 ...": a semicolon before a new subject joins two sentences;
# so does a colon ("here is what I know: he was a Danish philosopher ...").
_SEMICOLON = re.compile(r"(?<=[;:])\s+(?=(?:he|she|they|his|her|their)\b)", re.I)


# pysbd reads a paragraph in passes over the whole of it, one for each abbreviation it finds there, so its
# cost grows with the square of a paragraph's length (a 200,000-character answer without blank lines took
# 27 s to split). A longer paragraph is read in windows of ``_WINDOW`` characters; of each window only the
# sentences that end ``_CONTEXT`` characters or more before its end are kept (pysbd's rules look a few words
# around a stop), and the next window starts where they end. Paragraphs of answers are far shorter.
_WINDOW = 3000
_CONTEXT = 1000


def segment(block: str) -> list[str]:
    """pysbd's sentences of ``block`` as written (``Segmenter.segment`` with ``clean=False``).

    pysbd finds each sentence back in the text with a regular expression built from it, compiled
    anew for every sentence; a plain substring search gives the same pieces without the compiling.
    A block longer than ``_WINDOW`` characters is read a window at a time (see above).
    """
    if len(block) <= _WINDOW:
        return [block[a:b] for a, b in _segment_spans(block)]
    out: list[str] = []
    start = 0
    while start < len(block):
        window = block[start : start + _WINDOW]
        spans = _segment_spans(window)
        if start + _WINDOW >= len(block):
            out.extend(window[a:b] for a, b in spans)
            break
        kept = [(a, b) for a, b in spans if b <= _WINDOW - _CONTEXT] or spans[:1]
        out.extend(window[a:b] for a, b in kept)
        start += kept[-1][1] if kept else _WINDOW
    return out


def _segment_spans(block: str) -> list[tuple[int, int]]:
    """Where pysbd's sentences of ``block`` are, each with the whitespace after it."""
    if not block:
        return []
    out: list[tuple[int, int]] = []
    prior_end = 0
    for sentence in _segmenter().processor(block).process():
        start = 0
        while (at := block.find(sentence, start)) >= 0:
            end = at + len(sentence)
            while end < len(block) and block[end].isspace():  # the trailing whitespace goes with it
                end += 1
            if end > prior_end:  # the first occurrence after the previous sentence
                out.append((at, end))
                prior_end = end
                break
            start = end if end > at else at + 1
    return out


@lru_cache(maxsize=4096)
def _split_block(block: str) -> tuple[str, ...]:
    parts = [p.strip() for p in segment(block)]
    out: list[str] = []
    for part in parts:
        pieces = _SEMICOLON.split(part)
        if len(pieces) > 1 and all(len(p.split()) >= 4 for p in pieces):
            out.extend(pieces)
        elif part:
            out.append(part)
    return tuple(p for p in out if p)


def clear_cache() -> None:
    """Forget the cached sentence splits of paragraphs (used by the benchmark's cold runs)."""
    _split_block.cache_clear()


_EMPHASIS = re.compile(r"(\*\*|__|\*(?=\S)|(?<=\S)\*|`)")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s*(.+?)\s*#*\s*$", re.MULTILINE)


# Emoji and pictographs ("Oh, I love this one! 🎶"), with their variation selectors and joiners: decoration,
# not words; left in, one becomes part of the name after it.
_EMOJI = re.compile("[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0f\u200d]+\\s?")


# "**War years** — He spent …", "1. **Output** – Roughly 600 …": a bold label set off by a dash at the start of a line
# is a label as if it had a colon (the records reading, ``scoring.records``, reads labels by their colon).
_BOLD_DASH_LABEL = re.compile(
    r"^(?P<lead>[ \t]*(?:(?:[-*+•]|\d{1,2}[.)])[ \t]+)?)\*\*(?P<label>[^*\n]{1,60}?)\*\*[ \t]*[—–-][ \t]+", re.MULTILINE
)


# A block quote's markers ("> **Quick facts**", "> - **Born:** 1958"): the lines are the answer's, quoted or not.
_QUOTE = re.compile(r"^[ \t]{0,3}(?:>[ \t]?)+", re.MULTILINE)


def strip_markdown(text: str, dash_labels: bool = False) -> str:
    """Drop block quote and emphasis markers and emoji, and turn "## Heading" lines into paragraphs of their own; with
    ``dash_labels``, a bold label set off by a dash gets a colon instead (``DASH_LABELS``)."""
    text = _QUOTE.sub("", text)
    text = _HEADING.sub(lambda m: "\n" + m.group(1).rstrip(":") + "\n", text)
    if dash_labels:
        text = _BOLD_DASH_LABEL.sub(lambda m: m.group("lead") + m.group("label").rstrip(" :") + ": ", text)
    return _EMOJI.sub("", _EMPHASIS.sub("", text))


def _soft_wraps(text: str) -> str:
    """Mark the single line breaks that start a block; the others are hard wraps inside a paragraph.

    A line break starts a block before a list item or after a short heading-like line (no end
    punctuation, next line capitalised); "...and won six\nNBA championships" is one sentence.
    """
    lines = text.split("\n")
    out = lines[:1]
    for k, (prev, line) in enumerate(itertools.pairwise(lines)):
        a, b = prev.strip(), line.strip()
        # A heading stands on a line of its own: the line before it ended a block (or there is none).
        before = lines[k - 1].strip() if k > 0 else ""
        opens = not before or before[-1] in ".!?:" or bool(_BULLET.match(lines[k - 1]))
        heading = bool(a) and opens and a[-1] not in ".!?:;," and b[:1].isupper() and len(a.split()) <= _HEADING_WORDS
        # "Label: value" lines are one-line records: each starts a block, and so does the line after one.
        if heading or (bool(a) and (_LABEL_LINE.match(line) or _LABEL_LINE.match(prev))):
            out.append("\n\n" + line)
        elif not a or not b or _BULLET.match(line):
            out.append("\n" + line)
        else:
            out.append(" " + line)
    return "".join(out)


def split_sentences(text: str, rules_off: frozenset[str] | None = None) -> list[Sentence]:
    """Split an answer into sentences; citation markers and markdown go, list items start their own paragraph."""
    rules_off = frozenset() if rules_off is None else rules_off
    text = strip_markdown(strip_citations(text).replace("\r\n", "\n"), DASH_LABELS not in rules_off)
    if MARKDOWN_TABLES not in rules_off and "|" in text:
        text = read_tables(text)
    text = _soft_wraps(_INLINE_ITEM.sub("\n", text))
    out: list[Sentence] = []
    paragraph = 0
    for block in _PARAGRAPH.split(text):
        block = _SPACES.sub(" ", block.replace("\n", " ")).strip()
        if not block:
            continue
        list_item = bool(_BULLET.match(block))
        if list_item:
            block = _BULLET.sub("", block, count=1)
        for i, part in enumerate(_split_block(block)):
            cleaned = re.sub(r"\s+([.,;:!?])", r"\1", part)
            first_item = list_item and i == 0
            pieces = semicolon_list(cleaned, 2 if first_item else 3) if SEMICOLON_LISTS not in rules_off else [cleaned]
            for k, piece in enumerate(pieces):
                out.append(Sentence(len(out), piece, paragraph, first_item or k > 0))
        paragraph += 1
    return out


DASH_LABELS = rule(
    "dash-labels",
    "segment",
    "a bold label set off by a dash at the start of a line ('**War years** — He spent …', '1. **Output** – "
    "Roughly 600 paintings') is a label as if it had a colon: the records reading reads it as one",
)
SEMICOLON_LISTS = rule(
    "semicolon-lists",
    "segment",
    "a sentence of three or more semicolon-separated parts ('X, a coach; born in Dayton; played end at …'), or a "
    "list item of two or more, is a list: each part is read on its own, as a list item",
)


def semicolon_list(sentence: str, least: int = 3) -> list[str]:
    """The parts of a semicolon list (``least`` or more, outside parentheses), or the sentence alone.

    >>> semicolon_list("Born in 1931; emigrated in 1955; died in 2012.")
    ['Born in 1931;', 'emigrated in 1955;', 'died in 2012.']
    """
    if sentence.count(";") < least - 1:
        return [sentence]
    parts: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(sentence):
        depth += ch in "(["
        depth -= ch in ")]"
        if ch == ";" and depth == 0:
            parts.append(sentence[start : i + 1].strip())  # with its semicolon: a revision joins them back
            start = i + 1
    parts.append(sentence[start:].strip())
    # "…; and the cricketer, born 1994 …": the last part without its conjunction.
    parts = [re.sub(r"^(?:and|or)\s+", "", p, flags=re.IGNORECASE) if k else p for k, p in enumerate(parts) if p]
    # Parts that are statements, not the items of one ("Leeds; Arsenal; and Spurs").
    statements = all(2 <= len(p.split()) <= 30 for p in parts)
    if len(parts) < least or not statements:
        return [sentence]
    # "Three people named X are well known: the mathematician, …; the film director, …": the line that
    # introduces the list is no part of its first item.
    lead = _LIST_LEAD.match(parts[0])
    if lead is not None:
        parts[:1] = [lead.group("lead"), lead.group("item")]
    return parts


_LIST_LEAD = re.compile(r"^(?P<lead>[^():;]*\S\s+\S[^():;]*:)\s+(?P<item>\S+\s+\S.*)$")


MARKDOWN_TABLES = rule(
    "markdown-tables",
    "segment",
    "a markdown table is read row by row: a two-column table as 'Label: value' records (a timeline's rows as "
    "items dated by their year), a table with a column per person as one record block per person",
)
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_RULE_ROW = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
_YEAR_CELL = re.compile(r"^(?:c\.\s*)?\d{4}(?:\s*[–-]\s*\d{2,4})?s?$")
_GENERIC_HEADERS = frozenset("field fact facts detail details value info information item".split()) | {""}


def _cells(row: str) -> list[str]:
    return [c.strip() for c in row.strip().strip("|").split("|")]


def read_tables(text: str) -> str:
    """Markdown tables as records, one per line (see ``MARKDOWN_TABLES``); other lines as they are.

    >>> table = "| | |\\n|---|---|\\n| Born | 1981, Kisumu |\\n| Event | 200 m |"
    >>> [line for line in read_tables(table).split("\\n") if line]
    ['Born: 1981, Kisumu', 'Event: 200 m']
    """
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        if not _TABLE_ROW.match(lines[i]):
            out.append(lines[i])
            i += 1
            continue
        j = i
        while j < len(lines) and (_TABLE_ROW.match(lines[j]) or _RULE_ROW.match(lines[j])):
            j += 1
        out.append("\n".join(["", *_table_records(lines[i:j]), ""]))
        i = j
    return "\n".join(out)


def _table_records(rows: list[str]) -> list[str]:
    header: list[str] = []
    if len(rows) > 1 and _RULE_ROW.match(rows[1]):
        header, rows = _cells(rows[0]), rows[2:]
    body = [_cells(r) for r in rows if not _RULE_ROW.match(r)]
    width = max((len(c) for c in body), default=0)
    records: list[str] = []
    if width == 2:
        timeline = sum(bool(_YEAR_CELL.match(c[0])) for c in body) > len(body) / 2
        for cells in body:
            label, value = cells[0], cells[1] if len(cells) > 1 else ""
            if not value:
                continue
            if timeline and _YEAR_CELL.match(label):
                records.append(f"- {value}, {label}")  # "1955 | Born in Lyon" → "Born in Lyon, 1955"
            elif label:
                records.append(f"{label}: {value}")
            else:
                records.append(value)
        return [r + "\n" for r in records]
    people = [h for h in header[1:] if h.lower() not in _GENERIC_HEADERS]
    if header and header[0].lower() in _GENERIC_HEADERS and len(people) == len(header) - 1 >= 2:
        # "| | Chemist | Journalist |": a block per person, led by its heading ("The chemist:" for a role).
        for k, person in enumerate(header[1:], start=1):
            lead = f"The {person.lower()}:" if len(person.split()) == 1 and person[1:].islower() else person
            records.append(lead)
            records.extend(f"{c[0]}: {c[k]}" for c in body if len(c) > k and c[0] and c[k])
            records.append("")
        return [r + "\n" for r in records]
    works = _works_records(header, body)
    if works is not None:
        return works
    # Any other table: a row a line, its cells joined.
    return [", ".join(c for c in cells if c) + "\n" for cells in body]


# A table of works: its first column names them ("| Film | Year | My confidence |"). A column of the
# assistant's own confidence or notes says nothing about them.
_WORK_HEADERS = frozenset(
    "film films movie movies book books novel novels album albums work works title titles publication "
    "publications song songs painting paintings".split()
)
_ASIDE_HEADER = re.compile(r"\b(?:confidence|certainty|sure|notes?|comments?|my)\b", re.IGNORECASE)


def _works_records(header: list[str], body: list[list[str]]) -> list[str] | None:
    """ "| Film | Year | My confidence |" → "Film: Monsoon Ledger (2008)", one record a row: the year dates the
    work, and the assistant's confidence column is left out (its hedges are not the work's)."""
    if len(header) < 2 or header[0].lower() not in _WORK_HEADERS:
        return None
    label = header[0][:1].upper() + header[0][1:].lower()
    year = next((k for k, h in enumerate(header) if h.lower() in ("year", "released", "published")), None)
    others = [k for k, h in enumerate(header) if k not in (0, year) and h and not _ASIDE_HEADER.search(h)]
    records: list[str] = []
    for cells in body:
        if not cells or not cells[0]:
            continue
        when = cells[year] if year is not None and year < len(cells) and _YEAR_CELL.match(cells[year]) else ""
        extra = [cells[k] for k in others if k < len(cells) and cells[k]]
        records.append(f"{label}: {cells[0]}" + (f" ({when})" if when else "") + "".join(f", {e}" for e in extra))
    return [r + "\n" for r in records]
