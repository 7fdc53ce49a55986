"""The language an answer is written in, and whether the engine checking it can read that language.

The offline engine reads English only (an English spaCy model, English rules and word lists): an answer in
French or Chinese run through it comes out as a handful of unreadable "facts", scored as if they were
wrong. Such an answer is ``unverifiable`` with ``reason: "language"`` instead, and the operator's
``on_unverifiable`` decides what happens to it; an engine that reads other languages (the LLM judge) is
configured with ``reads=None`` and checks it.

Detection is CLD2 (``pycld2``, Apache-2.0): its model is compiled into the wheel, so nothing is loaded or
downloaded at run time; it costs about 0.1 ms per answer and a few MB. It reports what share of the text is
in which language, so an English biography full of Polish names and places stays English ("Władysław
Kowalczyk was born in Wrocław" is 99 % English to it). An answer is judged in another language only when
it is long enough to tell (``min_words``), CLD2 calls its reading reliable, and the languages the engine
reads make up less than half of it. Capitalised words (names, places, titles) are left out of what CLD2
reads:

>>> detect("Clara Schumann war eine deutsche Pianistin und Komponistin. Sie wurde 1819 in Leipzig geboren.")
Language(code='de', share=0.97, readable=False)
>>> detect("Władysław Kowalczyk is a Polish cellist. He was born in Wrocław in 1961.")
Language(code='en', share=0.96, readable=True)
>>> detect("Born in Wrocław.")  # too short to tell: read as the engine's language
Language(code=None, share=0.0, readable=True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pycld2

from vocabulary.fold import UPPERCASE

ENGLISH = frozenset({"en"})
UNDETERMINED = "und"
OTHER = "other"

# Every code CLD2 can name, "und" (too short or unreliable) and "other" (anything else it might return): the
# values a metric's ``language`` label can take.
LANGUAGE_CODES = frozenset(code for _, code in pycld2.LANGUAGES if not code.startswith("xx-")) | {UNDETERMINED, OTHER}

# A word, or one character of a script written without spaces (Chinese, Japanese): each carries about a word.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_WORD = re.compile(rf"[{_CJK}]|[^\W{_CJK}]+")
# Capitalised words: names, places and titles, which say nothing of the language around them ("Søren Ødegaard
# studied in København" is English); German nouns go too, and its other words still tell German.
_CAPITALISED = re.compile(rf"{UPPERCASE}[\w'’.-]*")


@dataclass(frozen=True)
class LanguageConfig:
    """Which languages the engine reads, and how much text it takes to tell another one.

    ``reads=None``: the engine reads any language (the LLM judge); the answer's language is still detected
    and reported, never acted on."""

    reads: frozenset[str] | None = field(default=ENGLISH)
    # Fewer words than this and the answer is read as the engine's language: "Born in Wrocław." is not Polish.
    min_words: int = 12
    # The engine's languages must make up at least this share of the text for it to be read.
    min_share: float = 0.5


@dataclass(frozen=True)
class Language:
    """The main language of a text (ISO 639-1 code, ``None`` when it cannot be told), its share of the
    text, and whether the engine reads the text."""

    code: str | None
    share: float
    readable: bool


def language_label(code: str | None) -> str:
    """A detected language code as a metric label, one of :data:`LANGUAGE_CODES` (a bounded set).

    >>> language_label("fr"), language_label(None), language_label("made-up")
    ('fr', 'und', 'other')
    """
    if code is None:
        return UNDETERMINED
    return code if code in LANGUAGE_CODES else OTHER


def detect(text: str, config: LanguageConfig | None = None) -> Language:
    """The main language of ``text`` and whether an engine configured by ``config`` reads it."""
    config = config or LanguageConfig()
    if len(_WORD.findall(text)) < config.min_words:
        return Language(None, 0.0, True)
    try:
        reliable, _, found = pycld2.detect(_CAPITALISED.sub(" ", text), isPlainText=True)
    except (pycld2.error, UnicodeError, ValueError):  # invalid UTF-8 (a lone surrogate): cannot tell
        return Language(None, 0.0, True)
    shares: dict[str, float] = {}
    for _, code, percent, _ in found:
        if code != "un":
            base = code.split("-")[0]
            shares[base] = shares.get(base, 0.0) + percent / 100.0
    if not reliable or not shares:
        return Language(None, 0.0, True)
    code = max(shares, key=lambda c: shares[c])
    if config.reads is None:
        return Language(code, shares[code], True)
    read = sum(share for c, share in shares.items() if c in config.reads)
    return Language(code, shares[code], code in config.reads or read >= config.min_share)
