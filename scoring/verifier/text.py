"""Light text analysis for the offline verifier: tokens, stems, names, numbers, negation, sentences.

Everything here is regular expressions and small tables so that scoring a claim against a few
passages takes well under a millisecond per pair; no spaCy model is loaded at inference time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import pairwise

from vocabulary import MONTH_NUMBERS, NEGATIONS, NUMBER_WORDS, PRIVATIVES, STANCE_STOPWORDS
from vocabulary.fold import transliterate

STOPWORDS = STANCE_STOPWORDS
MONTHS = MONTH_NUMBERS
ORDINALS = {
    w: i + 1
    for i, w in enumerate("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split())
}

SUPERLATIVES = frozenset(
    "first last only oldest youngest largest smallest biggest most least best worst highest lowest earliest "
    "latest longest shortest greatest fastest richest".split()
)

# Pairs of words that cannot both describe the same thing; matched on stems.
_OPPOSITES = (
    ("alive", "dead"), ("alive", "died"), ("alive", "death"), ("first", "last"), ("largest", "smallest"),
    ("oldest", "youngest"), ("increase", "decrease"), ("won", "lost"), ("win", "lose"), ("before", "after"),
    ("true", "false"), ("north", "south"), ("east", "west"), ("male", "female"), ("more", "less"),
    ("higher", "lower"), ("older", "younger"), ("earliest", "latest"), ("maximum", "minimum"),
    ("success", "failure"), ("open", "closed"), ("accept", "reject"), ("allow", "ban"), ("positive", "negative"),
    ("rise", "fall"), ("major", "minor"), ("public", "private"), ("legal", "illegal"), ("possible", "impossible"),
    ("renewable", "non-renewable"), ("married", "divorced"), ("born", "died"),
)  # fmt: skip

_TOKEN = re.compile(r"[A-Za-z\u00C0-\u024F]+(?:['’][A-Za-z]+)?|\d+(?:[.,]\d+)*(?:st|nd|rd|th|s)?")
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"”')\]]*\s+(?=[\"“(\[]?[A-Z0-9])")
_ABBREV = re.compile(r"\b(?:Mr|Mrs|Ms|Dr|Jr|Sr|St|Prof|Gen|Col|Lt|Sgt|Capt|Rev|Hon|Inc|Ltd|Co|vs|No|Mt|U\.S|[A-Z])\.$")
_SUFFIXES = (
    "ational",
    "ization",
    "fulness",
    "ousness",
    "iveness",
    "ations",
    "ation",
    "ments",
    "ment",
    "ness",
    "ings",
    "ing",
    "ies",
    "ied",
    "ers",
    "er",
    "ed",
    "ly",
    "es",
    "s",
)


# Units of measure as one stem however they are written: "200 m", "200 metres" and "200 meters" are the same
# distance (the abbreviations only right after a number, where they cannot be another word).
_UNIT_WORDS = {
    **dict.fromkeys(("metre", "metres", "meter", "meters"), "metre"),
    **dict.fromkeys(("kilometre", "kilometres", "kilometer", "kilometers"), "kilometre"),
    **dict.fromkeys(("centimetre", "centimetres", "centimeter", "centimeters"), "centimetre"),
    **dict.fromkeys(("kilogram", "kilograms", "kilogramme", "kilogrammes"), "kilogram"),
    **dict.fromkeys(("mile", "miles"), "mile"),
}
# Words biographies use for the same thing, as one stem: "her debut novel" is her first, "his latest album"
# his most recent, "received his doctorate" = "completed his PhD".
_SAME_AS = {"debut": "first", "latest": "recent", "doctorate": "phd", "doctoral": "phd"}
_UNIT_ABBREVIATIONS = {"m": "metre", "km": "kilometre", "cm": "centimetre", "kg": "kilogram", "mi": "mile"}


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """A crude suffix-stripping stem: enough to match ``played``/``plays``/``playing`` and ``studies``/``studied``.

    >>> stem("playing"), stem("studies"), stem("nations")
    ('play', 'stud', 'nation')
    """
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    if len(w) <= 4 or w.isdigit():
        return w
    for suffix in _SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)]
            break
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiousl":
        w = w[:-1]
    return w.rstrip("e") if len(w) > 4 else w


@lru_cache(maxsize=1)
def opposites() -> dict[str, frozenset[str]]:
    """Stem → the stems of its opposites (see ``_OPPOSITES``)."""
    table: dict[str, set[str]] = {}
    for a, b in _OPPOSITES:
        sa, sb = stem(a.replace("-", "")), stem(b.replace("-", ""))
        table.setdefault(sa, set()).add(sb)
        table.setdefault(sb, set()).add(sa)
    return {k: frozenset(v) for k, v in table.items()}


@dataclass(frozen=True)
class Analysis:
    """What the features need to know about one text."""

    tokens: tuple[str, ...]  # lower-cased surface tokens, in order
    content: frozenset[str]  # stems of content words (no stopwords, no numbers)
    content_list: tuple[str, ...]  # the same in order, with repeats (for bigrams)
    names: frozenset[str]  # stems of capitalised content tokens
    numbers: frozenset[str]  # normalised numbers, with years kept as 4-digit strings
    years: frozenset[str]
    months: frozenset[int]
    negated: bool
    superlative: bool  # has a word like "first", "oldest", "only"
    # Stems of the names the text opens with, its subject as it names it ("Earlier Harlan Beckwith set a
    # record": earlier, harlan, beckwith); empty when its first content word is not capitalised.
    subject: frozenset[str] = frozenset()

    @cached_property
    def bigrams(self) -> frozenset[tuple[str, str]]:
        # Cached on the instance: a passage's analysis is shared by every claim scored against it.
        return frozenset(pairwise(self.content_list))


_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+")
_YEAR = re.compile(r"(?:1\d{3}|20\d{2})s?")


def _number(token: str) -> str | None:
    low = token.lower()
    if low in NUMBER_WORDS:
        return str(NUMBER_WORDS[low])
    if low in ORDINALS:
        return str(ORDINALS[low])
    if not low[:1].isdigit():  # every \d is a digit: most tokens are words and stop here
        return None
    digits = _DIGITS.match(low)
    if digits is None:
        return None
    raw = digits.group(0)
    if _THOUSANDS.fullmatch(raw):
        raw = raw.replace(",", "")
    return raw.rstrip("0").rstrip(".") if "." in raw else raw


# "two dozen canvases": the number of them is 24 ("dozens of" counts nothing exactly).
_DOZEN = re.compile(r"\b(?P<n>\d+|[A-Za-z]+)\s+dozen\b(?!\s+of\b)", re.IGNORECASE)


def _dozens(text: str) -> str:
    def times_twelve(m: re.Match[str]) -> str:
        n = m.group("n").lower()
        value = int(n) if n.isdigit() else NUMBER_WORDS.get(n, 1 if n in ("a", "one") else None)
        return m.group(0) if value is None else str(value * 12)

    return _DOZEN.sub(times_twelve, text) if "dozen" in text.lower() else text


# "No." before a number abbreviates "number" ("Symphony No. 1", "no. 7 in the charts"); "no 1990 elections" denies.
_NUMBER_ABBREVIATION = re.compile(r"\b[Nn]o\.(?=\s*\d)")


def _denies_a_verb(tokens: tuple[str, ...], i: int) -> bool:
    """A privative ("without") before a verb's -ing form, next or after one adverb: "left without graduating",
    "without ever being tried"; not before a noun phrase ("without activity", "without a penny")."""
    return any(t.endswith("ing") and len(t) > 4 and not t.endswith("thing") for t in tokens[i + 1 : i + 3])


@lru_cache(maxsize=50_000)
def analyse(text: str) -> Analysis:
    """Tokenise ``text`` and extract the stems, names, numbers and negation the features use.

    Words are read transliterated, so a claim and a passage agree on a name however each writes its letters
    ("Wladyslaw" / "Władysław", "Strasse" / "Straße"); capitals stay capitals.
    """
    raw = _TOKEN.findall(_NUMBER_ABBREVIATION.sub("#", _dozens(transliterate(text))))
    tokens = tuple(t.lower() for t in raw)
    content: list[str] = []
    names: set[str] = set()
    numbers: set[str] = set()
    years: set[str] = set()
    months: set[int] = set()
    negated = False
    # The subject is the run of names the text opens with (its first content word capitalised): "In 1990 Musk
    # founded SpaceX" is about Musk, "He won the Nobel Prize" names no subject.
    subject: list[str] = []
    opening = True  # still reading the names the text's content opens with
    for i, (surface, low) in enumerate(zip(raw, tokens, strict=True)):
        if (low in NEGATIONS and (low not in PRIVATIVES or _denies_a_verb(tokens, i))) or low.endswith("n't"):
            negated = True
        # Only digits, number words and ordinals can be numbers: most tokens skip the call.
        number = _number(surface) if low[:1].isdigit() or low in NUMBER_WORDS or low in ORDINALS else None
        if number is not None:
            numbers.add(number)
            if _YEAR.fullmatch(low):
                years.add(number[:4])
        elif low in MONTHS and surface[0].isupper() and (low != "may" or i > 0):
            months.add(MONTHS[low])
        unit = _UNIT_WORDS.get(low)
        if unit is None and low in _UNIT_ABBREVIATIONS and i and _number(raw[i - 1]) is not None:
            unit = _UNIT_ABBREVIATIONS[low]  # "200 m": "m" right after a number
        if (low in STOPWORDS and unit is None) or low in NEGATIONS or number is not None:
            opening = opening and not subject
            continue
        same = unit or _SAME_AS.get(low)
        if same is not None:
            content.append(same)
            opening = False
            continue
        s = stem(low)
        content.append(s)
        if surface[0].isupper() and low not in MONTHS:
            names.add(s)
            if opening:
                subject.append(s)
        else:
            opening = False
    return Analysis(
        tokens=tokens,
        content=frozenset(content),
        content_list=tuple(content),
        names=frozenset(names),
        numbers=frozenset(numbers),
        years=frozenset(years),
        months=frozenset(months),
        negated=negated,
        superlative=not SUPERLATIVES.isdisjoint(tokens),
        subject=frozenset(subject),
    )


def analyse_pair(first: str, second: str) -> Analysis:
    """``analyse(f"{first} {second}")`` from the two sentences' own (cached) analyses, without reading
    either again: no token spans the space between them, so the pair's tokens are theirs in turn."""
    a, b = analyse(first), analyse(second)
    months = a.months | b.months
    lead = _TOKEN.search(second)
    if a.tokens and lead is not None and lead.group(0).lower() == "may" and lead.group(0)[0].isupper():
        # "May" opening a text is not read as the month (see analyse); inside the pair it is.
        months |= {MONTHS["may"]}
    return Analysis(
        tokens=a.tokens + b.tokens,
        content=a.content | b.content,
        content_list=a.content_list + b.content_list,
        names=a.names | b.names,
        numbers=a.numbers | b.numbers,
        years=a.years | b.years,
        months=months,
        negated=a.negated or b.negated,
        superlative=a.superlative or b.superlative,
        subject=a.subject if a.content else b.subject,  # (a first sentence of names alone would run on into b's)
    )


def split_sentences(text: str) -> list[str]:
    """Split ``text`` into sentences with a fast regular expression (abbreviations kept together)."""
    parts: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        chunk = text[start : match.start()]
        if _ABBREV.search(chunk):
            continue
        if chunk.strip():
            parts.append(chunk.strip())
        start = match.end()
    tail = text[start:].strip()
    if tail:
        parts.append(tail)
    return parts
