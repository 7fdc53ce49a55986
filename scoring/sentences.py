"""Sentence splitting (pysbd), with citation markers removed and paragraph numbers kept.

>>> [s.text for s in split_sentences("He was born in 1936 [4]. He died in 1970.[1][2]")]
['He was born in 1936.', 'He died in 1970.']
"""

from __future__ import annotations

import itertools
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from scoring.datelines import date_lines
from scoring.rules import Rule, register, rule, run
from scoring.segment import document
from scoring.segment.document import label_of
from scoring.segment.emoji_keys import EMOJI_KEYS, emoji_scopes
from scoring.segment.fenced import FENCED_PROFILES, fence_records
from scoring.segment.letter import LETTER_FURNITURE, furniture
from scoring.segment.namesakes import NAMESAKE, namesake_lead, namesake_parts
from scoring.segment.scopes import STRUCTURE_SCOPES, Scope, bold_lead, person_lead, presents_person, scopes
from scoring.segment.script import SCRIPT_SPEAKERS, speaker_lines, stage_direction
from scoring.segment.sections import BOLD_TITLES, CAPS_LABELS, bold_title, caps_label, label_item
from scoring.segment.tables import MARKDOWN_TABLES, Record
from scoring.segment.tables import records as table_records
from scoring.segment.turns import TURN_RULES, role_turns
from scoring.segment.units import role_scopes
from vocabulary.document import PART_LABELS
from vocabulary.records import RECORD_PREDICATES

if TYPE_CHECKING:
    import pysbd

_SPACES = re.compile(r"[ \t\u00a0]+")
# A thread's numbered posts ("1/ Who is …", "2/ Studied …") are items too (not "24/7": a space follows the slash).
_PARAGRAPH = re.compile(r"\n\s*\n|\n(?=\s*(?:\d+[.)/]|[-*•])\s)")
# A line this short without end punctuation, followed by a capital, is a heading ("John Smith (poet)").
_HEADING_WORDS = 8
# A list item that pysbd keeps glued to the previous sentence: "... refer to: 1. Joseph F. Smith".
_INLINE_ITEM = re.compile(r"(?<=[:;.])\s+(?=\d{1,2}[.)]\s+[A-Z])")
_BULLET = re.compile(r"^\s*(?:\d{1,2}[.)/]|[-*•])\s+")
# A task list's box ("- [x] Humboldt Society Medal, 1984", "- [ ] …"): markup, like the bullet before it.
_TASK_BOX = re.compile(r"^\[[ xX✓✔]?\]\s+")  # a ticked box whose tick was an emoji: "[]"
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
    # The person the structure says this sentence is about (``scoring.segment.scopes``), if it says.
    scope: Scope | None = None
    # A heading or a line that only labels a part of the answer ("Recognition", "Short answer:"): it names no one.
    label: bool = False
    # A field of a fenced profile: it says something of the profile's person, and presents no one else.
    record: bool = False
    # The label opens a part of the answer of its own (a heading, "**Short answer:**" alone), not a paragraph.
    section: bool = False


def strip_citations(text: str) -> str:
    """Remove citation markers such as ``[4]``, ``[1][2]`` and ``[citation needed]``."""
    return document.CITATION.sub("", text)


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


# Emoji and pictographs ("Oh, I love this one! 🎶"), with their variation selectors and joiners: decoration,
# not words; left in, one becomes part of the name after it.
_EMOJI = re.compile("[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0f\u200d]+\\s?")


# An emoji that opens a line ("🏆 Won the Carrow Award in 2013"), and one that closes it (a decorated title).
_LEAD_EMOJI = re.compile("^\\s*[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0f\u200d]+\\s*")
_TAIL_EMOJI = re.compile("[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0f\u200d]\\s*$")
# How many lines of a block must open with an emoji for the emoji to be its bullets.
_EMOJI_LINES = 2

EMOJI_BULLETS = rule(
    "emoji-bullets",
    "segment",
    "lines that open with an emoji ('🏆 Won the Carrow Award in 2013', '🧪 Led the team …'), two or more in a block, "
    "are list items, as if the emoji were bullets (a line that also ends with one is a decorated title): before, "
    "the emoji went and the lines ran together into one sentence",
)


