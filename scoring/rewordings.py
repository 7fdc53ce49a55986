"""Facts that say a negation, a first or a rank in other words than a page: "never took a wife" (the page: "never
married"), "never set foot abroad" ("never travelled outside England"), "said no thank you" to an honour
("declined"), "no woman had received it before her" ("the first woman to receive it").

Each rule reads the fact in the plain words a page writes and takes that reading's verdict (by every verify rule,
then the stance model) where it is supported, or refuted by a rule; else the fact's own verdict stands. A
reading keeps the fact's polarity: "took a wife" is read "married" and meets ``negation-mismatch`` on a page that
says "never married".

>>> negation_reading("Ashby never took a wife.")
'Ashby never married.'
>>> first_reading("The institute gave her its medal; no woman had received it before her.")
'The institute gave her its medal; she was the first woman to have received it.'
>>> rank_count_reading("In Kuala Lumpur only one jumper went further than him.")
'In Kuala Lumpur he finished second.'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Protocol

from scoring.durations import dated_in
from scoring.inflect import article, past, present
from scoring.rules import MODEL, Rule
from vocabulary import NEGATIVE_INVERSIONS, TENURE_VERBS
from vocabulary.occupations import PLAIN_OCCUPATIONS

NEGATION_READING = "negation-reading"
FIRST_READING = "first-reading"
RANK_COUNT_READING = "rank-count-reading"
OCCUPATION_READING = "occupation-reading"
TENURE_READING = "tenure-reading"
INVERTED_NEGATION = "inverted-negation"


def _compile(pairs: tuple[tuple[str, str], ...]) -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((re.compile(p, re.IGNORECASE), plain) for p, plain in pairs)


# A negation or a refusal in other words, and the plain words a page writes for it.
_NEGATIONS = _compile(
    (
        (r"\bnever\s+(?:once\s+)?took\s+(?:a\s+)?(?:wife|husband|spouse|bride)\b", "never married"),
        (r"\b(did\s+not|didn['’]t|never)\s+take\s+(?:a\s+)?(?:wife|husband|spouse|bride)\b", r"\1 marry"),
        (r"\btook\s+(?:a\s+)?(?:wife|husband|bride)\b", "married"),
        (r"\b(?:remained|stayed|lived\s+and\s+died)\s+(?:a\s+)?(?:bachelor|spinster|single)\b", "never married"),
        (r"\bnever\s+(?:once\s+)?set\s+foot\s+(abroad|outside)\b", r"never travelled \1"),
        (r"\b(did\s+not|didn['’]t)\s+(?:once\s+)?set\s+foot\s+(abroad|outside)\b", r"\1 travel \2"),
        (r"\bset\s+foot\s+(abroad|outside)\b", r"travelled \1"),
        (r"\bsaid\s+no\b(?:,?\s+thank\s+you|,?\s+thanks)?(?:\s+to\b)?", "declined"),
        (r"\bturned\s+down\b", "declined"),
    )
)

# "no woman had received it before her" → "she was the first woman to have received it"; "before him, no
# Nigerian had won it" likewise. The group names the kind of person; "one"/"body" a first of anyone.
_PRONOUNS = {"her": "she", "him": "he", "them": "they"}
_KIND = r"(?:no(?:\s+other)?\s+(?P<kind>[a-z]+(?:\s+[a-z]+)?)|nobody|no\s+one|no-one)"
_FIRST = (
    re.compile(
        rf"\b{_KIND}\s+had\s+(?:ever\s+)?(?P<verb>[a-z]+ed|won|held|been|done|made|taken|given|run|led|sung|"
        r"written|flown|swum)\b(?P<rest>[^.;:]*?)\s+before\s+(?P<who>her|him|them)\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"\bbefore\s+(?P<who>her|him|them),?\s+{_KIND}\s+had\s+(?:ever\s+)?(?P<verb>[a-z]+ed|won|held|been|done|"
        r"made|taken|given|run|led|sung|written|flown|swum)\b(?P<rest>[^.;:,]*)",
        re.IGNORECASE,
    ),
)


_ORDINALS = "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split()
_SMALL = {w: i for i, w in enumerate("one two three four five six seven eight nine ten eleven".split(), start=1)}
_SMALL_NUMBER = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|\d{1,2})"
_MEN = r"(?:[a-z]+\s+)?(?:men|women|athletes|rivals|competitors|others|[a-z]+(?:ers|ors|ists|ians))"
# A rank told by how many finished ahead: the number of those ahead, the pronoun of the one ranked.
_AHEAD = (
    # "the first man outside the medals", "finished just off the podium": fourth
    re.compile(
        r"\b(?:(?:was|finished|came(?:\s+in|\s+home)?|ended(?:\s+up)?|placed)\s+)?(?:as\s+)?the\s+first\s+"
        r"(?:[a-z]+\s+){0,2}?(?:outside|off)\s+the\s+(?:medals|medal\s+places|podium)\b",
        re.IGNORECASE,
    ),
    # "only one jumper went further than him": second
    re.compile(
        r"\bonly\s+(?P<n>one)\s+(?:other\s+)?(?:[a-z]+\s+)?(?:went|jumped|threw|ran|swam|rode|finished|came(?:\s+home)?|"
        r"was|did|scored|leapt|leaped)\s+(?:further|farther|faster|higher|better|ahead|quicker)\s+(?:than|of)\s+"
        r"(?P<who>him|her|them)\b",
        re.IGNORECASE,
    ),
    # "five men finished ahead of him": sixth
    re.compile(
        rf"\b(?P<n>{_SMALL_NUMBER})\s+(?:other\s+)?{_MEN}\s+(?:finished|came\s+home|crossed\s+the\s+line|placed|"
        r"were\s+placed)\s+(?:ahead\s+of|in\s+front\s+of)\s+(?P<who>him|her|them)\b",
        re.IGNORECASE,
    ),
)


def rank_count_reading(fact: str) -> str:
    """``fact`` with a rank told by how many finished ahead ("only one jumper went further than him", "five men
    finished ahead of her", "the first man outside the medals") as the rank a page writes ("he finished second",
    "she finished sixth", "finished fourth")."""
    for pattern in _AHEAD:
        m = pattern.search(fact)
        if m is None:
            continue
        groups = m.groupdict()
        if not groups.get("n"):
            plain = "finished fourth"
        else:
            word = groups["n"].lower()
            ahead = int(word) if word.isdigit() else _SMALL[word]
            if ahead + 1 > len(_ORDINALS):
                return fact
            plain = f"{_PRONOUNS[groups['who'].lower()]} finished {_ORDINALS[ahead]}"
        if m.start() == 0:
            plain = plain[0].upper() + plain[1:]
        return fact[: m.start()] + plain + fact[m.end() :]
    return fact


# "no woman had done it on this station": a first whose "before her" the fact leaves out.
_FIRST_UNTIMED = re.compile(
    rf"\b{_KIND}\s+had\s+(?:ever\s+)?(?P<verb>[a-z]+ed|won|held|been|done|made|taken|given|run|led|sung|written|"
    r"flown|swum)\b(?P<rest>[^.;:,]*)",
    re.IGNORECASE,
)
# Words that time the negation otherwise than "before the subject": "since her", "after him", "until 1990".
_TIME_WORD = re.compile(r"\b(?:before|since|after|until|till|again|yet|then|by\s+\d{4}|in\s+\d{4})\b", re.IGNORECASE)


# "Not once did she take …", "At no point was he …", "Nor did she ever get …": a negation said first, the clause
# inverted (the cues: vocabulary.NEGATIVE_INVERSIONS), read with "never" after the subject.
_INVERTED = re.compile(
    r"^\s*(?i:" + "|".join(re.escape(c).replace("\\ ", r"\s+") for c in NEGATIVE_INVERSIONS) + r"),?\s+"
    r"(?P<aux>(?i:did|does|do|had|has|have|was|were|is|are|could|would))\s+"
    r"(?P<subject>he|she|they|(?:[A-Z][\w'’.-]*)(?:\s+[A-Z][\w'’.-]*){0,3})\s+(?:ever\s+)?(?P<verb>[a-z]+)\b"
)


def uninverted(fact: str) -> str:
    """``fact`` with a negation said first and its clause inverted read with "never" after the subject.

    >>> uninverted("Not once did she take a world title.")
    'She never took a world title.'
    >>> uninverted("At no point was Vance a member of the party.")
    'Vance was never a member of the party.'
    """
    m = _INVERTED.match(fact)
    if m is None:
        return fact
    aux, subject, verb = m.group("aux").lower(), m.group("subject"), m.group("verb")
    if subject.lower() in _PRONOUNS.values():
        subject = subject.capitalize()
    if aux == "did":
        said = f"{subject} never {past(verb)}"
    elif aux == "does":
        said = f"{subject} never {present(verb)}"
    elif aux == "do":
        said = f"{subject} never {verb}"
    else:
        said = f"{subject} {aux} never {verb}"
    return said + fact[m.end() :]


def negation_reading(fact: str) -> str:
    """``fact`` with a negation or a refusal said in other words in the plain words a page writes."""
    for pattern, plain in _NEGATIONS:
        fact = pattern.sub(plain, fact)
    return fact


def first_reading(fact: str, texts: Sequence[str] = (), name: str = "") -> str:
    """``fact`` with "no woman had received it before her" read as "she was the first woman to have received it";
    given the page's ``texts``, only where one of them says a first of that kind ("the first woman"): the stance
    model reads "the first man" as well as "the first woman" against a page that has the one. Given the subject's
    ``name``, a fact that leaves "before her" out ("no woman had done it on this station", no other time word) is
    read with the name ("Nantwich was the first woman to have done it on this station")."""
    for pattern in (*_FIRST, _FIRST_UNTIMED) if name else _FIRST:
        m = pattern.search(fact)
        if m is None:
            continue
        if pattern is _FIRST_UNTIMED and _TIME_WORD.search(fact):
            return fact
        who = (m.groupdict().get("who") or "").lower()
        kind = m.group("kind")
        if kind is not None and kind.lower() in ("one", "body", "longer", "more", "doubt"):
            return fact
        if kind is not None and texts and not any(re.search(rf"\bfirst\s+{re.escape(kind)}\b", t, re.I) for t in texts):
            return fact
        subject = _PRONOUNS[who] if who else name
        be = "were" if who == "them" else "was"
        first = f"the first {kind}" if kind else "the first"
        plain = f"{subject} {be} {first} to have {m.group('verb').lower()}{m.group('rest')}"
        if m.start() == 0:
            plain = plain[0].upper() + plain[1:]
        return fact[: m.start()] + plain + fact[m.end() :]
    return fact


class _Verifier(Protocol):
    def against(self, fact: str, entity: str, name: str) -> Any: ...


class _Case(Protocol):
    fact: str
    name: str
    entity: str

    @property
    def verifier(self) -> _Verifier: ...

    @property
    def texts(self) -> list[str]: ...


def _reading_verdict(c: _Case, reading: str) -> Any:
    """The verdict of ``reading`` against ``c``'s page where it is supported, or refuted by a rule; else None."""
    if reading == c.fact:
        return None
    verdict = c.verifier.against(reading, c.entity, c.name)
    stance = getattr(verdict.stance, "name", "")
    if stance == "SUPPORT" or (stance == "REFUTE" and verdict.decided_by != MODEL):
        return verdict
    return None


