"""Children a fact counts, told in other words than the page's: "the couple raised four boys" where the page says
"they had four sons", "are the parents of three girls" for "they have three daughters", "their twin boys" for
"they have twin sons".

A count of children is a number (in digits or words, "a" or "an" only beside another count: "two sons and a
daughter"), or "twin"/"triplet", and a word for a child: a son ("son", "boy"), a daughter ("daughter", "girl") or
either ("child", "kid"; "twins", "triplets"). It counts only in a sentence that says someone has, had, raised or
is the parent of children, and only where no other relative (a brother, a parent, a son's) is the one who has them.

- *stated*: a page sentence gives the same number of each kind the fact gives (of sons, of daughters; of children
  where the fact does not say which), and the page sentence holds the fact's other content words;
- *contradicted*: every page sentence that counts the subject's children gives another number of a kind the fact
  gives ("two daughters" where the page has "two sons"; "three children" where it has "four sons").

>>> kin_counts("The couple raised four boys.")
Kin(sons=4, daughters=0, children=0)
>>> kin_counts("They have two sons and a daughter.")
Kin(sons=2, daughters=1, children=0)
>>> kin_stated("He and his wife have two boys.", ["He is married to Ruth Ellison; they have two sons."], ())
0
>>> kin_contradicted("They have two daughters.", ["They have two sons."], ())
0
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from scoring.numerals import spelled_number
from scoring.roles import page_sentences
from scoring.rules import Rule
from vocabulary import FUNCTION_WORDS, NUMBER_WORDS
from vocabulary import fold_ascii as fold

KIN_STATED = "kin-stated"
KIN_CONTRADICTED = "kin-contradicted"

# The words for a child, by kind.
_SON = frozenset("son sons boy boys".split())
_DAUGHTER = frozenset("daughter daughters girl girls".split())
_CHILD = frozenset("child children kid kids".split())
_MULTIPLE = {"twin": 2, "twins": 2, "triplet": 3, "triplets": 3}
# Words that may stand between a number and the child it counts ("two grown sons", "three young children").
_BETWEEN = frozenset("young little small grown adult teenage infant baby older younger elder surviving".split())

_NUMBER = "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
_COUNT = re.compile(
    rf"\b(?P<n>\d{{1,2}}|{_NUMBER}|an?|twin|triplet)(?:\s+(?P<mid>[a-z]+))?\s+(?P<noun>sons?|boys?|daughters?|"
    r"girls?|child(?:ren)?|kids?)\b(?!['’])(?!\s+of\b)|\b(?P<many>twins|triplets)\b",
    re.IGNORECASE,
)
# What says someone has children: "have", "had", "raised", "brought up", "the parents/father/mother of".
_HAVING = re.compile(
    r"\b(?:ha(?:ve|s|d|ving)|raised|raising|brought\s+up|bringing\s+up|adopted|parents?\s+of|father\s+of|"
    r"mother\s+of|fathered|welcomed|blessed\s+with)\b",
    re.IGNORECASE,
)
# Another relative who has the children, or children denied ("has no children").
_OTHER_HOLDER = re.compile(
    r"\b(?:brothers?|sisters?|siblings?|uncles?|aunts?|cousins?|grand(?:parents?|father|mother)|nephews?|nieces?|"
    r"(?:his|her|their)\s+(?:father|mother|parents)|(?:sons?|daughters?|childs?|children)['’]s?)\b"
    r"|\b(?:no|not|never|nor|none|without|childless)\b|n['’]t\b",
    re.IGNORECASE,
)
# Words of a fact about children that say no more than that they are had ("He and his wife have …").
_KIN_TALK = frozenset(
    "have has had having raised raising brought bringing up parents parent father mother couple wife husband "
    "partner spouse together their his her they she he both pair twin twins triplet triplets".split()
)


@dataclass(frozen=True)
class Kin:
    """How many children of each kind a sentence counts (0: it counts none of that kind)."""

    sons: int = 0
    daughters: int = 0
    children: int = 0

    @property
    def gendered(self) -> bool:
        return bool(self.sons or self.daughters)

    @property
    def total(self) -> int:
        return self.children or self.sons + self.daughters


def _number(word: str) -> int | None:
    word = word.lower()
    if word.isdigit():
        return int(word)
    if word in ("a", "an"):
        return 1
    if word in _MULTIPLE:
        return _MULTIPLE[word]
    return NUMBER_WORDS.get(word, spelled_number(word))


def kin_counts(sentence: str) -> Kin | None:
    """The children ``sentence`` counts as someone's, None where it counts none or another relative has them."""
    text = fold(sentence)
    having = _HAVING.search(text)
    if having is None or _OTHER_HOLDER.search(text):
        return None
    counts = {"sons": 0, "daughters": 0, "children": 0}
    found: list[tuple[str, int, bool]] = []
    for m in _COUNT.finditer(text, having.start()):
        if m.group("many"):
            found.append(("children", _MULTIPLE[m.group("many").lower()], False))
            continue
        mid = (m.group("mid") or "").lower()
        n = _number(m.group("n"))
        if n is None or (mid and mid not in _BETWEEN and mid not in _MULTIPLE):
            continue
        if mid in _MULTIPLE:  # "two twin sons" is not said; "a twin son" is one
            n = n if m.group("n").lower() not in ("a", "an") else 1
        noun = m.group("noun").lower()
        kind = "sons" if noun in _SON else "daughters" if noun in _DAUGHTER else "children"
        found.append((kind, n, m.group("n").lower() in ("a", "an")))
    # "a daughter" counts one only beside another count ("two sons and a daughter"): alone it may be one of several.
    if not found or (len(found) == 1 and found[0][2]):
        return None
    for kind, n, _ in found:
        counts[kind] += n
    return Kin(**counts)


