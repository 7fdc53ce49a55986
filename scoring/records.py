"""Records as prose: the lines chat models write instead of sentences, read as the sentences they stand for
before any grammar runs.

A biography in a chat answer is often a set of records, not sentences: infobox lines ("Born: 1912,
Tromsø"), bold labels ("**Teams:** Rosenborg (2008–2013), Molde (2014–2016)"), bullets without a
subject ("- Professor at Vistula University since 2012", "- Kessler Medal, 2019") and semicolon lists of
subjectless fragments ("born in Dayton; played end at Danforth College, 1917–1920; author of The Open
Field (1948)"). Parsed as they are, such lines lose their values ("Awards is Lindeman Prize") or yield no
fact at all. Each is rewritten here as the sentence a reader understands by it, with the answer's own
subject pronoun ("He won the Lindeman Prize (1962)."), and a map from every character of the rewrite back
to the line as written, so facts keep their spans. Lines that are already sentences are left alone.

>>> prose("Awards: Lindeman Prize (1962)", "he").text
'He won Lindeman Prize (1962).'
>>> prose("Born: 1912, Tromsø, Norway", "she").text
'She was born in 1912 in Tromsø, Norway.'
>>> prose("Researcher at the Hajnówka Field Station, 2004–2011", "she", list_item=True).text
'She was researcher at the Hajnówka Field Station from 2004 to 2011.'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from scoring import nlp
from scoring.datelines import LEAD
from scoring.hedges import closing_hedge
from scoring.inflect import past, present
from scoring.parentheticals import ORG_WORDS
from scoring.rules import Rule, register, rule, run
from vocabulary import NOT_NAMES, fold_words
from vocabulary.english import COMPARING_WORDS, THING_NAME_WORDS
from vocabulary.records import RECORD_PREDICATES

if TYPE_CHECKING:
    from spacy.tokens import Token
THING_NAME = "thing-name"  # registered with grouping's rules (scoring.grouping.NO_PERSON_RULES)

LABEL_RECORDS = rule(
    "label-records",
    "decompose",
    "an infobox or bold-label line ('Born: 1912, Tromsø', 'Teams: A (2008–2013), B') is read as the sentence its "
    "label stands for ('He was born in 1912 in Tromsø', 'He played for A (2008–2013) and B')",
)
SUBJECTLESS_ITEMS = rule(
    "subjectless-items",
    "decompose",
    "a list item or semicolon fragment without a subject ('Professor at X since 2012', 'born in Dayton', "
    "'Kessler Medal, 2019') is read with the answer's subject pronoun ('She was professor at X since 2012')",
)

AMOUNT_RECORDS = rule(
    "amount-records",
    "decompose",
    "a record whose value is a bare amount that takes no verb of its own, under a label that is no known predicate "
    "('Price: £4.99 / month', 'Monthly fee: $12 per seat', a table's row label and cell), is read as the subject's "
    "such value ('Their price is £4.99 / month'): the label names what the amount is",
)
TOPIC_LABELS = rule(
    "topic-labels",
    "decompose",
    "a label that names a topic rather than a predicate ('Early life: …', '**War years** — …') before a sentence with "
    "a subject of its own is no part of the claim: the sentence is read alone",
)
SUBJECTLESS_SENTENCES = rule(
    "subjectless-sentences",
    "decompose",
    "a sentence of prose that opens with its verb in the past or in -s and has no subject ('picked up the saga "
    "ceramics prize in 2012, had a solo show …', 'Spent a decade in Dublin.', 'Lives in Bergen with her partner.') "
    "is read with the answer's pronoun ('She picked up …'); an imperative ('Check the router.'), a participle "
    "that opens a sentence with a subject ('Born in Oslo, she …') and a question stay as written",
)
TOPIC_LABEL_ITEMS = rule(
    "topic-label-items",
    "decompose",
    "a label that names a chapter of a life ('Getting started (2005–2009): …', 'The Kjellvik years: …', 'Last stop "
    "(2018): …') before a verb phrase without a subject is no part of the claim: the verb phrase is read with the "
    "answer's pronoun, dated by the label's years ('From 2005 to 2009, he broke through at Tromsvik IL.', 'Since "
    "2020, he …', 'In 2018, he …'); a label before a noun phrase stays as context (subjectless-items)",
)
COMPARED_FRAGMENTS = rule(
    "compared-fragments",
    "decompose",
    "a fragment of noun phrases that only compare ('same name, different generations, different cities', "
    "'In short: same field, different decades.') has no predicate to give the answer's person: it is read as "
    "written, no subject put before it ('She was same name.' before)",
)
TOLD_PAST_ITEMS = rule(
    "told-past-items",
    "decompose",
    "an item without a subject that opens with a verb whose past is its base form ('Set up his own shop in Dublin', "
    "'Put her savings into a studio', 'Cut his first record in 1961'), about the person's own things (his, her, "
    "their), is the past of a life told and read with the answer's pronoun ('He set up …'); 'Set up your account' "
    "stays an order",
)
DATED_LINES = "dated-lines"
TITLED_ITEMS = rule(
    "titled-items",
    "decompose",
    "a list item that names a work or a thing, a dash, then what it is or what it did ('*The Ninth Window* (2013) — "
    "a psychological thriller that won …', '*Kite Season* (2019) — premiered at …') is a sentence about it ('The "
    "Ninth Window (2013) was a psychological thriller that won …', 'Kite Season (2019) premiered at …')",
)

# What a record's label says of its person (vocabulary/records.py): the predicate its value completes.
_PREDICATES = RECORD_PREDICATES
# Values of these predicates are lists of items: "A (2008–2013), B" → "A (2008–2013) and B".
_LISTING = frozenset({"played for", "won", "wrote", "made", "worked at", "played with", "studied at"})
# Predicates whose value is a description: its first word loses its capital ("was Composer" → "was composer").
_DESCRIBING = frozenset({"was"})

_LABEL = re.compile(r"^(?P<label>[^\W\d_][\w .,'’/&()–-]{0,50}?)\s*:\s+(?P<value>\S.*)$")
_YEAR = r"(?:1[0-9]{3}|20[0-9]{2})"
_YEAR_PLACE = re.compile(rf"^(?P<year>{_YEAR})\s*,\s*(?P<place>\D.*)$")
_PLACE_YEAR = re.compile(rf"^(?P<place>\D[^,]*(?:,[^,\d]+)*?)\s*,\s*(?P<year>{_YEAR})$")
_TRAILING_RANGE = re.compile(rf",\s*(?P<a>{_YEAR})\s*[–-]\s*(?P<b>{_YEAR}|\d{{2}})(?=\s*[.;]?$)")
_TRAILING_YEAR = re.compile(rf",\s*(?P<a>(?:since\s+)?{_YEAR})(?=\s*[.;]?$)")
_BORN_YEAR = re.compile(rf"\b(born|died)\s+(?={_YEAR}\b)", re.IGNORECASE)
# Past participles that need "was" ("born in Dayton" → "was born in Dayton").
_PASSIVE = frozenset(
    "born inducted elected named appointed awarded educated raised knighted ordained buried nominated ranked "
    "listed honoured honored voted drafted selected capped based trained killed wounded injured assassinated "
    "imprisoned exiled arrested".split()
)
_LEADING_ADVERBS = frozenset("also later then now still once subsequently eventually currently formerly".split())
# Head nouns of an item that was received, won or earned rather than held.
_WON = re.compile(r"\b(?:medal|prize|award|trophy|cup|fellowship|honour|honor|order of)\b", re.IGNORECASE)
# A degree, then where it was taken: "PhD, Kingsmere University", "PhD in economics, Ashcombe University".
_DEGREE_FROM = re.compile(
    r"^(?P<degree>(?:phd|ph\.d\.|doctorate|ba|ma|msc|bsc|mba|md|master's|bachelor's)(?: (?:in|of) [^,]+)?)"
    r",\s+(?P<rest>(?!(?:phd|ph\.d\.|doctorate|ba|ma|msc|bsc|mba|md)\b)[A-Z].*)$",
    re.IGNORECASE,
)
_CLOSING_YEAR = re.compile(rf"\s*\((?P<year>{_YEAR})\)\s*$")
_DEGREE = re.compile(r"^(?:phd|ph\.d\.|doctorate|degree|ba|ma|msc|bsc|mba|md|diploma|master's|bachelor's)\b", re.I)


@dataclass(frozen=True)
class Reading:
    """A line as read: ``text``, the offset in the line of each of its characters (inserted words take the
    offset of what follows them), and whether it was rewritten."""

    text: str
    offsets: list[int]
    rewritten: bool = False


class _Builder:
    def __init__(self, source: str) -> None:
        self.source = source
        self.chars: list[str] = []
        self.offsets: list[int] = []

    def copy(self, start: int, end: int) -> None:
        self.chars.extend(self.source[start:end])
        self.offsets.extend(range(start, end))

    def insert(self, text: str, at: int) -> None:
        at = min(max(at, 0), max(len(self.source) - 1, 0))
        self.chars.extend(text)
        self.offsets.extend([at] * len(text))

    def reading(self) -> Reading:
        return Reading("".join(self.chars), self.offsets, True)


def unchanged(text: str) -> Reading:
    return Reading(text, list(range(len(text))))


# Words only a life story says: an answer with them is about a person, whatever pronoun it uses (or none).
_LIFE_WORDS = re.compile(
    r"\b(?:born|died|spouse|married|nationality|occupation)\b|(?<![\w.])[bd]\.\s?(?:c\.\s?)?\d{3,4}\b", re.IGNORECASE
)


def answer_pronoun(texts: list[str]) -> str | None:
    """The subject pronoun an answer uses for its person: "he" or "she" as the answer does; "they" for a
    record of a life that uses none ("Born: 1912" …, or two lines under labels a person's record has:
    "Hometown: …", "Title: …"); None for an answer about no one."""
    words = re.findall(r"\b(?:he|him|his|himself|she|her|hers|herself)\b", " ".join(texts).lower())
    male = sum(w in ("he", "him", "his", "himself") for w in words)
    if words:
        return "he" if male >= len(words) - male else "she"
    if any(_LIFE_WORDS.search(t) for t in texts) or sum(map(_known_label, texts)) >= 2:
        return "they"
    return None


# Predicates a label keeps when a word before its last only says which one ("Third novel", "Debut album", "Major
# award"): what was written, made or won.
_HEAD_PREDICATES = frozenset({"wrote", "made", "won"})


def record_predicate(label: str) -> str | None:
    """The predicate a record's label stands for ("Awards" → "won"), or that of its last word when the words
    before it only say which one ("Third novel" → "wrote"); None for a label of no known predicate.

    >>> record_predicate("Awards"), record_predicate("Third novel"), record_predicate("Early career")
    ('won', 'wrote', None)
    """
    key = label.strip().lower()
    found = _PREDICATES.get(key) or _PREDICATES.get(key.rstrip("s"))
    words = key.split()
    if found is None and 2 <= len(words) <= 3:
        head = _PREDICATES.get(words[-1]) or _PREDICATES.get(words[-1].rstrip("s"))
        found = head if head in _HEAD_PREDICATES else None
    return found


def _known_label(text: str) -> bool:
    """Whether a line is a record under a label that says what it tells of a person ("Hometown: Scranton")."""
    m = _LABEL.match(text)
    label = m.group("label").strip().lower() if m is not None else ""
    return bool(label) and (label in _PREDICATES or label.rstrip("s") in _PREDICATES)


_LABEL_YEARS = re.compile(rf"\(\s*(?P<a>{_YEAR})\s*(?:(?P<dash>[–—-])\s*(?P<b>{_YEAR})?)?\s*\)")


def _label_time(label: str) -> str:
    """When a label's years in parentheses say its clause happened ("From 2005 to 2009, ", "Since 2020, ", "In
    2018, "), or nothing for a label without them."""
    m = _LABEL_YEARS.search(label)
    if m is None:
        return ""
    if m.group("b"):
        return f"From {m.group('a')} to {m.group('b')}, "
    return f"Since {m.group('a')}, " if m.group("dash") else f"In {m.group('a')}, "