def _negation(c: _Case) -> Any:
    return _reading_verdict(c, negation_reading(c.fact))


# Any plain wording of an occupation, longest first ("double bass player" before "bass player"), with the article
# before it ("a", "an") to put right.
_PLAIN_OCCUPATION = re.compile(
    r"(?:\b(?P<article>an?)\s+(?P<between>(?:[\w'’-]+\s+){0,2}?))?\b(?P<plain>"
    + "|".join(re.escape(p).replace("\\ ", r"\s+") for p in sorted(PLAIN_OCCUPATIONS, key=len, reverse=True))
    + r")(?![\w'’-])",
    re.IGNORECASE,
)


_PLAIN_OCCUPATIONS = {plain.lower(): words for plain, words in PLAIN_OCCUPATIONS.items()}


def occupation_reading(fact: str, texts: Sequence[str] = ()) -> str:
    """``fact`` with an occupation in plain words ("a volcano scientist", "a fossil hunter", "a piano player";
    vocabulary.PLAIN_OCCUPATIONS) in the occupation's word the page's ``texts`` hold ("a volcanologist"); as written
    where they hold none (the first word where no texts are given).

    >>> occupation_reading("She is a fossil hunter.", ["She is a Brazilian palaeontologist."])
    'She is a palaeontologist.'
    >>> occupation_reading("He is an old-school piano player.")
    'He is an old-school pianist.'
    """
    m = _PLAIN_OCCUPATION.search(fact)
    if m is None:
        return fact
    words = _PLAIN_OCCUPATIONS[re.sub(r"\s+", " ", m.group("plain").lower())]
    if texts:
        said = [w for w in words if any(re.search(rf"\b{re.escape(w)}\b", t, re.IGNORECASE) for t in texts)]
        if not said:
            return fact
        word = said[0]
    else:
        word = words[0]
    start = m.start("plain")
    if m.group("article"):
        between = m.group("between") or ""
        lead = article(between or word)
        if m.group("article")[0].isupper():
            lead = lead.capitalize()
        return fact[: m.start()] + f"{lead} {between}{word}" + fact[m.end() :]
    return fact[:start] + word + fact[m.end() :]


