"""Rule-based atomic facts (FActScore step 1) from a spaCy dependency parse.

One fact per piece of information, in the style of FActScore's human annotators:

>>> [f.text for f in decompose_sentence("He was born in 1936 in Los Angeles and won a gold medal in 1956.")]
['He was born in 1936.', 'He was born in Los Angeles.', 'He won a gold medal.', 'He won a gold medal in 1956.']

How: every predicate (the root, verbs coordinated with it, participial and relative clauses,
appositives of the subject) becomes a clause with its subject (inherited when elided). A clause
yields its *core* (subject, auxiliaries, verb, complements: "He won a gold medal") and, for each
modifier (prepositional phrase, date), core + that modifier. Coordinated nouns ("films such as X
and Y", "a journalist, author and poet") are split into one fact per conjunct, and a nationality
adjective on a predicate noun is a fact of its own ("is American", "is a swimmer"). Dates in
parentheses after a name become birth and death facts. Each fact keeps the token ids it was built
from, so that a revision can delete exactly its words.
"""

from __future__ import annotations

import re
from collections.abc import Set
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from scoring import nlp
from scoring.contentless import CONTENT_RULES, contentless
from scoring.coordination import expand
from scoring.durations import durations
from scoring.inflect import past, present
from scoring.parentheticals import (
    count_facts,
    misread_noun,
    paren_ids,
    parenthetical_facts,
    title_before,
    work_year_facts,
)
from scoring.parse_rules import (
    ADVERBIAL_SUBJECT,
    APPOSITION_AFTER_NAME,
    COMPARED_PREDICATE,
    DESTINATION_FIRST,
    IMPERATIVE_CONSEQUENCE,
    INTERVAL_CLAUSE,
    JOINT_SUBJECT_RELATIVE,
    LISTED_OCCASIONS,
    PARENTHESISED_PARTICIPLE,
    PREDICATE_NAME_DESCRIPTION,
    RATHER_THAN,
    TRAILING_PARTICIPLE_DATE,
    reset,
    set_on,
    switched_off,
)
from scoring.parse_rules import PARSE_RULES as PARSE_RULE_NAMES
from scoring.parse_rules import on as rule_on
from scoring.phrases import Phrase, Subject, subtree_ids
from scoring.rules import Rule, register, run
from vocabulary import PERSON_VERBS, PERSONAL_PRONOUNS
from vocabulary.english import COMPARING_WORDS

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

MAX_FACTS_PER_SENTENCE = 16

_SUBJ = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"})
_CORE = frozenset({"dobj", "obj", "attr", "acomp", "xcomp", "ccomp", "oprd", "dative", "agent", "pcomp"})
_MODS = frozenset({"prep", "npadvmod", "tmod"})
_AUX = frozenset({"aux", "auxpass", "neg", "prt"})
_SPAWN = frozenset({"relcl", "advcl", "parataxis"})
_PRONOUNS = PERSONAL_PRONOUNS
_DISCOURSE = frozenset(
    "also however additionally furthermore moreover thus therefore too further meanwhile nevertheless "
    "consequently notably indeed ultimately eventually subsequently then overall still so hence".split()
)
_DISCOURSE_POBJ = frozenset({"addition", "contrast", "summary", "conclusion", "short", "fact", "particular", "general"})
# Time told relative to the text itself ("before that", "these days", "since then", "after this"):
# the words point at another sentence and add nothing a page could confirm, so they make no fact of their
# own and stay out of the facts they modify.
_RELATIVE_TIME_WORDS = frozenset("that this then these those the time times days point moment stage now today".split())
# Irregular simple pasts that are not participles: "was born and swam" must not become "was swam".
_SIMPLE_PAST = frozenset(
    "swam wrote began became drove ate fell flew forgot gave went grew knew rode rose ran saw sang spoke stole "
    "took threw wore drew chose did was were".split()
)
_RANGE_START = frozenset({"from", "since", "between"})
_RANGE_END = frozenset({"to", "until", "till", "through", "and"})
_VERBAL = frozenset({"VERB", "AUX"})


@dataclass(frozen=True)
class AtomicFact:
    """One atomic fact of a sentence.

    ``subject`` is the subject as written (possibly a pronoun), ``about_person`` whether that subject
    is a person-like mention (a name or he/she), ``tokens`` the sentence token ids the fact uses.
    """

    text: str
    sentence_index: int = 0
    subject: str = ""
    about_person: bool = True
    tokens: frozenset[int] = frozenset()


@dataclass
class _Clause:
    head: Token
    subject: Subject
    past: bool
    inherited_aux: str = ""
    participle: bool = False
    copula_of: Token | None = None  # an appositive: "Hanley, an American swimmer," -> "Hanley was ..."


_PAREN_YEAR = re.compile(r"\s*\(((?:1[0-9]|20)[0-9]{2})\)")


def decompose_sentence(text: str, sentence_index: int = 0, rules_off: frozenset[str] = frozenset()) -> list[AtomicFact]:
    """Atomic facts of one sentence (parsed through the shared, cached spaCy pipeline); ``rules_off``: names of the
    readings of :data:`PARSE_READINGS` and :data:`PART_READINGS` switched off."""
    return decompose_doc(nlp.parse_one(text, rules_off), sentence_index, rules_off)


# Where a parsed sentence keeps its atomic facts (``Doc.user_data``), read once per parse and set of parse rules.
_ATOMS = "factsentry.atoms"


def decompose_doc(doc: Doc, sentence_index: int = 0, rules_off: Set[str] = frozenset()) -> list[AtomicFact]:
    """Atomic facts of one parsed sentence; falls back to the whole sentence when no clause is found.

    Worked out once per parse and the rules switched off (``rules_off``: readings of :data:`PARSE_READINGS` and
    :data:`PART_READINGS`, and parse rules of :mod:`scoring.parse_rules`), and kept with the ``Doc`` (the parse
    cache of :mod:`scoring.nlp` bounds them): the re-check of a revision decomposes again every sentence the
    revision kept, and the facts depend on the parse and those rules alone (``sentence_index`` is only written
    into them). A doc parsed with ``spelled-number-tokens`` off is passed by the caller (``nlp.parse``)."""
    readings = frozenset(rules_off) & _READING_NAMES
    rules = frozenset(rules_off) & frozenset(PARSE_RULE_NAMES)
    key = _ATOMS + "".join(f":{n}" for n in sorted(readings | rules))
    found = doc.user_data.get(key)
    if found is None:
        token = set_on(rules)
        try:
            found = doc.user_data[key] = tuple(_decompose(doc, readings))
        finally:
            reset(token)
    return [f if f.sentence_index == sentence_index else replace(f, sentence_index=sentence_index) for f in found]


def _decompose(doc: Doc, off: frozenset[str]) -> list[AtomicFact]:
    text = nlp.text(doc).strip()
    if not text:
        return []
    whole = _decompose_whole(doc, 0, off)
    parts = run(PART_READINGS, Whole(doc, tuple(whole), off), off)
    facts = list(parts.facts) if parts is not None else whole
    if rule_on(COMPARED_PREDICATE):
        facts = [f for f in facts if not _compared_predicate(f)]
    # Facts with nothing to check ("He left.", "He took it.", "… his own shop the year."): not kept.
    return [f for f in facts if not f.tokens or contentless(doc, f.tokens, f.text, f.subject, off) is None]


_BE = frozenset("is are was were".split())
_DEGREE_WORDS = frozenset("the all quite very entirely completely totally much so rather somewhat".split())


def _compared_predicate(fact: AtomicFact) -> bool:
    """A fact that says only that its subject is the same, different or similar ("The core is the same."), with
    nothing it is compared with ("the same as …", "different from …") and no value."""
    if not fact.subject or not fact.text.startswith(fact.subject + " "):
        return False
    words = fact.text[len(fact.subject) :].strip(" .").lower().split()
    if len(words) < 2 or words[0] not in _BE:
        return False
    rest = [w for w in words[1:] if w not in _DEGREE_WORDS and w != "not"]
    return bool(rest) and all(w in COMPARING_WORDS or w == "alike" for w in rest)


@dataclass(frozen=True)
class Whole:
    """What a reading of a whole sentence (:data:`PART_READINGS`) reads: the sentence's parse, the facts of that
    parse, and the readings switched off."""

    doc: Doc
    facts: tuple[AtomicFact, ...]
    off: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Parts:
    """The facts of a sentence as a reading of :data:`PART_READINGS` reads it, in place of the whole's."""

    facts: tuple[AtomicFact, ...]
    decided_by: str = ""

    def stamped(self, name: str) -> Parts:
        return replace(self, decided_by=name)


def _dash_aside_reading(case: Whole) -> Parts | None:
    facts = _dash_aside_parts(case.doc, list(case.facts), case.off)
    return Parts(tuple(facts)) if facts is not None else None


def _semicolon_reading(case: Whole) -> Parts | None:
    facts = _semicolon_parts(case.doc, 0, list(case.facts), case.off)
    return Parts(tuple(facts)) if facts is not None else None


def _dash_aside_parts(doc: Doc, whole: list[AtomicFact], off: frozenset[str] = frozenset()) -> list[AtomicFact] | None:
    """The facts of a sentence a clause of its own interrupts between dashes ("The thirty-something from Łódź —
    she was born in 1989 — first made her name with the album …"), where the parse of the whole lost what
    follows the aside (it read the aside's verb as the sentence's, the rest hung on it) or made a fact of words
    of both ("The painter — she studied in Paris won the Arlen Prize"): the sentence without the aside and the
    aside, each parsed alone. None when the whole kept the words after the aside in facts of their own,
    when the aside has no subject and verb of its own ("— the first in 2011, the second in 2017 —"), or when
    either part read alone is tokenised otherwise."""
    dashes = [t.i for t in doc if t.text in ("—", "–", "--") and t.i not in paren_ids(doc)]
    if len(dashes) != 2 or dashes[0] == 0 or dashes[1] - dashes[0] < 3 or dashes[1] >= len(doc) - 2:
        return None
    a, b = dashes
    inside = set(range(a + 1, b))
    lost = not any(i > b and not doc[i].is_punct for f in whole for i in f.tokens)
    crossing = any(
        {i for i in f.tokens if not doc[i].is_punct} & inside and {i for i in f.tokens if not doc[i].is_punct} - inside
        for f in whole
    )
    if not lost and not crossing:
        return None
    out: list[AtomicFact] = []
    for ids, closing in ((list(range(a + 1, b)), "."), ([*range(a), *range(b + 1, len(doc))], "")):
        words = "".join(doc[i].text_with_ws if i + 1 in ids else doc[i].text + " " for i in ids).strip()
        alone = nlp.parse_one(words[:1].upper() + words[1:] + closing, off)
        if [t.lower_ for t in alone][: len(ids)] != [doc[i].lower_ for i in ids]:
            return None
        if closing and not (any(t.dep_ in _SUBJ for t in alone) and any(t.pos_ in ("VERB", "AUX") for t in alone)):
            return None
        facts = [f for f in _decompose_whole(alone, 0, off) if any(i < len(ids) for i in f.tokens)]
        if not facts:
            return None
        out += [replace(f, tokens=frozenset(ids[i] for i in f.tokens if i < len(ids))) for f in facts]
    return out


# Verbs that report or think what a clause before them says ("She was the best, he said"): that clause is theirs.
_REPORTING = frozenset(
    "say tell think believe recall remember note add report write explain claim suggest admit insist know guess "
    "reckon suppose hope feel understand hear read seem appear argue agree recount confirm reply joke".split()
)


def _comma_splice_reading(case: Whole) -> Parts | None:
    cuts = _spliced_at(case.doc, (",",))
    if not cuts:
        return None
    facts = _semicolon_parts(case.doc, 0, list(case.facts), case.off, cuts)
    return Parts(tuple(facts)) if facts is not None else None