def _agree(pronoun: str, verb: str) -> str:
    """ "was born" → "were born" after "they"."""
    if pronoun.lower() != "they":
        return verb
    return re.sub(r"^(?:was|is)\b", lambda m: "were" if m.group() == "was" else "are", verb)


def prose(
    text: str,
    pronoun: str | None,
    list_item: bool = False,
    rules_off: frozenset[str] = frozenset(),
    record: bool = False,
) -> Reading:
    """``text`` read as a sentence about the answer's person (``pronoun``), or as it is. ``record``: a field of a
    fenced profile, which says something of the profile's person and presents no one else ("FC Aarhavn, Denmark
    (2014–2017)" is where the footballer played, though it opens with a name)."""
    if pronoun is None:
        return unchanged(text)
    cut = closing_hedge(text) if SUBJECTLESS_ITEMS not in rules_off else None
    if cut:
        # "Goaltender, IK Norrvik, 1990–1998, I think": the item is read without its hedge, which then closes the
        # sentence ("They were goaltender … from 1990 to 1998, I think."), where hedges come off.
        inner = prose(text[:cut], pronoun, list_item, rules_off, record)
        if inner.rewritten:
            body = inner.text.rstrip(".")
            tail = text[cut:].rstrip(" .;")
            offsets = inner.offsets[: len(body)] + list(range(cut, cut + len(tail)))
            return Reading(f"{body}{tail}.", [*offsets, len(text) - 1], True)
    end = len(text.rstrip(" .;"))
    if COMPARED_FRAGMENTS not in rules_off and compared_only(text[:end]):
        return unchanged(text)
    dated = run(DATED_RULES, Line(text, end, pronoun, list_item, rules_off), rules_off)
    if dated is not None:
        return dated.reading
    if LABEL_RECORDS not in rules_off:
        found = _label_record(text, end, pronoun, rules_off)
        if found is not None:
            return found
    if SUBJECTLESS_ITEMS in rules_off:
        return unchanged(text)
    if list_item and TITLED_ITEMS not in rules_off:
        titled = _titled_item(text, end)
        if titled is not None:
            return titled
    if list_item and _ROLE_PRESENTED.match(text):
        # "the mathematician, born 1965 in Chennai, who proved …": a namesake presented by role, then what
        # they did; the role stays the subject (it tells the namesakes apart).
        presented = _presented(text, end)
        if presented.rewritten and text.rstrip().endswith(";"):
            # a part of a semicolon list opens a sentence of its own: "The mathematician …", as a name would
            return Reading(presented.text[:1].upper() + presented.text[1:], presented.offsets, True)
        if presented.rewritten:
            return presented
    opens_with_verb = not list_item and _verb_phrase_sentence(text, rules_off)
    if list_item or _fragment(text) or _award_line(text) or opens_with_verb:
        # a sentence that opens with its verb needs only its subject, however long it is
        verb = "" if opens_with_verb else _verb_for(_without_asides(text[:end]), persons=not record, off=rules_off)
        if verb is None:
            return _presented(text, end)
        if verb is not None:
            out = _Builder(text)
            out.insert(f"{pronoun.capitalize()} {_agree(pronoun, verb)}", 0)
            if verb == "" and _verb_agrees(out, text, pronoun):
                # the item's own verb after "they": "Was a native of …" → "They were a native of …"
                _item(out, len(text.split(None, 1)[0]), end, lower=False)
            else:
                _item(out, 0, end, lower=verb != "won ", verb_first=verb == "")  # a won thing is named: "won X Award"
            if text[end : end + 1] == ".":
                out.copy(end, end + 1)
            else:
                out.insert(".", end - 1)
            return out.reading()
    return unchanged(text)


# A timeline's label: a year, a span of years or a decade ("1931", "1928–1961", "c. 1955", "1950s"), then its line.
_DATED_LINE = re.compile(
    rf"^(?P<label>(?:c\.\s*)?(?P<year>{_YEAR})(?:s|\s*[–-]\s*(?:{_YEAR}|\d{{2}}))?)\s*:\s+(?P<value>\S.*)$"
)


def _dated_line(text: str, end: int, pronoun: str, rules_off: frozenset[str]) -> Reading | None:
    """A timeline's line ("1955: Emigrated to Chile") read as what its text says of the person, dated by its label
    when the text gives no year of its own ("They emigrated to Chile in 1955"); None for any other line."""
    m = _DATED_LINE.match(text[:end])
    if m is None:
        return None
    start, label = m.start("value"), m.group("label")
    value = text[start:]
    if re.search(rf"\b{m.group('year')}\b", value):
        inner, where = prose(value, pronoun, True, rules_off), list(range(start, len(text)))
    else:
        # the label dates the line as a trailing year does an item ("Emigrated to Chile, 1955"); a line that is
        # a sentence of its own is dated before it ("In 1955, he emigrated to Chile.")
        body = value[: end - start]
        if _is_sentence(body):
            lead = f"In {label}, "
            synthetic = lead + body[:1].lower() + body[1:] if not _proper(body) else lead + body
            where = [m.start("label")] * 3 + list(range(m.start("label"), m.end("label"))) + [start] * 2
            where += list(range(start, end))
            return Reading(synthetic + ".", [*where, end - 1], True)
        inner = prose(f"{body}, {label}", pronoun, True, rules_off)
        where = list(range(start, end)) + [m.start("label")] * 2 + list(range(m.start("label"), m.end("label")))
    if not inner.rewritten and inner.text == value:
        return Reading(value, where[: len(value)], True)
    return Reading(inner.text, [where[min(o, len(where) - 1)] for o in inner.offsets], True)


# Past participles read with "was" after a date list's label: "1921 – born in Charleston" → "she was born in …".
_DATED_PASSIVE = _PASSIVE | frozenset("signed hired promoted released".split())
_YEAR_IN = re.compile(rf"\b{_YEAR}\b")


def _dated_item(text: str, pronoun: str) -> Reading | None:
    """A date list's item ("1946 – joins the X Orchestra", "1939–1942 – studies at …") read as a sentence, its
    date first ("In 1946, she joins the X Orchestra"); None for a line that opens with no date or whose text,
    after the pronoun, opens with no verb ("1990 – retrospective at …")."""
    m = LEAD.match(text)
    if m is None:
        return None
    start = m.end()
    end = len(text.rstrip(" .;"))
    rest = text[start:end]
    if not rest or not rest[0].isalpha():
        return None
    first = rest.split()[0]
    lowered = first.lower()
    if _YEAR_IN.search(rest):
        # The item dates itself ("1977 — Comes from Dingle, where she was born in 1977"): its own dates say which
        # of its claims the year is of, so the label's year is not put before them all.
        when = ""
    elif m.group("b") is None:
        when = f"In {'about ' if m.group('circa') else ''}{m.group('a')}, "
    elif m.group("b").isdigit():
        b = m.group("b") if len(m.group("b")) == 4 else m.group("a")[:2] + m.group("b")
        when = f"From {m.group('a')} to {b}, "
    else:
        when = f"Since {m.group('a')}, "
    if lowered in _DETERMINERS and _own_subject(nlp.parse_one(rest)):
        head = when
        word = lowered if when else first
    else:
        # Read the item after the pronoun: what it opens with must then be the verb ("she studies at …", where the
        # item alone can read "studies" as a noun); an item of no verb ("retrospective at …") is left as it is.
        word = lowered
        doc = nlp.parse_one(f"{pronoun} {word}{rest[len(first) :]}")
        verb = doc[1]
        # After "he"/"she" a verb is in -s or past ("retrospective at …" parsed as a base-form verb is a noun).
        finite = ("VBZ", "VBD", "VBP") if pronoun == "they" else ("VBZ", "VBD")
        subject = pronoun if when else pronoun.capitalize()
        if lowered in _DATED_PASSIVE and verb.tag_ in ("VBN", "VBD"):
            head = f"{when}{subject} {'were' if pronoun == 'they' else 'was'} "
        elif verb.tag_ in finite and verb.pos_ in ("VERB", "AUX") and doc[0].dep_ in ("nsubj", "nsubjpass"):
            head = f"{when}{subject} "
        else:
            return None
    # The words as written, the first in lower case where it was capitalised only as the line's first word.
    text_out = head + word + text[start + len(first) : end] + "."
    offsets = [start] * len(head) + list(range(start, end)) + [end - 1]
    return Reading(text_out, offsets, True)


