"""Hedges around a claim ("I believe …", "…, if I recall correctly", "(in 1990, I think)") are taken off
before the claim is decomposed: a hedged claim is still a claim, checked like any other and reported as
hedged (``FactResult.hedged``).

>>> strip_hedges("If I recall correctly, she was born in Kraków around 1968.")[0]
'she was born in Kraków around 1968.'
>>> strip_hedges("Her novel won the Harrowgate Prize, I believe in 2016.")[0]
'Her novel won the Harrowgate Prize, in 2016.'
>>> strip_hedges("He was born in 1936.")
('He was born in 1936.', [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19], False)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from scoring import nlp
from scoring.rules import Rule, register

_HEDGE = (
    r"(?:i (?:believe|think|reckon|suspect|guess|seem to recall|recall)(?: that)?|"
    r"if (?:i )?(?:recall|remember) (?:correctly|right(?:ly)?)|if memory serves(?: me)?(?: (?:right|correctly|well))?|"
    r"as far as i (?:know|recall|remember|can tell)|from memory|from what i (?:recall|remember|know)|"
    r"as i (?:recall|remember)|if i['’]?m not mistaken|if i have the right person|"
    r"my (?:understanding|recollection|impression) is(?: that)?|to (?:the best of )?my (?:knowledge|understanding)|"
    r"as i understand it|"
    r"i['’]?m (?:fairly|pretty|reasonably|quite|almost|not (?:entirely|completely|100%)) "
    r"(?:sure|certain|confident)(?: that| about this)?|"
    r"i (?:may|might|could) be (?:wrong|misremembering|mistaken)(?: (?:about )?(?:this|that))?,? but|"
    r"(?:not (?:fully |entirely |completely |100% )?|un)(?:sure|certain)|"
    r"possibly|probably|perhaps|apparently|presumably)"
)
# The conditional hedges, unmistakable even without a comma: "… the Lindenhof Quartet if I'm not mistaken."
_IF_HEDGE = (
    r"(?:if (?:i )?(?:recall|remember) (?:correctly|right(?:ly)?)|"
    r"if memory serves(?: me)?(?: (?:right|correctly|well))?|if i['’]?m not mistaken)"
)
# At the start of a sentence (with its comma), between commas or before the end.
_AT_START = re.compile(rf"^\s*{_HEDGE}\s*,?\s+", re.IGNORECASE)
_BETWEEN_COMMAS = re.compile(rf",\s*{_HEDGE}\s*,(?=\s)", re.IGNORECASE)
_AT_END = re.compile(rf"(?:,\s*{_HEDGE}|\s+{_IF_HEDGE})\s*(?=\)|[.!?]?$)", re.IGNORECASE)
_BEFORE_VALUE = re.compile(rf"(?<=[(,]\s){_HEDGE}\s+(?=(?:in|at|on|from|around|about|c\.)\s|\d)", re.IGNORECASE)
_IN_PARENS = re.compile(rf"(?<=\w),\s*{_HEDGE}(?=\))", re.IGNORECASE)
# After a connective that opens a clause: "… strike, which I think lasted 11 weeks", "and I believe her
# third novel came out in 2021".
_AFTER_CONNECTIVE = re.compile(
    rf"(?:(?<=\band\s)|(?<=\bbut\s)|(?<=\bwhich\s)|(?<=\bwho\s)|(?<=\bwhile\s)|(?<=\bso\s)){_HEDGE}\s+",
    re.IGNORECASE,
)
# After a dash that opens a clause: "… over the Po — I believe it was completed in 1968" (``hedge-after-dash``).
_AFTER_DASH = re.compile(rf"(?<=[—–]\s){_HEDGE}\s+", re.IGNORECASE)
# A hedge after a dash before the value it hedges: "born in Leeds — I believe in 1990" is "born in Leeds in 1990" (the
# dash went with the hedge: "born in Leeds — in 1990" was read as "is an English stand-up, in 1990").
_DASH_BEFORE_VALUE = re.compile(
    rf"\s+[—–]\s*{_HEDGE}(?=\s+(?:in|on|from|around|about|since|c\.)\s+\S*\d|\s+\d)", re.IGNORECASE
)
# A hedge of the writer's own ("I think", "if I recall correctly", "as far as I know") after an opening phrase and its
# comma, before the clause's subject: "After a postdoc in Zurich, I think she joined the Meridian Quantum Lab".
_AFTER_OPENING = re.compile(
    rf"(?<=\w,\s)(?=[Ii]\s|[Ii]f\s|[Aa]s\s|[Ff]rom\s)(?i:{_HEDGE})\s+"
    rf"(?=(?:he|she|they|it|his|her|their|its|the|a|an|[A-Z][\w'’-]*)\s)",
)


# A credence the writer gives a claim, as a label before it: "~90%: she was born in …", "(60%) She received …",
# "80% sure — he taught …", "[~75%] …".
_CREDENCE = re.compile(
    r"^\s*[(\[]?\s*(?:~|≈|c\.\s?|about\s|around\s|roughly\s)?\d{1,3}(?:\.\d)?\s?%"
    r"(?:\s+(?:sure|confident|certain|likely|confidence))?\s*(?:[)\]]\s*[:—–-]?|[:—–-])\s*(?=\S)",
    re.IGNORECASE,
)


# Hearsay the writer passes on: "he reportedly received …", "it is apparently still used", "where he is said to have
# performed …", "He seems also to have founded …". Only words that can go come off: a participle after "to have"
# must read as the past ("founded", not "written", which would leave "He written").
_HEARSAY = re.compile(
    r"(?<=\w\s)(?:reportedly|supposedly|reputedly|allegedly|apparently|seemingly|purportedly)\s+(?=[a-z])|"
    r"\b(?:(?:is|was|are|were)\s+(?:said|reported|believed|thought|rumou?red)|seems?|seemed|appears?|appeared)"
    r"\s+(?:also\s+)?to\s+have\s+(?=[a-z]+ed\b)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Hedge:
    """Where a reading of :data:`HEDGE_READINGS` found a hedge in a text (what comes off)."""

    start: int
    end: int
    decided_by: str = ""

    def stamped(self, name: str) -> Hedge:
        return replace(self, decided_by=name)


@dataclass(frozen=True)
class Searched:
    """A text searched for a hedge from ``pos`` on."""

    text: str
    pos: int = 0


def _found_by(pattern: re.Pattern[str]) -> Callable[[Searched], Hedge | None]:
    def find(case: Searched) -> Hedge | None:
        m = pattern.search(case.text, case.pos)
        return Hedge(m.start(), m.end()) if m is not None else None

    return find


# Hedges of ``hedged-claims`` read apart, each switched off by its name: a credence the writer labels a claim with,
# and a hedge after a dash. Their place among the other hedges' patterns is in :func:`strip_hedges`.
HEDGE_READINGS: tuple[Rule[Searched, Hedge], ...] = register(
    Rule(
        "credence-labels",
        "decompose",
        "a credence the writer labels a claim with comes off before it is decomposed, the claim reported as hedged "
        "('~90%: she was born in …', '(60%) She received …', '80% sure — he taught …'); a share ('90% of the "
        "funds went …') stays",
        ("~90%: she was born in Medellín in 1966.", "(60%) She received the Habitat Laurel.", "80% sure — he taught"),
        _found_by(_CREDENCE),
    ),
    Rule(
        "hedge-after-dash",
        "decompose",
        "a hedge that opens a clause after a dash comes off ('… over the Po — I believe it was completed in 1968'); "
        "an aside between dashes that hedges nothing stays",
        (
            "It's the Ponte del Cervo — I believe it was completed in 1968.",
            "She moved to Lyon — I think in 1990.",
            "He coached the club — if I recall correctly until 2004.",
        ),
        _found_by(_AFTER_DASH),
    ),
    Rule(
        "hearsay-hedges",
        "decompose",
        "hearsay the writer passes on comes off, the claim reported as hedged ('he reportedly received …', 'is "
        "apparently still used', 'is said to have performed …', 'seems also to have founded …'); a participle that "
        "is no past form ('seems to have written') and the same words as a claim ('the report said') stay",
        (
            "He reportedly received the Eads Medal in 2006.",
            "Where he is said to have performed more than 4,000 operations.",
            "He seems also to have founded the charity Hearts Abroad in 1995.",
        ),
        _found_by(_HEARSAY),
    ),
)
CREDENCE_LABELS, HEDGE_AFTER_DASH, HEARSAY_HEDGES = (r.name for r in HEDGE_READINGS)


# One word that opens a sentence with its comma ("Third,", "Later,", "Also,"): it keeps its comma when the hedge
# after it goes.
_OPENING_WORD = re.compile(r"\s*[^\W\d_]+,")


def _opening_word(text: str) -> bool:
    """Whether ``text`` is one word and its comma that opens the sentence and names no one ("Third,", not "Sato,")."""
    if not _OPENING_WORD.fullmatch(text):
        return False
    word = nlp.parse_one(text.strip())[0]
    return word.pos_ in ("ADV", "ADJ", "NUM", "CCONJ", "SCONJ")


# Words that point at a claim without hedging it: "Note that a reset erases all your settings", "Keep in mind
# that the free tier is capped at two accounts". They come off; the claim is not reported as hedged.
_PREFACE = re.compile(
    r"^\s*(?:please\s+)?(?:note|keep in mind|bear in mind|be aware|remember|it(?:['’]s| is) worth (?:noting|"
    r"remembering|knowing))(?:\s+that)?\s*[,:]?\s+(?=\S)",
    re.IGNORECASE,
)


def hedge_only(text: str) -> bool:
    """Whether ``text`` is a hedge and nothing else, as the remark in "IK Norrvik (1990–1998) (I think)" is.

    >>> hedge_only("if I recall correctly"), hedge_only("not fully certain"), hedge_only("1990–1998")
    (True, True, False)
    """
    return _ONLY.fullmatch(text) is not None


_ONLY = re.compile(rf"\s*{_HEDGE}\s*", re.IGNORECASE)
# A hedge in parentheses of its own: "She played for IK Norrvik (1990–1998) (I think)."
_PARENTHESISED = re.compile(rf"\s*\(\s*{_HEDGE}\s*\)", re.IGNORECASE)
_CLOSING = re.compile(rf",\s*{_HEDGE}\s*[.;]?$", re.IGNORECASE)


def closing_hedge(text: str) -> int | None:
    """Where a hedge that closes ``text``, set off by a comma, starts ("…, I think", "…, not fully certain"), or
    None.

    >>> text = "Captain, Deccan Falcons, 2019–2023, I think"
    >>> text[: closing_hedge(text)], closing_hedge("Captain, Deccan Falcons")
    ('Captain, Deccan Falcons, 2019–2023', None)
    """
    m = _CLOSING.search(text)
    return m.start() if m is not None else None


# The other hedges' patterns (``hedged-claims``), each searched as a reading of HEDGE_READINGS is.
_FIND = {
    p: _found_by(p)
    for p in (
        _AT_START,
        _PARENTHESISED,
        _IN_PARENS,
        _BETWEEN_COMMAS,
        _AT_END,
        _BEFORE_VALUE,
        _DASH_BEFORE_VALUE,
        _AFTER_CONNECTIVE,
        _AFTER_OPENING,
    )
}
_BETWEEN = _FIND[_BETWEEN_COMMAS]


def strip_hedges(text: str, rules_off: frozenset[str] = frozenset()) -> tuple[str, list[int], bool]:
    """``text`` without its hedges, the position in ``text`` of each kept character, and whether any went.
    ``rules_off``: the readings of :data:`HEDGE_READINGS` switched off."""
    keep = list(range(len(text)))
    preface = _PREFACE.match(text)
    if preface is not None:
        keep = keep[preface.end() :]
    hedged = False
    credence, after_dash, hearsay = (r.apply if r.name not in rules_off else None for r in HEDGE_READINGS)
    # The text of the characters kept, built again only when a hedge went (most sentences have none).
    current = "".join(text[i] for i in keep)
    for finder in (
        credence,
        _FIND[_AT_START],
        _FIND[_PARENTHESISED],
        _FIND[_IN_PARENS],
        _BETWEEN,
        _FIND[_AT_END],
        _FIND[_BEFORE_VALUE],
        _FIND[_DASH_BEFORE_VALUE],
        _FIND[_AFTER_CONNECTIVE],
        after_dash,
        _FIND[_AFTER_OPENING],
        hearsay,
    ):
        if finder is None:
            continue
        m = finder(Searched(current))
        while m is not None:
            hedged = True
            start = m.start
            if finder is _BETWEEN and _opening_word(current[: start + 1]):
                start += 1  # "Third, if I recall correctly, she …" keeps the ordinal's comma: "Third, she …"
            keep = keep[:start] + keep[m.end :]
            current = "".join(text[i] for i in keep)
            m = finder(Searched(current, m.start))
    stripped = current
    if hedged and not _CHECKABLE.search(stripped[1:]):
        # "I think he was great": nothing to check once the hedge is off; the belief stays an opinion.
        return text, list(range(len(text))), False
    return stripped, keep, hedged


# A value or a name to check: a digit, or a capitalised word that does not start the text.
_CHECKABLE = re.compile(r"\d|(?<![.!?]\s)\b[A-Z][a-zà-ÿ]")


# A question mark after a statement the writer hedges ("hmm not sure but I think the atlas had around 250 sheets?"):
# the writer's own hedge before the clause, and no interrogative opening ("Was …", "Did …", "Who …").
_WRITER_HEDGE = re.compile(
    rf"^\W*(?:\w+\W+){{0,8}}?(?:{_HEDGE}|(?:pretty|fairly|quite) sure)\s+\w",
    re.IGNORECASE,
)
_INTERROGATIVE = re.compile(
    r"^\W*(?:who|whom|whose|what|when|where|which|why|how|was|were|is|are|am|did|do|does|has|have|had|can|could|"
    r"would|will|shall|should|may|might|must|isn't|wasn't|didn't|doesn't|don't|aren't|weren't|hasn't|haven't)\b",
    re.IGNORECASE,
)


def hedged_statement(sentence: str) -> bool:
    """Whether ``sentence`` is a statement its writer hedges, whatever its closing mark: "I think the atlas had
    around 250 map sheets?" is one; "Was he born in Ohio?" and "Do you think he won?" are not.

    >>> hedged_statement("hmm not 100% sure but I think the Atlas had somewhere around 250 map sheets?")
    True
    >>> hedged_statement("Do you think he won the prize?"), hedged_statement("Was he born in 1961?")
    (False, False)
    """
    return not _INTERROGATIVE.match(sentence) and bool(_WRITER_HEDGE.match(sentence))