def _colon_splice_reading(case: Whole) -> Parts | None:
    doc = case.doc
    dashes = [t.i for t in doc if t.text in _DASHES and t.i not in paren_ids(doc)]
    # a pair of dashes sets off an aside (dash-aside); one dash or a colon joins two clauses
    cuts = _spliced_at(doc, (":", *(_DASHES if len(dashes) == 1 else ())))
    if not cuts:
        return None
    facts = _semicolon_parts(doc, 0, list(case.facts), case.off, cuts)
    if facts is None:
        return None
    # "Norland Systems liked what it saw: it paid £310m …": the "it" after the mark is the clause's subject before it
    before = next((f for f in facts if f.tokens and max(f.tokens) < cuts[0] and f.subject), None)
    named = set(before.subject.split()) if before is not None else set()
    person = any(
        doc[i].ent_type_ == "PERSON" for i in (before.tokens if before is not None else ()) if doc[i].text in named
    )
    if before is not None and before.subject.lower() not in _PRONOUNS and not person:
        facts = [
            replace(f, text=before.subject + f.text[2:], subject=before.subject)
            if f.subject in ("It", "it") and f.text.startswith(f.subject + " ") and min(f.tokens, default=0) > cuts[0]
            else f
            for f in facts
        ]
    return Parts(tuple(facts))


_DASHES = ("—", "–", "--")


def _verbless_tail_reading(case: Whole) -> Parts | None:
    """A clause, one colon or dash, then words with no verb that the parser hung on the clause's verb ("He hung up
    the gloves in 1941 — sixty-one wins, nine losses, three draws", "She won the title in 2001: her first") where
    the whole parse glued them into the verb's facts ("He hung up the gloves sixty-one wins."): the clause read
    alone, and the sentence kept whole as one fact (the tail says something of the clause, but not what its verb
    did)."""
    doc = case.doc
    marks = [t.i for t in doc if (t.text in _DASHES or t.text == ":") and t.i not in paren_ids(doc)]
    if len(marks) != 1 or marks[0] < 3:
        return None
    k = marks[0]
    end = len(doc) - 1 if doc[-1].is_punct else len(doc)
    tail = set(range(k + 1, end))
    if len(tail) < 2 or any(doc[i].pos_ in _VERBAL for i in tail):
        return None
    heads = {doc[i].head for i in tail if doc[i].head.i not in tail}
    if len(heads) != 1 or (verb := next(iter(heads))).i > k or verb.pos_ not in _VERBAL:
        return None
    roots = [doc[i] for i in tail if doc[i].head.i not in tail]
    if any(r.pos_ not in ("NOUN", "PROPN", "NUM", "PRON", "ADJ") for r in roots):
        return None  # "— with her husband": a modifier of the verb's, read as one by the whole parse
    objects_before = any(c.dep_ in _CORE and c.i < k for c in verb.children)
    if any(r.dep_ in _CORE for r in roots) and not objects_before:
        return None  # the verb's own object after the colon: "Her honours include: the Hale Medal, …"
    if not any(f.tokens & tail and any(i < k and not doc[i].is_punct for i in f.tokens) for f in case.facts):
        return None
    words = doc[:k].text.strip()
    alone = nlp.parse_one(words[:1].upper() + words[1:] + ".", case.off)
    if [t.lower_ for t in alone][:k] != [t.lower_ for t in doc[:k]]:
        return None
    facts = [f for f in _decompose_whole(alone, 0, case.off) if any(i < k for i in f.tokens)]
    if not facts:
        return None
    out = [replace(f, tokens=frozenset(i for i in f.tokens if i < k)) for f in facts]
    whole = AtomicFact(nlp.text(doc).strip(), 0, facts[0].subject, facts[0].about_person, frozenset(range(len(doc))))
    return Parts((*out, whole))


def _spliced_at(doc: Doc, marks: tuple[str, ...]) -> list[int]:
    """Where a clause with a subject of its own ends at one of ``marks`` before a verb with a subject of its own that
    the parser made it a complement of ("he left Leeds, he joined …", "the workshop outlived his career: it passed
    …"); a clause a reporting verb takes ("She was the best, he said") is none."""
    cuts = []
    for c in doc:
        if c.dep_ != "ccomp" or c.i > c.head.i or c.pos_ not in _VERBAL or c.head.pos_ not in _VERBAL:
            continue
        if not any(g.dep_ in _SUBJ and g.tag_ not in ("WDT", "WP") for g in c.children):
            continue
        if nlp.lemma(c.head) in _REPORTING or not any(g.dep_ in _SUBJ for g in c.head.children):
            continue
        mark = c.right_edge.i if c.right_edge.text in marks else c.right_edge.i + 1
        if mark < c.head.i and doc[mark].text in marks and mark not in paren_ids(doc):
            cuts.append(mark)
    return cuts


def _semicolon_parts(
    doc: Doc,
    sentence_index: int,
    whole: list[AtomicFact],
    off: frozenset[str] = frozenset(),
    at: list[int] | None = None,
) -> list[AtomicFact] | None:
    """The facts of a sentence of clauses joined by semicolons, each clause parsed on its own, where the parse of
    the whole lost one ("…; tickets auto-close after 7 days": the verb read as a noun, the clause as an appositive
    of the first's subject): a clause none of whose words is in a fact, or a fact made of words of two clauses.
    None when the whole sentence's parse kept its clauses apart, or a clause read alone says nothing."""
    cuts = at if at is not None else [t.i for t in doc if t.text == ";" and t.i not in paren_ids(doc)]
    if not cuts:
        return None
    bounds = list(zip([0, *(c + 1 for c in cuts)], [*cuts, len(doc)], strict=True))
    parts = [(a, b) for a, b in bounds if b - a >= 2]
    if len(parts) < 2:
        return None
    part_of = {i: n for n, (a, b) in enumerate(parts) for i in range(a, b)}
    covered = {part_of[i] for f in whole for i in f.tokens if i in part_of and not doc[i].is_punct}
    crossing = any(len({part_of[i] for i in f.tokens if i in part_of and not doc[i].is_punct}) > 1 for f in whole)
    if len(covered) == len(parts) and not crossing:
        return None
    out: list[AtomicFact] = []
    for a, b in parts:
        span = doc[a:b]
        words = span.text.strip()
        alone = nlp.parse_one(words[:1].upper() + words[1:] + ("" if doc[b - 1].is_punct else "."), off)
        if [t.lower_ for t in alone][: b - a] != [t.lower_ for t in span]:
            return None  # tokenised otherwise alone: its token ids would not be the sentence's
        facts = [f for f in _decompose_whole(alone, sentence_index, off) if any(i < b - a for i in f.tokens)]
        if not facts and _subject_then_predicate(span):
            # "tickets auto-close after 7 days" read alone without a verb still: the clause is checked whole
            facts = [AtomicFact(nlp.text(alone).strip(), sentence_index, span[0].text, False, frozenset(range(b - a)))]
        if not facts:
            return None
        out += [replace(f, tokens=frozenset(a + i for i in f.tokens if i < b - a)) for f in facts]
    return out


def _gapped_object_reading(case: Whole) -> Parts | None:
    facts = _gapped_object_parts(case.doc, list(case.facts), case.off)
    return Parts(tuple(facts)) if facts is not None else None


def _gapped_object_parts(
    doc: Doc, whole: list[AtomicFact], off: frozenset[str] = frozenset()
) -> list[AtomicFact] | None:
    """The facts of a sentence that gives its verb a second object with a modifier of its own and leaves the
    verb out ("won the Carrow Award in 2013 and the Lindqvist Prize in 2016", "received the Hale Medal in 1999
    and the Orton Prize in 2004"), where the parse hung the second object on the verb as a conjunct and no fact
    kept it (or gave the first object the second's year): the sentence read with the verb said again after the
    conjunction ("… and won the Lindqvist Prize in 2016"). None when the whole kept the second object in a fact,
    when the conjunct is a verb or has no modifier after it, or when the sentence read so is tokenised otherwise."""
    for verb in doc:
        if verb.pos_ not in _VERBAL:
            continue
        objects = [c for c in verb.children if c.dep_ in ("dobj", "attr", "oprd") and c.i > verb.i]
        ccs = [c for c in verb.children if c.dep_ == "cc"]
        for noun in verb.children:
            if noun.dep_ != "conj" or noun.pos_ not in ("NOUN", "PROPN") or noun.i < verb.i:
                continue
            cc = next((c for c in ccs if c.i < noun.i and c.i == noun.left_edge.i - 1), None)
            if cc is None or not any(o.i < cc.i for o in objects):
                continue
            own = [c for c in noun.children if c.dep_ in ("prep", "npadvmod") and c.i > noun.i]
            after = [c for c in verb.children if c.dep_ in ("prep", "npadvmod") and c.i > noun.i]
            if not own and not after:
                continue
            if any(noun.i in f.tokens for f in whole):
                continue
            return _read_with_verb_again(doc, verb, cc.i, off)
    return None


def _read_with_verb_again(doc: Doc, verb: Token, after: int, off: frozenset[str]) -> list[AtomicFact] | None:
    """The facts of ``doc`` read with ``verb`` written again after token ``after``, their tokens the sentence's."""
    text = "".join(t.text_with_ws + (verb.text + " " if t.i == after else "") for t in doc)
    alone = nlp.parse_one(text, off)
    expected = [t.lower_ for t in doc[: after + 1]] + [verb.lower_] + [t.lower_ for t in doc[after + 1 :]]
    if [t.lower_ for t in alone] != expected:
        return None
    again = after + 1
    if alone[again].pos_ not in _VERBAL:
        return None

    def back(i: int) -> int:
        return i if i < again else verb.i if i == again else i - 1

    facts = _decompose_whole(alone, 0, off)
    if not any(again in f.tokens for f in facts):
        return None
    return [replace(f, tokens=frozenset(back(i) for i in f.tokens)) for f in facts]


def _subject_then_predicate(span: Span) -> bool:
    """A clause of a noun phrase, then a word that is no preposition or conjunction, then more words ("tickets
    close after 7 days"), not an elided one ("silver in 1994")."""
    nouns = 0
    for n, t in enumerate(span):
        if t.pos_ in ("NOUN", "PROPN") or (t.pos_ == "ADJ" and nouns == 0):
            nouns += t.pos_ != "ADJ"
            continue
        return nouns > 0 and t.pos_ not in ("ADP", "CCONJ", "PUNCT", "SCONJ", "PART") and len(span) - n >= 2
    return False


