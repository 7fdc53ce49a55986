"""Roles of values: a year or place supports a fact only where the page uses it in the fact's role.

"Ada Lovelace was born in 1852" must not be supported by a page that gives 1852 as her death year,
and "born in Nairobi" not by "she died in Nairobi". For each year and place of a fact, the page's
occurrences of that value are read with the words around them (the clause holding the value), and
the value counts only where those words share the fact's predicate:

- born/birth and died/death are roles of their own: a birth fact needs a birth word near the value;
- a lifespan in parentheses, "(10 December 1815 – 27 November 1852)" or "(born 1950)", reads as
  born / died;
- any other predicate needs one of the fact's own content words (compared by stem) near the value.

A value the page never mentions is left to the key-term gate (``scoring.verify``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from scoring.idioms import plain_reading
from scoring.rules import rule
from vocabulary import MONTHS, NEGATIONS, ROLE_STOPWORDS
from vocabulary import fold_ascii as fold
from vocabulary.forms import place_keys

BORN = "<born>"
DIED = "<died>"
_LIFE = frozenset((BORN, DIED))

_SYNONYMS = {
    "born": BORN,
    "birth": BORN,
    "birthplace": BORN,
    "nee": BORN,
    "died": DIED,
    "dies": DIED,
    "death": DIED,
    "dying": DIED,
    "deceased": DIED,
    "killed": DIED,
    "elected": "elect",
    "election": "elect",
    "won": "win",
    "wins": "win",
    "winning": "win",
    "winner": "win",
    "doctorate": "phd",
    "doctoral": "phd",
    "phd": "phd",
    "married": "marr",
    "marriage": "marr",
    "wed": "marr",
    "wife": "marr",
    "husband": "marr",
    # A predicate said in other words: "headed the project" / "led the project", "was awarded the medal" / "received
    # the medal", "was named the best goaltender" / "was voted the best goaltender", "taught at" / "on the faculty of".
    "headed": "lead",
    "heads": "lead",
    "led": "lead",
    "leads": "lead",
    "awarded": "recei",
    "named": "vote",
    "voted": "vote",
    "taught": "teach",
    "teaches": "teach",
    "faculty": "teach",
    # "between 1992 and 2005" is "from 1992 to 2005"
    "between": "from",
}

_STOP = ROLE_STOPWORDS

_PLACE_MODIFIERS = frozenset(
    "new san santa sao st saint los las el la le fort port mount lake north south east west upper lower great "
    "little old".split()
)

_MONTHS = frozenset(MONTHS)

# Content words read on each side of a value (stop words and numbers are skipped).
_WINDOW_BEFORE = 6
_WINDOW_AFTER = 4


def _idioms(text: str) -> str:
    """A page's text with the idioms of a life's events that are safe in any text ("passed away", "hung up her
    boots") in plain words (``vocabulary.LIFE_IDIOMS``)."""
    return plain_reading(text, pages=True)


@lru_cache(maxsize=16384)
def stem(word: str) -> str:
    """A word's role key: its synonym class, else its first five letters (kept per word: the rules ask for the stems
    of every word of a page's clauses for each fact checked against it)."""
    word = fold(word)
    return _SYNONYMS.get(word, word[:5])


IDIOM_ROLE = rule(
    "idiom-role",
    "verify",
    "a fact's role is read from the plain words of a life's event it tells in an idiom ('Vance passed in 1971', "
    "'her journey began in Graz', 'first saw the light of day at Leiden', 'called it a day in 2019': died, born, "
    "retired; vocabulary.LIFE_IDIOMS), so misplaced-value finds the value in the page's birth or death role",
)


def role_words(fact: str, exclude: Iterable[str] = (), idioms: bool = True) -> frozenset[str]:
    """Stems of the fact's predicate words: content words other than names, values and ``exclude``; with
    ``idioms``, a life's event told in an idiom is read in its plain words (``exclude`` holds the subject's names,
    which a guarded idiom must follow)."""
    return _role_words(fact, tuple(exclude), idioms)


@lru_cache(maxsize=8192)
def _role_words(fact: str, exclude: tuple[str, ...], idioms: bool = True) -> frozenset[str]:
    """:func:`role_words`, once per fact and exclusions: a fact is checked against every candidate page."""
    skip = {fold(w) for text in exclude for w in re.findall(r"\w+", text)}
    out: set[str] = set()
    read = plain_reading(fact, exclude) if idioms else fact
    for w in re.findall(r"[^\W\d_]+", _idioms(read)):
        folded = fold(w)
        if folded in skip or folded in _STOP or len(folded) < 3:
            continue
        out.add(stem(folded))
    return frozenset(out)


@dataclass(frozen=True)
class Value:
    """A year or a place of a fact, as folded words."""

    text: str
    kind: str  # "year" | "place"
    # The preposition before a place: "from" names an origin, which a birthplace fills.
    prep: str = ""


_PLACE = re.compile(r"\b(in|at|from)\s+((?:[A-Z][\w'’-]+)(?:\s+(?:[A-Z][\w'’-]+|of|de|del|da|do))*)")


def fact_values(fact: str, exclude: Iterable[str] = ()) -> list[Value]:
    """Years and places (capitalised words after at/in/from) of ``fact``, without the subject's names."""
    return list(_fact_values(fact, tuple(exclude)))


@lru_cache(maxsize=8192)
def _fact_values(fact: str, exclude: tuple[str, ...]) -> tuple[Value, ...]:
    """:func:`fact_values`, once per fact and exclusions."""
    skip = _folded_words(exclude)
    return tuple(v for v in _all_values(fact) if v.kind == "year" or v.text not in skip)


@lru_cache(maxsize=8192)
def _all_values(fact: str) -> tuple[Value, ...]:
    """The fact's years and places before any exclusion: read once per fact, however many pages and names."""
    out = [Value(m.group(0), "year") for m in re.finditer(r"(?<![\w.,])\d{4}(?![\w.,]\d)", fact)]
    for m in _PLACE.finditer(fact):
        words = [w for w in m.group(2).split() if w[:1].isupper()]
        # "New York", "San Diego", "Port Elizabeth": the distinctive word is the second one.
        head = fold(words[1] if len(words) > 1 and fold(words[0]) in _PLACE_MODIFIERS else words[0])
        if head not in _MONTHS and head not in _STOP:
            out.append(Value(head, "place", m.group(1)))
    return tuple(out)


@lru_cache(maxsize=1024)
def _folded_words(texts: tuple[str, ...]) -> frozenset[str]:
    """The folded words of ``texts`` (a subject's names and a page title: the same few for a whole answer)."""
    return frozenset(fold(w) for text in texts for w in re.findall(r"\w+", text))


def page_sentences(text: str) -> list[str]:
    """A page passage cut into sentences (and at semicolons), as the value and count rules read it."""
    return [s for s in re.split(r"(?<=[.;!?])\s+(?=[A-Z(\"“])|;\s+", text) if s.strip()]


def _clauses(sentence: str) -> list[str]:
    """A sentence cut where "and" or "but" opens a new predicate after a complete one.

    "born in Brooklyn, New York, and grew up in Wilmington" -> two clauses, so Wilmington is not read
    as a birthplace; "born and raised in Wilmington" stays whole (nothing complete before "and").
    """
    out: list[str] = []
    rest = sentence
    for m in re.finditer(r",?\s+(?:and|but)\s+(?=(?:\w+\s+){0,2}(?:in|at|to|from|on)\b)", sentence):
        head = sentence[len(sentence) - len(rest) : m.start()]
        if re.search(r"\b(?:in|at|on|from)\s+\S", head):
            out.append(head)
            rest = sentence[m.end() :]
    out.append(rest)
    return out


_LIFESPAN = re.compile(r"\(([^()]*?\b(\d{3,4})\b[^()]*?)\s*(?:–|—|-|to)\s*([^()]*?\b(\d{3,4})\b[^()]*?)\)")
_BORN_PAREN = re.compile(r"\((?:[^()]*?;\s*)?(?:born|b\.)\s+([^()]*?)\)", re.IGNORECASE)


# A lifespan follows a name that no preposition of its sentence governs: "Dick Hanley (1894 – 1970) was …",
# "English footballer John Smith (1920–1990)"; not "began his career at Tromsvik IL (2005–2009)".
_NAMED_BEFORE = re.compile(
    r"(?:^|[.!?;]\s+|\n)(?:(?!\b(?:at|for|with|to|from|by|under|into|joined|moved|played|coached|led)\b)[^.!?;\n])*"
    r"(?-i:[A-Z\u00c0-\u024f])[\w.'’\"-]*\s*$",
    re.IGNORECASE,
)


@lru_cache(maxsize=4096)
def _lifespans(text: str) -> tuple[tuple[str, str], ...]:
    """(year, role) read from lifespans in parentheses of a passage."""
    out: list[tuple[str, str]] = []
    for m in _LIFESPAN.finditer(text):
        if not _NAMED_BEFORE.search(text[max(0, m.start() - 300) : m.start()]):
            continue  # "began his career at Tromsvik IL (2005–2009)": a tenure, not a life
        out.append((m.group(2), BORN))
        out.append((m.group(4), DIED))
    for m in _BORN_PAREN.finditer(text):
        for y in re.findall(r"\b\d{3,4}\b", m.group(1)):
            out.append((y, BORN))
    return tuple(out)


@lru_cache(maxsize=4096)
def _occurrence_windows(text: str, value: str) -> tuple[frozenset[str], ...]:
    """The stems around each occurrence of ``value`` (a folded word or a year) in ``text``."""
    windows: list[frozenset[str]] = [frozenset({role}) for year, role in _lifespans(text) if year == value]
    for clause in _clause_words(text, bool(windows)):
        if value not in clause.vocabulary:
            continue
        for i, w in enumerate(clause.words):
            if w != value:
                continue
            before = [c for j, c in clause.content if j < i][-_WINDOW_BEFORE:]
            after = [c for j, c in clause.content if j > i][:_WINDOW_AFTER]
            windows.append(frozenset(stem(n) for n in before + after))
    return tuple(windows)


@dataclass(frozen=True)
class _Clause:
    """One clause of a page passage as the value windows read it: folded words, and the content words among
    them with their positions."""

    words: tuple[str, ...]
    vocabulary: frozenset[str]
    content: tuple[tuple[int, str], ...]


@lru_cache(maxsize=2048)
def _clause_words(text: str, without_lifespans: bool) -> tuple[_Clause, ...]:
    """The clauses of a passage (without its lifespans in parentheses, if asked), read once however many
    values of however many facts are looked up in it."""
    out: list[_Clause] = []
    source = _without_lifespans(text) if without_lifespans else text
    for sentence in (c for s in page_sentences(source) for c in _clauses(s)):
        words = tuple(re.findall(r"\w+", fold(_idioms(sentence))))
        content = tuple((i, w) for i, w in enumerate(words) if w not in _STOP and not w.isdigit())
        out.append(_Clause(words, frozenset(words), content))
    return tuple(out)


def _without_lifespans(text: str) -> str:
    return _BORN_PAREN.sub(" ", _LIFESPAN.sub(" ", text))


def matches(roles: frozenset[str], window: frozenset[str]) -> bool:
    """Whether words around a value (``window``) may fill the fact's role (``roles``).

    Birth and death are strict: a birth fact needs a birth word near the value, and a value that
    stands beside a birth or death word without any of the fact's own words fills that role, not
    the fact's. Other predicates are paraphrased too freely to be told apart by words, so a window
    without birth or death words never rules a value out.
    """
    life = roles & _LIFE
    if life:
        return bool(life & window)
    if window & _LIFE:
        return bool(roles & window)
    return True


def value_windows(texts: Sequence[str], value: str) -> list[frozenset[str]]:
    """Windows of every occurrence of ``value`` across ``texts``."""
    return [w for t in texts for w in _occurrence_windows(t, fold(value))]


# A life given as the years it spanned: "lived from 1949 to 2019", "lived 1912–1988".
_LIVED_SPAN = re.compile(r"\blived\s+(?:from\s+)?\d{3,4}\s*(?:to|until|till|through|–|—|-)\s*\d{3,4}\b")


def misplaced_values(fact: str, texts: Sequence[str], exclude: Iterable[str] = (), idioms: bool = True) -> list[Value]:
    """Values of ``fact`` the texts mention, but never in the fact's role (born vs died, drafted vs born); with
    ``idioms`` (``idiom-role``), a life's event told in an idiom takes its plain words' role."""
    exclude = tuple(exclude)
    values = fact_values(fact, exclude)
    if not values:
        return []
    skip = tuple(exclude) + tuple(v.text for v in values)
    roles = role_words(fact, skip, idioms)
    if not roles or _attested_together(fact, values, texts, skip):
        return []
    if _LIVED_SPAN.search(fact):
        roles |= _LIFE  # "lived from 1949 to 2019" gives the birth and the death years (the page's "(1949 – 2019)")
    out: list[Value] = []
    for v in values:
        own = _local_roles(fact, v, skip, idioms) or roles
        if v.prep == "from" and not (roles & _LIFE and own & _LIFE):
            continue  # "a rally driver from Madrid" is what "born in Madrid" says
        windows = value_windows(texts, v.text)
        if windows and not any(matches(own, w) for w in windows):
            out.append(v)
    return out


def values_in_role(fact: str, words: Iterable[str], texts: Sequence[str], exclude: Iterable[str] = ()) -> bool:
    """Whether every year and place of ``fact`` stands, somewhere in ``texts``, in a clause beside one of ``words``
    (an event's words: "retired", "retirement"): "retired in 1961" is not where 1961 is only the year of a title
    in "won the title in 1961 and retired in 1972"."""
    wanted = {stem(fold(w)) for w in words}
    return all(
        any(wanted & w for w in value_windows(texts, re.sub(r"['’]s$", "", v.text)))
        for v in _event_values(fact, tuple(exclude))
    )


_TO_PLACE = re.compile(r"\bto\s+([A-Z][\w'’-]+)")


def _event_values(fact: str, exclude: tuple[str, ...]) -> list[Value]:
    """The fact's years and places, with a place it went to ("moved to Cardiff")."""
    values = fact_values(fact, exclude)
    skip = _folded_words(exclude)
    gone = [fold(m.group(1)) for m in _TO_PLACE.finditer(fact)]
    return values + [Value(p, "place", "to") for p in gone if p not in skip and p not in _MONTHS and p not in _STOP]


def role_rivals(fact: str, words: Iterable[str], texts: Sequence[str], exclude: Iterable[str] = ()) -> list[str]:
    """Years and places of ``texts`` other than ``fact``'s that stand beside one of an event's ``words``, for each
    year of the fact, or place the page has in another role, that stands beside none: "retired in 1961" where the
    page has "won the title in 1961 and retired in 1972" has the rival 1972. Empty where every value of the fact
    stands in the event's role."""
    exclude = tuple(exclude)
    wanted = {stem(fold(w)) for w in words}
    values = _event_values(fact, exclude)
    own = {v.text for v in values}
    out: list[str] = []
    for v in values:
        text = re.sub(r"['’]s$", "", v.text)  # "at England's Kingsmere University"
        windows = value_windows(texts, text)
        if any(wanted & w for w in windows):
            continue
        if v.kind == "year":
            candidates = [y for t in texts for y in re.findall(r"(?<![\w.,])\d{4}(?![\w.,]\d)", t)]
        elif windows:  # a place the page spells as the fact does, in another role
            candidates = [fold(m.group(1)) for t in texts for m in re.finditer(r"\b(?:in|at|to)\s+([A-Z][\w'’-]+)", t)]
            candidates = [c for c in candidates if c not in _MONTHS and c not in _STOP]
        else:
            continue
        for c in dict.fromkeys(candidates):
            if c not in own and any(wanted & w for w in value_windows(texts, c)):
                out.append(c)
    return out


def _local_roles(fact: str, value: Value, skip: tuple[str, ...], idioms: bool = True) -> frozenset[str]:
    """The predicate words of the part of ``fact`` that holds ``value``, where the fact strings several
    predicates together ("born 1984 in Lagos, raised in Seville": Seville is where she was raised, not born);
    empty when the value's part has none of its own."""
    parts = re.split(r",\s+|\s+(?:and|but)\s+", fact)
    if len(parts) < 2:
        return frozenset()
    holding = [p for p in parts if value.text in re.findall(r"\w+", fold(p))]
    return role_words(holding[0], skip, idioms) if len(holding) == 1 else frozenset()


def _attested_together(fact: str, values: list[Value], texts: Sequence[str], skip: Iterable[str]) -> bool:
    """Whether one page sentence names what the fact's values are of (its capitalised words other than the
    subject and the values) together with every value: "played for Tromsvik IL (2005–2009)" and "began his
    career at Tromsvik IL (2005–2009)" tell one tenure in other words, not the years in another role."""
    own = {fold(w) for text in skip for w in re.findall(r"\w+", text)}
    named = _PLACE.sub(" ", fact.strip())  # a place is a value, not what the values are of
    names = {fold(w) for w in re.findall(r"(?<!^)\b[A-Z][\w'’-]*", named)} - own - _STOP
    if not names:
        return False
    for text in texts:
        for words, _ in _page_words(text):
            at = [i for i, w in enumerate(words) if w in names]
            if not names <= set(words):
                continue
            # each value right beside the names ("Tromsvik IL (2005–2009)"), not elsewhere in the sentence
            if all(
                any(w == v.text and any(0 < i - j <= 3 or 0 < j - i <= 3 for j in at) for i, w in enumerate(words))
                for v in values
            ):
                return True
    return False


def contradicted_values(fact: str, texts: Sequence[str], exclude: Iterable[str] = ()) -> list[Value]:
    """Values of ``fact`` that the texts never give in the fact's role while they give another value of the
    same kind there: "retired in 2021" where the page says "announced her retirement in 2023" (and has 2021
    only for a title), "founded the Clearsight Eye Hospital in Lagos" where it was founded "in Enugu".

    Paraphrase makes words a weak test of a role, so the test is two-sided and asks for two predicate words:
    no page sentence has both the fact's value and a word of the fact (or the value is not on the page at
    all), and another year, or another place, stands beside at least two of the fact's words."""
    exclude = tuple(exclude)
    values = fact_values(fact, exclude)
    if not values:
        return []
    roles = role_words(fact, (*exclude, *(v.text for v in values)))
    if len(roles) < 2 or roles & _LIFE:
        return []  # one word ("played", "served") cannot tell a role; birth and death are misplaced-value's
    own = {re.sub(r"['’]s$", "", v.text) for v in values}
    anchors = roles | {stem(v) for v in own}
    sentences = [words for t in texts for words in _sentence_terms(t)]
    out: list[Value] = []
    for v in values:
        if v.prep == "from":
            continue  # "a surgeon from Cork": an origin, which any page sentence about the person may give
        text = re.sub(r"['’]s$", "", v.text)  # "at Dublin's Liffey Heart Institute"
        others = anchors - {stem(text)}
        if any(text in words and others & words for words in sentences):
            continue  # a page sentence has the value and a word of the fact: not contradicted
        if v.kind == "place" and any(_place_form_in(text, words) and others & words for words in sentences):
            continue  # "labour shortages in Australia" where the page has "labour shortages in Australian farming"
        # A year the page never mentions is key-terms-missing's. A place it mentions elsewhere is often one
        # the fact merely widens or narrows ("schools in Australia" and "educated in Melbourne"); one it never
        # mentions may be spelt otherwise there ("St." for "Saint"), so its rival must stand beside three of
        # the fact's words.
        if v.kind == "place" and _bound_elsewhere(fact, v, texts):
            out.append(v)  # "Bramwell University in Madrid" where the page has "Bramwell University in London"
            continue
        on_page = any(text in words for words in sentences)
        if on_page != (v.kind == "year"):
            continue
        need = 2 if on_page else 3
        if v.kind == "year":
            rivals = [y for t in texts for y in re.findall(r"(?<![\w.,])\d{4}(?![\w.,]\d)", t)]
        else:
            rivals = [
                fold(m.group(1))
                for t in texts
                for m in re.finditer(r"\b(?:in|at)\s+([A-Z][\w'’-]+)", t)
                if fold(m.group(1)) not in _MONTHS and fold(m.group(1)) not in _STOP
            ]
        # The fact's other values are no rivals: "from 1936 to 1938" where the page has 1936 by the title.
        rivals = [r for r in rivals if r not in own]
        if any(len(roles & w) >= need for r in dict.fromkeys(rivals) for w in value_windows(texts, r)):
            out.append(v)
    return out


def _bound_elsewhere(fact: str, v: Value, texts: Sequence[str]) -> bool:
    """Whether the name the fact places ("at Bramwell University in Madrid") is placed elsewhere wherever the
    page names it ("at Bramwell University in London") and never where the fact does: a value bound to the
    wrong organisation."""
    if v.prep != "in":
        return False
    m = None
    for m in re.finditer(r"((?:[A-Z][\w'’-]+\s+){1,5})in\s+((?:[A-Z][\w'’-]+\s*)+)", fact):
        if v.text in fold(m.group(2)).split():
            break
    else:
        return False
    name = m.group(1).split()
    if all(fold(w) in _PLACE_MODIFIERS or fold(w) in _STOP for w in name):
        return False
    pattern = re.compile(rf"\b{re.escape(' '.join(name))}\s+in\s+((?:[A-Z][\w'’-]+\s*)+)")
    places = [fold(p.group(1)).split() for t in texts for p in pattern.finditer(t)]
    return bool(places) and not any(v.text in p for p in places)


def _place_form_in(place: str, words: frozenset[str]) -> bool:
    """Whether ``words`` hold a one-word place in another of its forms: "Australian" for "Australia"."""
    folded = fold(place)
    if not folded.isalpha():
        return False
    keys = place_keys(folded)
    return any(keys & place_keys(w) for w in words if w.isalpha())


@lru_cache(maxsize=2048)
def _sentence_terms(text: str) -> tuple[frozenset[str], ...]:
    """For each page sentence of ``text``: its folded words, their stems and its runs of four digits ("1980s",
    "2008–09"), as :func:`contradicted_values` matches a fact's value and words against them. Once per
    passage, not once per fact checked against it."""
    out: list[frozenset[str]] = []
    for sentence in page_sentences(text):
        words = re.findall(r"\w+", fold(sentence))
        out.append(frozenset({stem(w) for w in words} | set(words) | set(re.findall(r"\d{4}", sentence))))
    return tuple(out)


def fills(roles: frozenset[str], window: frozenset[str]) -> bool:
    """Whether a window positively shows the fact's role (a replacement value must stand in it)."""
    life = roles & _LIFE
    if life:
        return bool(life & window)
    return bool(roles & window)


def role_years(fact: str, old: str, texts: Sequence[str], exclude: Iterable[str] = ()) -> list[str]:
    """Years of ``texts`` standing in the role ``old`` has in ``fact``, the best placed first.

    The subject's names (``exclude``) are no role words: a lead "(1815 – 1852)" beside the name must
    not win a "moved to Paris in 1835" fact. Years in another role are left out.
    """
    roles = role_words(fact, (*exclude, old))
    if not roles:
        return []
    # A year is replaced by one of the same kind: a single year by a single year, a range's end by a range's.
    ranged = old in _range_years(fact)
    scored: dict[str, int] = {}
    for text in texts:
        in_ranges = _range_years(text)
        for year in dict.fromkeys(re.findall(r"(?<![\w.,])\d{4}(?![\w.,]\d)", text)):
            if year == old or year in fact or (not ranged and year in in_ranges and not _alone(text, year)):
                continue
            best = max((len(roles & w) for w in _occurrence_windows(text, year) if fills(roles, w)), default=0)
            if best:
                scored[year] = max(scored.get(year, 0), best)
    return sorted(scored, key=lambda y: -scored[y])


_RANGE = re.compile(r"\b(?:between\s+(\d{4})\s+and\s+(\d{4})|(\d{4})\s*(?:–|—|-|to|until)\s*(\d{4}))\b", re.IGNORECASE)


def _range_years(text: str) -> set[str]:
    """Years that open or close a range ("from 1990 to 1998", "1990–1998", "between 2015 and 2022")."""
    return {y for m in _RANGE.finditer(text) for y in m.groups() if y}


def _alone(text: str, year: str) -> bool:
    """Whether ``year`` also stands in ``text`` outside any range."""
    return bool(re.search(rf"(?<![\w.,–—-])(?<!to )(?<!from ){year}(?!\s*(?:–|—|-|to)\s*\d)", text))


def window_of(words: Sequence[str], start: int, end: int) -> frozenset[str]:
    """Stems of the content words around ``words[start:end]`` (one sentence's lower-case words)."""
    content = [(i, fold(w)) for i, w in enumerate(words) if fold(w) not in _STOP and not w.isdigit() and w.isalnum()]
    before = [c for j, c in content if j < start][-_WINDOW_BEFORE:]
    after = [c for j, c in content if j >= end][:_WINDOW_AFTER]
    return frozenset(stem(n) for n in before + after)


def content_stems(words: Sequence[str]) -> frozenset[str]:
    """Stems of all the content words of ``words``: every :func:`window_of` among them is a subset."""
    return frozenset(stem(fold(w)) for w in words if fold(w) not in _STOP and not w.isdigit() and w.isalnum())


def stated_in(fact: str, texts: Sequence[str], exclude: Iterable[str] = ()) -> bool:
    """Whether one sentence of ``texts`` holds every value and every predicate word of ``fact``.

    Such a fact is what the page says, whatever the stance model thinks of its wording; revision
    keeps it ("led the church from 1901 until his death in 1918").
    """
    exclude = tuple(exclude)
    values = {fold(v) for v in re.findall(r"\b\d+\b", fact)} | {v.text for v in fact_values(fact, exclude)}
    if not values:
        return _worded_in(fact, texts, exclude)
    roles = role_words(fact, (*exclude, *values))
    if misplaced_values(fact, texts, exclude):
        return False
    if roles and roles <= _LIFE and values <= {y for t in texts for y, r in _lifespans(t) if r in roles}:
        return True  # "born in 1815" and "(10 December 1815 – 27 November 1852)"
    for text in texts:
        for sentence in page_sentences(text):
            words = re.findall(r"\w+", fold(sentence))
            if not values <= set(words):
                continue
            stems = {stem(w) for w in words}
            if roles <= stems:
                return True
    return False


def _worded_in(fact: str, texts: Sequence[str], exclude: tuple[str, ...]) -> bool:
    """A fact without a number or a place is stated outright where one page sentence has every content word of
    it, three at least, and the same negation or none: "The K2 has a two-year warranty on the heating element"
    for "… comes with a two-year warranty on its heating element" (not where "kettle" is one word more)."""
    words = role_words(fact, exclude)
    if len(words) < 3:
        return False
    negated = bool(_negations(fact))
    # An order is part of what is said: "her second novel" is not "her debut novel".
    orders = [_ORDERS[w] for w in re.findall(r"\w+", fold(fact)) if w in _ORDERS]
    for text in texts:
        for said, sentence_negated in _page_words(text):
            stems = {stem(w) for w in said}
            stems |= {general for general, kinds in KINDS.items() if kinds & stems}
            if words <= stems and sentence_negated == negated and all(set(said) & order for order in orders):
                return True
    return False


@lru_cache(maxsize=2048)
def _page_words(text: str) -> tuple[tuple[tuple[str, ...], bool], ...]:
    """Each page sentence of ``text`` as folded words, and whether it is negated: read once per passage, not
    once per fact checked against it."""
    return tuple(
        (tuple(re.findall(r"\w+", fold(sentence))), bool(_negations(sentence))) for sentence in page_sentences(text)
    )


# A general word a page's more particular one says too: a novel or a memoir is a book ("her first book was The
# Ochre Houses" where the page has "her debut novel, The Ochre Houses"); not the other way round.
# Guests, pupils and visitors are people ("upwards of five thousand people sat across the desk from her" where the
# page has "she interviewed more than 5,000 guests").
_PEOPLE = frozenset(
    stem(w)
    for w in "guest visitor student pupil patient spectator listener viewer attendee fan employee worker member "
    "volunteer participant resident passenger customer client reader delegate".split()
)
KINDS = {
    stem("book"): frozenset(stem(w) for w in "novel novella memoir autobiography biography cookbook".split()),
    stem("people"): _PEOPLE,
    stem("person"): _PEOPLE,
}


def says_kind(said: str, general: str) -> bool:
    """Whether a page's word ``said`` says the answer's ``general`` one: the same word, or a particular kind of
    it ("novels" says "books"; "books" does not say "novels")."""
    said, general = stem(fold(said).rstrip("s")), stem(fold(general).rstrip("s"))
    return said == general or said in KINDS.get(general, frozenset())


_ORDERS = {
    "first": frozenset({"first", "debut", "maiden", "earliest"}),
    "debut": frozenset({"first", "debut", "maiden", "earliest"}),
    **{w: frozenset({w}) for w in "second third fourth fifth sixth last final only".split()},
    "latest": frozenset({"latest", "last", "newest", "recent"}),
}


def _negations(text: str) -> set[str]:
    return {w for w in re.findall(r"[\w']+", fold(text)) if w in NEGATIONS or w.endswith("n't")}


# Where a page sentence passes from one predicate to another: "…, and won it in 2018", "…, leading them to the
# title in 2021", "…, which he left in 2019".
_PREDICATE_BREAK = re.compile(r",?\s+(?:and|but|before|after)\s+(?=[a-z])|,\s+(?=[a-z]+ing\b|which\b|where\b)")
# A part that says the predicate before it again: "named … in 2012 and again in 2019", "and once more in 2014".
_AGAIN = re.compile(r"^\s*(?:again|once more|once again)\b", re.IGNORECASE)


def rebound_years(fact: str, texts: Sequence[str], exclude: Iterable[str] = ()) -> list[Value]:
    """The fact's year where a page sentence about the same thing gives that year to another predicate and the
    fact's own predicate another year: "won the Meridian Ocean Race in 2014" where the page says "He competed in
    the Meridian Ocean Race in 2014, finishing fourth, and won it in 2018". A value bound to the wrong event.

    The fact's predicate words are its content words that are no name; the sentence must name what the fact
    names (its capitalised words other than the subject), the other predicate must name it too or point back to
    it ("won it"; not "won the national championship …, and took the title at the Tour in 2017"), and no page
    clause may hold the fact's year with one of the fact's predicate words."""
    exclude = tuple(exclude)
    years = [v for v in fact_values(fact, exclude) if v.kind == "year"]
    if len(years) != 1:
        return []
    year = years[0].text
    own = {fold(w) for text in exclude for w in re.findall(r"\w+", text)}
    names = {fold(w) for w in re.findall(r"(?<!^)\b[A-Z][\w'’-]*", fact)} - own - _STOP
    predicate = role_words(fact, (*exclude, year)) - {stem(n) for n in names}
    if not names or not predicate:
        return []
    clauses: list[tuple[set[str], set[str]]] = []
    for text in texts:
        for sentence in page_sentences(text):
            before: set[str] = set()
            for c in _PREDICATE_BREAK.split(sentence):
                words = set(re.findall(r"\w+", fold(c)))
                stems = {stem(w) for w in words}
                if _AGAIN.match(c):
                    stems |= before  # "… in 2012 and again in 2019": 2019 is the predicate's before it too
                clauses.append((words, stems))
                before = stems
    if any(year in words and predicate & stems for words, stems in clauses):
        return []  # the page gives the year to the fact's own predicate somewhere
    for text in texts:
        for sentence in page_sentences(text):
            if not names <= set(re.findall(r"\w+", fold(sentence))):
                continue
            parts = [set(re.findall(r"\w+", fold(c))) for c in _PREDICATE_BREAK.split(sentence)]
            if not any(year in p for p in parts):
                continue
            # What the year's own part names (all the fact's names when it names none): "won the German national
            # championship …, and took the title at the Tour … in 2017" shares "German" with the fact's subject ("A
            # German former road racer won the Tour … in 2017"), not the Tour the year is of.
            named_here = (names & set().union(*(p for p in parts if year in p))) or names
            for p in parts:
                rivals = {w for w in p if re.fullmatch(r"\d{4}", w)} - {year}
                # The other predicate is of the same thing: it names it, or points back to it ("won it").
                same = bool(named_here & p) or bool(p & {"it", "them", "which"})
                if rivals and same and year not in p and predicate & {stem(w) for w in p}:
                    return [years[0]]
    return []
