"""People told apart by emoji: a key says which emoji stands for whom, and each line tagged with one is that person's.

An interleaved timeline or list of two namesakes ("- **1970** 🧪 Born in Hamburg", "- **1982** 📰 Born in
Vancouver") says whom each line is about only through its emoji, and a key that maps them ("Key: 🧪 = Mei-Lin
Osterhagen (chemist) · 📰 = Mei-Lin Osterhagen (journalist)", "each entry tagged 🎻 for the violin maker or ⛷️ for
the biathlete", "🔬 – the virologist; 💉 – the epidemiologist"). Where two or more emoji are keyed to different
people, each list item or line that carries exactly one of them is that person's scope (``emoji-keys``); a block
that is only the key ("Key: 🧪 = … · 📰 = …") makes no claim and is left out.

>>> keyed = emoji_key("Key: 🧪 = Ada Brook (chemist) · 📰 = Ada Brook (journalist)")
>>> sorted((e, lead.name, lead.description) for e, lead in keyed.items())
[('📰', 'Ada Brook', 'journalist'), ('🧪', 'Ada Brook', 'chemist')]
"""

from __future__ import annotations

import re

from scoring.rules import rule
from scoring.segment.document import PARAGRAPH, Document
from scoring.segment.scopes import Lead, Scope, Scopes, person_lead

EMOJI_KEYS = rule(
    "emoji-keys",
    "segment",
    "a key that maps two or more emoji to different people ('Key: 🧪 = X (chemist) · 📰 = X (journalist)', 'each "
    "entry tagged 🎻 for the violin maker or ⛷️ for the biathlete') makes each list item or line tagged with one of "
    "them that person's scope; a block that is only the key makes no claim",
)

_EMOJI_CHARS = "\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff"
# One emoji, with its variation selector and joined parts ("⛷️", "👩‍🔬").
_ONE_EMOJI = re.compile(f"[{_EMOJI_CHARS}](?:\ufe0f|\u200d[{_EMOJI_CHARS}]\ufe0f?)*\ufe0f?")
# An emoji keyed to someone: "🧪 = …", "🧪: …", "🧪 → …", "🧪 – …", "🧪 for …", "🧪 means …", "🧪 stands for …".
_KEYED = re.compile(
    f"(?P<emoji>{_ONE_EMOJI.pattern})\\s*(?:=|:|→|->|–|—|-|\\bfor\\b|\\bmeans\\b|\\bstands for\\b|\\bis\\b)\\s*"
)
# What closes a keyed person before the next one: a separator, "or"/"and", a closing colon or full stop.
_TRAILING = re.compile(r"(?:\s*(?:[·•;,|/]|\bor\b|\band\b|\)\s*:|:|\.))+\s*$", re.IGNORECASE)
_ARTICLE = re.compile(r"(?:the|a|an)\s+", re.IGNORECASE)
# Words a key block may hold besides its entries: "Key:", "Legend —".
_KEY_WORDS = frozenset("key legend keys tags tag".split())


def emoji_key(text: str) -> dict[str, Lead]:
    """The emoji ``text`` keys to people, each with the person it stands for (a name and description, or a role)."""
    found = list(_KEYED.finditer(text))
    out: dict[str, Lead] = {}
    for k, m in enumerate(found):
        end = found[k + 1].start() if k + 1 < len(found) else len(text)
        who = text[m.end() : end]
        who = who.split("\n", 1)[0]
        who = _balanced(_TRAILING.sub("", who).strip())
        article = _ARTICLE.match(who)
        if article is not None:  # "for the chemist (German, b. 1970)": the answer's subject, by role
            who = "The " + who[article.end() :]
        lead = person_lead(who)
        if lead is None or (lead.name is None and not lead.description):
            continue
        emoji = m.group("emoji").replace("\ufe0f", "")
        if emoji not in out or (out[emoji].name is None and lead.name is not None):
            out[emoji] = lead
    people = {(lead.name or "", lead.description or "") for lead in out.values()}
    return out if len(out) >= 2 and len(people) == len(out) else {}


def _balanced(text: str) -> str:
    """``text`` with an unclosed parenthesis closed ("the chemist (German, b. 1970" → "… 1970)")."""
    return text + ")" * max(0, text.count("(") - text.count(")"))


def _emoji_in(text: str) -> set[str]:
    return {m.group(0).replace("\ufe0f", "") for m in _ONE_EMOJI.finditer(text)}


def emoji_scopes(doc: Document, base: int = 0) -> tuple[Scopes, frozenset[int]] | None:
    """The scopes of the blocks of ``doc`` tagged with keyed emoji (indices from ``base``), and the blocks that are
    only a key; None where no key maps two emoji to different people or no block is tagged."""
    key: dict[str, Lead] = {}
    keys: set[int] = set()
    for b, block in enumerate(doc.blocks):
        found = emoji_key(block.text)
        if not found:
            continue
        for emoji, lead in found.items():
            if emoji not in key or (key[emoji].name is None and lead.name is not None):
                key[emoji] = lead
        rest = _KEYED.sub(" ", block.text)
        for lead in found.values():
            for part in (lead.name, lead.description, lead.dates):
                rest = rest.replace(part or "\0", " ")
        words = [w for w in re.findall(r"[^\W\d_]+", rest) if w.lower() not in _KEY_WORDS and w.lower() != "the"]
        if len(words) <= 2:
            keys.add(b)
    if len(key) < 2:
        return None
    order = list(key)
    out = tuple(
        Scope(base + k, key[e].name, key[e].description, key[e].dates, kind="emoji") for k, e in enumerate(order)
    )
    by_block = [-1] * len(doc.blocks)
    for b, block in enumerate(doc.blocks):
        if b in keys or block.kind != PARAGRAPH or emoji_key(block.text):
            continue
        tagged = _emoji_in(block.text) & set(key)
        if len(tagged) == 1:
            by_block[b] = order.index(next(iter(tagged))) + base
    if all(s < 0 for s in by_block):
        return None
    return Scopes(out, tuple(by_block)), frozenset(keys)
