"""Parentheses after a name: lifespans and birth dates become facts, everything in parentheses is
kept out of the other facts.

>>> from scoring import nlp
>>> doc = nlp.parse_one("Joseph F. Smith (1838–1918) was a leader.")
>>> [phrase.render() for phrase, _ in parenthetical_facts(doc, paren_ids(doc))]
['Joseph F. Smith was born in 1838.', 'Joseph F. Smith died in 1918.']
"""

from __future__ import annotations

import re
from collections.abc import Set
from functools import lru_cache
from typing import TYPE_CHECKING

from scoring import nlp
from scoring.parse_rules import BIRTH_NAME_PARENTHESIS, PLACE_HELD_YEARS
from scoring.parse_rules import on as rule_on
from scoring.phrases import Phrase, Subject
from vocabulary import MONTHS, NUMBER_WORDS
from vocabulary.occupations import OCCUPATIONS

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

_DATE = (
    r"(?:c\.\s*|circa\s+)?"
    r"(?:\d{1,2}\s+[A-Z][a-z]+\s+\d{3,4}|[A-Z][a-z]+\.?\s+\d{1,2},?\s+\d{3,4}|[A-Z][a-z]+\s+\d{4}|\d{3,4})"
)
_LIFESPAN = re.compile(rf"\(\s*(?:born\s+|b\.\s*)?({_DATE})\s*(?:[–—-]|to)\s*({_DATE})\s*\)")
_BORN = re.compile(r"\(\s*(?:born|b\.|n[ée]e)\s+([^()]*?)\s*\)")
# "born Wilhelmina Trask, 1927–2008", "née Ruth Hale", "born Robert Lee in 1950": a birth name, then any dates.
_BIRTH_NAME = re.compile(r"((?:[A-Z][\w'’.-]*\s+){0,3}[A-Z][\w'’-]*)(?:\s*,\s*|\s+(?=(?:in|on)\s)|\s*$)(.*)")
_RANGE = re.compile(rf"({_DATE})\s*(?:[–—-]|to)\s*({_DATE})")
# Words an organisation's or a work's name ends with: a year range after one is a tenure, not a lifespan.
ORG_WORDS = frozenset(
    "orchestra quartet quintet trio ensemble choir band team club fc university college institute school academy "
    "conservatory station laboratory lab company corporation inc ltd group society association foundation museum "
    "gallery studio atelier press records hospital clinic church cathedral gym council committee party senate "
    "house parliament assembly league federation union agency bank fund office department ministry theatre "
    "theater festival magazine weekly journal newspaper review tv radio network project programme program "
    "commission board authority court trust service corps army navy force bureau centre center".split()
)
_AWARD_WORDS = frozenset("prize medal award trophy cup fellowship honour honor order cross knighthood".split())
_AKA = re.compile(r"\(\s*(?:also\s+)?(?:known|called|nicknamed|born)\s+as\s+([^()]+?)\s*\)")


def paren_ids(doc: Doc) -> frozenset[int]:
    """:func:`_paren_ids` with the parse rules of the sentence being decomposed (they are part of the cache key)."""
    return _paren_ids(doc, rule_on(PLACE_HELD_YEARS))


@lru_cache(maxsize=64)
def _paren_ids(doc: Doc, held_at: bool) -> frozenset[int]:
    """Token ids inside parentheses, which other facts leave out — except a tenure's years ("played for
    Rosenborg (2008–2013)"), which stay with the fact they date.

    Cached for the few documents being decomposed (by identity: a ``Doc`` is read, never changed, once
    parsed): the clauses and subjects of one sentence ask again and again, and even the test for a
    parenthesis rebuilds the sentence's text from its tokens.
    """
    if "(" not in nlp.text(doc):  # most sentences: no pass over the tokens
        return frozenset()
    return frozenset(_all_paren_ids(doc) - tenure_ids(doc))


# A single year in parentheses after an award: "won the Lindeman Prize (1962)" is when it was won. (After a
# work, "wrote The Ochre Houses (2011)", the year is the work's and "in 2011" would be a claim of its own.)
_YEAR = re.compile(r"\(\s*((?:1[0-9]|20)[0-9]{2})\s*\)")


