"""Measured values a page states: "a 214-metre core" where the page says "a core 412 metres long", "his fastest
200 m, 20.31 seconds" where it says "a personal best of 20.31 seconds".

A measure is a number (digits, decimals, or a number word) and its unit: lengths, weights, times shorter than a
year, speeds, rates, data sizes, money in a currency's words or signs is not one (amounts are the stance model's).
Years and decades are lengths of time that :mod:`scoring.durations` reads against the page's dates.

- *stated*: the page gives every measure of the fact, the same number in the same unit, one of them in a
  sentence that shares a word of the fact besides them;
- *contradicted*: no page sentence gives the fact's number in its unit, and one gives the unit another number
  beside a word of the fact ("a 214-metre core" against "a core 412 metres long").

>>> [(m.number, m.unit) for m in measures("He held it for 30 seconds and ran the 200 m in 20.31 s.")]
[(30.0, 's'), (200.0, 'm'), (20.31, 's')]
>>> measure_stated("His fastest 200 m was 20.31 seconds.",
...                ["He ran the 200 metres.", "He set his fastest time of 20.31 seconds in 2006."])
True
>>> [m.unit for m in measure_contradicted("The campaign recovered a 214-metre core.",
...                                       ["The campaign recovered a core 412 metres long."])]
['m']
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from scoring.numerals import approximation
from scoring.roles import page_sentences, role_words, stem
from vocabulary import NUMBER_WORDS

# Each unit's spellings, by the key a measure is compared with.
_UNITS = {
    "m": "m metre metres meter meters",
    "km": "km kilometre kilometres kilometer kilometers",
    "cm": "cm centimetre centimetres centimeter centimeters",
    "mm": "mm millimetre millimetres millimeter millimeters",
    "mi": "mile miles",
    "ft": "ft foot feet",
    "in": "inch inches",
    "kg": "kg kilogram kilograms kilo kilos",
    "g": "gram grams",
    "t": "tonne tonnes ton tons",
    "lb": "lb lbs pound pounds",
    "s": "s sec secs second seconds",
    "min": "min mins minute minutes",
    "h": "h hr hrs hour hours",
    "d": "day days",
    "wk": "week weeks",
    "mo": "month months",
    "%": "% percent per cent",
    "kmh": "km/h kph",
    "mph": "mph",
    "mbps": "mbps",
    "gbps": "gbps",
    "gb": "gb gigabyte gigabytes",
    "tb": "tb terabyte terabytes",
    "mb": "mb megabyte megabytes",
    "ghz": "ghz",
    "mhz": "mhz",
    "w": "w watt watts",
    "kw": "kw kilowatt kilowatts",
    "mw": "mw megawatt megawatts",
    "v": "v volt volts",
    "mah": "mah",
    "deg": "° degree degrees",
    "m2": "m² m2 sqm",
    "km2": "km² km2",
    "ha": "ha hectare hectares",
    "acre": "acre acres",
}
# Spellings of more than one word: areas said in words.
_PHRASES = {
    "m2": ("square metres", "square meters", "square metre", "square meter", "sq m", "sq. m"),
    "km2": ("square kilometres", "square kilometers", "square kilometre", "square kilometer", "sq km"),
    "ft2": ("square feet", "square foot", "sq ft", "sq. ft"),
}
_UNIT_OF = {spelling: key for key, spellings in _UNITS.items() for spelling in spellings.split()}
_UNIT_OF |= {spelling: key for key, spellings in _PHRASES.items() for spelling in spellings}
_SPELLINGS = "|".join(sorted((re.escape(s) for s in _UNIT_OF), key=len, reverse=True))
_WORDS = "|".join(sorted((w for w in NUMBER_WORDS if w != "zero"), key=len, reverse=True))
_MEASURE = re.compile(
    rf"(?<![\w.,])(?P<n>\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?|{_WORDS})"
    rf"(?:\s*|-)(?P<u>{_SPELLINGS})(?![\w/])",
    re.IGNORECASE,
)
# Single letters are units only apart from the digits before them ("200 m", "20.31 s"; not the decade "1970s"),
# never after a number word ("one s").
_LETTER_UNITS = frozenset({"m", "s", "h", "g", "t", "w", "v", "in"})


# Times said in two units, the larger first ("9 hours and 47 minutes", "2 minutes 5 seconds"): how many of the
# smaller make one of the larger.
_COMPOUND = {("h", "min"): 60, ("min", "s"): 60, ("d", "h"): 24}
_JOINED = re.compile(r",?\s*(?:and\s+)?|\s*,\s*")


@dataclass(frozen=True)
class Measure:
    """A number and the key of its unit."""

    number: float
    unit: str
    text: str


def _number(text: str) -> float | None:
    text = text.lower().replace(",", "")
    if re.fullmatch(r"\d+(?:\.\d+)?", text):
        return float(text)
    value = NUMBER_WORDS.get(text)
    return float(value) if value is not None else None


@lru_cache(maxsize=8192)
def _measures(text: str) -> tuple[Measure, ...]:
    out: list[Measure] = []
    for m in _MEASURE.finditer(text):
        spelling = m.group("u").lower()
        joined = m.group(0)[len(m.group("n")) :][:1] not in (" ", "-")
        if spelling in _LETTER_UNITS and (not m.group("n")[:1].isdigit() or joined):
            continue  # "1970s" and "80s" are decades, "one s" no measure: a letter unit stands apart from digits
        if spelling == "in" and text[m.end() : m.end() + 1] == " ":
            continue  # "11 in 2009": a preposition, not inches
        number = _number(m.group("n"))
        if number is None:
            continue
        unit = _UNIT_OF[spelling]
        last = out[-1] if out else None
        if (
            last is not None
            and (last.unit, unit) in _COMPOUND
            and _JOINED.fullmatch(text[text.rindex(last.text, 0, m.start()) + len(last.text) : m.start()])
        ):
            # "9 hours and 47 minutes" is one time, 587 minutes: its 47 minutes are no time of their own.
            out[-1] = Measure(
                last.number * _COMPOUND[(last.unit, unit)] + number,
                unit,
                f"{last.text}{text[text.rindex(last.text, 0, m.start()) + len(last.text) : m.end()]}",
            )
            continue
        out.append(Measure(number, unit, m.group(0)))
    return tuple(out)


def measures(text: str) -> list[Measure]:
    """The measures of ``text``, in order."""
    return list(_measures(text))


def _page_measures(texts: Sequence[str]) -> list[tuple[str, tuple[Measure, ...]]]:
    return [(s, _measures(s)) for t in texts for s in page_sentences(t)]


def _shares_a_word(fact: str, sentence: str, exclude: Iterable[str], found: Sequence[Measure]) -> bool:
    rest = fact
    for m in found:
        rest = rest.replace(m.text, " ")
    words = role_words(rest, tuple(exclude))
    return bool(words & {stem(w) for w in re.findall(r"[^\W\d_]+", sentence)})


_SECONDS = {"s": 1, "min": 60, "h": 3600, "d": 86400, "wk": 604800}


def _bounds(fact: str, m: Measure) -> tuple[float, float]:
    """The values ``m`` admits as ``fact`` qualifies it: its own number, or a bounded range about it."""
    at = fact.find(m.text)
    return approximation(fact[:at] if at >= 0 else "", m.number)


def _within(page: Measure, m: Measure, bounds: tuple[float, float]) -> bool:
    """Whether the page's measure is one ``m`` admits: the same unit (a time in any of its units) and a number
    within ``bounds``."""
    if page.unit == m.unit:
        value = page.number
    elif page.unit in _SECONDS and m.unit in _SECONDS:
        value = page.number * _SECONDS[page.unit] / _SECONDS[m.unit]
    else:
        return False
    low, high = bounds
    return low <= value <= high if low != high else value == low


def measure_stated(fact: str, texts: Sequence[str], exclude: Iterable[str] = ()) -> bool:
    """Whether the page gives every measure of ``fact`` (same number, same unit), one of them in a sentence with a
    word of the fact ("His fastest 200 m was 20.31 seconds": the page's 200 metres in one sentence, "a personal
    best of 20.31 seconds" in another)."""
    found = measures(fact)
    if not found:
        return False
    exclude = tuple(exclude)
    sentences = _page_measures(texts)

    bounds = {m: _bounds(fact, m) for m in found}

    def given(m: Measure, page: tuple[Measure, ...]) -> bool:
        return any(_within(p, m, bounds[m]) for p in page)

    if not all(any(given(m, page) for _, page in sentences) for m in found):
        return False
    return any(
        any(given(m, page) for m in found) and _shares_a_word(fact, sentence, exclude, found)
        for sentence, page in sentences
    )


def _in_unit(page: Measure, m: Measure) -> float | None:
    """The page's measure in ``m``'s unit: its number where the unit is the same; a time given in a finer unit
    than ``m``'s ("9 hours and 47 minutes", 587 minutes, against "11 hours") converted; else None (a coarser
    page unit may be a rounding of the fact's: "about 2 hours" for "130 minutes")."""
    if page.unit == m.unit:
        return page.number
    if page.unit in _SECONDS and m.unit in _SECONDS and _SECONDS[page.unit] < _SECONDS[m.unit]:
        return page.number * _SECONDS[page.unit] / _SECONDS[m.unit]
    return None


def _same_measure(page: Measure, m: Measure) -> bool:
    """Whether the page's measure is ``m``, or, a time in a finer unit, one ``m`` rounds ("10 hours" or "9 hours"
    for "9 hours and 47 minutes")."""
    value = _in_unit(page, m)
    if value is None:
        return False
    return m.number == value if page.unit == m.unit else math.floor(value) <= m.number <= math.ceil(value)


def _rival(page: Measure, m: Measure) -> bool:
    """Whether the page's measure gives ``m``'s unit another value: another number in the same unit, or a time in a
    finer unit that ``m`` is no rounding of ("9 hours and 47 minutes" against "11 hours")."""
    return _in_unit(page, m) is not None and not _same_measure(page, m)


def measure_contradicted(fact: str, texts: Sequence[str], exclude: Iterable[str] = ()) -> list[Measure]:
    """Measures of ``fact`` that no page sentence gives, while one gives their unit another number beside a word
    of the fact (the fact's number nowhere in it)."""
    found = measures(fact)
    if not found:
        return []
    exclude = tuple(exclude)
    sentences = _page_measures(texts)
    out: list[Measure] = []
    for m in found:
        if any(_same_measure(p, m) for _, page in sentences for p in page):
            continue
        for sentence, page in sentences:
            rivals = [p for p in page if _rival(p, m)]
            if not rivals or any(_same_measure(p, m) for p in page):
                continue
            if _shares_a_word(fact, sentence, exclude, found):
                out.append(m)
                break
    return out
