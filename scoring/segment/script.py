"""An answer written as a script for voices: speaker labels ("HOST A:", "Host 2:", "NARRATOR:") open its lines and
stage directions ("[INTRO MUSIC FADES]", "(AD BREAK)") stand on lines of their own (``script-speakers``).

Left in, a label was read as the subject of its line ("HOST 2: Born in Whitby in 1938" gave "HOST 2 was born") and
as a person of its own, and a stage direction as a name ("[INTRO MUSIC FADES]" gave the individual "MUSIC FADES").
The labels say who speaks, not whom the line is about: the line is read without its label, a stage direction is no
claim.

Lines are speakers' turns only when two to four labels each open two or more of the answer's lines, the labels
take turns (some labelled line follows a line of another label), and they open three in four of the labelled lines
at least: a profile's fields ("Born: 1938" / "Died: 2015") each open one line, and in profiles stacked one after
the other most labels are a field's (a record's label, ``RECORD_PREDICATES``, is never a voice). A label is a short
name of a voice: one or two capitalised words, or one with a number or a letter after it.

>>> speaker_lines(["HOST A: Two men, one name.", "HOST B: First, the rower.", "HOST A: And the bishop.",
...                "HOST B: He died in 2020."])
{0: 8, 1: 8, 2: 8, 3: 8}
>>> speaker_lines(["Born: 1938", "Died: 2015", "Known for: Morning Tide"])
{}
>>> stage_direction("[INTRO MUSIC FADES]"), stage_direction("[1] Radio Wold archive")
(True, False)
"""

from __future__ import annotations

import itertools
import re
from collections import Counter

from scoring.rules import rule
from vocabulary.document import USER_SPEAKERS
from vocabulary.records import RECORD_PREDICATES

SCRIPT_SPEAKERS = rule(
    "script-speakers",
    "segment",
    "an answer written as a script: speaker labels that take turns ('HOST A: …' / 'HOST B: …', 'Host 1:' / "
    "'Host 2:', 'NARRATOR:' / 'GUEST:'), two or more labels each opening two or more lines, say who speaks, not whom "
    "a line is about: each line is read without its label; a stage direction on a line of its own ('[INTRO MUSIC "
    "FADES]', '(AD BREAK)') is no claim",
)

# "HOST A:", "Host 2:", "NARRATOR:", "Co-host:": one or two capitalised words, or one and a number or a letter.
_SPEAKER = re.compile(r"^\s*\**(?P<label>[A-Z][\w'’-]*(?: (?:[A-Z][\w'’-]*|\d{1,2}))?)\**\s*:\**[ \t]+(?=\S)")
# A stage direction: a line that is only brackets, words in them ("[AD BREAK]", "(laughter)", "[Music]").
_STAGE = re.compile(r"^\s*[\[(][A-Za-z][A-Za-z ,.'’&/-]{0,40}[\])]\s*$")
# A transcript's question and answer labels ("Q:", "A:") are read by their own rules (``scoring.transcripts``).
_QUESTION_ANSWER = frozenset(("q", "a", "question", "answer", "ans"))
# How many lines each of two labels must open, at least; how many voices a script has, at most; what share of the
# labelled lines the voices' labels open, at least.
_MIN_TURNS = 2
_MAX_SPEAKERS = 4
_SPEAKERS_SHARE = 0.75


def stage_direction(line: str) -> bool:
    """Whether ``line`` is only a direction in brackets ("[INTRO MUSIC FADES]", "(laughs)")."""
    return _STAGE.match(line) is not None


def speaker_lines(lines: list[str]) -> dict[int, int]:
    """For each line that a speaker's label opens, in an answer written as a script, the length of its label (with
    the colon and the spaces after it); empty when the answer is no script."""
    found: dict[int, tuple[str, int]] = {}
    for k, line in enumerate(lines):
        m = _SPEAKER.match(line)
        if m is not None and m.group("label").lower() not in USER_SPEAKERS | _QUESTION_ANSWER:
            found[k] = (m.group("label").lower(), m.end())
    counts = Counter(label for label, _ in found.values())
    speakers = {label for label, n in counts.items() if n >= _MIN_TURNS and label not in RECORD_PREDICATES}
    if not 2 <= len(speakers) <= _MAX_SPEAKERS:
        return {}
    if sum(counts[label] for label in speakers) < _SPEAKERS_SHARE * len(found):
        return {}  # stacked profiles ("Born: 1949" … "Born: 1983"): most labels are fields, each once a profile
    ordered = [found[k][0] for k in sorted(found) if found[k][0] in speakers]
    if all(a == b for a, b in itertools.pairwise(ordered)):
        return {}
    return {k: end for k, (label, end) in found.items() if label in speakers}
