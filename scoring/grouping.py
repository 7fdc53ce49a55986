"""Grouping sentences by *perceived individual* (D-FActScore): who a reader without prior knowledge
thinks each sentence is about.

A reader cannot tell that "Dick Hanley ... He won a medal in 1956 ... He died in 1970" mixes two
people: that is one individual, one group, however many real people the facts come from. The
reader does see a new individual when the text says so:

- an explicit cue: "Another Gavin Hamilton ...", "The other John Smith ...", "There is also a
  John Hemming who ...", "A second ...", "One is ... The other is ...";
- a list of people: "Joseph F. Smith may refer to: 1. ... 2. ...", each item naming someone;
- a name that cannot be the current person: a different first name or middle initial ("Robert B.
  Rutherford" then "Robert L. Rutherford"), a different disambiguator ("Christopher Hinton
  (animator)"), or a different form of the name introduced afresh with a description ("Sheila
  Jackson, an English chess player, ..." after "Sheila Jackson Lee ...").

Pronouns and bare surnames continue the current individual; a pronoun of the other gender goes
back to the latest individual it fits. Returning to an earlier individual by the exact name they
were introduced with is recognised.

>>> groups = group_sentences(["Dick Hanley was a swimmer.", "He died in 1970."], "Dick Hanley")
>>> [(g.name, g.sentences) for g in groups]
[('Dick Hanley', [0, 1])]
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from scoring import nlp
from scoring.parentheticals import ORG_WORDS
from scoring.rules import Rule, register, rule, run
from vocabulary import FEMALE_PRONOUNS, MALE_PRONOUNS, NAME_SUFFIXES, THIRD_PERSON_SINGULAR, TITLES
from vocabulary import fold_words as fold
from vocabulary.document import LABEL_WORDS, SECTION_WORDS
from vocabulary.english import ANSWER_WORDS, THING_NAME_WORDS

NEW_PERSON_CUE = rule(
    "new-person-cue", "group", "'Another X', 'The other X', 'There is also an X named ...' start a new individual"
)
ROLE_CUE = rule(
    "role-cue",
    "group",
    "after the answer says a name is shared, a sentence whose subject is 'the <role>' ('The cellist, born …', "
    "'**The architect** …', 'The elder …') presents that namesake",
)
CONTRAST_CUE = rule(
    "contrast-cue", "group", "'On the other hand, X is ...' with X introduced afresh starts a new individual"
)
LIST_ITEM_PERSON = rule("list-item-person", "group", "a list item that names someone presents a new individual")
BYSTANDER = rule(
    "bystander", "group", "a name sharing no part with anyone so far, beside a pronoun, is named in passing"
)
OTHER_DISAMBIGUATOR = rule(
    "other-disambiguator", "group", "a different (label) after the name, e.g. (animator), is another individual"
)
OTHER_DATES = rule("other-dates", "group", "different (1937–2013) dates after the same name are another individual")
INCOMPATIBLE_NAME = rule(
    "incompatible-name", "group", "a name that cannot be a form of the current one (other first name) is new"
)
REINTRODUCED = rule(
    "reintroduced", "group", "another form of the name introduced afresh with a description is a new individual"
)
ORGANISATION_SUBJECT = rule(
    "organisation-subject",
    "group",
    "a subject named by an organisation's word ('The Whitlow Museum of Art mounted …', 'Team Velora: six seasons') "
    "is no person: its sentence stays with the current individual",
)
WORK_YEAR_NAME = rule(
    "work-year-name",
    "group",
    "a name dated by one bare year in parentheses ('*Marsh Light* (1958), two dozen canvases …, made his name') is "
    "a work's, not a person's (a person's dates are a span or a birth; a name sharing a word with the answer's subject "
    "stays a person): its sentence stays with the current individual",
)
NAMED_AFTER = rule(
    "named-after",
    "group",
    "the subject of a sentence saying it is named after the person ('Beckwith Field, a small airfield near Wichita, "
    "is named after him', '… named in her honour') is a thing, not a namesake: its sentence stays with the current "
    "individual",
)
LOWER_CASE_HEAD = rule(
    "lower-case-head",
    "group",
    "a subject whose name ends in a word written in lower case ('The Raghunathan bound, an estimate on gaps …, was "
    "proved by her', 'The Achterberg projection is still used') is a thing named after someone, not a person: its "
    "sentence stays with the current individual",
)
ORDINAL_PRONOUN = rule(
    "ordinal-pronoun",
    "group",
    "'First, … Second, he … Third, Castelvecchi …': an ordinal followed by a pronoun, or by the current individual's "
    "name where the answer never said the name is shared, counts the points of one story and continues that individual",
)
LABEL_SENTENCES = rule(
    "label-sentences",
    "group",
    "a heading or a line that only labels a part of the answer ('## Recognition', '**Short answer:**', 'TL;DR') "
    "names no one: it stays with the current individual and never opens another",
)
POINTED_ROLE = rule(
    "pointed-role",
    "group",
    "once the answer says the name is shared, a line that points at a namesake by role at its end ('Ticks, "
    "arboviruses or TBV-Shield → the virologist', 'ferns, Yunnan, herbarium: the botanist', '…, it's the archer') is "
    "that namesake's: the names among its cues present no one",
)
# A pointer at a role that closes a line: "→ the virologist", ": the botanist", "it's the archer", "that's the potter".
_POINTED = re.compile(
    r"(?:→|->|⇒|=>|:|\bit(?:'s|’s|\s+is|\s+was)|\bthat(?:'s|’s|\s+is|\s+was))\s+(?:about\s+)?the\s+"
    r"(?P<role>[a-z]+(?:[ -][a-z]+)?)\s*[.;!)]*\s*$",
    re.IGNORECASE,
)


def _pointed_role(individuals: _Individuals, text: str) -> PerceivedGroup | None:
    """The namesake a line points at by role at its end (``pointed-role``), among those presented by that role."""
    m = _POINTED.search(text)
    if m is None:
        return None
    role = m.group("role").lower()
    return individuals.with_role(role.split()[-1]) or individuals.with_role(role.replace(" ", "-"))


SECTION_ENDS_ASIDE = rule(
    "section-ends-aside",
    "group",
    "in an answer that never said the name is shared up front, a namesake it brings in on the way ('There is also "
    "a much younger X, a mountaineer') is left at the next heading that labels a part ('## Quick facts', "
    "'**Short answer:**' alone): what follows is the answer's own person again",
)
_ORDINAL_WORDS = frozenset("first second secondly third thirdly fourth fifth next then finally lastly".split())
LONE_WORD_NAME = rule(
    "lone-word-name",
    "group",
    "a name of one word that is no word of anyone's name so far, with no label or dates after it ('Newmarket born "
    "and bred, 1994', 'Leiden 1902 – Hastings 1978', 'PERSONAL Married to …') is a place or a label, not a person "
    "met afresh (a reader meets a new person by a full name): its sentence stays with the current individual. Once "
    "the answer says the name is shared, a one-word lead may present a namesake by role ('Aviator | 1903–1937 | …')",
)
PRONOUN_GENDER = rule(
    "pronoun-gender", "group", "a subject pronoun of the other gender goes back to the latest individual it fits"
)

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

    from scoring.segment.scopes import Scope

_TITLES = TITLES
_SUFFIXES = NAME_SUFFIXES
_NEW_CUE = re.compile(
    r"^(?:(?:and|but|additionally|also|furthermore|moreover|finally|lastly|in addition|on the other hand|however)"
    r",?\s+)?"
    r"(?:another\b|the other\b|a second\b|the second\b|a third\b|the third\b|a fourth\b|the fourth\b|"
    r"a different\b|a further\b|the latter\b|the last\b|"
    r"there (?:is|was|are|were) (?:also |another |a second |a different )|"
    r"(?:there is|there was|there's) (?:a|an) (?=[A-Z].*\bwho\b)|"
    r"(?:(?:the )?second|third|fourth|lastly|finally|the final one),)",
    re.IGNORECASE,
)
# "Aside from ..., there is also a conductor named Akira Endo."
_NAMED_CUE = re.compile(
    r"\bthere (?:is|was|are|were|'s) (?:also )?(?:an?|another) [^.;]*?\b(?:named|called)\s+(?-i:[A-Z])", re.I
)
# "On the other hand, André Lima is ...": a contrast that opens on a name introduced afresh.
_CONTRAST_CUE = re.compile(
    r"^(?:on the other hand|in contrast|by contrast|conversely|meanwhile|however),\s+(?-i:[A-Z])", re.I
)
_CONTINUE_CUE = re.compile(r"^(?!there\b)\w+(?: \w+){0,3} (?:was|is) also\b|\balso (?:known|called)\b", re.IGNORECASE)
# The answer says the name is shared: what follows may present the namesakes one by one. A plural the count
# refers to is a word for people ("two well-known ones") or the name in the plural ("two Kenji Satos"), which is
# capitalised: "a few decades", "different threads", "several distinct chapters" share no name.
_ANNOUNCES_MANY = re.compile(
    r"\b(?:two|three|four|several|multiple|a few|various|different|at least (?:two|three))\b[^.?!]{0,40}?"
    r"\b(?:people|persons|individuals|men|women|namesakes|ones|(?-i:[A-Z])[\w'’-]*s)\b|"
    r"\bshare[sd]? (?:the|this|that|a) (?:same )?name\b|\b(?:name|it) belongs to (?:two|three|several)\b|"
    r"\b(?:may|can|could|might) refer to\b|"
    # "I'll cover both.", "Here are both of them:", "I'll answer for both": the answer will present two namesakes.
    r"\b(?:cover|answer|describe|summari[sz]e|do|go through|go over)\s+(?:(?:for|on)\s+)?both\b(?!\s+(?!of\b)\w)|"
    r"\bhere (?:are|is) both\b|\bboth of them\b(?=\s*[:.!])",
    re.IGNORECASE,
)
ANNOUNCES_MANY = _ANNOUNCES_MANY  # read by scoring.segment.units too
# Words for which one of them is meant, beside role nouns: "The elder, born in 1909, ...".
_ORDER_WORDS = frozenset("elder younger older eldest youngest former latter first second third other".split())
_NOT_ROLES = frozenset("name names person people one ones man woman individual answer information".split())
_DISAMBIGUATOR = re.compile(r"^\s*\(([^()]{2,40})\)")
_MALE = MALE_PRONOUNS
_FEMALE = FEMALE_PRONOUNS


@dataclass
class PerceivedGroup:
    """One individual as a reader perceives it: a name (the most specific form seen) and its sentences."""

    name: str
    sentences: list[int] = field(default_factory=list)
    disambiguator: str | None = None
    dates: str | None = None
    from_text: bool = False
    introduced: bool = False
    gender: str | None = None
    forms: set[str] = field(default_factory=set)
    # The role that presented this namesake ("the cellist", "the elder"), when a role cue did.
    role: str | None = None
    # The answer's own words around the people its structure presents (two or more scopes), in none of them: a
    # preamble or a closing remark on them all ("Ja / Yes — zwei Personen", "It is a coincidence that …").
    lead: bool = False

    @property
    def label(self) -> str:
        """The name with its disambiguator, as written: "Christopher Hinton (animator)"."""
        return f"{self.name} ({self.disambiguator})" if self.disambiguator else self.name


@dataclass(frozen=True)
class Mention:
    """The person a sentence is about, as the sentence names them."""

    name: str
    disambiguator: str | None = None
    introduces: bool = False  # "X is a/an ...", "X, a/an ..., ...": a description of who X is
    dates: str | None = None  # "(1838–1918)", "(born 1943)" right after the name


def name_parts(name: str) -> list[str]:
    """Folded name words without titles and suffixes: "Sir John H. Smith Jr." -> [john, h, smith]."""
    words = fold(re.sub(r"\([^)]*\)", " ", name)).split()
    return [w for w in words if w not in _TITLES and w not in _SUFFIXES]


def compatible(mention: str, known: str) -> bool:
    """Could ``mention`` name the same individual as ``known``? (A reader's view: forms of one name.)

    Same surname, and every other word of one form agrees with the other (initials match words).
    """
    a, b = name_parts(mention), name_parts(known)
    if not a or not b:
        return True
    if len(a) == 1 or len(b) == 1:
        single, other = (a, b) if len(a) == 1 else (b, a)
        return single[0] in other
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    if _subsequence(short, long) and short[0] == long[0]:
        # "João Leite" in "João Leite da Silva Neto": same first name, the rest in order.
        return True
    if a[-1] != b[-1]:
        return False
    if set(a) <= set(b) or set(b) <= set(a):
        return True
    first_a, first_b = a[0], b[0]
    if not _word_agrees(first_a, first_b):
        return False
    mids_a, mids_b = a[1:-1], b[1:-1]
    if mids_a and mids_b:
        return all(any(_word_agrees(x, y) for y in mids_b) for x in mids_a) or all(
            any(_word_agrees(y, x) for x in mids_a) for y in mids_b
        )
    return True


def _subsequence(short: list[str], long: list[str]) -> bool:
    it = iter(long)
    return all(any(w == x for x in it) for w in short)


def _word_agrees(x: str, y: str) -> bool:
    if x == y:
        return True
    if len(x) == 1 or len(y) == 1:
        return x[0] == y[0]
    return False


_QUESTION_LABEL = re.compile(r"^(?:Q|Question)\s*[:.]\s", re.IGNORECASE)
# A question that turns to one of the namesakes by role: "Q: And the sailor?", "What about the surgeon?".
_ROLE_QUESTION = re.compile(
    r"^(?:Q\s*[:.]\s*)?(?:and|what about|how about|who (?:is|was)|who's|tell me about)\s+the\s+([a-z]+)\s*\?\s*$",
    re.IGNORECASE,
)


def _role_subject(doc: Doc) -> str | None:
    """The role noun of a sentence that opens with "The <role>" as its subject ("The cellist, born in …"), or of
    a question that turns to a namesake by role ("And the sailor?")."""
    asked = _ROLE_QUESTION.match(nlp.text(doc))
    if asked:
        word = asked.group(1).lower()
        return None if word in _NOT_ROLES else word
    addressed = _addressed_role(doc)
    if addressed is not None:
        return addressed
    start = _lead_in(doc)
    if len(doc) < start + 3 or doc[start].lower_ != "the":
        return None
    end = start + 1
    # "The film director, born …": a role of two words is its head noun with the noun before it.
    if doc[end].dep_ == "compound" and doc[end].head.i == end + 1 and len(doc) > end + 2 and doc[end].is_alpha:
        end += 1
    head = doc[end]
    word = head.lower_
    if word in _NOT_ROLES or not word.isalpha():
        return None
    if word in _ORDER_WORDS or (head.pos_ == "NOUN" and head.dep_ in ("nsubj", "nsubjpass", "ROOT", "appos")):
        return doc[start + 1 : end + 1].text.lower()
    if start and head.pos_ in ("NOUN", "PROPN") and end + 1 < len(doc) and doc[end + 1].is_punct:
        return doc[start + 1 : end + 1].text.lower()  # "First, the rower." names the role alone
    return None


# The kind of scope of a unit that presents a namesake by role (``scoring.segment.units``).
ROLE_SCOPE = "role"
# A cleft that turns to a namesake by role: "It was the botanist who went to Trinity College".
_CLEFT_ROLE = re.compile(
    r"^(?:A\s*[:.]\s*)?(?:(?:and|but|no|yes)\W+)?it\s+(?:was|is|'s|’s)\s+the\s+([a-z]+(?:\s+[a-z]+)?)\s+(?:who|that)\b",
    re.IGNORECASE,
)


def _other_role(individuals: _Individuals, current: PerceivedGroup, text: str, doc: Doc) -> PerceivedGroup:
    """In a unit that presents one namesake by role, a sentence whose subject is another namesake's role ("The
    botanist went to Cambridge", "It was the botanist who …") is that namesake's; any other stays in the unit."""
    cleft = _CLEFT_ROLE.match(text)
    role = cleft.group(1).lower() if cleft else _role_subject(doc)
    if role is None:
        return current
    other = individuals.with_role(role.split()[-1])
    return other if other is not None and other is not current else current


# What the reader is told they know or mean: "you'll know the English jockey", "you probably mean the film director".
_ADDRESSED_VERBS = frozenset(("know", "mean", "remember", "recall", "think", "want"))


def _addressed_role(doc: Doc) -> str | None:
    """The role of a sentence that presents a namesake to the reader ("If you follow racing, you'll know the English
    jockey born in 1994", "You probably mean the film director, who …"): "you" knows or means "the <role>"."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None or nlp.lemma(root) not in _ADDRESSED_VERBS:
        return None
    if not any(c.dep_ == "nsubj" and c.lower_ == "you" for c in root.children):
        return None
    for obj in root.children:
        if nlp.lemma(root) == "think" and obj.dep_ == "prep" and obj.lower_ == "of":
            obj = next((c for c in obj.children if c.dep_ == "pobj"), obj)
        if obj.dep_ not in ("dobj", "pobj") or obj.pos_ != "NOUN" or obj.lower_ in _NOT_ROLES:
            continue
        if not any(c.dep_ == "det" and c.lower_ == "the" for c in obj.children):
            continue
        compound = [c for c in obj.children if c.dep_ == "compound" and c.pos_ == "NOUN" and c.i == obj.i - 1]
        return " ".join([*(c.lower_ for c in compound), obj.lower_])
    return None


# Words that may open a sentence before the role it turns to: "And the bishop …", "First, the rower.".
_LEAD_INS = frozenset(("and", "but", "now", "then")) | _ORDINAL_WORDS


def _lead_in(doc: Doc) -> int:
    """How many tokens open ``doc`` before its subject: a connective or an ordinal ("And", "First,"), else 0."""
    if len(doc) > 2 and doc[0].lower_ in _LEAD_INS:
        return 2 if doc[1].text == "," else 1
    return 0


def group_sentences(
    sentences: Sequence[str],
    subject: str,
    *,
    docs: Sequence[Doc] | None = None,
    list_items: Sequence[bool] | None = None,
    rules_off: frozenset[str] | None = None,
    scopes: Sequence[Scope | None] | None = None,
    labels: Sequence[bool] | None = None,
    sections: Sequence[bool] | None = None,
    written: Sequence[str] | None = None,
) -> list[PerceivedGroup]:
    """Assign each sentence to a perceived individual; groups come in order of first appearance.

    ``written``: each sentence as the answer writes it (``texts`` may be a record read as prose), where a line that
    points at a namesake by role is read (``pointed-role``).
    ``scopes``: the person scope of each sentence from the answer's structure (``scoring.segment.scopes``): a
    sentence in a scope goes to that scope's individual, whatever its words; the cues below decide the others.
    ``rules_off``: names of grouping rules (``scoring.rules``) switched off (default: none)."""
    if rules_off is None:
        rules_off = frozenset()
    if docs is None:
        docs = nlp.parse(list(sentences), rules_off)
    items = list(list_items) if list_items is not None else [False] * len(sentences)
    if LIST_ITEM_PERSON in rules_off:
        items = [False] * len(sentences)
    individuals = _Individuals(PerceivedGroup(subject))
    groups = individuals.groups
    current = groups[0]
    announced = False
    scoped: dict[int, PerceivedGroup] = {}  # scope index → its individual
    for i, (text, doc) in enumerate(zip(sentences, docs, strict=True)):
        scope = scopes[i] if scopes is not None and i < len(scopes) else None
        if scope is not None:
            current = _scoped(individuals, scoped, scope, subject)
            if scope.kind == ROLE_SCOPE and ROLE_CUE not in rules_off:
                # "It was the botanist who …" in the archer's unit turns to the botanist's
                current = _other_role(individuals, current, text, doc)
            current.sentences.append(i)
            announced = announced or len(scoped) >= 2  # a layout of two people says the name is shared
            gender = _subject_gender(doc, possessive=True)
            if gender and current.gender is None:
                current.gender = gender
                individuals.update(current)
            continue
        if labels is not None and i < len(labels) and labels[i] and LABEL_SENTENCES not in rules_off:
            if (
                sections is not None
                and i < len(sections)
                and sections[i]
                and not announced
                and current is not groups[0]
                and current not in scoped.values()
                and SECTION_ENDS_ASIDE not in rules_off
            ):
                # "## Quick facts" after "There is also a much younger X, a mountaineer": the aside on a namesake
                # ended with its section; the answer's own person is back.
                current = groups[0]
            current.sentences.append(i)
            continue
        # A transcript's question ("Q: Which Declan Fairweather is this about?") presents no one: at most it
        # turns to a namesake by role ("Q: And the sailor?"). Its "Q" is no name.
        as_written = written[i] if written is not None and i < len(written) else text
        pointed = _pointed_role(individuals, as_written) if announced and POINTED_ROLE not in rules_off else None
        if pointed is not None:
            # "Ticks, arboviruses or TBV-Shield → the virologist": cues that point at a namesake by role are said of
            # that namesake; the names among them are no people.
            pointed.sentences.append(i)
            current = pointed
            continue
        mention = None if _QUESTION_LABEL.match(text) else find_mention(doc)
        if mention is not None and _names_no_person(doc, text, mention, subject, rules_off):
            mention = None
        role = _role_subject(doc) if announced and ROLE_CUE not in rules_off else None
        announced = announced or bool(_ANNOUNCES_MANY.search(text))
        if mention is None and role is not None and current.sentences:
            target = individuals.with_role(role)
            if target is None:
                # A profession names the namesake's page ("(cellist)"); "the elder" names no page.
                label = None if role in _ORDER_WORDS else role
                target = PerceivedGroup(current.name, disambiguator=label, from_text=current.from_text, role=role)
                individuals.add(target)
            target.sentences.append(i)
            current = target
            continue
        cues = NEW_PERSON_CUE not in rules_off
        if mention is None and cues and _NAMED_CUE.search(text):
            mention = _after_named(doc)
        cue_new = cues and bool(_NEW_CUE.match(text) or _NAMED_CUE.search(text)) and not _CONTINUE_CUE.match(text)
        if cue_new and ORDINAL_PRONOUN not in rules_off and _ordinal_continues(doc, mention, current, announced):
            cue_new = False
        if CONTRAST_CUE not in rules_off and mention is not None and mention.introduces and _CONTRAST_CUE.match(text):
            cue_new = True
        target = current
        if mention is not None and LONE_WORD_NAME not in rules_off and not (cue_new or items[i] or announced):
            if _lone_word(individuals, mention):
                mention = None  # "Newmarket born and bred, 1994": a place or a label, not a person met afresh
        passing = BYSTANDER not in rules_off and not cue_new and not items[i]
        if mention is not None and passing and _bystander(individuals, subject, mention, doc):
            # "His team-mate Scottie Pippen was ...": another person named in passing, not a new bio.
            mention = None
        if mention is not None:
            target = _target_for_mention(individuals, current, mention, cue_new, items[i], rules_off)
        elif cue_new and current.sentences:
            target = PerceivedGroup(current.name, disambiguator=None, from_text=current.from_text)
        elif PRONOUN_GENDER not in rules_off:
            target = _by_pronoun(individuals, current, doc)
        if target not in individuals:
            individuals.add(target)
        if mention is not None:
            _absorb(target, mention)
            individuals.update(target)
        gender = _subject_gender(doc, possessive=True)
        if gender and target.gender is None:
            target.gender = gender
            individuals.update(target)
        target.sentences.append(i)
        current = target
    if len(scoped) >= 2 and groups[0] not in scoped.values():
        groups[0].lead = True
    return [g for g in groups if g.sentences]


def _ordinal_continues(doc: Doc, mention: Mention | None, current: PerceivedGroup, announced: bool) -> bool:
    """ "Second, he studied …", "Finally, she …", "Third, Castelvecchi won …": an ordinal that counts the points of
    one story continues the individual its subject refers to: a pronoun always; a form of the current individual's
    name unless the answer said the name is shared (then "Second, Kenji Sato the sprinter …" presents another)."""
    if len(doc) < 3 or doc[0].lower_ not in _ORDINAL_WORDS or doc[1].text != ",":
        return False
    if doc[2].lower_ in _THIRD_PERSON:
        return True
    if announced:
        return False
    if mention is not None:  # the name right after the ordinal ("Second, there is also a …" is a cue of its own)
        # the name's first word as written: a hyphenated one ("Ferrán-Okafor") is several tokens
        starts = doc.text[doc[2].idx :].startswith(mention.name.split()[0])
        return starts and compatible(mention.name, current.name)
    return doc[2].pos_ == "PROPN" and fold(doc[2].text) in name_parts(current.name)  # a bare surname


def _scoped(individuals: _Individuals, scoped: dict[int, PerceivedGroup], scope: Scope, subject: str) -> PerceivedGroup:
    """The individual a structure scope presents (``STRUCTURE_SCOPES``): one per scope, named by its lead (the
    answer's subject for a lead by role), told apart by its description."""
    found = scoped.get(scope.index)
    if found is not None:
        return found
    first = individuals.groups[0]
    if scope.sole and compatible(scope.name or first.name, first.name):
        # One person's table or profile about the answer's subject: the subject's individual, which the table's
        # description and dates now tell apart from namesakes.
        first.disambiguator = first.disambiguator or scope.description
        first.dates = first.dates or scope.dates
        first.introduced = True
        individuals.update(first)
        scoped[scope.index] = first
        return first
    name = scope.name or subject
    group = PerceivedGroup(
        name,
        disambiguator=scope.description,
        dates=scope.dates,
        from_text=scope.name is not None,
        introduced=True,
        # "The boxer …" after a table of "Theodore Vance (boxer)" and "… (politician)" turns to that row's person.
        role=scope.description.split()[-1].lower() if scope.description else None,
    )
    group.forms.add(fold(name))
    individuals.add(group)
    scoped[scope.index] = group
    return group


# "… is named after him", "… was named for her", "… named in his honour".
_NAMED_AFTER = re.compile(
    r"\b(?:is|was|are|were|been)\s+(?:later\s+|also\s+)?(?:re)?named\s+(?:after|for)\s+(?:him|her|them)\b|"
    r"\bnamed\s+in\s+(?:his|her|their)\s+(?:hono(?:u)?r|memory)\b",
    re.IGNORECASE,
)
_WORK_YEAR = re.compile(r"(?:1[0-9]|20)[0-9]{2}")


def _names_no_person(doc: Doc, text: str, mention: Mention, subject: str, rules_off: frozenset[str]) -> bool:
    """Whether a sentence's name is an organisation's, a work's by its year, or a thing's named after the person
    (then the rules of ``NO_PERSON_RULES``: a thing's name, a common noun the tagger took for a name)."""
    return (
        (ORGANISATION_SUBJECT not in rules_off and _organisation(doc, mention))
        or (WORK_YEAR_NAME not in rules_off and _work(mention, subject))
        or (NAMED_AFTER not in rules_off and _NAMED_AFTER.search(text) is not None)
        or (LOWER_CASE_HEAD not in rules_off and _lower_case_head(mention))
        or run(NO_PERSON_RULES, NameCase(doc, mention, subject), rules_off) is not None
    )


@dataclass(frozen=True)
class NameCase:
    """A sentence's name as grouping meets it: the parse, the mention and the answer's subject."""

    doc: Doc
    mention: Mention
    subject: str


@dataclass(frozen=True)
class NoPerson:
    """A rule's decision that a sentence's name names no person: its sentence stays with the current individual."""

    name: str
    decided_by: str = ""

    def stamped(self, name: str) -> NoPerson:
        return NoPerson(self.name, name)


def _thing_name(case: NameCase) -> NoPerson | None:
    """A name whose last word is the word a thing's name ends with: an award ("Sea Gallantry Medal", "Lagos Heritage
    Award for Music"), an event ("SEA Games", "Montreux Jazz Festival"), a work or a place made for people
    ("Kvarven Variable Star Catalogue", "Kettleby Bird Hide", named after the person or not)."""
    words = [w for w in re.sub(r"\([^)]*\)", " ", case.mention.name).split() if w[:1].isalpha()]
    # the head of "Lagos Heritage Award for Music" is "Award": the word before "of"/"for" when one follows
    for k, w in enumerate(words):
        if k and w.lower() in ("of", "for"):
            words = words[:k]
            break
    if len(words) < 2 or fold(words[-1]) not in THING_NAME_WORDS:
        return None
    return NoPerson(case.mention.name)


def _label_name(case: NameCase) -> NoPerson | None:
    """A name made only of the words of a label ("TODO", "Madam Speaker", "MC SCRIPT", "COMMISSIONER", "COLD OPEN"):
    a placeholder, a form of address or a script's or a briefing's furniture, where the tagger saw a name."""
    words = [w.strip(".,:;!?#()[]").lower() for w in case.mention.name.split()]
    words = [w for w in words if w]
    if not words or not all(w in LABEL_WORDS or w in SECTION_WORDS for w in words):
        return None
    return NoPerson(case.mention.name)


def _lower_case_name(case: NameCase) -> NoPerson | None:
    """A one-word name written in lower case ("algorithm" in "Her Karaçelik early-warning algorithm has been used
    …", "don" in pidgin): a common noun the tagger took for a name, where a name's head is capitalised."""
    words = case.mention.name.split()
    if len(words) != 1 or not words[0].isalpha() or not words[0].islower() or words[0] in _PARTICLES:
        return None
    return NoPerson(case.mention.name)


def _counted_name(case: NameCase) -> NoPerson | None:
    """A name right after a number that is no year ("48 MP stills", "a 12 MP sensor", "2 TB SSD"): a unit or a model
    counted, not a person ("In 1991 Olav Brekke …" stays a name)."""
    first = case.mention.name.split()[0]
    for tok in case.doc:
        if tok.text == first and tok.i > 0:
            before = case.doc[tok.i - 1]
            year = re.fullmatch(r"(?:1[0-9]|20)[0-9]{2}", before.text) is not None  # "In 1991 Olav Brekke …"
            if before.like_num and any(ch.isdigit() for ch in before.text) and not year:
                return NoPerson(case.mention.name)
    return None


def _answer_word_name(case: NameCase) -> NoPerson | None:
    """A one-word name that is a word of assent, denial or greeting in some language ("Ja / Yes — zwei Personen",
    "Oui — ce sont deux personnes", "Hola, son dos"): the tagger took the capitalised word for a name."""
    words = case.mention.name.split()
    if len(words) != 1 or fold(words[0]).lower() not in ANSWER_WORDS:
        return None
    return NoPerson(case.mention.name)


NO_PERSON_RULES: tuple[Rule[NameCase, NoPerson], ...] = register(
    Rule(
        "thing-name",
        "group",
        "a name whose last word is the word a thing's name ends with (an award: 'The Sea Gallantry Medal followed the "
        "next year', 'Lagos Heritage Award for Music come for 2015'; an event: 'SEA Games'; a place or a work: 'the "
        "Kettleby Bird Hide', 'Kvarven Variable Star Catalogue') names no person: its sentence stays with the current "
        "individual",
        (
            "The Sea Gallantry Medal followed the next year.",
            "Lagos Heritage Award for Music come for 2015.",
            "The Montreux Jazz Festival booked him in 1997.",
            "The Kettleby Bird Hide was opened three years on.",
        ),
        _thing_name,
    ),
    Rule(
        "lower-case-name",
        "group",
        "a one-word name written in lower case ('Her Karaçelik early-warning algorithm has been used …', where the "
        "tagger took 'algorithm' for a name) is a common noun, not a person met afresh: its sentence stays with the "
        "current individual",
        (
            "Her Karaçelik early-warning algorithm has been used by the metro since 2018.",
            "His Vance uppercut was feared across Pennsylvania.",
            "Her Achterberg formula is still taught.",
        ),
        _lower_case_name,
    ),
    Rule(
        "counted-name",
        "group",
        "a name written right after a number in digits that is no year ('4K video at up to 60 fps, 48 MP stills', "
        "'a 12 MP sensor', '2 TB SSD') is a unit or a model counted, not a person: its sentence stays with the "
        "current individual",
        (
            "4K video at up to 60 fps, 48 MP stills from a 1/1.3-inch sensor",
            "It records 12 MP stills.",
            "Comes with 2 TB SSD storage.",
        ),
        _counted_name,
    ),
    Rule(
        "answer-word-name",
        "group",
        "a one-word name that is a word of assent, denial or greeting in some language ('Ja / Yes — zwei Personen', "
        "'Oui, ce sont deux personnes', 'Sí, son dos personas') is no person: the tagger took the capitalised word at "
        "the line's start for a name; its sentence stays with the current individual",
        (
            "Ja / Yes — zwei Personen, two people.",
            "Oui, il y a deux personnes de ce nom.",
            "Sí, son dos personas distintas.",
        ),
        _answer_word_name,
    ),
    Rule(
        "label-name",
        "group",
        "a name made only of the words of a label (vocabulary.document.LABEL_WORDS, SECTION_WORDS: a placeholder "
        "'TODO', a form of address 'Madam Speaker, I rise …', a script's or a briefing's furniture 'MC SCRIPT', "
        "'ISSUES THE COMMISSIONER MAY WISH TO RAISE', 'COLD OPEN') names no person: its sentence stays with the "
        "current individual, whose name its facts take",
        (
            "** TODO Ask the library for the 2014 book",
            "Madam Speaker, I rise today to honor the memory of a daughter of my district.",
            "MC SCRIPT — WALK-ON #2",
        ),
        _label_name,
    ),
)


def _lower_case_head(mention: Mention) -> bool:
    """Whether a name of two words or more ends in a word in lower case ("Raghunathan bound", "Achterberg
    projection"), not a particle ("Ludwig van" is cut short, "Vázquez de" likewise): a thing named after someone."""
    words = mention.name.split()
    last = words[-1] if words else ""
    return len(words) > 1 and last.isalpha() and last.islower() and last not in _PARTICLES


def _work(mention: Mention, subject: str) -> bool:
    """Whether a mention names a work by its year ("Marsh Light (1958)"): one bare year in parentheses, and no word
    of the answer's subject in the name (a namesake dated by one year is still a person)."""
    own = set(name_parts(subject))
    return bool(_WORK_YEAR.fullmatch(mention.dates or "")) and not any(p in own for p in name_parts(mention.name))


def _organisation(doc: Doc, mention: Mention) -> bool:
    """Whether a mention names an organisation or a place of one ("Whitlow Museum of Art", "Team Velora"): a word of
    its name is an organisation's word that the recogniser does not take for a person's name ("Frederic Church")."""
    words = set(mention.name.lower().split())
    return any(t.lower_ in ORG_WORDS and t.lower_ in words and t.ent_type_ != "PERSON" for t in doc)


def _lone_word(individuals: _Individuals, mention: Mention) -> bool:
    """Whether a mention is one word that no individual so far was named or mentioned by, unlabelled and undated."""
    parts = name_parts(mention.name)
    if len(parts) != 1 or mention.disambiguator or mention.dates:
        return False
    return not individuals.knows(parts[0])


def _bystander(individuals: _Individuals, subject: str, mention: Mention, doc: Doc) -> bool:
    """A name sharing no part with the answer's subject or any individual so far, in a sentence that
    still speaks of the current individual ("His team-mate Scottie Pippen ...", "X left her his bed")."""
    own = name_parts(subject)
    if mention.disambiguator or not own:
        return False
    if not any(t.lower_ in _THIRD_PERSON for t in doc):
        return False  # "Kendrys Morales is a Cuban baseball player": a bio of its own
    parts = set(name_parts(mention.name))
    return bool(parts) and not any(p in own or individuals.knows(p) for p in parts)


class _Individuals:
    """The individuals found so far, in order of appearance, with what grouping asks of them kept up to date
    group by group: the words of their names and forms, the first one of each role, who carries each form
    and each label. An answer presenting hundreds of individuals then costs no more per sentence than one
    presenting two.

    Only the group a sentence went to changes with it: the caller passes it to :meth:`add` when it is new,
    and to :meth:`update` after :func:`_absorb` or after giving it a gender.
    """

    def __init__(self, first: PerceivedGroup) -> None:
        self.groups: list[PerceivedGroup] = []
        self._position: dict[int, int] = {}
        self._parts: Counter[str] = Counter()  # name word → how many individuals' names or forms have it
        self._seen: dict[int, tuple[frozenset[str], frozenset[str], str | None]] = {}  # parts, forms, label
        self._by_role: dict[str, PerceivedGroup] = {}
        self._by_form: dict[str, list[int]] = {}  # folded form → positions of the individuals mentioned by it
        self._by_label: dict[str, list[int]] = {}  # folded disambiguator → positions
        self._latest_gendered: dict[str, int] = {}  # gender → position of the latest individual of it
        self._ungendered: dict[int, None] = {}  # positions of those of no gender yet, in order
        self.add(first)

    def __contains__(self, group: PerceivedGroup) -> bool:
        return id(group) in self._position

    def add(self, group: PerceivedGroup) -> None:
        self._position[id(group)] = len(self.groups)
        self._ungendered[len(self.groups)] = None
        self.groups.append(group)
        if group.role is not None:
            self._by_role.setdefault(group.role, group)
        self.update(group)

    def update(self, group: PerceivedGroup) -> None:
        """Read again ``group``'s name, forms, label (they only change by :func:`_absorb`) and gender."""
        position = self._position[id(group)]
        if group.gender is not None and position in self._ungendered:  # a gender is only ever set once
            del self._ungendered[position]
            self._latest_gendered[group.gender] = max(position, self._latest_gendered.get(group.gender, -1))
        old_parts, old_forms, old_label = self._seen.get(id(group), (frozenset(), frozenset(), None))
        parts = frozenset(p for form in (group.name, *group.forms) for p in name_parts(form))
        for p in old_parts - parts:
            self._parts[p] -= 1
            if not self._parts[p]:
                del self._parts[p]
        for p in parts - old_parts:
            self._parts[p] += 1
        forms = frozenset(group.forms)
        for form in forms - old_forms:  # forms are only added
            self._by_form.setdefault(form, []).append(position)
        label = fold(group.disambiguator) if group.disambiguator else None
        if label is not None and label != old_label:  # a label is only ever set once
            self._by_label.setdefault(label, []).append(position)
        self._seen[id(group)] = (parts, forms, label)

    def knows(self, part: str) -> bool:
        """Is ``part`` a word of some individual's name or of a form they were mentioned by?"""
        return part in self._parts

    def with_role(self, role: str) -> PerceivedGroup | None:
        """The first individual a role cue presented as ``role``."""
        return self._by_role.get(role)

    def latest_of_gender(self, gender: str) -> PerceivedGroup | None:
        """The latest individual of ``gender`` (one is given a gender with the sentence that says it)."""
        position = self._latest_gendered.get(gender)
        return self.groups[position] if position is not None else None

    def latest_ungendered(self, besides: PerceivedGroup) -> PerceivedGroup | None:
        """The latest individual with sentences and no gender yet, other than ``besides``."""
        for position in reversed(self._ungendered):  # only the first group may have no sentences: a few steps
            g = self.groups[position]
            if g is not besides and g.sentences:
                return g
        return None

    def carriers(self, form: str) -> int:
        """How many individuals were mentioned by the (folded) ``form``."""
        return len(self._by_form.get(form, ()))

    def latest_first(self, form: str, label: str | None) -> list[PerceivedGroup]:
        """The individuals mentioned by ``form`` or carrying ``label`` (folded), latest first."""
        found = set(self._by_form.get(form, ()))
        if label is not None:
            found.update(self._by_label.get(label, ()))
        return [self.groups[k] for k in sorted(found, reverse=True)]


_THIRD_PERSON = THIRD_PERSON_SINGULAR


def _target_for_mention(
    individuals: _Individuals,
    current: PerceivedGroup,
    mention: Mention,
    cue_new: bool,
    list_item: bool,
    off: frozenset[str] = frozenset(),
) -> PerceivedGroup:
    fresh = not current.sentences or (not current.from_text and not current.introduced)
    if cue_new or list_item:
        if fresh and not (cue_new and current.sentences):
            return current
        return _new_group(individuals, current, mention, exact_only=True)
    labelled = OTHER_DISAMBIGUATOR not in off and mention.disambiguator
    if labelled and current.disambiguator and fold(mention.disambiguator or "") != fold(current.disambiguator):
        return _new_group(individuals, current, mention)
    if labelled and not current.disambiguator and current.introduced and current.from_text:
        return _new_group(individuals, current, mention)
    dated = OTHER_DATES not in off and mention.dates and current.introduced and current.sentences
    if dated and fold(mention.dates or "") != fold(current.dates or ""):
        # "David Howard (1937–2013) was ..." after another David Howard was introduced.
        return _new_group(individuals, current, mention)
    full_forms = [f for f in current.forms if len(name_parts(f)) > 1] or [current.name]
    if INCOMPATIBLE_NAME not in off and not all(compatible(mention.name, form) for form in full_forms):
        # Checked against every full form seen: a bare "Collins" must not make "Edward Joseph Collins"
        # the same individual as "Edmund Collins".
        return _new_group(individuals, current, mention)
    seen_form = fold(mention.name) in current.forms
    # A form of two words or more as written: a hyphenated surname alone ("Ferrán-Okafor is a native of Lagos"
    # after "Zoë Ferrán-Okafor") is the surname, not another full name.
    reintroduced = mention.introduces and current.introduced and len(mention.name.split()) > 1
    if REINTRODUCED not in off and reintroduced and not seen_form:
        # A different form of the name, introduced afresh: "Sheila Jackson, an English chess player, ...".
        return _new_group(individuals, current, mention)
    return current


def _new_group(
    individuals: _Individuals, current: PerceivedGroup, mention: Mention, exact_only: bool = False
) -> PerceivedGroup:
    """A new individual, unless the mention returns to an earlier one by a name only it was given."""
    key = fold(mention.name)
    if not exact_only:
        label = fold(mention.disambiguator) if mention.disambiguator else None
        # Only an individual mentioned by this form or carrying this label can be returned to.
        for g in individuals.latest_first(key, label):
            if g is current or not g.from_text or not _same_marks(g, mention):
                continue
            same_label = (
                mention.disambiguator and g.disambiguator and fold(mention.disambiguator) == fold(g.disambiguator)
            )
            distinct = key in g.forms and individuals.carriers(key) == 1  # the name only it was given
            if same_label or (distinct and len(name_parts(mention.name)) > 1):
                return g
    return PerceivedGroup(mention.name, disambiguator=mention.disambiguator, from_text=True)


def _same_marks(group: PerceivedGroup, mention: Mention) -> bool:
    """A mention with its own disambiguator or dates only returns to a group marked the same way."""
    if mention.disambiguator and fold(mention.disambiguator) != fold(group.disambiguator or ""):
        return False
    return not (mention.dates and fold(mention.dates) != fold(group.dates or ""))


def _absorb(group: PerceivedGroup, mention: Mention) -> None:
    parts, known = name_parts(mention.name), name_parts(group.name)
    if not group.from_text or len(parts) > len(known) or not known:
        if len(parts) > 1 or not group.from_text:
            group.name = mention.name if len(parts) >= len(known) or not group.from_text else group.name
            group.from_text = True
    group.forms.add(fold(mention.name))
    if mention.disambiguator and not group.disambiguator:
        group.disambiguator = mention.disambiguator
    if mention.dates and not group.dates:
        group.dates = mention.dates
    if mention.introduces:
        group.introduced = True


def _by_pronoun(individuals: _Individuals, current: PerceivedGroup, doc: Doc) -> PerceivedGroup:
    """A subject pronoun of the other gender goes back to the latest individual it fits."""
    gender = _subject_gender(doc)
    if gender is None or current.gender is None or gender == current.gender:
        return current
    return individuals.latest_of_gender(gender) or individuals.latest_ungendered(besides=current) or current


def _subject_gender(doc: Doc, possessive: bool = False) -> str | None:
    """ "m"/"f" when the main subject is a pronoun (or, with ``possessive``, has one: "His career ...")."""
    for tok in doc:
        if tok.dep_ in ("nsubj", "nsubjpass") and tok.head.dep_ == "ROOT":
            words = [tok.lower_]
            if possessive:
                words += [c.lower_ for c in tok.children if c.dep_ == "poss"]
            if any(w in _MALE for w in words):
                return "m"
            if any(w in _FEMALE for w in words):
                return "f"
            return None
    return None


# --- mentions ----------------------------------------------------------------------------------


def find_mention(doc: Doc) -> Mention | None:
    """The named person a sentence is about: its subject, the "One is X" / "There is also X" attribute,
    or the name a list item starts with."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None:
        return None
    subj = next((c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    expl = next((c for c in root.children if c.dep_ == "expl"), None)
    attr = next((c for c in root.children if c.dep_ == "attr"), None)
    if attr is not None and (expl is not None or (subj is not None and subj.lower_ in ("one", "other", "first"))):
        if attr.pos_ == "PROPN" and attr.tag_ != "NNPS" and not any(c.dep_ == "nummod" for c in attr.children):
            return _mention(doc, attr, introduces=True)
        named = _named(attr)
        if named is not None:
            return _mention(doc, named, introduces=True)
    if subj is not None and subj.pos_ == "PROPN":
        return _mention(doc, subj, introduces=_introduces(root, subj))
    if root.pos_ == "PROPN" and subj is None:
        described = any(c.dep_ == "appos" and not _in_parentheses(doc, c) for c in root.children)
        return _mention(doc, root, introduces=described)
    if subj is None and doc[0].pos_ == "PROPN":
        return _mention(doc, doc[0], introduces=False)
    return _leading_name(doc)


def _named(noun: Token) -> Token | None:
    """The name in "a conductor named Akira Endo" / "a man called John Smith"."""
    for acl in noun.children:
        if acl.dep_ == "acl" and acl.lower_ in ("named", "called"):
            for c in acl.subtree:
                if c.pos_ == "PROPN" and c.dep_ in ("oprd", "dobj", "attr", "npadvmod", "appos", "xcomp"):
                    return c
    return None


def _after_named(doc: Doc) -> Mention | None:
    """ "... there is another person named Akihiro Endo who ...": the name after "named"/"called"."""
    for tok in doc[:-1]:
        nxt = doc[tok.i + 1]
        if tok.lower_ in ("named", "called") and nxt.pos_ == "PROPN":
            head = nxt
            while head.i + 1 < len(doc) and doc[head.i + 1].pos_ == "PROPN":
                head = doc[head.i + 1]
            return _mention(doc, head, introduces=True)
    return None


def _leading_name(doc: Doc) -> Mention | None:
    """ "Neville William Cayley, the son of ..., was ...": a sentence that opens with a full name set off by a comma."""
    k = 0
    while k < len(doc) and (doc[k].pos_ == "PROPN" or (doc[k].text == "." and k > 0)):
        k += 1
    if k < 2 or k >= len(doc) or doc[k].text not in (",", "("):
        return None
    head = doc[k - 1]
    mention = _mention(doc, head, introduces=True)
    return mention


def _in_parentheses(doc: Doc, tok: Token) -> bool:
    depth = 0
    for t in doc[: tok.i]:
        depth += (t.text == "(") - (t.text == ")")
    return depth > 0


# Particles inside a surname: "Vázquez de Castro", "van der Berg", "bin Rashid".
_PARTICLES = frozenset("de del della da das do dos di du van von der den la le bin ibn y".split())


def _inner_particle(doc: Doc, j: int) -> bool:
    """A particle with a name word before it (over other particles): "Ortega de la Vega"."""
    k = j
    while k >= 0 and doc[k].lower_ in _PARTICLES:
        k -= 1
    return k < j and k >= 0 and doc[k].pos_ == "PROPN"


def _mention(doc: Doc, head: Token, introduces: bool) -> Mention | None:
    ids = [head.i]
    j = head.i - 1
    quoted = False
    while j >= 0 and (
        doc[j].pos_ == "PROPN"
        or doc[j].text in (".",)
        or doc[j].dep_ == "compound"
        or doc[j].is_quote
        or quoted
        or _inner_particle(doc, j)
        or _name_hyphen(doc, j)
    ):
        if doc[j].dep_ == "compound" and doc[j].pos_ not in ("PROPN",) and not quoted:
            break
        if quoted and not (doc[j].pos_ == "PROPN" or doc[j].is_quote):
            # a quote that closes no nickname inside a name ('… in Kano, "Swift" is …'): the name ends there
            ids = [i for i in ids if not doc[i].is_quote] or [head.i]
            break
        if doc[j].is_quote:
            # a nickname in quotes inside the name: Robert Burr "Bob" Livingston
            quoted = not quoted
        ids.insert(0, j)
        j -= 1
    while ids and doc[ids[0]].is_quote:
        ids.pop(0)
    k = head.i + 1
    while k < len(doc) and doc[k].pos_ == "PROPN" and doc[k].head.i == head.i and doc[k].dep_ in ("flat", "compound"):
        ids.append(k)
        k += 1
    # "Catherine of Cilli", "Peter V of Alexandria", "Frederick of Hesse-Kassel".
    if k + 1 < len(doc) and doc[k].lower_ == "of" and doc[k].head.i == head.i and doc[k + 1].pos_ == "PROPN":
        k += 1
        while k < len(doc) and (doc[k].pos_ == "PROPN" or doc[k].text == "-"):
            ids.append(k)
            k += 1
    # An epithet: "Robert Livingston the Younger", "Pliny the Elder".
    if k + 1 < len(doc) and doc[k].lower_ == "the" and doc[k + 1].text[:1].isupper() and doc[k + 1].pos_ != "VERB":
        ids += [k, k + 1]
        k += 2
    if head.i > 0 and doc[head.i - 1].is_quote and ids[0] == head.i and k < len(doc) and doc[k].is_quote:
        return None  # a nickname in quotes ('"Swift" is …') names whoever the answer is about, not a new person
    text = doc[ids[0] : ids[-1] + 1].text
    text = re.sub(r'\s*["“”][^"“”]*["“”]\s*', " ", text).strip()
    if not name_parts(text) or (head.ent_type_ and head.ent_type_ not in ("PERSON", "ORG", "GPE", "NORP")):
        return None
    if head.ent_type_ in ("GPE", "NORP") and len(name_parts(text)) < 2:
        return None
    rest = nlp.text(doc)[doc[ids[-1]].idx + len(doc[ids[-1]].text) :]
    m = _DISAMBIGUATOR.match(rest)
    disamb = dates = None
    if m and re.search(r"\d{3,4}", m.group(1)):
        dates = m.group(1).strip()
    elif m and not re.match(r"(?:born|also|née|nee|b\.|known|aka|formerly)\b", m.group(1), re.I):
        disamb = m.group(1).strip()
    elif k + 1 < len(doc) and doc[k].lower_ == "the" and _role_word(doc[k + 1]):
        # "Mei-Lin Osterhagen the chemist (b. 1970) …": a role right after the name tells which one, as a
        # "(chemist)" would.
        disamb = doc[k + 1].lower_
    return Mention(text, disamb, introduces or dates is not None or disamb is not None, dates)


def _role_word(tok: Token) -> bool:
    """A lower-case noun that can say which of several people is meant ("the chemist", "the journalist")."""
    return (
        tok.pos_ == "NOUN"
        and tok.text.islower()
        and tok.lower_ not in _NOT_ROLES
        and tok.lower_ not in _ORDER_WORDS
        and not any(c.dep_ == "prep" for c in tok.children)  # "the son of …" relates, it does not tell apart
    )


def _name_hyphen(doc: Doc, j: int) -> bool:
    """The hyphen of a hyphenated given name, written without spaces: "Anne-Sophie", "Björn-Åke"."""
    tok = doc[j]
    return (
        tok.text in ("-", "‐")
        and j > 0
        and not doc[j - 1].whitespace_
        and not tok.whitespace_
        and doc[j - 1].pos_ == "PROPN"
        and doc[j - 1].text[:1].isupper()
    )


def _introduces(root: Token, subj: Token) -> bool:
    """ "X is a/an <description>" or "X, a/an <description>, ...": the sentence says who X is."""
    if any(
        c.dep_ == "appos" and any(g.dep_ == "det" and g.lower_ in ("a", "an") for g in c.children)
        for c in subj.children
    ):
        return True
    if nlp.lemma(root) == "be":
        for c in root.children:
            if c.dep_ == "attr" and nlp.lemma(c) == "name":
                # "X is the name of a retired futsal player"
                for prep in (g for g in c.children if g.dep_ == "prep" and g.lower_ == "of"):
                    objects = [o for o in prep.children if o.dep_ == "pobj"]
                    if any(d.lower_ in ("a", "an") for o in objects for d in o.children):
                        return True
            if c.dep_ == "attr" and any(g.dep_ == "det" and g.lower_ in ("a", "an") for g in c.children):
                return True
            if c.dep_ == "attr" and any(g.dep_ == "amod" and g.ent_type_ == "NORP" for g in c.children):
                return True
    return False