MEDAL_CELLS = rule(
    "medal-cells",
    "segment",
    "a table cell that gives a medal as an emoji ('🥇', '🥈 (behind Ingrid Solheim)', '🥉 team event') is read with "
    "the medal's word ('Gold', 'Silver (behind Ingrid Solheim)'): the emoji went and the row gave no rank",
)
_MEDAL_EMOJI = {"🥇": "Gold", "🥈": "Silver", "🥉": "Bronze"}
_MEDAL_CELL = re.compile("^\\s*(🥇|🥈|🥉)\ufe0f?(?=\\s*(?:$|[(\\w]))")


def medal_words(cell: str) -> str:
    """A table cell with the medal emoji that opens it in words ("🥇" -> "Gold", "🥈 (behind X)" -> "Silver (behind
    X)"); any other cell as it is."""
    return _MEDAL_CELL.sub(lambda m: _MEDAL_EMOJI[m.group(1)], cell, count=1)


def _emoji_bullets(text: str, rules_off: frozenset[str]) -> str:
    """``text`` with the emoji that open its lines read as bullets, when two or more lines open with one."""
    if EMOJI_BULLETS in rules_off:
        return text
    lines = text.split("\n")
    bullets = [bool(_LEAD_EMOJI.match(line)) and not _TAIL_EMOJI.search(line) for line in lines]
    if sum(bullets) < _EMOJI_LINES:
        return text
    return "\n".join(_LEAD_EMOJI.sub("- ", line) if b else line for line, b in zip(lines, bullets, strict=True))


def _soft_wraps(text: str, caps: bool = True) -> str:
    """Mark the single line breaks that start a block; the others are hard wraps inside a paragraph.

    A line break starts a block before a list item or after a short heading-like line (no end
    punctuation, next line capitalised); "...and won six\nNBA championships" is one sentence.
    """
    lines = text.split("\n")
    # A date list's lines ("1946 – joins the Harold Lusk Orchestra") are list items, full stop or not.
    dated = date_lines(lines)
    out = ["- " + lines[0] if dated[0] else lines[0]]
    for k, (prev, line) in enumerate(itertools.pairwise(lines)):
        a, b = prev.strip(), line.strip()
        if dated[k + 1]:
            out.append("\n- " + line)
            continue
        # A heading stands on a line of its own: the line before it ended a block (or there is none).
        before = lines[k - 1].strip() if k > 0 else ""
        opens = not before or before[-1] in ".!?:" or bool(_BULLET.match(lines[k - 1]))
        heading = bool(a) and opens and a[-1] not in ".!?:;," and b[:1].isupper() and len(a.split()) <= _HEADING_WORDS
        # A section label in capitals ("EDUCATION", then "1979–1984  Law, …") stands on a line of its own.
        heading = heading or (caps and bool(a) and caps_label(a))
        # "Label: value" lines are one-line records: each starts a block, and so does the line after one.
        if heading or (bool(a) and (_LABEL_LINE.match(line) or _LABEL_LINE.match(prev))):
            out.append("\n\n" + line)
        elif not a or not b or _BULLET.match(line):
            out.append("\n" + line)
        else:
            out.append(" " + line)
    return "".join(out)