def _decompose_whole(doc: Doc, sentence_index: int, off: frozenset[str] = frozenset()) -> list[AtomicFact]:
    paren = paren_ids(doc)
    prune = set(paren) | _descriptive_appositions(doc) | {t.i for t in doc if _juxtaposed(t)}
    if rule_on(RATHER_THAN):
        # "rather than drive": the words of what was not done stay out of every fact
        for t in doc:
            if t.dep_ in ("conj", "advcl") and _set_against(t):
                prune |= {*range(t.left_edge.i - 2, t.left_edge.i), *(g.i for g in t.subtree)}
    facts: list[tuple[Phrase, Subject]] = []
    facts += parenthetical_facts(doc, paren)
    clauses = _clauses(doc, off)
    described = _predicate_participles(doc, clauses, paren)
    prune |= {i for _, own in described for i in own}
    dated: list[tuple[Phrase, Subject]] = []
    if rule_on(TRAILING_PARTICIPLE_DATE):
        # "born in Dingle, County Kerry, in 1977": the date is the participle's alone; a participle that is a clause
        # adopts it (``_clause_facts``), one inside a predicate noun ("a singer born in …") says it of the subject
        heads = {c.head.i for c in clauses} | {c.head.i for c, _ in described}
        for t in doc:
            for m in _trailing_dates(doc, t):
                moved = subtree_ids(m)
                prune |= moved
                owner = next((c for c in clauses if c.head in t.ancestors and c.subject.text), None)
                if t.i in heads or owner is None:
                    continue
                phrase = Phrase().insert(t.i - 0.5, f"{owner.subject.text} was")
                phrase.tokens |= owner.subject.ids
                dated.append((phrase.add_tokens(doc, [t.i, *moved]), owner.subject))
    for clause in clauses:
        here = prune
        if rule_on(PARENTHESISED_PARTICIPLE) and _parenthesised_participle(clause, paren):
            # "(graduating in 1990)": the participle's own words, cut as an aside, are what it says
            here = prune - (subtree_ids(clause.head) & set(paren))
        for phrase in _clause_facts(doc, clause, here, off):
            facts.append((phrase, clause.subject))
    if rule_on(PREDICATE_NAME_DESCRIPTION):
        for clause, own in _predicate_name_descriptions(doc, clauses, paren):
            for phrase in _copular_facts(doc, clause, prune - own, off) if clause.copula_of is not None else []:
                facts.append((phrase, clause.subject))
            for phrase in _clause_facts(doc, clause, prune - own, off) if clause.copula_of is None else []:
                facts.append((phrase, clause.subject))
    for clause, own in described:
        for phrase in _clause_facts(doc, clause, prune - own, off):
            facts.append((phrase, clause.subject))
    facts += dated
    person = _sentence_person(clauses)
    for clause, own in _described_things(doc, prune):
        for verb in _persons_verbs_in(doc, own, person):
            # "Verdex, a film launched in 2005 and graduated in journalism …": the graduating is the person's.
            theirs = subtree_ids(verb) | {c.i for c in verb.head.children if c.dep_ == "cc" and c.i < verb.i}
            own -= theirs
            assert person is not None
            verb_clause = _Clause(verb, person, clause.past or _is_past(doc))
            for phrase in _clause_facts(doc, verb_clause, prune - theirs, off):
                facts.append((phrase, person))
        for phrase in _copular_facts(doc, clause, prune - own, off):
            facts.append((phrase, clause.subject))
    relations = NAMED_RELATION.apply(doc) if NAMED_RELATION.apply and NAMED_RELATION.name not in off else None
    for clause in relations.clauses if relations is not None else ():
        for phrase in _copular_facts(doc, clause, prune, off):
            facts.append((phrase, clause.subject))
    out: list[AtomicFact] = []
    seen: set[str] = set()
    _render_facts(facts, sentence_index, out, seen, doc)
    if not out and not any(t.pos_ in _VERBAL for t in doc) and len(doc) <= 8:
        return []  # a heading or a bare name ("John Smith (footballer)") claims nothing
    if not out:
        fallback = Phrase().add_tokens(doc, (i for i in range(len(doc)) if i not in paren)).render()
        if fallback:
            out.append(AtomicFact(fallback, sentence_index, "", True, frozenset(range(len(doc)))))
    # The dates of works and statements in parentheses go last: a sentence of no clause still falls back to
    # its whole words.
    _render_facts(work_year_facts(doc) + count_facts(doc) + _birthplace_facts(doc, clauses), sentence_index, out, seen)
    if paren:
        _render_facts(
            _parenthetical_statements(doc, clauses[0].subject if clauses else Subject(""), off),
            sentence_index,
            out,
            seen,
        )
    return out


def _parenthesised_participle(clause: _Clause, paren: Set[int]) -> bool:
    """A participle clause in parentheses of its own after its verb's clause: "(graduating in 1990)"."""
    head = clause.head
    if not clause.participle or head.i not in paren or head.dep_ != "advcl" or head.tag_ != "VBG":
        return False
    doc = head.doc
    return head.i > 0 and doc[head.i - 1].text == "(" and head.head.i < head.i


def _predicate_name_descriptions(doc: Doc, clauses: list[_Clause], paren: Set[int]) -> list[tuple[_Clause, set[int]]]:
    """The description after a name a copula gives ("The winemaker is Ana Berg, a Chilean born in Talca in 1967"),
    said of the name: the description as a copula ("Ana Berg is a Chilean") and each participle on it ("Ana Berg was
    born in Talca"), each with the words it may use."""
    out: list[tuple[_Clause, set[int]]] = []
    is_past = _is_past(doc)
    for ap in doc:
        name = ap.head
        if (
            ap.dep_ != "appos"
            or (ap.pos_ == "PROPN" and ap.ent_type_ != "NORP")
            or ap.i in paren
            or ap.ent_type_ in ("GPE", "LOC", "DATE")
            or name.dep_ != "attr"
            or name.pos_ != "PROPN"
            or nlp.lemma(name.head) != "be"
            or name.i > ap.i
        ):
            continue
        subject = _subject_of(doc, name)
        if not subject.text:
            continue
        participles = [c for c in ap.children if c.dep_ == "acl" and c.tag_ in ("VBN", "VBG")]
        told = {i for c in participles for i in subtree_ids(c)}
        out.append((_Clause(ap, subject, is_past, copula_of=name), subtree_ids(ap) - told))
        for c in participles:
            # "born in Talca in 1967" tells of a past birth however the sentence is told
            out.append((_Clause(c, subject, is_past or c.lower_ == "born", participle=True), subtree_ids(c)))
    return out


# A parenthesis that says something of its own: "(the free tier is capped at two)", "(won against Carlo
# Benedetti)". Dates, births and aliases in parentheses are parenthetical_facts'; asides are no statements.
_PAREN_GROUP = re.compile(r"\(([^()]{6,200})\)")
_NOT_STATEMENT = re.compile(
    r"^\s*(?:born|b\.|n[ée]e|also|known|called|nicknamed|aged|formerly|see|i\.e\.|e\.g\.|or|and)\b", re.IGNORECASE
)


def _parenthetical_statements(
    doc: Doc, subject: Subject, off: frozenset[str] = frozenset()
) -> list[tuple[Phrase, Subject]]:
    """Facts of a parenthesis that is a clause with its own subject, decomposed as a sentence, or a verb
    phrase in the past without one, said of the sentence's subject ("National Boxing Union champion,
    1936–1938 (won against Carlo Benedetti)" → "… won against Carlo Benedetti"). Their words are the
    parenthesis's own, so a revision deletes only it."""
    out: list[tuple[Phrase, Subject]] = []
    for m in _PAREN_GROUP.finditer(nlp.text(doc)):
        inner = m.group(1)
        if _NOT_STATEMENT.match(inner):
            continue
        toks = [t for t in doc if m.start(1) <= t.idx and t.idx + len(t) <= m.end(1)]
        if not any(t.is_alpha for t in toks):
            continue  # "(1996–1999)", "(2008)": dates are parenthetical_facts', and no parse is needed to say so
        sub = nlp.parse_one(inner.strip(), off)
        if not toks or len(sub) != len(toks) or any(a.text != b.text for a, b in zip(sub, toks, strict=True)):
            continue  # tokenised otherwise alone: no safe map back to the sentence's words
        offset = toks[0].i
        root = next((t for t in sub if t.dep_ == "ROOT"), None)
        if root is None or root.pos_ not in _VERBAL or sub[0].tag_ in ("WDT", "WP", "WP$", "WRB"):
            continue  # "(which she later regretted)" leans on the sentence: no statement alone
        own = next((c for c in root.children if c.dep_ in _SUBJ), None)
        if own is not None and own.tag_ not in ("WDT", "WP"):
            for fact in decompose_doc(sub, rules_off=off | switched_off()):
                phrase = Phrase().insert(0.0, fact.text)
                phrase.tokens |= {offset + i for i in fact.tokens}
                out.append((phrase, Subject(fact.subject)))
        elif own is None and root.i == 0 and root.tag_ == "VBD" and subject.text:
            phrase = Phrase().insert(0.0, f"{subject.text} {inner.strip()}")
            phrase.tokens |= {t.i for t in toks}
            out.append((phrase, subject))
    return out


def _render_facts(
    facts: list[tuple[Phrase, Subject]],
    sentence_index: int,
    out: list[AtomicFact],
    seen: set[str],
    doc: Doc | None = None,
) -> None:
    """``doc``: the clauses' sentence, where a person's bare verb is a fact of two words ("…, he retired")."""
    for phrase, subject in facts:
        if len(out) >= MAX_FACTS_PER_SENTENCE:
            break
        # "won the Lindeman Prize (1962)": a year kept in parentheses dates the fact it ends.
        rendered = _PAREN_YEAR.sub(r" in \1", phrase.render())
        key = rendered.lower()
        if key in seen or (len(rendered.split()) < 3 and not _bare_verb(doc, phrase, subject)):
            continue
        seen.add(key)
        out.append(AtomicFact(rendered, sentence_index, subject.text, subject.is_person, frozenset(phrase.tokens)))


def _bare_verb(doc: Doc | None, phrase: Phrase, subject: Subject) -> bool:
    """A person and a verb of their own ("Having won the cup in 1990, he retired": "He retired"), not an auxiliary
    or "be"/"have" left without what they link."""
    if doc is None or not subject.text or not subject.is_person:
        return False
    verbs = [doc[i] for i in phrase.tokens if doc[i].pos_ == "VERB"]
    return len(verbs) == 1 and nlp.lemma(verbs[0]) not in ("be", "have", "do")


_PLACES_AND_PEOPLE = frozenset({"PERSON", "GPE", "LOC", "NORP", "DATE", "FAC"})


def _described_things(doc: Doc, prune: set[int]) -> list[tuple[_Clause, set[int]]]:
    """A description in apposition to a named thing is a claim about it, as FActScore's annotators write it:
    "… is the Raghunathan bound (1999), an estimate on gaps between primes" → "The Raghunathan bound is an
    estimate on gaps between primes". (A description of a person or a place, "Lisa Cooper, an actress,",
    stays out: a bystander's, not the answer's.) Each with the words its facts may use."""
    out: list[tuple[_Clause, set[int]]] = []
    paren = paren_ids(doc)
    for t in doc:
        if t.dep_ != "appos" or t.i not in prune or t.i in paren or t.pos_ != "NOUN":
            continue
        if t.head.dep_ in _SUBJ or t.head.dep_ == "ROOT" or not any(c.dep_ == "det" for c in t.children):
            continue
        j = t.left_edge.i - 1
        if j < 1 or doc[j].text != ",":
            continue
        j -= 1
        while j > 0 and j in paren:
            j -= 1
        title = title_before(doc, j)
        if title is None:
            continue
        a, b = title
        # A name ending in a common noun names that thing ("the Raghunathan bound", "the Kehlbrücke footbridge"),
        # whatever its name's words are taken for.
        named_thing = doc[b - 1].pos_ == "NOUN" or misread_noun(doc[b - 1])
        names = [doc[i] for i in range(a, b) if doc[i].pos_ == "PROPN"]
        if not named_thing and all(n.ent_type_ in _PLACES_AND_PEOPLE for n in names):
            continue
        name = doc[a:b].text
        own = set(subtree_ids(t))
        subject = Subject(name[:1].upper() + name[1:], set(), doc[b - 1])
        out.append((_Clause(t, subject, past=False, copula_of=doc[b - 1]), own))
    return out


