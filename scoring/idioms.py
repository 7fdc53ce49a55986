"""A life's event told in an idiom, read in the plain words a page writes (the lexicon: vocabulary/life_events.py).

Two readers use it: the value roles (scoring/roles.py) read a fact's role from its plain words, so "Vance passed
in 1971" takes the death year of a page that says "died in 1971" instead of being ``misplaced-value``; the verify
rule ``idiom-reading`` checks the plain reading again and takes its verdict where it is supported, or refuted by
a rule (so the idiom with a wrong year or place stays refuted).

>>> plain_reading("Theodore Vance passed in 1971.", ("Theodore Vance",))
'Theodore Vance died in 1971.'
>>> plain_reading("The law passed in 1971.", ("Theodore Vance",))
'The law passed in 1971.'
>>> plain_reading("Ottilie Pace's journey began in Graz, Austria.", ("Ottilie Pace",))
'Ottilie Pace was born in Graz, Austria.'
>>> plain_reading("She began her journey to Graz in 1990.")
'She began her journey to Graz in 1990.'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from vocabulary import fold_ascii as fold
from vocabulary.life_events import LIFE_IDIOMS, LifeIdiom, notation

# Words that may stand between the subject and the idiom ("Ashby, having first seen …", "she has sadly passed").
_BETWEEN = frozenset(
    "having has had have was is who which first finally eventually sadly peacefully quietly later then".split()
)
_PRONOUNS = frozenset({"he", "she", "they"})
_OWN_PRONOUN = {"his": "he", "her": "she", "their": "they"}
_OWN = r"(?:(?P<own>\b(?:his|her|their|[^\W\d_][\w.-]*['’]s))\s+|(?P<start>^))"
# A value after the idiom: "in 1971", "at Leiden", "in the year 1902", "on 3 May 1971", ", in Graz".
_VALUE = re.compile(r"\s*,?\s*(?:in|at|on|near)\s+(?:the\s+year\s+)?(?:\d|[A-Z])")
# Words of a plain wording that say nothing of the event: a page need not have them.
_LIGHT = frozenset("a an the to in was is her his their".split())


@dataclass(frozen=True)
class _Compiled:
    idiom: LifeIdiom
    pattern: re.Pattern[str]


def _compile(idiom: LifeIdiom) -> _Compiled:
    source = idiom.idiom
    for placeholder, words in notation(idiom).items():
        source = source.replace(placeholder, words)
    source = source.replace("<own> ", _OWN)
    lead = "" if source.startswith(_OWN) else r"(?<!\w)"
    return _Compiled(idiom, re.compile(lead + source + r"(?!\w)", re.IGNORECASE))


_LEXICON: tuple[_Compiled, ...] = tuple(_compile(i) for i in LIFE_IDIOMS)
_PAGE_LEXICON: tuple[_Compiled, ...] = tuple(c for c in _LEXICON if c.idiom.pages)


def _any(lexicon: tuple[_Compiled, ...]) -> re.Pattern[str]:
    """One pattern that finds any idiom of ``lexicon`` (their groups unnamed): a text it does not match is read
    as it is without running each idiom's pattern (every fact against every candidate page comes here)."""
    parts = [re.sub(r"\(\?P<\w+>", "(?:", c.pattern.pattern) for c in lexicon]
    return re.compile("|".join(f"(?:{p})" for p in parts), re.IGNORECASE)


_ANY = {False: _any(_LEXICON), True: _any(_PAGE_LEXICON)}


def _name_words(names: Iterable[str]) -> frozenset[str]:
    return frozenset(w for n in names for w in re.findall(r"\w+", fold(n).lower()) if len(w) > 1)


def _after_subject(before: str, names: frozenset[str]) -> bool:
    """Whether ``before`` (the text before an idiom) ends with the subject: a name word or a personal pronoun,
    with only the words of :data:`_BETWEEN` (and commas) after it."""
    words = re.findall(r"[\w'’-]+", fold(before).lower())
    while words and words[-1] in _BETWEEN:
        words.pop()
    if not words:
        return False
    last = re.sub(r"['’]s$", "", words[-1])
    return last in _PRONOUNS or last in names or any(part in names for part in last.split("-") if part)


