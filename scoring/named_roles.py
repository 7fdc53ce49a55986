"""The occupation a text gives a named person, and a fact that gives one a page does not (``swapped-role``).

A role is read where English puts it beside a name: before it ("married to the soprano Kari Bråthen", "the
former hurdler Mercy Chebet", "her husband, the photographer Daniel Leclair") or after it, set off ("Ruth
Ellison, a schoolteacher", "Line Strand (physiotherapist)"). Only the occupations of
``vocabulary.occupations`` count, so "her husband Daniel Leclair" gives no role.

A fact's role is swapped when a page gives the same person a role in the same way, the two are different
occupations (not one word's two forms, "runner" and "marathon runner", nor a field and its member, "musician"
and "pianist"), and no page sentence naming the person holds the fact's role at all (a second role the page
gives them).

>>> swapped_role("He married the pianist Kari Bråthen.", ["He married the soprano Kari Bråthen in 1941."], ())
0
>>> swapped_role("He married the musician Kari Bråthen.", ["He married the soprano Kari Bråthen in 1941."], ())
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from scoring.roles import page_sentences
from vocabulary import fold_ascii as fold
from vocabulary.occupations import OCCUPATIONS, broader, synonyms

# Words (a full stop kept only after an initial, "J."), and the commas and brackets that set a role off.
_TOKEN = re.compile(r"\b\w\.|[\w'’-]+|[,()]")
# Small words inside a name ("Ludwig van Beethoven", "Maria de la Cruz").
_PARTICLES = frozenset("de del della der di da van von la le du dos das bin al ibn ni".split())
# Words that open a capitalised run without being a name ("The pianist …", "Her husband …").
_OPENERS = frozenset("the a an his her their its this that my our".split())
_ARTICLES = frozenset("a an the".split())
# Words between the article and the role of a set-off role ("Ruth Ellison, a retired schoolteacher").
_AFTER_WINDOW = 3


@dataclass(frozen=True)
class NamedRole:
    """A person's name (folded words) and the occupation a text gives them beside it."""

    person: tuple[str, ...]
    role: str


def _is_name_word(token: str) -> bool:
    return token[:1].isupper() and token[:1].isalpha()


def _runs(tokens: list[str]) -> list[tuple[int, int]]:
    """(start, end) of runs of two capitalised words or more, small name particles allowed inside."""
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(tokens):
        if not _is_name_word(tokens[i]):
            i += 1
            continue
        j = i + 1
        while j < len(tokens) and (
            _is_name_word(tokens[j])
            or (tokens[j].lower() in _PARTICLES and j + 1 < len(tokens) and _is_name_word(tokens[j + 1]))
        ):
            j += 1
        start = i
        while start < j and tokens[start].lower() in _OPENERS | OCCUPATIONS:
            start += 1  # "The pianist Kari Bråthen", "Pianist Kari Bråthen": the run's name starts after
        if j - start >= 2:
            out.append((start, j))
        i = j
    return out


def _occupation(words: Sequence[str]) -> str | None:
    """The occupation the last one or two of ``words`` make ("marathon runner" before "runner"), or None."""
    folded = [fold(w) for w in words]
    if len(folded) >= 2 and f"{folded[-2]}-{folded[-1]}" in OCCUPATIONS:
        return f"{folded[-2]}-{folded[-1]}"
    if folded and folded[-1] in OCCUPATIONS:
        return folded[-1]
    if folded and "-" in folded[-1] and all(p in OCCUPATIONS for p in folded[-1].split("-")):
        return folded[-1]  # "singer-songwriter"
    return None


def _role_after(tokens: list[str], end: int) -> str | None:
    """A set-off role after a name: ", a schoolteacher", ", the retired bishop", "(physiotherapist)"."""
    if end < len(tokens) and tokens[end] == "(":
        inside = tokens[end + 1 : end + 4]
        if ")" in inside:
            return _occupation(inside[: inside.index(")")])
        return None
    if end + 1 >= len(tokens) or tokens[end] != "," or tokens[end + 1].lower() not in _ARTICLES:
        return None
    window: list[str] = []
    for token in tokens[end + 2 : end + 2 + _AFTER_WINDOW + 1]:
        if token in {",", "(", ")"}:
            break
        window.append(token)
        found = _occupation(window)
        if found is not None:
            return found
    return None