def _predicate_participles(doc: Doc, clauses: list[_Clause], paren: Set[int]) -> list[tuple[_Clause, set[int]]]:
    """Participles set off after a predicate noun tell of the subject: "She is a Nigerian-Spanish novelist, born
    1984 in Lagos, raised in Seville" → "She was born in 1984", "She was born in Lagos", "She was raised in
    Seville" (one blob fact before, whose places were all read as birthplaces). Each with its own words."""
    out: list[tuple[_Clause, set[int]]] = []
    for clause in clauses:
        p = clause.head
        if nlp.lemma(p) != "be" or clause.copula_of is not None:
            continue
        for attr in (c for c in p.children if c.dep_ == "attr" and c.pos_ == "NOUN"):
            for c in attr.children:
                if c.dep_ != "acl" or c.tag_ != "VBN" or c.i in paren or doc[c.i - 1].text != ",":
                    continue
                heads = [c, *(g for g in c.conjuncts if g.tag_ in ("VBN", "VBD") and g.i > c.i)]
                for h in heads:
                    own = subtree_ids(h) - {g.i for g in h.children if g.dep_ in ("conj", "cc")}
                    for g in h.children:
                        if g.dep_ == "conj":
                            own -= subtree_ids(g)
                    # A birth is told in the past whatever tense the sentence is in: "She is …, born 1984".
                    past = clause.past or h.lower_ == "born" or nlp.lemma(h) in ("bear", "raise", "educate")
                    out.append((_Clause(h, clause.subject, past, participle=True), own))
    return out


def _descriptive_appositions(doc: Doc) -> set[int]:
    """Appositives on non-subject nouns that describe rather than locate ("Lisa Cooper, an actress,")."""
    out: set[int] = set()
    for t in doc:
        if t.dep_ == "appos" and t.head.dep_ not in _SUBJ and t.head.dep_ != "ROOT":
            if any(c.dep_ == "det" for c in t.children) and t.ent_type_ not in ("GPE", "LOC", "DATE"):
                if t.head.pos_ == "NOUN" and t.pos_ == "PROPN":
                    continue  # a name for the noun: "her husband, the composer Karan Iyer" says who he is
                if t.head.pos_ == "NOUN" and any(c.dep_ == "appos" and c.pos_ == "PROPN" for c in t.children):
                    continue  # the same, parsed as a role with the name on it: "the structural engineer Lucas Hemmer"
                if t.head.pos_ == "NOUN" and any(c.dep_ == "conj" for c in t.children):
                    continue  # a list goes on: "eight LAN ports, a WAN port and four external antennas"
                # A relative clause on the description says something of its own ("…, a book that won the Hale
                # Prize in 2001", "— a rescue that won him the Cóndor de Oro"): its clause stays a fact.
                told = {i for c in t.children if c.dep_ == "relcl" and _relative_subject(c) for i in subtree_ids(c)}
                out |= subtree_ids(t) - told
    return out


# --- clauses -----------------------------------------------------------------------------------


def _is_past(doc: Doc) -> bool:
    for tok in doc:
        if tok.dep_ == "ROOT":
            if tok.tag_ == "VBD":
                return True
            if any(c.dep_ in ("aux", "auxpass") and c.tag_ == "VBD" for c in tok.children):
                return True
            if tok.lower_ in ("was", "were"):
                return True
            return False
    return False


def _born_prefix(tok: Token) -> Token | None:
    """The "born" of a place-born prefix of ``tok`` ("Scarborough-born Philippa Nantwich", "the Swansea-born
    engineer"): a birthplace, said once as a fact of its own (:func:`_birthplace_facts`), not a part of every
    fact of its subject (where "Scarborough-born … started out at Radio Wold" was refuted by her death place)."""
    for c in tok.children:
        if c.dep_ == "amod" and c.lower_ == "born" and c.i > 0 and c.nbor(-1).text in ("-", "‑"):
            place = c.nbor(-2) if c.i > 1 else None
            if place is not None and place.head.i == c.i and place.text[:1].isupper():
                return c
    return None


def _birthplace_facts(doc: Doc, clauses: list[_Clause]) -> list[tuple[Phrase, Subject]]:
    """ "<Subject> was born in <Place>" for each clause subject with a place-born prefix; the prefix is the fact's
    own words, so a revision deletes only it."""
    out: list[tuple[Phrase, Subject]] = []
    for clause in clauses:
        head = clause.subject.head
        born = _born_prefix(head) if head is not None else None
        if born is None or not clause.subject.text:
            continue
        place = born.nbor(-2)
        phrase = Phrase().insert(0.0, f"{clause.subject.text} was born in {place.text}")
        phrase.tokens |= {place.i, place.i + 1, born.i}
        out.append((phrase, clause.subject))
    return out


def _subject_of(doc: Doc, tok: Token) -> Subject:
    prune = {c.i for c in tok.children if c.dep_ in ("appos", "relcl", "acl", "punct")}
    born = _born_prefix(tok)
    if born is not None:
        prune |= {born.i - 2, born.i - 1, born.i}
    ids: set[int] = set()
    for i in subtree_ids(tok, prune_deps=frozenset({"appos", "relcl", "acl"})):
        if i not in prune or i == tok.i:
            ids.add(i)
    ids -= paren_ids(doc)
    ids = _strip_edge_punct(doc, ids)
    text = Phrase().add_tokens(doc, ids).render().rstrip(".")
    return Subject(text, ids, tok)


def _named_subject(doc: Doc, subject: Subject, off: frozenset[str] = frozenset()) -> Subject:
    """The name a possessed subject is given in apposition, for the facts of its clause: "Her first novel,
    The Salt Road, won the Lindeman Prize" → "The Salt Road won the Lindeman Prize", as FActScore's
    annotators write it; the apposition itself stays a fact of the noun it names ("Her first novel was The
    Salt Road"). A person named so keeps the noun ("Her husband, the composer Karan Iyer, …"): the name
    would read as another individual to group by."""
    tok = subject.head
    if tok is None or tok.pos_ != "NOUN" or not any(c.dep_ == "poss" for c in tok.children):
        return subject
    paren = paren_ids(doc)
    for ap in tok.children:
        if ap.dep_ != "appos" or ap.i in paren or ap.ent_type_ == "PERSON" or _role_name(ap, off):
            continue
        if not any(t.pos_ == "PROPN" for t in ap.subtree):
            continue
        ids = subtree_ids(ap, prune_deps=frozenset({"appos", "relcl", "acl"})) - paren
        ids = _strip_edge_punct(doc, ids)
        text = Phrase().add_tokens(doc, ids).render().rstrip(".")
        if text:
            return Subject(text, ids, ap)
    return subject


def _role_name(noun: Token, off: frozenset[str] = frozenset()) -> set[int]:
    """The tokens of the name a role noun keeps (``role-name``), none when the rule is off."""
    found = ROLE_NAME.apply(noun) if ROLE_NAME.apply is not None and ROLE_NAME.name not in off else None
    return set(found.ids) if found is not None else set()


@dataclass(frozen=True)
class Named:
    """The tokens of a person's name a role noun keeps (``role-name``)."""

    ids: frozenset[int]
    decided_by: str = ""

    def stamped(self, name: str) -> Named:
        return replace(self, decided_by=name)


def _role_names(noun: Token) -> Named | None:
    """The person's name written right after a role noun and hung on it as its apposition ("the instrument
    maker Krzysztof Bąk": "Bąk" an appositive of "maker"): the name's tokens, which the role keeps."""
    for c in noun.children:
        if c.dep_ == "appos" and c.i > noun.i and (c.ent_type_ == "PERSON" or c.pos_ == "PROPN"):
            ids = {t.i for t in c.subtree}
            if min(ids) == noun.i + 1 and not any(noun.doc[i].is_punct for i in ids):
                return Named(frozenset(ids))
    return None


@dataclass(frozen=True)
class Relations:
    """The relatives a sentence names in passing, each a clause "Her husband is …" (``named-relation``)."""

    clauses: tuple[_Clause, ...]
    decided_by: str = ""

    def stamped(self, name: str) -> Relations:
        return replace(self, decided_by=name)


def _relations_named(doc: Doc) -> Relations | None:
    found = _named_relations(doc, paren_ids(doc))
    return Relations(tuple(found)) if found else None


def _named_relations(doc: Doc, paren: Set[int]) -> list[_Clause]:
    """A relative named where the sentence does not make them its subject ("…, with her husband Mateusz Olech on
    drums", "toured with his brother Tomasz Wrona"): "Her husband was Mateusz Olech" is said too, as it is of
    a subject ("Her husband, the composer Karan Iyer, …"). The relation noun is owned by a pronoun and the name,
    a person's, is written right after it; a thing's name ("her album Mosty") says no such thing."""
    out: list[_Clause] = []
    past = _is_past(doc)
    for noun in doc:
        if noun.pos_ != "NOUN" or noun.dep_ in _SUBJ or noun.i in paren:
            continue
        if not any(c.dep_ == "poss" and c.pos_ == "PRON" for c in noun.children):
            continue
        joint = noun.dep_ == "conj" and noun.head.dep_ in _SUBJ and rule_on(JOINT_SUBJECT_RELATIVE)
        name = next((c for c in noun.children if c.dep_ == "appos" and (c.ent_type_ == "PERSON" or joint)), None)
        if joint and name is not None and name.ent_type_ != "PERSON" and name.pos_ != "PROPN" and not _role_name(name):
            name = None  # "She and her band, a quartet, …": no name
        if name is None or name.i in paren:
            continue
        # "She and her husband, the architect Joost Vermaat, have two sons": a joint subject's relative, named
        # between commas, is that person too
        if name.left_edge.i != noun.i + 1 and not (joint and doc[noun.i + 1].text == ","):
            continue
        ids = {c.i for c in noun.children if c.i < noun.i and c.dep_ in ("poss", "amod", "compound")} | {noun.i}
        text = Phrase().add_tokens(doc, ids).render().rstrip(".")
        out.append(_Clause(name, Subject(text[:1].upper() + text[1:], ids, noun), past, copula_of=noun))
    return out


def _strip_edge_punct(doc: Doc, ids: set[int]) -> set[int]:
    ordered = sorted(ids)
    while ordered and doc[ordered[0]].is_punct and doc[ordered[0]].text not in ('"', "“", "("):
        ordered.pop(0)
    while ordered and doc[ordered[-1]].is_punct and doc[ordered[-1]].text not in ('"', "”", ")"):
        ordered.pop()
    return set(ordered)


def _clauses(doc: Doc, off: frozenset[str] = frozenset()) -> list[_Clause]:
    is_past = _is_past(doc)
    out: list[_Clause] = []
    roots = [t for t in doc if t.dep_ == "ROOT"]
    queue: list[_Clause] = []
    for root in roots:
        subj = next((c for c in root.children if c.dep_ in _SUBJ), None)
        if root.pos_ not in _VERBAL and subj is None:
            # A sentence without a verb: "Joseph F. Smith (1838–1918), sixth president of the church."
            subject = _subject_of(doc, root)
            for ap in (c for c in root.children if c.dep_ == "appos"):
                out.append(_Clause(ap, subject, is_past, copula_of=root))
                # "Ada Brook, a cellist who taught in Gdańsk": what the relative clause says, it says of the person;
                # also when the parser hung "who" on the place or club after the role ("an Irish surgeon from
                # Cork who worked at …" is the surgeon).
                for rel in _relatives_of(ap):
                    queue.append(_Clause(rel, subject, is_past))
            # "Ada Brook, who taught in Gdańsk.", "Ada Brook the cellist, who …": a name without a verb, then what
            # its relative clause says of the person (a description without a name, "A Danish biologist, who …",
            # is the answer's subject's and stays whole)
            if any(t.pos_ == "PROPN" for t in root.lefts) or root.pos_ == "PROPN":
                for rel in (c for c in root.children if _relative_subject(c)):
                    queue.append(_Clause(rel, subject, is_past))
            # "The ecologist, born in Gdańsk in 1975, …" read without a verb: the participle still tells of the
            # person the role presents (a bare description, "German road cyclist, born in …", is a record's).
            presented = any(c.dep_ == "det" and c.lower_ == "the" for c in root.children)
            for ac in (c for c in root.children if c.dep_ == "acl" and c.tag_ in ("VBN", "VBG")):
                if presented and ac.i not in paren_ids(doc):
                    out.append(_Clause(ac, subject, is_past, participle=True))
            continue
        subject = _subject_of(doc, subj) if subj is not None else Subject("")
        queue.append(_Clause(root, _named_subject(doc, subject, off), is_past))
    seen: set[int] = set()
    while queue:
        clause = queue.pop(0)
        if clause.head.i in seen:
            continue
        seen.add(clause.head.i)
        out.append(clause)
        queue.extend(_children_clauses(doc, clause, is_past, _sentence_person(out), off))
    return out


