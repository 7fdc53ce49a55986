"""The folded forms text is compared in. Each differs on purpose; pick by what is compared.

Every one of them is :func:`transliterate` first — the one normalisation of letters that the store's index
and look-ups, candidates, grouping, linking and verification all share — so a name matches however its
letters are written: "Władysław" = "Wladyslaw", "Straße" = "Strasse", "Ødegaard" = "Odegaard", "Æsir" =
"Aesir", "Москва" = "Moskva". Letters (of any script), marks and digits are transliterated by
``anyascii`` (ISC, per code point, no context); the dashes and quotes below keep their ASCII forms;
other symbols are dropped as before ("€", "°").

>>> fold_name("  Ólafur  Ragnar-Grímsson "), fold_words("Ólafur Ragnar-Grímsson."), fold_ascii("Ólafur-G.")
('olafur ragnar grimsson', 'olafur ragnar grimsson', 'olafur-g.')
>>> fold_claim("He won the Ólafur Prize, in 1999!")
'he won the olafur prize in 1999'
>>> fold_name("Władysław Żeleński"), fold_name("Łódź"), fold_name("Straße"), fold_name("Ærø")
('wladyslaw zelenski', 'lodz', 'strasse', 'aero')
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from importlib.metadata import version

from anyascii import anyascii

# Part of the knowledge store's version: names are indexed in this form, so a store imported under another
# transliteration is re-imported rather than half-matched (see knowledge.store).
FOLD_VERSION = f"anyascii-{version('anyascii')}/1"

_NON_WORD = re.compile(r"[^\w]+")
_PUNCT = re.compile(r"[^\w\s]")
_SPACES = re.compile(r"\s+")
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")

# Punctuation outside ASCII as the ASCII a sentence would use: anyascii writes "«" as "<<", and a dash
# dropped would glue words ("2005–2009" → "20052009").
_PUNCTUATION = {
    **dict.fromkeys("‐‑‒–—―−", "-"),
    **dict.fromkeys("‘’‚‛′", "'"),
    **dict.fromkeys("“”„‟″«»", '"'),
}
_CHARS: dict[str, str] = {}


def _char(c: str) -> str:
    """The ASCII form of one non-ASCII character, learnt once."""
    found = _CHARS.get(c)
    if found is None:
        category = unicodedata.category(c)
        if c in _PUNCTUATION:
            found = _PUNCTUATION[c]
        elif category[0] in "LMN":  # letters, marks, digits: transliterated
            found = anyascii(c)
        elif category[0] == "Z":  # every kind of space
            found = " "
        else:  # other symbols and punctuation: their compatibility form where it is ASCII, else nothing
            found = unicodedata.normalize("NFKD", c).encode("ascii", "ignore").decode("ascii")
        _CHARS[c] = found
    return found


def _run(m: re.Match[str]) -> str:
    return "".join([_char(c) for c in m.group(0)])


def transliterate(text: str) -> str:
    """``text`` in ASCII, case kept: letters of any script transliterated, marks dropped.

    >>> transliterate("Władysław Szpilman, Wrocław – Straße, Ødegaard, Æsir, 北京")
    'Wladyslaw Szpilman, Wroclaw - Strasse, Odegaard, Aesir, BeiJing'
    """
    if text.isascii():
        return text
    return _NON_ASCII.sub(_run, text)


@lru_cache(maxsize=65536)
def fold_name(text: str) -> str:
    """Names and titles as the store indexes them: lower case, transliterated, punctuation and ``_`` as
    spaces, whitespace collapsed."""
    return " ".join(_NON_WORD.sub(" ", transliterate(text).lower()).replace("_", " ").split())


def fold_words(text: str) -> str:
    """Names as the grouping compares mentions: lower case, transliterated, punctuation as spaces, ends
    stripped."""
    return _PUNCT.sub(" ", transliterate(text).lower()).strip()


def fold_ascii(text: str) -> str:
    """Lower case and transliterated, punctuation kept (outside ASCII as its ASCII form): words of a sentence.

    >>> fold_ascii("Søren Ødegaard (2005–2009)")
    'soren odegaard (2005-2009)'
    """
    return transliterate(text).lower()


def fold_claim(text: str) -> str:
    """A fact as cache keys see it: :func:`fold_ascii`, punctuation as spaces, single spaces."""
    return _SPACES.sub(" ", _PUNCT.sub(" ", fold_ascii(text))).strip()


def _uppercase_class() -> str:
    letters = "".join(chr(i) for i in range(0x20, 0x3000) if chr(i).isupper() and chr(i).isalpha())
    return "[" + re.escape(letters) + "]"


# A regular-expression class of every capital letter (Latin, Greek, Cyrillic, ...): "Ł", "Ø" and "Ž" open
# a name as "L" does.
UPPERCASE = _uppercase_class()