def split_sentences(text: str, rules_off: frozenset[str] | None = None) -> list[Sentence]:
    """Split an answer into sentences, block by block of its document (``scoring.segment``): citation markers,
    footnotes, sources and markup go; headings and list items start their own paragraph; tables and fenced
    profiles are read as records; each sentence carries the person scope its block is in."""
    rules_off = frozenset() if rules_off is None else rules_off
    out: list[Sentence] = []
    paragraph = 0
    named = 0  # the namesakes' parts' scopes so far, counted down
    for chunk, list_item, scope, label, record in _chunks(text.replace("\r\n", "\n"), rules_off):
        chunk = _EMOJI.sub("", _emoji_bullets(strip_citations(chunk), rules_off))
        caps = CAPS_LABELS not in rules_off
        chunk = _soft_wraps(_INLINE_ITEM.sub("\n", chunk), caps)
        for k, block in enumerate(_PARAGRAPH.split(chunk)):
            block = _SPACES.sub(" ", block.replace("\n", " ")).strip()
            if not block:
                continue
            bullet = _BULLET.match(block)
            item = (list_item and k == 0) or bool(bullet)
            if bullet:
                block = block[bullet.end() :]
            if item:
                block = _TASK_BOX.sub("", block)
            for i, part in enumerate(_split_block(block)):
                cleaned = re.sub(r"\s+([.,;:!?])", r"\1", part)
                first_item = item and i == 0
                split = run(SPLIT_RULES, Joined(cleaned, first_item), rules_off)
                pieces = split.texts if split is not None else (cleaned,)
                items_from = split.items_from if split is not None else 1
                leads = split.leads if split is not None else ()
                for j, piece in enumerate(pieces):
                    # a bold label of its own ("**Book.** He wrote …"): its sentence labels the paragraph
                    labels = label is True or (bool(label) and k == i == j == 0 and piece == label)
                    labels = labels or (caps and caps_label(piece))  # "PROFESSIONAL EXPERIENCE" over its lines
                    own = scope
                    if own is None and j < len(leads) and (lead := leads[j]) is not None:
                        # a namesake's part presents its person (negative indices: no structure scope has one)
                        named -= 1
                        own = Scope(named, lead[0], lead[1], kind=NAMESAKE)
                    opens = first_item or j >= items_from
                    out.append(Sentence(len(out), piece, paragraph, opens, own, labels, record, label is True))
            paragraph += 1
    return out


def _chunks(text: str, rules_off: frozenset[str]) -> Iterator[tuple[str, bool, Scope | None, bool | str, bool]]:
    """The pieces of text the blocks of ``text`` are read from: each with whether it opens a list item, its
    person scope and whether it only labels a part of the answer (a heading that presents no one), or the sentence that
    labels it (a bold label that opens a paragraph: "**Book.** He wrote …"), and whether it holds a fenced profile's
    fields. A table or a fenced profile gives its records, a piece for each scope they are in."""
    doc = document.parse(text, rules_off)
    found = scopes(doc, rules_off) if STRUCTURE_SCOPES not in rules_off else None
    keys: frozenset[int] = frozenset()
    if found is not None and not found.scopes and EMOJI_KEYS not in rules_off:
        # no lead presents people: a key of emoji may ("🧪 = the chemist · 📰 = the journalist", emoji-keys)
        tagged = emoji_scopes(doc)
        if tagged is not None:
            found, keys = tagged
    if found is not None and not found.scopes:
        # no lead presents people by name or description: units may present namesakes by role (role-units)
        found = role_scopes(doc, rules_off) or found
    extra: dict[tuple[int, str], Scope] = {}  # the scopes of tables' rows and columns and of profiles
    fenced = (
        fence_records({b: (x.text, x.info) for b, x in enumerate(doc.blocks) if x.kind == document.FENCE}, rules_off)
        if FENCED_PROFILES not in rules_off
        else {}
    )
    letter = _letter_lines(doc, rules_off)
    voices = _script_lines(doc, rules_off)
    for b, block in enumerate(doc.blocks):
        scope = found.scopes[found.by_block[b]] if found is not None and found.by_block[b] >= 0 else None
        if block.kind in (document.FOOTNOTE, document.SOURCES) or b in keys:
            continue
        if block.kind == document.HEADING:
            yield block.plain().rstrip(":"), False, scope, not presents_person(block.text), False
            continue
        lead = found is not None and found.by_block[b] >= 0 and (b == 0 or found.by_block[b - 1] != found.by_block[b])
        section = label_item(doc, b, rules_off, lead)  # "- **Education**" over items nested under it: a heading
        if section is not None:
            yield section, False, scope, True, False
            continue
        if not lead and BOLD_TITLES not in rules_off and (title := bold_title(doc, b)) is not None:
            yield title, False, scope, True, False  # "**Section 3: Historical significance**" alone: a heading
            continue
        if block.kind == document.PARAGRAPH and label_of(block.text) in PART_LABELS:  # "**Short answer:**" alone
            yield block.plain(), block.item, scope, True, False
            continue
        read: list[Record] | None = None
        if block.kind == document.TABLE:
            if MARKDOWN_TABLES in rules_off:
                read = [Record(" | ".join(cells)) for cells in block.rows]
            else:
                rows = (
                    block.rows
                    if MEDAL_CELLS in rules_off
                    else tuple(tuple(medal_words(c) for c in row) for row in block.rows)
                )
                read = table_records(rows)
        elif block.kind == document.FENCE:
            read = fenced.get(b)
        if read is None:
            plain = block.plain(DASH_LABELS not in rules_off)
            if b in letter:  # an e-mail's subject line, greeting or sign-off: not claims
                plain = "\n".join(line for k, line in enumerate(plain.split("\n")) if k not in letter[b])
                if not plain.strip():
                    continue
            if b in voices:  # a script's speaker labels and stage directions: who speaks, not what is said
                cut = voices[b]
                lines = plain.split("\n")
                plain = "\n".join(line[cut.get(k, 0) :] for k, line in enumerate(lines) if cut.get(k, 0) >= 0)
                if not plain.strip():
                    continue
            said = run(TURN_RULES, plain, rules_off) if block.kind == document.PARAGRAPH else None
            if said is not None:  # a chat transcript: the user's turns ask, the other speaker's turns claim
                roles = role_turns(said.turns)
                for k, turn in enumerate(said.turns):
                    if turn.user:
                        continue
                    own = scope
                    if found is not None and roles[k]:
                        own = extra.get((b, roles[k]))
                        if own is None:
                            own = extra[(b, roles[k])] = Scope(
                                len(found.scopes) + len(extra), None, roles[k], kind="turn"
                            )
                    yield turn.text, False, own, False, False
                continue
            yield plain, block.item, scope, _bold_label(block), False
            continue
        for key, group in itertools.groupby(read, key=lambda r: r.key):
            records = list(group)
            own = scope
            if key and found is not None:
                own = extra.get((b, key))
                if own is None:
                    own = extra[(b, key)] = _record_scope(records[0], len(found.scopes) + len(extra), key)
            # a record a paragraph
            yield "\n\n".join(r.text for r in records), False, own, False, block.kind == document.FENCE


