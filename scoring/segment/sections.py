"""Section labels laid out as list items: a bold item with items nested under it labels them, as a heading would.

"- **Education**" over "  - **Doctorate:** Southern Cross University, 2001" is no claim: read as an item, it became
"He was education" (and "Recognition", "Career", "Other" likewise), each unsupported. The rule (``label-items``, a
segment rule) reads such an item as a heading that presents no one. An item that presents a person ("- **Kenji
Sato, potter (b. 1951)**") stays a lead (``scoring.segment.scopes``); an item with words outside its bold, or with
nothing nested under it, stays an item.

>>> from scoring.segment.document import parse
>>> doc = parse("- **Education**\\n  - Studied law in Leeds\\n- **Won the Kessler Medal**")
>>> [label_item(doc, b) is not None for b in range(len(doc.blocks))]
[True, False, False]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from scoring import nlp
from scoring.rules import Rule, register, rule, run
from scoring.segment.document import BREAK, PARAGRAPH, STRONG, TEXT, Document
from scoring.segment.scopes import presents_person
from vocabulary.document import SECTION_WORDS

LABEL_ITEMS = "label-items"
CAPS_LABELS = rule(
    "caps-labels",
    "segment",
    "a line in capitals made of a section's label words ('EDUCATION', 'PROFESSIONAL EXPERIENCE', 'HONOURS', "
    "'SELECTED WORK') labels the lines under it, as a heading would: it opens a block of its own, claims nothing and "
    "presents no one (a name in capitals, 'ROSALIND ACHTERBERG', stays a line)",
)

BOLD_TITLES = rule(
    "bold-titles",
    "segment",
    "a paragraph all in bold on a line of its own, with blocks after it ('**Section 3: Historical significance of the "
    "works**', '**CLASS NOTES — Alumni News**', '**Assembly talk: \"The woman who listens to caves\"** *(about 5 "
    "minutes)*') is a title, read as a heading: it claims nothing and presents no one (a bold line that presents a "
    "person stays a lead; one that ends a sentence or says one, '**She won gold in 2004.**', stays a claim)",
)
# A title is this short: "Section 3: Historical significance of the works".
_TITLE_WORDS = 12
# What may follow a title's bold on its line: a note in parentheses ("*(about 5 minutes)*").
_TITLE_NOTE = re.compile(r"^\(\s*[^()]*\)$")


def bold_title(doc: Document, index: int) -> str | None:
    """The title a paragraph of ``doc`` is (:data:`BOLD_TITLES`): its text, or None when it is no title."""
    blocks = doc.blocks
    block = blocks[index]
    if block.kind != PARAGRAPH or block.item or index + 1 >= len(blocks):
        return None
    pieces = [(kind, text.strip()) for kind, text in block.inline if text.strip()]
    if not pieces or pieces[0][0] != STRONG or any(kind == BREAK for kind, _ in pieces):
        return None
    rest = [text for kind, text in pieces[1:]]
    if any(kind != TEXT for kind, _ in pieces[1:]) or (rest and not _TITLE_NOTE.match(" ".join(rest))):
        return None
    text = pieces[0][1].rstrip(":").strip()
    if not text or text[-1] in ".!?;," or len(text.split()) > _TITLE_WORDS or presents_person(text):
        return None
    return None if _says_a_sentence(text) else block.plain().strip()


def _says_a_sentence(text: str) -> bool:
    """Whether ``text`` says a sentence: its root a verb with a subject ("She won gold in 2004"), not a noun a clause
    may hang on ("A setter who deserved a place")."""
    doc = nlp.parse_one(text)
    return any(
        t.dep_ == "ROOT" and t.pos_ in ("VERB", "AUX") and any(c.dep_ in _SUBJECTS for c in t.children) for t in doc
    )


_SUBJECTS = ("nsubj", "nsubjpass", "expl", "csubj")


# A label is this short: "Who he is", "Early career and training".
_LABEL_WORDS = 6


@dataclass(frozen=True)
class LabelItem:
    """The label-items rule's decision: the item's text, read as a heading."""

    text: str
    decided_by: str = ""

    def stamped(self, name: str) -> LabelItem:
        return replace(self, decided_by=name)


@dataclass(frozen=True)
class At:
    """A block of a document, by its index; ``lead``: the block opens a person's scope (``scoring.segment.scopes``)."""

    doc: Document
    index: int
    lead: bool = False