def _occupation(c: _Case) -> Any:
    return _reading_verdict(c, occupation_reading(c.fact, c.texts))


# "put in six years shipping code at Kestrelsoft": a verb of time served (vocabulary.TENURE_VERBS), a length of
# time, what was done ("shipping code", "of coaching"), then where, or the clause's end.
_TENURE = re.compile(
    r"\b(?:" + "|".join(re.escape(v).replace("\\ ", r"\s+") for v in TENURE_VERBS) + r")\s+"
    r"(?P<length>(?:(?:a|an|some|nearly|almost|over|about|around|roughly|more\s+than|just\s+over|the\s+best\s+part"
    r"\s+of)\s+)?(?:[\w-]+\s+)?(?:years?|decades?|seasons?|months?))"
    r"(?:\s+(?:of\s+)?[a-z]+ing\b(?:\s+(?!at\b|with\b|for\b|in\b|on\b)[a-z]+){0,2})?"
    r"(?=\s+(?:at|with|for|in|on)\s+(?:the\s+)?[A-Z]|\s*[.,;]|\s*$)"
)


def tenure_reading(fact: str) -> str:
    """``fact`` with a time served told by a verb of tallying ("put in six years shipping code at Kestrelsoft",
    "clocked up a decade of coaching with the Lions") as "worked for six years at Kestrelsoft".

    >>> tenure_reading("He put in six years shipping code at Kestrelsoft.")
    'He worked for six years at Kestrelsoft.'
    """
    m = _TENURE.search(fact)
    if m is None:
        return fact
    return fact[: m.start()] + f"worked for {m.group('length')}" + fact[m.end() :]