def _own_subject(doc: Any) -> bool:
    for t in doc:
        if t.dep_ in ("nsubj", "nsubjpass", "expl") and t.i < t.head.i and t.tag_ not in ("WDT", "WP", "WP$"):
            if t.head.dep_ not in ("relcl", "acl"):
                return True
    return False


@dataclass(frozen=True)
class Line:
    """A line for the dated-lines rule: its text (``end``: where its closing punctuation starts), the pronoun of
    the answer's person, whether it is a list item, and the rules switched off."""

    text: str
    end: int
    pronoun: str
    list_item: bool
    rules_off: frozenset[str]


@dataclass(frozen=True)
class Dated:
    """The dated-lines rule's decision: the line read as a sentence about the person."""

    reading: Reading
    decided_by: str = ""

    def stamped(self, name: str) -> Dated:
        return replace(self, decided_by=name)


def _read_dated(line: Line) -> Dated | None:
    # An item of a date list ("1955 – marries …") is read with its date first; a line that reads no verb after the
    # pronoun ("1928–1961: Principal keeper of …") or has a subject of its own ("1955: He emigrated …") is read as
    # its text about the person, dated by its label.
    found = _dated_item(line.text, line.pronoun.lower()) if line.list_item else None
    found = found or _dated_line(line.text, line.end, line.pronoun, line.rules_off)
    return Dated(found) if found is not None else None


DATED_RULES: tuple[Rule[Line, Dated], ...] = register(
    Rule(
        DATED_LINES,
        "decompose",
        "a line that opens with a date, a year or a span of years and a dash or a colon ('1946 – joins the X "
        "Orchestra', '1931: Born in Bilbao', '1928–1961: Principal keeper of …'), is read as its text about the "
        "answer's person, dated by its label: an item of a date list with its date first ('In 1946, she joins the X "
        "Orchestra', 'From 1939 to 1942, she studies at …', 'In 1921, she was born in …'; an item with a subject of "
        "its own keeps it), any other such line with the label's year after it when the text gives none ('He "
        "emigrated to Chile in 1955', 'He was principal keeper of … from 1928 to 1961'); the label is no value of "
        "its own ('They had 2006')",
        (
            "1955 – marries the bassist Eddie Coles",
            "1939–1942 – studies at the Tybee Art School",
            "1921 – born in Charleston, South Carolina",
            "1958 – the trio releases Brushfire",
            "2004: dies in Beaufort",
            "1931: Born in Bilbao in 1931.",
            "2006: Received the Ashby Award in 2006.",
            "1928–1961: Principal keeper of the Gallow Head Lighthouse",
            "1955: He emigrated to Chile.",
        ),
        _read_dated,
    ),
)


def dated_line(
    text: str, pronoun: str | None, list_item: bool = True, rules_off: frozenset[str] = frozenset()
) -> Reading | None:
    """``text`` read by the dated-lines rule as a sentence about the person ``pronoun`` stands for; None when it is
    no such line, the answer is about no person, or the rule is off."""
    if pronoun is None:
        return None
    end = len(text.rstrip(" .;"))
    found = run(DATED_RULES, Line(text, end, pronoun, list_item, rules_off), rules_off)
    return found.reading if found is not None else None


# "Monsoon Ledger (2008) — her debut, …": a name (no digit first: "1903 — born …" is a timeline's), a dash, the rest.
_TITLED = re.compile(r"^(?P<head>[^\W\d_][^—–:]{0,80}?)\s+[—–]\s+(?P<rest>\S.*)$")
# What opens a description of the thing named: "a psychological thriller", "her debut", "the first …".
_DESCRIBES = frozenset("a an the her his their its one".split())


def _titled_item(text: str, end: int) -> Reading | None:
    """A list item naming a thing, a dash, then what it is ("… was her debut, a drama …") or what it did ("…
    premiered at …"), read as a sentence about the thing; None for any other item."""
    m = _TITLED.match(text[:end])
    if m is None:
        return None
    head = m.group("head")
    bare = _without_parentheses(head)
    if not bare or len(bare.split()) > 8 or any(t.pos_ in ("VERB", "AUX") for t in nlp.parse_one(bare)):
        return None
    first = nlp.parse_one(m.group("rest"))[0]
    if first.lower_ in _DESCRIBES:
        joint = " was "
    elif first.tag_ == "VBD" or (first.tag_ == "VBN" and first.lower_ not in _PASSIVE):
        joint = " "
    else:
        return None
    out = _Builder(text)
    out.copy(0, m.end("head"))
    out.insert(joint, m.start("rest"))
    out.copy(m.start("rest"), end)
    if text[end : end + 1] == ".":
        out.copy(end, end + 1)
    else:
        out.insert(".", end - 1)
    return out.reading()


def _award_line(text: str) -> bool:
    """A line of its own that only names an award, perhaps with its year ("Rasmussen Young Scientist Prize (2020)",
    under a "Recognition" heading): what the person won."""
    words = text.split()
    if not words or len(words) > 10 or ":" in text or words[0].lower() in _DETERMINERS or not _WON.search(text):
        return False
    return not any(t.pos_ in ("VERB", "AUX") for t in nlp.parse_one(text))


def compared_only(text: str) -> bool:
    """Whether ``text`` (after a label, if it has one: "In short: …") is only noun phrases each opened by a word that
    compares ("same name, different generations and entirely different fields"): no verb, no number, no name, and
    nothing it is compared with ("the same birthplace as her mother" says where she was born)."""
    m = _LABEL.match(text)
    value = m.group("value") if m is not None else text
    if not COMPARING_WORDS.intersection(re.findall(r"[a-z]+", value.lower())):
        return False  # no word that compares: not parsed (every line of every answer comes here)
    doc = nlp.parse_one(value)
    phrases: list[list[Token]] = [[]]
    for t in doc:
        if t.is_punct or t.pos_ == "CCONJ":
            if t.text not in (".", "!") and phrases[-1]:
                phrases.append([])
            continue
        if t.pos_ in ("VERB", "AUX", "NUM", "PROPN", "ADP", "PRON") or t.like_num:
            return False  # a verb, a value, or what it is compared with ("same birthplace as her mother")
        phrases[-1].append(t)
    phrases = [p for p in phrases if p]
    if not phrases:
        return False
    for words in phrases:
        first = next((t for t in words if t.pos_ not in ("DET", "ADV")), None)
        if first is None or first.lower_ not in COMPARING_WORDS or len(words) > 5:
            return False
        if not any(t.pos_ == "NOUN" and t.i > first.i for t in words):
            return False
    return True


def _fragment(text: str) -> bool:
    """A sentence without a verb that describes rather than heads ("Norwegian composer and organist from
    Tromsø."): four words or more, a full stop, and a phrase that places or qualifies its noun (a preposition
    or a clause), so that headings ("Early life and education.") stay as they are."""
    if not text.rstrip().endswith(".") or len(text.split()) < 4:
        return False
    doc = nlp.parse_one(text)
    root = next((t for t in doc if t.dep_ == "ROOT"), doc[0])
    if root.pos_ not in ("NOUN", "PROPN") or doc[0].like_num:  # "Two people named …" announces
        return False
    if any(t.pos_ in ("VERB", "AUX") and t.head.i == root.i and t.dep_ == "conj" for t in doc):
        return False
    heads = {root.i} | {t.i for t in doc if t.dep_ == "conj" and t.head.i == root.i}
    return any(t.dep_ in ("prep", "relcl", "acl") and t.head.i in heads for t in doc)


def _verb_phrase_sentence(text: str, rules_off: frozenset[str]) -> bool:
    """A sentence of prose that opens with its verb in the past or in -s, with no subject ("Picked up the Saga
    Ceramics Prize in 2012, had a solo show …", "Spent a decade in Dublin.", "Lives in Bergen."): a casual
    answer's sentence about its person, who is its subject (``subjectless-sentences``)."""
    if SUBJECTLESS_SENTENCES in rules_off or not text.rstrip().endswith((".", "!")) or len(text.split()) < 3:
        return False
    doc = nlp.parse_one(text)
    first = doc[0]
    return (
        first.dep_ == "ROOT"
        and first.pos_ in ("VERB", "AUX")
        and first.tag_ in ("VBD", "VBZ")
        and not any(t.dep_ in ("nsubj", "nsubjpass", "expl") and t.head.i == first.i for t in doc)
    )


_ROLE_PRESENTED = re.compile(r"^(?:the|The)\s+[a-z][\w -]*(?:\s*\([^()]*\))?,\s")
# "the composer (1912–1988), born in Bodø, who wrote …": the person presented, then what they did.
_WHO = re.compile(r",\s+who\s+")
# "the footballer (born 1986), a midfielder for …": the person presented, then what they were.
# "Declan Fairweather, born in Plymouth in 1983, an English offshore sailor who …": the birth stays between.
_APPOSED = re.compile(r"^(?P<head>[^,]+?(?:\([^()]*\))?)(?P<born>,\s+born\s[^,()]+)?,\s+(?=(?:a|an|the)\s)")