def _agrees(fact: Kin, page: Kin) -> bool:
    if fact.gendered and not page.gendered:
        return False
    if fact.sons and fact.sons != page.sons:
        return False
    if fact.daughters and fact.daughters != page.daughters:
        return False
    return not fact.children or fact.children == page.total


def _contradicts(fact: Kin, page: Kin) -> bool:
    if page.gendered:
        if fact.sons and fact.sons != page.sons:
            return True
        if fact.daughters and fact.daughters != page.daughters:
            return True
    elif fact.sons + fact.daughters > page.total:
        return True
    return bool(fact.children) and fact.children != page.total


def _content(text: str, exclude: Iterable[str]) -> set[str]:
    names = {w for e in exclude for w in re.findall(r"\w+", fold(e).lower())}
    return {
        w
        for w in re.findall(r"[a-z]+", fold(text).lower())
        if len(w) > 2 and w not in FUNCTION_WORDS and w not in names and w not in _KIN_TALK
    }


_KIN_WORDS = _SON | _DAUGHTER | _CHILD


def kin_stated(fact: str, texts: Sequence[str], exclude: Iterable[str]) -> int | None:
    """The index of the passage with a sentence that counts the fact's children as the fact does and holds the
    fact's other content words; None where none does."""
    counted = kin_counts(fact)
    if counted is None:
        return None
    rest = {w for w in _content(fact, exclude) if w not in _KIN_WORDS and _number(w) is None}
    for i, text in enumerate(texts):
        for sentence in page_sentences(text):
            page = kin_counts(sentence)
            if page is None or not _agrees(counted, page):
                continue
            words = _content(text, ())
            if all(any(w[:5] == p[:5] for p in words) for w in rest):
                return i
    return None


def kin_contradicted(fact: str, texts: Sequence[str], exclude: Iterable[str]) -> int | None:
    """The index of the first passage counting the subject's children otherwise than the fact, where every page
    sentence that counts them does; None where one agrees or none counts them."""
    counted = kin_counts(fact)
    if counted is None:
        return None
    first: int | None = None
    for i, text in enumerate(texts):
        for sentence in page_sentences(text):
            page = kin_counts(sentence)
            if page is None:
                continue
            if not _contradicts(counted, page):
                return None
            first = i if first is None else first
    return first


class _Case(Protocol):
    fact: str
    name: str
    entity: str

    @property
    def texts(self) -> list[str]: ...

    def stated_by(self, index: int) -> Any: ...

    def refuted(self, holds: Callable[[str], bool]) -> Any: ...


def _stated(c: _Case) -> Any:
    at = kin_stated(c.fact, c.texts, (c.name, c.entity))
    return c.stated_by(at) if at is not None else None


def _contradicted(c: _Case) -> Any:
    at = kin_contradicted(c.fact, c.texts, (c.name, c.entity))
    if at is None:
        return None
    held = c.texts[at]
    return c.refuted(lambda t: t == held)


KIN_RULES: tuple[Rule[_Case, Any], ...] = (
    Rule(
        KIN_CONTRADICTED,
        "verify",
        "the fact counts the subject's children ('have two daughters', 'raised three boys') and every page sentence "
        "that counts them gives another number of that kind ('they have two sons'; 'they had four children'): "
        "refuted, the model not asked",
        ("They have two daughters", "The couple raised three boys", "They are the parents of five children"),
        _contradicted,
    ),
    Rule(
        KIN_STATED,
        "verify",
        "the fact counts the subject's children in other words than the page ('raised four boys', 'are the parents "
        "of three girls', 'their twin boys') and a page sentence counts as many of each kind ('they had four sons', "
        "'they have three daughters', 'they have twin sons') and holds the fact's other words: supported, the "
        "model not asked",
        ("The couple raised four boys", "are the parents of three girls", "He and his wife have two boys"),
        _stated,
    ),
)
