"""A revision written on the answer as written: its layout kept, each edit made where the edited words stand.

Revision (:mod:`scoring.revise`) edits the sentences as the checker read them: a table row read as "2017, World
Championships, Lahti — team sprint, Silver", a YAML field as "Born: 1927, Kansas City", a bullet without its
marker. Joining those readings back lost the table's pipes, the bullets and their nesting, the headings, the bold
lead-ins and the fences, and wrote a medal the answer gave as 🥈 as "Silver". Here every line of the answer whose
sentences the revision kept is kept as written; a line whose sentences all went goes (a table row, a list item, a
field); and a line with an edited sentence takes the edit in place: each word run the revision replaced or deleted
is found in the line and replaced or deleted there, the replacement written in the answer's own notation (a medal
emoji for a medal, digits for digits, the answer's date format). A table left without rows loses its header, a
fence left without content goes, and a fenced JSON or YAML profile that parsed still parses.

Where an edit cannot be placed in its line, the line is written as the revision's sentences with the line's own
marker (indent, bullet, heading), as before; a table row or a fenced field goes whole instead (a row written as
prose breaks the table). Where a changed sentence cannot be placed in the answer at all, or a fence would no longer
parse, the caller joins the sentences as before (``None``).
"""

from __future__ import annotations

import bisect
import difflib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from scoring.rules import rule
from vocabulary import MONTHS, NUMBER_WORDS

LAYOUT_IN_PLACE = rule(
    "layout-in-place",
    "revise",
    "the revision is written on the answer as written: kept lines as they are, a line whose sentences all went "
    "removed (a table row, a list item, a field), an edit made where its words stand in the line, in the answer's "
    "notation (🥈 for a medal given as an emoji, digits for digits, its date format); tables, bullets and their "
    "nesting, headings, bold lead-ins and fenced JSON/YAML keep their layout",
)

_TOKEN = re.compile(r"\w+(?:['’.\-]\w+)*|[^\w\s]")
_MEDALS = {"gold": "🥇", "silver": "🥈", "bronze": "🥉"}
_EMOJI_MEDALS = {v: k for k, v in _MEDALS.items()}
_PRONOUNS = frozenset("he she they it his her their its".split())
# A line's own marker: indent, a quote, a bullet or number, a heading's hashes.
_MARKER = re.compile(r"^(\s*(?:>\s*)*(?:#{1,6}\s+|[-*+•]\s+(?:\[[ xX]\]\s+)?|\d{1,2}[.)]\s+)?)")
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)\s*([\w+-]*)\s*$")
_NUMBER_NAMES = {v: k for k, v in NUMBER_WORDS.items() if v <= 20}
_MONTH = "|".join(m.capitalize() for m in MONTHS)
_DMY = re.compile(rf"\b(\d{{1,2}}) ({_MONTH}) (\d{{4}})\b")
_MDY = re.compile(rf"\b({_MONTH}) (\d{{1,2}}), (\d{{4}})\b")
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")


@dataclass
class _Block:
    first: int  # line indices, inclusive
    last: int
    sentences: list[int]


def _bracketed(answer: str, start: int, end: int) -> tuple[int, int]:
    """The region ``answer[start:end]`` with the closing brackets of the brackets it opens: a reading that wrote
    "Halvering Medal, 1933" for "Halvering Medal (1933)" aligns up to the year, and the region must not leave the ")"
    (nor, for an item between two separators, both separators)."""
    for opening, closing in ("()", "[]"):
        while answer[end : end + 1] == closing and answer.count(opening, start, end) > answer.count(
            closing, start, end
        ):
            end += 1
    # An item between two separators ("…, Arizona; Halvering Medal (1933); Monoplane …") takes the one after it.
    before = answer[max(0, start - 2) : start].strip()
    if before and before in ";," and answer[end : end + 1] == before:
        end += 1
        while answer[end : end + 1] == " ":
            end += 1
    elif before and before in ";," and answer[end:].lstrip(" ")[:1] in ("|", "\n", ""):
        start = answer.rindex(before, 0, start)  # the last item of a cell or a line: the separator before it goes
    return start, end