def _letter_lines(doc: document.Document, rules_off: frozenset[str]) -> dict[int, set[int]]:
    """For each paragraph block with lines of an e-mail's furniture (``scoring.segment.letter``), their indices."""
    if LETTER_FURNITURE in rules_off:
        return {}
    where: list[tuple[int, int]] = []
    lines: list[str] = []
    for b, block in enumerate(doc.blocks):
        if block.kind != document.PARAGRAPH:
            where.append((-1, -1))
            lines.append(".")  # a heading, a table, a fence: no furniture, and none reads across it
            continue
        for k, line in enumerate(block.plain().split("\n")):
            where.append((b, k))
            lines.append(line)
    out: dict[int, set[int]] = {}
    for i in furniture(lines):
        b, k = where[i]
        if b >= 0:
            out.setdefault(b, set()).add(k)
    return out


def _script_lines(doc: document.Document, rules_off: frozenset[str]) -> dict[int, dict[int, int]]:
    """For each paragraph block of an answer written as a script (``scoring.segment.script``), its lines' speaker
    labels: line index → how many characters the label takes, -1 for a stage direction (the line goes)."""
    if SCRIPT_SPEAKERS in rules_off:
        return {}
    where: list[tuple[int, int]] = []
    lines: list[str] = []
    for b, block in enumerate(doc.blocks):
        if block.kind == document.PARAGRAPH:
            for k, line in enumerate(block.plain().split("\n")):
                where.append((b, k))
                lines.append(line)
    labels = speaker_lines(lines)
    if not labels:
        return {}
    out: dict[int, dict[int, int]] = {}
    for i, (b, k) in enumerate(where):
        if i in labels:
            out.setdefault(b, {})[k] = labels[i]
        elif stage_direction(lines[i]):
            out.setdefault(b, {})[k] = -1
    return out


# A bold label that opens a paragraph as a sentence of its own is this short ("**Race debut.**").
_LABEL_WORDS = 5


def _bold_label(block: document.Block) -> str:
    """The bold label that opens a paragraph as a sentence of its own and presents no one ("**Book.** He wrote …",
    "**Harwick College.** He coached …"), or ""."""
    lead = bold_lead(block.text)
    if lead is None or not lead.endswith(".") or len(lead.split()) > _LABEL_WORDS or presents_person(lead):
        return ""
    return lead.replace("*", "").strip()