def _presented(text: str, end: int) -> Reading:
    """An item that presents a person by role or name and says what they did in a relative clause or an
    apposition, read as a statement about them ("the sprinter, born in 1981, who reached …" → "the sprinter,
    born in 1981, reached …"; "the footballer (born 1986), a midfielder …" → "the footballer (born 1986) was a
    midfielder …"); anything else as it is."""
    doc = nlp.parse_one(text[:end])
    if not len(doc):
        return unchanged(text)  # nothing before the item's end: an item that is only a full stop
    root = next((t for t in doc if t.dep_ == "ROOT"), doc[0])
    if root.pos_ not in ("NOUN", "PROPN") or any(
        t.pos_ in ("VERB", "AUX")
        and t.head.i == root.i
        and t.dep_
        in (
            "conj",
            "ROOT",
        )
        for t in doc
    ):
        return unchanged(text)
    out = _Builder(text)
    m = _APPOSED.match(text[:end])
    if m is not None and m.group("born"):
        out.copy(0, m.end())
        out.insert("was ", m.end())
        out.copy(m.end(), len(text))
        return out.reading()
    if m is not None:
        out.copy(0, m.end("head"))
        out.insert(" was ", m.end())
        out.copy(m.end(), len(text))
        return out.reading()
    m = _WHO.search(text[:end])
    if m is not None:
        out.copy(0, m.start())
        out.insert(", ", m.end())
        out.copy(m.end(), len(text))
        return out.reading()
    return unchanged(text)


@dataclass(frozen=True)
class Clause:
    """A rule's decision that the words before a line's colon are a clause of the sentence, not a record's label."""

    label: str
    decided_by: str = ""

    def stamped(self, name: str) -> Clause:
        return replace(self, decided_by=name)


def _clause_label(label: str) -> Clause | None:
    """Words before a colon with a subject and a finite verb of their own ("In 1981 she made her very first picture
    book", "The honours came a decade apart", "They've travelled far"): a sentence that goes on after a colon."""
    words = label.split()
    if len(words) < 2 or words[0].lower() in _WH_WORDS:
        return None  # "Who she is: a Welsh poet", "What he is known for: …" label the value
    doc = nlp.parse_one(label)
    for tok in doc:
        verb = tok.head
        if tok.dep_ not in ("nsubj", "nsubjpass", "expl") or verb.i == tok.i or tok.i > verb.i:
            continue
        if (verb.pos_ in ("VERB", "AUX") and verb.tag_ not in ("VBG", "VBN")) or any(
            c.dep_ in ("aux", "auxpass") and c.tag_ not in ("TO",) for c in verb.children
        ):
            return Clause(label)
    return None


_WH_WORDS = frozenset("who what where when why how which".split())
# Rules that decide the words before a line's colon are no record's label (the line is then read as written).
LABEL_LINE_RULES: tuple[Rule[str, Clause], ...] = register(
    Rule(
        "clause-label",
        "decompose",
        "words before a colon that have a subject and a finite verb of their own ('In 1981 she made her very first "
        "picture book: Hilla and the Snow Hare', 'The honours came a decade apart: …', 'They've travelled far: …') are "
        "a clause of the sentence, not a record's label: the line is read as written, not as '… : she was Hilla …'",
        (
            "In 1981 she made her very first picture book: Hilla and the Snow Hare.",
            "The honours came a decade apart: the Piri Reis Science Award in 2011 and the Lehmann Prize in 2021.",
            "They've travelled far: twenty-two languages, roughly four million copies sold.",
            "Aino won prizes too: the Northern Lights Prize in 1988 and the Aurora Medal in 2004.",
        ),
        _clause_label,
    ),
)


def _label_record(text: str, end: int, pronoun: str, rules_off: frozenset[str]) -> Reading | None:
    m = _LABEL.match(text[:end])
    if m is None:
        return None
    label = m.group("label").strip()
    if run(LABEL_LINE_RULES, label, rules_off) is not None:
        return None
    start = m.start("value")
    if label.lower() in _SUBJECT_LABELS:
        inner = _presented(text[start:], len(text) - start)
        return Reading(inner.text, [start + o for o in inner.offsets], True)
    if label.lower() in _ANSWER_LABELS:
        # "A: Declan Fairweather (1949–2019), an Irish cardiac surgeon …": a transcript's speaker label, not a
        # record; the value is the sentence.
        inner = prose(text[start:], pronoun, True, rules_off)
        return Reading(inner.text, [start + o for o in inner.offsets], True)
    predicate = record_predicate(label)
    if TOPIC_LABELS not in rules_off and _topic(label) and _is_sentence(text[start:end]):
        # "Early life: A native of Savannah, he spent three years …", "Death: He died in Beaufort in 2004.": the
        # label names the topic; the sentence after it says what it says.
        return Reading(text[start:], list(range(start, len(text))), True)
    out = _Builder(text)
    tally = _TALLY.match(text, start, end) if label.lower().endswith("record") else None
    if tally is not None:
        return _tally_read(out, tally, end, pronoun)
    if predicate is None and not _is_name(label, rules_off):
        # "Olympics: 14th in the road race at the 2016 Summer Olympics": the label stays as context, the
        # value is read as a subjectless item.
        if SUBJECTLESS_ITEMS in rules_off:
            return None
        if ";" in text[start:end]:
            # "Sport: Right-arm leg-spinner; 48 ODIs for India women": each part is an item of its own.
            return _items_after_label(out, text, start, end, pronoun)
        verb = _verb_for(text[start:end], persons=False, off=rules_off)
        if verb is None and AMOUNT_RECORDS not in rules_off and amount_value(text[start:end]):
            # "Price: £4.99 / month" → "Their price is £4.99 / month.": a bare amount is the value of what the label
            # names, of the subject's.
            low = label.lower()
            owner = {"he": "His", "she": "Her", "they": "Their", "it": "Its"}.get(pronoun.lower(), f"{pronoun}'s")
            out.insert(f"{owner} {low} {'are' if low.endswith('s') and not low.endswith('ss') else 'is'} ", start)
            out.copy(start, end)
            out.insert(".", end - 1)
            return out.reading()
        if verb is None:
            return None
        if verb == "" and TOPIC_LABEL_ITEMS not in rules_off:
            # "Getting started (2005–2009): broke through at Tromsvik IL" → "From 2005 to 2009, he broke through at
            # Tromsvik IL": the label named a chapter, its years date the clause, the verb phrase is the claim.
            time = _label_time(label)
            out.insert(f"{time}{pronoun if time else pronoun.capitalize()} ", start)
            _item(out, start, end, lower=True, verb_first=True)
            if text[end : end + 1] == ".":
                out.copy(end, end + 1)
            else:
                out.insert(".", end - 1)
            return out.reading()
        out.copy(0, start)
        out.insert(f"{pronoun} {_agree(pronoun, verb)}", start)
        _item(out, start, end, lower=True)
        out.insert(".", end - 1)
        return out.reading()
    if predicate is None:
        # "Anne-Sophie Brandt (architect): born 1961 in Strasbourg; worked for …": a name labelling its record.
        if SUBJECTLESS_ITEMS in rules_off:
            return None
        items = _split_items(text, start, end, ";")
        verbs = [_verb_for(text[a:b], off=rules_off) for a, b in items]
        if verbs[0] is None:
            return None
        out.copy(0, m.end("label"))
        for k, ((a, b), verb) in enumerate(zip(items, verbs, strict=True)):
            out.copy(items[k - 1][1], a) if k else out.insert(" ", a)
            if verb is None:
                out.copy(a, b)
                continue
            out.insert(f"{pronoun} {_agree(pronoun, verb)}" if k else verb, a)
            _item(out, a, b, lower=True)
        out.insert(".", end - 1)
        return out.reading()
    predicate = predicate.format(label=label)
    value = text[start:end]
    degree = _DEGREE_FROM.match(value) if predicate == "studied at" else None
    if degree is not None:
        # "Education: PhD in economics, Ashcombe University, 1987" → "He received a PhD in economics from Ashcombe
        # University in 1987": the year is the degree's, not one of study
        out.insert(f"{pronoun.capitalize()} received a ", start)
        out.copy(start, start + degree.end("degree"))
        out.insert(" from ", start + degree.start("rest"))
        year = _CLOSING_YEAR.search(text, start, end)
        if year is not None:  # "… (1994)": the year it was received
            out.copy(start + degree.start("rest"), year.start())
            out.insert(" in ", year.start("year"))
            out.copy(year.start("year"), year.end("year"))
        else:
            _years_read(out, start + degree.start("rest"), end)
        out.insert(".", end - 1)
        return out.reading()
    out.insert(f"{pronoun.capitalize()} {_agree(pronoun, predicate)} ", start)
    if predicate in ("was born", "died"):
        _life_value(out, start, value)
    else:
        first = start
        if predicate in _DESCRIBING and value[:1].isupper() and value[1:2].islower():
            out.insert(value[0].lower(), start)
            first += 1
        items = _split_items(text, first, end, ";" if ";" in value else ",") if predicate in _LISTING else []
        items = _dated_items(text, items)
        if len(items) > 1:
            for k, (a, b) in enumerate(items):
                if k:
                    out.insert(" and " if k == len(items) - 1 else ", ", a)
                _years_read(out, a, b)
        else:
            _years_read(out, first, end)
    out.insert(".", end - 1)
    return out.reading()


# The thing an answer about no one describes: the name its first line says something of ("Tallyleaf is a
# personal budgeting app.").
_THING = re.compile(r"^\W*(?P<name>[A-Z][\w’'.&-]*(?:\s+[A-Z0-9][\w’'.&-]*){0,3})\W*\s+(?:is|was|are)\s")
# Labels of a thing's record that date it: "Released: 2019" → "Tallyleaf was released in 2019".
_THING_DATES = frozenset("released launched founded introduced established published opened created".split())
_AMOUNT = re.compile(r"(?:about |around |over |more than )?[\d.,]+(?:\s+(?:thousand|million|billion))?\b")


# A bare amount: "£4.99 / month", "Up to 2", "Every 4 hours", "500 GB", "99.9%", "$12 per agent" (a year is none).
_BARE_AMOUNT = re.compile(
    r"(?:(?:up to|every|from|about|around|over|under|at least|at most)\s+)?[£$€¥]?\s?\d[\d.,]*\s?[%×x]?"
    r"(?:\s*(?:/|per\b)?\s*[^\W\d_]+){0,3}\.?",
    re.IGNORECASE,
)


