"""The page's own form of the subject's name, so that a fact reads the way its page does.

The stance model compares words: "Raul Gonzalez is Mexican" against a page about "Raúl González",
or "Chris Evans is American" against "Christopher Robert Evans ...", loses support only because the
name is spelt differently. Before scoring, the subject's name in the fact is rewritten to the form
the page uses when the two are forms of one name: the same words without accents, a first name
that is a prefix of the other ("Chris" / "Christopher"), or initials of the given names ("JPR" /
"John Peter Rhys").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from scoring.grouping import name_parts
from vocabulary import fold_words as fold
from vocabulary.fold import UPPERCASE

_CAPITALISED = re.compile(rf"{UPPERCASE}[\w.'’-]*(?:\s+(?:{UPPERCASE}[\w.'’-]*|de|del|da|van|von|der|la|le|bin|ibn))*")


def same_name(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are forms of one person's name (accents, prefixes, initials)."""
    pa, pb = name_parts(a), name_parts(b)
    if not pa or not pb or pa[-1] != pb[-1]:
        return False
    if pa == pb:
        return _suffixes(a) == _suffixes(b)
    ga, gb = pa[:-1], pb[:-1]
    if not ga or not gb:
        return False
    if _initials(ga, gb) or _initials(gb, ga):
        return True
    short, long = sorted((ga[0], gb[0]), key=len)
    return long.startswith(short) and len(short) >= 3 and (len(ga) == 1 or len(gb) == 1 or ga[1:] == gb[1:])


def _suffixes(name: str) -> set[str]:
    """ "Jr", "Sr", "III": they tell a father from a son, so forms must agree on them."""
    words = set(fold(name).split())
    return words - set(name_parts(name)) - {"sir", "dr", "mr", "mrs", "ms"}


def _initials(packed: list[str], given: list[str]) -> bool:
    """ "jpr" for [john, peter, rhys]."""
    return len(packed) == 1 and len(given) >= 2 and packed[0] == "".join(w[0] for w in given)


def page_form(name: str, title: str, passages: Sequence[str]) -> str | None:
    """The page's form of ``name``: its base title when that is the same name, else a form in the lead passage."""
    base = re.sub(r"\s*\([^)]*\)\s*$", "", title).strip()
    if same_name(name, base) and any(fold(base) in _folded(p) for p in passages):
        return base if base != name else None
    for passage in passages[:1]:
        for m in _CAPITALISED.finditer(passage):
            form = m.group(0).strip()
            if form != name and same_name(name, form):
                return form
    if same_name(name, base) and base != name:
        return base
    return None


@lru_cache(maxsize=8192)
def _folded(passage: str) -> str:
    """A passage folded once, however many facts are checked against its page."""
    return fold(passage)


def in_page_terms(fact: str, name: str, title: str, passages: Sequence[str]) -> str:
    """``fact`` with the subject's ``name`` spelt as the page spells it (unchanged when no form fits)."""
    if not name or name not in fact:
        return fact
    form = _page_form(name, title, tuple(passages))
    return fact.replace(name, form) if form else fact


@lru_cache(maxsize=4096)
def _page_form(name: str, title: str, passages: tuple[str, ...]) -> str | None:
    """:func:`page_form`, once per page and name: every fact about one subject asks the same of one page."""
    return page_form(name, title, passages)
