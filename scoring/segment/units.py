"""Namesakes laid out by structure and told apart by role: after an answer says one name is shared ("There are two
different Jadwiga Szczęsnas:", "two different musicians", "X may refer to"), its list items, question-and-answer
pairs, sections under headings or paragraphs may each describe one of them by a role, without repeating the name
("– Chapter 2 refers to the harpsichordist …", "**Q: Who is the botanist?** A: …", "The other, a jazz saxophonist,
…"). Each such unit then opens a person scope (``scoring.segment.scopes.Scope``, kind ``role``) labelled by that
role: grouping keeps its sentences, pronouns included, with that namesake.

A unit's role is read from its first sentence (a question's, or its answer's when the question names none): a
noun of an occupation after "the" ("the harpsichordist", "the jazz saxophonist"), or after "a" where it says who
someone is ("The other, a chef, …", "She's a harpsichordist"). A unit that names two roles ("Is the archer
related to the botanist?") describes no one of them; a role before a name that no other unit or the announcement
gives ("with the drummer Mateusz Olech") is a bystander's. Two units or more must give different roles, and the
answer must say the name is shared: a list of one person's achievements that mentions other people's
occupations, "two different awards", a one-person answer laid out as questions and answers open no scope.

Used only where the names and descriptions of the structure (``scoring.segment.scopes``) open no scope.

>>> from scoring.segment.document import parse
>>> doc = parse("There are two different Ada Brooks:\\n\\n1. The cellist, born in 1950.\\n2. The other, a chef.")
>>> found = role_scopes(doc)
>>> [(s.description, s.kind) for s in found.scopes], found.by_block
([('cellist', 'role'), ('chef', 'role')], (-1, 0, 1))
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from scoring import nlp
from scoring.grouping import ANNOUNCES_MANY, ROLE_SCOPE
from scoring.rules import Rule, register, run
from scoring.segment.document import HEADING, PARAGRAPH, Document
from scoring.segment.scopes import Scope, Scopes
from vocabulary.occupations import OCCUPATIONS

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

ROLE = ROLE_SCOPE
ROLE_UNITS = "role-units"

# What also says a name is shared, beside grouping's announcements: a count of people by an occupation's plural
# ("two different musicians", "two distinct painters"; not "two different awards"), or a question of which one.
_COUNTED = re.compile(
    r"\b(?:two|three|four|several)\s+(?:(?:different|distinct|separate|unrelated)\s+)?(?:[A-Za-z-]+\s+)?"
    r"(?P<plural>[a-z-]+s)\b"
)
_WHICH = re.compile(r"\bwhich (?:one|of (?:them|the two|these)|(?-i:[A-Z])[\w'’-]+ (?-i:[A-Z])[\w'’-]+)\b", re.I)
# A question's label that opens a unit ("Q:", "Q3.", "Question 2:", in bold or not).
_QUESTION = re.compile(r"^\W{0,4}(?:Q\d{0,2}|Question(?:\s*\d{1,2})?)\s*[:.)]\s*", re.IGNORECASE)
_ANSWER = re.compile(r"^\W{0,4}A\d{0,2}\s*[:.)]\s*")
# The end of a unit's first sentence: an end mark before a capital, or a line break.
_SENTENCE_END = re.compile(r"(?<=[.?!])[*_]*\s+(?=[*_\"“]*[A-Z])|\n")
# Nouns of a role beside the listed occupations: "volcanologist", "cartographer", "harpsichordist".
_ROLE_ENDINGS = ("ologist", "grapher", "ist")
_BE = frozenset(("is", "was", "'s", "’s", "are", "were"))
# Subjects that are one of the namesakes without their name: "The other, a chef", "One was a boxer".
_WHICH_ONE = frozenset(("one", "other", "first", "second", "former", "latter", "elder", "younger"))
# Words before a role that the role's own description keeps ("the jazz saxophonist", "the ceramic artist").
_MODIFIERS = frozenset(("NOUN", "ADJ"))


def occupation(word: str) -> bool:
    """Whether a lower-case noun names an occupation: a listed one, or one by its ending ("volcanologist")."""
    if word in OCCUPATIONS:
        return True
    return len(word) >= 7 and word.endswith(_ROLE_ENDINGS)


def announces(text: str) -> bool:
    """Whether ``text`` says that a name is shared by several people."""
    if ANNOUNCES_MANY.search(text) or _WHICH.search(text):
        return True
    for m in _COUNTED.finditer(text):
        plural = m.group("plural")
        if occupation(plural[:-1]) or (plural.endswith("ies") and occupation(plural[:-3] + "y")):
            return True
    return False


@dataclass(frozen=True)
class Role:
    """A role a unit gives one person: its words ("jazz saxophonist") and the name written right after it, if any."""

    words: str
    name: str | None = None


def roles_in(sentence: str) -> list[Role]:
    """The roles a sentence gives people: an occupation's noun after "the" ("the jazz saxophonist"), or after "a"/"an"
    where it says who someone is ("She's a harpsichordist", "The other, a chef, …"); with the name written right
    after it ("the astronomer Ingrid Vasshaug") or that it is said of ("Jan Olech is a drummer"), if any. A noun
    with "of" after it relates rather than tells apart ("the principal author of the Act")."""
    doc = nlp.parse_one(sentence)
    out: list[Role] = []
    for t in doc:
        if (
            t.pos_ not in ("NOUN", "PROPN", "ADJ")
            or not t.text.isalpha()
            or not t.text.islower()
            or not occupation(t.lower_)
        ):
            continue
        if any(c.dep_ == "prep" and c.lower_ == "of" for c in t.children):
            continue
        start = t.i
        while start > 0 and start > t.i - _MODIFIER_WORDS and _modifier(doc[start - 1]):
            start -= 1
        if start == 0:
            continue
        first = t.i - 1 if t.i - 1 >= start and doc[t.i - 1].text.islower() else t.i
        words = doc[first : t.i + 1].text.lower()
        det = doc[start - 1].lower_
        if det == "the":
            k = t.i + 1
            while k < len(doc) and doc[k].pos_ == "PROPN" and doc[k].text[:1].isupper():
                k += 1
            out.append(Role(words, doc[t.i + 1 : k].text if k > t.i + 1 else None))
            continue
        if det not in ("a", "an") or start < 2:
            continue
        said_of = _said_of(doc, start - 2)
        if said_of is not None:
            out.append(Role(words, said_of or None))
    return out


# How many words may stand between an article and its role: "an American middleweight boxer".
_MODIFIER_WORDS = 3


def _modifier(tok: Token) -> bool:
    """A word before a role that describes it: "jazz", "ceramic", "American"."""
    if tok.text.islower():
        return tok.pos_ in _MODIFIERS
    return tok.ent_type_ == "NORP"


def _said_of(doc: Doc, k: int) -> str | None:
    """Whom "a <role>" after token ``k`` (a form of "be", or a comma) is said of: "" for one of the namesakes not
    named ("She's a …", "The other, a …", "One was a …"), their name ("Jan Olech is a …", "Jan Olech, a …"), None
    for someone else ("Her husband is a drummer", "Born in Lyon, a …")."""
    tok = doc[k]
    if tok.lower_ in _BE:
        subject = next((c for c in tok.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if subject is None and tok.dep_ != "ROOT":
            subject = next((c for c in tok.head.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    elif tok.text == "," and k > 0:
        subject = doc[k - 1]
    else:
        return None
    if subject is None:
        return None
    if subject.pos_ == "PRON" or subject.lower_ in _WHICH_ONE:
        return ""
    if subject.pos_ == "PROPN":
        first = subject.i  # the name's words before its head: "Jan", "Ferreira", "-", "Holt"
        while first > 0 and (doc[first - 1].pos_ == "PROPN" or doc[first - 1].text in ("-", "‐")):
            first -= 1
        return doc[first : subject.i + 1].text
    return None


def _first_sentence(text: str) -> str:
    return _SENTENCE_END.split(text.strip(), maxsplit=1)[0].strip()


def _unit_sentences(doc: Document, unit: list[int]) -> tuple[str, str | None]:
    """The sentence a unit's role is read from, and for a question its answer's first sentence (read when the
    question names no role)."""
    text = doc.blocks[unit[0]].plain()
    first = _first_sentence(text)
    asked = _QUESTION.match(first)
    if asked is None:
        return first, None
    rest = text.strip()[len(first) :].strip()
    if not rest and len(unit) > 1:
        rest = doc.blocks[unit[1]].plain()
    return first[asked.end() :], _first_sentence(_ANSWER.sub("", rest))


def _may_hold_role(text: str) -> bool:
    """Whether a sentence holds a word of an occupation (only such a sentence is parsed for its roles)."""
    return any(occupation(w) for w in re.findall(r"[a-z][a-z-]+", text))


def _unit_roles(doc: Document, units: list[list[int]]) -> list[list[Role]]:
    """The roles each unit gives (its sentences parsed in one batch: an answer may hold hundreds of units)."""
    said = [_unit_sentences(doc, u) for u in units]
    nlp.parse([t for pair in said for t in pair if t and _may_hold_role(t)])
    out: list[list[Role]] = []
    for first, answer in said:
        found = roles_in(first) if _may_hold_role(first) else []
        if not found and answer is not None and _may_hold_role(answer):
            found = roles_in(answer)
        out.append(found)
    return out


def _pairs(doc: Document) -> list[list[int]]:
    """Question-and-answer pairs: a block that opens with "Q:" and the blocks up to the next such block."""
    starts = [i for i, b in enumerate(doc.blocks) if b.kind == PARAGRAPH and _QUESTION.match(b.plain())]
    return _runs(doc, starts)


def _sections(doc: Document) -> list[list[int]]:
    """The sections under the headings of the outermost level that has two or more."""
    levels = sorted({b.level for b in doc.blocks if b.kind == HEADING})
    for level in levels:
        starts = [i for i, b in enumerate(doc.blocks) if b.kind == HEADING and b.level == level]
        if len(starts) >= 2:
            return _runs(doc, starts, level)
    return []


def _items(doc: Document) -> list[list[int]]:
    """Top-level list items, each with what is nested in it."""
    units: dict[int, list[int]] = {}  # the top-level item's id → its blocks
    for i, b in enumerate(doc.blocks):
        if b.kind == PARAGRAPH and b.item and b.depth == 1:
            units[b.items[0]] = [i]
        elif b.items and b.items[0] in units:
            units[b.items[0]].append(i)
    return list(units.values())


def _paragraphs(doc: Document) -> list[list[int]]:
    """Paragraphs outside lists, each a unit."""
    return [[i] for i, b in enumerate(doc.blocks) if b.kind == PARAGRAPH and not b.depth]


def _runs(doc: Document, starts: list[int], level: int | None = None) -> list[list[int]]:
    out: list[list[int]] = []
    for n, i in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(doc.blocks)
        if level is not None:
            end = next(
                (j for j in range(i + 1, end) if doc.blocks[j].kind == HEADING and doc.blocks[j].level <= level), end
            )
        out.append(list(range(i, end)))
    return out


@dataclass(frozen=True)
class RoleUnits:
    """The role-units rule's decision: the role each block's unit gives (None: the block is in no such unit)."""

    roles: tuple[str | None, ...]
    decided_by: str = ""

    def stamped(self, name: str) -> RoleUnits:
        return replace(self, decided_by=name)


def _folded_words(text: str) -> set[str]:
    return {w.casefold() for w in re.findall(r"[^\W\d_][\w'’-]*", text)}


def _namesakes(name: str, named: dict[str, set[str]], said: set[str]) -> bool:
    """Whether a name written after a role is a namesake's: other roles are written before it, or the announcement
    gives it."""
    last = name.split()[-1].casefold()
    return len(named.get(last, ())) >= 2 or last in said


def _role_units(doc: Document) -> RoleUnits | None:
    texts = [b.plain() for b in doc.blocks if b.kind in (PARAGRAPH, HEADING)]
    announcing = [t for t in texts if announces(t)]
    if not announcing:
        return None
    said = set().union(*(_folded_words(t) for t in announcing))
    for units in (_pairs(doc), _sections(doc), _items(doc), _paragraphs(doc)):
        if len(units) < 2:
            continue
        found = _unit_roles(doc, units)
        named: dict[str, set[str]] = {}  # a name's last word → the roles written before it
        for roles in found:
            for r in roles:
                if r.name:
                    named.setdefault(r.name.split()[-1].casefold(), set()).add(r.words)
        chosen: list[str | None] = []
        for roles in found:
            # a role before a name is the namesake's where another unit or the announcement gives that name
            kept: dict[str, str] = {}
            for r in roles:
                if r.name is None or _namesakes(r.name, named, said):
                    kept.setdefault(r.words.split()[-1], r.words)
            chosen.append(next(iter(kept.values())) if len(kept) == 1 else None)
        if len({c.split()[-1] for c in chosen if c is not None}) < 2:
            continue
        roled = [k for k, c in enumerate(chosen) if c is not None]
        if len(roled) != roled[-1] - roled[0] + 1:
            # a unit that presents no one between them: the layout does not give each namesake a unit
            return None
        by_block: list[str | None] = [None] * len(doc.blocks)
        for unit, role in zip(units, chosen, strict=True):
            if role is not None:
                for j in unit:
                    by_block[j] = role
        return RoleUnits(tuple(by_block))
    return None


ROLE_UNIT_RULES: tuple[Rule[Document, RoleUnits], ...] = register(
    Rule(
        ROLE_UNITS,
        "segment",
        "after an answer says a name is shared, list items, question-and-answer pairs, sections or paragraphs that "
        "each describe one namesake by a role ('– Chapter 2 refers to the harpsichordist …', '**Q: Who is the "
        "botanist?** A: …', 'The other, a chef, …') open that namesake's scope, labelled by the role: pronouns inside "
        "a unit stay with it (a unit naming two roles, or a role before a bystander's name, opens none)",
        (
            "There are two different Ada Brooks:\n\n1. The cellist, born in 1950 in Leeds.\n2. The other, a chef, "
            "opened a restaurant in 2008.",
            "They are two different people who share a name.\n\n**Q: Who is the botanist?**\nA: He was born in 1871."
            "\n\n**Q: And the archer?**\nA: He was born in 1993.",
            "These are two different musicians.\n\n– Chapter 2 refers to the harpsichordist (b. 1961).\n– Chapter 7 "
            "refers to the jazz saxophonist (b. 1989).",
            "No, they are two different women.\n\nThe astronomer Ada Brook was born in 1958.\n\nThe ceramic artist "
            "Ada Brook, by contrast, was born in 1981.",
        ),
        _role_units,
    ),
)


def role_scopes(doc: Document, rules_off: frozenset[str] = frozenset(), first: int = 0) -> Scopes | None:
    """The scopes of ``doc``'s units that each describe one namesake by role (``first``: the index of the first
    scope), or None when the answer lays out no namesakes this way."""
    found = run(ROLE_UNIT_RULES, doc, rules_off)
    if found is None:
        return None
    out: list[Scope] = []
    index: dict[str, int] = {}
    by_block: list[int] = []
    for role in found.roles:
        if role is None:
            by_block.append(-1)
            continue
        key = role.split()[-1]  # "the jazz saxophonist" and then "the saxophonist": one namesake
        if key not in index:
            index[key] = len(out)
            out.append(Scope(first + len(out), None, role, kind=ROLE))
        by_block.append(index[key])
    return Scopes(tuple(out), tuple(by_block))