def _sentence_person(clauses: list[_Clause]) -> Subject | None:
    """The subject of the sentence's first clause when it is plainly a person (a name the parser takes for one,
    "he", "she"): whom a person's verb coordinated under a thing tells of."""
    if not clauses:
        return None
    head = clauses[0].subject.head
    if head is None or not (head.ent_type_ == "PERSON" or head.lower_ in ("he", "she")):
        return None
    return clauses[0].subject


def _plainly_thing(subject: Subject) -> bool:
    """A subject that is no person: a work or an organisation ("The Quiet Marsh", "Verdex"), not "he"/"she"/"who"
    and no name the parser takes for a person's."""
    head = subject.head
    return head is not None and head.ent_type_ != "PERSON" and head.lower_ not in _PERSON_WORDS


_PERSON_WORDS = frozenset({"he", "she", "i", "we", "they", "who", "whom"})
# Words that open a condition: a clause they open claims nothing ("if you're unsure, …").
_CONDITIONAL = frozenset({"if", "unless"})


def _persons_own(verb: Token) -> bool:
    """A verb only a person does ("graduated", "married", "studied"; ``vocabulary.PERSON_VERBS``), or one said
    with a person's possessive ("received her PhD")."""
    if nlp.lemma(verb) in PERSON_VERBS:
        return True
    return any(c.dep_ == "dobj" and any(g.dep_ == "poss" and g.lower_ in ("his", "her") for g in c.children)
               for c in verb.children)  # fmt: skip


def _persons_verbs_in(doc: Doc, ids: set[int], person: Subject | None) -> list[Token]:
    """Verbs coordinated after a participle describing a thing, in ``ids``, that only a person does, when the
    sentence's subject is one: "Verdex, a packaging film launched in 2005 and graduated in journalism …"."""
    if person is None:
        return []
    return [
        t
        for t in (doc[i] for i in sorted(ids))
        if t.dep_ == "conj"
        and t.pos_ == "VERB"
        and t.head.dep_ == "acl"
        and t.head.i in ids
        and not any(c.dep_ in _SUBJ for c in t.children)
        and _persons_own(t)
    ]


def _set_against(verb: Token) -> bool:
    """A verb that "rather than", "other than" or "instead of" opens ("pedalled to work rather than drive",
    "chose to walk instead of drive"): the verb says what was not done."""
    doc = verb.doc
    at = verb.left_edge.i
    if at < 2 or verb.pos_ not in _VERBAL:
        return False
    two = (doc[at - 2].lower_, doc[at - 1].lower_)
    return two in (("rather", "than"), ("other", "than"), ("instead", "of"))


def _name_before(doc: Doc, subj: Token, ap: Token) -> Token | None:
    """The name an appositive of ``subj`` follows after a comma, outside ``subj``'s own words ("… the work of
    Anselm Rookwood (1861–1938), the stained-glass artist who …"): the parser hung it on a subject that is no person.
    None when the subject is a person or a pronoun, or no such name stands just before the comma."""
    if subj.ent_type_ == "PERSON" or subj.lower_ in PERSONAL_PRONOUNS or ap.pos_ != "NOUN":
        return None
    i = ap.left_edge.i - 1
    if i < 1 or doc[i].text != ",":
        return None
    j = i - 1
    if doc[j].text == ")":
        while j > 0 and doc[j].text != "(":
            j -= 1
        j -= 1
    if j <= subj.i or j < 0:
        return None
    name = doc[j]
    if name.pos_ != "PROPN" or name.ent_type_ in ("GPE", "LOC", "FAC", "DATE", "EVENT"):
        return None
    ancestors = {a.i for a in name.ancestors}
    if subj.i in ancestors and subj.i != name.head.i and ap.i in ancestors:
        return None
    return name


def _children_clauses(
    doc: Doc, clause: _Clause, is_past: bool, person: Subject | None = None, off: frozenset[str] = frozenset()
) -> list[_Clause]:
    """The clauses below ``clause``; ``person``: the sentence's person (:func:`_sentence_person`), whom a person's
    verb coordinated into a clause about a thing tells of."""
    p = clause.head
    out: list[_Clause] = []
    own_subj = next((c for c in p.children if c.dep_ in _SUBJ), None)
    subject = clause.subject
    if own_subj is not None and clause.copula_of is None:
        subject = _subject_of(doc, own_subj)
        if own_subj.tag_ in ("WDT", "WP") and p.dep_ == "relcl":
            # The relative clause's subject is what its parent clause took "who"/"which" to stand for.
            subject = clause.subject if clause.subject.text else _antecedent(doc, p.head)
        # Appositives, participles and relative clauses on the subject describe the subject.
        named = _named_subject(doc, subject, off)
        for c in own_subj.children:
            if c.dep_ == "appos" and c.i not in paren_ids(doc):
                name = _name_before(doc, own_subj, c) if rule_on(APPOSITION_AFTER_NAME) else None
                if name is not None:
                    out.append(_Clause(c, _subject_of(doc, name), is_past, copula_of=name))
                else:
                    out.append(_Clause(c, subject, is_past, copula_of=own_subj))
            elif c.dep_ == "acl" and c.tag_ in ("VBN", "VBG") and c.i not in paren_ids(doc):
                out.append(_Clause(c, named, is_past, participle=True))
        subject = named
    aux_text = " ".join(c.text for c in p.children if c.dep_ in ("aux", "auxpass"))
    for c in p.children:
        if _juxtaposed(c):
            first_subj = next(g for g in c.children if g.dep_ in _SUBJ)
            out.append(_Clause(c, _subject_of(doc, first_subj), is_past))
        elif c.dep_ in ("conj", "advcl") and _set_against(c) and rule_on(RATHER_THAN):
            continue  # "pedalled to work rather than drive": what the subject did not do is no clause of theirs
        elif c.dep_ == "conj" and (
            c.pos_ in _VERBAL or any(g.dep_ in _SUBJ for g in c.children) or _verb_read_as_noun(c)
        ):
            has_aux = any(g.dep_ in ("aux", "auxpass") for g in c.children)
            finite = c.tag_ in ("VBD", "VBZ", "VBP") or c.lower_ in _SIMPLE_PAST
            inherited = "" if has_aux or finite else aux_text
            # "…, and she received the medal": a conjunct with a subject of its own is about that subject.
            conj_subj = next((g for g in c.children if g.dep_ in _SUBJ and g.tag_ not in ("WDT", "WP")), None)
            own = _subject_of(doc, conj_subj) if conj_subj is not None else subject
            thing = _plainly_thing(own) or (own_subj is not None and own_subj.lower_ == "which")
            if conj_subj is None and rule_on(IMPERATIVE_CONSEQUENCE) and _imperative_after_so(c):
                # "…, so use a computer for this": advice to the reader, not a thing the subject does
                own, inherited = Subject(""), ""
            elif conj_subj is None and person is not None and thing and _persons_own(c):
                # "The Quiet Marsh, which was translated into nine languages and founded the Lindenhof String
                # Quartet": a book founds nothing; the founding is the sentence's person's.
                own, inherited = person, ""
            out.append(_Clause(c, own, is_past, inherited_aux=inherited))
        elif c.dep_ == "advcl" and not any(g.dep_ == "aux" and g.lower_ == "to" for g in c.children):
            adv_subj = next((g for g in c.children if g.dep_ in _SUBJ), None)
            mark = next((g for g in c.children if g.dep_ == "mark" or (g.dep_ == "advmod" and g.tag_ == "WRB")), None)
            own = subject
            if (
                adv_subj is not None
                and adv_subj.tag_ not in ("WDT", "WP")
                and mark is not None
                and rule_on(ADVERBIAL_SUBJECT)
            ):
                if mark.lower_ in _CONDITIONAL:
                    continue  # "if the reset doesn't help, …", "If you're unsure, …": a condition, not a claim
                if adv_subj.pos_ != "PRON" or adv_subj.lower_ in _PERSON_WORDS - {"they"} | {"you"}:
                    # "While her brother studied law in Paris, she trained …": the clause is its own subject's
                    own = _named_subject(doc, _subject_of(doc, adv_subj), off)
                else:
                    # "… once they have gone 7 days": "they" stands for the clause's subject, written in its place
                    own = Subject(subject.text, set(), subject.head)
            out.append(_Clause(c, own, is_past, participle=adv_subj is None and c.tag_ in ("VBN", "VBG")))
        elif c.dep_ == "parataxis" and any(g.dep_ in _SUBJ for g in c.children):
            out.append(_Clause(c, subject, is_past))
        elif (
            c.dep_ == "dep"
            and c.pos_ == "VERB"
            and c.i > p.i
            and any(g.dep_ == "advmod" and g.lower_ == "then" for g in c.children)
        ):
            # "Wait for the router to restart, then log in again at 192.168.8.1": a step the parser left unattached.
            out.append(_Clause(c, subject, is_past))
        elif _series_verb(doc, c, p):
            # "She set up her own place, picked up the prize in 2012, had a solo show in Oslo, and …": a verb of a
            # series the parser left unattached; it shares the series' subject.
            out.append(_Clause(c, subject, is_past))
        elif c.dep_ == "prep" and c.lower_ in ("after", "before", "while", "since", "upon", "following"):
            pc = next((g for g in c.children if g.dep_ == "pcomp" and g.tag_ == "VBG"), None)
            if pc is not None:
                out.append(_Clause(pc, subject, is_past, participle=True))
    # Relative clauses anywhere below this predicate (not below other predicates).
    for tok in p.subtree:
        if tok.dep_ == "relcl" and _governing_predicate(tok.head).i == p.i:
            rel_subj = next((g for g in tok.children if g.dep_ in _SUBJ), None)
            if rel_subj is None or rel_subj.tag_ in ("WDT", "WP"):
                head = _who_antecedent(tok.head) if rel_subj is not None and rel_subj.lower_ == "who" else tok.head
                describes_subject = head.dep_ in _SUBJ or head.i in subject.ids
                if head.dep_ == "appos" and (head.head.dep_ in _SUBJ or head.head.i in subject.ids):
                    describes_subject = True  # "the footballer, a midfielder for Kjellvik FK who won …"
                    owner = _name_before(doc, head.head, head) if rule_on(APPOSITION_AFTER_NAME) else None
                    if owner is not None:
                        # "… the work of Anselm Rookwood (1861–1938), the stained-glass artist who lived …"
                        out.append(_Clause(tok, _subject_of(doc, owner), is_past))
                        continue
                if head.dep_ == "attr" and subject.text and subject.head is not None:
                    # "He was a player who played as a winger" -> "He played as a winger".
                    describes_subject = describes_subject or subject.head.dep_ != "expl"
                ante = subject if describes_subject else _antecedent(doc, head)
                out.append(_Clause(tok, ante, is_past))
            else:
                out.append(_Clause(tok, _subject_of(doc, rel_subj), is_past))
    return out


