"""A transcript's answer labels: "A: Tallyleaf is a budgeting app." claims what follows the label.

Left in, the label was read as a word of the claim: "A: Yes — stored data is encrypted" gave "An is encrypted",
"A: Linked accounts sync every four hours" gave "An every four hours is Linked accounts sync". The rule
(``answer-label``, a decompose rule) reads the sentence without its label, with a map of every character back to
the line as written (``scoring.records.Reading``), as the records reading does. A short answer with no verb of
its own ("A: Osaka, in 1974.") is read with its question first (``question-answered``), which drops the label too.

>>> unlabelled(Reading("A: It launched in 2019.", list(range(23)))).text
'It launched in 2019.'
>>> unlabelled(Reading("A. J. Ayer was a philosopher.", list(range(29)))).text
'A. J. Ayer was a philosopher.'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from scoring.records import Reading
from scoring.rules import Rule, register, run

ANSWER_LABEL = "answer-label"
SPEAKER_LABEL = "speaker-label"

# "A:", "Answer:", "Ans:" at the start of a sentence, then the answer. Only with a colon: "A. J. Ayer" is a name.
_LABEL = re.compile(r"^\s*(?:A|Ans|Answer)\s*:\s+(?=\S)")


# A speaker's turn in a transcript: a time stamp in brackets ("[00:13]", "(1:02:45)"; "10:30 is when …" is a time)
# with or without a speaker in capitals ("[00:13] JON:", "[00:00] HOST (IRATI):"), or a speaker named by their role
# in capitals ("HOST:", "GUEST (ANA):", "INTERVIEWER:"). A label in capitals with no time stamp and no role ("NASA:
# …") may be the subject: left as it is.
_STAMP = r"[\[(]\d{1,2}:\d{2}(?::\d{2})?[\])]"
_SPEAKER = r"[A-Z][A-Z'’.-]+(?: [A-Z][A-Z'’.-]+){0,2}(?:\s*\([^()]{1,30}\))?"
_ROLE = (
    r"(?:CO-?)?(?:HOST|GUEST|INTERVIEWER|INTERVIEWEE|PRESENTER|NARRATOR|ANCHOR|MODERATOR|CALLER|REPORTER|"
    r"SPEAKER(?: \d)?)(?:\s*\([^()]{1,30}\))?"
)
_SPEAKER_LABEL = re.compile(rf"^\s*(?:{_STAMP}\s*(?:{_SPEAKER}\s*:\s*)?|{_ROLE}\s*:\s*)(?=\S)")


@dataclass(frozen=True)
class Unlabelled:
    """The answer-label rule's decision: the sentence read without its label."""

    reading: Reading
    decided_by: str = ""

    def stamped(self, name: str) -> Unlabelled:
        return replace(self, decided_by=name)


def _unlabel(reading: Reading) -> Unlabelled | None:
    text = reading.text
    m = _LABEL.match(text)
    if m is None or len(reading.offsets) != len(text):
        return None
    return Unlabelled(Reading(text[m.end() :], reading.offsets[m.end() :], True))


def _unspeak(reading: Reading) -> Unlabelled | None:
    text = reading.text
    m = _SPEAKER_LABEL.match(text)
    if m is None or len(reading.offsets) != len(text):
        return None
    return Unlabelled(Reading(text[m.end() :], reading.offsets[m.end() :], True))


LABEL_RULES: tuple[Rule[Reading, Unlabelled], ...] = register(
    Rule(
        ANSWER_LABEL,
        "decompose",
        "a transcript's answer label at the start of a sentence ('A:', 'Answer:') is no word of the claim: the "
        "sentence is read without it",
        (
            "A: Tallyleaf is a budgeting app from Greenmarch Software.",
            "Answer: She was born in Osaka in 1974.",
            "A: Yes — stored data is encrypted with AES-256.",
            "Ans: The free tier allows two linked accounts.",
        ),
        _unlabel,
    ),
    Rule(
        SPEAKER_LABEL,
        "decompose",
        "a transcript's time stamp and speaker at the start of a turn ('[00:13] JON:', '[00:00] HOST (IRATI):', "
        "'GUEST:') are no words of the claim: the turn is read without them; a label in capitals with no time "
        "stamp and no role ('NASA: founded in 1958') is left as written",
        (
            "[00:13] JON: Born in Tolosa, in Gipuzkoa, in 1981.",
            "[00:00] HOST (IRATI): Welcome back to the show.",
            "GUEST: She won the title in 2004.",
            "(1:02:45) She retired in 2014.",
        ),
        _unspeak,
    ),
)


def unlabelled(reading: Reading, rules_off: frozenset[str] = frozenset()) -> Reading:
    """``reading`` without a transcript's answer label (unchanged when it has none or the rule is off)."""
    found = run(LABEL_RULES, reading, rules_off)
    return found.reading if found is not None else reading
