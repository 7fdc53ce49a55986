"""Person scopes from an answer's structure: where the layout itself says whom a part is about.

A heading ("### Kenji Sato, potter"), a bold lead-in ("**Kenji Sato, sprinter (b. 1990).** …"), a list item led by
a name ("- **Kenji Sato (potter)**: …"), a table's row or column, or a profile in a code fence can present a person.
Where two or more such leads of one kind present different people — different names, or one name told apart by a
description or dates — each opens that person's scope: under a heading, its section; after a bold lead-in, the
blocks up to the next lead or heading; in a list, the item with what is nested in it; in a table, its row or column.
Grouping (``scoring.grouping``) keeps the facts of different scopes apart and those of one scope together; sentence
cues only decide what no scope covers. Labels ("**Short answer:**", "TL;DR", "## Recognition") present no one.

>>> lead = person_lead("Kenji Sato, potter (b. 1951).")
>>> (lead.name, lead.description, lead.dates)
('Kenji Sato', 'potter', 'b. 1951')
>>> person_lead("Short answer:") is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from scoring import nlp
from scoring.parentheticals import ORG_WORDS
from scoring.rules import rule
from scoring.segment.document import HEADING, PARAGRAPH, Block, Document, label_of
from vocabulary.document import PART_LABELS, SOURCE_LABELS
from vocabulary.occupations import OCCUPATIONS

STRUCTURE_SCOPES = rule(
    "structure-scopes",
    "group",
    "headings, bold lead-ins, list items, table rows or columns and fenced profiles that present two or more "
    "people ('### Kenji Sato, potter' … '### Kenji Sato, sprinter') scope them: facts under different leads are "
    "different individuals, facts under one lead one individual",
)

COUNTED_LEADS = rule(
    "counted-leads",
    "segment",
    "a lead opened by a counted label before a dash or colon ('Card 1 — Kenji Sato, potter (b. 1951)', 'Option 2: "
    "Kenji Sato, sprinter', 'Profile 3 – …') presents the person after the label, as '1. Kenji Sato, potter' does "
    "(a label with no name after it, 'Chapter 1 — Early life', presents no one)",
)
LABELLED_ROLE_LEADS = rule(
    "labelled-role-leads",
    "segment",
    "a lead of one label word, a dash and a dated role ('THEN — the lighthouse keeper (1884–1959)', 'Elder — the "
    "potter, b. 1951') presents the subject by that role, as 'The potter (b. 1951)' does; the role must name a "
    "person ('Career — the early years (1980–1990)' presents no one)",
)
QUOTED_NICKNAME_LEADS = rule(
    "quoted-nickname-leads",
    "segment",
    "a nickname in quotes inside a lead's name ('### Theodore \"Ironhand\" Vance (1909–1971)', 'Robert \"Bob\" "
    "Hale, potter', 'Ada “Dot” Brook — cellist') is no word of the name: the lead presents 'Theodore Vance' as the "
    "grouping reads the name in a sentence; a lead that is all quotes ('\"Ironhand\"'), a quoted title after the "
    "name ('Ada Brook, \"Sea Songs\"') and a name without quotes are read as before",
)
BOLD_LEAD_DATES = rule(
    "bold-lead-dates",
    "segment",
    "a bold name followed by dates in parentheses and an entry too long for a lead ('- **Phạm Quốc Bảo "
    "(cinematographer)** (born 1976), Vietnamese director of photography from Huế; shot … and won …', a "
    "disambiguation page's line) leads with the name and its dates; the rest is the entry's text. The full stop of "
    "dates in parentheses ('(b. 1950)') ends no lead; a short description after the dates ('**Ada Brook** (b. "
    "1950), cellist: …') is read with them",
)
_LONGEST_LEAD = 120
# A nickname in quotes between a name's words: 'Theodore "Ironhand" Vance', 'Ada “Dot” Brook'.
_NICKNAME = re.compile(r"(?<=\w)\s+[\"“‘'][^\"“”‘’']{1,30}[\"”’']\s+(?=[A-Z])")

# Words a name may hold in lower case ("Ludwig van Beethoven", "Ibn al-Haytham").
_PARTICLES = frozenset("de del della der di da das do dos du van von ten ter la le bin ibn al el y e".split())
_NAME_WORDS = 5


@dataclass(frozen=True)
class Scope:
    """A person presented by the structure: a name (None: the answer's subject, presented by a role, as a table
    column headed "Chemist"), what tells them apart, and the kind of lead that presented them."""

    index: int
    name: str | None
    description: str | None = None
    dates: str | None = None
    kind: str = HEADING
    # The only person its table or profile presents: the answer's subject where the names agree.
    sole: bool = False

    @property
    def key(self) -> tuple[str, str, str]:
        return ((self.name or "").lower(), (self.description or "").lower(), (self.dates or "").lower())


@dataclass(frozen=True)
class Lead:
    name: str | None
    description: str | None
    dates: str | None


# What may open a lead before the name: a number that counts the leads ("1.", "2)", "IV."), emoji and symbols.
_OPENING_MARKS = re.compile(r"^(?:[^\w\s\"“'‘(]+\s*|(?:\d{1,2}|[IVX]{1,4})[.)]\s+)+")
# A role glossed in parentheses: "the composer", "a footballer", "the wetland ecologist".
_ROLE = re.compile(r"(?:the|a|an)\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)")


def _unmark(text: str) -> str:
    return text.replace("**", "").replace("__", "").replace("*", "").replace("`", "").strip()


# A counted label before a lead's name: "Card 1 — ", "Option 2: ", "Profile 3 – ", "Person #2 - ".
_COUNTED_LABEL = re.compile(r"^[A-Z][a-z]{2,12}\s+#?\d{1,2}\s*(?:[—–:]|-\s)\s*(?=\S)")
# A role as a label's dash presents it: "the lighthouse keeper", "a potter" (up to three words in lower case).
_LABELLED_ROLE = re.compile(r"(?:the|a|an)\s+((?:[a-z][\w-]*\s+){0,2}([a-z][\w-]*))")
# How the last word of a role for a person ends when the word is no listed occupation ("keeper", "violist").
_AGENT_ENDINGS = ("ist", "ian", "er", "or", "ess")
_NOT_AGENTS = frozenset(
    "winter summer chapter quarter border order number member matter corner other year error floor door "
    "colour color river water letter paper power center centre".split()
)


def _person_role(role: str) -> bool:
    """Whether a role in lower case names a person: a listed occupation, or an agent noun ("keeper", "curator")."""
    head = role.split()[-1]
    if head in OCCUPATIONS:
        return True
    return len(head) > 4 and head.endswith(_AGENT_ENDINGS) and head not in _NOT_AGENTS


def person_lead(text: str, off: frozenset[str] = frozenset()) -> Lead | None:
    """The person a lead presents ("Kenji Sato, potter (b. 1951)", "Kenji Sato (sprinter)", "Kenji Sato — potter",
    "The potter (b. 1951)"), or None for a label or anything else. Whether the name is a person's is asked of the
    names together (:func:`scopes`). ``off``: rules switched off.

    >>> person_lead("Card 2 — Kenji Sato, potter (born 1951)").name
    'Kenji Sato'
    >>> (lead := person_lead("NOW — the comedian (born 1990)")).name, lead.description, lead.dates
    (None, 'comedian', 'born 1990')
    """
    clean = _OPENING_MARKS.sub("", _unmark(text)).rstrip(" .:")
    if COUNTED_LEADS not in off:
        clean = _COUNTED_LABEL.sub("", clean, count=1)
    if not clean or label_of(clean) in PART_LABELS or label_of(clean) in SOURCE_LABELS or len(clean) > _LONGEST_LEAD:
        return None
    if QUOTED_NICKNAME_LEADS not in off:
        clean = _NICKNAME.sub(" ", clean)
    cut = min((p for p in (clean.find(s) for s in (",", " (", " — ", " – ", " - ", ":")) if p > 0), default=len(clean))
    name, rest = clean[:cut].strip(), clean[cut:]
    inside, outside = _parentheses(rest)
    # Dates set off by a comma outside the parentheses ("…, 1912–1988", "…, born 1986") are dates too.
    kept = [p for p in outside.split(",") if not any(ch.isdigit() for ch in p)]
    dated = [p.strip() for p in outside.split(",") if any(ch.isdigit() for ch in p)]
    description = ",".join(kept).strip(" ,:—–-").strip()
    dates = ", ".join(dated) or None
    role_in_parentheses = None
    for part in (p.strip() for p in inside.replace(";", ",").split(",")):
        if any(ch.isdigit() for ch in part):
            dates = part if dates is None else f"{dates}, {part}"
        elif part and not description:
            description = part
            role_in_parentheses = _ROLE.fullmatch(part)
    words = name.split()
    if words and words[0] == "The" and 2 <= len(words) <= 3 and all(w.islower() for w in words[1:]):
        return Lead(None, " ".join(words[1:]), dates)  # "The potter (b. 1951)": the subject, by role
    if len(words) == 1 and dates and LABELLED_ROLE_LEADS not in off and clean[cut:].lstrip()[:1] in ("—", "–"):
        # "THEN — the lighthouse keeper (1884–1959)": a label, then the subject by a dated role
        role = _LABELLED_ROLE.fullmatch(description)
        if role is not None and _person_role(role.group(1)):
            return Lead(None, role.group(1), dates)
    if len(words) == 1 and words[0][:1].isupper() and role_in_parentheses is not None:
        # "Komponisten (the composer), 1912–1988": a role named in a word of another language, glossed
        return Lead(None, role_in_parentheses.group(1), dates)
    if not 2 <= len(words) <= _NAME_WORDS or any(ch.isdigit() for ch in name):
        return None
    if not all(w[:1].isupper() or w.lower() in _PARTICLES for w in words):
        return None
    for article in ("a ", "an ", "the "):
        if description.lower().startswith(article):
            description = description[len(article) :]
    if len(description.split()) > 8:  # a sentence after the name, not a description
        description = ""
    return Lead(name, description or None, dates)


def presents_person(text: str) -> bool:
    """Whether a heading presents a person ("Kenji Sato, potter", "Ada Lovelace") rather than labels a part of the
    answer ("Recognition", "Early life", "Short answer")."""
    lead = person_lead(text)
    return lead is not None and (lead.name is None or _a_person(lead, []))


def _parentheses(text: str) -> tuple[str, str]:
    """What ``text`` says inside parentheses (joined by commas) and outside them."""
    inside: list[str] = []
    outside: list[str] = []
    depth = 0
    current: list[str] = []
    for ch in text:
        if ch == "(":
            if depth == 0:
                outside.append("".join(current))
                current = []
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0:
                inside.append("".join(current))
                current = []
        else:
            current.append(ch)
    (inside if depth else outside).append("".join(current))
    return ", ".join(inside), "".join(outside)


# Emoji or symbols and a space before a bold lead ("🎹 **Emrys Valdane — organist**", "▶ **Kenji Sato**"): decoration.
_LEADING_SYMBOLS = re.compile(r"^[^\w\s*_\"“'‘(\[<]+\s+")


def bold_lead(text: str, off: frozenset[str] = frozenset()) -> str | None:
    """The lead of a paragraph that opens in bold ("**Kenji Sato, potter (b. 1951).** He …"), with what follows the
    bold up to a colon or full stop when the bold is only the name ("**Kenji Sato**, potter: …"); emoji before the
    bold are decoration ("🎹 **Emrys Valdane — organist**")."""
    text = _LEADING_SYMBOLS.sub("", text, count=1)  # "🎹 **Emrys Valdane — organist**": an emoji before the bold
    if not text.startswith(("**", "__")):
        return None
    end = text.find(text[:2], 2)
    if end < 0 or end > 120:
        return None
    lead = text[2:end]
    after = text[end + 2 :]
    if after[:1] in (",", "(") or after.startswith(" ("):
        dated = BOLD_LEAD_DATES not in off and after.lstrip().startswith("(") and ")" in after
        closed = after.find(")") + 1 if dated else 0  # "(b. 1950)": its full stop ends no lead
        stops = (after.find(": ", closed), after.find(". ", closed), after.find("\n", closed))
        stop = min((p for p in stops if p >= 0), default=len(after))
        # "**X (cinematographer)** (born 1976), Vietnamese director …; shot …": the dates, not the whole entry
        lead += after[:closed] if dated and len(lead) + stop > _LONGEST_LEAD else after[:stop]
    return lead


def item_lead(text: str, off: frozenset[str] = frozenset()) -> str | None:
    """The lead of a list item: its bold opening, or what comes before a colon in its first words."""
    bold = bold_lead(text, off)
    if bold is not None:
        return bold
    head, colon, _ = text.partition(":")
    return head if colon and len(head.split()) <= 8 else None


def _introduces_list(blocks: tuple[Block, ...], i: int) -> bool:
    """A one-line paragraph ending in a colon, followed by a list."""
    text = blocks[i].text.strip()
    return (
        text.endswith(":") and "\n" not in text and len(text) <= 120 and i + 1 < len(blocks) and blocks[i + 1].depth > 0
    )


@dataclass(frozen=True)
class Scopes:
    """The scopes of one answer: each block's scope (-1 for none) and the scopes themselves."""

    scopes: tuple[Scope, ...]
    by_block: tuple[int, ...]


