"""Which pages a group may be linked to when the store holds a namesake of the person the answer is about.

Two link rules (``scoring.score``) read this:

- ``other-given-name``: a page whose person has the answer's surname but another given name is another person
  ("Ilse Rautenbach" is not the store's "Thandiwe Rautenbach"), unless one name is a form of the other: an
  initial ("T. Rautenbach"), a short form ("Jon"/"Jonathan"), a spelling one letter apart ("Ahmed"/"Ahmad"), a
  known nickname ("Bill"/"William"; ``vocabulary.names.familiar_form``), or a given name of the one among the other's.
- ``unfitting-namesake``: a namesake's page whose title's occupation ("(rower)") is none the answer states
  ("Callum Rennick is a rugby union player" against "Callum Rennick (rower)" and "(bishop)"), and which supports
  fewer than half of the group's facts, is another person of that name.

- (not kept, RULES.md candidates: ``unplaced-birth-year``; its reader is in the history at 4dbb80d) where the
  store holds namesakes, an answer whose person was born in a year no namesake's page
  supports ("Cormac Threlfall (1848–1903) was an Irish poet" against a mountaineer born 1979 and an organ builder
  born 1931) is about a third person of the name: a namesake's page that supports fewer than half of the group's
  facts is not theirs.

>>> other_given_name("Ilse Rautenbach", "Thandiwe Rautenbach"), other_given_name("Bill Hale", "William Hale")
(True, False)
>>> stated_occupations("Callum Rennick is a Scottish rugby union player born in Galashiels in 1995.")
frozenset({'player'})
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import pairwise

from scoring.grouping import compatible, name_parts
from scoring.linking import given_names_agree
from scoring.named_roles import same_role
from scoring.verifier.text import stem
from vocabulary import SUBJECT_PRONOUNS
from vocabulary import fold_ascii as fold
from vocabulary.occupations import OCCUPATIONS, UMBRELLAS

# A share of a group's facts a page must support to be linked when it fits none of the occupations stated.
MOST = 0.5

_COPULA = frozenset({"is", "was", "became", "been"})
_ARTICLES = frozenset({"a", "an"})
# Words that end the noun phrase after "is a": what follows says something else of the person.
_NP_END = frozenset(
    "who which that whose born from in at since for of with based known whose until to by and/or , . ; ( )".split()
)


def other_given_name(name: str, known: str) -> bool:
    """Whether ``known`` names another person than ``name``: both with a given name and the same surname, and no
    given name of one agrees with one of the other's (a different surname is not judged here)."""
    a, b = name_parts(name), name_parts(known)
    if len(a) < 2 or len(b) < 2 or a[-1] != b[-1]:
        return False
    # A given name of one among the other's given names or surname parts ("Mary Ellen Castellane", "Ellen
    # Castellane"; a double surname "Zoë Ferrán-Okafor", "Ferrán-Okafor") is one person's.
    if set(a[:-1]) & set(b) or set(b[:-1]) & set(a):
        return False
    return not any(given_names_agree(x, y) for x in a[:-1] for y in b[:-1])


def full_name(names: Iterable[str]) -> str:
    """The most specific of a group's name forms that has a given name ("Ilse Rautenbach" of "Rautenbach" and
    "Ilse Rautenbach"), or ""."""
    forms = [n for n in names if n and len(name_parts(n)) >= 2]
    return max(forms, key=lambda n: len(name_parts(n)), default="")


def _occupations(words: list[str]) -> set[str]:
    out = {w for w in words if w in OCCUPATIONS}
    out |= {f"{x}-{y}" for x, y in pairwise(words) if f"{x}-{y}" in OCCUPATIONS}
    return out


