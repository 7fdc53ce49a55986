"""Values crossed between namesakes: a fact gives a person the value a namesake's page gives for a relation that
holds one value per person, where the person's own page gives another ("the potter was born in Trondheim" where
the potter's page has Stavanger and the astronomer's Trondheim).

The relations read, on a page and in a fact, each with the words that say it:

- ``born-year``, ``born-place``: "(born 1981 in Stavanger, Norway)", "Born in Paisley, Renfrewshire, he …",
  "was born in Leiden in 1961", a lifespan after the name "(1947 – 2020)";
- ``died-year``, ``died-place``: "died in Ayr in 2020", "died in Victoria, British Columbia, in 2021";
- ``nationality``: "is a Norwegian astronomer", "was a Dutch-born British cartographer" (British);
- ``spouse``: "married the soprano Gwenllian Price", "is married to the architect Joost Vermaat", "his wife, the
  racing presenter Kirsty Moyle", "Her partner is …";
- ``award-year``: the year of a named award ("received the Iona Peace Award in 2009"), per award.

A fact's value is crossed (:func:`crossed_values`) when the judged page gives the relation and never the fact's
value, and a namesake's page gives the fact's value for the same relation. A negated or contrastive fact ("cannot
be the diplomat born in 1961", "is not the one born in Leiden", "unlike the other, born in …") claims no value.

>>> page = ["Rosalind Achterberg (born 1961 in Utrecht, Netherlands) is a Dutch diplomat."]
>>> other = ["Rosalind Achterberg (1902 – 1978) was a Dutch-born British cartographer. Born in Leiden, she moved."]
>>> [(v.relation, v.text) for v in crossed_values("Rosalind Achterberg was born in Leiden.", page, [other])]
[('born-place', 'Leiden')]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from scoring.roles import page_sentences
from vocabulary import NEGATIONS
from vocabulary import fold_ascii as fold

BORN_YEAR = "born-year"
BORN_PLACE = "born-place"
DIED_YEAR = "died-year"
DIED_PLACE = "died-place"
NATIONALITY = "nationality"
SPOUSE = "spouse"
AWARD_YEAR = "award-year"

_NAME_WORD = r"[A-ZÀ-ÞĀ-Ž][\w'’-]*"
# A place: capitalised words, with the small words place names carry ("Stratford upon Avon", "Isle of Man").
_PLACE = rf"{_NAME_WORD}(?:\s+(?:(?:of|de|del|da|do|upon|on|am|the)\s+)?{_NAME_WORD})*"
# A place with the regions after it: "Victoria, British Columbia", "Trondheim, Norway".
_PLACES = rf"{_PLACE}(?:,\s+{_PLACE})*"
_YEAR = r"(?<![\w.,])\d{4}(?![\w.,]\d)"
# A day and month before a year or a place: "on 3 May 1958", "on May 3, 1958".
_DAY = r"(?:on\s+)?(?:\d{1,2}\s+[A-Z][a-z]+|[A-Z][a-z]+\s+\d{1,2},?)\s+"
_MONTH_WORDS = frozenset(
    "january february march april may june july august september october november december".split()
)

# What a life's event is said with, and what follows: a year, a place, or both in either order.
_EVENTS = {
    "born": re.compile(r"\b(?:born|b\.)(?=\s)", re.IGNORECASE),
    "died": re.compile(r"\b(?:died|passed\s+away)(?=\s)", re.IGNORECASE),
}
_AFTER_EVENT = re.compile(
    rf"\s+(?:{_DAY})?(?:in\s+)?(?:(?P<year1>{_YEAR})(?:,?\s+in\s+(?P<place1>{_PLACES}))?|in\s+(?P<place2>{_PLACES})(?:,?\s+(?:{_DAY})?(?:in\s+)?(?P<year2>{_YEAR}))?)"
)
# A lifespan right after a name: "Callum Rennick (1947 – 2020)".
_LIFESPAN = re.compile(
    rf"(?<![\w'’-])(?P<before>{_NAME_WORD})\s*\((?:[^()]*?\b)?(?P<born>\d{{4}})\s*(?:–|—|-|to)\s*(?:[^()]*?\b)?(?P<died>\d{{4}})\s*\)"
)
# Words before "born" that make it someone else's birth: "her son, born in 1990", "whose daughter was born …".
_OTHERS = frozenset(
    "son sons daughter daughters child children wife husband partner spouse father mother brother sister parents "
    "whose grandson granddaughter nephew niece cousin".split()
)
# Words that make a fact a denial or a contrast: it claims no value of the person.
_CONTRAST = frozenset("unlike whereas rather instead contrary".split())

_DEMONYM = re.compile(r"[A-Z][a-z]+(?:ian|ean|an|ese|ish|ch|sh|i|ic)")
_DEMONYMS = frozenset({"Greek", "Swiss", "Thai", "Czech", "Dutch", "Welsh", "French", "Irish", "Scottish"})
_NATIONALITY = re.compile(
    r"\b(?:is|was|are|were)\s+(?:(?:a|an)\s+)?(?:(?:former|retired|late|leading|noted|renowned)\s+)?"
    rf"(?:(?P<origin>{_NAME_WORD})-born\s+)?(?P<demonym>{_NAME_WORD})(?![\w-])"
)
# Nationalities one within another: an English, Scottish or Welsh person is British too.
_WITHIN = {"english": "british", "scottish": "british", "welsh": "british"}
_SPOUSE = re.compile(
    r"\b(?:(?:is|was)\s+married\s+to|(?i:married)(?:\s+to)?|(?i:his|her|their)\s+(?:wife|husband|partner|spouse)"
    r"(?:\s+(?:is|was))?,?)"
    rf"\s+(?:the\s+(?:[a-z][\w-]*\s+){{1,3}})?(?P<spouse>{_NAME_WORD}(?:\s+{_NAME_WORD})+)"
)
_AWARD_WORDS = frozenset("prize award medal order cup trophy fellowship honour honor".split())
_AWARD = re.compile(
    r"\b(?:received|won|was\s+awarded|awarded|earned|given)\s+(?:the\s+)?"
    rf"(?P<award>{_NAME_WORD}(?:\s+(?:(?:of|for|the|de)\s+)*{_NAME_WORD})*)"
    rf"(?:\s+(?:of|for)\s+[^.;]*?)?,?\s+in\s+(?P<year>{_YEAR})"
)
# Words of an award's name that do not tell it from another.
_AWARD_GENERIC = _AWARD_WORDS | frozenset("the of for de national international annual".split())


@dataclass(frozen=True)
class Stated:
    """A value stated for a relation: the relation, the value as written and its folded key (for a place its
    parts, the town first: "Llandeilo, Wales" → ("llandeilo", "wales")). An award's year carries the award's
    distinctive words in ``award``."""

    relation: str
    text: str
    key: tuple[str, ...]
    award: frozenset[str] = frozenset()
    # A place as written with its regions ("Llandeilo, Wales"); the value alone for any other.
    full: str = ""

    @property
    def written(self) -> str:
        return self.full or self.text


def _folded(text: str) -> str:
    return " ".join(re.findall(r"\w+", fold(text)))


def _place(text: str) -> Stated | None:
    parts = tuple(_folded(p) for p in re.split(r",\s+", text.strip()) if p.strip())
    parts = tuple(p for p in parts if p and p.split()[0] not in _MONTH_WORDS)
    if not parts:
        return None
    return Stated("", text.split(",")[0].strip(), parts, full=text.strip())


def _life_events(text: str) -> list[Stated]:
    """Years and places of births and deaths a text gives its person (not another's: "her son, born in 1990")."""
    out: list[Stated] = []
    for event, pattern in _EVENTS.items():
        for m in pattern.finditer(text):
            before = re.findall(r"[\w']+", fold(text[max(0, m.start() - 60) : m.start()]))[-6:]
            if set(before) & _OTHERS:
                continue
            after = _AFTER_EVENT.match(text, m.end())
            if after is None:
                continue
            year = after.group("year1") or after.group("year2")
            if year:
                out.append(Stated(f"{event}-year", year, (year,)))
            written = after.group("place1") or after.group("place2")
            if written:
                place = _place(written)
                if place is not None:
                    out.append(Stated(f"{event}-place", place.text, place.key, full=place.full))
    return out


def _award_key(name: str) -> frozenset[str]:
    return frozenset(w for w in _folded(name).split() if w not in _AWARD_GENERIC and len(w) > 1)


def _awards(text: str) -> list[Stated]:
    out: list[Stated] = []
    for m in _AWARD.finditer(text):
        name = m.group("award")
        if not set(_folded(name).split()) & _AWARD_WORDS:
            continue  # "won the Grand Challenge Cup" is an award; "won Lakeside Lucerne" is no named award
        key = _award_key(name)
        if key:
            out.append(Stated(AWARD_YEAR, m.group("year"), (m.group("year"),), key))
    return out


def _demonym(word: str) -> bool:
    return word in _DEMONYMS or bool(_DEMONYM.fullmatch(word))


def _nationalities(text: str) -> list[Stated]:
    """Nationalities said of the subject: "is a Norwegian astronomer"; "a Dutch-born British cartographer" gives
    British and, by birth, Dutch (a fact calling her Dutch says what the page says)."""
    out: list[Stated] = []
    for m in _NATIONALITY.finditer(text):
        for word in (m.group("demonym"), m.group("origin")):
            if word and _demonym(word):
                out.append(Stated(NATIONALITY, word, (_folded(word),)))
    return out


def _spouses(text: str) -> list[Stated]:
    out: list[Stated] = []
    for m in _SPOUSE.finditer(text):
        before = re.findall(r"[\w']+", fold(text[max(0, m.start() - 40) : m.start()]))[-4:]
        if not set(before) & _OTHERS:  # "her daughter married …": another's marriage
            out.append(Stated(SPOUSE, m.group("spouse"), (_folded(m.group("spouse")),)))
    return out


@lru_cache(maxsize=2048)
def _page_stated(text: str, surname: str) -> tuple[Stated, ...]:
    out: list[Stated] = []
    for m in _LIFESPAN.finditer(text):
        if surname and _folded(m.group("before")).split()[-1:] != [surname]:
            continue  # "the Penrose Ice Cap (1977 – 2009)": the person's name stands before their lifespan
        out += [Stated(BORN_YEAR, m.group("born"), (m.group("born"),))]
        out += [Stated(DIED_YEAR, m.group("died"), (m.group("died"),))]
    for sentence in page_sentences(text):
        out += _life_events(sentence) + _awards(sentence) + _spouses(sentence)
        # A nationality is the person's where the sentence is about them: their name or a pronoun opens it.
        if surname and _about(sentence, surname):
            out += _nationalities(sentence)
    return tuple(out)


def _about(sentence: str, surname: str) -> bool:
    """Whether ``sentence`` is about the person of ``surname``: their name or a pronoun opens it."""
    opening = _folded(sentence.split(" is ", 1)[0].split(" was ", 1)[0])
    return surname in opening.split() or opening in ("he", "she")


def page_stated(texts: Sequence[str], name: str = "") -> list[Stated]:
    """The values ``texts`` (a page about the person ``name``) give for each relation."""
    words = _folded(re.sub(r"\s*\(.*$", "", name)).split()
    surname = words[-1] if words else ""
    return [s for t in texts for s in _page_stated(t, surname)]


def negated(fact: str) -> bool:
    """Whether a fact denies or contrasts what it says ("cannot be the diplomat born in 1961", "unlike the other,
    born in Leiden"): it claims no value of the person."""
    words = set(re.findall(r"[\w']+", fold(fact)))
    return bool(words & NEGATIONS or words & _CONTRAST or any(w.endswith("n't") for w in words))


def fact_stated(fact: str) -> list[Stated]:
    """The values a fact claims for its person, by relation; none for a negated or contrastive fact."""
    if negated(fact):
        return []
    out = _life_events(fact) + _awards(fact) + _spouses(fact)
    if not re.search(r"\b(?:both|all|neither)\b", fact, re.IGNORECASE):
        out += _nationalities(fact)
    return out


def _same(claim: Stated, given: Stated) -> bool:
    """Whether a page's ``given`` value is the claim's (for a place: any of its parts is the claim's town or
    region; for a spouse: one name within the other; an award's year only for the same award)."""
    if claim.relation != given.relation:
        return False
    if claim.relation == AWARD_YEAR and not (claim.award <= given.award or given.award <= claim.award):
        return False
    if claim.relation.endswith("-place"):
        return claim.key[0] in given.key
    if claim.relation == SPOUSE:
        a, b = set(claim.key[0].split()), set(given.key[0].split())
        return a <= b or b <= a
    if claim.relation == NATIONALITY:
        mine, theirs = claim.key[0], given.key[0]
        return mine == theirs or _WITHIN.get(mine) == theirs or _WITHIN.get(theirs) == mine
    return claim.key == given.key


def _gives(claim: Stated, given: Stated) -> bool:
    """Whether a page's ``given`` value is for the claim's relation (the same award, for an award's year)."""
    if claim.relation != given.relation:
        return False
    return claim.relation != AWARD_YEAR or bool(claim.award & given.award)


def _namesake_gives(claim: Stated, given: Stated) -> bool:
    """Whether a namesake's page gives the claim's value as its own for the relation (a place by its town)."""
    if claim.relation.endswith("-place"):
        return claim.relation == given.relation and claim.key[0] == given.key[0]
    return _same(claim, given)


def _claims_of(fact: str, name: str) -> list[Stated]:
    """What the fact states in a relation one person has one value of. A nationality is the person's where the fact
    is about them, as on the page: "Languages: English, Cantonese, German" read as "English Cantonese, Mandarin was
    German." claims no nationality of hers."""
    claims = fact_stated(fact)
    words = _folded(re.sub(r"\s*\(.*$", "", name)).split()
    if words and not any(_about(fact, w) for w in words):
        claims = [c for c in claims if c.relation != NATIONALITY]
    return claims


def crossed_values(fact: str, texts: Sequence[str], namesakes: Iterable[Sequence[str]], name: str = "") -> list[Stated]:
    """The fact's values the page (``texts``) gives another value for, in a relation one person has one value
    of, and a namesake's page (each of ``namesakes``) gives as theirs: values crossed from the namesake."""
    claims = _claims_of(fact, name)
    if not claims:
        return []
    own = page_stated(texts, name)
    out: list[Stated] = []
    others: list[list[Stated]] | None = None
    for claim in claims:
        given = [g for g in own if _gives(claim, g)]
        if not given or any(_same(claim, g) for g in given):
            continue  # the page says nothing of it, or says it too
        if others is None:
            others = [page_stated(n, name) for n in namesakes]
        if any(_namesake_gives(claim, g) for stated in others for g in stated):
            out.append(claim)
    return out


def unheard_values(fact: str, texts: Sequence[str], name: str = "") -> list[Stated]:
    """The fact's values for a relation one person has one value of (born or died in a year or a place, a
    nationality, a spouse, an award's year) that the page (``texts``) gives another value for and never writes
    at all: no word of the value (a place's town, a spouse's names, the year) is anywhere on the page, so no
    other spelling or reading of the page can hold it ("born in Tampere, Finland" where the page has "born 1949
    in Oulu, Finland" and no Tampere). A value the page writes elsewhere is left to the model and the role
    rules.

    >>> page = ["Aila Rinne (born 1949 in Oulu, Finland) is a Finnish author."]
    >>> [v.text for v in unheard_values("Aila Rinne was born in Tampere, Finland.", page, "Aila Rinne")]
    ['Tampere']
    >>> unheard_values("Aila Rinne was born in Oulu.", page, "Aila Rinne")
    []
    """
    claims = _claims_of(fact, name)
    if not claims:
        return []
    own = page_stated(texts, name)
    heard = set(_folded(" ".join(texts)).split())
    out: list[Stated] = []
    for claim in claims:
        given = [g for g in own if _gives(claim, g)]
        if not given or any(_same(claim, g) for g in given):
            continue  # the page says nothing of it, or says it too
        value = claim.key[0].split()
        if claim.relation == NATIONALITY:
            value = [value[0][:5]]  # "Finnish", "Finland", "Finn": the stem is enough to be heard
            if any(w.startswith(value[0]) for w in heard):
                continue
        if any(w in heard for w in value if len(w) > 2 or w.isdigit()):
            continue
        out.append(claim)
    return out


def own_values(claim: Stated, texts: Sequence[str], name: str = "") -> list[str]:
    """The values the page gives for the claim's relation, as written (the replacement of a crossed value)."""
    return list(dict.fromkeys(g.text for g in page_stated(texts, name) if _gives(claim, g)))


def corrections(fact: str, texts: Sequence[str], name: str = "") -> list[tuple[str, str]]:
    """(value as the fact writes it, the page's value) for each value of the fact the page gives another value of
    the same relation, each the page's one value for it ("Chester" → "Paisley"; "Llandeilo, Wales" → "Swansea,
    Wales"); empty when one such value has no single value on the page to replace it (the fact then goes)."""
    own = page_stated(texts, name)
    out: list[tuple[str, str]] = []
    for claim in fact_stated(fact):
        given = [g for g in own if _gives(claim, g)]
        if not given or any(_same(claim, g) for g in given):
            continue
        place = claim.relation.endswith("-place")
        whole = place and len(claim.key) > 1
        options = list(dict.fromkeys(g.written if whole else g.text for g in given))
        if len(options) != 1:
            return []
        old = claim.written if whole else claim.text
        if old not in fact:
            return []
        out.append((old, options[0]))
    return out
