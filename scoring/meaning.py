"""What a fact says beyond its words: whether it is negated, which rank it gives, which award it names.

The verify rules ``negation-mismatch``, ``rank-mismatch`` and ``unlisted-award`` (``scoring.verify``) read
these against a page: a page clause that says the fact's predicate with the other polarity ("It supports
Z-Wave natively" and "It does not support Z-Wave"), the fact's thing with another rank ("first prize at the
Vestfold Competition" and "second prize at the Vestfold Competition"), or a page that lists the person's
awards without the one the fact names.

Everything here is lexical (folded words and their role stems, ``scoring.roles.stem``): a clause is a page
sentence cut where "and"/"but"/"which" or a semicolon opens another predicate, so a negation or a rank counts
only beside the words it bears on.

>>> negation_conflict("It supports Z-Wave natively.", ["It does not support Z-Wave."], ("It",))
0
>>> rank_conflict("She won first prize at Vestfold.", ["She won second prize at Vestfold."], ("She",))
0
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from scoring.roles import page_sentences, stem
from vocabulary import ROLE_STOPWORDS
from vocabulary import fold_ascii as fold

# Words that negate the predicate of their clause (spaCy's ``neg`` dependents and their kin): "not", "n't",
# "never", "no longer", "neither"/"nor", "cannot", "no" before what is had ("has no children").
_NEGATORS = frozenset("not never neither nor cannot no none".split())
# Function words a predicate is read without: auxiliaries, negators, pronouns, "longer" of "no longer".
_SKIP = (
    ROLE_STOPWORDS
    | _NEGATORS
    | frozenset(
        "does did do doing done can could would will should shall might must ever longer any natively also still "
        "him them its our your you we i me us remain remains remained stay stays stayed become becomes became "
        "actually indeed really instead however".split()
    )
)
# Where a clause ends: "…, and won it in 2018", "…, but never …", "…, which …", "; ".
_CLAUSE_BREAK = re.compile(r",?\s+(?:and|but|whereas|while|although|though)\s+|,\s+(?=which\b|who\b|where\b)|;\s+|:\s+")
# Who a page clause with a single predicate word must be about: the subject named or a pronoun for it.
_PRONOUN_SUBJECT = re.compile(r"^(?:he|she|they|it|this|the)\b", re.IGNORECASE)


def _words(text: str) -> list[str]:
    # "No. 1" numbers a work; it negates nothing.
    return re.findall(r"[\w']+", _NUMBERED.sub("number ", fold(text)))


_NUMBERED = re.compile(r"\bno\.?\s*(?=\d)", re.IGNORECASE)


def _negated(words: Sequence[str]) -> bool:
    return any(w in _NEGATORS or w.endswith("n't") for w in words)


@dataclass(frozen=True)
class _Clause:
    text: str
    words: tuple[str, ...]
    # Predicate stems (function words skipped; the subject's words are kept: no fact's predicate has them),
    # each with whether an "un-" word negates it.
    stems: dict[str, bool]
    # The stems a negating word bears on: one of the three words after it ("did not receive", "has never
    # married", "no longer married"; not "not only", and not "not young" for "arrived").
    negated: frozenset[str]
    # Its words as a set, built once per clause rather than once per fact compared with it.
    present: frozenset[str] = frozenset()


@lru_cache(maxsize=1024)  # a page passage's clauses: ~20 KB each (see ``verifier.features._windows``)
def _clauses(text: str) -> tuple[_Clause, ...]:
    """The clauses of a page passage, read once per passage however many facts are checked against it."""
    out: list[_Clause] = []
    for sentence in page_sentences(text):
        for clause in _CLAUSE_BREAK.split(sentence):
            if clause.strip():
                words = tuple(_words(clause))
                # An "un-" word in parentheses is an aside, not the clause's predicate ("(date of death unknown)").
                outside = _predicate(_words(_PARENTHESES.sub(" ", clause)), _SKIP)
                stems = {k: v and outside[k] for k, v in _predicate(words, _SKIP).items() if not v or k in outside}
                out.append(_Clause(clause.strip(), words, stems, _negated_stems(words), frozenset(words)))
    return tuple(out)


_PARENTHESES = re.compile(r"\([^()]*\)")
# How far after a negating word the word it negates may be.
_SCOPE = 3


def _negated_stems(words: Sequence[str]) -> frozenset[str]:
    out: set[str] = set()
    for i, w in enumerate(words):
        if not (w in _NEGATORS or w.endswith("n't")) or (i + 1 < len(words) and words[i + 1] == "only"):
            continue
        if "until" in words[i + 1 :]:
            continue  # "not … until the reign of": when, not whether
        for after in words[i + 1 : i + 1 + _SCOPE]:
            out.update(_predicate([after], _SKIP))
    return frozenset(out)


@lru_cache(maxsize=8192)
def _polar(text: str) -> bool:
    """Whether some clause of the passage negates or has an "un-" word (else no fact's negation can conflict
    with it unless the fact is negated)."""
    return bool(_POLAR_CUE.search(fold(text))) and any(c.negated or any(c.stems.values()) for c in _clauses(text))


def _predicate(words: Iterable[str], skip: frozenset[str]) -> dict[str, bool]:
    """The clause's predicate stems, each with whether an "un-" word negates it ("unmarried" -> marr, True)."""
    out: dict[str, bool] = {}
    for w in words:
        if w in skip or len(w) < 3 or w.isdigit() or w.endswith("n't"):
            continue
        if w.startswith("un") and len(w) >= 7:
            out[stem(w[2:])] = True
            continue
        out.setdefault(stem(w), False)
    return out


