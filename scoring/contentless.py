"""Facts the decomposer built that carry nothing a page could confirm, read on the sentence's parse.

A clause cut from what it was about leaves a fact with a subject and a light verb alone ("He left.", "He found.",
"She stayed."), an object that points back at what the fact does not say ("He took it.", "She is the one."), or a
time with nothing to fix it ("Set up his own shop the year." from "… the year after leaving Accra"). No page can
support such a fact, so it only ever counts against the answer; it is not kept (the sentence's other facts, the
core of the clause among them, are). A fact with a value, a name, a negation or a content word of its own stays:
"She retired.", "He never married.", "He won it.", "She took the title.", "He was born in 1950."

The rules read the parse the fact was built from (its token ids into the sentence's ``Doc``): no parse of its own.

>>> from scoring import nlp
>>> doc = nlp.parse_one("He took it when they married in 1998.", frozenset())
>>> bool(_light_predicate(Built(doc, frozenset({0, 1, 2}))))
True
"""

from __future__ import annotations

import re
from collections.abc import Set
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from scoring import nlp
from scoring.rules import Rule, register, run
from vocabulary import NEGATIONS
from vocabulary.document import LABEL_WORDS, SECTION_WORDS
from vocabulary.english import (
    COMPARING_WORDS,
    DANGLING_NOUNS,
    EMPTY_ADVERBS,
    EMPTY_OBJECTS,
    GENERIC_NOUNS,
    LIGHT_VERBS,
    STRANDED_PREPOSITIONS,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"})
_NEUTRAL_DEPS = frozenset({"det", "aux", "auxpass", "punct", "poss", "case", "cc", "predet"})
# Entity kinds that are values: a fact with one of them has something to check.
_VALUE_ENTS = frozenset({"DATE", "TIME", "CARDINAL", "ORDINAL", "QUANTITY", "MONEY", "PERCENT"})
_OBJECT_DEPS = frozenset({"dobj", "obj", "pobj", "dative", "attr", "oprd"})
_BARE_ADVERBIAL = frozenset({"npadvmod", "tmod"})
# A person as a copula's complement ("tl;dr he's HIM"); a possessive one says whose ("The crown was his") and stays.
_PERSONS = frozenset("he him she her they them".split())
_LABELS = LABEL_WORDS | SECTION_WORDS
_LABEL_JOINERS = frozenset(("and", "&", "/", "of"))
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


@dataclass(frozen=True)
class Built:
    """A fact as the decomposer built it: the sentence's parse and the ids of the tokens the fact is made of."""

    doc: Doc
    tokens: frozenset[int]


@dataclass(frozen=True)
class Dropped:
    """A fact with nothing to check: not kept."""

    decided_by: str = ""

    def stamped(self, name: str) -> Dropped:
        return replace(self, decided_by=name)


def _predicate(doc: Doc, ids: Set[int]) -> Token | None:
    """The fact's verb (or copula): the one verbal word of the fact whose head is not in the fact; None when the fact
    has no such word, or several (a fact built round a noun, "Ada Brook is sixty-four productions directed")."""
    roots = [doc[i] for i in ids if doc[i].head.i == i or doc[i].head.i not in ids]
    verbs = [t for t in roots if t.pos_ in ("VERB", "AUX") and t.dep_ not in ("aux", "auxpass")]
    if len(verbs) != 1 or any(t.dep_ not in _SUBJECT_DEPS for t in roots if t is not verbs[0]):
        return None
    return verbs[0]


def _said(doc: Doc, ids: Set[int], verb: Token) -> list[Token]:
    """The fact's words that say something of its subject: all but its subject (an inherited one among them)."""
    subject: set[int] = set()
    for i in ids:
        t = doc[i]
        if t.dep_ in _SUBJECT_DEPS and (t.head.i == verb.i or t.head.i not in ids):
            subject |= {s.i for s in t.subtree}
    return [doc[i] for i in sorted(ids) if i not in subject]


def _has_value(tokens: list[Token]) -> bool:
    """A number, a date, a name or a negation: something a page can confirm or deny."""
    for t in tokens:
        low = t.lower_
        if low in NEGATIONS or t.dep_ == "neg" or low.endswith("n't"):
            return True
        if t.ent_type_ in _VALUE_ENTS or t.pos_ == "PROPN" or any(c.isdigit() for c in t.text):
            return True
        if t.like_num and low not in ("one", "ones"):
            return True
    return False


def _has_number(tokens: list[Token]) -> bool:
    """A number anywhere in the fact, its subject too ("that 2.5-gig port is the one"): a value a page can deny; a
    digit inside a name ("The AX3200") is the name's."""
    return any(
        t.pos_ != "PROPN"
        and t.lower_ not in GENERIC_NOUNS
        and (t.ent_type_ in _VALUE_ENTS or any(c.isdigit() for c in t.text))
        for t in tokens
    )


def _empty_word(t: Token, verb: Token, ids: Set[int], copula: bool) -> bool:
    """Whether ``t``, a word of the predicate other than the verb, adds nothing a page could confirm."""
    low = t.lower_
    if t.dep_ in _NEUTRAL_DEPS or t.pos_ in ("PUNCT", "PART", "DET"):
        return True
    if t.dep_ in _OBJECT_DEPS and (low in EMPTY_OBJECTS or (copula and t.dep_ == "attr" and low in _PERSONS)):
        return True
    if copula and t.dep_ == "attr" and low in GENERIC_NOUNS:
        return True
    if t.dep_ == "amod" and low in COMPARING_WORDS and t.head.lower_ in GENERIC_NOUNS:
        return True
    if t.dep_ == "prep" or t.pos_ == "ADP":
        # a preposition says as much as its object in the fact (read on its own); one the sentence left with no
        # object at all lost what it was about ("argued over", "started as")
        children = list(t.children)
        return all(c.i in ids for c in children) and (bool(children) or low in STRANDED_PREPOSITIONS)
    if t.dep_ == "advmod" and low in EMPTY_ADVERBS:
        return True
    return False


def _light_predicate(case: Built) -> Dropped | None:
    """A subject and a light verb (or a copula) with nothing else of its own: "He left.", "He took it.", "She is
    the one.", "He held onto it.", "Every one of them argued over."."""
    doc, ids = case.doc, case.tokens
    verb = _predicate(doc, ids)
    if verb is None:
        return None
    lemma = nlp.lemma(verb).lower()  # the lemmatizer runs for this one word (the parse leaves it out)
    copula = lemma == "be"
    if not copula and lemma not in LIGHT_VERBS:
        return None
    said = [t for t in _said(doc, ids, verb) if t.i != verb.i]
    if _has_value(said) or _has_value([verb]) or _has_number([doc[i] for i in ids]):
        return None
    if copula and not any(t.dep_ == "attr" for t in said):
        return None  # "She was there", "It was late": a copula needs its complement read, not this rule
    if any(t.dep_ == "prt" and t.lower_ not in STRANDED_PREPOSITIONS for t in said):
        return None  # "stepped down", "gave up": the particle makes the verb's meaning
    if not all(_empty_word(t, verb, ids, copula) for t in said):
        return None
    return Dropped()


def _dangling_time(case: Built) -> Dropped | None:
    """A time or place set by "the" and a noun alone, the words after it that fixed it cut off: "… his own shop the
    year." (from "the year after leaving Accra"), "Child arrived the year." (from "the year the Wall came down")."""
    doc, ids = case.doc, case.tokens
    for i in ids:
        t = doc[i]
        if t.dep_ not in _BARE_ADVERBIAL or t.lower_ not in DANGLING_NOUNS:
            continue
        if [c.lower_ for c in t.children if c.i in ids] != ["the"] or i + 1 >= len(doc):
            continue
        after = doc[i + 1]
        if after.i not in ids and not after.is_punct:
            return Dropped()
    return None


def _label_complement(case: Built) -> Dropped | None:
    """A copula whose complement is a heading in capitals made only of label words ("He was BACKGROUND." from a line
    "BACKGROUND", "BRIEFING NOTE is OFFICIAL.", "She was PERSONAL."): a section's label read as what its person is."""
    doc, ids = case.doc, case.tokens
    verb = _predicate(doc, ids)
    if verb is None or nlp.lemma(verb).lower() != "be":
        return None
    said = [t for t in _said(doc, ids, verb) if t.i != verb.i and not t.is_punct]
    words = [t for t in said if t.lower_ not in _LABEL_JOINERS]
    if not words or not all(t.text.isupper() and t.lower_ in _LABELS for t in words):
        return None
    return Dropped()


LIGHT_PREDICATE = "light-predicate"
DANGLING_TIME = "dangling-time"
LABEL_COMPLEMENT = "label-complement"

# The rules that leave out a fact with nothing to check, in their precedence (either drops the fact).
CONTENT_RULES: tuple[Rule[Built, Dropped], ...] = register(
    Rule(
        LIGHT_PREDICATE,
        "decompose",
        "a fact whose predicate is a light verb or a copula with nothing of its own — no object, an object that points "
        "back ('it', 'them', 'that'), 'the one', a preposition left with no object — and no value, name or negation "
        "('He left.', 'He took it.', 'She is the one.', 'He held onto it.', 'Every one of them argued over.') is not "
        "kept: no page could support it. 'She retired.', 'He never married.', 'He won it.', 'She took the title.', "
        "'She stepped down.' stay",
        ("He left.", "He took it when they married in 1998.", "She is the one who won the prize."),
        _light_predicate,
    ),
    Rule(
        DANGLING_TIME,
        "decompose",
        "a fact whose time is 'the' and a noun alone ('the year', 'the day'), the words that fixed it cut off ('set "
        "up his own shop the year [after leaving Accra]', 'arrived the year [the Wall came down]'), is not kept; the "
        "fact without that time is. 'That year', 'the same year', 'the year 1990' and 'spent the year in Paris' "
        "stay",
        (
            "Set up his own shop in Dublin the year after leaving Accra.",
            "A child of Łódź who arrived in the world the year the Wall came down.",
            "She moved to Oslo the day her daughter was born.",
        ),
        _dangling_time,
    ),
    Rule(
        LABEL_COMPLEMENT,
        "decompose",
        "a fact whose copula's complement is a heading in capitals made only of label words "
        "(vocabulary.document.SECTION_WORDS, LABEL_WORDS: 'He was BACKGROUND.' from a line 'BACKGROUND', 'BRIEFING "
        "NOTE is OFFICIAL.', 'She was PERSONAL.') is not kept: a section's label, not what its person is. A "
        "complement in lower case ('She was official'), or with a word of its own ('He was BACKGROUND SINGER', 'She "
        "was UNESCO's envoy') stays",
        ("BACKGROUND", "BRIEFING NOTE — OFFICIAL / INTERNAL", "PERSONAL"),
        _label_complement,
    ),
)


# Words a fact's text may have that none of its tokens has: the verb "be" and auxiliaries the decomposer spells.
_SPELLED = frozenset("is was were are be been being has have had did does do will would".split())


def contentless(
    doc: Doc, tokens: frozenset[int], text: str, subject: str = "", off: Set[str] = frozenset()
) -> str | None:
    """The name of the rule that finds the fact ``text`` (of ``subject``), made of ``tokens`` of ``doc``, has nothing
    to check, or None. A fact whose text has a word outside its subject that none of its tokens has (a relative
    pronoun read as what it stands for: "the prize that he took" → "He took the prize") is not read: its tokens do
    not tell all it says."""
    own = {doc[i].lower_ for i in tokens} | _SPELLED | set(_WORD.findall(subject.lower()))
    if any(w not in own for w in _WORD.findall(text.lower())):
        return None
    decided = run(CONTENT_RULES, Built(doc, tokens), frozenset(off))
    return decided.decided_by if decided is not None else None
