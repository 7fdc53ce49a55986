"""The lexicon of a life's events told in idioms: every entry names a known event, has plain wordings, compiles,
and a longer idiom of an event comes before a shorter one it holds (the order is the precedence)."""

from __future__ import annotations

import re

from scoring.idioms import _LEXICON
from vocabulary.life_events import EVENT_WORDS, LIFE_IDIOMS

_ABBREVIATIONS = frozenset({"PhD", "Ph", "D", "DPhil", "Phil", "LP"})


def test_every_idiom_names_a_known_event_and_plain_words() -> None:
    for idiom in LIFE_IDIOMS:
        assert idiom.event in EVENT_WORDS, idiom
        assert idiom.plain and all(p.strip() for p in idiom.plain), idiom


def test_every_idiom_compiles_without_a_placeholder_left() -> None:
    assert len(_LEXICON) == len(LIFE_IDIOMS)
    for compiled in _LEXICON:
        assert "<" not in compiled.pattern.pattern.replace("(?<", "").replace("(?P<", ""), compiled.idiom


def test_a_longer_idiom_comes_before_a_shorter_one_it_holds() -> None:
    seen: list[str] = []
    for idiom in LIFE_IDIOMS:
        words = re.sub(r"[^a-z ]", " ", idiom.idiom.lower()).split()
        for earlier in seen:
            # a shorter idiom (all its words in this one) must not come first
            assert not (set(earlier.split()) < set(words) and earlier.split()[0] == words[0]), (earlier, idiom)
        seen.append(" ".join(words))


def test_the_lexicon_holds_no_capitalised_name() -> None:
    # general English only: the idioms name no person, place or label
    for idiom in LIFE_IDIOMS:
        words = re.findall(r"[A-Za-z]+", idiom.idiom)
        assert all(w.islower() or w in _ABBREVIATIONS for w in words), idiom
