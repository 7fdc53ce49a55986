"""Opening hours said otherwise: a fact that something happens at every hour or on every day ("the desk answers
calls around the clock", "open seven days a week") against a page sentence about the same thing that bounds its
hours ("from 9 am to 5 pm", "9:00–17:00") or its days ("Monday to Friday", "on weekdays").

Example::

    >>> hours_bounded("The desk answers calls around the clock.", ["The desk answers calls from 9 am to 5 pm."])
    0
    >>> hours_bounded("The desk answers calls around the clock.", ["The desk answers calls 24/7."]) is None
    True
"""

from __future__ import annotations

import re
from functools import lru_cache

from vocabulary import ALL_DAYS, ALL_HOURS

# "from 9 am to 5 pm", "9 a.m.–5 p.m.", "between 8:30 and 18:00", "9:00-17:00", "until 6 pm"
_TIME = r"\d{1,2}(?:[:.]\d{2})?\s*(?:[ap]\.?m\.?)?"
_CLOCK_RANGE = re.compile(
    rf"(?:\b(?:from|between)\s+{_TIME}\s*(?:to|until|till|and|-|–)\s*{_TIME}|\b{_TIME}\s*[-–]\s*{_TIME}|"
    rf"\b(?:until|till|after|before)\s+\d{{1,2}}(?:[:.]\d{{2}})?\s*[ap]\.?m\.?)",
    re.IGNORECASE,
)
_DAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?"
_DAY_RANGE = re.compile(rf"\b{_DAY}\s*(?:to|through|until|till|-|–)\s*{_DAY}\b|\bweekdays\b|\bworking days\b", re.I)
_WORD = re.compile(r"[a-z]{4,}")


def _said(phrases: tuple[str, ...], text: str) -> bool:
    return _phrases(phrases).search(text.lower()) is not None


@lru_cache(maxsize=16)
def _phrases(phrases: tuple[str, ...]) -> re.Pattern[str]:
    """Any of ``phrases`` as a word of its own, in one expression (compiled once: every fact and page sentence
    is read for them)."""
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(p) for p in phrases) + r")(?!\w)")


def hours_bounded(fact: str, texts: list[str]) -> int | None:
    """The index of the page sentence that bounds the hours or days the fact says are all of them, sharing a word
    of four letters or more with the fact (besides the phrase); None when none does or a page says them all too."""
    every_hour, every_day = _said(ALL_HOURS, fact), _said(ALL_DAYS, fact)
    if not (every_hour or every_day) or any(_said(ALL_HOURS + ALL_DAYS, t) for t in texts):
        return None
    rest = fact.lower()
    for phrase in ALL_HOURS + ALL_DAYS:
        rest = rest.replace(phrase, " ")
    words = set(_WORD.findall(rest))
    for i, text in enumerate(texts):
        bounded = (every_hour and _CLOCK_RANGE.search(text)) or (every_day and _DAY_RANGE.search(text))
        if bounded and words & set(_WORD.findall(text.lower())):
            return i
    return None