def scopes(doc: Document, off: frozenset[str] = frozenset()) -> Scopes:
    """The person scopes of ``doc``'s headings, bold lead-ins and list items (tables and fences key their own
    records: :func:`keyed_scope`). ``off``: rules switched off."""
    return _scopes(doc, off)


@lru_cache(maxsize=256)
def _scopes(doc: Document, off: frozenset[str] = frozenset()) -> Scopes:
    blocks = doc.blocks
    found: list[tuple[int, str, Lead]] = []  # block index, kind of lead, lead
    for i, b in enumerate(blocks):
        if b.kind == HEADING:
            lead = person_lead(b.text, off)
            kind = f"heading:{b.level}"
        elif b.kind == PARAGRAPH and b.item:
            text = item_lead(b.text, off)
            lead = person_lead(text, off) if text is not None else None
            kind = f"item:{b.depth}"
        elif b.kind == PARAGRAPH and not b.depth:
            text = bold_lead(b.text, off)
            if text is None and _introduces_list(blocks, i):
                text = b.text  # "Rafael Oduya, the sprinter:" then a list: the line presents whom the list is about
            lead = person_lead(text, off) if text is not None else None
            kind = "lead-in"
        else:
            continue
        if lead is not None:
            found.append((i, kind, lead))
    opened = _opened(found)
    by_block = [-1] * len(blocks)
    out: list[Scope] = []
    # Headings first, lead-ins inside them, list items innermost: the narrowest lead wins.
    for order in ("heading", "lead-in", "item"):
        for i, kind, lead in opened:
            if not kind.startswith(order):
                continue
            scope = Scope(len(out), lead.name, lead.description, lead.dates, kind.split(":")[0])
            out.append(scope)
            for j in _extent(blocks, i, kind, {k for k, _, _ in opened}):
                by_block[j] = scope.index
    return Scopes(tuple(out), tuple(by_block))


