"""Dates an answer gives relative to its own last date, read as the year they make: "He signed on in 1925. Three
years later he was put in charge at Gallow Head." says he was put in charge in 1928, and a page that says so
(or says 1931) can only be compared on that year. Left relative, the fact kept no time a page could confirm or
refute, and the stance model judged it on its other words.

The count is a number in digits or words ("three years later", "a year later", "a couple of years on", "a decade
later", "two years after that", "four years earlier"), or none for "the following year", "the next year", "the
year after", "the same year", "that same year", "later that year". The year it counts from is the last one the
answer wrote before it: earlier in the same sentence, or in the nearest of the :data:`LOOK_BACK` sentences before
it that writes one. Nothing is read for an uncounted "later" or "a few years later", for a date relative to an
event the answer names ("two years after the strike": the page dates that, ``scoring.relative_dates``), for a
relative date the answer dates itself ("Three years later, in 1958, …"), or for an age ("at 30").

>>> dated("Three years later Edmund Larkspur was put in charge.", 1, ["He signed on in 1925.", "Three years later"
...       " he was put in charge."])
'In 1928 Edmund Larkspur was put in charge.'
>>> dated("Her follow-up won the Harrowgate Prize the next year.", 0, ["Her follow-up (2015) won the Harrowgate"
...       " Prize the next year."])
'Her follow-up won the Harrowgate Prize in 2016.'
>>> dated("He moved to Milan later.", 1, ["He joined Ajax in 1990.", "He moved to Milan later."]) is None
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scoring.rules import Rule, register
from vocabulary import NUMBER_WORDS

ANSWER_RELATIVE_DATES = "answer-relative-dates"
register(
    Rule(
        ANSWER_RELATIVE_DATES,
        "decompose",
        "a date an answer gives relative to its own last year ('in 1925. Three years later …', 'the following year', "
        "'two years after that', 'a decade later', 'the same year') is read as the year it makes ('In 1928 …'); an "
        "uncounted 'later', 'a few years later', a date after a named event ('two years after the strike'), one the "
        "answer dates itself ('Three years later, in 1958') and an age ('at 30') are left as written",
        examples=(
            "He signed on in 1925. Three years later he was put in charge at Gallow Head.",
            "The 2005 entry, Cold Harbour Lane, picked up the Gilded Quill Award the following year.",
            "She won the Saga Ceramics Prize in 2012 and had a solo show three years after that.",
            "He moved to Kjellvik FK, was voted its best player of 2011 and won the Norwegian Cup a year later.",
        ),
    )
)

LOOK_BACK = 3  # sentences before a relative date searched for the year it counts from

_COUNT = r"\d{1,2}|an?|" + "|".join(sorted((w for w, n in NUMBER_WORDS.items() if 1 <= n <= 20), key=len)[::-1])
# "three years later", "a couple of years on", "a decade later", "two years after that", "four years earlier".
_COUNTED = (
    rf"(?P<n>{_COUNT}|a couple(?: of)?)\s+(?P<unit>years?|decades?)\s+"
    r"(?P<dir>later|on|afterwards?|after (?:that|this)|earlier|before (?:that|this))"
)
# "the following year", "the next year", "the year after", "the same year", "later that year", "the year before".
_UNCOUNTED = (
    r"(?:the\s+|that\s+)?(?P<next>following|next|subsequent)\s+year"
    r"|the\s+year\s+(?P<after>after|before)(?=\s*[,.;:)]|\s*$)"
    r"|(?:later\s+)?(?:that\s+same|the\s+same|later\s+that)\s+year"
)
_RELATIVE = re.compile(rf"(?<![\w-])(?:in\s+)?(?:{_COUNTED}|{_UNCOUNTED})(?!['’\w])", re.IGNORECASE)
# A year as an answer writes one: not part of a larger number ("2,000 specimens"), a decade ("the 1990s") or a
# measure ("1500 metres").
_YEAR = re.compile(
    r"(?<![\d,.$£€])(1[5-9][0-9]{2}|20[0-9]{2})(?!\d|s\b|\s*(?:m|km|metres?|meters?|kg|ft|feet)\b)",
    re.IGNORECASE,
)
# The answer dates the relative date itself: "Three years later, in 1958, …", "The following year, 2000, …",
# "a year later (1995)".
_DATED_AFTER = re.compile(r"^\s*(?:,|\(|—|–)?\s*(?:in\s+)?(?:1[5-9][0-9]{2}|20[0-9]{2})\b", re.IGNORECASE)


def _count(m: re.Match[str]) -> int:
    """Years the phrase counts, signed: "three years later" 3, "two years earlier" -2, "the same year" 0."""
    if m.group("unit"):
        word = m.group("n").lower()
        n = int(word) if word.isdigit() else 2 if word.startswith("a couple") else NUMBER_WORDS.get(word, 1)
        n *= 10 if m.group("unit").lower().startswith("decade") else 1
        return -n if m.group("dir").lower().startswith(("earlier", "before")) else n
    if m.group("next"):
        return 1
    if m.group("after"):
        return 1 if m.group("after").lower() == "after" else -1
    return 0


def _last_year(text: str) -> int | None:
    years = _YEAR.findall(text)
    return int(years[-1]) if years else None


def _year_before(sentence: str, phrase: str, before: Sequence[str]) -> int | None:
    """The last year the answer wrote before ``phrase`` of ``sentence``: in the sentence, or in the nearest
    sentence of ``before`` (the answer's sentences before it, nearest last) that writes one."""
    at = sentence.lower().find(phrase.lower())
    if at >= 0:
        year = _last_year(sentence[:at])
        if year is not None:
            return year
    for earlier in list(before)[::-1][:LOOK_BACK]:
        year = _last_year(earlier)
        if year is not None:
            return year
    return None


def dated(fact: str, index: int, sentences: Sequence[str]) -> str | None:
    """``fact`` (of sentence ``index`` of the answer's ``sentences``) with its date relative to the answer's last
    year written as that year ("three years later" after "in 1925" → "in 1928"); None where it gives no such date,
    dates it itself, or the answer wrote no year before it."""
    m = _RELATIVE.search(fact)
    if m is None or _DATED_AFTER.match(fact[m.end() :]):
        return None
    sentence = sentences[index] if 0 <= index < len(sentences) else fact
    found = _RELATIVE.search(sentence)
    if found is not None and _DATED_AFTER.match(sentence[found.end() :]):
        return None  # "Three years later, in 1958, he married …": the fact lost the date the sentence gave
    base = _year_before(sentence, m.group(0).strip(), sentences[: max(index, 0)])
    if base is None:
        return None
    said = f"in {base + _count(m)}"
    before, after = fact[: m.start()], fact[m.end() :]
    if not before.strip():
        said = said.capitalize()
    elif before.rstrip().lower().endswith(" in"):
        before = before.rstrip()[:-3]  # "in the following year" → "in 2006", not "in in 2006"
    out = f"{before.rstrip()} {said}{after}" if before.strip() else said + after
    return re.sub(r"\s+([.,;])", r"\1", re.sub(r"\s{2,}", " ", out)).strip()