@lru_cache(maxsize=8192)
def named_roles(text: str) -> tuple[NamedRole, ...]:
    """The occupations ``text`` gives the people it names, beside their names.

    >>> [(" ".join(r.person), r.role) for r in named_roles("She married Ruth Ellison, a schoolteacher, in 1960.")]
    [('ruth ellison', 'schoolteacher')]
    """
    tokens = _TOKEN.findall(text)
    out: list[NamedRole] = []
    for start, end in _runs(tokens):
        person = tuple(fold(t) for t in tokens[start:end] if t.lower() not in _PARTICLES)
        before = _occupation(tokens[max(0, start - 2) : start])
        if before is not None:
            out.append(NamedRole(person, before))
        after = _role_after(tokens, end)
        if after is not None:
            out.append(NamedRole(person, after))
    return tuple(out)


def _same_person(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    return a == b or (len(a) >= 2 and len(b) >= 2 and a[0] == b[0] and a[-1] == b[-1])


def _head(role: str) -> str:
    return role.split("-")[-1]


def same_role(a: str, b: str) -> bool:
    """Whether two occupations can say the same of one person: synonyms ("dramatist", "playwright"), one word's
    forms ("runner", "marathon runner"; "film director", "director"), a field and its member ("musician",
    "pianist"), or parts of one ("singer-songwriter", "singer")."""
    return any(_same_word(x, y) for x in synonyms(a) for y in synonyms(b))


def _same_word(a: str, b: str) -> bool:
    if a == b or _head(a) == _head(b):
        return True
    if a in broader(b) or b in broader(a):
        return True
    parts_a, parts_b = set(a.split("-")), set(b.split("-"))
    return bool(parts_a & parts_b) and (len(parts_a) == 1 or len(parts_b) == 1)


def _occupations_in(sentence: str) -> frozenset[str]:
    """Every occupation a sentence says, in one word or two."""
    words = [fold(w) for w in re.findall(r"[\w'’-]+", sentence)]
    out = {w for w in words if w in OCCUPATIONS}
    out |= {f"{x}-{y}" for x, y in pairwise(words) if f"{x}-{y}" in OCCUPATIONS}
    return frozenset(out)


def swapped_role(fact: str, texts: Sequence[str], exclude: Iterable[str] = ()) -> int | None:
    """The index of the text that gives a person the fact names another occupation than the fact's, where no
    page sentence naming them holds the fact's (see the module's doc); None otherwise.

    ``exclude``: the subject's names, whose occupations a page may give anywhere, not only beside the name: for
    them every occupation word of the page counts as held.
    """
    return _swapped_role(fact, tuple(texts), tuple(exclude))


@lru_cache(maxsize=8192)
def _swapped_role(fact: str, texts: tuple[str, ...], exclude: tuple[str, ...]) -> int | None:
    claims = named_roles(fact)
    if not claims:
        return None
    subjects = {tuple(fold(w) for w in re.findall(r"[\w'’.-]+", name)) for name in exclude if name}
    sentences = [(ti, s) for ti, text in enumerate(texts) for s in page_sentences(text)]
    for claim in claims:
        is_subject = any(_same_person(claim.person, s) for s in subjects)
        given: list[tuple[int, str]] = []
        held: set[str] = set()
        for ti, sentence in sentences:
            if is_subject or claim.person[-1] in re.findall(r"[\w'’-]+", fold(sentence)):
                held |= _occupations_in(sentence)
            given += [(ti, r.role) for r in named_roles(sentence) if _same_person(r.person, claim.person)]
        # The page's own roles of the person are among those held, so a role it gives them is never swapped.
        if given and not any(same_role(claim.role, h) for h in held):
            return given[0][0]
    return None