def _owner(own: str | None, names: frozenset[str]) -> str | None:
    """The subject a possessive before the idiom names ("Pace's" → "Pace", "her" → "she"); None where it is no
    name word of the subject's ("the company's story began …")."""
    if own is None:
        return ""
    if own.lower() in _OWN_PRONOUN:
        return _OWN_PRONOUN[own.lower()]
    owner = re.sub(r"['’]s$", "", own)
    parts = re.findall(r"\w+", fold(owner).lower())
    return owner if parts and all(p in names for p in parts) else None


@lru_cache(maxsize=512)
def _page_words(texts: tuple[str, ...]) -> frozenset[str]:
    return frozenset(w for t in texts for w in re.findall(r"\w+", fold(t).lower()))


def _plain(idiom: LifeIdiom, said: str, words: frozenset[str]) -> str | None:
    """The plain wording the page uses (the first whose event words it has), the default where it has none or
    no page is given; None where the page has the idiom's own words (nothing to read)."""
    if not words:
        return idiom.plain[0]
    own = {w for w in re.findall(r"\w+", fold(said).lower()) if w not in _LIGHT}
    if own and own <= words:
        return None
    for plain in idiom.plain:
        if {w for w in re.findall(r"\w+", fold(plain).lower()) if w not in _LIGHT} <= words:
            return plain
    return idiom.plain[0]


def plain_reading(
    text: str, names: Iterable[str] = (), texts: Sequence[str] = (), *, pages: bool = False, off: Iterable[str] = ()
) -> str:
    """:func:`read_events`' reading."""
    return read_events(text, names, texts, pages=pages, off=off)[0]


def read_events(
    text: str, names: Iterable[str] = (), texts: Sequence[str] = (), *, pages: bool = False, off: Iterable[str] = ()
) -> tuple[str, tuple[str, ...]]:
    """``text`` with each idiom of a life's event (vocabulary.LIFE_IDIOMS, in its order) in the plain words a page
    writes; given the page's ``texts``, in the wording they use. ``names`` are the subject's (a guarded idiom must
    follow one of their words or a personal pronoun); ``pages`` reads only the idioms safe in page text; ``off``
    names events not to read. Returns the reading and the events it read."""
    if _ANY[pages].search(text) is None:
        return text, ()
    lexicon = _PAGE_LEXICON if pages else _LEXICON
    name_words = _name_words(names)
    page_words = _page_words(tuple(texts))
    skip = frozenset(off)
    events: list[str] = []
    for compiled in lexicon:
        idiom = compiled.idiom
        if idiom.event in skip:
            continue
        read = _read_one(text, compiled, name_words, page_words)
        if read != text and idiom.event not in events:
            events.append(idiom.event)
        text = read
    return text, tuple(events)


def _read_one(text: str, compiled: _Compiled, names: frozenset[str], page_words: frozenset[str]) -> str:
    idiom = compiled.idiom
    out: list[str] = []
    at = 0
    for m in compiled.pattern.finditer(text):
        after = text[m.end() :]
        if idiom.value and not _VALUE.match(after):
            continue
        if idiom.subject and not _after_subject(text[: m.start()], names):
            continue
        groups = m.groupdict()
        subject = ""
        if "own" in compiled.pattern.groupindex:
            owner = _owner(groups.get("own"), names)
            if owner is None:
                continue
            subject = owner
        plain = _plain(idiom, m.group(0), page_words)
        if plain is None:
            continue
        said = f"{subject} {plain}" if subject else plain
        if m.start() == 0 or text[: m.start()].rstrip().endswith((".", "!", "?")):
            said = said[0].upper() + said[1:]
        out.append(text[at : m.start()] + said)
        at = m.end()
    if not out:
        return text
    return "".join(out) + text[at:]
