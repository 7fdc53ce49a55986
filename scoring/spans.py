"""Character spans of the answer as it was written, for sentences and facts.

The checker reads a cleaned text (markdown emphasis, headings' ``#``, bullets and citation markers
removed, whitespace normalised: ``scoring.sentences``). Every other character of a cleaned sentence
is a character of the answer, in order, so a greedy alignment of the non-space characters maps each
position of a sentence back to its offset in the answer. (A table read column by column is the one
exception to that order: a sentence whose first words are not ahead is aligned from where they stand
together earlier.) Facts carry the spans of the words they were
made from (``FactResult.spans``), so a reviewer, a UI or revision can point at the answer itself.

>>> answer = "**Ada Lovelace** was born in 1815 [2]. She died in 1852."
>>> maps = align(answer, ["Ada Lovelace was born in 1815.", "She died in 1852."])
>>> [answer[s:e] for s, e in (sentence_span(m) for m in maps)]
['Ada Lovelace** was born in 1815 [2].', 'She died in 1852.']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

Span = tuple[int, int]
# How far past the previous match a sentence, word or character may start (what the cleaning removed
# between them: markup, a citation marker). Every search stops there, so a long answer costs in proportion.
_SKIP = 40
# How far past a label a reading made ("role:" for a CSV column) its value may start: a header row and a name away.
_FAR = 400
# What a label's value is not looked for past: a sentence's end or a blank line (prose after a table, not its rows).
_PROSE_BREAK = re.compile(r"[.!?]\s|\n\s*\n")
_NUMBER = re.compile(r"\d+")
_DIGIT = re.compile(r"\d")


def align(answer: str, sentences: Sequence[str]) -> list[list[int]]:
    """For each sentence, the answer offset of each of its characters (-1 for one the answer does not have
    where expected, and for whitespace outside a sentence written exactly as read)."""
    maps: list[list[int]] = []
    pos = 0
    for sentence in sentences:
        exact = answer.find(sentence, pos, pos + _SKIP + len(sentence))
        if exact >= 0:  # written as read (no markup inside): offsets in one step
            maps.append(list(range(exact, exact + len(sentence))))
            pos = exact + len(sentence)
            continue
        offsets = [-1] * len(sentence)
        floor = pos
        pos = _restart(answer, sentence, pos)
        runs = list(_runs(sentence))
        # The words of a label the sentence opens with ("Born:", "Known for:"), which a reading may have written.
        heads = next((k + 1 for k, (_, w) in enumerate(runs[:3]) if w.endswith(":")), 0)
        label = unwritten = False
        for n, (start, word) in enumerate(runs):
            # After a label the reading wrote ("role:" for a CSV header's column), the value may stand a row further
            # on, past the header and the row's name.
            found = _find(answer, word, pos, pos + (_FAR if label else _SKIP) + len(word))
            if label and found >= 0 and _PROSE_BREAK.search(answer, pos, found):
                found = -1  # not past a sentence's end or a blank line: the value is in the rows of the label's table
            unwritten = n < heads and (unwritten or _find(answer, word, pos, pos + _SKIP + len(word)) < 0)
            label = n == heads - 1 and unwritten
            if found >= 0:  # the word as written
                offsets[start : start + len(word)] = range(found, found + len(word))
                pos = found + len(word)
                continue
            # A word whose punctuation the reading changed ("Westfjords," of "Westfjords (since 2011)"): its letters
            # as written, the punctuation left unaligned (dragged by character, it would pass the words after it).
            core = word.rstrip(",.;:!?")
            found = _find(answer, core, pos, pos + _SKIP + len(core)) if len(core) > 1 and core != word else -1
            if found >= 0:
                offsets[start : start + len(core)] = range(found, found + len(core))
                pos = found + len(core)
                # Its punctuation where no letter stands before it ("1970." of "1970 [3].").
                for k, ch in enumerate(word[len(core) :], start + len(core)):
                    at = answer.find(ch, pos, pos + _SKIP + 1)
                    if at >= 0 and not _letter_between(answer, pos - 1, at):
                        offsets[k] = at
                        pos = at + 1
                continue
            if len(core) <= 3 and core.isalpha():
                continue  # a short word the reading made up ("in" of "(1997)" → "in 1997"): no markup inside it
            pos = _by_character(answer, word, start, pos, offsets, n < heads or _DIGIT.search(word) is not None)
        _before(answer, sentence, offsets, floor)
        maps.append(offsets)
    return maps


def _find(answer: str, word: str, lo: int, hi: int) -> int:
    """Where ``word`` stands in ``answer[lo:hi]``, or -1: as written, or with the case of its first letter the
    reading changed ("Born:" of a YAML key "born:"); a short word ("in", "of": a reading's "(1997)" → "in 1997") only
    as a whole word, never inside another ("Institute")."""
    forms = (word, word[0].lower() + word[1:]) if word[:1].isupper() else (word,)
    whole = len(word) <= 3 and word.isalpha()
    for form in forms:
        at = answer.find(form, lo, hi)
        while whole and at >= 0 and not _whole_word_at(answer, form, at):
            at = answer.find(form, at + 1, hi)
        if at >= 0:
            return at
    return -1


def _before(answer: str, sentence: str, offsets: list[int], floor: int) -> None:
    """Align the numbers of ``sentence`` left unaligned where they stand before its first aligned word, after
    ``floor`` (where the sentence before it ends): a reading that moves a line's leading date to its end ("1996 →
    2004 · planning department, Dublin City Council" read as "planning department, Dublin City Council,
    1996–2004")."""
    first = min((o for o in offsets if o >= 0), default=-1)
    if first <= floor:
        return
    at = max(floor, first - _SKIP)
    for m in _NUMBER.finditer(sentence):
        if any(o >= 0 for o in offsets[m.start() : m.end()]):
            continue
        found = answer.find(m.group(), at, first)
        if found >= 0:
            offsets[m.start() : m.end()] = range(found, found + len(m.group()))
            at = found + len(m.group())


def _by_character(answer: str, word: str, start: int, pos: int, offsets: list[int], strict: bool) -> int:
    """Align ``word`` (at ``start`` of its sentence) character by character from ``pos``, where markup lies inside it
    in the answer ("1815 [2]." read as "1815."; "| Born |" read as "Born:"), and return where the alignment goes on.
    ``strict`` (a label the reading wrote, a number): a letter or digit of the word the answer lacks ahead, or a letter
    of the answer between two of its characters, leaves the word unaligned and the pointer where it was. Such a word
    is no markup away from the answer's ("born:" for a CSV column whose header is a row above; "1987–1992" read from a
    line that opens with "1987 → 1992"), and dragged by character it would pass the words after it."""
    found_at: list[tuple[int, int]] = []
    at = pos
    for k, ch in enumerate(word):
        found = answer.find(ch, at, at + _SKIP + 1)
        if strict and ch.isalnum() and (found < 0 or (found_at and _letter_between(answer, found_at[-1][1], found))):
            return pos
        # A character the cleaning made up (rare: a replaced bullet) must not drag the pointer far.
        if found < 0:
            continue
        found_at.append((start + k, found))
        at = found + 1
    for k, found in found_at:
        offsets[k] = found
    return at


def _letter_between(answer: str, a: int, b: int) -> bool:
    return any(c.isalpha() for c in answer[a + 1 : b])


def _runs(text: str) -> Iterator[tuple[int, str]]:
    """The runs of non-space characters of ``text``, each with where it starts."""
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        j = i
        while j < n and not text[j].isspace():
            j += 1
        yield i, text[i:j]
        i = j


def _words(text: str) -> list[str]:
    """The words of ``text``: its runs without the punctuation around them ("Award:" → "Award")."""
    out = []
    for _, run in _runs(text):
        word = run.strip('.,;:!?()[]"“”*')
        if word and word[0].isalnum():
            out.append(word)
    return out


def _whole_word_at(text: str, word: str, at: int) -> bool:
    end = at + len(word)
    return (at == 0 or not text[at - 1].isalnum()) and (end >= len(text) or not text[end].isalnum())


def _restart(answer: str, sentence: str, pos: int) -> int:
    """Where to align ``sentence`` from: ``pos``, unless its first two words are not ahead and stand earlier in one
    table row, where a table read column by column ("| Award | Harrowgate Prize | Marquardt Prize |", the second
    person's "Award: Marquardt Prize" read after the first person's last row) took them from. Anywhere else the
    alignment only goes forward."""
    words = _words(sentence)[:2]
    if len(words) < 2 or answer.find(words[0], pos, pos + _SKIP + len(words[0])) >= 0:
        return pos
    at = answer.find(words[0], 0, pos)
    while 0 <= at:
        end = at + len(words[0])
        if _whole_word_at(answer, words[0], at) and end <= pos:
            second = answer.find(words[1], end, end + _SKIP + len(words[1]))
            if second >= 0 and "|" in answer[end:second]:  # a row's label, then this column's cell
                return at
        at = answer.find(words[0], at + 1, pos)
    return pos


def sentence_span(offsets: Sequence[int]) -> Span:
    """The span of the answer a sentence covers (first to last aligned character)."""
    found = [o for o in offsets if o >= 0]
    return (found[0], found[-1] + 1) if found else (0, 0)


def char_spans(offsets: Sequence[int], ranges: Iterable[Span], answer: str) -> list[Span]:
    """The answer spans of character ``ranges`` of one sentence, merged where only whitespace or removed
    markup lies between them in the answer."""
    runs: list[list[int]] = []
    for start, end in sorted(ranges):  # neighbouring words of the sentence first: one range each run
        if runs and start - runs[-1][1] <= 1:
            runs[-1][1] = max(runs[-1][1], end)
        else:
            runs.append([start, end])
    pieces: list[Span] = []
    last = len(offsets)
    for start, end in runs:
        first = offsets[start] if start < last else -1
        final = offsets[end - 1] if 0 < end <= last else -1
        if first < 0 or final < 0:  # an end on whitespace or on a character the answer lacks
            found = [o for o in offsets[start:end] if o >= 0]
            if not found:
                continue
            first, final = found[0], found[-1]
        pieces.append((first, final + 1))
    merged: list[Span] = []
    for s, e in pieces:
        if merged and _only_markup(answer[merged[-1][1] : s]):
            merged[-1] = (merged[-1][0], max(merged[-1][1], e))
        else:
            merged.append((s, e))
    return merged


def _only_markup(gap: str) -> bool:
    return all(ch.isspace() or ch in "*_`#>" for ch in gap)