def _tenure(c: _Case) -> Any:
    reading = tenure_reading(c.fact)
    verdict = _reading_verdict(c, reading)
    if verdict is None or getattr(verdict.stance, "name", "") != "SUPPORT":
        return verdict
    # The stance model reads "for five years" no better than "for six": the support counts only where a page
    # sentence dates the work with a range of that length (``dated-duration``'s test).
    return verdict if dated_in(reading, c.texts, (c.name, c.entity)) else None


def _inverted(c: _Case) -> Any:
    return _reading_verdict(c, uninverted(c.fact))


def _first(c: _Case) -> Any:
    return _reading_verdict(c, first_reading(c.fact, c.texts, c.name))


def _rank_count(c: _Case) -> Any:
    reading = rank_count_reading(c.fact)
    verdict = _reading_verdict(c, reading)
    if verdict is None or getattr(verdict.stance, "name", "") != "SUPPORT":
        return verdict
    # The stance model supports "at Sydney he finished fourth" where the page's sentence has Atlanta fourth and
    # Sydney fifth: the support counts only where a page sentence gives the rank nearest the fact's names and years.
    return verdict if rank_placed(reading, c.texts, (c.name, c.entity)) else None


_RANK_AT = re.compile(
    r"\b(?:(?P<ord>first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth)|"
    r"(?P<medal>gold|silver|bronze)|(?P<runner>runner[- ]up))\b",
    re.IGNORECASE,
)
_MEDAL_RANK = {"gold": 1, "silver": 2, "bronze": 3}
# Where a page sentence passes to another event: "…, and at the 2000 Games he was fifth", "; ", ". ".
_RANK_CLAUSE = re.compile(r"(?<=[.;!?])\s+|,\s+(?:and|but|while|whereas)\s+|;\s+")
# Capitalised words and years of a fact that place its rank ("at Sydney", "in 1993", "the Commonwealth Games").
_ANCHOR = re.compile(r"(?<=\s)[A-Z][\w'’-]+|\b\d{4}\b")


