"""Counts of things a page states: "won 23 caps for Norway" where the page says "earned 23 caps for the Norway
national team", and "described five previously unknown species" where it says "three previously unknown
species".

A count is a whole number, in digits or words, and the noun it counts: the first of the next three words that
is no modifier ("23 caps", "more than 4,000 open-heart operations", "nine languages"). Years, ages, lengths of
time and amounts of money are other things (:mod:`scoring.durations` and the stance model handle them).

- *stated*: one page sentence counts the same noun with the same number, and holds the fact's names;
- *contradicted*: no page sentence counts the fact's noun with its number, and one counts it with another
  beside another word of the fact and without the fact's number anywhere in it
  ("translated into 15 languages" where the page has "translated into eleven languages").

>>> [(c.number, c.noun) for c in counts("He won 23 caps and scored 4 goals in 1,200 minutes.")]
[(23, 'caps'), (4, 'goals')]
>>> count_stated("Ødegaard won 23 caps for Norway.", ["Ødegaard earned 23 caps for the Norway national team."])
True
>>> [c.noun for c in count_contradicted("Her book was translated into 15 languages.",
...                                     ["Her book was translated into eleven languages."])]
['languages']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scoring.numerals import approximation, spelled_number
from scoring.roles import page_sentences, role_words, says_kind, stem
from vocabulary import FUNCTION_WORDS, NUMBER_WORDS
from vocabulary import fold_ascii as fold

_WORDS = "|".join(sorted((w for w in NUMBER_WORDS if w != "zero"), key=len, reverse=True))
# A number in digits, or a run of number words read as one ("forty thousand GitHub stars" counts 40,000 stars, not
# forty "thousand"s; "twenty-seven solitary bees" 27).
_NUMBER = re.compile(
    rf"(?<![\w.,$£€-])(\d{{1,3}}(?:,\d{{3}})+|\d{{1,4}}|(?:{_WORDS})(?:[-‑\s]+(?:and\s+)?(?:{_WORDS}))*)"
    r"(?![\w.,%-]*\d)\b",
    re.IGNORECASE,
)
# What a number may count that is not a count of things: time, age, money and measures.
_NOT_THINGS = frozenset(
    "year years month months week day days hour hours minute minutes second seconds decade decades century "
    "centuries percent per cent time times am pm old".split()
)
# Words between a number and its noun that are no noun ("more than 4,000 open-heart operations").
_MODIFIERS = frozenset(
    "more than over about around nearly almost some roughly previously unknown new different other major "
    "separate distinct consecutive straight successive international national".split()
)


# Words after a number that count some of the things beside others the text has told of ("he later wrote two further
# symphonies" after his Symphony No. 1): no total.
_PARTIAL = frozenset("further more additional other extra".split())


_DOZEN = re.compile(r"\s+dozens?\b(?!\s+of\b)", re.IGNORECASE)
_PREPOSITIONS = frozenset("against with at by from on over under after before during since between into across".split())
# A verb's particle after the noun ends it: "13 albums out as leader", "three books out", "two records behind him".
_PARTICLES = frozenset("out up down off away back behind ahead".split())


# Plurals that do not end in -s.
_IRREGULAR_PLURALS = frozenset("people children men women feet teeth mice geese staff cattle".split())


def _plural(word: str) -> bool:
    """Whether ``word`` reads as a plural noun: an irregular plural, or a word ending in -s that is no -ss, -us or
    -is word ("bees", "guests", "species"; not "across", "bus", "thesis")."""
    return word in _IRREGULAR_PLURALS or (
        len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "'s", "’s"))
    )


@dataclass(frozen=True)
class Count:
    """A whole number and the noun it counts (folded to lower case)."""

    number: int
    noun: str
    text: str
    # "two further symphonies", "three more albums": a count of some of them beside others, not of them all.
    partial: bool = False


def _value(word: str) -> int | None:
    word = word.lower().replace(",", "")
    if word.isdigit():
        return int(word)
    return NUMBER_WORDS.get(word, spelled_number(word))


def counts(text: str) -> list[Count]:
    """The counts of things in ``text``: a number and the noun after it, years and lengths of time left out."""
    out: list[Count] = []
    for m in _NUMBER.finditer(text):
        value = _value(m.group(1))
        if value is None or (m.group(1).isdigit() and len(m.group(1)) == 4 and 1000 <= value <= 2100):
            continue  # a year
        if text[m.end() : m.end() + 1] == "-":
            continue  # "a 214-metre core": a measure, not a count
        phrase = re.split(r"[,.;:()!?]", text[m.end() : m.end() + 60], maxsplit=1)[0]
        dozen = _DOZEN.match(phrase)
        if dozen is not None:  # "two dozen canvases" counts 24 of them
            value, phrase = value * 12, phrase[dozen.end() :]
        words: list[str] = []
        for w in re.findall(r"[^\W\d_][\w'’-]*", phrase)[:4]:
            if w.lower() in FUNCTION_WORDS or w.lower() in _PREPOSITIONS or (words and w.lower() in _PARTICLES):
                break  # "23 caps for Norway": the noun ends before "for"
            words.append(w.lower())
            if value != 1 and _plural(w.lower()):
                break  # "5,000 people sat across the desk": the noun ends at the first plural, before the verb
        nouns = [w for w in words if w not in _MODIFIERS]
        noun = nouns[-1] if nouns else None
        if noun is None or noun in _NOT_THINGS or len(noun) < 3:
            continue
        out.append(Count(value, noun, m.group(0), bool(words) and words[0] in _PARTIAL))
    return out


def _same_noun(a: str, b: str) -> bool:
    return stem(a) == stem(b) or fold(a).rstrip("s") == fold(b).rstrip("s")


def _counts_as(said: str, noun: str) -> bool:
    return _same_noun(said, noun) or says_kind(said, noun)


def _verb_of(noun: str, words: set[str]) -> bool:
    """Whether a page sentence's verb is the word the counted noun is made from ("translated" for
    "translations", "appeared" for "appearances"): six letters in common at least, and not the noun itself."""
    root = fold(noun)[:6]
    return len(root) == 6 and any(w.startswith(root) and w.rstrip("s") != fold(noun).rstrip("s") for w in words)


def _admits(fact: str, c: Count, number: int) -> bool:
    """Whether the fact's count ``c`` admits the page's ``number``: the same, or within the bounds its qualifier
    gives ("around 350 clocks" admits 340, not 300)."""
    if number == c.number:
        return True
    at = re.search(rf"(?<![\w.,]){re.escape(c.text)}(?![\w.,])", fact)
    low, high = approximation(fact[: at.start()] if at else "", c.number)
    return low <= number <= high


def count_stated(fact: str, texts: Sequence[str], exclude: Iterable[str] = ()) -> bool:
    """Whether one page sentence counts every counted noun of ``fact`` with the fact's number, beside the
    fact's names (capitalised words other than the subject's)."""
    found = counts(fact)
    if not found:
        return False
    skip = {fold(w) for text in exclude for w in re.findall(r"\w+", text) + re.findall(r"[\w'’-]+", text)}
    names = {re.sub(r"['’]s$", "", fold(w)) for w in re.findall(r"(?<!^)\b[A-Z][\w'’-]+", fact)} - skip
    for text in texts:
        for sentence in page_sentences(text):
            page = counts(sentence)
            words = {fold(w) for w in re.findall(r"[\w'’-]+", sentence)}
            # A page's particular kind counts the answer's general word: "appeared in 14 novels" for "fourteen books";
            # a page's verb names what the answer counts: "translated into nine languages" for "nine translations".
            if not all(
                any(
                    _admits(fact, c, p.number) and (_counts_as(p.noun, c.noun) or _verb_of(c.noun, words)) for p in page
                )
                for c in found
            ):
                continue
            if names <= words:
                return True
    return False


def count_contradicted(fact: str, texts: Sequence[str], exclude: Iterable[str] = ()) -> list[Count]:
    """Counts of ``fact`` that no page sentence gives with the fact's number, while one gives the same noun
    another number beside a word of the fact."""
    found = counts(fact)
    if not found:
        return []
    exclude = tuple(exclude)
    sentences = [s for t in texts for s in page_sentences(t)]
    out: list[Count] = []
    for c in found:
        # The fact's other words, one of which the page sentence must have; a fact that says nothing but the count
        # ("Theodore Vance had 71 wins") has none, and a sentence counting the noun is about it.
        roles = role_words(fact.replace(c.text, " "), exclude) - {stem(c.noun)}
        same = [s for s in sentences if any(_same_noun(p.noun, c.noun) for p in counts(s))]
        if any(_admits(fact, c, p.number) for s in same for p in counts(s) if _same_noun(p.noun, c.noun)):
            continue  # the page's number, or one "around 340" admits
        for s in same:
            numbers = {_value(m.group(1)) for m in _NUMBER.finditer(s)}
            if c.number in numbers:
                continue  # "best figures of 5 for 22": the fact's number is there, counted otherwise
            if all(p.partial for p in counts(s) if _same_noun(p.noun, c.noun)):
                continue  # "later wrote two further symphonies": some of them, not how many in all
            if not roles or roles & {stem(w) for w in re.findall(r"[^\W\d_]+", s)}:
                out.append(c)
                break
    return out


# A run of years listed together: "in 1994 and 1997", "(2004, 2008 and 2012)"; not a range ("1990 to 1998").
_YEAR_RUN = re.compile(
    r"(?<![\d–-])(?:1[0-9]{3}|20[0-9]{2})(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)(?:1[0-9]{3}|20[0-9]{2}))+(?![\d–-])"
)
# "a two-time Olympian", "three-time champion": a count of times.
_TIMES = re.compile(rf"\b({_WORDS}|\d)-time\s+([^\W\d_][\w'’-]*)", re.IGNORECASE)


def times_counts(text: str) -> list[Count]:
    """Counts of times ("a two-time Olympian" counts 2 Olympics), which :func:`counts` leaves out."""
    out = []
    for m in _TIMES.finditer(text):
        value = _value(m.group(1))
        if value is not None:
            out.append(Count(value, m.group(2).lower(), m.group(0)))
    return out


def count_dated(fact: str, texts: Sequence[str], exclude: Iterable[str] = ()) -> bool:
    """Whether one page sentence dates, one year each, as many of the thing as the fact counts: "won two Swedish
    titles with IK Norrvik" where the page has "winning the Swedish championship with the club in 1994 and 1997",
    "a two-time Olympian" where it has "at the 2004 Summer Olympics … and again at the 2008 Summer Olympics". The
    sentence holds the fact's names and another word of it; two to six years, listed or one per mention."""
    found = [c for c in counts(fact) + times_counts(fact) if 2 <= c.number <= 6]
    if len(found) != 1:
        return False
    c = found[0]
    skip = {fold(w) for text in exclude for w in re.findall(r"\w+", text) + re.findall(r"[\w'’-]+", text)}
    names = {re.sub(r"['’]s$", "", fold(w)) for w in re.findall(r"(?<!^)\b[A-Z][\w'’-]+", fact)} - skip
    names -= {fold(c.noun)}
    words = role_words(fact.replace(c.text, " "), tuple(exclude)) - {stem(c.noun)}
    root = stem(c.noun)
    for text in texts:
        for sentence in page_sentences(text):
            # one year per mention of the thing itself: "at the 2004 Summer Olympics … again at the 2008 Summer
            # Olympics" (the thing named each time, so no other word of the fact is needed)
            named = re.findall(r"\b(\d{4})\s+([^\W\d_]+(?:\s+[^\W\d_]+)?)", sentence)
            mentions = {y for y, w in named if any(stem(x) == root for x in w.split())}
            if len(mentions) == c.number:
                return True
            said = {fold(w) for w in re.findall(r"[\w'’-]+", sentence)}
            if not names <= said or not words & {stem(w) for w in said}:
                continue
            runs = [len(set(re.findall(r"\d{4}", m.group(0)))) for m in _YEAR_RUN.finditer(sentence)]
            if c.number in runs:
                return True
    return False