def in_place(
    answer: str,
    maps: Sequence[Sequence[int]],
    written: Sequence[str],
    bases: Sequence[str],
    outs: Sequence[str | None],
) -> str | None:
    """The revision on the answer as written (module doc): ``written`` the sentences ``maps`` align to the answer,
    ``bases`` the texts the revision edited (a reading or the sentence as written), ``outs`` what each became (None:
    it went). None where the answer cannot carry the edits."""
    lines = answer.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    fences = _fenced(lines)
    placed: list[tuple[int, int, int]] = []  # first line, last line, sentence
    regions: dict[int, tuple[int, int]] = {}  # where a changed sentence stands, where its alignment says it well
    previous = 0
    for i, offsets in enumerate(maps):
        found = [o for o in offsets if o >= 0]
        changed = outs[i] != written[i]
        if not changed:
            if found:
                at = [bisect.bisect_right(starts, o) - 1 for o in found]
                mode = max(set(at), key=at.count)
                # a kept sentence over lines (a poem's, a wrapped one) stands on each, should a changed one share one
                lo, hi = min(at), max(at)
                first, last = (lo, hi) if len(set(at)) == hi - lo + 1 and hi - lo < 4 else (mode, mode)
                placed.append((first, last, i))
                previous = mode
            continue
        at = [bisect.bisect_right(starts, o) - 1 for o in found]
        spread = sorted(set(at))
        aligned = sum(1 for c, o in zip(written[i], offsets, strict=False) if c.isalnum() and o >= 0)
        share = aligned / max(1, sum(c.isalnum() for c in written[i]))
        if found and share >= 0.8 and spread[-1] - spread[0] + 1 == len(spread):
            first, last = spread[0], spread[-1]
            if first == last or not any(_TABLE_ROW.match(lines[k]) for k in spread):
                placed.append((first, last, i))
                regions[i] = _bracketed(answer, min(found), max(found) + 1)
                previous = first
                continue
        run = _lines_of(lines, written[i], previous)
        if run is None:
            return None
        placed.append((run[0], run[1], i))
        previous = run[0]
    blocks: list[_Block] = []
    for first, last, i in sorted(placed):
        if blocks and first <= blocks[-1].last:
            blocks[-1].last = max(blocks[-1].last, last)
            blocks[-1].sentences.append(i)
        else:
            blocks.append(_Block(first, last, [i]))
    new: list[str | None] = list(lines)
    for block in blocks:
        kept = [i for i in block.sentences if outs[i] is not None]
        if all(outs[i] == written[i] for i in block.sentences):
            continue
        if not kept:
            for k in range(block.first, block.last + 1):
                new[k] = None
            continue
        text = "\n".join(lines[block.first : block.last + 1])
        edited = _edited(text, starts[block.first], block, regions, written, bases, outs)
        parts = edited.split("\n") if edited is not None else []
        if len(parts) == block.last - block.first + 1 and all(
            _sound(part, lines[k]) for k, part in zip(range(block.first, block.last + 1), parts, strict=True)
        ):
            for k, part in zip(range(block.first, block.last + 1), parts, strict=True):
                new[k] = _tidy_line(part, lines[k], k in fences) if part != lines[k] else part
                emptied = lines[k].strip() and not (new[k] or "").strip()  # a line whose words all went
                if new[k] is not None and (emptied or not _has_words(new[k] or "")):
                    new[k] = None
            continue
        on_line = {i: first for first, _, i in placed if i in block.sentences}
        for k in range(block.first, block.last + 1):
            here = [i for i in block.sentences if on_line[i] == k]
            if here and all(outs[i] == written[i] for i in here) and all(i in regions or True for i in here):
                continue  # its sentences kept: the line as written
            said = _fallback(lines[k], [outs[i] or "" for i in here], structured=k in fences) if here else None
            new[k] = _tidy_line(said, lines[k], k in fences) if said else None
    _lone_labels(lines, new)
    _renumbered(lines, new)
    _open_containers(lines, new, fences)
    _bare_keys(lines, new, fences)
    _empty_tables(lines, new)
    _empty_fences(lines, new, fences)
    if not _fences_parse(lines, new, fences):
        return None
    return _tidy_blank_lines([line for line in new if line is not None])


def _edited(
    text: str,
    offset: int,
    block: _Block,
    regions: dict[int, tuple[int, int]],
    written: Sequence[str],
    bases: Sequence[str],
    outs: Sequence[str | None],
) -> str | None:
    """The block's text with each sentence's edits made in place; None where one cannot be placed. A sentence
    edits where its alignment puts it, else its whole line (a table row's item, a fenced field read in other
    words)."""
    # Later sentences first: an edit never moves where an earlier sentence stands.
    order = sorted(block.sentences, key=lambda i: regions.get(i, (offset + len(text), 0))[0], reverse=True)
    for i in order:
        out = outs[i]
        if out == written[i]:
            continue
        start, end = regions.get(i, (offset, offset + len(text)))
        start, end = max(0, start - offset), min(len(text), end - offset)
        # the emphasis round the sentence's first and last words is the sentence's ("*[take guesses]* About 37 days!")
        while start > 0 and text[start - 1] in "*_":
            start -= 1
        while end < len(text) and text[end] in "*_":
            end += 1
        # the words the answer has here (a record's reading says "in 2012" of a line that says "(2012)")
        said = f"{written[i]} {text[start:end]}"
        if out is None:
            region = _deleted(text[start:end], bases[i], written[i], said)
        else:
            region = _applied(text[start:end], bases[i], out, said)
        if region is None:
            return None
        text = text[:start] + region + text[end:]
    return text


