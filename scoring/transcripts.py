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

# "A:", "Answer:", "Ans:" at the start of a sentence, then the answer. Only with a colon: "A. J. Ayer" is a name.
_LABEL = re.compile(r"^\s*(?:A|Ans|Answer)\s*:\s+(?=\S)")


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
)


def unlabelled(reading: Reading, rules_off: frozenset[str] = frozenset()) -> Reading:
    """``reading`` without a transcript's answer label (unchanged when it has none or the rule is off)."""
    found = run(LABEL_RULES, reading, rules_off)
    return found.reading if found is not None else reading