def stated_occupations(fact: str, name: str = "", definite: bool = False) -> frozenset[str]:
    """The occupations a fact says its subject has: "X is a Scottish rugby union player born in …" → player;
    "X was a Polish cellist and teacher" → cellist, teacher. Empty when the fact says none, or when its subject is
    not ``name`` (given): another form of the name ("Michael J. Aguilar" for "Miguel Aguilar"), or not a name nor a
    pronoun ("His younger counterpart is a footballer", "Another individual is a coach"). ``definite``: "X is the
    Cornish sculptor" (an appositive read as a sentence) states one too."""
    tokens = re.findall(r"[\w'’.-]+|[,;()]", fact)
    words = [fold(w.rstrip(".")) for w in tokens]
    at = next((i for i, w in enumerate(words) if w in _COPULA), None)
    articles = _ARTICLES | {"the"} if definite else _ARTICLES
    if at is None or at + 1 >= len(words) or words[at + 1] not in articles:
        return frozenset()
    if name and not _names(tokens[:at], name):
        return frozenset()
    phrase: list[str] = []
    for w in words[at + 2 :]:
        if w in _NP_END and w != "and":
            break
        phrase.append(w)
    return frozenset(_occupations(phrase))


def _names(subject: list[str], name: str) -> bool:
    """Whether the words before a fact's verb end in a pronoun or in a form of ``name``."""
    if not subject:
        return False
    if subject[-1].lower() in SUBJECT_PRONOUNS:
        return True
    run: list[str] = []
    for w in reversed(subject):
        if not w[:1].isupper() or w.endswith(("'s", "’s")):
            break
        run.insert(0, w)
    return bool(run) and compatible(" ".join(run), name)


def page_occupations(disambiguator: str | None, texts: Iterable[str] = ()) -> frozenset[str]:
    """The occupations a page gives: its title's disambiguator's and the words of ``texts``."""
    out: set[str] = set()
    for text in (disambiguator or "", *texts):
        out |= _occupations([fold(w) for w in re.findall(r"[\w'’-]+", text)])
    return frozenset(out)


# The last word of a title's role that names a person though no listed occupation ("umpire", "lighthouse keeper").
_TITLE_ROLE = re.compile(r"^(?:[a-z][\w-]*\s+)?(?P<head>[a-z][\w-]{3,})$")


def title_role(disambiguator: str | None) -> frozenset[str]:
    """The role a page's title gives in one or two words of lower case when it is no listed occupation ("(umpire)",
    "(lighthouse keeper)" → umpire, keeper); empty for anything else ("(born 1962)", "(Ohio)").

    >>> sorted(title_role("umpire")), sorted(title_role("lighthouse keeper")), sorted(title_role("Ohio"))
    (['umpire'], ['keeper'], [])
    """
    m = _TITLE_ROLE.match((disambiguator or "").strip())
    return frozenset({m.group("head")}) if m is not None else frozenset()


def fits(stated: Iterable[str], given: Iterable[str]) -> bool:
    """Whether any occupation stated says what one the page gives does."""
    given = list(given)
    return any(same_role(s, g) for s in stated for g in given)


# Occupation words too broad to say what a person does ("player": any sport's, "artist"): no activity of their own.
_GENERIC = frozenset(UMBRELLAS) | {"player"}


def _activity(occupation: str) -> frozenset[str]:
    """Stems of what a person of an occupation does: "rower" → row, "cricketer" → cricket, "cyclist" → cycl,
    "politician" → politic, "rugby-player" → rugby; none for a broad word ("player")."""
    out: set[str] = set()
    for part in occupation.split("-"):
        if part in _GENERIC:
            continue
        for suffix in ("ian", "ist", "or"):
            if part.endswith(suffix) and len(part) - len(suffix) >= 3:
                part = part[: -len(suffix)]
                break
        out.add(stem(part))
    return frozenset(out)


def names_activity(texts: Iterable[str], given: Iterable[str]) -> bool:
    """Whether ``texts`` say what a person of an occupation ``given`` does, or name it ("competed in rowing",
    "played first-class cricket", "a rower"): the page's occupation is then in the answer."""
    wanted = frozenset().union(*(_activity(g) for g in given))
    if not wanted:
        return False
    return any(stem(fold(w)) in wanted for text in texts for w in re.findall(r"[^\W\d_]+", text))
