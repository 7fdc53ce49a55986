"""Corrections: a sentence that takes a value back and gives another is read as the claim it makes.

"Actually, she wasn't born in Oslo — she was born in Bergen" claims Bergen: the dash joined two clauses the
decomposer read as one garbled fact ("… wasn't born in Oslo she was born"); read with a semicolon, it is two
facts, "she wasn't born in Oslo" (which ``negation-mismatch`` refutes where the page says Oslo) and "she was
born in Bergen". "She was born not in Oslo but in Bergen" and "She wasn't born in Oslo but in Bergen" lost
Bergen; they are read as "She was born in Bergen, not in Oslo".

The rule (``correction``, a decompose rule) rewrites the reading of a sentence with a map of every character
back to the line as written (``scoring.records.Reading``), as the records reading does.

>>> corrected(Reading("Actually, she wasn't born in Oslo — she was born in Bergen.", list(range(59)))).text
"Actually, she wasn't born in Oslo; she was born in Bergen."
>>> corrected(Reading("She was born not in Oslo but in Bergen.", list(range(39)))).text
'She was born in Bergen, not in Oslo.'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from scoring.records import Reading
from scoring.rules import Rule, register, run

CORRECTION = "correction"

_NEG = r"(?:\bnot\b|n't\b|\bnever\b)"
# A negated clause, a dash, and a clause of its own that does not negate: "X wasn't born in Oslo — she was …".
_DASHED = re.compile(
    rf"^(?P<a>[^—–]*?{_NEG}[^—–]*?)\s*(?:—|–|--|\s-\s)\s*(?P<b>(?:[Ii]nstead,?\s+|[Rr]ather,?\s+)?"
    r"(?:he|she|they|it|[A-Z][\w'’-]+)\b[^—–]*)$"
)
_PREP = r"(?:in|at|on|from|for|by|with|to|as|into|under)"
# "not in Oslo but in Bergen", "not in Oslo, but in Bergen", "not in Oslo but rather in Bergen".
_NOT_BUT = re.compile(rf"\bnot\s+(?P<A>{_PREP}\b[^,;]*?),?\s+but\s+(?:rather\s+)?(?P<B>{_PREP}\b[^,;.!?]*)")
# "was not born in Oslo but in Bergen", "wasn't born in Oslo but in Bergen".
_AUX_NOT_BUT = re.compile(
    rf"\b(?P<aux>was|is|were|are|had|has|have)(?P<neg>\s+not|n't)\s+(?P<verb>\w+)\s+(?P<A>{_PREP}\b[^,;]*?),?\s+"
    rf"but\s+(?:rather\s+)?(?P<B>{_PREP}\b[^,;.!?]*)"
)


@dataclass(frozen=True)
class Corrected:
    """A correction rule's decision: the sentence read as the claim it makes."""

    reading: Reading
    decided_by: str = ""

    def stamped(self, name: str) -> Corrected:
        return replace(self, decided_by=name)


class _Text:
    """A reading built from pieces of another one, each character with the offset of its source."""

    def __init__(self, source: Reading) -> None:
        self.source = source
        self.chars: list[str] = []
        self.offsets: list[int] = []

    def copy(self, start: int, end: int) -> None:
        self.chars.extend(self.source.text[start:end])
        self.offsets.extend(self.source.offsets[start:end])

    def insert(self, text: str, at: int) -> None:
        at = min(max(at, 0), len(self.source.offsets) - 1)
        self.chars.extend(text)
        self.offsets.extend([self.source.offsets[at]] * len(text))

    def reading(self) -> Reading:
        return Reading("".join(self.chars), self.offsets, True)


def _correct(reading: Reading) -> Corrected | None:
    text = reading.text
    if len(reading.offsets) != len(text) or not text:
        return None
    m = _DASHED.match(text)
    if m is not None and not re.search(_NEG, m.group("b")):
        out = _Text(reading)
        out.copy(0, m.end("a"))
        out.insert("; ", m.end("a"))
        out.copy(m.start("b"), len(text))
        return Corrected(out.reading())
    m = _AUX_NOT_BUT.search(text)
    if m is not None:
        # "was not born in Oslo but in Bergen" -> "was born in Bergen, not in Oslo"
        out = _Text(reading)
        out.copy(0, m.end("aux"))
        out.copy(m.end("neg"), m.start("A"))
        out.copy(m.start("B"), m.end("B"))
        out.insert(", not ", m.start("A"))
        out.copy(m.start("A"), m.end("A"))
        out.copy(m.end("B"), len(text))
        return Corrected(out.reading())
    m = _NOT_BUT.search(text)
    if m is not None:
        # "born not in Oslo but in Bergen" -> "born in Bergen, not in Oslo"
        out = _Text(reading)
        out.copy(0, m.start())
        out.copy(m.start("B"), m.end("B"))
        out.insert(", not ", m.start("A"))
        out.copy(m.start("A"), m.end("A"))
        out.copy(m.end("B"), len(text))
        return Corrected(out.reading())
    return None


