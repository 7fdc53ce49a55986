"""The folded forms text is compared in. Each differs on purpose; pick by what is compared.

>>> fold_name("  Ólafur  Ragnar-Grímsson "), fold_words("Ólafur Ragnar-Grímsson."), fold_ascii("Ólafur-G.")
('olafur ragnar grimsson', 'olafur ragnar grimsson', 'olafur-g.')
>>> fold_claim("He won the Ólafur Prize, in 1999!")
'he won the olafur prize in 1999'
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_NON_WORD = re.compile(r"[^\w]+")
_PUNCT = re.compile(r"[^\w\s]")
_SPACES = re.compile(r"\s+")


@lru_cache(maxsize=65536)
def fold_name(text: str) -> str:
    """Names and titles as the store indexes them: lower case, no diacritics, punctuation and ``_`` as
    spaces, whitespace collapsed."""
    if not text.isascii():
        text = _without_marks(unicodedata.normalize("NFKD", text)).casefold()
    return " ".join(_NON_WORD.sub(" ", text.lower()).replace("_", " ").split())


def fold_words(text: str) -> str:
    """Names as the grouping compares mentions: lower case, no diacritics, punctuation as spaces, ends stripped."""
    if not text.isascii():  # ASCII text is its own NFKD form and has no combining marks
        text = _without_marks(unicodedata.normalize("NFKD", text))
    return _PUNCT.sub(" ", text.lower()).strip()


def _without_marks(text: str) -> str:
    """``text`` without its combining marks.

    Looked up once per distinct character rather than once per character: a page passage with one dash
    in it is thousands of characters but a few dozen distinct ones.
    """
    marks = {ord(c): None for c in set(text) if unicodedata.combining(c)}
    return text.translate(marks) if marks else text


# Letters with no decomposition into an ASCII letter and a mark, and punctuation outside ASCII: dropped by
# the NFKD step, they glued or cut words ("Ødegaard" → "degaard", "2005–2009" → "20052009").
_TO_ASCII = str.maketrans(
    {
        **dict.fromkeys("‐‑‒–—―−", "-"),
        **dict.fromkeys("‘’‚‛′", "'"),
        **dict.fromkeys("“”„‟″«»", '"'),
        "ø": "o",
        "ł": "l",
        "đ": "d",
        "ð": "d",
        "þ": "th",
        "æ": "ae",
        "œ": "oe",
        "ß": "ss",
        "ı": "i",
        " ": " ",
    }
)


def fold_ascii(text: str) -> str:
    """Lower case, diacritics dropped, letters and punctuation outside ASCII as their ASCII forms ("Ø" → "o",
    "–" → "-"), punctuation kept: words of a sentence.

    >>> fold_ascii("Søren Ødegaard (2005–2009)")
    'soren odegaard (2005-2009)'
    """
    text = text.lower()
    if text.isascii():
        return text
    return unicodedata.normalize("NFKD", text.translate(_TO_ASCII)).encode("ascii", "ignore").decode("ascii")


def fold_claim(text: str) -> str:
    """A fact as cache keys see it: :func:`fold_ascii`, punctuation as spaces, single spaces."""
    return _SPACES.sub(" ", _PUNCT.sub(" ", fold_ascii(text))).strip()
