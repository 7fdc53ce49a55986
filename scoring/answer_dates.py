"""Dates an answer gives relative to its own years, read as the years they make (rule ``answer-relative-years``).

"She was born in 1972. Twenty-two years later she finished her degree, and six years after that she earned her
doctorate. The next year she moved to Oslo." says 1994, 2000 and 2001: each relative date counts from the last
year the answer wrote or made before it, so a chain of them counts on from the one before. Left relative, the
decomposer cut the claim from its anchor ("The next year she moved." is no claim a page can confirm), and the
stance model judged the time words it could not read.

The count is a number in digits or words ("three years later", "a year later", "a couple of years on", "a decade
later", "two years after that", "four years earlier", "ten years on"), or none for "the following year", "the
next year", "the year after", "that same year", "later that year". The year counted from must stand in the same
sentence before the phrase or in the sentence right before it (:data:`LOOK_BACK`): further back the anchor is
unclear. Left as written: an uncounted "later", "a few years later", a date after an event the answer names
("two years after the strike": the page dates that, ``scoring.relative_dates``), a relative date the answer dates
itself ("Three years later, in 1958, …"), an age ("at 30") and a relative date with no year close before it.

The sentences are rewritten before they are parsed (:class:`scoring.records.Reading`, each character keeping its
offset in the line as written, so a revision still edits the words the answer wrote).

>>> [r.text for r in answer_years_read(["He signed on in 1925.", "Three years later he was put in charge."])]
['He signed on in 1925.', 'In 1928 he was put in charge.']
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scoring.records import Reading
from scoring.rules import rule
from vocabulary import MONTHS, NUMBER_WORDS

ANSWER_RELATIVE_YEARS = rule(
    "answer-relative-years",
    "decompose",
    "a date an answer gives relative to its own last year ('in 1972. Twenty-two years later she finished her "
    "degree, and six years after that …', 'The next year she moved', 'ten years on') is read as the year it makes, "
    "counting on through a chain ('In 1994 …, and in 2000 …', 'In 2001 she moved'); the year counted from stands in "
    "the sentence or the one before; a date after a named event, one the answer dates itself, an uncounted 'later' "
    "and a relative date with no year close before it are left as written",
)

SHORT_YEARS = rule(
    "short-years",
    "decompose",
    "a year written without its century ('born '98 in Hải Phòng', 'went pro in '28', ''46 through '65') is read "
    "with the century that puts it nearest the answer's own full years ('1998' beside 2012–2024, '1928' beside "
    "1909), or 19– from '30 on and 20– before it where the answer writes none; a decade ('the '90s') and a quote "
    "stay as written",
)

SEASONAL_YEARS = rule(
    "seasonal-years",
    "decompose",
    "'the following summer' (spring, autumn, fall) after a year the answer gives with no month or season is the "
    "next year's ('title in 2015, fourteenth at the Olympics the following summer' → 2016), and a chain counts on "
    "from it ('the next year' → 2017); 'the following winter' or 'season' (which may end the same season) and a "
    "season after a dated month ('in June 2015 … the following summer') stay as written and end the chain",
)
# Seasons that may straddle two years: "the following winter" after 2017 may be 2017–18.
_SEASONS_ACROSS_YEARS = frozenset({"winter", "season"})
# A month or a season near the year counted from: "in June 2015", "in the spring of 2015".
_DATED_IN_YEAR = re.compile(
    rf"\b(?:{'|'.join(m.capitalize() for m in MONTHS)}|spring|summer|autumn|fall|winter)\b(?!\s+(?:Olympics|Games))"
)

LOOK_BACK = 1  # sentences before a relative date searched for the year it counts from

_UNITS = "|".join(sorted((w for w, n in NUMBER_WORDS.items() if 1 <= n <= 19), key=len)[::-1])
_TENS = "|".join(w for w, n in NUMBER_WORDS.items() if n in (20, 30, 40, 50, 60))
# "three", "twenty-two", "forty", "12": a count of years written in digits or words.
_COUNT = rf"\d{{1,2}}|an?|(?:{_TENS})(?:[-\s](?:{_UNITS}))?|{_UNITS}"
# "three years later", "a couple of years on", "a decade later", "two years after that", "four years earlier".
_COUNTED = (
    rf"(?P<n>{_COUNT}|a couple(?: of)?)\s+(?P<unit>years?|decades?)\s+"
    r"(?P<dir>later|on|afterwards?|after (?:that|this)|earlier|before (?:that|this))"
)
# "the following year", "the next year", "the year after", "the same year", "later that year", "the year before".
_UNCOUNTED = (
    r"(?:the\s+|that\s+)?(?P<next>following|next|subsequent)\s+year"
    r"|(?:the\s+)?(?:following|next|subsequent)\s+(?P<season>summer|spring|autumn|fall|winter|season)"
    r"|the\s+year\s+(?P<after>after|before)(?=\s*[,.;:)]|\s*$)"
    r"|(?:later\s+)?(?:that\s+same|the\s+same|later\s+that)\s+year"
)
_RELATIVE = re.compile(
    rf"(?<![\w-])(?:in\s+)?(?:(?P<about>about|around|roughly|some|nearly|almost)\s+)?(?:{_COUNTED}|{_UNCOUNTED})"
    r"(?!['’\w])",
    re.IGNORECASE,
)
# A year as an answer writes one: not part of a larger number ("2,000 specimens"), a decade ("the 1990s"), a
# measure ("1500 metres") or a count ("140 papers" is no year anyway).
_YEAR = re.compile(
    r"(?<![\d,.$£€#])(1[5-9][0-9]{2}|20[0-9]{2})(?!\d|s\b|\s*(?:m|km|metres?|meters?|kg|ft|feet|g|mm)\b)",
    re.IGNORECASE,
)
# The answer dates the relative date itself: "Three years later, in 1958, …", "The following year, 2000, …",
# "a year later (1995)".
_DATED_AFTER = re.compile(r"^\s*(?:,|\(|—|–)?\s*(?:in\s+)?(?:1[5-9][0-9]{2}|20[0-9]{2})\b", re.IGNORECASE)
_NUMBER_WORDS_COUNT = {w.lower(): n for w, n in NUMBER_WORDS.items()}


def _count(m: re.Match[str]) -> int:
    """Years the phrase counts, signed: "three years later" 3, "two years earlier" -2, "the same year" 0."""
    if m.group("unit"):
        word = m.group("n").lower()
        n = (
            int(word)
            if word.isdigit()
            else 2
            if word.startswith("a couple")
            else sum(_NUMBER_WORDS_COUNT.get(w, 0) for w in re.split(r"[-\s]", word)) or 1
        )
        n *= 10 if m.group("unit").lower().startswith("decade") else 1
        return -n if m.group("dir").lower().startswith(("earlier", "before")) else n
    if m.group("next") or m.group("season"):
        return 1
    if m.group("after"):
        return 1 if m.group("after").lower() == "after" else -1
    return 0


def _rewrite(reading: Reading, spans: list[tuple[int, int, str]]) -> Reading:
    """``reading`` with each (start, end) span of its text replaced by the words given; the new words stand for
    the whole span: their last character takes the offset of its last character, the others that of its first
    (so the year's token covers the words it replaced, "Three years later", and a revision edits them)."""
    text, offsets = reading.text, reading.offsets
    chars: list[str] = []
    out: list[int] = []
    at = 0
    for start, end, said in spans:
        chars.extend(text[at:start])
        out.extend(offsets[at:start])
        chars.extend(said)
        out.extend([offsets[start]] * (len(said) - 1) + [offsets[end - 1]])
        at = end
    chars.extend(text[at:])
    out.extend(offsets[at:])
    return Reading("".join(chars), out, True)


def answer_years_read(
    texts: Sequence[str], readings: Sequence[Reading] | None = None, rules_off: frozenset[str] = frozenset()
) -> list[Reading]:
    """The answer's sentences (``readings`` of ``texts`` where given) with each date relative to the answer's own
    last year written as the year it makes ("Three years later" after "in 1925" → "In 1928"), counting on through a
    chain of them; a sentence with none is its reading unchanged."""
    read = list(readings) if readings is not None else [Reading(t, list(range(len(t)))) for t in texts]
    out: list[Reading] = []
    last: list[int | None] = []  # the last year each sentence wrote or made
    prior: list[str] = []  # the sentences before
    for reading in read:
        text = reading.text
        spans: list[tuple[int, int, str]] = []
        # The year counted from: the last one before, in this sentence or the sentence right before.
        base = next((y for y in last[::-1][:LOOK_BACK] if y is not None), None)
        cursor = 0
        made: int | None = None
        for m in _RELATIVE.finditer(text):
            before = _YEAR.findall(text[cursor : m.start()])
            if before:
                base = int(before[-1])
            cursor = m.end()
            if base is None or _DATED_AFTER.match(text[m.end() :]):
                continue
            if m.group("season") and (
                m.group("season").lower() in _SEASONS_ACROSS_YEARS
                or SEASONAL_YEARS in rules_off
                or _DATED_IN_YEAR.search(" ".join([*prior[-LOOK_BACK:], text[: m.start()]]))
            ):
                # "the following winter" may be the same season's end; after "in June 2015" even "the following
                # summer" may be 2015: the date stays as written, and counts as no year for a chain after it
                base = None
                continue
            year = base + _count(m)
            # "about a year later" after 2011: "in about 2012"
            said = f"in {m.group('about').lower()} {year}" if m.group("about") else f"in {year}"
            if not text[: m.start()].strip() or text[: m.start()].rstrip().endswith((".", "—", ":")):
                said = said.capitalize()
            spans.append((m.start(), m.end(), said))
            base = made = year
        written = _YEAR.findall(text[cursor:])
        last.append(int(written[-1]) if written else made if made is not None else base if spans else None)
        if not written and not spans:
            # no year in this sentence: the one before stays the anchor only for the next sentence
            last[-1] = None
        out.append(_rewrite(reading, spans) if spans else reading)
        prior.append(text)
    return out


# "'98", "’28": two digits after an apostrophe that opens a word, not a decade ("'90s") or a longer number.
_SHORT = re.compile(r"(?:(?<=^)|(?<=[\s(]))['’](\d{2})(?![\d’'\w])")
_FULL = re.compile(r"(?<![\d,.$£€#])(1[5-9][0-9]{2}|20[0-9]{2})(?!\d)")


def short_years_read(texts: Sequence[str], readings: Sequence[Reading] | None = None) -> list[Reading]:
    """The answer's sentences with each year written without its century ("'98") read in full ("1998"): the
    century that puts it nearest the middle of the answer's full years, else 19– from '30 on and 20– before."""
    read = list(readings) if readings is not None else [Reading(t, list(range(len(t)))) for t in texts]
    full = sorted(int(y) for r in read for y in _FULL.findall(r.text))
    middle = full[len(full) // 2] if full else None
    out: list[Reading] = []
    for reading in read:
        spans: list[tuple[int, int, str]] = []
        for m in _SHORT.finditer(reading.text):
            two = int(m.group(1))
            if middle is not None:
                year = min((1900 + two, 2000 + two), key=lambda y: abs(y - middle))
            else:
                year = 1900 + two if two >= 30 else 2000 + two
            spans.append((m.start(), m.end(), str(year)))
        out.append(_rewrite(reading, spans) if spans else reading)
    return out