CORRECTION_RULES: tuple[Rule[Reading, Corrected], ...] = register(
    Rule(
        CORRECTION,
        "decompose",
        "a sentence that takes a value back and gives another is read as the claim it makes: a negated clause, a "
        "dash and a clause of its own become two clauses ('Actually, she wasn't born in Oslo — she was born in "
        "Bergen' -> '…; she was born in Bergen'), and 'not A but B' becomes 'B, not A' ('born not in Oslo but in "
        "Bergen', 'wasn't born in Oslo but in Bergen' -> 'born in Bergen, not in Oslo')",
        (
            "Actually, she wasn't born in Oslo — she was born in Bergen.",
            "She was born not in Oslo but in Bergen.",
            "He wasn't trained in Vienna but in Prague.",
            "It does not run on batteries – it runs on mains power.",
        ),
        _correct,
    ),
)


def corrected(reading: Reading, rules_off: frozenset[str] = frozenset()) -> Reading:
    """``reading`` as the claim it makes (unchanged when it corrects nothing or the rule is off)."""
    found = run(CORRECTION_RULES, reading, rules_off)
    return found.reading if found is not None else reading


NEGATIVE_INVERSION = "negative-inversion"

_INVERTED_AUX = r"did|does|do|was|were|is|are|has|have|had|could|would|will|can|should"
# "Nor did she ever get behind a wheel", "Neither has he married", "…, nor was he ever selected": a negative
# that opens a clause and puts its auxiliary before the subject (a pronoun or a capitalised name).
_INVERTED = re.compile(
    r"(?:^|(?<=[,;:—–]\s)|(?<=[,;:]))\s*(?P<conj>(?:[Aa]nd\s+)?(?:[Nn]or|[Nn]either))\s+"
    rf"(?P<aux>{_INVERTED_AUX})\s+"
    r"(?P<subj>he|she|they|[A-Z][\w'’.-]+(?:\s+[A-Z][\w'’.-]+){0,3})\s+(?=\w)"
)


@dataclass(frozen=True)
class Uninverted:
    """A negative-inversion rule's decision: the sentence read in plain order."""

    reading: Reading
    decided_by: str = ""

    def stamped(self, name: str) -> Uninverted:
        return replace(self, decided_by=name)


def _uninvert(reading: Reading) -> Uninverted | None:
    """Read in plain order: "Nor did she ever drive" -> "She did not ever drive", ", nor was he selected" ->
    ", and he was not selected". The subject's words and the verb keep their offsets; "not" (and "and") are
    inserted."""
    text = reading.text
    if len(reading.offsets) != len(text) or not text:
        return None
    found = list(_INVERTED.finditer(text))
    if not found:
        return None
    out = _Text(reading)
    at = 0
    for m in found:
        out.copy(at, m.start("conj"))
        subj = m.group("subj")
        opening = not text[: m.start("conj")].strip()
        if not opening:
            out.insert("and ", m.start("conj"))
        if subj in ("he", "she", "they") and opening:
            out.insert(subj[0].upper(), m.start("subj"))
            out.copy(m.start("subj") + 1, m.end("subj"))
        else:
            out.copy(m.start("subj"), m.end("subj"))
        out.insert(" ", m.end("subj"))
        out.copy(m.start("aux"), m.end("aux"))
        out.insert(" not ", m.end("aux"))
        at = m.end()
    out.copy(at, len(text))
    return Uninverted(out.reading())


# Applied after the corrections: one sentence may take a value back and go on with "nor".
INVERSION_RULES: tuple[Rule[Reading, Uninverted], ...] = register(
    Rule(
        NEGATIVE_INVERSION,
        "decompose",
        "a negative that opens a clause with its auxiliary before the subject is read in plain order: 'Nor did "
        "she ever get behind a wheel' -> 'She did not ever get behind a wheel' (the parser had read a question, "
        "'Did she ever get behind a wheel'), '…, nor was he selected' -> '…, and he was not selected'; "
        "'Neither Anna nor Ben …', 'neither of them' and a clause with no pronoun or name after the auxiliary "
        "are left as written",
        (
            "Nor did she ever get behind a wheel.",
            "Neither has he remarried since.",
            "He never married, nor did he have children.",
        ),
        _uninvert,
    ),
)


def uninverted(reading: Reading, rules_off: frozenset[str] = frozenset()) -> Reading:
    """``reading`` with a negative inversion in plain order (unchanged when it has none or the rule is off)."""
    found = run(INVERSION_RULES, reading, rules_off)
    return found.reading if found is not None else reading