def negation_conflict(fact: str, texts: Sequence[str], exclude: Iterable[str] = ()) -> int | None:
    """The index of the text holding a clause that says the fact's predicate with the other polarity, and no
    clause with the same one; None when there is none.

    A clause says the fact's predicate when it holds the fact's numbers and all its predicate stems but at
    most one (an adverb: "natively"), two at least; a fact of one predicate word ("has never married") needs a
    clause about the subject (named, or a pronoun) that holds that word ("She has been married to …").
    Polarity is a negating word in the clause ("not", "n't", "never", "no longer") or an "un-" word where the
    other side has the positive ("remained unmarried" and "is married to").
    """
    return _negation_conflict(fact, tuple(texts), tuple(exclude))


@dataclass(frozen=True)
class _FactSide:
    """What the negation rule reads of a fact, once per fact and subject."""

    stems: dict[str, bool]
    predicate: dict[str, bool]
    names: frozenset[str]
    numbers: frozenset[str]
    negated: bool
    subject: frozenset[str]


@lru_cache(maxsize=8192)
def _fact_side(fact: str, exclude: tuple[str, ...]) -> _FactSide | None:
    subject = frozenset(w for name in exclude for w in _words(name))
    skip = _SKIP | subject
    fact_words = _words(fact)
    stems = _predicate(fact_words, skip)
    # The fact's names (capitalised words after its first) anchor it; its other words are its predicate.
    capitalised = {fold(w) for i, w in enumerate(re.findall(r"[\w']+", fact)) if i > 0 and w[:1].isupper()}
    names = frozenset(_predicate(capitalised, skip))
    predicate = {k: v for k, v in stems.items() if k not in names}
    if not predicate:
        return None
    numbers = frozenset(w for w in fact_words if w.isdigit())
    negated = _negated(fact_words) and "until" not in fact_words
    return _FactSide(stems, predicate, names, numbers, negated, subject)


# A cue of polarity in a passage: without one, no clause of it negates.
_POLAR_CUE = re.compile(r"\b(?:not|never|neither|nor|cannot|no|none)\b|n['’]t\b|\bun\w{5}", re.IGNORECASE)


@lru_cache(maxsize=8192)
def _polar_fact(fact: str) -> bool:
    return bool(_POLAR_CUE.search(fold(fact)))


