"""A date list: lines that each open with a year or a range of years, a dash or a colon, then what happened.

"1946 – joins the Harold Lusk Orchestra" on a line of its own, without a full stop, is a list item: the segmenter
reads each such line as an item of its own (:func:`date_lines`; before, the lines of a paragraph ran together and
the first year became the subject of every line). How such a line is read as a sentence about the answer's person
("In 1946, she joins the Harold Lusk Orchestra") is the rule ``dated-lines`` (``scoring.records``), which reads a
line's date with :data:`LEAD`.

>>> date_lines(["1927 – born in Kansas City", "1946 – joins the orchestra", "Then she retired."])
[True, True, False]
>>> opens_with_date("He retired in 1990 – the year of the merger.")
False
"""

from __future__ import annotations

import re

_YEAR = r"(?:1[0-9]{3}|20[0-9]{2})"
# "1946 – ", "1939–1942 – ", "1990: ", "c. 1950 – ", "2011–present – ": a line's date and what sets it off.
LEAD = re.compile(
    rf"^\s*(?P<circa>(?:c\.|ca\.|circa)\s*)?(?P<a>{_YEAR})(?:\s*[–—-]\s*(?P<b>{_YEAR}|\d{{2}}|present|today))?"
    r"\s*(?:[–—:]|\s-)\s+(?=\S)"
)
# How many lines of a block must open with a date for its lines to be a date list.
MIN_LINES = 2


def opens_with_date(line: str) -> bool:
    """Whether a line opens a date list's item: a year or a range of years, then a dash or a colon."""
    return LEAD.match(line) is not None


def date_lines(lines: list[str]) -> list[bool]:
    """Which of a block's lines are items of a date list: those that open with a date, when at least
    :data:`MIN_LINES` of them do (one such line is more likely a sentence that starts with a year)."""
    flags = [opens_with_date(line) for line in lines]
    return flags if sum(flags) >= MIN_LINES else [False] * len(lines)
