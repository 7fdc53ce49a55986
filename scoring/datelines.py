"""A date list: lines that each open with a year or a range of years, a dash or a colon, then what happened.

"1946 – joins the Harold Lusk Orchestra" on a line of its own, without a full stop, is a list item: the segmenter
reads each such line as an item of its own (:func:`date_lines`; before, the lines of a paragraph ran together and
the first year became the subject of every line). The rule ``dated-items`` (a decompose rule) reads an item as a
sentence about the answer's person, its date first: "1946 – joins the Harold Lusk Orchestra" → "In 1946, she joins
the Harold Lusk Orchestra"; "1939–1942 – studies at …" → "From 1939 to 1942, she studies at …"; "1921 – born in
Charleston" → "In 1921, she was born in Charleston"; an item with a subject of its own keeps it ("1958 – the
trio releases Brushfire" → "In 1958, the trio releases Brushfire"). The verb is kept as written (no inflection),
with a map of every character back to the line as written (``scoring.records.Reading``).

>>> dated(Reading("1955 – marries the bassist Eddie Coles", list(range(38))), "she").text
'In 1955, she marries the bassist Eddie Coles.'
>>> dated(Reading("He retired in 1990 – the year of the merger.", list(range(44))), "he") is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from scoring import nlp
from scoring.records import Reading
from scoring.rules import Rule, register, run

DATED_ITEMS = "dated-items"

_YEAR = r"(?:1[0-9]{3}|20[0-9]{2})"
# "1946 – ", "1939–1942 – ", "1990: ", "c. 1950 – ", "2011–present – ": a line's date and what sets it off.
_LEAD = re.compile(
    rf"^\s*(?P<circa>(?:c\.|ca\.|circa)\s*)?(?P<a>{_YEAR})(?:\s*[–—-]\s*(?P<b>{_YEAR}|\d{{2}}|present|today))?"
    r"\s*(?:[–—:]|\s-)\s+(?=\S)"
)
_YEAR_IN = re.compile(rf"\b{_YEAR}\b")
# How many lines of a block must open with a date for its lines to be a date list.
MIN_LINES = 2
# Past participles read with "was": "1921 – born in Charleston" → "she was born in Charleston".
_PASSIVE = frozenset(
    "born raised educated elected appointed named awarded inducted knighted ordained buried nominated drafted "
    "signed hired promoted released".split()
)
_DETERMINERS = frozenset("the a an his her their its this that".split())


def opens_with_date(line: str) -> bool:
    """Whether a line opens a date list's item: a year or a range of years, then a dash or a colon."""
    return _LEAD.match(line) is not None


def date_lines(lines: list[str]) -> list[bool]:
    """Which of a block's lines are items of a date list: those that open with a date, when at least
    :data:`MIN_LINES` of them do (one such line is more likely a sentence that starts with a year)."""
    flags = [opens_with_date(line) for line in lines]
    return flags if sum(flags) >= MIN_LINES else [False] * len(lines)


@dataclass(frozen=True)
class Dated:
    """The dated-items rule's decision: the item read as a sentence, its date first."""

    reading: Reading
    decided_by: str = ""

    def stamped(self, name: str) -> Dated:
        return replace(self, decided_by=name)


@dataclass(frozen=True)
class Item:
    """A date list's item and the pronoun of the answer's person."""

    reading: Reading
    pronoun: str


def _own_subject(doc: object) -> bool:
    for t in doc:  # type: ignore[attr-defined]
        if t.dep_ in ("nsubj", "nsubjpass", "expl") and t.i < t.head.i and t.tag_ not in ("WDT", "WP", "WP$"):
            if t.head.dep_ not in ("relcl", "acl"):
                return True
    return False


def _read(item: Item) -> Dated | None:
    reading, pronoun = item.reading, item.pronoun
    text = reading.text
    m = _LEAD.match(text)
    if m is None or len(reading.offsets) != len(text):
        return None
    start = m.end()
    end = len(text.rstrip(" .;"))
    rest = text[start:end]
    if not rest or not rest[0].isalpha():
        return None
    first = rest.split()[0]
    lowered = first.lower()
    if _YEAR_IN.search(rest):
        # The item dates itself ("1977 — Comes from Dingle, where she was born in 1977"): its own dates say which
        # of its claims the year is of, so the label's year is not put before them all.
        when = ""
    elif m.group("b") is None:
        when = f"In {'about ' if m.group('circa') else ''}{m.group('a')}, "
    elif m.group("b").isdigit():
        b = m.group("b") if len(m.group("b")) == 4 else m.group("a")[:2] + m.group("b")
        when = f"From {m.group('a')} to {b}, "
    else:
        when = f"Since {m.group('a')}, "
    if lowered in _DETERMINERS and _own_subject(nlp.parse_one(rest)):
        head = when
        word = lowered if when else first
    else:
        # Read the item after the pronoun: what it opens with must then be the verb ("she studies at …", where the
        # item alone can read "studies" as a noun); an item of no verb ("retrospective at …") is left as it is.
        word = lowered
        doc = nlp.parse_one(f"{pronoun} {word}{rest[len(first) :]}")
        verb = doc[1]
        # After "he"/"she" a verb is in -s or past ("retrospective at …" parsed as a base-form verb is a noun).
        finite = ("VBZ", "VBD", "VBP") if pronoun == "they" else ("VBZ", "VBD")
        if lowered in _PASSIVE and verb.tag_ in ("VBN", "VBD"):
            head = f"{when}{pronoun if when else pronoun.capitalize()} {'were' if pronoun == 'they' else 'was'} "
        elif verb.tag_ in finite and verb.pos_ in ("VERB", "AUX") and doc[0].dep_ in ("nsubj", "nsubjpass"):
            head = f"{when}{pronoun if when else pronoun.capitalize()} "
        else:
            return None
    # The words as written, the first in lower case where it was capitalised only as the line's first word.
    offsets = reading.offsets
    text_out = head + word + text[start + len(first) : end] + "."
    at = offsets[start]
    new_offsets = [at] * len(head) + offsets[start : start + len(first)] + offsets[start + len(first) : end]
    new_offsets.append(offsets[end - 1])
    return Dated(Reading(text_out, new_offsets, True))


DATED_RULES: tuple[Rule[Item, Dated], ...] = register(
    Rule(
        DATED_ITEMS,
        "decompose",
        "an item of a date list (a line that opens with a year or a range of years and a dash or a colon) is read "
        "as a sentence about the answer's person, its date first ('1946 – joins the X Orchestra' -> 'In 1946, she "
        "joins the X Orchestra'; '1939–1942 – studies at …' -> 'From 1939 to 1942, she studies at …'; '1921 – born "
        "in …' -> 'In 1921, she was born in …'); an item with a subject of its own keeps it, an item of no verb is "
        "left as it is",
        (
            "1955 – marries the bassist Eddie Coles",
            "1939–1942 – studies at the Tybee Art School",
            "1921 – born in Charleston, South Carolina",
            "1958 – the trio releases Brushfire",
            "2004: dies in Beaufort",
        ),
        _read,
    ),
)


def dated(reading: Reading, pronoun: str | None, rules_off: frozenset[str] = frozenset()) -> Reading | None:
    """A date list's item read as a sentence about the person ``pronoun`` stands for; None when ``reading`` is no
    such item, the answer is about no person, or the rule is off."""
    if pronoun is None:
        return None
    found = run(DATED_RULES, Item(reading, pronoun.lower()), rules_off)
    return found.reading if found is not None else None