def tenure_ids(doc: Doc) -> set[int]:
    """Token ids of "(1995–2009)" after an organisation (or in a list of several such ranges), and of "(1962)"
    after the name of an award a verb or preposition governs ("won the Lindeman Prize (1962)"): the years date
    the fact they follow and stay in it."""
    out = _dated_things(doc)
    ranges = list(_LIFESPAN.finditer(nlp.text(doc)))
    for m in ranges:
        start_tok = next((t for t in doc if t.idx >= m.start()), None)
        if start_tok is None or start_tok.i == 0:
            continue
        name_tok = doc[start_tok.i - 1]
        named = name_tok.pos_ == "PROPN" or name_tok.lower_ in ORG_WORDS  # "the Wetland Pulse project (…)"
        if named and (len(ranges) > 1 or _not_a_person(name_tok)):
            out |= {t.i for t in doc if m.start() <= t.idx < m.end()}
    return out


def _dated_things(doc: Doc) -> set[int]:
    out: set[int] = set()
    for m in _YEAR.finditer(nlp.text(doc)):
        start_tok = next((t for t in doc if t.idx >= m.start()), None)
        if start_tok is None or start_tok.i == 0:
            continue
        j = start_tok.i - 1
        if doc[j].is_quote and j > 0:  # 'the symphony "Polar Night" (1941)'
            j -= 1
        award = _award_head(doc, j)
        # An award's own word ends no person's name, whatever the recogniser takes "Mercator Medal" for: governed
        # as a verb's object ("won Mercator Medal (1957)"), its year is when it was won.
        governed = award is not None and award.dep_ in ("dobj", "conj")
        if award is not None and (_not_a_person(award) or governed):
            out |= {t.i for t in doc if m.start() <= t.idx < m.end()}
    return out


# Small words an award's name carries after its head noun: "the Amani Prize in Economics", "the Medal of Honor".
_NAME_LINKS = frozenset("in for of the and".split())


def _award_head(doc: Doc, j: int) -> Token | None:
    """The award word of the name that ends at token ``j``: the last word itself ("the Lindeman Prize"), or the
    head of a name that goes on after it in capitalised words and the small words between them ("the Amani Prize
    in Economics", "the Harrowgate Prize for Fiction"); None when the name is no award's."""
    k = j
    while k >= 0 and j - k < 6:
        tok = doc[k]
        if tok.lower_ in _AWARD_WORDS and (k == j or tok.text[:1].isupper()):
            return tok
        if tok.lower_ in ORG_WORDS:
            return None  # "Prize College in Leeds (1990)": the name is a college's
        if not (tok.text[:1].isupper() or (tok.lower_ in _NAME_LINKS and k < j)):
            return None
        k -= 1
    return None


def _all_paren_ids(doc: Doc) -> set[int]:
    out: set[int] = set()
    depth = 0
    for t in doc:
        if t.text == "(":
            depth += 1
        if depth > 0:
            out.add(t.i)
        if t.text == ")" and depth > 0:
            depth -= 1
    return out