@lru_cache(maxsize=8192)
def _negation_conflict(fact: str, texts: tuple[str, ...], exclude: tuple[str, ...]) -> int | None:
    if not _polar_fact(fact) and not any(_polar(t) for t in texts):
        return None  # neither side has a cue of polarity
    side = _fact_side(fact, exclude)
    if side is None:
        return None
    stems, predicate, names, numbers, fact_polarity, subject = (
        side.stems,
        side.predicate,
        side.names,
        side.numbers,
        side.negated,
        side.subject,
    )
    fact_polar = fact_polarity or any(predicate.values())
    same = False
    other: int | None = None
    for ti, text in enumerate(texts):
        if not fact_polar and not _polar(text):
            continue  # neither side negates: nothing to conflict
        for clause in _clauses(text):
            present = clause.present
            if not numbers <= present:
                continue
            said = clause.stems
            if not names <= said.keys():
                continue
            found = [s for s in predicate if s in said]
            if not found or len(found) < len(predicate) - 1:
                continue
            if len(stems) == 1 and not (subject & present or _PRONOUN_SUBJECT.match(clause.text)):
                continue  # one word alone ("married") must be said of the subject
            # An "un-" word on either side flips that side's polarity for its stem.
            page_polarity = bool(clause.negated.intersection(found)) != any(said[s] for s in found)
            polarity = fact_polarity != any(stems[s] for s in found)
            if page_polarity == polarity:
                same = True
            elif other is None:
                other = ti
    return None if same else other


# A clause that times its negation says when, not whether: "did not marry until 1960", "never again raced".
_WHEN = frozenset("until till before after again yet then since".split())
# Who a negated page clause is about where it names nobody: a personal pronoun in its sentence.
_PERSONAL = frozenset("he she they his her their".split())


def negation_stated(fact: str, texts: Sequence[str], exclude: Iterable[str] = ()) -> int | None:
    """The index of the text holding a clause that says a negated fact's predicate negated too, about the subject
    (named or a personal pronoun in its sentence), and no clause with the other polarity; None otherwise.

    Every predicate stem of the fact must be in the clause, and its numbers and names; "remained unmarried" is the
    negation of "married" on either side. A clause that times its negation ("did not marry until 1960") says
    nothing of whether.

    >>> negation_stated("Quill never married.", ["She never owned a car and never married."], ("Quill",))
    0
    >>> negation_stated("Quill never married.", ["She did not marry until 1960."], ("Quill",)) is None
    True
    """
    return _negation_stated(fact, tuple(texts), tuple(exclude))


def _alternatives(words: Sequence[str], wanted: Iterable[str]) -> set[str]:
    """The stems of ``words`` that stand beside one of ``wanted`` across "or"/"nor" ("Olympic or world": olymp
    where world is wanted)."""
    wanted = set(wanted)
    out: set[str] = set()
    for i, w in enumerate(words):
        if w in ("or", "nor") and 0 < i < len(words) - 1:
            left, right = stem(words[i - 1]), stem(words[i + 1])
            if left in wanted:
                out.add(right)
            if right in wanted:
                out.add(left)
    return out


@lru_cache(maxsize=8192)
def _negation_stated(fact: str, texts: tuple[str, ...], exclude: tuple[str, ...]) -> int | None:
    side = _fact_side(fact, exclude)
    if side is None:
        return None
    fact_polarity = side.negated != any(side.stems[s] for s in side.predicate)
    if not fact_polarity or _WHEN & set(_words(fact)):
        return None
    same: int | None = None
    for ti, text in enumerate(texts):
        for sentence in page_sentences(text):
            sentence_words = set(_words(sentence))
            about = bool(side.subject & sentence_words or _PERSONAL & sentence_words)
            for clause in _clauses(sentence):
                present = clause.present
                if not side.numbers <= present or not side.names <= clause.stems.keys():
                    continue
                found = [s for s in side.predicate if s in clause.stems]
                if not found or len(found) < len(side.predicate) - 1:
                    continue
                page_polarity = bool(clause.negated.intersection(found)) != any(clause.stems[s] for s in found)
                if not page_polarity:
                    if about or len(found) == len(side.predicate):
                        return None  # a clause says it with the other polarity
                    continue
                if len(found) < len(side.predicate) or not about or _WHEN & present or same is not None:
                    continue
                # A negation is said of the narrower thing only: "never won an Olympic gold medal" is not "never
                # won an Olympic medal"; an alternative of the fact's word ("an Olympic or world title") is.
                extra = set(clause.stems) - set(side.stems) - {stem(w) for w in side.subject}
                if extra <= _alternatives(clause.words, side.stems.keys()):
                    same = ti
    return same


