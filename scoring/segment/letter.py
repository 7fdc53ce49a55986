"""An answer written as a letter or an e-mail: its subject line, its greeting and its sign-off with the name under
it are the message's furniture, not claims (``letter-furniture``).

Only the answer's first lines (a subject line, then a greeting) and its last lines (a sign-off ending in a comma,
then at most two short lines that name the sender) are read this way; the body is left as it is.

>>> sorted(furniture(["Subject: Background on Ingrid Vasshaug", "Hi Sarah,", "She was born in 1981.",
...                   "Best regards,", "Tom"]))
[0, 1, 3, 4]
>>> sorted(furniture(["Hi all, here are the two of them.", "She was born in 1981,", "Oslo"]))
[]
"""

from __future__ import annotations

import re

from scoring.rules import rule
from vocabulary.document import GREETINGS, SIGN_OFFS, SIGN_OFFS_ALONE, SUBJECT_LABELS

LETTER_FURNITURE = rule(
    "letter-furniture",
    "segment",
    "an answer written as an e-mail: its subject line ('Subject: Background on …'), its greeting ('Hi Sarah,', "
    "'Dear Alex,') and its sign-off with the name under it ('Best regards,' / 'Tom', 'Warm wishes,' / 'The Northgate "
    "team') are not claims and name no one",
)

# A greeting or a sign-off is a short line; a signature line is a name or a team, no sentence.
_SHORT = 6
_SIGNATURE_LINES = 2
_SUBJECT = re.compile(r"^\s*([A-Za-z][A-Za-z ]{0,12}?)\s*:\s*\S")
_SENTENCE_END = re.compile(r"[.!?:;]\s*$")


def _fold(line: str) -> str:
    return " ".join(line.replace("*", "").replace("_", "").strip().lower().split())


def _opens_with(line: str, phrases: tuple[str, ...]) -> bool:
    folded = _fold(line)
    return any(folded == p or folded.startswith(p + " ") or folded.startswith(p + ",") for p in phrases)


def is_subject(line: str) -> bool:
    """'Subject: …', 'Re: …'."""
    m = _SUBJECT.match(line.replace("*", ""))
    return m is not None and _fold(m.group(1)) in SUBJECT_LABELS


def is_greeting(line: str) -> bool:
    """A short line that opens with a greeting and says nothing more ('Hi Sarah,', 'Dear Alex,', 'Hello all!')."""
    folded = _fold(line)
    return (
        _opens_with(line, GREETINGS)
        and len(folded.split()) <= _SHORT
        and (folded[-1:] in ",!" or not _SENTENCE_END.search(folded))
        and "." not in folded
    )


def is_sign_off(line: str) -> bool:
    """A short line that opens with a sign-off and ends with a comma ('Best regards,', 'See you Thursday,')."""
    folded = _fold(line)
    alone = folded.rstrip(",") in SIGN_OFFS_ALONE
    return (alone or _opens_with(line, SIGN_OFFS)) and len(folded.split()) <= _SHORT and folded.endswith(",")


def _signature(line: str) -> bool:
    folded = _fold(line)
    return 0 < len(folded.split()) <= _SHORT and not _SENTENCE_END.search(folded) and not any(c.isdigit() for c in line)


def furniture(lines: list[str]) -> set[int]:
    """The indices of the answer's lines (its paragraphs' lines in order, blank ones left out) that are its subject
    line, its greeting, and its sign-off with the signature under it."""
    out: set[int] = set()
    k = 0
    if lines and is_subject(lines[0]):
        out.add(0)
        k = 1
    if k < len(lines) and is_greeting(lines[k]):
        out.add(k)
    # the sign-off: the last line or one of the two before it, with only signature lines after it
    for back in range(min(_SIGNATURE_LINES, len(lines) - 1) + 1):
        at = len(lines) - 1 - back
        if at <= max(out, default=-1):
            break
        if is_sign_off(lines[at]) and all(_signature(s) for s in lines[at + 1 :]):
            out.update(range(at, len(lines)))
            break
    return out
