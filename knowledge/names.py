"""Names and titles: splitting page titles, and folding names into look-up keys.

A page title is a base name plus an optional disambiguator, in parentheses or after a comma:

>>> split_title("Dick Hanley (American football)")
('Dick Hanley', 'American football')
>>> split_title("John Stewart, Duke of Albany")
('John Stewart', 'Duke of Albany')
>>> split_title("Sammy Davis Jr.")
('Sammy Davis Jr.', None)

A name folds into up to three keys, from strict to loose (``KEY_FULL``, ``KEY_NO_INITIALS``,
``KEY_FIRST_LAST``); case, diacritics, punctuation and a trailing "Jr."/"Sr."/"III" never count:

>>> name_keys("Joseph F. Smith Jr.")
[('joseph f smith', 0), ('joseph smith', 1)]
>>> name_keys("José Álvarez")
[('jose alvarez', 0)]
"""

from __future__ import annotations

import re
from functools import lru_cache

from vocabulary import NAME_SUFFIXES, TITLES
from vocabulary import fold_name as fold

KEY_FULL = 0
KEY_NO_INITIALS = 1
KEY_FIRST_LAST = 2

_PAREN = re.compile(r"^(.*?)\s*\(([^()]*)\)\s*$")
_NON_WORD = re.compile(r"[^\w]+")
_SUFFIXES = NAME_SUFFIXES


def split_title(title: str) -> tuple[str, str | None]:
    """Split a page title into ``(base_name, disambiguator)``; the disambiguator is ``None`` when absent."""
    title = " ".join(title.split())
    m = _PAREN.match(title)
    if m and m.group(1):
        return m.group(1).strip(), m.group(2).strip() or None
    head, sep, tail = title.partition(", ")
    if sep and len(head.split()) >= 2 and fold(tail) not in _SUFFIXES and tail.strip():
        return head.strip(), tail.strip()
    return title, None


def _tokens(name: str) -> list[str]:
    tokens = fold(name).split()
    while len(tokens) > 1 and tokens[-1] in _SUFFIXES:
        tokens.pop()
    return tokens


@lru_cache(maxsize=65536)
def _name_keys(name: str) -> tuple[tuple[str, int], ...]:
    tokens = _tokens(name)
    if not tokens:
        return ()
    keys = [(" ".join(tokens), KEY_FULL)]
    inner = [t for i, t in enumerate(tokens) if i in (0, len(tokens) - 1) or len(t) > 1]
    if len(inner) < len(tokens):
        keys.append((" ".join(inner), KEY_NO_INITIALS))
    if len(inner) >= 3:
        keys.append((f"{inner[0]} {inner[-1]}", KEY_FIRST_LAST))
    return tuple(keys)


def name_keys(name: str) -> list[tuple[str, int]]:
    """The look-up keys of a person's name with their looseness, strictest first and without duplicates."""
    return list(_name_keys(name))


def mention_keys(name: str) -> dict[str, int]:
    """The keys a mention is looked up by: its own (:func:`name_keys`), then looser readings of it.

    A title before the name ("Metropolitan Hilarion", "Sir Walter Scott") is left off; a short word may
    be letters ("Do" is "D.O.", "DO"), and letters a word; a bare name may be a page's "The …":

    >>> mention_keys("Metropolitan Hilarion")
    {'metropolitan hilarion': 0, 'hilarion': 1}
    >>> mention_keys("Do")
    {'do': 0, 'd o': 1, 'the do': 1}
    """
    keys = dict(_name_keys(name))
    tokens = _tokens(name)
    looser: list[str] = []
    if len(tokens) >= 2 and tokens[0] in TITLES:
        looser.append(" ".join(tokens[1:]))
    if len(tokens) == 1 and 2 <= len(tokens[0]) <= 4 and tokens[0].isalpha():
        looser += [" ".join(tokens[0]), f"the {tokens[0]}"]
    elif len(tokens) >= 2 and all(len(t) == 1 for t in tokens):
        looser.append("".join(tokens))
    elif len(tokens) >= 2 and tokens[0] == "the":
        looser.append(" ".join(tokens[1:]))
    for other in looser:
        for key, kind in _name_keys(other):
            keys.setdefault(key, max(kind, KEY_NO_INITIALS))
    return keys


def entity_keys(base_name: str, aliases: list[str]) -> dict[str, tuple[int, int]]:
    """Every key of an entity mapped to ``(kind, via_alias)``, keeping the strictest way each key is reached."""
    found: dict[str, tuple[int, int]] = {}
    for via_alias, name in [(0, base_name), *((1, a) for a in aliases)]:
        for key, kind in _name_keys(name):
            if key not in found or (kind, via_alias) < found[key]:
                found[key] = (kind, via_alias)
    return found