def parenthetical_facts(doc: Doc, paren: Set[int]) -> list[tuple[Phrase, Subject]]:
    """Birth and death dates and "also known as" in parentheses right after a name."""
    if not paren:
        return []
    out: list[tuple[Phrase, Subject]] = []
    text = nlp.text(doc)
    # Several "Name (1995–2009)" in one sentence list tenures ("Teams: Velora (2011–2016), Kestrel (2017–2022)"):
    # a person's lifespan follows their name once.
    ranges = list(_LIFESPAN.finditer(text))
    for m in ranges + list(_BORN.finditer(text)) + list(_AKA.finditer(text)):
        start_tok = next((t for t in doc if t.idx >= m.start()), None)
        if start_tok is None or start_tok.i == 0:
            continue
        j = start_tok.i - 1
        if doc[j].text == ")":
            # "Dick Hanley (American football) (1894–1970)": step over the disambiguator.
            while j > 0 and doc[j].text != "(":
                j -= 1
            j -= 1
        name_tok = doc[j] if j >= 0 else doc[0]
        if j < 0:
            continue
        role: Subject | None = None
        if name_tok.pos_ != "PROPN" and m.re is _BORN and name_tok.pos_ == "NOUN" and name_tok.lower_ not in ORG_WORDS:
            # "… with the cellist (b. 1968, Kraków) Ewa Nowak", "Its first cellist (b. 1968, Kraków) left …": a role
            # anywhere presents a person, named right after it or only by the role
            role = _role_phrase(doc, name_tok)
            after = next((t for t in doc if t.idx >= m.end()), None)
            if role is not None and after is not None and after.pos_ == "PROPN":
                role = _name_after(doc, after)
        if role is None and name_tok.pos_ != "PROPN":
            # "The architect (born 1961, Strasbourg)", "Mei-Lin Osterhagen the chemist (b. 1970, Hamburg)": a
            # person presented by role; the dates are the role's person's.
            if not (name_tok.pos_ == "NOUN" and j > 0 and doc[j - 1].lower_ == "the" and m.re is not _AKA):
                continue
            if j - 1 > 0 and doc[j - 2].pos_ == "PROPN":
                name_tok = doc[j - 2]
            elif j - 1 != 0:
                continue
        if role is not None:
            subject = role
        else:
            subject = _name_before(doc, name_tok) if name_tok.pos_ == "PROPN" else _role_before(doc, name_tok)
        ids = {t.i for t in doc if m.start() <= t.idx < m.end()}
        if m.re is _LIFESPAN and (len(ranges) > 1 or _not_a_person(name_tok)):
            continue
        if m.re is _LIFESPAN:
            born, died = m.group(1), m.group(2)
            out.append((_fact(subject, f"was born {_on(born)}", ids), subject))
            out.append((_fact(subject, f"died {_on(died)}", ids), subject))
        elif m.re is _BORN:
            body = m.group(1)
            named = _birth_name(body) if rule_on(BIRTH_NAME_PARENTHESIS) else None
            if named is not None:
                name, body = named
                out.append((_fact(subject, f"is also known as {name}", ids), subject))
                span = _RANGE.fullmatch(body)
                if span:
                    out.append((_fact(subject, f"was born {_on(span.group(1))}", ids), subject))
                    out.append((_fact(subject, f"died {_on(span.group(2))}", ids), subject))
                    continue
            for when in _born_parts(body) if body else ():
                out.append((_fact(subject, f"was born {when}", ids), subject))
        else:
            out.append((_fact(subject, f"is also known as {m.group(1)}", ids), subject))
    return out


# What a dated work is, by a noun near its title or the verb that governs it: "His book A Keeper's Year (1949)",
# "wrote Shuttle and Loom (1950)", "designed the Kehlbrücke footbridge (2008)". Anything else was released.
_WRITTEN = frozenset(
    "book books novel novels novella memoir memoirs essay essays poem poems collection biography autobiography "
    "study treatise textbook volume anthology paper monograph write wrote written publish published author "
    "authored".split()
)
_BUILT = frozenset(
    "bridge footbridge building tower hall house chapel pavilion villa residence design designed build built".split()
)
_RELEASED = frozenset(
    "film films movie movies documentary album albums song songs single record series show play plays opera "
    "symphony painting paintings canvas canvases portrait sculpture mural game direct directed record recorded "
    "release released star starred appear appeared compose composed paint painted produce produced present "
    "presented make made".split()
)
_SMALL = frozenset("of and the a an in on to for at with from 's ’s : - &".split())


