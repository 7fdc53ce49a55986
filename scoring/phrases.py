"""Phrases as sets of token positions of a parsed sentence, and how to render them as text.

Decomposition builds each atomic fact from pieces of one sentence: the subject, the verb and
its auxiliaries, one complement, one modifier. A :class:`Phrase` maps a sort position to the text
to print there: token ``i`` sits at position ``i``, inserted words (an inherited subject, a
copula "was") at fractional positions, so rendering is a sort and a join. The token positions
are kept so that a revision can later delete exactly the words of an unsupported fact.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from scoring.inflect import article

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

_ARTICLE = re.compile(r"\b([Aa]n?) (\W*)(\w[\w.'-]*)")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([,.;:!?%)\]])")
_SPACE_AFTER_OPEN = re.compile(r"([(\[])\s+")
_DOUBLE_COMMA = re.compile(r"(?:\s*,\s*){2,}")
_EDGE_JUNK = " ,;:-–—"
_DANGLING = re.compile(r"(?:\s*(?:,|\band\b|\bor\b|\bbut\b|\bas well as\b))+\s*$", re.IGNORECASE)
_LEADING_JUNK = re.compile(r"^(?:\s*(?:,|\band\b|\bor\b|\bbut\b))+\s*", re.IGNORECASE)


@dataclass
class Phrase:
    """Text pieces keyed by position; ``tokens`` are the sentence tokens the phrase uses."""

    pieces: dict[float, str] = field(default_factory=dict)
    tokens: set[int] = field(default_factory=set)
    # Whitespace after each token piece, as written ("then-club", "£36.9", quotes stay tight).
    spaces: dict[float, str] = field(default_factory=dict)

    def add_tokens(self, doc: Doc, ids: Iterable[int]) -> Phrase:
        for i in ids:
            self.pieces[float(i)] = token_text(doc, i)
            self.spaces[float(i)] = doc[i].whitespace_
            self.tokens.add(i)
        return self

    def insert(self, pos: float, text: str) -> Phrase:
        self.pieces[pos] = text
        return self

    def copy(self) -> Phrase:
        return Phrase(dict(self.pieces), set(self.tokens), dict(self.spaces))

    def merge(self, other: Phrase) -> Phrase:
        out = self.copy()
        out.pieces.update(other.pieces)
        out.spaces.update(other.spaces)
        out.tokens |= other.tokens
        return out

    def drop(self, i: int) -> None:
        """Remove token ``i`` from the phrase."""
        self.pieces.pop(float(i), None)
        self.spaces.pop(float(i), None)
        self.tokens.discard(i)

    def render(self) -> str:
        """The phrase as one clean sentence with a capital letter and a final period."""
        keys = [k for k in sorted(self.pieces) if self.pieces[k]]
        parts: list[str] = []
        for n, k in enumerate(keys):
            parts.append(self.pieces[k])
            nxt = keys[n + 1] if n + 1 < len(keys) else None
            if nxt is not None:
                adjacent = k == int(k) and nxt == k + 1
                parts.append(self.spaces.get(k, " ") if adjacent else " ")
        return finish("".join(parts))


def token_text(doc: Doc, i: int) -> str:
    """The text of token ``i``, lower-cased if it is capitalised only by position."""
    tok: Token = doc[i]
    text = tok.text
    if i == 0 and tok.pos_ not in ("PROPN",) and text not in ("I",) and not text.isupper():
        text = text[:1].lower() + text[1:]
    return text


def finish(text: str) -> str:
    """Normalise spacing and punctuation, fix "a"/"an", capitalise and end with a period."""
    text = _SPACE_BEFORE_PUNCT.sub(r"\1", text)
    text = _SPACE_AFTER_OPEN.sub(r"\1", text)
    text = text.replace(" 's", "'s").replace(" n't", "n't").replace(" ’s", "’s")
    text = _DOUBLE_COMMA.sub(", ", text)
    text = text.replace("()", " ")  # parentheses whose content went to another fact
    text = re.sub(r"\s+", " ", text).strip()
    text = _LEADING_JUNK.sub("", text)
    text = _DANGLING.sub("", text.rstrip(" .;:,"))
    text = text.strip(_EDGE_JUNK)
    text = _balance_quotes(text)
    text = _ARTICLE.sub(_fix_article, text)
    if not text:
        return ""
    return text[0].upper() + text[1:] + ("" if text.endswith(("?", "!")) else ".")


def _fix_article(m: re.Match[str]) -> str:
    det, punct, word = m.group(1), m.group(2), m.group(3)
    new = article(word)
    if det[0].isupper():
        new = new.capitalize()
    return f"{new} {punct}{word}"


def _balance_quotes(text: str) -> str:
    if text.count('"') % 2 == 1:
        text = text.replace('"', "")
    opened, closed = text.count("“"), text.count("”")
    if opened != closed:
        text = text.replace("“", "").replace("”", "")
    if text.count("(") == text.count(")") + 1:
        # "won the Amani Prize in Economics (2017": the parser hung the closing parenthesis on the verb; a year
        # left open at the end is closed, so the fact keeps it as its date.
        text = _OPEN_YEAR.sub(r"(\1)", text)
    if text.count("(") != text.count(")"):
        text = text.replace("(", "").replace(")", "")
    return text


_OPEN_YEAR = re.compile(r"\(((?:1[0-9]|20)[0-9]{2})(?=\s*[.,;]?\s*$)")


def subtree_ids(tok: Token, prune: set[int] | None = None, prune_deps: frozenset[str] = frozenset()) -> set[int]:
    """Ids of ``tok``'s subtree, without pruned tokens / dependency labels (and their subtrees)."""
    out: set[int] = set()
    stack = [tok]
    while stack:
        t = stack.pop()
        i = t.i
        if prune and i in prune:
            continue
        out.add(i)
        for c in t.children:
            if c.dep_ in prune_deps:
                continue
            stack.append(c)
    return out


@dataclass
class Subject:
    """The subject of a clause: its text, its token ids, and its head token (None when inherited)."""

    text: str
    ids: set[int] = field(default_factory=set)
    head: Token | None = None

    @property
    def is_person(self) -> bool:
        if self.head is None:
            return bool(self.text[:1].isupper())
        h = self.head
        if h.lower_ in ("he", "she", "they", "i", "we"):
            return True
        return h.ent_type_ == "PERSON" or h.pos_ == "PROPN"
