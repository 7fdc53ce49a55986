"""Lengths of time a page gives as dates: "spent 32 years as a consultant" where the page says "from 1982 to
2014 he was a consultant".

Chat answers count what biographies date. A fact that states how long something lasted ("for eight years",
"nearly three decades", "more than 30 years") is what the page says when one page sentence dates the same
thing with a range of years ("from 1999 to 2007", "1951–1979", "between 2015 and 2020") whose length fits
the stated one, and holds the fact's other words: its names and other numbers all, and a third of its other
content words (at least one where it names nothing), compared by their first four letters. A paraphrase's
verbs need not match: "ran" for "was mayor of", "taking down court proceedings" for "worked as a court
stenographer".

>>> [(d.low, d.high) for d in durations("He ran Linden Falls for eight years.")]
[(7, 9)]
>>> [(d.low, d.high) for d in durations("She spent nearly three decades teaching.")]
[(25, 30)]
>>> dated_in("Declan Fairweather spent 32 years as a consultant at the Liffey Heart Institute",
...          ["From 1982 to 2014 he was a consultant surgeon at the Liffey Heart Institute in Dublin."],
...          exclude=("Declan Fairweather",))
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scoring.roles import page_sentences, role_words, stem
from vocabulary import NUMBER_WORDS, ORGANISATION_NOUNS
from vocabulary import fold_ascii as fold

_QUALIFIERS = (
    "more than|over|just over|well over|at least|nearly|almost|close to|just under|under|less than|about|around|"
    "roughly|some|approximately|about a|around a"
)
_COUNT = r"\d{1,3}|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r"|a dozen|two dozen|a|an|a few"
_DURATION = re.compile(
    rf"\b(?:(?P<q>{_QUALIFIERS})\s+)?(?P<n>{_COUNT})\s+(?P<unit>years?|decades?)\b(?![-‑])",
    re.IGNORECASE,
)
# A length said as an adjective ("a seven-year apprenticeship", "her 15-year presidency"; not "a seven-year-old"):
# read where a page dates it, not where a sentence is split.
_ADJECTIVE = re.compile(rf"\b(?P<q>)(?P<n>{_COUNT})[-‑](?P<unit>year|decade)\b(?![-‑])", re.IGNORECASE)
_YEAR = r"(?:1[0-9]{3}|20[0-9]{2})"
_RANGE = re.compile(
    rf"\b(?:from\s+|between\s+)?(?P<a>{_YEAR})\s*(?:–|—|-|to|until|till|and)\s*(?P<b>{_YEAR}|\d{{2}})\b", re.IGNORECASE
)
# A range whose end is dated in a clause of its own: "from 1994 until he retired in 2012", "in 1921 and was its
# president until 1936" (a few words between, no sentence break).
_OPEN_RANGE = re.compile(
    rf"\b(?:from|in|since)\s+(?P<a>{_YEAR})\b[^.;:\d]{{0,60}}?\b(?:until|till|to)\b[^.;:\d]{{0,30}}?\b(?P<b>{_YEAR})\b",
    re.IGNORECASE,
)
_KINDS = frozenset(stem(w) for w in ORGANISATION_NOUNS)
_ENUMERATOR = re.compile(r"^\s*\d{1,2}\s*[/.)]\s+(?=[^\W\d_])")
# Verbs that only carry a length of time ("spent 32 years as …", "stayed eleven years"): not the predicate.
_TIME_VERBS = frozenset(stem(w) for w in "spent spend spending stayed stay remained remain lasted last".split())


@dataclass(frozen=True)
class Duration:
    """A stated length of time in years: the words, and the lengths in whole years they admit."""

    text: str
    low: int
    high: int


def _count(word: str) -> int | None:
    word = word.lower()
    if word.isdigit():
        return int(word)
    if word in ("a", "an"):
        return 1
    return {"a dozen": 12, "two dozen": 24, "a few": 3}.get(word, NUMBER_WORDS.get(word))


def durations(fact: str, adjectives: bool = False) -> list[Duration]:
    """The lengths of time ``fact`` states, each with the range of whole years it admits (``adjectives``: with
    those said as adjectives, "a seven-year apprenticeship")."""
    out: list[Duration] = []
    found = list(_DURATION.finditer(fact)) + (list(_ADJECTIVE.finditer(fact)) if adjectives else [])
    for m in found:
        n = _count(m.group("n"))
        if n is None or n == 0:
            continue
        decades = m.group("unit").lower().startswith("decade")
        years = n * 10 if decades else n
        slack = 4 if decades else max(1, round(years * 0.1))
        q = (m.group("q") or "").lower()
        if q in ("more than", "over", "just over", "well over", "at least"):
            low, high = years, years + (9 if decades else slack + 1)
        elif q in ("nearly", "almost", "close to", "just under", "under", "less than"):
            low, high = years - (5 if decades else slack + 1), years
        elif q or m.group("n").lower() in ("a few", "a dozen", "two dozen") or decades:
            low, high = years - slack, years + slack
        else:  # "eight years": a count of years, from the first year to the last, either way
            low, high = years - 1, years + 1
        out.append(Duration(m.group(0), max(low, 0), high))
    return out


def _ranges(sentence: str) -> list[int]:
    lengths = []
    for m in [*_RANGE.finditer(sentence), *_OPEN_RANGE.finditer(sentence)]:
        a, b = int(m.group("a")), m.group("b")
        end = int(b) if len(b) == 4 else (a // 100) * 100 + int(b)
        if end > a:
            lengths.append(end - a)
    return lengths


def dated_in(fact: str, texts: Sequence[str], exclude: Iterable[str] = ()) -> bool:
    """Whether one sentence of ``texts`` dates what ``fact`` says lasted a length of time, with a range that
    fits that length, and holds the fact's names and numbers and a third of its other content words."""
    found = durations(fact, adjectives=True)
    if not found:
        return False
    exclude = tuple(exclude)
    rest = _ENUMERATOR.sub("", fact)  # "4/ Spent almost two decades …": the line's number is no value of the fact
    for d in found:
        rest = rest.replace(d.text, " ")
    numbers = set(re.findall(r"\d[\d,.]*\d|\d", rest))
    skip = {fold(w) for text in exclude for w in re.findall(r"\w+", text) + re.findall(r"[\w'’-]+", text)}
    names = {stem(w) for w in re.findall(r"(?<!^)(?<![.!?]\s)\b[A-Z][\w'’-]+", rest) if fold(w) not in skip}
    names -= _TIME_VERBS  # "4/ Spent almost two decades …": a numbered line's first word is no name
    others = role_words(rest, exclude) - names - _TIME_VERBS
    if not names and not others:
        return False
    for text in texts:
        for sentence in page_sentences(text):
            lengths = _ranges(sentence)
            if not lengths or not all(any(d.low <= n <= d.high for n in lengths) for d in found):
                continue
            if not numbers <= set(re.findall(r"\d[\d,.]*\d|\d", sentence)):
                continue  # "48 one-day internationals over seven years": the 48 as well
            stems = {stem(w) for w in re.findall(r"[^\W\d_]+", sentence)}
            # Its names, an organisation's kind aside where another name is there: "led the Diocese of Carrick" for
            # "was Bishop of Carrick", a title said otherwise.
            missing = names - stems
            if missing and (not names & stems or not missing <= _KINDS):
                continue
            shared = {w for w in others if any(w[:4] == x[:4] for x in stems)}
            # With a name to anchor it, a third of the other words rounded down; without, at least one.
            need = len(others) // 3 if names else max(1, -(-len(others) // 3))
            if len(shared) >= need:
                return True
    return False
