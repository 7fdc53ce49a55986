"""Dates an answer gives relative to another event, read as the year the page's own date of that event makes them:
"passed the workshop to his daughter five years before his death" where the page says he "died in Bath in 1953" is
"passed the workshop to his daughter in 1948"; "founded the League two years after the strike" where the page has
"the Ashgrove Mills strike of 1919" is "founded the League in 1921".

The anchor is the words after "before"/"after" up to the next punctuation. Its event is dated by the page when
one year, and only one, stands within a few words of the anchor's word in a page sentence (an event noun also
finds its verb: "death" finds "died", "birth" "born", "retirement" "retired"). Leaving or finishing something
("two years before he left", "a couple of years after finishing") is dated by the end of the page's range of
years that names what was left, or of the only range where nothing is named. Where the page dates the anchor
with no year or with two, the fact is left as written: a reading that cannot be made is no evidence.

>>> resolve("Osric Penhallow's workshop passed to Edith five years before his death.",
...         ["Osric Penhallow (1881 – 1953) was an English clockmaker.", "Penhallow died in Bath in 1953."])
"Osric Penhallow's workshop passed to Edith in 1948."
>>> resolve("Two years after the strike she founded the Textile Women's League.",
...         ["She led the Ashgrove Mills strike of 1919 in Lowell."])
"In 1921 she founded the Textile Women's League."
>>> resolve("She opened her studio a couple of years after finishing.",
...         ["She studied ceramics in Bergen from 2000 to 2004."])
'She opened her studio in 2006.'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scoring.numerals import in_digits
from scoring.roles import page_sentences, stem
from vocabulary import ANCHOR_STOPWORDS, END_EVENT_WORDS, EVENT_VERBS
from vocabulary import fold_ascii as fold

_YEAR = re.compile(r"(?<![\d,.])(1[0-9]{3}|20[0-9]{2})(?![\d,])")
_RANGE = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\s*(?:–|—|-|to|until|till)\s*(1[0-9]{3}|20[0-9]{2})\b")
_RELATIVE = re.compile(
    r"\b(?P<n>\d{1,2}|a|one|a couple(?: of)?|the|the very)\s+(?:next\s+)?years?\s+(?P<dir>before|after)\s+"
    r"(?P<anchor>[^,.;:()!?—–]+)",
    re.IGNORECASE,
)
_NEAR = 45  # characters between the anchor's word and its year in a page sentence


def _count(word: str) -> int:
    word = word.lower()
    if word.isdigit():
        return int(word)
    return 2 if word.startswith("a couple") else 1


def _anchor(text: str, start: int) -> tuple[list[str], int]:
    """The words that name the event a relative date counts from (its first word that is no determiner or
    pronoun; after leaving or finishing, the names of what was left: "the strike", "his death", "leaving Accra"),
    and where they end."""
    words: list[str] = []
    end = start
    for t in re.finditer(r"[^\W\d_][\w'’-]*", text[start:]):
        w = fold(t.group(0)).lower()
        if not words:
            if w in ANCHOR_STOPWORDS:
                continue
            words.append(w)
        elif words[0] in END_EVENT_WORDS and t.group(0)[:1].isupper():  # "leaving Accra", not "the strike Mary …"
            words.append(w)
        elif words[0] in END_EVENT_WORDS and len(words) == 1 and w in ("at", "in", "from", "the"):
            continue  # "finishing at Laval"
        else:
            break
        end = start + t.end()
    return [w for w in words if len(w) >= 3], end


def _matches(word: str, anchor: str) -> bool:
    w = fold(word).lower()
    return stem(w) == stem(anchor) or w[:5] == anchor[:5] or w in EVENT_VERBS.get(anchor, ())


def _anchor_year(words: list[str], texts: Sequence[str]) -> int | None:
    """The one year the page gives the event ``words`` name, or None."""
    ends = [w for w in words if w in END_EVENT_WORDS]
    named = [w for w in words if w not in END_EVENT_WORDS]
    years: set[int] = set()
    for text in texts:
        for sentence in page_sentences(text):
            tokens = list(re.finditer(r"[^\W\d_][\w'’-]*", sentence))
            hits = [t for t in tokens if any(_matches(t.group(0), a) for a in named)]
            if ends:
                ranges = list(_RANGE.finditer(sentence))
                if named and not hits:
                    continue
                years.update(int(r.group(2)) for r in ranges)
                continue
            if not named or len(hits) < len(named):
                continue
            for t in hits:
                near = [
                    int(y.group(1))
                    for y in _YEAR.finditer(sentence)
                    if abs(y.start() - t.end()) <= _NEAR or abs(t.start() - y.end()) <= _NEAR
                ]
                if len(set(near)) == 1:
                    years.add(near[0])
    return years.pop() if len(years) == 1 else None


def resolve(fact: str, texts: Sequence[str]) -> str | None:
    """``fact`` with its date relative to another event ("five years before his death") written as the year
    the page's date of that event makes it; None where it gives none or the page does not date the event once."""
    text = in_digits(fact)
    m = _RELATIVE.search(text)
    if m is None:
        return None
    words, stop = _anchor(text, m.start("anchor"))
    if not words:
        return None
    year = _anchor_year(words, texts)
    if year is None:
        return None
    n = _count(m.group("n"))
    when = year - n if m.group("dir").lower() == "before" else year + n
    start = m.start()
    said = f"in {when}"
    if not text[:start].strip():
        said = said.capitalize()
    out = text[:start] + said + text[stop:]
    return re.sub(r"\s+([.,;])", r"\1", re.sub(r"\s{2,}", " ", out)).strip()