def _line_of(lines: Sequence[str], sentence: str, previous: int) -> int | None:
    """The line holding most of the words of ``sentence`` (at least half), the first from ``previous`` on a tie."""
    words = {w.casefold() for w in re.findall(r"\w+", sentence)}
    if not words:
        return None
    best: tuple[float, int] | None = None
    for k, line in enumerate(lines):
        said = {w.casefold() for w in re.findall(r"\w+", line)}
        score = len(words & said) / len(words)
        key = (score, -(k - previous) if k >= previous else -(10**6 + previous - k))
        if score >= 0.5 and (best is None or key > (best[0], best[1])):
            best = key[0], key[1]
            chosen = k
    return chosen if best is not None else None


def _lines_of(lines: Sequence[str], sentence: str, previous: int) -> tuple[int, int] | None:
    """The line, or else the run of up to four lines (a field and its items: "honours:" then "- Norwegian Cup
    (2012)"), holding most of the words of ``sentence``."""
    one = _line_of(lines, sentence, previous)
    if one is not None:
        return one, one
    words = {w.casefold() for w in re.findall(r"\w+", sentence)}
    for size in (2, 3, 4):
        for k in range(max(0, previous), len(lines) - size + 1):
            said = {w.casefold() for line in lines[k : k + size] for w in re.findall(r"\w+", line)}
            if words and len(words & said) / len(words) >= 0.6 and all(line.strip() for line in lines[k : k + size]):
                return k, k + size - 1
    return None


def _ops(base: str, out: str) -> list[tuple[str, str, str]]:
    """The word runs ``out`` changed of ``base``: (kind, old text, new text), in order."""
    a = [(m.start(), m.end()) for m in _TOKEN.finditer(base)]
    b = [(m.start(), m.end()) for m in _TOKEN.finditer(out)]
    matcher = difflib.SequenceMatcher(None, [base[s:e] for s, e in a], [out[s:e] for s, e in b], autojunk=False)
    found: list[tuple[str, str, str]] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        old = base[a[i1][0] : a[i2 - 1][1]] if i2 > i1 else ""
        new = out[b[j1][0] : b[j2 - 1][1]] if j2 > j1 else ""
        found.append((op, old, new))
    return found


def _applied(region: str, base: str, out: str, written: str) -> str | None:
    """``region`` (where the sentence stands in the answer) with the edits of ``base`` into ``out``."""
    ops = _ops(base, out)
    if sum(len(old) for _, old, _ in ops) > 0.7 * max(len(base), 1):
        return None  # rewritten rather than edited (a sentence said by its facts): no place for it in the line
    cursor = 0
    for kind, old, new in ops:
        if not re.search(r"\w", old):
            if re.search(r"\w", new):
                return None  # words the revision adds: not an edit of the line's words
            continue  # punctuation the reading or the tidying put in or took out
        if kind == "replace" and old.casefold() == new.casefold():
            continue  # a capital where the reading's words open a sentence
        hit = _find(region, old, cursor)
        if hit is None:
            if _reading_only(old, written) and (kind == "delete" or new.lower() in _PRONOUNS):
                continue  # words the reading added ("Zoë Ferrán-Okafor" of a subjectless bullet)
            if kind == "delete":
                region, cursor, ok = _delete_pieces(region, old, written, cursor)
                if not ok:
                    return None
                continue
            return None
        s, e = hit
        if kind == "delete":
            region, cursor = _cut(region, s, e), s
        else:
            region = region[:s] + _in_notation(new, region[s:e]) + region[e:]
            cursor = s + len(_in_notation(new, region[s:e]))
    return region