def amount_value(text: str) -> bool:
    """Whether a record's value or a table's cell is a bare amount, which only its label names.

    >>> [amount_value(c) for c in ("£4.99 / month", "Up to 2", "every 4 hours", "2 TB", "1990 Boston Marathon")]
    [True, True, True, True, False]
    >>> [amount_value(c) for c in ("Unlimited", "1985", "1995–2009", "3 titles with Rosenborg and Molde in Norway")]
    [False, False, False, False]
    """
    value = text.strip()
    first = value.split()[0].rstrip(",.") if value.split() else ""
    return _BARE_AMOUNT.fullmatch(value) is not None and re.fullmatch(rf"{_YEAR}s?", first) is None


def thing_name(texts: list[str]) -> str | None:
    """The name of the thing an answer about no one describes, from its first line, or None."""
    m = _THING.match(texts[0]) if texts else None
    if m is None or m.group("name").split()[0].lower() in NOT_NAMES:
        return None  # "There are two:", "These are the specs:": an opening that points, not a name
    return m.group("name")


def thing_prose(text: str, name: str) -> Reading:
    """A label line of an answer about a thing read with the thing's name: "Security: AES-256 encryption" →
    "Tallyleaf's security is AES-256 encryption.", "Released: 2019" → "Tallyleaf was released in 2019.",
    "Users: 1.2 million by 2023" (a plural label and an amount) → "Tallyleaf had 1.2 million users by 2023.";
    any other line as it is."""
    end = len(text.rstrip(" .;"))
    m = _LABEL.match(text[:end])
    if m is None or _is_name(m.group("label").strip()) or re.match(r"(?:an?|one)\s", m.group("value"), re.I):
        return unchanged(text)  # "Intellilink: a tool for linking data": the label is what the value describes
    label, start = m.group("label").strip(), m.start("value")
    low = label.lower()
    out = _Builder(text)
    amount = _AMOUNT.match(text, start, end)
    if low in _THING_DATES and re.match(rf"{_YEAR}\b", text[start:end]):
        out.insert(f"{name} was {low} in ", start)
        out.copy(start, end)
    elif amount is not None and low.endswith("s") and " " not in low:
        out.insert(f"{name} had ", start)
        out.copy(start, amount.end())
        out.insert(f" {low}", amount.end())
        out.copy(amount.end(), end)
    else:
        out.insert(f"{name}'s {low} {'are' if low.endswith('s') and not low.endswith('ss') else 'is'} ", start)
        out.copy(start, end)
    out.insert(".", end - 1)
    return out.reading()


# A line that names a thing and says nothing of it: "Corvane Nimbus AX3200 (2021):", "Acme X2 —".
_NAME_LINE = re.compile(
    r"^\W*(?P<name>[A-Z][\w’'.&+-]*(?:\s+[A-Z0-9][\w’'.&+-]*){0,4})\s*(?:\([^()]{1,30}\))?\s*[.:—–-]?\s*$"
)


def named_thing(text: str) -> str | None:
    """The name a line of nothing but a thing's name gives ("Corvane Nimbus AX3200 (2021)." → "Corvane Nimbus
    AX3200", "Tallyleaf:"), which the items after it describe, or None: a name of two words or more is a thing's
    only with a model number in it.

    >>> named_thing("Corvane Nimbus AX3200 (2021).")
    'Corvane Nimbus AX3200'
    >>> named_thing("Corvane Nimbus AX3200 is a router.") is None
    True
    >>> named_thing("Marta Lind (1968):") is None
    True
    """
    m = _NAME_LINE.match(text)
    if m is None:
        return None
    words = m.group("name").split()
    if len(words) > 1 and not any(ch.isdigit() for ch in m.group("name")):
        return None  # "Marta Lind (1968): cellist · …": words without a model number may be a person's name
    return m.group("name")


def thing_item(text: str, name: str) -> Reading:
    """A list item about a thing, read with its name: a noun phrase is what it has ("4 external antennas" →
    "Corvane Nimbus AX3200 has 4 external antennas."), a participle what was done to it ("Launched at $149" → "…
    was launched at $149."), a verb in the present what it does ("supports Wi-Fi 6"); an item with a subject of its
    own, or no item at all ("= hold 10 s"), as it is.

    >>> thing_item("Launched at $149", "Acme X2").text
    'Acme X2 was launched at $149.'
    >>> thing_item("4 external antennas", "Acme X2").text
    'Acme X2 has 4 external antennas.'
    """
    end = len(text.rstrip(" .;"))
    if not text[:1].isalnum() or end == 0:
        return unchanged(text)
    doc = nlp.parse_one(text[:end])
    if _has_subject(doc):
        return unchanged(text)
    first = doc[0]
    if first.tag_ in ("VBN", "VBD") and first.pos_ == "VERB":
        head = "was "
    elif first.tag_ == "VBZ" and first.pos_ == "VERB":
        head = ""
    elif _verbless(text[:end]) and first.pos_ in ("NOUN", "PROPN", "ADJ", "NUM", "DET", "ADP", "SYM"):
        head = "has "
    else:
        return unchanged(text)
    out = _Builder(text)
    out.insert(f"{name} {head}", 0)
    _item(out, 0, end, lower=True)
    out.insert(".", end - 1)
    return out.reading()


# A record of wins, losses and draws written as a sport writes it: "Record: 61–9–3, with 38 KOs".
_TALLY = re.compile(r"(?P<w>\d{1,4})\s*[–-]\s*(?P<l>\d{1,4})(?:\s*[–-]\s*(?P<d>\d{1,4}))?\b(?![–-])")


def _tally_read(out: _Builder, m: re.Match[str], end: int, pronoun: str) -> Reading:
    """ "Record: 61–9–3, with 38 KOs" → "He had 61 wins, 9 losses and 3 draws, with 38 KOs.": each count a
    claim of its own, kept to the digits the line wrote; the label is what the reading says."""
    out.insert(f"{pronoun.capitalize()} had ", m.start())
    out.copy(m.start("w"), m.end("w"))
    names = ("wins", "losses", "draws") if m.group("d") else ("wins", "losses")
    out.insert(f" {names[0]}, " if m.group("d") else f" {names[0]} and ", m.start("l"))
    out.copy(m.start("l"), m.end("l"))
    if m.group("d"):
        out.insert(f" {names[1]} and ", m.start("d"))
        out.copy(m.start("d"), m.end("d"))
    out.insert(f" {names[-1]}", m.end() - 1)
    out.copy(m.end(), end)
    out.insert(".", end - 1)
    return out.reading()


def _items_after_label(out: _Builder, text: str, start: int, end: int, pronoun: str) -> Reading | None:
    """The semicolon-separated parts of a record's value, each read as a subjectless item after the label."""
    items = _split_items(text, start, end, ";")
    verbs = [_verb_for(text[a:b], persons=False) for a, b in items]
    if verbs[0] is None:
        return None
    out.copy(0, start)
    for k, ((a, b), verb) in enumerate(zip(items, verbs, strict=True)):
        if k:
            out.copy(items[k - 1][1], a)
        if verb is None:
            out.copy(a, b)
            continue
        out.insert(f"{pronoun} {_agree(pronoun, verb)}", a)
        _item(out, a, b, lower=True)
    out.insert(".", end - 1)
    return out.reading()


def _is_name(label: str, rules_off: frozenset[str] = frozenset()) -> bool:
    """A person's name as a label: capitalised words (and a parenthesised role), at most six, none of them
    the word an organisation's name ends with ("Great Lakes Water Compact Commission" names no one)."""
    words = re.sub(r"\([^)]*\)", "", label).split(",")[0].split()
    if any(w.lower() in ORG_WORDS for w in words):
        return False
    if THING_NAME not in rules_off and words and fold_words(words[-1]) in THING_NAME_WORDS:
        return False  # "SEA Games: men's singles winner, 2019 and 2023": an event labels the line, not a person
    return 2 <= len(words) <= 5 and all(w[:1].isupper() or w in _NAME_PARTICLES for w in words)


_ANSWER_LABELS = frozenset(("a", "answer"))
# Labels of the assistant's own asides ("Note: this list is not complete"): the line stays as written, an aside.
_TALK_LABELS = frozenset("note nb n.b disclaimer caveat warning tip ps p.s edit update important reminder".split())
# Labels whose value names the record's person ("Name: Priya Raghunathan", "Who: Theodore Vance, the
# middleweight boxer from Scranton"): the value is read as it stands, a bare name claims nothing.
_SUBJECT_LABELS = frozenset(("name", "full name", "who"))
_NAME_PARTICLES = frozenset("de da di del della van von der den ter bin ibn al la le du dos das y".split())


def _life_value(out: _Builder, start: int, value: str) -> None:
    """ "1912, Tromsø, Norway" → "in 1912 in Tromsø, Norway"; "Lowell, 1888" → "in Lowell in 1888"."""
    for pattern in (_YEAR_PLACE, _PLACE_YEAR):
        m = pattern.match(value)
        if m is None:
            continue
        first, second = sorted(("year", "place"), key=m.start)
        out.insert("in ", start + m.start(first))
        out.copy(start + m.start(first), start + m.end(first))
        out.insert(" in ", start + m.start(second))
        out.copy(start + m.start(second), start + m.end(second))
        return
    if not value.lower().startswith(("in ", "on ", "at ")):
        out.insert("in ", start)
    out.copy(start, start + len(value))


def _split_items(text: str, start: int, end: int, sep: str) -> list[tuple[int, int]]:
    """Items of ``text[start:end]`` split at ``sep`` outside parentheses, without their surrounding spaces."""
    bounds: list[tuple[int, int]] = []
    depth, item_start = 0, start
    for i in range(start, end):
        ch = text[i]
        depth += ch in "(["
        depth -= ch in ")]"
        if ch == sep and depth == 0:
            bounds.append((item_start, i))
            item_start = i + 1
    bounds.append((item_start, end))
    out = []
    for a, b in bounds:
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if a < b:
            out.append((a, b))
    return out


