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
from typing import TYPE_CHECKING

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
        _local.segmenter = seg
    return seg


# "...Latter-day Saints; he was born in 1838 ...": a semicolon before a new subject joins two sentences;
# so does a colon ("here is what I know: he was a Danish philosopher ...").
_SEMICOLON = re.compile(r"(?<=[;:])\s+(?=(?:he|she|they|his|her|their)\b)", re.I)


def segment(block: str) -> list[str]:
    """pysbd's sentences of ``block`` as written (``Segmenter.segment`` with ``clean=False``).

    pysbd finds each sentence back in the text with a regular expression built from it, compiled
    anew for every sentence; a plain substring search gives the same pieces without the compiling.
    """
    if not block:
        return []
    out: list[str] = []
    prior_end = 0
    for sentence in _segmenter().processor(block).process():
        start = 0
        while (at := block.find(sentence, start)) >= 0:
            end = at + len(sentence)
            while end < len(block) and block[end].isspace():  # the trailing whitespace goes with it
                end += 1
            if end > prior_end:  # the first occurrence after the previous sentence
                out.append(block[at:end])
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


_EMPHASIS = re.compile(r"(\*\*|__|\*(?=\S)|(?<=\S)\*|`)")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s*(.+?)\s*#*\s*$", re.MULTILINE)


def strip_markdown(text: str) -> str:
    """Drop emphasis markers and turn "## Heading" lines into paragraphs of their own."""
    text = _HEADING.sub(lambda m: "\n" + m.group(1).rstrip(":") + "\n", text)
    return _EMPHASIS.sub("", text)


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


def split_sentences(text: str) -> list[Sentence]:
    """Split an answer into sentences; citation markers and markdown go, list items start their own paragraph."""
    text = strip_markdown(strip_citations(text).replace("\r\n", "\n"))
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
            out.append(Sentence(len(out), cleaned, paragraph, list_item and i == 0))
        paragraph += 1
    return out