def _rank_of(m: re.Match[str]) -> int:
    if m.group("ord"):
        return _ORDINALS.index(m.group("ord").lower()) + 1
    if m.group("medal"):
        return _MEDAL_RANK[m.group("medal").lower()]
    return 2


def rank_placeable(reading: str, exclude: Sequence[str] = ()) -> bool:
    """Whether ``reading`` gives one rank (an ordinal, a medal, runner-up; not a round such as the semi-finals) and
    names or years to place it by (:func:`rank_placed` can tell)."""
    return len(_RANK_AT.findall(reading)) == 1 and bool(rank_anchors(reading, exclude))


def rank_anchors(reading: str, exclude: Sequence[str] = ()) -> frozenset[str]:
    """The capitalised words and years of ``reading`` that place its rank (but the subject's ``exclude``), each cut
    to its first five letters."""
    names = {w.lower() for e in exclude for w in re.findall(r"\w+", e)}
    return frozenset(
        a[:5].lower() for a in _ANCHOR.findall(reading) if a.lower() not in names and a.lower() not in _PRONOUNS
    )


def rank_placed(reading: str, texts: Sequence[str], exclude: Sequence[str] = ()) -> bool:
    """Whether a page clause (a sentence cut at ", and" or a semicolon) holding every name and year of ``reading``
    (but the subject's) gives the reading's rank nearest them ("…, and at the 2000 Games in Sydney he was fifth"
    places fifth at Sydney, not the fourth of Atlanta before it); False where the reading has no rank or no name
    or year to place it by."""
    wanted = [m for m in _RANK_AT.finditer(reading)]
    if len(wanted) != 1:
        return False
    rank = _rank_of(wanted[0])
    anchors = rank_anchors(reading, exclude)
    if not anchors:
        return False
    for text in texts:
        for sentence in _RANK_CLAUSE.split(text):
            low = sentence.lower()
            found = [[m.start() for m in re.finditer(rf"\b{re.escape(a)}", low)] for a in anchors]
            mentions = list(_RANK_AT.finditer(sentence))
            if not mentions or not all(found):
                continue
            nearest = min(mentions, key=lambda m: sum(min(abs(m.start() - p) for p in at) for at in found))
            if _rank_of(nearest) == rank:
                return True
    return False