def _imperative_after_so(verb: Token) -> bool:
    """A bare verb with no auxiliary of its own that "so" or "then" opens after a comma: "…, so use a computer for
    this" ("and then compete in Bergen" shares its clause's subject and auxiliary)."""
    if verb.tag_ != "VB" or any(g.dep_ in ("aux", "auxpass", "neg") for g in verb.children):
        return False
    doc = verb.doc
    return any(
        g.dep_ == "advmod" and g.lower_ in ("so", "then") and g.i == verb.i - 1 and g.i > 0 and doc[g.i - 1].text == ","
        for g in verb.children
    )


def _series_verb(doc: Doc, tok: Token, head: Token) -> bool:
    """A finite verb after a comma that the parser attached to ``head`` by no relation ("dep"), with words of its
    own and no subject: the next verb of a series ("…, picked up the prize in 2012, had a solo show …")."""
    return (
        tok.dep_ == "dep"
        and tok.i > head.i
        and tok.pos_ in _VERBAL
        and (tok.tag_ in ("VBD", "VBZ") or tok.lower_ in _SIMPLE_PAST)
        and tok.i > 0
        and doc[tok.i - 1].text == ","
        and not any(g.dep_ in _SUBJ for g in tok.children)
        and any(g.dep_ in _CORE | _MODS for g in tok.children)
    )


def _verb_read_as_noun(tok: Token) -> bool:
    """A verb in -s that the parser took for a plural noun, conjoined to a verb: "…, and now commentates for
    Südkanal TV" (a noun there would have a determiner, a modifier or a number)."""
    if tok.pos_ != "NOUN" or tok.tag_ != "NNS" or tok.head.pos_ not in _VERBAL:
        return False
    if any(c.dep_ in ("det", "poss", "amod", "compound", "nummod", "case") for c in tok.children):
        return False
    return any(c.dep_ == "prep" for c in tok.children)


_REPORTING = frozenset("say tell write add explain note recall remember claim insist admit reply ask".split())


def _juxtaposed(tok: Token) -> bool:
    """A clause with its own subject set before another with a comma or semicolon ("There's no mobile app, so
    photos need …", "Tallyleaf is mobile-only; there's no web version"), which the parser hangs on the second
    as its complement: a statement of its own, not what the second says. Reported speech ("…, she said")
    stays a complement."""
    head = tok.head
    if tok.dep_ != "ccomp" or tok.i > head.i or nlp.lemma(head) in _REPORTING:
        return False
    if not any(g.dep_ in _SUBJ for g in tok.children) or any(g.dep_ == "mark" for g in tok.children):
        return False
    end = tok.right_edge.i
    return any(g.dep_ == "punct" and g.text in (",", ";") and end < g.i < head.i for g in head.children)


def _governing_predicate(tok: Token) -> Token:
    t = tok
    while t.dep_ not in ("ROOT", "conj", "advcl", "relcl", "parataxis", "acl", "pcomp") or t.pos_ not in _VERBAL:
        if t.head.i == t.i:
            return t
        if t.dep_ == "conj" and t.pos_ not in _VERBAL:
            t = t.head
            continue
        t = t.head
    return t


# Names of things "who" cannot refer to: the parser often hangs a relative clause on the last noun before it.
_NOT_WHO = frozenset({"ORG", "GPE", "FAC", "LOC", "WORK_OF_ART", "EVENT", "PRODUCT", "DATE"})


def _who_antecedent(head: Token) -> Token:
    """What "who" refers to: not the club or place the parser hung it on ("a midfielder for Kjellvik FK who
    won …" is the midfielder), but the noun that place or club depends on."""
    h = head
    while h.ent_type_ in _NOT_WHO and h.dep_ == "pobj" and h.head.dep_ == "prep":
        owner = h.head.head
        if owner.pos_ not in ("NOUN", "PROPN"):
            break
        h = owner
    return h


def _relatives_of(noun: Token) -> list[Token]:
    """The relative clauses whose "who"/"which"/"that" stands for ``noun``: those on the noun itself, and a "who"
    clause the parser hung on a place, club or work inside the noun's own phrase (see :func:`_who_antecedent`)."""
    out: list[Token] = []
    for t in noun.subtree:
        if t.dep_ != "relcl" or not _relative_subject(t):
            continue
        if t.head.i == noun.i:
            out.append(t)
        elif any(c.dep_ in _SUBJ and c.lower_ == "who" for c in t.children) and _who_antecedent(t.head).i == noun.i:
            out.append(t)
    return out


def _antecedent(doc: Doc, noun: Token) -> Subject:
    # A title keeps its "of" phrase ("The Conquest of the Incas"); a common noun is cut to its head phrase.
    # A person's name is cut at its preposition: "Anna Berg at the Riga Academy, who …" is Anna Berg.
    keep_prep = noun.pos_ == "PROPN" and noun.ent_type_ != "PERSON"
    pruned = {"relcl", "appos", "acl", "conj", "cc", "punct"} | (set() if keep_prep else {"prep"})
    ids = subtree_ids(noun, prune_deps=frozenset(pruned))
    ids -= paren_ids(doc)
    ids -= {c.i for c in noun.children if c.dep_ == "det" and c.lower_ in ("a", "an")}
    text = Phrase().add_tokens(doc, _strip_edge_punct(doc, ids)).render().rstrip(".")
    return Subject(text, set(), noun)


# --- facts of one clause -----------------------------------------------------------------------


def _title_word(tok: Token) -> bool:
    """A particle that is really the last word of a capitalised title ("Knives Out", "Get Out")."""
    if tok.dep_ not in ("prt", "advmod") or not tok.text[:1].isupper() or tok.i == 0:
        return False
    before = tok.doc[tok.i - 1]
    return before.text[:1].isupper() and before.dep_ == "pobj"


def _clause_facts(doc: Doc, clause: _Clause, prune: set[int], off: frozenset[str] = frozenset()) -> list[Phrase]:
    p = clause.head
    core = Phrase()
    if clause.copula_of is not None:
        return _copular_facts(doc, clause, prune, off)
    core.add_tokens(doc, [p.i])
    own_aux = [c for c in p.children if c.dep_ in _AUX and not _title_word(c)]
    core.add_tokens(doc, [c.i for c in own_aux])
    lead_verb = p
    while lead_verb.dep_ == "conj" and lead_verb.head.pos_ in _VERBAL and lead_verb.head.i < lead_verb.i:
        lead_verb = lead_verb.head
    perfect = [c for c in lead_verb.children if c.dep_ == "aux" and c.lower_ == "having" and c.i == lead_verb.i - 1]
    bare_participle = p.dep_ == "conj" and not own_aux and not clause.inherited_aux and not clause.participle
    if p.tag_ == "VBN" and ((perfect and lead_verb.dep_ in ("advcl", "conj")) or bare_participle):
        # "…, having won 61 fights, lost 9 and drawn 3" says that he won, lost and drew them; so does a participle
        # with no auxiliary to lean on ("lost 9 and drawn 3")
        if perfect and p is lead_verb:
            core.drop(perfect[0].i)
        core.insert(float(p.i), past(nlp.lemma(p) or p.lower_))
    left = min([p.i, *(c.i for c in p.children if c.dep_ in ("advmod", "neg") and c.i < p.i)])
    if clause.inherited_aux and not own_aux:
        core.insert(left - 0.3, clause.inherited_aux)
    if clause.participle and not any(c.dep_ in ("aux", "auxpass") for c in own_aux):
        if p.tag_ == "VBN":
            core.insert(left - 0.3, "was" if clause.past else "is")
        elif p.tag_ == "VBG":
            lemma = nlp.lemma(p) or p.lower_
            core.insert(float(p.i), past(lemma) if clause.past else present(lemma))
    comps: list[set[int]] = []
    mods: list[set[int]] = []
    titles: list[int] = []
    # A modifier the parser hung on the first verb but wrote after a coordinated verb and its object is the
    # later verb's: "was born in Strasbourg and opened her own studio, Brandt Atelier, there in 1995".
    later = [c.i for c in p.children if c.dep_ == "conj" and c.pos_ in _VERBAL and c.i > p.i]
    cut_at = later[0] if later else len(doc)
    adopted = [s for s in p.head.children if s.i > p.i and s.dep_ in _MODS] if p.dep_ == "conj" else []
    trailing = _trailing_dates(doc, p) if rule_on(TRAILING_PARTICIPLE_DATE) else []
    for c in [*p.children, *adopted, *trailing]:
        if c in trailing:
            mods.append(subtree_ids(c))
            continue
        if c.i in prune or (c.dep_ in _MODS and c.i > cut_at and c.head.i == p.i):
            continue
        if rule_on(INTERVAL_CLAUSE) and _interval_mark(c) is not None:
            continue  # "two years" of "two years before he left": read with the clause it measures to
        ids = subtree_ids(c, prune, _SPAWN) - prune
        if _title_word(c):
            titles.append(c.i)
        elif c.dep_ == "advmod":
            if c.lower_ not in _DISCOURSE and c.tag_ not in ("WRB",) and not _counts_a_point(doc, c):
                core.add_tokens(doc, ids)
        elif c.dep_ in _CORE:
            comps.append(ids)
        elif c.dep_ in _MODS:
            if (c.dep_ == "prep" and _is_discourse_prep(c)) or _is_relative_time(doc, c, ids):
                continue
            if c.dep_ == "prep" and any(g.dep_ == "pcomp" and g.tag_ == "VBG" for g in c.children):
                if c.lower_ in ("after", "before", "while", "since", "upon", "following"):
                    continue
            mods.append(ids)
        elif c.dep_ == "advcl" and any(g.dep_ == "aux" and g.lower_ == "to" for g in c.children):
            mods.append(ids)
        elif c.dep_ == "advcl" and rule_on(INTERVAL_CLAUSE):
            interval = next((g for g in (*p.children, *c.children) if _marks_clause(g, c)), None)
            if interval is not None:
                # "It opened two years before he left": the interval is counted to the clause's event, one date
                mods.append((subtree_ids(interval) | subtree_ids(c)) - prune)
    for t in titles:
        # "appeared in Knives Out": the capitalised "particle" ends the title the preposition names.
        for m in mods:
            if t - 1 in m:
                m.add(t)
    subj = clause.subject
    local_subject = any(c.dep_ in _SUBJ for c in p.children) and not _relative_subject(p)
    if local_subject and (subj.ids or not subj.text):
        core.add_tokens(doc, subj.ids)
    else:
        first = min([p.i, *[min(s) for s in comps + mods if s], *core.tokens])
        core.insert(first - 0.6, subj.text)
        core.tokens |= subj.ids
    _replace_relativizers(doc, p, core, comps, mods, clause)
    mods = _merge_ranges(doc, mods)
    mods = _title_tails(doc, comps, mods)
    comp_ids: set[int] = set().union(*comps) if comps else set()
    comp_variants = expand(doc, comp_ids) if comp_ids else [Phrase()]
    counted = _elided_count(doc, p, comps)
    if counted is not None:  # "won 61 fights, lost 9 and drew 3": "lost 9 fights", "drew 3 fights"
        comp_variants = [v.insert(counted[0] + 0.5, counted[1]) for v in comp_variants]
    bare = _bare_heads(doc, comps, prune)
    facts: list[Phrase] = []
    if nlp.lemma(p) == "be" and comps:
        nat, comp_variants = _split_nationality(doc, comps, comp_variants)
        _, bare = _split_nationality(doc, comps, bare)
        facts = [core.merge(n) for n in nat]
    base = [core.merge(v) for v in comp_variants] or [core]
    if comp_ids or not mods:
        facts += base
        facts += [core.merge(v) for v in bare]
    timed = _duration_with_setting(doc, base[0], mods) if not comp_ids and len(mods) > 1 else {}
    goal = _destination(doc, p, mods) if not comp_ids and not timed and rule_on(DESTINATION_FIRST) else None
    if goal is not None:
        # "came to London with her family in 1914": "came to London", "came to London in 1914", … ("came in 1914"
        # says nothing a page could hold)
        with_goal = [base[0].merge(mv) for mv in expand(doc, goal)]
        facts += with_goal
        for m in mods:
            if m is not goal:
                facts += [g.merge(mv) for g in with_goal[:1] for mv in expand(doc, m)]
        return facts
    occasions = _occasions(doc, base[0].tokens) if rule_on(LISTED_OCCASIONS) else []
    for m in mods:
        if id(m) in timed:
            facts += timed[id(m)]
            continue
        each = expand(doc, m)
        if occasions and len(each) > 1 and any(doc[i].like_num or doc[i].ent_type_ == "DATE" for i in m):
            # "named him … twice, in 2012 and 2019": each date is one of the occasions, not twice on its own
            single = base[0].copy()
            for k in occasions:
                single.drop(k)
            facts += [single.merge(mv) for mv in each]
            continue
        for mv in each:
            facts.append(base[0].merge(mv))
    return facts