# Ranks: the level a word gives ("gold" and "first prize" are 1, "silver", "runner-up" and "finalist" 2).
_ORDINALS = {
    "first": 1,
    "1st": 1,
    "second": 2,
    "2nd": 2,
    "third": 3,
    "3rd": 3,
    "fourth": 4,
    "4th": 4,
    "fifth": 5,
    "5th": 5,
    "sixth": 6,
    "6th": 6,
}
_MEDALS = {"gold": 1, "silver": 2, "bronze": 3}
_RANK_NOUNS = r"(?:prize|place|position|spot|medal|finish|runner[- ]up)"
_RANK = re.compile(
    rf"\b(?P<ord>{'|'.join(_ORDINALS)})(?:[- ]place)?\s+{_RANK_NOUNS}|"
    rf"\b(?:finish(?:ed|ing)?|came|placed|plac(?:ing)|ended|ranked|took)\s+(?P<ord2>{'|'.join(_ORDINALS)})\b|"
    r"\b(?P<medal>gold|silver|bronze)\b|"
    # a semi-finalist or quarter-finalist reached a round, no rank
    r"\b(?P<two>runners?[- ]up|(?<!semi-)(?<!semi )(?<!quarter-)(?<!quarter )finalists?|lost (?:in )?the final|"
    r"beaten finalists?)\b|"
    r"\b(?P<one>winners?|champions?|won the final|victor)\b|"
    # "the second-best result", "third-best archer"
    rf"\b(?P<best>{'|'.join(_ORDINALS)})[- ]best\b",
    re.IGNORECASE,
)
# Whom a rank is measured against, not whose it is: "behind the winner", "next-best after the overall champion".
_AGAINST = re.compile(
    r"\b(?:behind|after|than|to|beat|beating|by)\s+(?:the\s+)?(?:eventual\s+|overall\s+|reigning\s+)?$", re.I
)
# Words of a rank expression, left out of what anchors a fact to a page clause.
_RANK_WORDS = frozenset(
    {*_ORDINALS, *_MEDALS}
    | set(
        "prize place position spot medal finish runner up finalist finalists winner winners champion champions "
        "final victor placed came ranked took won win".split()
    )
)


# "won" with what it won after it: first place, unless a rank follows ("won second prize", "won the silver").
_WON = re.compile(r"\bwon\b(?P<after>(?:\s+[\w-]+){0,3})", re.IGNORECASE)


def ranks(text: str, won: bool = False) -> frozenset[int]:
    """The rank levels ``text`` gives ("won second prize" -> {2}; "the gold medal" -> {1}); with ``won``, a page's
    "won it", "won the Meridian Ocean Race" gives first place too (a fact's "won" is read by the stance model)."""
    out: set[int] = set()
    if won and any(not ranks(m.group("after")) for m in _WON.finditer(text)):
        out.add(1)
    for m in _RANK.finditer(text):
        word = (m.group("ord") or m.group("ord2") or "").lower()
        if word:
            out.add(_ORDINALS[word])
        elif m.group("medal"):
            out.add(_MEDALS[m.group("medal").lower()])
        elif m.group("two"):
            out.add(2)
        elif m.group("one"):
            if not _AGAINST.search(text[: m.start()]):
                out.add(1)
        elif m.group("best"):
            out.add(_ORDINALS[m.group("best").lower()])
    return frozenset(out)