def _label(at: At) -> LabelItem | None:
    blocks = at.doc.blocks
    block = blocks[at.index]
    if at.lead or block.kind != PARAGRAPH or not block.item or not block.items or at.index + 1 >= len(blocks):
        return None
    pieces = [(kind, text) for kind, text in block.inline if text.strip()]
    bold = [text for kind, text in pieces if kind == STRONG]
    # All its words in bold; a colon after the bold ("**Career**:") is still a label's.
    rest = [text.strip() for kind, text in pieces if kind == TEXT]
    plain = not bold and len(rest) == 1 and len(pieces) == 1
    if not plain and (len(bold) != 1 or any(r != ":" for r in rest) or len(pieces) != len(bold) + len(rest)):
        return None
    text = (rest[0] if plain else bold[0]).strip().rstrip(":").strip()
    if not text or len(text.split()) > _LABEL_WORDS or text[-1] in ".!?" or presents_person(text):
        return None
    if not _no_name(text):  # "**Theodore "Ironhand" Vance — boxer (1909–1971)**" names whom its items are about
        return None
    if plain and any(t.pos_ in ("VERB", "AUX") for t in nlp.parse_one(text)):
        return None  # "- Married to a pianist" over items that add to it: a claim, not a label
    nested = blocks[at.index + 1]
    if nested.depth <= block.depth or nested.items[: len(block.items)] != block.items:
        return None
    return LabelItem(text)


def _no_name(text: str) -> bool:
    """Whether a label names nothing: no digit, no quote, no capital past its first word, and no proper noun once
    its first word is read in lower case (a capital only because the label starts with it: "Recognition", "Who he
    is"). A label in title case ("Early Life") is taken for a name: the item then stays an item."""
    if any(ch.isdigit() or ch in '"“”' for ch in text) or any(w[:1].isupper() for w in text.split()[1:]):
        return False  # a date, a nickname, a name past the first word ("Gripwell Robotics")
    return not any(t.pos_ == "PROPN" for t in nlp.parse_one(text[:1].lower() + text[1:]))


LABEL_ITEM_RULES: tuple[Rule[At, LabelItem], ...] = register(
    Rule(
        LABEL_ITEMS,
        "segment",
        "a list item all in bold, or a short one in plain words of no verb, with items nested under it "
        "('- **Education**', '- **Career:**', '- Early career') labels them as a heading would: it claims nothing "
        "and presents no one (an item that presents a person stays a lead)",
        (
            "- **Education**\n  - Studied law at Leeds",
            "- **Career:**\n  - Joined Acme in 2001",
            "1. **Recognition**\n   - Kessler Medal, 2019",
            "* **Who she is**\n    * A Welsh poet",
            "- Early career\n  - Worked as a court stenographer from 1988 to 1996.",
            "- Translations\n  - Has had her novels translated into 22 languages.",
        ),
        _label,
    ),
)


def label_item(doc: Document, index: int, rules_off: frozenset[str] = frozenset(), lead: bool = False) -> str | None:
    """The label a list item of ``doc`` is (its text without the bold), or None when it is no label item (``lead``:
    the item opens a person's scope)."""
    found = run(LABEL_ITEM_RULES, At(doc, index, lead), rules_off)
    return found.text if found is not None else None


# A section label in capitals is this short: "PROFESSIONAL EXPERIENCE", "SELECTED WORK".
_CAPS_WORDS = 4


def caps_label(line: str) -> bool:
    """Whether ``line`` is a section label in capitals on a line of its own ("EDUCATION", "PROFESSIONAL EXPERIENCE",
    "HONOURS & AWARDS"): at most four words, all in capitals, each a word of a section's label (``SECTION_WORDS``).
    A name in capitals ("ROSALIND ACHTERBERG") is no label.

    >>> caps_label("PROFESSIONAL EXPERIENCE"), caps_label("ROSALIND ACHTERBERG"), caps_label("Education")
    (True, False, False)
    """
    words = [w for w in line.replace("*", "").replace("&", " ").replace("/", " ").strip().rstrip(":").split() if w]
    return (
        0 < len(words) <= _CAPS_WORDS
        and all(w.isalpha() and w.isupper() and len(w) > 1 for w in words)
        and all(w.lower() in SECTION_WORDS for w in words)
    )
