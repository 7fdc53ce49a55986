"""Character spans of the answer as it was written, for sentences and facts.

The checker reads a cleaned text (markdown emphasis, headings' ``#``, bullets and citation markers
removed, whitespace normalised: ``scoring.sentences``). Every other character of a cleaned sentence
is a character of the answer, in order, so a greedy alignment of the non-space characters maps each
position of a sentence back to its offset in the answer. Facts carry the spans of the words they were
made from (``FactResult.spans``), so a reviewer, a UI or revision can point at the answer itself.

>>> answer = "**Ada Lovelace** was born in 1815 [2]. She died in 1852."
>>> maps = align(answer, ["Ada Lovelace was born in 1815.", "She died in 1852."])
>>> [answer[s:e] for s, e in (sentence_span(m) for m in maps)]
['Ada Lovelace** was born in 1815 [2].', 'She died in 1852.']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

Span = tuple[int, int]


def align(answer: str, sentences: Sequence[str]) -> list[list[int]]:
    """For each sentence, the answer offset of each of its characters (-1 for whitespace, and for a
    character the answer does not have where expected)."""
    maps: list[list[int]] = []
    pos = 0
    n = len(answer)
    for sentence in sentences:
        offsets: list[int] = []
        for ch in sentence:
            if ch.isspace():
                offsets.append(-1)
                continue
            found = answer.find(ch, pos)
            # A character the cleaning made up (rare: a replaced bullet) must not drag the pointer far.
            if found < 0 or found - pos > 40:
                offsets.append(-1)
                continue
            offsets.append(found)
            pos = found + 1
        maps.append(offsets)
        pos = min(pos, n)
    return maps


def sentence_span(offsets: Sequence[int]) -> Span:
    """The span of the answer a sentence covers (first to last aligned character)."""
    found = [o for o in offsets if o >= 0]
    return (found[0], found[-1] + 1) if found else (0, 0)


def char_spans(offsets: Sequence[int], ranges: Iterable[Span], answer: str) -> list[Span]:
    """The answer spans of character ``ranges`` of one sentence, merged where only whitespace or removed
    markup lies between them in the answer."""
    pieces: list[Span] = []
    for start, end in sorted(ranges):
        found = [o for o in offsets[start:end] if o >= 0]
        if found:
            pieces.append((found[0], found[-1] + 1))
    merged: list[Span] = []
    for s, e in pieces:
        if merged and _only_markup(answer[merged[-1][1] : s]):
            merged[-1] = (merged[-1][0], max(merged[-1][1], e))
        else:
            merged.append((s, e))
    return merged


def _only_markup(gap: str) -> bool:
    return all(ch.isspace() or ch in "*_`#>" for ch in gap)