def _record_scope(record: Record, index: int, key: str) -> Scope:
    """The scope of a table's row or column or of a profile: its name read as a lead ("Theodore Vance (boxer)" is
    Theodore Vance, a boxer), its description and dates where the cells give them."""
    lead = person_lead(record.name) if record.name else None
    name = lead.name if lead is not None else record.name
    description = (lead.description if lead is not None else None) or record.description
    dates = record.dates or (lead.dates if lead is not None else None)
    return Scope(index, name, description, dates, key.split(":")[0], record.sole)


DASH_LABELS = rule(
    "dash-labels",
    "segment",
    "a bold label set off by a dash at the start of a line ('**War years** — He spent …', '1. **Output** – "
    "Roughly 600 paintings') is a label as if it had a colon: the records reading reads it as one",
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


@dataclass(frozen=True)
class Joined:
    """A sentence that may lay out several statements; ``item``: it opens a list item."""

    text: str
    item: bool


@dataclass(frozen=True)
class Parts:
    """The statements a sentence is read as, each a sentence of its own (read as a list item)."""

    texts: tuple[str, ...]
    decided_by: str = ""
    # The first of ``texts`` read as a list item (the parts after the first, unless the first is one too).
    items_from: int = 1
    # The person each of ``texts`` presents (name, what tells them apart), where the split says: a namesake's part.
    leads: tuple[tuple[str, str | None] | None, ...] = ()

    def stamped(self, name: str) -> Parts:
        return replace(self, decided_by=name)


def _parts(texts: list[str] | None) -> Parts | None:
    return Parts(tuple(texts)) if texts is not None and len(texts) > 1 else None


def _namesake_parts(texts: list[str] | None) -> Parts | None:
    """The parts of a sentence that names namesakes, each namesake's part with the person it presents."""
    if texts is None or len(texts) < 2:
        return None
    return Parts(tuple(texts), leads=tuple(namesake_lead(t) for t in texts))


# Items set side by side on one line: "4× GbE LAN · 1× USB 3.0 · WPA3", "Wi-Fi 6 • $149 • 2-yr warranty".
_INLINE_BULLETS = re.compile(r"\s+[·•]\s+")
# A description or a name that opens a line, then what it lists after a colon: "Polish cellist (b. 1968, Kraków):
# principal cellist of …, founder of …", "Corvane Nimbus AX3200 (2021): dual-band Wi-Fi 6 · …".
_DESCRIBED_LEAD = re.compile(r"^(?P<lead>[^\W\d_][^:;!?]{2,79}?):\s+(?P<rest>\S.*)$")
# Words that count the people a line lists ("Two:", "Three people:", "There are two:").
_COUNTS = frozenset("two three four five six several there both".split())
# A part that is a clause of its own rather than a phrase of a list.
_FINITE = re.compile(r"\b(?:is|are|was|were|has|have|had|does|did|will|would|can|could)\b", re.IGNORECASE)


def listed_description(sentence: str) -> list[str] | None:
    """A line that opens with a description or a name and lists, after a colon, phrases about it (two or more,
    set apart by middle dots or bullets, or three or more by commas outside parentheses), read as its parts: the
    opening, then each phrase; None for anything else (a label and a sentence, a list of clauses).

    >>> listed_description("Danish potter (b. 1951): founder of the Kiln Group, teacher at Kyoto Arts, winner in 1988.")
    ['Danish potter (b. 1951).', 'founder of the Kiln Group,', 'teacher at Kyoto Arts,', 'winner in 1988.']
    """
    m = _DESCRIBED_LEAD.match(sentence)
    if m is None or _FINITE.search(m.group("lead")) or len(m.group("lead").split()) > 10:
        return None
    # A description, often with its dates ("(b. 1968)", ", 1912–1988", "(2021)"), not a record's label ("Teams
    # (2008–2020): A, B, C", "Education: …"), which says what its values are and is read as a record.
    bare = re.sub(r"\s*\([^()]*\)", "", m.group("lead")).strip(" ,").lower()
    labelled = bool(RECORD_PREDICATES.keys() & {bare, bare.rstrip("s")}) or bare in PART_LABELS
    if bare.split()[0] in _COUNTS:  # "Three: a mathematician (…), a film director (…)": namesakes counted, not one
        return None
    # Without dates, a role of a word or three ("Economist: born 1958 …") describes; plural words ("Notable works:",
    # "Teams:") label what the values are.
    described = any(ch.isdigit() for ch in m.group("lead")) or (len(bare.split()) <= 3 and not bare.endswith("s"))
    if labelled or not described:
        return None
    rest = m.group("rest")
    dotted = _INLINE_BULLETS.split(rest)
    if len(dotted) >= 2:
        parts = [p.strip() for p in dotted]
    else:
        parts = _outside_parentheses_split(rest, ",")
        # phrases of a few words each ("founder of the X Quartet (2010)"), not a value's own commas ("Trainer,
        # Keystone Gym, Philadelphia (1946–1965)")
        if len(parts) < 3 or any(len(re.sub(r"\([^()]*\)", "", p).split()) < 2 for p in parts):
            return None
    if any(not p.strip(" .,;") or _FINITE.search(p) or len(p.split()) > 14 for p in parts):
        return None
    return [m.group("lead").strip() + ".", *parts]


def _outside_parentheses_split(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside parentheses, each part keeping its separator; a comma between digits is a
    number's ("4,210 pipes"), not a separator."""
    parts: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(text):
        depth += ch in "(["
        depth -= ch in ")]"
        thousands = ch == "," and 0 < i < len(text) - 1 and text[i - 1].isdigit() and text[i + 1].isdigit()
        if ch == sep and depth == 0 and not thousands:
            parts.append(text[start : i + 1].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def _described_parts(texts: list[str] | None) -> Parts | None:
    """The parts of a listed description, the opening description a list item too ("Polish cellist (b. 1968)." is
    said of the subject as "principal cellist of …" is)."""
    return Parts(tuple(texts), items_from=0) if texts is not None and len(texts) > 1 else None


# How a sentence is split into statements, in precedence: the first rule that splits it decides.
SPLIT_RULES: tuple[Rule[Joined, Parts], ...] = register(
    Rule(
        "semicolon-lists",
        "segment",
        "a sentence of three or more semicolon-separated parts ('X, a coach; born in Dayton; played end at …'), or a "
        "list item of two or more, is a list: each part is read on its own, as a list item",
        (
            "Born in 1931; emigrated in 1955; died in 2012.",
            "Harlan Beckwith, a football coach; born in Dayton, Ohio; played end at Danforth College.",
            "- Married Karin Sjöberg in 1999; three daughters",
        ),
        lambda j: _parts(semicolon_list(j.text, 2 if j.item else 3)),
    ),
    Rule(
        "namesake-coordination",
        "segment",
        "a sentence that names one person twice, each time with a description that tells them apart, the second "
        "after a joining word ('There are two: X the novelist, who …, and X the physicist, who …') is read as one "
        "sentence a namesake, each part opening the scope of the namesake it names (name and role), so that grouping "
        "sees the two people the sentence names",
        (
            "There are two: Ada Brook the cellist, who …, and Ada Brook the ecologist, who …",
            "Ada Brook (cellist) taught in Gdańsk, while Ada Brook (ecologist) studied peat bogs.",
            "You may mean Ada Brook, a cellist born in 1950, or Ada Brook, an ecologist born in 1975.",
        ),
        lambda j: _namesake_parts(namesake_parts(j.text)),
    ),
    Rule(
        "listed-description",
        "segment",
        "a line that opens with a description or a name and lists phrases about it after a colon ('Polish cellist "
        "(b. 1968, Kraków): principal cellist of X 1995–2009, founder of Y (2010), teacher at Z', 'Acme X2 (2022): "
        "Wi-Fi 6 · four LAN ports · $129') is read as its parts, each a list item about the answer's subject",
        (
            "Danish potter (b. 1951): founder of the Mashiko Kiln Group, teacher at Kyoto Arts, prize winner in 1988.",
            "Acme X2 (2022): Wi-Fi 6 · four gigabit LAN ports · launched at $129 · two-year warranty.",
            "Norwegian composer, 1912–1988: organist in Tromsø • teacher at the Oslo Conservatory",
        ),
        lambda j: _described_parts(listed_description(j.text)),
    ),
)