def _interval_mark(tok: Token) -> Token | None:
    """The "before"/"after" that opens a clause right after ``tok``, a span of time ("two years before he left",
    "three years after she graduated"): the clause it counts from."""
    if tok.dep_ != "npadvmod" or nlp.lemma(tok) not in _TIME_UNITS:
        return None
    doc = tok.doc
    at = tok.right_edge.i + 1
    if at >= len(doc) or doc[at].lower_ not in ("before", "after") or doc[at].dep_ != "mark":
        return None
    verb = doc[at].head
    if verb.dep_ != "advcl" or verb not in (tok.head, *tok.head.children):
        return None
    return doc[at]


def _marks_clause(tok: Token, clause: Token) -> bool:
    """Whether ``tok`` is a span of time counted to ``clause`` (:func:`_interval_mark`)."""
    mark = _interval_mark(tok)
    return mark is not None and mark.head.i == clause.i


_TIME_UNITS = frozenset("year month week day decade century hour minute season".split())


def _trailing_dates(doc: Doc, p: Token) -> list[Token]:
    """ "in 1977" of "born in Dingle, County Kerry, in 1977" where the parser hung it on the noun or verb before
    the participle: a date after a comma that closes the participle's place and its region (an apposition)."""
    if p.tag_ != "VBN" or p.dep_ != "acl":
        return []
    places = [g for c in p.children if c.dep_ == "prep" for g in c.children if g.dep_ == "pobj" and g.pos_ == "PROPN"]
    if not any(a.dep_ == "appos" for g in places for a in g.children):
        return []
    j = p.right_edge.i + 1
    if j >= len(doc) or doc[j].text != ",":
        return []
    j += 1
    if j >= len(doc):
        return []
    prep = doc[j]
    if prep.dep_ != "prep" or prep.lower_ not in ("in", "on") or prep.head not in p.ancestors:
        return []
    dates = [g for g in prep.children if g.dep_ == "pobj" and (g.ent_type_ == "DATE" or re.fullmatch(r"\d{4}", g.text))]
    return [prep] if dates else []


_OCCASION_WORDS = frozenset({"twice", "thrice"})


def _occasions(doc: Doc, ids: Set[int]) -> list[int]:
    """The words of a count of occasions among a clause's words ``ids``: "twice", "three times"."""
    out: list[int] = []
    for i in sorted(ids):
        c = doc[i]
        if c.lower_ in _OCCASION_WORDS:
            out.append(c.i)
        elif c.lower_ == "times" and any(g.dep_ == "nummod" for g in c.children):
            out += [g.i for g in c.subtree if g.i in ids]
    return out


# Prepositions that say where a verb with no object goes: "came to London", "came into the world", "moved onto".
_TOWARDS = frozenset({"to", "into", "onto", "toward", "towards"})
# A place a verb puts someone that is no place: "was put in charge of the centre", "was placed in command of".
_PUT_IN = frozenset({("in", "charge"), ("in", "command")})
# Verbs whose "to" names no place gone to: "born to farmers", "belongs to", "contributed to", "listened to".
_NOT_GOING = frozenset(
    {"bear", "belong", "contribute", "listen", "respond", "react", "refer", "speak", "talk", "write", "marry", "wed"}
)


def _destination(doc: Doc, verb: Token, mods: list[set[int]]) -> set[int] | None:
    """The one modifier of a verb with no object that says where it went ("to London", "into the world"), when it
    has other modifiers to be read with it; None otherwise."""
    if len(mods) < 2 or nlp.lemma(verb) in _NOT_GOING or verb.pos_ != "VERB":
        return None
    goals = [
        m
        for m in mods
        if doc[min(m)].dep_ == "prep"
        and doc[min(m)].head.i == verb.i
        and any(
            c.dep_ == "pobj"
            and c.pos_ in ("NOUN", "PROPN")
            and (doc[min(m)].lower_ in _TOWARDS or (doc[min(m)].lower_, c.lower_) in _PUT_IN)
            for c in doc[min(m)].children
        )
    ]
    return goals[0] if len(goals) == 1 else None


def _elided_count(doc: Doc, p: Token, comps: list[set[int]]) -> tuple[int, str] | None:
    """Where a bare number object of ``p`` stands for the counted noun of an earlier verb it is coordinated with
    ("won 61 fights, lost 9 and drew 3": 9 and 3 count fights), and that noun; None otherwise (a year, a noun
    after the number, no such verb)."""
    if len(comps) != 1 or len(comps[0]) != 1:
        return None
    num = doc[next(iter(comps[0]))]
    if num.pos_ != "NUM" or num.dep_ != "dobj" or list(num.children) or _YEAR.fullmatch(num.text):
        return None
    noun = _counted_before(doc, p)
    return (num.i, noun) if noun is not None else None


def _counted_before(doc: Doc, verb: Token) -> str | None:
    """The noun an object counted just before ``verb`` counts, only a comma or a coordinator between: "fights" in
    "won 61 fights, lost 9" (and through "lost 9 and drawn 3")."""
    i = verb.i - 1
    while i >= 0 and (doc[i].is_punct or doc[i].dep_ == "cc"):
        i -= 1
    if i < 0 or i == verb.i - 1:
        return None
    t = doc[i]
    if t.pos_ == "NOUN" and t.dep_ == "dobj" and any(c.dep_ == "nummod" for c in t.children):
        return t.text
    if t.pos_ == "NUM" and t.dep_ == "dobj" and not list(t.children) and t.head.pos_ in _VERBAL:
        return _counted_before(doc, t.head)
    return None


_YEAR = re.compile(r"1[5-9]\d\d|20\d\d")


# The small words a title may hold between its capitalised ones ("Salt for the Drowned", "Murder on the Orient
# Express"). Not "in" or "with", which more often set a title in a place or beside a partner ("the Deccan Falcons
# in the Falcon Cup", "the Norwegian Cup with Kjellvik FK"): measured, they cost more than they gave.
_TITLE_LINKS = frozenset("for of on to and".split())
_NOT_TITLE = frozenset({"GPE", "LOC", "DATE", "TIME", "PERSON", "NORP", "CARDINAL"})


def _title_tails(doc: Doc, comps: list[set[int]], mods: list[set[int]]) -> list[set[int]]:
    """A preposition between two capitalised words continues the title before it: "known for Salt for the
    Drowned" is one work, not "known for Salt" and "known for the Drowned". Not a place, a date or a person
    ("moved from Kraków to Oslo"), and not after an abbreviation ("her PhD at the Pomeranian University")."""
    out: list[set[int]] = []
    for m in mods:
        first = doc[min(m)]
        obj = next((c for c in first.children if c.dep_ == "pobj"), None)
        before = doc[first.i - 1] if first.i > 0 else None
        joins = (
            first.dep_ == "prep"
            and first.lower_ in _TITLE_LINKS
            and obj is not None
            and obj.text[:1].isupper()
            and obj.ent_type_ not in _NOT_TITLE
            and before is not None
            and before.text[:1].isupper()
            and not re.match(r"[A-Z][a-z]?[A-Z]", before.text)  # "her PhD at …", "an MBA from …": no title
            and before.i > 0
        )
        host = next((s for s in [*comps, *out] if before is not None and before.i in s), None) if joins else None
        if host is None:
            out.append(m)
        else:
            host |= m
    return out


def _duration_with_setting(doc: Doc, base: Phrase, mods: list[set[int]]) -> dict[int, list[Phrase]]:
    """How long, said where: a verb with no object that tells a length of time beside where or as what
    ("For seven years she was based at a field station in Hajnówka") says the two together ("For seven years
    she was based at a field station in Hajnówka"), as a page dates that stay; the length alone ("For seven
    years she was based") says nothing a page could hold. Keyed by the duration modifier it replaces."""
    timed = [m for m in mods if durations(Phrase().add_tokens(doc, sorted(m)).render())]
    if len(timed) != 1:
        return {}
    others = [m for m in mods if m is not timed[0] and not any(doc[i].like_num for i in m)]
    if not others:
        return {}
    return {id(timed[0]): [base.merge(Phrase().add_tokens(doc, sorted(timed[0] | o))) for o in others]}


def _bare_heads(doc: Doc, comps: list[set[int]], prune: set[int]) -> list[Phrase]:
    """``is an actor best known for ...`` also yields ``is an actor`` (the complement without its modifiers)."""
    out: list[Phrase] = []
    for comp in comps:
        if len(comp) < 5:
            continue
        head = doc[min(comp, key=lambda i: _depth(doc[i]))]
        if head.pos_ != "NOUN":
            continue
        cut = {c.i for c in head.children if c.dep_ in ("prep", "acl", "relcl") or (c.dep_ == "amod" and c.n_rights)}
        if not cut:
            continue
        ids = subtree_ids(head, prune | cut, _SPAWN | {"conj", "cc", "appos"}) & comp
        ids = _strip_edge_punct(doc, ids)
        if ids and len(ids) < len(comp):
            out.append(Phrase().add_tokens(doc, sorted(ids)))
        # "a painter from Savannah, best known for …": the noun with its place, without what it is known for.
        clauses = {c.i for c in head.children if c.dep_ in ("acl", "relcl") or (c.dep_ == "amod" and c.n_rights)}
        if clauses and clauses != cut:
            kept = subtree_ids(head, prune | clauses, _SPAWN | {"conj", "cc", "appos"}) & comp
            kept = _strip_edge_punct(doc, kept)
            if kept and len(ids) < len(kept) < len(comp):
                out.append(Phrase().add_tokens(doc, sorted(kept)))
    return out


def _depth(tok: Token) -> int:
    depth = 0
    while tok.head.i != tok.i:
        tok = tok.head
        depth += 1
    return depth


def _relative_subject(p: Token) -> bool:
    return p.dep_ == "relcl" and any(c.dep_ in _SUBJ and c.tag_ in ("WDT", "WP") for c in p.children)


