"""Chat transcripts: an answer laid out as turns with speaker labels ("**You:** what is it" / "**Bot:** A help-desk
tool."). The user's turns ask; only the other speaker's turns make claims, read without their label.

A paragraph's lines are turns when the answer labels at least one line with a user's label (``USER_SPEAKERS``) and
the line after such a turn with another label: the speakers are the user's labels and the labels that answer them.
A line without a label goes on with the turn before it; a label no speaker uses ("Economist: born 1958") is part of
what the turn says.

>>> [(t.user, t.text) for t in turns("You: what is it\\nBot: A help-desk tool.\\nYou: price\\nBot: $12 a month.")]
[(True, 'what is it'), (False, 'A help-desk tool.'), (True, 'price'), (False, '$12 a month.')]
>>> turns("Born: 1912\\nDied: 1988") is None
True
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace

from scoring.rules import Rule, register
from vocabulary.document import PART_LABELS, USER_SPEAKERS

# A speaker's label opening a line: "You:", "Corvane Assistant:", "User 1:" (a capital, a few words).
_LABEL = re.compile(r"^(?P<label>[A-Z][\w'’.-]*(?: [\w'’.-]+){0,2}):[ \t]*(?P<rest>.*)$")


@dataclass(frozen=True)
class Turn:
    """One turn: who speaks (the label as written), whether it is the user, and what is said."""

    speaker: str
    user: bool
    text: str
    decided_by: str = ""

    def stamped(self, name: str) -> Turn:
        return replace(self, decided_by=name)


def _speaker(line: str) -> tuple[str, str] | None:
    m = _LABEL.match(line.strip())
    return (m.group("label"), m.group("rest")) if m is not None else None


def turns(text: str) -> list[Turn] | None:
    """The turns of a paragraph laid out as a chat transcript, or None when it is not one."""
    lines = [line for line in text.split("\n") if line.strip()]
    labelled = [_speaker(line) for line in lines]
    users = {s[0] for s in labelled if s is not None and s[0].lower() in USER_SPEAKERS}
    answering = {
        b[0]
        for a, b in itertools.pairwise(labelled)
        if a is not None and b is not None and a[0] in users and b[0] not in users
    }
    if not users or not answering:
        return None
    out: list[Turn] = []
    for line, found in zip(lines, labelled, strict=True):
        if found is not None and found[0] in users | answering:
            out.append(Turn(found[0], found[0] in users, found[1].strip()))
        elif out:
            out[-1] = replace(out[-1], text=f"{out[-1].text}\n{line.strip()}")
        else:
            return None  # text before the first turn: no transcript
    return out


def role_turns(found: tuple[Turn, ...]) -> list[str]:
    """For each turn, the role it opens with when the answering turns present two or more people by role
    ("Economist: born 1958 …", "Sprinter: born 1981 …"), in lower case; "" for the others."""
    roles = [""] * len(found)
    for k, turn in enumerate(found):
        label = _speaker(turn.text.split("\n", 1)[0])
        if not turn.user and label is not None and " " not in label[0] and label[0].lower() not in PART_LABELS:
            roles[k] = label[0].lower()
    return roles if len({r for r in roles if r}) >= 2 else [""] * len(found)


@dataclass(frozen=True)
class Turns:
    """The turns of a transcript, as the rule found them."""

    turns: tuple[Turn, ...]
    decided_by: str = ""

    @staticmethod
    def of(found: list[Turn] | None) -> Turns | None:
        return Turns(tuple(found)) if found else None

    def stamped(self, name: str) -> Turns:
        return replace(self, decided_by=name)


# The rule, applied to each paragraph: its turns when it is a transcript.
SPEAKER_TURNS: Rule[str, Turns] = Rule(
    "speaker-turns",
    "segment",
    "a chat transcript's turns ('**You:** what is it' / '**Bot:** A help-desk tool.', '**Me:** which phones?' / "
    "'**Acme Assistant:** Both iPhone and Android.'): the user's turns are no claims, the other speaker's are read "
    "without their label",
    (
        "**You:** what is Deskly\n**Bot:** A help-desk tool from Acme, launched 2016.",
        "**Me:** which phones?\n**Acme Assistant:** Both iPhone and Android, since 2020.",
        "User: price\nSupport: Starter is $12 per agent per month.",
    ),
    lambda text: Turns.of(turns(text)),
)


# The rules of reading a paragraph as turns, in precedence.
TURN_RULES: tuple[Rule[str, Turns], ...] = register(SPEAKER_TURNS)