REWORDING_RULES: tuple[Rule[_Case, Any], ...] = (
    Rule(
        FIRST_READING,
        "verify",
        "a first said as a negation ('no woman had received it before her', 'before him, no Nigerian had won "
        "it') is read as the first it is ('she was the first woman to have received it'), so the negation is "
        "not taken against a page that says 'the first woman to receive'; that reading's verdict counts where it "
        "is supported, or refuted by a rule",
        (
            "no woman had received it before her",
            "before him, no Nigerian had won the title",
            "no other composer had been elected before her",
        ),
        _first,
    ),
    Rule(
        NEGATION_READING,
        "verify",
        "a negation or a refusal said in other words than a page's ('never took a wife', 'never set foot "
        "abroad', 'said no thank you', 'turned down a knighthood') is read in the plain words ('never married', "
        "'never travelled abroad', 'declined'); the polarity is kept ('took a wife' is read 'married'); that "
        "reading's verdict counts where it is supported, or refuted by a rule",
        ("never took a wife", "never set foot abroad", "said no thank you", "turned down a knighthood"),
        _negation,
    ),
    Rule(
        OCCUPATION_READING,
        "verify",
        "an occupation in plain words ('a volcano scientist', 'a fossil hunter', 'a piano player', 'a mapmaker'; "
        "vocabulary.PLAIN_OCCUPATIONS) is read as the occupation's word the page holds ('a volcanologist', 'a "
        "palaeontologist', 'a pianist', 'a cartographer'); that reading's verdict counts where it is supported, "
        "or refuted by a rule",
        ("is a volcano scientist", "is a fossil hunter", "an old-school piano player", "a Bilbao-born mapmaker"),
        _occupation,
    ),
    Rule(
        TENURE_READING,
        "verify",
        "a time served told by a verb of tallying ('put in six years shipping code at Kestrelsoft', 'clocked up a "
        "decade of coaching with the Lions'; vocabulary.TENURE_VERBS) is read as 'worked for six years at "
        "Kestrelsoft'; that reading's support counts only where a page sentence dates the work with a range of "
        "that length (as dated-duration), or a rule refutes it",
        (
            "put in six years shipping code at Kestrelsoft",
            "clocked up a decade of coaching with the Lions",
            "logged twelve years at the Met Office",
        ),
        _tenure,
    ),
    Rule(
        RANK_COUNT_READING,
        "verify",
        "a rank told by how many finished ahead ('only one jumper went further than him', 'five men finished "
        "ahead of her', 'the first man outside the medals') is read as the rank a page writes ('he finished "
        "second', 'she finished sixth', 'finished fourth'); that reading's verdict counts where it is supported, "
        "or refuted by a rule",
        (
            "only one jumper went further than him",
            "five men finished ahead of her",
            "was the first man outside the medals",
        ),
        _rank_count,
    ),
)

# Read before the idioms (scoring/verify.py): "Not once did she take a world title" is not "take … a title" read
# as a win, but a negation.
INVERSION_RULES: tuple[Rule[_Case, Any], ...] = (
    Rule(
        INVERTED_NEGATION,
        "verify",
        "a negation said first and its clause inverted ('Not once did he sit in front of a microphone', 'At no "
        "point was she a member', 'Nor did she ever get behind a wheel'; vocabulary.NEGATIVE_INVERSIONS) is read "
        "with 'never' after the subject ('He never sat in front of a microphone'); that reading's verdict counts "
        "where it is supported, or refuted by a rule",
        (
            "Not once did he sit in front of a microphone",
            "At no point was she a member of the party",
            "Nor did she ever get behind a wheel",
        ),
        _inverted,
    ),
)
