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

from collections.abc import Iterable, Iterator, Sequence

Span = tuple[int, int]
# How far past the previous match a sentence, word or character may start (what the cleaning removed
# between them: markup, a citation marker). Every search stops there, so a long answer costs in proportion.
_SKIP = 40


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
        pos = _restart(answer, sentence, pos)
        for start, word in _runs(sentence):
            found = answer.find(word, pos, pos + _SKIP + len(word))
            if found >= 0:  # the word as written
                offsets[start : start + len(word)] = range(found, found + len(word))
                pos = found + len(word)
                continue
            for k, ch in enumerate(word):  # markup inside the word ("1815 [2]." read as "1815."): by character
                found = answer.find(ch, pos, pos + _SKIP + 1)
                # A character the cleaning made up (rare: a replaced bullet) must not drag the pointer far.
                if found < 0:
                    continue
                offsets[start + k] = found
                pos = found + 1
        maps.append(offsets)
    return maps


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