def rank_conflict(fact: str, texts: Sequence[str], exclude: Iterable[str] = ()) -> int | None:
    """The index of the text holding a clause that gives the fact's thing another rank, and none that gives it
    the fact's; None when there is none or the fact gives no rank.

    The fact's thing is what anchors it: its capitalised names other than the subject's and its numbers (the
    competition, the year), all in the clause ("won first prize at the Vestfold Competition in 1985" against
    "won second prize at the Vestfold International Cello Competition in 1985" -> refuted).
    """
    return _rank_conflict(fact, tuple(texts), tuple(exclude))


@lru_cache(maxsize=8192)
def _rank_conflict(fact: str, texts: tuple[str, ...], exclude: tuple[str, ...]) -> int | None:
    fact_ranks = ranks(fact)
    if len(fact_ranks) != 1:
        return None
    names = {w for name in exclude for w in _words(name)}
    anchor = {
        fold(re.sub(r"['’]s$", "", w))
        for i, w in enumerate(re.findall(r"[\w'’-]+", fact))
        if (w[:1].isupper() and i > 0 and len(w) > 2) or w.isdigit()
    }
    anchor = {w for w in anchor if w not in names and w not in _RANK_WORDS and w not in ROLE_STOPWORDS}
    if not anchor:
        return None
    content = {
        w
        for w in _words(fact)
        if len(w) > 2 and w not in names and w not in anchor and w not in _RANK_WORDS and w not in _SKIP
    }
    same = False
    other: int | None = None
    for ti, text in enumerate(texts):
        for sentence in page_sentences(text):
            words = set(_words(sentence))
            if not anchor <= words:
                continue
            for given in _ranks_given(sentence, anchor, content):
                if fact_ranks <= given:
                    same = True
                elif given and other is None:
                    other = ti
    return None if same else other


def _ranks_given(sentence: str, anchor: set[str], content: set[str]) -> list[frozenset[int]]:
    """The ranks a page sentence gives the thing of a fact (``anchor``: its names and numbers, ``content``: its other
    words): the sentence's, or, where it gives several ranks ("won the gold medal for a viola at the Cremona
    Triennial in 1991 and a silver medal for a cello at the same competition in 1997"), those of its clauses that
    hold the anchor (a clause without names of its own has the sentence's) and most of the fact's other words."""
    given = ranks(sentence, won=True)
    if len(given) < 2:
        return [given]
    names = {fold(w) for w in re.findall(r"[\w'’-]+", sentence) if w[:1].isupper()}
    clauses = []
    for part in _CLAUSE_BREAK.split(sentence):
        words = set(_words(part))
        if not any(w[:1].isupper() for w in re.findall(r"[\w'’-]+", part)[1:]):
            words |= names
        if anchor <= words:
            clauses.append((len(content & words), ranks(part, won=True)))
    if not clauses:
        return [given]
    best = max(n for n, _ in clauses)
    return [r for n, r in clauses if n == best]


# An award the fact says the subject won: a verb of receiving, then a capitalised name that is an award's.
_AWARD_VERB = re.compile(
    r"\b(?:won|wins?|winning|received?|receiving|awarded|earned|earns?|given|granted|named|voted|"
    r"honou?red with|picked up|took home|collected|was inducted into)\b",
    re.IGNORECASE,
)
_AWARD_KIND = (
    r"(?:Awards|Award|Prizes|Prize|Medal|Trophy|Cup|Order|Cross|Honou?r|Fellowship|Laureate|Of The Year|of the Year)"
)
_AWARD_NAME = re.compile(
    rf"(?:[A-Z][\w'’&.-]*\s+(?:(?:of|the|for|and|de|in|on)\s+)*)+{_AWARD_KIND}(?:\s+(?:of|for|in)\s+[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*)?"
    rf"|{_AWARD_KIND}\s+(?:of|for)\s+(?:the\s+)?[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*"
)
_AWARD_WORDS = re.compile(r"\b(?:awards?|prizes?|medals?|trophy|trophies|honou?rs?|fellowship|of the year)\b", re.I)
# Words of an award's name that tell no award from another.
_GENERIC_AWARD = frozenset(
    "award awards prize medal trophy cup order cross honour honor fellowship laureate year the of for and in on de "
    "national international best annual grand golden gold silver bronze special lifetime achievement".split()
)