def _deleted(region: str, base: str, written: str, said: str) -> str | None:
    """``region`` without the words of a sentence that went whole: the stretch its words stand in as written
    (with the separator after it, "Brushfire (album, 1961); "), else each of its pieces."""
    words = re.findall(r"\w+", written)
    if words:
        pattern = r"(?<!\w)" + r"(?:\W|\[\d+\])+".join(re.escape(w) for w in words) + r"(?!\w)(?:\s*\[\d+\])*"
        m = re.search(pattern, region)
        if m is not None:
            s, e = m.start(), m.end()
            opened = region[s:e].count("(") - region[s:e].count(")")
            closing = re.match(r"[^\w(]*?\)" * opened if opened > 0 else "", region[e:])
            e += closing.end() if closing else 0
            after = re.match(r"[.!?]?\s*[;,]\s*|[.!?:](?=[*_)\]”\"']*(?:\s|$))", region[e:])
            if after is not None:
                e += after.end()
            elif re.search(r"[;,]\s*$", region[:s]):
                s = re.search(r"\s*[;,]\s*$", region[:s]).start()  # type: ignore[union-attr]
            return _cut(region, s, e)
    region, _, ok = _delete_pieces(region, base, said, 0)
    return region if ok else None


def _delete_pieces(region: str, old: str, written: str, cursor: int) -> tuple[str, int, bool]:
    """``region`` without ``old``, piece by piece between its punctuation (a table row's cells, read joined)."""
    pieces = [
        p.strip() for p in re.split(r"\s*[,;:—–]\s+|\s+[—–]\s*|\s*[()\[\]]\s*|[.!?]$", old) if re.search(r"\w", p)
    ]
    hits: list[tuple[int, int]] = []
    at = cursor
    for piece in pieces:
        hit = _find(region, piece, at)
        words = piece.split()
        while hit is None and len(words) > 1 and _reading_only(words[0], written):
            # the reading's own words around a value: "in 2017" of a cell that says "2017"
            words = words[1:]
            hit = _find(region, " ".join(words), at)
        if hit is None:
            if _reading_only(piece, written):
                continue
            return region, cursor, False
        hits.append(hit)
        at = hit[1]
    for s, e in reversed(_joined_pieces(region, hits)):
        region = _cut(region, s, e)
    return region, (hits[0][0] if hits else cursor), True


# What may stand between two pieces of one deleted run in the answer: the punctuation the reading put otherwise
# ("leave — she" read "leave; she"), never a word or a line break.
_BETWEEN_PIECES = re.compile(r"[ \t]*[,;:—–-]?[ \t]*")