_DATE_ITEM = re.compile(rf"^(?:since\s+)?{_YEAR}(?:\s*[–-]\s*(?:{_YEAR}|\d{{2}}))?$")


def _dated_items(text: str, items: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A year or a range of years after a comma dates the item before it, and is no item of its own:
    "Award: Gilded Quill Award, 2006" won one award in 2006, not an award and a 2006."""
    out: list[tuple[int, int]] = []
    for a, b in items:
        if out and _DATE_ITEM.match(text[a:b]):
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def _years_read(out: _Builder, a: int, b: int) -> None:
    """Copy ``[a, b)``, reading a trailing ", 2004–2011" as " from 2004 to 2011" and ", 1984" as " in 1984"."""
    text = out.source[a:b]
    m = _TRAILING_RANGE.search(text)
    if m is not None:
        out.copy(a, a + m.start())
        out.insert(" from ", a + m.start("a"))
        out.copy(a + m.start("a"), a + m.end("a"))
        out.insert(" to ", a + m.start("b"))
        out.copy(a + m.start("b"), a + m.end("b"))
        out.copy(a + m.end(), b)
        return
    m = _TRAILING_YEAR.search(text)
    if m is not None:
        out.copy(a, a + m.start())
        out.insert(" " if m.group("a").startswith("since") else " in ", a + m.start("a"))
        out.copy(a + m.start("a"), b)
        return
    out.copy(a, b)


def _verb_for(item: str, persons: bool = True, off: frozenset[str] = frozenset()) -> str | None:
    """What a subjectless item needs after its subject to be a sentence ("was ", "won ", "" for a verb
    phrase), or None when it has a subject of its own or is no statement about one. ``persons``: an item that
    opens with a person's name presents that person (not so after a label: "TV: Gus en Cuisine, 2002")."""
    item = item.strip()
    if not item or len(item.split()) > 40:
        return None
    doc = nlp.parse_one(item)
    if _has_subject(doc) or doc[0].lower_ in ("i", "you", "we", "it"):
        return None
    root = next((t for t in doc if t.dep_ == "ROOT"), doc[0])
    if (root.pos_ == "NOUN" and doc[0].lower_ == "the" and any(t.text == "," for t in doc[root.i :])) or (
        persons and root.pos_ == "PROPN" and doc[0].ent_type_ == "PERSON" and not _WON.search(item)
    ):
        # A person presented, not described: "the film director, born 1978 in …" (a namesake by role),
        # "Declan Fairweather, born in Plymouth in 1983, …" (by name).
        return None
    if _persons_own_thing(root):
        # A thing of a named person's, not a description of the person: "Mary Ellen Castellane's life bound up with
        # Lowell" is no "She was Mary Ellen Castellane's life …" (a place's or a body's, "Lowell's best-known
        # organizer", still describes).
        return None
    first = doc[0]
    if first.lower_ in _LEADING_ADVERBS and len(doc) > 1:  # "Also composed …", "Later professor at …"
        first = doc[1]
    # An award by its name ("Lakeshore Jazz Award, 1999"), read before a capital is taken for the item's own.
    named_award = first.pos_ == "PROPN" and bool(_WON.search(" ".join(t.text for t in doc[:6])))
    if first.pos_ == "PROPN" and first.text[1:].islower() and not first.ent_type_:
        # A capital only because the item starts with it ("Married Lorraine Dutton in 1934"): read it in lower case.
        first = nlp.parse_one(item[0].lower() + item[1:])[first.i]
    if first.lower_ in _PASSIVE or (first.lower_ == "married" and len(doc) > 1 and doc[1].lower_ == "to"):
        return "was "
    if first.tag_ in ("VBD", "VBN", "VBZ", "MD") and first.pos_ in ("VERB", "AUX"):  # "Is the author …", "Can read …"
        return ""
    if TOLD_PAST_ITEMS not in off and _told_past(first, doc):  # "Set up his own shop in Dublin": no order to the reader
        return ""
    if first.i == 0 and len(doc) > 1 and doc[1].pos_ == "ADP" and _present_verb(item):  # "Plays for …", "Works at …"
        return ""
    if _DEGREE.match(item):
        return "received a "
    if named_award:
        return "won "
    if first.like_num and _MEASURED.match(item):  # "200 m semi-finalist": a measure that qualifies a noun
        return "was "
    if first.like_num and not re.fullmatch(r"\d+(?:st|nd|rd|th)", first.lower_):  # "31 internationals", not "14th"
        return "had "
    if first.pos_ in ("NOUN", "PROPN", "ADJ", "DET", "ADP"):
        return "was "
    return None


def _told_past(verb: Token, doc: Any) -> bool:
    """A verb whose past is written as its base ("set", "put", "cut"), tagged a base form, that opens an
    item telling of the person's own things ("Set up his own shop", "Put her savings into a studio"): the past of
    a life told, not an order to the reader ("Set up your account", "Put the kettle on")."""
    if verb.tag_ != "VB" or verb.pos_ != "VERB" or verb.i > 1:
        return False
    if past(nlp.lemma(verb) or verb.lower_) != verb.lower_:
        return False
    return any(t.lower_ in ("his", "her", "their") and t.tag_ == "PRP$" for t in doc)


def _persons_own_thing(head: Token) -> bool:
    """Whether ``head`` is owned by a person named with a possessive "'s" ("Ada Brook's first album", "Castellane's
    life"): its possessor, or the name the possessor ends, is a person's."""
    return any(c.dep_ == "poss" and c.ent_type_ == "PERSON" for c in head.children)


# An item's own verb in the third person singular, as "they" needs it ("Was a native" → "were").
_PLURAL_VERBS = {"was": "were", "is": "are", "has": "have", "does": "do"}


def _verb_agrees(out: _Builder, text: str, pronoun: str) -> bool:
    """After "they", the item's own first verb in the plural ("Was a native of Savannah" → "were a native",
    "Comes from Aarhus" → "come from"), written into ``out``; False (nothing written) for another pronoun or a verb
    that needs no change ("Played for …")."""
    if pronoun.lower() != "they":
        return False
    word = text.split(None, 1)[0] if text.strip() else ""
    low = word.lower()
    if low in _PLURAL_VERBS:
        plural = _PLURAL_VERBS[low]
    else:
        if not _present_verb(text):
            return False
        plural = _base(low)
    out.insert(plural, 0)
    return True


def _present_verb(item: str) -> bool:
    """Whether an item opens with a verb in the present, third person ("Comes from Aarhus", "Plays for Arsenal"):
    read after a pronoun, since alone the parser takes "Plays" or "Works" for a plural noun."""
    word = item.split(None, 1)[0] if item.strip() else ""
    if not word.isalpha() or not word.lower().endswith("s") or _WON.search(word[:-1]):  # "Awards from …" names
        return False
    first = nlp.parse_one("he " + item[:1].lower() + item[1:])[1]
    return first.tag_ == "VBZ" and first.pos_ in ("VERB", "AUX")


def _base(verb: str) -> str:
    """The plural of a verb in the third person singular: "comes" → "come", "teaches" → "teach", "carries" → "carry"."""
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if verb.endswith(("sses", "shes", "ches", "xes", "zes", "oes")):
        return verb[:-2]
    return verb[:-1]


# A measure before the noun it qualifies: "200 m semi-finalist", "10,000-metre champion", "400 m hurdles finalist".
_MEASURED = re.compile(
    r"^[\d.,]+(?:\s+|-)(?:m|km|metres?|meters?|mi|miles?|kg|kilograms?|lb|pounds?)(?:\s+[a-z][\w-]*)*\s+"
    r"(?:[a-z-]*finalist|champion|winner|medallist|medalist|record[- ]holder|runner)s?\b",
    re.IGNORECASE,
)


def _has_subject(doc: Any) -> bool:
    """Whether the item's main clause has a subject of its own: one that comes before its verb, and not the
    relative pronoun of a clause inside the item ("Led the X project, which surveyed 312 bogs" has none;
    neither has "Later wrote The Measured Continent", where the parser takes the title for a subject)."""
    for t in doc:
        if t.dep_ not in ("nsubj", "nsubjpass", "expl") or t.i > t.head.i:
            continue
        if t.tag_ in ("WDT", "WP", "WP$") or t.head.dep_ in ("relcl", "acl"):
            continue
        return True
    return False


_FINITE = frozenset(("VBD", "VBZ", "VBP", "MD"))
_DETERMINERS = frozenset("his her their its the a an my our your this that".split())


def _topic(label: str) -> bool:
    """Whether a label can name a topic ("Early life", "War years", "Origins and training"): a few words, no comma,
    not a name, not a phrase of a sentence ("His 2011 book, Money in Motion: …" has a colon inside a title), not
    an aside of the assistant ("Note")."""
    words = label.split()
    return (
        0 < len(words) <= 5
        and "," not in label
        and words[0].lower() not in _DETERMINERS
        and label.lower() not in _TALK_LABELS
        and not _is_name(label)
    )


# An aside in parentheses that closes an item: "(I think)", "(if I recall correctly)", "(not fully certain)".
_CLOSING_ASIDE = re.compile(r"\s*\([^()\d]*\)\s*$")


def _without_asides(text: str) -> str:
    """``text`` without the asides in parentheses that close it ("Principal author, Clean Rivers Act (I think)" →
    "Principal author, Clean Rivers Act"): what an item's verb is chosen by ("I think" is no subject of the item)."""
    while (m := _CLOSING_ASIDE.search(text)) is not None and m.start() > 0:
        text = text[: m.start()]
    return text


def _without_parentheses(text: str) -> str:
    """``text`` without what it says in parentheses ("Monsoon Ledger (2008)" → "Monsoon Ledger")."""
    return re.sub(r"\s*\([^()]*\)", "", text).strip()


def _is_sentence(text: str) -> bool:
    """Whether ``text`` is a sentence: its main verb finite, with a subject of its own before it (:func:`_has_subject`).
    "71 wins, 9 losses, 3 draws" is none, though the parser may take "wins" for a subject; nor is "Director of the
    Meridian Quantum Lab (joined 2009)": what is in parentheses is left out, so "joined" is no main verb."""
    plain = _without_parentheses(text)
    if not plain:
        return False
    doc = nlp.parse_one(plain)
    for t in doc:
        if t.dep_ not in ("nsubj", "nsubjpass", "expl") or t.i > t.head.i:
            continue
        if t.tag_ in ("WDT", "WP", "WP$") or t.head.dep_ != "ROOT":
            continue  # a relative clause's, or a clause's inside ("Le Feu Lent (1999), if I recall correctly")
        verb = t.head
        if verb.i > 0 and doc[verb.i - 1].like_num:
            continue  # "3 draws": a count, not a verb
        if verb.tag_ in _FINITE or any(c.dep_ in ("aux", "auxpass") and c.tag_ in _FINITE for c in verb.children):
            return True
    return False


def _item(out: _Builder, a: int, b: int, lower: bool, verb_first: bool = False) -> None:
    """Copy an item after its inserted subject: its first letter lower-cased unless a name (``verb_first``: the item
    opens with its verb, never a name: "Played for …"), "born 1975" read as "born in 1975", a trailing year read as
    a time."""
    text = out.source
    capital = text[a : a + 1].isupper() and text[a + 1 : a + 2].islower()
    if lower and capital and (verb_first or not _proper(text[a:b])):
        out.insert(text[a].lower(), a)
        a += 1
    born = _BORN_YEAR.search(text, a, b)
    if born is not None:  # "born 1975 in Gdańsk" → "born in 1975 in Gdańsk"
        out.copy(a, born.end())
        out.insert("in ", born.end())
        a = born.end()
    _years_read(out, a, b)


def _proper(item: str) -> bool:
    """Whether an item's first word keeps its capital: a name, a nationality, an acronym ("PhD")."""
    first = nlp.parse_one(item)[0]
    if not first.text[1:].islower() or first.ent_type_ in ("NORP", "LANGUAGE"):
        return True
    if first.like_num:  # "Nineteen professional victories": a count, capitalised only as the item's first word
        return False
    if first.ent_type_ and first.pos_ != "ADJ":  # "Central" of a misread "Central midfielder" is no name
        return True
    return first.pos_ == "PROPN" and nlp.parse_one(item[0].lower() + item[1:])[0].pos_ == "PROPN"


# A line that introduces a list by what its items complete: "Premium adds the following on top of the free
# tier:", "Its features include:". Group 1 is what comes before the items, group 2 what follows them.
_LEAD_IN = re.compile(
    r"^(?P<before>.*\b(?:includes?|included|including|adds?|added|offers?|offered|provides?|features?|"
    r"comes with|has|have|had|supports?|contains?))(?:\s+(?:the following|these)\b(?P<after>[^:]*?))?\s*:\s*$",
    re.IGNORECASE,
)


# A line that introduces a list of what someone can do: "With the Corvane Home app you can:", "The app lets you:".
_ABILITY_LEAD_IN = re.compile(
    r"^(?P<before>.*\b(?:you|users|it|they|he|she)\s+(?:can|could|(?:will|'ll)\s+be\s+able\s+to)|"
    r".*\b(?:lets|let|allows|allow|enables|enable|helps|help)\s+(?:you|users)(?:\s+to)?)\s*:\s*$",
    re.IGNORECASE,
)


def completed_by_lead_in(lead: str, item: str) -> Reading | None:
    """A noun-phrase list item read as the object of the line that introduced its list: "CSV export of your
    transactions" after "**Tallyleaf Premium** costs £4.99 per month and adds the following on top of the free
    tier:" → "Tallyleaf Premium costs £4.99 per month and adds CSV export of your transactions on top of the
    free tier." None when the line introduces no such list or the item is no noun phrase."""
    lead = _unbolded(lead).strip()
    end = len(item.rstrip(" .;"))
    if end == 0:
        return None
    can = _ABILITY_LEAD_IN.match(lead)
    if can is not None:
        return _done_by_lead_in(can.group("before"), item, end)
    m = _LEAD_IN.match(lead)
    if m is None:
        return None
    bare = re.sub(r"\s*\([^()]*\)", "", item[:end]).strip()  # "(the free tier is capped at two)" aside
    doc = nlp.parse_one(bare) if bare else None
    if doc is None:
        return None
    root = next((t for t in doc if t.dep_ == "ROOT"), doc[0])
    if root.pos_ not in ("NOUN", "PROPN") or any(t.pos_ in ("VERB", "AUX") and t.dep_ in ("ROOT", "conj") for t in doc):
        return None
    out = _Builder(item)
    out.insert(m.group("before") + " ", 0)
    first = item[:1]
    if first.isupper() and item[1:2].islower() and (doc[0].like_num or not _proper(item[:end])):
        out.insert(first.lower(), 0)
        out.copy(1, end)
    else:
        out.copy(0, end)
    after = (m.group("after") or "").strip()
    out.insert((" " + after if after else "") + ".", end - 1)
    return out.reading()


def _done_by_lead_in(before: str, item: str, end: int) -> Reading | None:
    """A verb-phrase item completing a line that says what someone can do: "set up a guest network" after "With
    the Corvane Home app you can:" → "With the Corvane Home app you can set up a guest network."; None when the
    item does not open with a verb's bare form."""
    # Read after "you can", the item's first word is a verb's bare form or it is no such item ("install firmware
    # updates" alone is read as a noun phrase).
    first = nlp.parse_one("you can " + item[0].lower() + item[1:end])[2]
    if first.tag_ != "VB":
        return None
    out = _Builder(item)
    out.insert(before + " ", 0)
    if item[:1].isupper():
        out.insert(item[0].lower(), 0)
        out.copy(1, end)
    else:
        out.copy(0, end)
    out.insert(".", end - 1)
    return out.reading()


# --- a transcript's short answers ----------------------------------------------------------------------------

# "Q: Where was he born?", "What company did she start?", "When did he retire?", "Which club did he play for?":
# a question word, a helper verb, the subject and what is asked about.
_QUESTION = re.compile(
    r"^\W*(?:Q\d{0,2}\s*[:.]\s*)?(?P<wh>where|when|in what year|in which year|what|which|who|whom)"
    r"(?P<noun>(?:\s+[a-z-]+){0,2}?)\s+(?P<aux>did|does|do|was|is|were)\s+"
    r"(?P<subj>he|she|they|(?:[A-Z][\w'’-]*\s+){0,3}[A-Z][\w'’-]*)\s+(?P<rest>[^?]*?)\s*\?\s*$",
    re.IGNORECASE,
)
# "How many variable stars are in her catalogue?", "How many patents did she hold?": a count's question.
_HOW_MANY = re.compile(
    r"^\W*(?:Q\d{0,2}\s*[:.]\s*)?how many\s+(?P<noun>[a-z][a-z -]{0,40}?)\s+(?P<aux>did|does|do|are|were|is|was)\s+"
    r"(?P<rest>[^?]+?)\s*\?\s*$",
    re.IGNORECASE,
)
# A bare count: "2,840.", "19", "about 340".
_COUNT = re.compile(r"^(?:(?:about|around|roughly|some|over|nearly)\s+)?\d[\d,.]*\+?$", re.IGNORECASE)
# The answerer's aside after a dash, in the first person ("Lerwick, Shetland — I'm fairly sure of that one."): how
# sure the answer is, not part of it.
_FIRST_PERSON_ASIDE = re.compile(r"\s+[—–]\s+(?=I(?:['’](?:m|d|ve))?\s)")
_ANSWER_LABEL = re.compile(r"^\s*(?:\*\*)?A(?:\*\*)?\s*[:.]\s*(?:\*\*)?\s*")
_PLACE_PREPOSITIONS = ("in ", "at ", "on ", "from ", "near ", "to ")
_TIME_PREPOSITIONS = ("in ", "on ", "from ", "between ", "during ", "around ", "about ", "until ", "by ", "after ")
_LOWER_OPENING = re.compile(r"^(?:In|At|On|From|Near|To|The|A|An|Between|During|Around|About|Until|By|After)\b")


def answered(question: str, answer: str, pronoun: str) -> Reading | None:
    """A short answer read with the question it answers: "Q: Where was he born?" then "A: Osaka, in 1974." →
    "He was born in Osaka, in 1974."; "What company did he start?" then "Gripwell Robotics, co-founded in Sydney in
    2006." → "He started Gripwell Robotics, co-founded …". None when the answer has a verb of its own ("A: Yes. He
    won …"), or the question is not one of a question word, a helper verb, its subject and a predicate."""
    label = _ANSWER_LABEL.match(answer)
    if label is None:
        return None
    start = label.end()
    aside = _FIRST_PERSON_ASIDE.search(answer, start)
    end = aside.start() if aside is not None else len(answer)
    value = answer[start:end].strip()
    if not value or not _verbless(value):
        return None
    many = _HOW_MANY.match(_unbolded(question).strip())
    if many is not None:
        return _count_answered(many, answer, start, end, value, pronoun)
    q = _QUESTION.match(_unbolded(question).strip())
    if q is None:
        return None
    subject = q.group("subj")
    if subject.lower() in ("he", "she", "they"):
        subject = pronoun
    rest = q.group("rest").strip().split()
    aux, wh = q.group("aux").lower(), q.group("wh").lower()
    if aux in ("did", "does", "do"):
        if not rest:
            return None
        lemma = rest[0].lower()
        verb = past(lemma) if aux == "did" else (lemma if subject.lower() == "they" else present(lemma))
    elif rest and (rest[0].lower() in ("born", "known") or rest[0].lower().endswith("ed")):
        lemma, verb = rest[0].lower(), f"{_agree_be(subject, aux)} {rest[0].lower()}"
    else:
        return None
    head = " ".join([subject[:1].upper() + subject[1:], verb, *rest[1:]])
    opening = value[:1].lower() + value[1:] if _LOWER_OPENING.match(value) else value
    lowered = opening.lower()
    if wh == "where" and not lowered.startswith(_PLACE_PREPOSITIONS):
        head += " in"
    elif wh in ("when", "in what year", "in which year") and not lowered.startswith(_TIME_PREPOSITIONS):
        head += " in" if value[:1].isdigit() else ""
    at = start + len(answer[start:]) - len(answer[start:].lstrip())
    out = _Builder(answer)
    out.insert(head + " ", at)
    if opening != value:  # "In 2010." read inside the sentence: "He retired in 2010."
        out.insert(opening[:1], at)
        at += 1
    out.copy(at, end)
    if end < len(answer):
        out.insert(".", end - 1)
    return out.reading()


def _count_answered(many: re.Match[str], answer: str, start: int, end: int, value: str, pronoun: str) -> Reading | None:
    """A bare count read with its "How many" question: "How many variable stars are in her catalogue?" then "A:
    2,840." → "2,840 variable stars are in her catalogue."; "How many patents did she hold?" then "19" → "She held
    19 patents."."""
    if not _COUNT.match(value.rstrip(".")):
        return None
    noun, aux, rest = many.group("noun"), many.group("aux").lower(), many.group("rest").split()
    at = start + len(answer[start:]) - len(answer[start:].lstrip())
    stop = at + len(value.rstrip("."))
    out = _Builder(answer)
    if aux in ("did", "does", "do"):
        # the subject: a pronoun, or a name's run of capitalised words ("Osric Penhallow make")
        subject = 0 if rest and rest[0].lower() in ("he", "she", "they") else None
        if subject is None:
            capitalised = [i for i, w in enumerate(rest) if w[:1].isupper()]
            if not capitalised or capitalised[0] != 0:
                return None
            subject = 0
            while subject + 1 < len(rest) and rest[subject + 1][:1].isupper():
                subject += 1
        if subject + 1 >= len(rest):
            return None
        who = " ".join(rest[: subject + 1])
        who = pronoun if who.lower() in ("he", "she", "they") else who
        lemma = rest[subject + 1].lower()
        verb = past(lemma) if aux == "did" else (lemma if who.lower() == "they" else present(lemma))
        out.insert(f"{who[:1].upper()}{who[1:]} {verb} ", at)
        out.insert(value[:1].lower(), at)  # "About 340" inside the sentence
        out.copy(at + 1, stop)
        out.insert(" " + " ".join([noun, *rest[subject + 2 :]]), stop - 1)
    else:
        out.copy(at, stop)
        out.insert(f" {noun} {aux} {' '.join(rest)}", stop - 1)
    out.insert(".", stop - 1)
    return out.reading()


def _unbolded(text: str) -> str:
    """``text`` without bold markers: a line as written ("**Q: What is he known for?**"); the sentences of a checked
    answer come without them already (``scoring.segment``)."""
    return text.replace("**", "").replace("__", "")


def _verbless(text: str) -> bool:
    """No finite verb: "Osaka, in 1974.", "Gripwell Robotics, co-founded in Sydney in 2006."."""
    doc = nlp.parse_one(text)
    return not any(t.tag_ in ("VBD", "VBZ", "VBP", "MD") for t in doc)


def _agree_be(subject: str, aux: str) -> str:
    if aux in ("was", "were"):
        return "were" if subject.lower() == "they" else "was"
    return "are" if subject.lower() == "they" else "is"


# --- a bare answer to the question the checker is given ----------------------------------------------------------

# "Does Tallyleaf support two-factor authentication?", "Is the Family plan free?", "Can it export CSV?": a helper
# verb, the subject (a name, "the …", "it"), then what is asked.
_YES_NO = re.compile(r"^\W*(?P<aux>does|do|did|is|are|was|were|can|will|has|have)\s+(?P<rest>[^?]+?)\s*\?\s*$", re.I)
_ASKED_DETERMINERS = frozenset(("the", "a", "an", "your", "my", "our", "this", "one"))
# "How many users can share one Family plan?" (what is counted is the subject), "How many devices does the plan
# cover?" (what is counted is the object).
_ASKED_HOW_MANY = re.compile(
    r"^\W*how\s+many(?P<noun>(?:\s+(?!(?:does|do|did|is|are|was|were|can|will)\b)[\w'’-]+){0,3})\s+"
    r"(?P<aux>does|do|did|is|are|was|were|can|will)\s+(?P<rest>[^?]+?)\s*\?\s*$",
    re.IGNORECASE,
)
_YES = re.compile(r"^\W*(?P<word>yes|yep|yeah|correct|no|nope)\b\s*[,.;:—–!-]*\s*", re.IGNORECASE)
# A question about the assistant, not the thing: "What do you know about …?", "Can you tell me …?".
_ASKS_THE_ASSISTANT = re.compile(r"\b(?:you|i|we)\b", re.IGNORECASE)


def asked(question: str, answer: str) -> Reading | None:
    """A bare answer read with the question the checker was given: "Does Tallyleaf support two-factor
    authentication?" then "Yes, since 2019." → "Tallyleaf supports two-factor authentication, since 2019."; "No." →
    "Tallyleaf does not support two-factor authentication."; "How many users can share one Family plan?" then
    "Sixteen." → "Sixteen users can share one Family plan."; a wh-question as a transcript's (:func:`answered`). None
    when the answer has a verb of its own or the question is of no such shape."""
    q = _unbolded(question).strip()
    value = answer.strip()
    if not value or not _verbless(value) or _ASKS_THE_ASSISTANT.search(q) or value.rstrip(" .:").lower() in q.lower():
        return None  # "What do you know about X?" asks the assistant; "X" alone (a heading) answers nothing
    yes = _YES.match(value)
    m = _YES_NO.match(q)
    if m is not None and yes is not None:
        return _yes_no(m, answer, yes)
    m = _ASKED_HOW_MANY.match(q)
    if m is not None and yes is None:
        return _how_many(m, answer)
    return _unlabelled_answer(q, answer)


def _split_subject(aux: str, words: list[str]) -> tuple[str, list[str]] | None:
    """The subject a question's helper verb is followed by, and the words after it: "it", a name ("Tallyleaf",
    "the Corvane Nimbus AX3200": capitalised words and model numbers), or a determiner and the nouns the parse
    makes its subject ("the Family plan"); None when none opens ``words``."""
    if not words:
        return None
    if words[0].lower() in ("it", "they"):
        return words[0], words[1:]
    n = 1 if words[0].lower() in _ASKED_DETERMINERS else 0
    doc = nlp.parse_one(f"{aux.capitalize()} {' '.join(words)}?")
    subj = next((t for t in doc if t.dep_ in ("nsubj", "nsubjpass") and t.left_edge.i == 1), None)
    if subj is not None and 0 < subj.i < len(words):
        return " ".join(words[: subj.i]), words[subj.i :]
    while n < len(words) and (words[n][:1].isupper() or any(c.isdigit() for c in words[n])):
        n += 1
    if n == 0 or (n == 1 and words[0].lower() in _ASKED_DETERMINERS) or n >= len(words):
        return None
    return " ".join(words[:n]), words[n:]


def _yes_no(m: re.Match[str], answer: str, yes: re.Match[str]) -> Reading | None:
    aux = m.group("aux").lower()
    split = _split_subject(aux, m.group("rest").split())
    if split is None:
        return None
    subj, rest = split
    subj = subj[:1].upper() + subj[1:]
    negative = yes.group("word").lower() in ("no", "nope")
    plural = subj.lower() == "they" or aux in ("do", "are", "were", "have")
    if aux in ("does", "do", "did"):
        lemma = rest[0].lower()
        if negative:
            verb = f"{aux} not {lemma}"
        else:
            verb = past(lemma) if aux == "did" else (lemma if plural else present(lemma))
        head = " ".join([subj, verb, *rest[1:]])
    else:
        head = " ".join([subj, aux + (" not" if negative else ""), *rest])
    start = yes.end()
    out = _Builder(answer)
    more = answer[start:].strip(" .")
    out.insert(head + (", " if more else ""), start)
    end = len(answer.rstrip(" ."))
    if more:
        out.copy(start, end)
    out.insert(".", max(end - 1, 0))
    return out.reading()


def _how_many(m: re.Match[str], answer: str) -> Reading | None:
    noun, aux, rest = m.group("noun").strip(), m.group("aux").lower(), m.group("rest").split()
    end = len(answer.rstrip(" ."))
    start = len(answer) - len(answer.lstrip())
    if not rest:
        return None
    out = _Builder(answer)
    if aux in ("does", "do", "did"):
        # "How many devices does the plan cover?" → "The plan covers five devices."
        split = _split_subject(aux, rest)
        if split is None or not split[1]:
            return None
        subj, (lemma, *after) = split
        lemma = lemma.lower()
        said = past(lemma) if aux == "did" else (lemma if aux == "do" else present(lemma))
        out.insert(f"{subj[:1].upper()}{subj[1:]} {said} ", start)
        out.copy(start, end)
        tail = " ".join([noun, *after]).strip()
        if tail:
            out.insert(" " + tail, end - 1)
    else:
        # "How many users can share one Family plan?" → "Sixteen users can share one Family plan."
        out.copy(start, end)
        out.insert(" " + " ".join([w for w in (noun, aux, *rest) if w]), end - 1)
    out.insert(".", end - 1)
    return out.reading()


def _unlabelled_answer(question: str, answer: str) -> Reading | None:
    """:func:`answered` of an answer written without its "A:" label, its offsets into the answer as written."""
    found = answered(question, "A: " + answer, "it")
    if found is None:
        return None
    offsets = [max(o - 3, 0) for o in found.offsets]
    return Reading(found.text, offsets, True)