def _replace_relativizers(
    doc: Doc, p: Token, core: Phrase, comps: list[set[int]], mods: list[set[int]], clause: _Clause
) -> None:
    """In a relative clause, drop "who"/"where" and put the antecedent where "which"/"whom" stood."""
    if p.dep_ != "relcl":
        return
    for c in p.subtree:
        if c.tag_ in ("WDT", "WP", "WRB", "WP$") and _governing_predicate(c).i == p.i:
            for group in (*comps, *mods):
                group.discard(c.i)
            core.drop(c.i)
            if c.tag_ == "WRB" and c.lower_ == "where" and p.head.pos_ in ("NOUN", "PROPN"):
                # "the Vienna Conservatory, where he later taught" -> "he later taught at the Vienna Conservatory"
                place = p.head
                at = place.head.lower_ if place.dep_ == "pobj" and place.head.lower_ in ("at", "in", "on") else "in"
                core.insert(p.right_edge.i + 0.5, f"{at} {_antecedent(doc, place).text}")
                continue
            if c.dep_ in _SUBJ or c.tag_ == "WRB":
                continue
            ante = _antecedent(doc, p.head).text
            if c.tag_ == "WP$":
                core.insert(float(c.i), ante + "'s")
            elif c.dep_ == "dobj":
                # "the book which he wrote" -> "he wrote the book": the object goes after the verb.
                core.insert(p.i + 0.5, ante)
            elif c.dep_ == "pobj" and c.head.i < p.i:
                # "the show for which she won an award" -> "she won an award for the show".
                prep = c.head
                for group in (*comps, *mods):
                    group.discard(prep.i)
                core.drop(prep.i)
                core.insert(p.right_edge.i + 0.5, f"{prep.text} {ante}")
            else:
                core.insert(float(c.i), ante)


def _copular_facts(doc: Doc, clause: _Clause, prune: set[int], off: frozenset[str] = frozenset()) -> list[Phrase]:
    ap = clause.head
    ids = (subtree_ids(ap, prune, _SPAWN | {"appos"}) | _role_name(ap, off)) - prune
    ids = _strip_edge_punct(doc, ids)
    if not ids:
        return []
    if ap.pos_ == "PROPN":
        # "his wife, the soprano Kari Bråthen": the parser hangs "Kari" on "soprano", "Bråthen" on "wife";
        # the name is the proper nouns written together.
        j = min(ids) - 1
        while j >= 0 and doc[j].pos_ == "PROPN" and j not in prune and not doc[j].is_punct:
            ids.add(j)
            j -= 1
    core = Phrase()
    core.insert(min(ids) - 0.9, clause.subject.text)
    core.tokens |= clause.subject.ids
    core.insert(min(ids) - 0.5, "was" if clause.past else "is")
    variants = expand(doc, ids)
    nat, variants = _split_nationality(doc, [ids], variants)
    return [core.merge(v) for v in nat + variants]


def _split_nationality(doc: Doc, comps: list[set[int]], variants: list[Phrase]) -> tuple[list[Phrase], list[Phrase]]:
    """``is an American swimmer`` -> ``is American`` and ``is a swimmer`` (as FActScore's annotators do)."""
    heads = [doc[i] for comp in comps for i in comp if doc[i].head.i not in comp or doc[i].head.i == i]
    nat_ids: set[int] = set()
    for h in heads:
        for c in h.children:
            if c.dep_ == "amod" and c.ent_type_ == "NORP" and not any(True for _ in c.children):
                nat_ids.add(c.i)
        for conj in h.conjuncts:
            for c in conj.children:
                if c.dep_ == "amod" and c.ent_type_ == "NORP" and not any(True for _ in c.children):
                    nat_ids.add(c.i)
    if not nat_ids:
        return [], variants
    nat = [Phrase().add_tokens(doc, sorted(nat_ids))]
    stripped: list[Phrase] = []
    for v in variants:
        w = v.copy()
        for i in nat_ids:
            w.drop(i)
        if any(doc[int(k)].pos_ in ("NOUN", "PROPN") for k in w.pieces if k == int(k)):
            stripped.append(w)
    return nat, stripped


def _counts_a_point(doc: Doc, tok: Token) -> bool:
    """ "First, she was born …", "Third, she won …": an ordinal that opens the sentence counts the answer's points,
    and is no part of what it claims ("He first won it in 1990" keeps its "first")."""
    return tok.i == 0 and len(doc) > 1 and doc[1].text == "," and tok.lower_ in _POINT_ORDINALS


_POINT_ORDINALS = frozenset("first firstly second secondly third thirdly fourth fifth next lastly finally".split())


def _is_discourse_prep(prep: Token) -> bool:
    if prep.lower_ in ("according",) or (prep.lower_ == "to" and prep.head.lower_ == "according"):
        return True
    pobj = next((c for c in prep.children if c.dep_ == "pobj"), None)
    return pobj is not None and pobj.lower_ in _DISCOURSE_POBJ and prep.lower_ == "in"


def _is_relative_time(doc: Doc, mod: Token, ids: set[int]) -> bool:
    """ "before that", "after this", "these days", "at the time", "since then": a modifier whose words,
    its preposition aside, only point at a time the text gave elsewhere."""
    words = [doc[i].lower_ for i in ids if (i != mod.i or mod.dep_ != "prep") and not doc[i].is_punct]
    return bool(words) and all(w in _RELATIVE_TIME_WORDS for w in words) and words != ["the"]


def _merge_ranges(doc: Doc, mods: list[set[int]]) -> list[set[int]]:
    """Keep "from 1972" and "to 1976" together as one modifier."""
    mods = sorted((m for m in mods if m), key=min)
    out: list[set[int]] = []
    for m in mods:
        if (
            out
            and doc[min(m)].lower_ in _RANGE_END
            and doc[min(out[-1])].lower_ in _RANGE_START
            and any(doc[i].like_num or doc[i].ent_type_ == "DATE" for i in m)
        ):
            out[-1] = out[-1] | m
        else:
            out.append(set(m))
    return out


@dataclass(frozen=True)
class Spans:
    """Where a sentence spells out a number with "and" in it, each made one token (``spelled-number-tokens``)."""

    spans: tuple[tuple[int, int], ...]
    decided_by: str = ""

    def stamped(self, name: str) -> Spans:
        return replace(self, decided_by=name)


def _spelled_numbers(text: str) -> Spans | None:
    found = nlp.spelled_number_spans(text)
    return Spans(tuple(found)) if found else None


# Readings of the parse, in the order they come into play: before the parser (spelled-number-tokens, applied by
# ``scoring.nlp.parse``, which leaves its pipeline component out when the rule is off), then asked where a clause's
# subject and a copula's words are read (role-name) and once a sentence's clauses are read (named-relation).
SPELLED_NUMBER_TOKENS = nlp.SPELLED_NUMBER_TOKENS
PARSE_READINGS: tuple[Rule[Any, Any], ...] = register(
    Rule(
        SPELLED_NUMBER_TOKENS,
        "decompose",
        "a number spelled out with 'and' in it ('one hundred and twelve', 'two thousand and six') is one token, "
        "tagged a number, before the tagger and parser read the sentence: its 'and' coordinates nothing",
        ("one hundred and twelve species", "in two thousand and six", "nineteen hundred and sixty-one"),
        _spelled_numbers,
    ),
    Rule(
        "role-name",
        "decompose",
        "a person's name written right after a role noun and hung on it ('the instrument maker Krzysztof Bąk') "
        "stays with the role ('Her husband was the instrument maker Krzysztof Bąk'), and the clause stays the "
        "relation noun's ('Her husband built …')",
        (
            "Her husband, the instrument maker Krzysztof Bąk, built …",
            "Her mother, the textile artist Halina Nowak, wove …",
            "Her uncle, the organ builder Piotr Kowal, restored …",
        ),
        _role_names,
    ),
    Rule(
        "named-relation",
        "decompose",
        "a relative named where the sentence does not make them its subject ('…, with her husband Mateusz Olech on "
        "drums') is said to be that relative too: 'Her husband is Mateusz Olech'",
        (
            "with her husband Mateusz Olech on drums",
            "toured Japan with her brother Tomasz Wrona",
            "opened the restaurant with his wife Inès Garat",
        ),
        _relations_named,
    ),
)
ROLE_NAME: Rule[Token, Named] = PARSE_READINGS[1]
NAMED_RELATION: Rule[Doc, Relations] = PARSE_READINGS[2]

# Readings of a whole sentence whose parse lost a clause, in their precedence: the first that reads the sentence
# gives its facts in place of the parse of the whole.
PART_READINGS: tuple[Rule[Whole, Parts], ...] = register(
    Rule(
        "semicolon-clauses",
        "decompose",
        "clauses joined by semicolons are parsed one by one where the whole sentence's parse lost one (a clause "
        "with no word in any fact, or a fact made of words of two: '…; tickets auto-close after 7 days')",
        (
            "Support is open on weekdays; tickets close after 7 days.",
            "Chats stay open for a week; chats auto-archive after 90 days.",
            "Invoices are emailed monthly; unpaid invoices auto-cancel after 30 days.",
        ),
        _semicolon_reading,
    ),
    Rule(
        "comma-splice",
        "decompose",
        "clauses each with a subject of their own joined by a bare comma ('her first title came in 2015, she was "
        "fourteenth at the Olympics in 2016, in 2017 she won the Tour'), which the parser chained as complements of "
        "the last verb and the whole parse glued into one fact or lost, are parsed one by one; a clause a reporting "
        "verb takes ('She was the best, he said') and a clause with no subject are left to the whole parse",
        (
            "Her first title came in 2015, she was fourteenth at the Olympics in 2016, in 2017 she won the Tour.",
            "He joined Leeds in 1990, he left in 1994.",
            "The band formed in 2001, it split up in 2009.",
        ),
        _comma_splice_reading,
    ),
    Rule(
        "colon-splice",
        "decompose",
        "a clause with a subject of its own before a colon or a single dash, which the parser made a complement of "
        "the verb after it ('the workshop outlived his career: it passed to his daughter in 1948') and the whole "
        "parse glued into that verb's facts, is parsed apart from the clause after the mark",
        (
            "Notably, the workshop outlived his active career: it passed in 1948 to his daughter.",
            "Both women have stepped back from front-line work: the pianist stopped touring in 2018.",
            "The band outlived its founder — it toured until 2015.",
        ),
        _colon_splice_reading,
    ),
    Rule(
        "verbless-tail",
        "decompose",
        "words with no verb after one colon or dash, which the parser hung on the verb before the mark ('He hung up "
        "the gloves in 1941 — sixty-one wins, nine losses', 'She won the title in 2001: her first') and the whole "
        "parse glued into its facts, are no object of that verb: the clause is read alone and the sentence kept "
        "whole",
        (
            "He hung up the gloves in 1941 — sixty-one wins, nine losses, three draws.",
            "She won the title in 2001: her first.",
            "He joined Leeds in 1990 — a club record fee.",
        ),
        _verbless_tail_reading,
    ),
    Rule(
        "dash-aside",
        "decompose",
        "a clause with a subject and verb of its own between two dashes, where the parse of the whole lost the "
        "words after it or glued it to the sentence, is read apart: the sentence without the aside, and the aside",
        (
            "The thirty-something from Łódź — she was born in 1989 — first made her name with …",
            "The bridge — it spans the Po — was completed in 1968.",
            "The painter — she studied in Paris — won the Arlen Prize in 2004.",
        ),
        _dash_aside_reading,
    ),
    Rule(
        "gapped-object",
        "decompose",
        "a second object of a verb with a modifier of its own, the verb left out ('won the Carrow Award in 2013 and "
        "the Lindqvist Prize in 2016'), which the parse hung on the verb and no fact kept, is read with the verb "
        "said again ('… and won the Lindqvist Prize in 2016')",
        (
            "She won the Carrow Award in 2013 and the Lindqvist Prize in 2016.",
            "He received the Hale Medal in 1999 and the Orton Prize in 2004.",
            "It won the Gilded Quill Award in 2006 and the Dagger of the North in 2007.",
        ),
        _gapped_object_reading,
    ),
)
_READING_NAMES = frozenset(r.name for r in (*PARSE_READINGS, *PART_READINGS, *CONTENT_RULES))