def _joined_pieces(region: str, hits: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The stretches of ``region`` the deleted pieces ``hits`` cover, neighbours joined across the punctuation between
    them: "job in 2020, but she didn't leave — she" less its three pieces leaves no ", —" behind."""
    out: list[tuple[int, int]] = []
    for s, e in hits:
        if out and _BETWEEN_PIECES.fullmatch(region[out[-1][1] : s]):
            out[-1] = (out[-1][0], e)
        else:
            out.append((s, e))
    return out


def _reading_only(words: str, written: str) -> bool:
    """Whether no word of ``words`` is in the sentence as written: the reading's own words."""
    said = {w.casefold() for w in re.findall(r"\w+", written)}
    return not any(w.casefold() in said for w in re.findall(r"\w+", words))


def _find(region: str, old: str, cursor: int) -> tuple[int, int] | None:
    """Where ``old`` stands in ``region`` from ``cursor``: as written (markup between its words allowed), else in
    another notation (a medal's emoji, a number in digits or in words, a date written the other way)."""
    for variant in _notations(old):
        words = _TOKEN.findall(variant)
        if not words:
            continue
        pattern = r"[\s*_`]*".join(re.escape(w) for w in words)
        if words[0][:1].isalnum():
            pattern = r"(?<![\w])" + pattern
        if words[-1][-1:].isalnum():
            pattern += r"(?![\w])"
        m = re.compile(pattern).search(region, cursor) or re.compile(pattern, re.IGNORECASE).search(region, cursor)
        if m is not None:
            return m.start(), m.end()
    return None


def _notations(value: str) -> list[str]:
    """``value`` and the ways an answer may write it otherwise."""
    out = [value]
    low = value.casefold()
    if low in _MEDALS:
        out.append(_MEDALS[low])
    if low in NUMBER_WORDS:
        out.append(str(NUMBER_WORDS[low]))
    if re.fullmatch(r"[0-9]+", value) and int(value) in _NUMBER_NAMES:
        out.append(_NUMBER_NAMES[int(value)])
    out += [d for d in _dates(value) if d != value]
    return out


def _in_notation(new: str, written: str) -> str:
    """``new`` written as the answer wrote the value it replaces (``written``)."""
    w = written.strip()
    if w in _EMOJI_MEDALS and new.casefold() in _MEDALS:
        return _MEDALS[new.casefold()]
    if re.fullmatch(r"[0-9]+", w) and new.casefold() in NUMBER_WORDS:
        return str(NUMBER_WORDS[new.casefold()])
    if w.casefold() in NUMBER_WORDS and re.fullmatch(r"[0-9]+", new) and int(new) in _NUMBER_NAMES:
        name = _NUMBER_NAMES[int(new)]
        return name.capitalize() if w[:1].isupper() else name
    for fmt, pattern in (("dmy", _DMY), ("mdy", _MDY), ("iso", _ISO)):
        if pattern.fullmatch(w):
            dates = _dates(new)
            if dates:
                return dict(zip(("dmy", "mdy", "iso"), dates, strict=True))[fmt]
    return new


def _dates(value: str) -> list[str]:
    """A full date in the three ways it is written ("14 March 1990", "March 14, 1990", "1990-03-14"); []
    for anything else."""
    months = [m.capitalize() for m in MONTHS]
    for pattern, order in ((_DMY, "dmy"), (_MDY, "mdy"), (_ISO, "iso")):
        m = pattern.fullmatch(value.strip())
        if m is None:
            continue
        if order == "dmy":
            day, month, year = int(m.group(1)), months.index(m.group(2)) + 1, m.group(3)
        elif order == "mdy":
            day, month, year = int(m.group(2)), months.index(m.group(1)) + 1, m.group(3)
        else:
            year, month, day = m.group(1), int(m.group(2)), int(m.group(3))
            if not 1 <= month <= 12:
                return []
        name = months[month - 1]
        return [f"{day} {name} {year}", f"{name} {day}, {year}", f"{year}-{month:02d}-{day:02d}"]
    return []


def _cut(region: str, s: int, e: int) -> str:
    """``region`` less [s, e), the spacing and punctuation at the join left tidy ("University, Wales (since 2005)"
    less "Wales" is "University (since 2005)"; "in 1961, and" less "1961" keeps no ", ,"). The markup wrapped round
    the words cut goes with them ("*[take guesses]*", "**Kite Season**"), and the line breaks among them stay: a cut
    across lines ("Gold pickaxe, eighty-" and "nine;" of a poem's lines) leaves each line where it was."""
    s, e = _with_markup(region, s, e)
    breaks = region[s:e].count("\n")
    if breaks:
        return region[:s].rstrip(" \t") + "\n" * breaks + region[e:].lstrip(" \t")
    before, after = region[:s], region[e:]
    b, a = before.rstrip(" \t"), after.lstrip(" \t")
    spaced = b != before or a != after
    if b.endswith(",") and a[:1] in (".", ";", ")", "|", ",", "(", ""):
        b = b[:-1].rstrip(" \t")
    elif a.startswith(",") and (not b or b[-1:] in ",(:;|—–\"'[{"):
        a = a[1:].lstrip(" \t")
    if b.endswith("(") and a.startswith(")"):
        b, a = b[:-1].rstrip(" \t"), a[1:]
    if b[-1:] in ("—", "–") and (not a or a[:1] in ".;!?\n"):
        b = b[:-1].rstrip(" \t")  # an aside's dash left at the end: "… studied in Bergen —."
    joiner = ""
    if b and a and a[:1] not in ".,;:)!?" and b[-1:] != "(" and b[-1:] != "\n":
        joiner = " " if spaced or (b[-1:].isalnum() and a[:1].isalnum()) or b[-1:] in ".!?;," else ""
    return b + joiner + a


# Markup that opens or closes round words: emphasis, a bracketed stage direction, quotes.
_OPENERS = "*_[(“\"'"
_CLOSERS = "*_])”\"'"
_PAIRS = (("(", ")"), ("[", "]"), ("“", "”"))


def _with_markup(region: str, s: int, e: int) -> tuple[int, int]:
    """[s, e) widened over the markup right against it on either side ("*[" before "take guesses", "]*" after), where
    the stretch so widened pairs its brackets and its emphasis; else [s, e) as it is."""
    a, b = s, e
    while a > 0 and region[a - 1] in _OPENERS:
        a -= 1
    while b < len(region) and region[b] in _CLOSERS:
        b += 1
    if (a, b) == (s, e) or not _paired(region[a:b]):
        return s, e
    return a, b


def _sound(line: str, original: str) -> bool:
    """Whether an edited line keeps the frame of the line as written: a table row its cells, every line its brackets
    and bold paired as they were (not "| | (the house changed its name |" of a row whose first cell and the words
    before a parenthesis went)."""
    if line == original:
        return True
    if _TABLE_ROW.match(original):
        if line.count("|") != original.count("|") or not _TABLE_ROW.match(line):
            return False
        key, was = line.strip().split("|")[1], original.strip().split("|")[1]
        if re.search(r"\w", was) and not re.search(r"\w", key):
            return False  # a row that lost its first cell's words says nothing of what it is about
    if any(line.count(o) - line.count(c) != original.count(o) - original.count(c) for o, c in _PAIRS):
        return False
    return line.count("**") % 2 == original.count("**") % 2


def _paired(text: str) -> bool:
    """Whether ``text`` closes every bracket it opens and opens every emphasis it closes (bold and italics by count)."""
    if any(text.count(o) != text.count(c) for o, c in _PAIRS):
        return False
    bold = text.count("**")
    return bold % 2 == 0 and (text.count("*") - 2 * bold) % 2 == 0 and text.count('"') % 2 == 0


# Separators left with nothing on one side where words went: a slash before a label's colon ("The special thing" of
# "A különlegesség / The special thing:" gone), a dash straight after a colon, a comma before a dash ("Sondrio, —").
_JOINS = (
    (re.compile(r"[ \t]*/[ \t]*(?=[:;,.])"), ""),
    (re.compile(r"([:;](?:\*\*|__)?)[ \t]*[—–][ \t]+"), r"\1 "),
    (re.compile(r",[ \t]*([—–])"), r" \1"),
)


def _tidy_line(line: str, original: str, fenced: bool = False) -> str:
    """An edited line with the original's indentation and one space between words (a table row's padding
    aside), nothing trailing."""
    lead = re.match(r"[ \t]*", original).group(0)  # type: ignore[union-attr]
    body = line.strip(" \t")
    if not _TABLE_ROW.match(original):
        body = re.sub(r"(?<=\S)[ \t]{2,}", " ", body)
    body = re.sub(r"(?<=\S) +([,.;:!?])(?=\s|$)", r"\1", body)
    if not re.search(r"\(\s*[,;]?\s*\)", original):
        body = re.sub(r"\s*\(\s*[,;]?\s*\)", "", body)  # a hedge in parentheses that went: "(2006) ()"
    if _TABLE_ROW.match(original):
        body = _emptied_cells(body)
    # emphasis whose words all went: "**Mod note:** merged …" less the note leaves no "** Please …"
    body = re.sub(r"(?:^|(?<=\s))(?:\*\*|__)(?:\s+|$)", "", body).strip(" \t")
    # emphasis left round punctuation alone: "**Training:** three years" less its label leaves no "**:**"
    body = re.sub(r"(\*\*|__)[ \t]*[,;:.—–-]*[ \t]*\1[ \t]*", "", body)
    body = re.sub(r"(?<![*\w])([*_])[ \t]*[,;:.—–-]+[ \t]*\1(?![*\w])[ \t]*", "", body)  # "*.*" of "*Longevity.*"
    # punctuation that met punctuation where words went: "Family:; two sons" less the spouse is "Family: two sons"
    body = re.sub(r"([:;,](?:\*\*|__)?)(?:[ \t]*[;,](?!\S*\w))+", r"\1", body)
    for pattern, said in _JOINS:
        if not pattern.search(original):  # as the answer wrote it, if it wrote it so
            body = pattern.sub(said, body)
    marker = _MARKER.match(body)
    prefix = marker.group(1) if marker else ""
    rest = body[len(prefix) :]
    if not _TABLE_ROW.match(original) and not fenced:
        # an opening whose words went leaves no bare punctuation (": and their son.") and opens with a capital
        rest = re.sub(r"^(?:[—–-]\s*)?[,;:.]+\s*(?=[\w'‘\"“(])", "", rest)
        first = rest.split(" ", 1)[0]
        if first[:1].islower() and first.islower() and rest != original.strip()[len(prefix) :]:
            rest = rest[:1].upper() + rest[1:]
    return lead + prefix + rest


def _emptied_cells(row: str) -> str:
    """A table row whose cells lost all their words keeps no bare punctuation in them ("| Coaching | ) |" after
    "Head coach (since 2020)" went): such a cell is written as the table's empty cell, "—"."""
    cells = row.split("|")
    if len(cells) < 3 or re.fullmatch(r"[\s|:-]*", row):  # a header's rule ("|---|:--:|") is no row of values
        return row
    inner = [
        f" {EMPTY_CELL} "
        if c.strip() and not re.search(r"\w|[\U0001f000-\U0001faff]", c) and c.strip() not in "—–-"
        else c
        for c in cells[1:-1]
    ]
    return "|".join([cells[0], *inner, cells[-1]])


EMPTY_CELL = "—"


# A line that only labels what follows it: a bold lead-in ("**Olympics.**"), a short item without a verb's
# full stop ("- Operations", "## Career").
_LEAD_IN = re.compile(r"^\s*(?:[-*+•]\s+|#{1,6}\s+)?(?:\*\*|__)[^*_\n]{1,60}(?:\*\*|__)\s*$")
_SHORT_ITEM = re.compile(r"^\s*(?:[-*+•]\s+|#{1,6}\s+)(?:\*\*)?[\w'’ /&-]{1,40}(?:\*\*)?:?\s*$")


def _lone_labels(lines: list[str], new: list[str | None]) -> None:
    """A label left with nothing to label goes: a bold lead-in whose sentence went ("**Olympics.** He reached …"
    less the claim), a list item or heading whose items under it all went ("- Operations" above "  - Performed
    …")."""
    for k, line in enumerate(new):
        if line is None or line == lines[k]:
            continue
        if _LEAD_IN.match(line) and not _LEAD_IN.match(lines[k]):
            new[k] = None
    for k, line in enumerate(lines):
        if new[k] is None or new[k] != line or not _SHORT_ITEM.match(line):
            continue
        depth = _depth(line)
        children = []
        for j in range(k + 1, len(lines)):
            if not lines[j].strip():
                break
            if _depth(lines[j]) <= depth and not line.lstrip().startswith("#"):
                break
            if line.lstrip().startswith("#") and re.match(r"\s*#{1,6}\s", lines[j]):
                break
            children.append(j)
        if children and all(new[j] is None for j in children):
            new[k] = None


_NUMBERED = re.compile(r"^(\s*)(\d{1,2})([.)]\s)")


def _renumbered(lines: list[str], new: list[str | None]) -> None:
    """A numbered list that lost items counts on from its first number ("1. …", "3. …" → "1. …", "2. …")."""
    k = 0
    while k < len(lines):
        m = _NUMBERED.match(lines[k])
        if m is None:
            k += 1
            continue
        indent, run = m.group(1), []
        j = k
        while j < len(lines):
            n = _NUMBERED.match(lines[j])
            if n is not None and n.group(1) == indent:
                run.append(j)
            elif lines[j].strip() and not lines[j].startswith(indent + " ") and n is None:
                break
            j += 1
        numbers = [int(_NUMBERED.match(lines[r]).group(2)) for r in run]  # type: ignore[union-attr]
        if len(run) > 1 and numbers == list(range(numbers[0], numbers[0] + len(run))):
            count = numbers[0]
            for r in run:
                if new[r] is None:
                    continue
                n = _NUMBERED.match(new[r] or "")
                if n is not None:
                    new[r] = f"{n.group(1)}{count}{n.group(3)}{(new[r] or '')[n.end() :]}"
                count += 1
        k = max(j, k + 1)


_BARE_KEY = re.compile(r"^\s*(?:-\s+)?[\"']?[\w -]+[\"']?\s*:\s*$")


def _bare_keys(lines: list[str], new: list[str | None], fences: dict[int, tuple[int, int, str]]) -> None:
    """A fenced field left without its value goes: "spouse:" whose name went, "honours:" whose items all went."""
    for k in sorted(fences, reverse=True):
        line = new[k]
        if line is None or not _BARE_KEY.match(line):
            continue
        depth = _depth(lines[k])
        items = []
        for j in range(k + 1, fences[k][1]):
            if _depth(lines[j]) <= depth and not lines[j].lstrip().startswith("- "):
                break
            if _depth(lines[j]) < depth:
                break
            items.append(j)
        if not _BARE_KEY.match(lines[k]) or (items and all(new[j] is None for j in items)):
            new[k] = None


_OPENS = re.compile(r"^\s*(?:[\"']?[\w -]+[\"']?\s*:\s*)?[\[{]\s*$")


def _open_containers(lines: list[str], new: list[str | None], fences: dict[int, tuple[int, int, str]]) -> None:
    """A fenced line that opens a list or an object (`"award": [`) stays while an item of it stays: the
    edit of one item may reach its key, and the container's items would be left without their key."""
    for k in sorted(fences):
        if new[k] is not None:
            continue
        if _BARE_KEY.match(lines[k]) and fences[k][2] in ("yaml", "yml"):
            depth = _depth(lines[k])
            items = []
            for j in range(k + 1, fences[k][1]):
                if _depth(lines[j]) < depth or (_depth(lines[j]) == depth and not lines[j].lstrip().startswith("- ")):
                    break
                items.append(j)
            if any((new[j] or "").strip() for j in items):
                new[k] = lines[k]  # "awards:" stays while one of its items does
            continue
        if not _OPENS.match(lines[k]):
            continue
        depth = _depth(lines[k])
        kept = False
        for j in range(k + 1, fences[k][1]):
            if _depth(lines[j]) <= depth:
                if not kept and lines[j].strip()[:1] in ("]", "}"):
                    new[j] = None  # every item went with its key: the close goes too
                break
            kept = kept or bool((new[j] or "").strip())
        if kept:
            new[k] = lines[k]


def _depth(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _fallback(text: str, outs: list[str], *, structured: bool) -> str | None:
    """A block whose edits could not be placed: a table row or a fenced field goes whole (None); another line is
    the revision's sentences behind the line's own marker."""
    first = text.split("\n", 1)[0]
    if structured or _TABLE_ROW.match(first):
        return None
    marker = _MARKER.match(first)
    prefix = marker.group(1) if marker else ""
    said = " ".join(o for o in outs if o)
    bold = re.match(r"\s*(?:\*\*|__)([^*_]+?)(?:\*\*|__)\s*", first[len(prefix) :])
    if bold is not None and said.startswith(bold.group(1)):
        said = first[len(prefix) : len(prefix) + bold.end()] + said[len(bold.group(1)) :].lstrip()
    return prefix + said if said else None


def _has_words(line: str) -> bool:
    """Whether a line says anything: not a list marker, heading marks or table pipes alone."""
    rest = line[len(_MARKER.match(line).group(1)) :] if _MARKER.match(line) else line  # type: ignore[union-attr]
    return bool(re.search(r"\w|[\U0001f000-\U0001faff]", rest)) or not line.strip() or bool(_FENCE.match(line))


def _fenced(lines: list[str]) -> dict[int, tuple[int, int, str]]:
    """Each line inside a fence, with its fence's opening and closing lines and its language."""
    out: dict[int, tuple[int, int, str]] = {}
    open_at: int | None = None
    language = ""
    for k, line in enumerate(lines):
        m = _FENCE.match(line)
        if m is None:
            continue
        if open_at is None:
            open_at, language = k, m.group(2).lower()
        else:
            for j in range(open_at + 1, k):
                out[j] = (open_at, k, language)
            open_at = None
    return out


def _empty_tables(lines: list[str], new: list[str | None]) -> None:
    """A table whose body rows all went loses its header and rule."""
    k = 0
    while k < len(lines):
        if not _TABLE_ROW.match(lines[k]):
            k += 1
            continue
        end = k
        while end < len(lines) and (_TABLE_ROW.match(lines[end]) or _TABLE_RULE.match(lines[end])):
            end += 1
        rule_at = next((j for j in range(k, end) if _TABLE_RULE.match(lines[j])), None)
        if rule_at is not None and end > rule_at + 1 and all(new[j] is None for j in range(rule_at + 1, end)):
            for j in range(k, end):
                new[j] = None
        k = end


def _empty_fences(lines: list[str], new: list[str | None], fences: dict[int, tuple[int, int, str]]) -> None:
    """A fence whose content all went goes, its markers with it."""
    for first, last, _ in set(fences.values()):
        if all(new[j] is None or not re.search(r"\w", new[j] or "") for j in range(first + 1, last)):
            if any(lines[j] != new[j] for j in range(first + 1, last)):
                for j in range(first, last + 1):
                    new[j] = None


def _fences_parse(lines: list[str], new: list[str | None], fences: dict[int, tuple[int, int, str]]) -> bool:
    """Whether every fenced JSON or YAML block that parsed as written still parses (a trailing comma a removed
    field left is taken out first)."""
    for first, last, language in set(fences.values()):
        if new[first] is None or language not in ("json", "yaml", "yml"):
            continue
        kept = [j for j in range(first + 1, last) if new[j] is not None]
        if language == "json":
            for n, j in enumerate(kept):
                following = new[kept[n + 1]] if n + 1 < len(kept) else ""
                if (following or "").lstrip()[:1] in ("}", "]", ""):
                    new[j] = re.sub(r",\s*$", "", new[j] or "")
        before = "\n".join(lines[first + 1 : last])
        after = "\n".join(new[j] or "" for j in kept)
        if _parses(before, language) and not _parses(after, language):
            return False
    return True


def _parses(text: str, language: str) -> bool:
    try:
        if language == "json":
            json.loads(text)
        else:
            import yaml

            yaml.safe_load(text)
    except Exception:
        return False
    return True


def _tidy_blank_lines(lines: list[str]) -> str:
    """The lines, no more than one blank line in a row, none at either end."""
    text = "\n".join(lines)
    text = re.sub(r"\n[ \t]*(?:\n[ \t]*)+\n", "\n\n", text)
    return text.strip("\n").rstrip()
