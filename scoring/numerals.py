"""Numbers an answer spells out, read as the digits a page writes: "forty-eight gas sensors" is "48 gas sensors",
"twelve hundred pieces" is "1,200 pieces", "born in nineteen forty-seven" is "born in 1947", "until twenty twelve"
is "until 2012", "finished in '92" is "finished in 1992", "nine millennia" is "9,000 years".

A run of number words is read as one number when it is one: a year said as two pairs of digits ("nineteen
forty-seven", "twenty twelve": a first pair from eleven to twenty, a second from ten to ninety-nine), or a
cardinal ("two thousand and eight", "three hundred and forty", "forty-eight"). A run that is neither ("two three")
and a lone "one" (too often not a number: "one of the founders") are left as written.

>>> in_digits("She installed forty-eight gas sensors on thirty-one volcanoes.")
'She installed 48 gas sensors on 31 volcanoes.'
>>> in_digits("He was born in nineteen forty-seven and retired in twenty twelve.")
'He was born in 1947 and retired in 2012.'
>>> in_digits("a service of twelve hundred pieces covering roughly nine millennia")
'a service of 1,200 pieces covering roughly 9,000 years'
>>> in_digits("one of the two founders, in two thousand and eight")
'one of the 2 founders, in 2008'
"""

from __future__ import annotations

import re
from functools import lru_cache

from vocabulary import NUMBER_WORDS, YEARS_IN_UNIT

_WORD = "|".join(sorted((w for w in NUMBER_WORDS if w != "zero"), key=len, reverse=True))
_RUN = re.compile(rf"\b(?:{_WORD})(?:(?:[-‑\s]+|\s+and\s+)(?:{_WORD}))*\b(?![-‑]?\d)", re.IGNORECASE)
# "in '92", "since '05": a year with its century left out, after a word that dates.
_SHORT_YEAR = re.compile(r"\b(in|since|until|till|by|from|of|to|and)\s+['’](\d{2})\b", re.IGNORECASE)
_UNIT = re.compile(r"\b(\d[\d,]*)\s+(" + "|".join(sorted(YEARS_IN_UNIT, key=len, reverse=True)) + r")\b", re.IGNORECASE)


def _cardinal(values: list[int]) -> int | None:
    """The cardinal a run of number-word values says, or None where it is no one number ("two three")."""
    total = current = 0
    last = None
    for v in values:
        if v == 100:
            if current % 100 == 0 and current:
                return None  # "two hundred hundred"
            current = (current or 1) * 100
        elif v >= 1000:
            if total and (total % (v * 1000) != 0):
                return None  # "three thousand two thousand"
            total += (current or 1) * v
            current = 0
        else:
            tail = current % 100
            if tail and (v >= 10 or tail % 10 or tail < 20):
                return None  # "two three", "twenty thirty", "twelve four"
            current += v
        last = v
    return total + current if last is not None else None


def _value(run: str) -> tuple[int, bool] | None:
    """The number a run of number words says, and whether it is a year said in two pairs."""
    words = [w.lower() for w in re.split(r"[-‑\s]+", run) if w.lower() != "and"]
    values = [NUMBER_WORDS[w] for w in words]
    if len(values) >= 2 and 11 <= values[0] <= 20 and all(v < 100 for v in values[1:]):
        rest = _cardinal(values[1:])
        if rest is not None and 10 <= rest <= 99:
            return values[0] * 100 + rest, True
    n = _cardinal(values)
    if n is None:
        return None
    return n, 2000 <= n < 2100 and values[0] == 2 and 1000 in values


def spelled_number(run: str) -> int | None:
    """The number a run of number words says as a count ("forty thousand" 40000, "twenty-seven" 27, "twelve
    hundred" 1200), or None where it says no one number ("two three").

    >>> spelled_number("forty thousand"), spelled_number("twenty-seven"), spelled_number("two three")
    (40000, 27, None)
    """
    words = [w for w in re.split(r"[-‑\s]+", run.strip()) if w]
    if not words or any(w.lower() not in NUMBER_WORDS and w.lower() != "and" for w in words):
        return None
    values = [NUMBER_WORDS[w.lower()] for w in words if w.lower() != "and"]
    return _cardinal(values) if values else None


def spelled_runs(text: str) -> list[tuple[int, int]]:
    """Where ``text`` spells out one number in two words or more (as :func:`in_digits` reads them): the start and
    end of each.

    >>> text = "one hundred and twelve ferns, in two three"
    >>> [text[a:b] for a, b in spelled_runs(text)]
    ['one hundred and twelve']
    """
    return [m.span() for m in _RUN.finditer(text) if len(m.group(0).split()) > 1 and _value(m.group(0)) is not None]


@lru_cache(maxsize=8192)
def in_digits(text: str) -> str:
    """``text`` with the numbers it spells out written in digits (as ``scoring.numerals`` describes); the text
    itself where it spells none."""

    def number(m: re.Match[str]) -> str:
        run = m.group(0)
        if run.lower() in ("one", "hundred", "thousand", "million", "billion"):
            return run
        read = _value(run)
        if read is None:
            return run
        n, year = read
        return str(n) if year or n < 1000 else f"{n:,}"

    out = _RUN.sub(number, text)

    def short_year(m: re.Match[str]) -> str:
        two = int(m.group(2))
        return f"{m.group(1)} {1900 + two if two >= 30 else 2000 + two}"

    out = _SHORT_YEAR.sub(short_year, out)

    def unit(m: re.Match[str]) -> str:
        n = int(m.group(1).replace(",", ""))
        return f"{n * YEARS_IN_UNIT[m.group(2).lower()]:,} years"

    return _UNIT.sub(unit, out)


# A number's qualifier and how far from it the true value may lie ("a little over 14 hours" is 14 to 15.4 hours;
# "around 250" is 225 to 275; "almost 500" is 450 to 500): an approximation is bounded, not any number near.
_QUALIFIERS = (
    ("a little over|just over|slightly over|slightly more than", 1.0, 1.1),
    ("well over|more than|over|above|upwards of|upward of|in excess of|north of", 1.0, 1.25),
    ("a little under|just under|slightly under|almost|nearly|close to|just shy of", 0.9, 1.0),
    ("well under|less than|under|below", 0.75, 1.0),
    ("about|around|roughly|approximately|some|circa|c\\.|an estimated", 0.9, 1.1),
)
_QUALIFIED = re.compile(
    r"\b(?:" + "|".join(f"(?P<q{i}>{words})" for i, (words, _, _) in enumerate(_QUALIFIERS)) + r")(?:\s+a)?\s*$",
    re.IGNORECASE,
)


def approximation(before: str, number: float) -> tuple[float, float]:
    """The values a number admits as the words ``before`` it qualify it: itself, or a bounded range about it.

    >>> approximation("the atlas had somewhere around", 250), approximation("it had", 212)
    ((225.0, 275.0), (212, 212))
    """
    q = _QUALIFIED.search(before[-24:])
    if q is None:
        return number, number
    _, low, high = next(_QUALIFIERS[i] for i in range(len(_QUALIFIERS)) if q.group(f"q{i}"))
    return number * low, number * high