def work_year_facts(doc: Doc) -> list[tuple[Phrase, Subject]]:
    """A single year in parentheses after a work's title dates the work: "His book A Keeper's Year (1949)"
    → "A Keeper's Year was published in 1949.", "the documentary Deep Cold (2021)" → "Deep Cold was released
    in 2021." (as FActScore's annotators write it). Only the parenthesis is the fact's own words, so a
    revision deletes the year, not the title. Years after names of people, organisations and awards are not
    a work's."""
    if "(" not in nlp.text(doc):
        return []
    out: list[tuple[Phrase, Subject]] = []
    dated = _dated_things(doc)
    for m in _YEAR.finditer(nlp.text(doc)):
        title = _title_of(doc, m, dated)
        if title is None:
            continue
        a, b = title
        last = doc[b - 1]
        if last.lower_ in ORG_WORDS or last.lower_ in _AWARD_WORDS or any(t.ent_type_ == "PERSON" for t in doc[a:b]):
            continue
        verb = _work_verb(doc, a, b)
        if verb is not None:
            out.append(_said_of_title(doc, m, title, f"was {verb} in {m.group(1)}"))
    return out


def _title_of(doc: Doc, m: re.Match[str], skip: Set[int] = frozenset()) -> tuple[int, int] | None:
    """The token span of the title the parenthesis ``m`` follows, or None (also where the parenthesis opens
    at a token of ``skip``)."""
    start_tok = next((t for t in doc if t.idx >= m.start()), None)
    if start_tok is None or start_tok.i == 0 or start_tok.i in skip:
        return None
    return title_before(doc, start_tok.i - 1)


def _said_of_title(doc: Doc, m: re.Match[str], title: tuple[int, int], predicate: str) -> tuple[Phrase, Subject]:
    """A fact of the parenthesis ``m`` about the title before it: the parenthesis is its own words."""
    text = doc[title[0] : title[1]].text.strip("*_\"“”' ")
    phrase = Phrase().insert(0.0, f"{text} {predicate}")
    phrase.tokens |= {t.i for t in doc if m.start() <= t.idx < m.end()}
    return phrase, Subject(text, set(), None)


_NUMBER = r"\d{1,4}|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
# "(14 novels)", "(2016, three seasons)": how many a named thing has, after its year or alone.
# The counted noun may have words before it ("212 map sheets") and an irregular plural ("three children").
_COUNT = re.compile(
    rf"\(\s*(?:(?:1[0-9]|20)[0-9]{{2}}\s*,\s*)?(?P<count>(?:{_NUMBER})\s+(?:[a-z]+[\s-]){{0,2}}"
    rf"(?:[a-z]+s|children|people|men|women))\s*\)",
    re.IGNORECASE,
)
_TIME_UNITS = frozenset("years months weeks days hours minutes seconds decades centuries".split())


def count_facts(doc: Doc) -> list[tuple[Phrase, Subject]]:
    """A count in parentheses after a name says how many the named thing has: "Series: Inspector Nell Varga
    (14 novels)" → "Inspector Nell Varga has 14 novels.", "TV: Varga (2016, three seasons)" → "Varga has three
    seasons." Lengths of time ("(32 years)") are no count of things. Only the parenthesis is the fact's own
    words, so a revision deletes the count, not the name."""
    if "(" not in nlp.text(doc):
        return []
    out: list[tuple[Phrase, Subject]] = []
    for m in _COUNT.finditer(nlp.text(doc)):
        count = m.group("count")
        title = None if count.split()[-1].lower() in _TIME_UNITS else _title_of(doc, m)
        if title is not None:
            out.append(_said_of_title(doc, m, title, f"has {count}"))
    return out


def title_before(doc: Doc, j: int) -> tuple[int, int] | None:
    """The token span [a, b) of a title ending at token ``j``: capitalised words with the small words between
    them ("A Keeper's Year", "Shuttle and Loom", "Money in Motion"), or a common noun after capitalised words
    ("the Kehlbrücke footbridge", "the Marsh Light series")."""
    while j > 0 and (doc[j].is_quote or doc[j].text in ("*", "_")):
        j -= 1
    end = j + 1
    if not doc[j].text[:1].isupper():
        if (doc[j].pos_ != "NOUN" and not misread_noun(doc[j])) or j == 0:
            return None
        if not doc[j - 1].text[:1].isupper() or doc[j - 1].pos_ != "PROPN":
            return None
        j -= 1
    a = j
    k = j - 1
    while k >= 0:
        t = doc[k]
        if t.text[:1].isupper() and not t.is_punct:
            a = k
        elif t.lower_ in _SMALL or t.is_quote or t.text in ("*", "_"):
            pass
        else:
            break
        k -= 1
    if a == 0 and doc[0].pos_ == "PRON":
        return None
    if a > 0 and doc[a - 1].lower_ == "the" and not doc[a].text.startswith(("The", "A ")):
        a -= 1
    return (a, end) if any(t.pos_ == "PROPN" for t in doc[a:end]) else None