@lru_cache(maxsize=8192)
def named_awards(fact: str) -> tuple[str, ...]:
    """The award names a fact says its subject received ("won the Lindeman Prize" -> ("Lindeman Prize",))."""
    if not _AWARD_VERB.search(fact):
        return ()
    return tuple(m.group(0).strip() for m in _AWARD_NAME.finditer(fact))


def unlisted_awards(
    fact: str, texts: Sequence[str], exclude: Iterable[str] = (), acronyms: frozenset[str] = frozenset()
) -> tuple[str, ...]:
    """The awards the fact says the subject received that a page listing the subject's awards does not name:
    an award name none of whose page sentences holds all its distinctive words (an acronym may stand for a name
    whose initials it is: ``acronyms``). Empty when the fact names no award or the page lists none."""
    found = named_awards(fact)
    if not found or not any(_AWARD_WORDS.search(t) for t in texts):
        return ()
    names = {w for name in exclude for w in _words(name)}
    # A giver's possessive is its name ("the American Bridge Society's Eads Medal" is the page's "Eads Medal of the
    # American Bridge Society").
    sentences = [{_unpossessed(w) for w in _words(s)} for t in texts for s in page_sentences(t)]
    out: list[str] = []
    for award in found:
        own = {
            _unpossessed(w) for w in _words(award) if w not in _GENERIC_AWARD and w not in names and len(w) > 1
        } - _GENERIC_AWARD
        if not own:
            continue
        if any(own <= s | acronyms for s in sentences):
            continue
        out.append(award)
    return tuple(out)


def _unpossessed(word: str) -> str:
    return word[:-2] if word.endswith(("'s", "’s")) and len(word) > 3 else word


# Predicates with one value each (a birthplace, a death place): "was not born in Bergen" holds where the page
# gives another place. A year dates one event, so it counts for every predicate.
_ONE_PLACE = frozenset({stem("born"), stem("died")})
_YEAR = re.compile(r"^\d{4}$")


def negated_value_stated(fact: str, texts: Sequence[str], exclude: Iterable[str] = ()) -> int | None:
    """The index of the text holding a clause that says the negated fact's predicate, not negated, with another
    value than the fact's (another year; for a birth or a death, another place), where no clause gives the fact's
    value to it: the page says the negated fact holds ("was not born in Bergen" and "born 1961 in Oslo"; "did
    not win the prize in 2001" and "won the prize in 1999"). None otherwise."""
    return _negated_value_stated(fact, tuple(texts), tuple(exclude))


@lru_cache(maxsize=8192)
def _negated_value_stated(fact: str, texts: tuple[str, ...], exclude: tuple[str, ...]) -> int | None:
    words = _words(fact)
    if not _negated(words):
        return None
    subject = {w for name in exclude for w in _words(name)}
    skip = _SKIP | subject
    raw = re.findall(r"[\w'’-]+", fact)
    years = {w for w in raw if _YEAR.match(w)}
    capitalised = {fold(w) for i, w in enumerate(raw) if i > 0 and w[:1].isupper()} - subject
    stems = _predicate(words, skip)
    names = set(_predicate(capitalised, skip))
    predicate = {s for s in stems if s not in names}
    places = capitalised if predicate and predicate <= _ONE_PLACE else set()
    if not predicate or not (years or places):
        return None
    other: int | None = None
    for ti, text in enumerate(texts):
        for c in _clauses(text):
            clause, clause_words, said = c.text, c.words, c.stems
            if not predicate <= said.keys() or c.negated & predicate or any(said[s] for s in predicate):
                continue
            present = c.present
            if not places and not capitalised <= present:
                continue  # another prize, club or work than the fact's
            if years & present or places & present:
                return None  # the page gives the fact's own value: negation-mismatch's to judge
            clause_years = {w for w in clause_words if _YEAR.match(w)}
            clause_places = {
                fold(w) for i, w in enumerate(re.findall(r"[\w'’-]+", clause)) if i > 0 and w[:1].isupper()
            }
            if (years and clause_years - years) or (places and clause_places - subject - places):
                other = ti if other is None else other
    return other