def _opened(found: list[tuple[int, str, Lead]]) -> list[tuple[int, str, Lead]]:
    """The leads that open scopes: of each kind, those that present two or more different people."""
    by_kind: dict[str, list[tuple[int, str, Lead]]] = {}
    for entry in found:
        by_kind.setdefault(entry[1], []).append(entry)
    out: list[tuple[int, str, Lead]] = []
    for entries in by_kind.values():
        people = [e for e in entries if _a_person(e[2], [x[2] for x in entries])]
        keys = {(_key(e[2])) for e in people}
        if len(people) >= 2 and len(keys) >= 2:
            out.extend(people)
    return sorted(out, key=lambda e: e[0])


def _key(lead: Lead) -> tuple[str, str, str]:
    return ((lead.name or "").lower(), (lead.description or "").lower(), (lead.dates or "").lower())


def _a_person(lead: Lead, others: list[Lead]) -> bool:
    """A role presents the subject; a name is a person's when another lead shares it (namesakes told apart) or the
    entity recogniser says so."""
    if lead.name is None:
        return True
    if any(w in ORG_WORDS for w in lead.name.lower().split()):
        return False  # "Harwick College", "Team Velora": an organisation's name
    if sum(o.name == lead.name for o in others) >= 2:
        return True
    doc = nlp.parse_one(f"{lead.name} was there.")
    return any(e.label_ == "PERSON" and e.start == 0 and e.end >= len(lead.name.split()) for e in doc.ents)


def _extent(blocks: tuple[Block, ...], i: int, kind: str, openers: set[int]) -> list[int]:
    """The blocks a lead's scope covers (see the module's docstring)."""
    first = blocks[i]
    if kind.startswith("heading"):
        out = [i]
        for j in range(i + 1, len(blocks)):
            if blocks[j].kind == HEADING and blocks[j].level <= first.level:
                break
            out.append(j)
        return out
    if kind.startswith("item"):
        item = first.items[-1]
        return [j for j in range(i, len(blocks)) if item in blocks[j].items]
    out = [i]
    for j in range(i + 1, len(blocks)):
        if blocks[j].kind == HEADING or j in openers:
            break
        out.append(j)
    return out
