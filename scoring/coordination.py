"""Coordination: one phrase per conjunct ("films such as X and Y" -> "... X", "... Y").

Part of decomposition (:mod:`scoring.decompose`): a complement or modifier holding coordinated
nouns or adjectives yields one variant per conjunct, recursively, at most ``MAX_VARIANTS``.
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import TYPE_CHECKING

from scoring.parse_rules import NAMED_RELATIVE_ITEM, on
from scoring.phrases import Phrase, subtree_ids, token_text

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

MAX_VARIANTS = 6
_NOMINAL = frozenset({"NOUN", "PROPN", "NUM", "ADJ", "PRON"})
_AGENT_NOUN = re.compile(r"(?:er|or|ist|ian|ant|ent|ess)$")


def expand(doc: Doc, ids: set[int], depth: int = 0) -> list[Phrase]:
    """One phrase per conjunct of the first coordinated noun phrase in ``ids`` (recursively)."""
    titles: set[int] = set()
    for i in sorted(ids):
        t = doc[i]
        if i in titles:
            continue
        conjs = [c for c in t.conjuncts if c.i in ids and c.i > t.i]
        # A parenthesised appositive ("Tromsvik IL (2005–2009), Kjellvik FK, …") dates its noun; the list goes on.
        listed = next(
            (c for c in t.children if c.dep_ == "appos" and c.i > t.i and doc[c.left_edge.i - 1].text != "("), None
        )
        if conjs and _ampersand_name(doc, t, conjs):
            # "the map publisher Stanford & Pell", "Marks & Spencer": one firm's name, not two.
            titles |= {j for c in conjs for j in subtree_ids(c)}
            continue
        named = [listed, *listed.conjuncts] if listed is not None else conjs
        if named and _names_one_work(doc, t, [n for n in named if n.i > t.i]):
            # "a memoir, Shuttle and Loom,": one work and its title, not a list; its "and" joins no items.
            titles |= {j for n in named for j in subtree_ids(n)}
            continue
        # Only a comma-separated appositive lists items; "the song Daydream Believer" names one song.
        comma = listed is not None and any(c.text == "," and t.i < c.i < listed.i for c in t.children)
        is_list = (
            listed is not None and comma and (bool(listed.conjuncts) or (t.pos_ == "NOUN" and listed.pos_ == "PROPN"))
        )
        if not conjs and is_list and listed is not None and listed.i in ids and t.dep_ != "nsubj":
            # "a journalist, photographer, and author" (spaCy makes the 2nd item an appositive) and
            # "two albums, Choices and Leisure": one fact per item.
            conjs = [listed, *(c for c in listed.conjuncts if c.i in ids and c.i > listed.i)]
            # "his wife, the sommelier Claudia Fuentes, and their three daughters": the wife is Claudia Fuentes
            named_relative = len(conjs) > 1 and _relative_named(t, listed) and on(NAMED_RELATIVE_ITEM)
        else:
            named_relative = False
        if not conjs or t.pos_ not in _NOMINAL or depth > 2:
            continue
        if t.head.lower_ in ("between",) or (t.head.dep_ == "prep" and t.head.lower_ == "between"):
            continue
        if _one_measure(t, conjs):
            continue  # "in 13 hours and 40 minutes" is one length of time, not two
        chain = [t, *conjs]
        whole = subtree_ids(t) & ids
        # The first conjunct's article, or its "no", is every conjunct's: "no web or desktop version" says there
        # is no desktop version either.
        det = next((c for c in t.children if c.dep_ == "det" and c.lower_ in ("a", "an", "no")), None)
        variants: list[Phrase] = []
        chain_ids = {x.i for x in chain}
        for x in chain:
            own = _own_ids(x, ids, chain_ids)
            keep = (ids - whole) | own
            if x.i == t.i:
                keep |= {j for j in whole if j < t.left_edge.i}
                if t.dep_ in ("compound", "nmod") and _AGENT_NOUN.search(t.lower_) and t.head.i in keep:
                    # "a former swimmer and football coach": the swimmer is not a "swimmer coach".
                    keep.discard(t.head.i)
            phrase = Phrase().add_tokens(doc, sorted(keep))
            if x.i != t.i and det is not None and not any(c.dep_ in ("det", "poss") for c in x.children):
                phrase.insert(min(own) - 0.5, token_text(doc, det.i))
            variants.append(phrase)
        if named_relative:
            variants = variants[1:]  # the relative is the item named after it
        out: list[Phrase] = []
        for v in variants[:MAX_VARIANTS]:
            sub = expand(doc, set(v.tokens), depth + 1) if len(v.tokens) > 2 else [v]
            for s in sub:
                s.pieces.update({k: val for k, val in v.pieces.items() if k != int(k)})
            out.extend(sub)
        return out[:MAX_VARIANTS]
    return [Phrase().add_tokens(doc, sorted(ids))]


def _relative_named(noun: Token, name: Token) -> bool:
    """Someone or something owned by a pronoun ("his wife", "her husband", "her band") and the name set after it
    ("the sommelier Claudia Fuentes", "the Wailers"); not a place or a date."""
    owned = any(c.dep_ == "poss" and c.lower_ in ("his", "her", "their") for c in noun.children)
    return owned and noun.pos_ == "NOUN" and name.pos_ == "PROPN" and name.ent_type_ not in ("GPE", "LOC", "DATE")


# Units of one measure, from the largest down: "13 hours and 40 minutes", "6 feet and 2 inches" are one amount each.
_UNIT_LADDERS: tuple[tuple[frozenset[str], ...], ...] = tuple(
    tuple(frozenset(rung.split()) for rung in ladder)
    for ladder in (
        ("years year", "months month", "weeks week", "days day", "hours hour", "minutes minute", "seconds second"),
        ("miles mile", "yards yard", "feet foot ft", "inches inch in"),
        ("kilometres kilometre kilometers kilometer km", "metres metre meters meter m",
         "centimetres centimetre centimeters centimeter cm"),
        ("stone stones st", "pounds pound lb lbs", "ounces ounce oz"),
    )
)  # fmt: skip


def _one_measure(t: Token, conjs: list[Token]) -> bool:
    """Whether counted units, each smaller than the one before it on one ladder, make one amount ("13 hours and
    40 minutes", "two years and three months", "6 feet, 2 inches")."""
    chain = [t, *conjs]
    if not all(any(c.dep_ == "nummod" for c in x.children) for x in chain):
        return False
    for ladder in _UNIT_LADDERS:
        ranks = [next((k for k, rung in enumerate(ladder) if x.lower_ in rung), -1) for x in chain]
        if min(ranks) >= 0 and all(a < b for a, b in pairwise(ranks)):
            return True
    return False


def _own_ids(x: Token, ids: set[int], chain: set[int]) -> set[int]:
    """``x`` and its dependents, without its own conjuncts and coordinating words."""
    out = {x.i}
    for c in x.children:
        if c.i in chain or c.dep_ in ("conj", "cc", "preconj") or (c.dep_ == "punct" and c.text == ","):
            continue
        out |= subtree_ids(c)
    return out & ids


def _names_one_work(doc: Doc, noun: Token, named: list[Token]) -> bool:
    """Whether capitalised words after a comma name the one thing the singular noun before them is: "a
    memoir, Shuttle and Loom", "her debut album, Salt and Smoke" — not "two albums, Choices and Leisure",
    "a journalist, photographer, and author", nor "Leeds, Arsenal and Spurs"."""
    if noun.tag_ != "NN" or any(c.like_num for c in noun.children) or len(named) != 2:
        return False
    first, last = named
    if doc[noun.i + 1].text != "," or first.i != noun.i + 2:
        return False  # the title follows the noun and its comma at once
    inside = doc[first.i : last.right_edge.i + 1]
    closed = last.right_edge.i + 1 >= len(doc) or doc[last.right_edge.i + 1].text in (",", ".", "(", ";", ")")
    return (
        closed
        and not any(t.text == "," for t in inside)
        and all(t.text[:1].isupper() or t.is_stop for t in inside if t.is_alpha)
        and all(w.pos_ == "PROPN" for w in named)
    )


def _ampersand_name(doc: Doc, t: Token, conjs: list[Token]) -> bool:
    """Whether capitalised words joined by "&" and nothing else name one thing ("Stanford & Pell", "Procter &
    Gamble", "Smith, Jones & Co"): a firm's name, where "Leeds and Arsenal" lists two clubs."""
    chain = [t, *conjs]
    if not all(x.text[:1].isupper() for x in chain):
        return False
    between = doc[t.i + 1 : conjs[-1].i]
    return any(w.text == "&" for w in between) and not any(w.lower_ in ("and", "or") for w in between)