def misread_noun(t: Token) -> bool:
    """A common noun after a name that the parser read as a participle of it: "the Raghunathan bound (1999), an
    estimate …" ("bound" a past participle describing "Raghunathan", with nothing of its own but punctuation and
    a parenthesis)."""
    return (
        t.tag_ == "VBN"
        and t.dep_ == "acl"
        and t.head.i == t.i - 1
        and all(c.dep_ == "punct" or (c.dep_ == "npadvmod" and c.like_num) for c in t.children)
    )


def _work_verb(doc: Doc, a: int, b: int) -> str | None:
    """ "published" for a written work, "completed" for a building, "released" for a film, record or the
    like, judged by the noun just before the title, the title's own last noun, or the verbs that govern it;
    None when nothing says the title is a work's ("joined Kjellvik FK (2014)": the year dates the joining)."""
    words = {t.lower_ for t in doc[max(0, a - 3) : b]} | {nlp.lemma(t) for t in doc[b - 1].ancestors}
    if words & _WRITTEN:
        return "published"
    if words & _BUILT:
        return "completed"
    return "released" if words & _RELEASED else None


def _not_a_person(tok: Token) -> bool:
    """The name is an organisation's or a work's (its last word says so), or the object of a verb or a
    preposition ("played for Rosenborg (2008–2013)") that the recogniser does not take for a person's: what
    the years date is a tenure."""
    if tok.lower_ in ORG_WORDS:
        return True
    if rule_on(PLACE_HELD_YEARS) and _held_at(tok):
        return True
    if tok.ent_type_ == "PERSON":
        return False  # "the ring name of Theodore Vance (1909–1971)": a life, whatever governs the name
    if tok.ent_type_ in ("GPE", "LOC", "FAC"):
        return True  # "mayor of Linden Falls, Ohio (1999–2007)": a place's years are a term held there
    first = tok.left_edge.i if tok.left_edge.i <= tok.i else tok.i
    if first >= 2 and tok.doc[first - 1].text == "," and tok.doc[first - 2].pos_ == "PROPN":
        return True  # "organist, Elverhøy Church, Tromsø (1939–1950)": the last part of an address
    head = tok
    while head.dep_ == "conj" and head.head is not head:
        head = head.head
    return head.dep_ in ("pobj", "dobj")


_MONTH_WORDS = frozenset(m.lower() for m in MONTHS) | frozenset(m.lower()[:3] for m in MONTHS)

# Prepositions whose object is where something was held or done: "in Lyon (1975–1982)", "at Greystone (2001–2008)".
_PLACE_PREPS = frozenset(("in", "at"))


def _held_at(tok: Token) -> bool:
    """The name is where an office or a stay was held: the object of "in" or "at", or of "of" after an office
    ("Mayor of Linden Falls", "bishop of Ravenmoor"). "the ring name of Theodore Vance" is no office."""
    head = tok
    while head.dep_ == "conj" and head.head is not head:
        head = head.head
    if head.dep_ != "pobj":
        return False
    prep = head.head
    if prep.lower_ in _PLACE_PREPS:
        return True
    return prep.lower_ == "of" and prep.head is not prep and prep.head.lower_ in OCCUPATIONS


def _name_before(doc: Doc, tok: Token) -> Subject:
    ids = [tok.i]
    j = tok.i - 1
    while j >= 0:
        hyphen = doc[j].text == "-" and j > 0 and doc[j - 1].pos_ == "PROPN" and not doc[j - 1].whitespace_
        initial = doc[j].text == "." and j > 0 and doc[j - 1].is_upper
        if not (doc[j].pos_ == "PROPN" or hyphen or initial):
            break  # "Mei-Lin Osterhagen": a hyphenated given name is one name ("Lin Osterhagen" before)
        ids.insert(0, j)
        j -= 1
    return Subject(doc[ids[0] : ids[-1] + 1].text, set(ids), tok)


def _role_phrase(doc: Doc, tok: Token) -> Subject | None:
    """The role phrase ending at ``tok`` from its determiner ("the cellist", "Its first cellist", "her Polish
    teacher"), with the name before it when one stands right before ("Mei-Lin Osterhagen the chemist" is Mei-Lin
    Osterhagen); None when no determiner opens it (a bare noun presents no one)."""
    j = tok.i - 1
    while j >= 0 and doc[j].pos_ in ("ADJ", "NOUN", "NUM") and doc[j].dep_ in ("amod", "compound", "nummod"):
        j -= 1
    if j < 0:
        return None
    if doc[j].tag_ != "PRP$" and not (doc[j].pos_ == "DET" and doc[j].lower_ in ("the", "this")):
        return None
    if j > 0 and doc[j - 1].pos_ == "PROPN" and doc[j].lower_ == "the":
        return _name_before(doc, doc[j - 1])
    return Subject(doc[j : tok.i + 1].text, set(range(j, tok.i + 1)), tok)


def _name_after(doc: Doc, tok: Token) -> Subject:
    """The name that starts at ``tok`` ("Ewa Nowak" of "the cellist (b. 1968) Ewa Nowak")."""
    end = tok.i
    while end + 1 < len(doc) and doc[end + 1].pos_ == "PROPN":
        end += 1
    return Subject(doc[tok.i : end + 1].text, set(range(tok.i, end + 1)), doc[end])


def _role_before(doc: Doc, tok: Token) -> Subject:
    """ "The architect": the person a sentence presents by role."""
    return Subject(doc[tok.i - 1 : tok.i + 1].text, {tok.i - 1, tok.i}, tok)


def _birth_name(body: str) -> tuple[str, str] | None:
    """ "Wilhelmina Trask, 1927–2008" → ("Wilhelmina Trask", "1927–2008"); None when the body opens with a date or
    a month ("3 May 1950", "May 1950") rather than a name."""
    m = _BIRTH_NAME.fullmatch(body.strip())
    if m is None or m.group(1).split()[0].rstrip(".").lower() in _MONTH_WORDS:
        return None
    return m.group(1), re.sub(r"^(?:born|b\.)\s*", "", m.group(2).strip())


def _born_parts(body: str) -> list[str]:
    """ "1970, Hamburg" → ["in 1970", "in Hamburg"]; "1970 in Hamburg" → ["in 1970 in Hamburg"]; "in Oslo",
    "on 3 May 1950" as they are; a date alone with its preposition."""
    body = body.strip()
    lead = body.split()[0].lower() if body.split() else ""
    if lead in ("in", "on"):
        return [body]
    m = re.fullmatch(rf"({_DATE})\s*,\s*([A-Z][^,()]*(?:,\s*[A-Z][^,()]*)*)", body)
    if m:
        return [_on(m.group(1)), f"in {m.group(2)}"]
    m = re.fullmatch(rf"({_DATE})\s+(in\s+[A-Z].*)", body)
    if m:
        return [f"{_on(m.group(1))} {m.group(2)}"]
    return [_on(body)]


def _fact(subject: Subject, predicate: str, ids: set[int]) -> Phrase:
    phrase = Phrase().insert(0.0, f"{subject.text} {predicate}")
    phrase.tokens |= subject.ids | ids
    return phrase


def _on(date: str) -> str:
    return ("in " if re.fullmatch(r"(?:c\.\s*|circa\s+)?\d{3,4}|[A-Z][a-z]+\s+\d{4}", date.strip()) else "on ") + date
