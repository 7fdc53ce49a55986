"""The offline engine's steps: spaCy and named rules decompose, the stance model verifies, rules revise.

Each function satisfies one step protocol of :mod:`scoring.checker`; ``scoring.engines`` composes them.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import lru_cache

from schemas.check import CheckResult, Revision
from schemas.enums import Worthiness
from schemas.knowledge import EntityRef
from scoring import nlp
from scoring.answer_dates import ANSWER_RELATIVE_YEARS, SHORT_YEARS, answer_years_read, short_years_read
from scoring.checker import Run
from scoring.checkworthy import gate as worthiness_gate
from scoring.config import CheckConfig
from scoring.corrections import corrected, uninverted
from scoring.decompose import AtomicFact, decompose_doc
from scoring.decontext import decontextualize
from scoring.grouping import PerceivedGroup, group_sentences
from scoring.hedges import strip_hedges
from scoring.linking import name_match
from scoring.plan import PlannedFact, PlannedGroup, by_sentence
from scoring.records import (
    Reading,
    answer_pronoun,
    answered,
    asked,
    completed_by_lead_in,
    named_thing,
    prose,
    thing_item,
    thing_name,
    thing_prose,
)
from scoring.revise import RevisionInput, revise
from scoring.rules import rule
from scoring.segment.namesakes import NAMESAKE, namesake_tag
from scoring.sentences import Sentence
from scoring.transcripts import unlabelled
from scoring.worthiness import TALK_CLAUSE, classify_by_rule

_IDX_LENGTH: list[int | str] = ["IDX", "LENGTH"]

ENTAILED_BY_LONGER = rule(
    "entailed-by-longer",
    "verify",
    "a fact made of a subset of a longer fact's words is supported wherever the longer one is",
)


THING_RECORDS = rule(
    "thing-records",
    "decompose",
    "a label line of an answer about a product or an organisation ('Security: AES-256 encryption') is read with the "
    "thing's name ('Tallyleaf's security is AES-256 encryption'); a date label dates it ('Released: 2019'), an amount "
    "under a plural label is how many it had ('Users: 1.2 million')",
)
QUESTION_ANSWERED = rule(
    "question-answered",
    "decompose",
    "a transcript's short answer is read with the question it answers ('Q: Where was he born?' then 'A: Osaka, in "
    "1974.' → 'He was born in Osaka, in 1974.'; 'What company did he start?' then 'A: Gripwell Robotics, co-founded "
    "in Sydney in 2006.' → 'He started Gripwell Robotics, …')",
)
THING_ITEMS = rule(
    "thing-items",
    "decompose",
    "the items after a line that only names a thing ('Corvane Nimbus AX3200 (2021): dual-band Wi-Fi 6 · 4 external "
    "antennas · launched at $149') are read with its name: a noun phrase as what it has ('… has 4 external "
    "antennas'), a participle as what was done to it ('… was launched at $149')",
)
LEAD_IN_ITEMS = rule(
    "lead-in-items",
    "decompose",
    "a noun-phrase list item after a line that introduces the list ('… adds the following on top of the free "
    "tier:', 'Its features include:') is read as that line's object ('… adds CSV export of your transactions on "
    "top of the free tier'); a verb-phrase item after a line that says what one can do ('With the app you can:' "
    "then '- set up a guest network') completes it",
)
HOW_TO_STEPS = rule(
    "how-to-steps",
    "worthiness",
    "the list items of an answer to a how-to question ('How do I factory reset my Nimbus AX3200?') are claims "
    "about the thing, imperatives included ('Find the reset button on the back of the unit')",
)
# A question that asks for a procedure.
_HOW_TO = re.compile(r"^(?:how (?:do|can|should|would) (?:i|you|we|one)|how to)\b", re.IGNORECASE)
BARE_ANSWER = rule(
    "bare-answer",
    "decompose",
    "an answer's first sentence with no verb of its own is read with the question the checker was given: 'Does "
    "Tallyleaf support two-factor authentication?' then 'Yes, since 2019.' → 'Tallyleaf supports two-factor "
    "authentication, since 2019.'; 'No.' → '… does not support …'; 'How many users can share one Family plan?' then "
    "'Sixteen.' → 'Sixteen users can share one Family plan.'; a wh-question as a transcript's (question-answered)",
)
HEDGED_CLAIMS = rule(
    "hedged-claims",
    "decompose",
    "hedges around a claim (I believe, if I recall correctly, as far as I know, …) come off before it is "
    "decomposed: the claim is checked and reported as hedged",
)


CLAIMS_ORDER = rule(
    "claims-order",
    "group",
    "the individuals come in the order their claims do, not their names: an answer that offers both namesakes first "
    "('Did you mean Ada Brook the cellist, or Ada Brook the ecologist? I'll cover both.') describes first the one "
    "whose facts come first",
)


# The kinds of scope of a table's row and column (``scoring.segment.tables``).
_PERSON_TABLES = frozenset(("row", "col"))


def decompose(run: Run) -> list[PlannedGroup]:
    """Perceived individuals by sentence, atomic facts by dependency parse, each made standalone and
    classified by the check-worthiness rules."""
    sentences = run.sentences
    readings, unhedged = _readings(sentences, run.config, run.question)
    texts = [text for text, _, _ in unhedged]
    run.readings = texts
    docs = nlp.parse(texts, run.config.rules_off)
    individuals = group_sentences(
        texts,
        run.subject,
        docs=docs,
        # a fenced profile's field is about the profile's person: one that names them opens no new one
        list_items=[s.list_item and not s.record for s in sentences],
        rules_off=run.config.rules_off,
        scopes=[s.scope for s in sentences],
        labels=[s.label for s in sentences],
        sections=[s.label and s.section for s in sentences],
        written=[s.text for s in sentences],
    )
    atoms = [decompose_doc(doc, i, run.config.rules_off) for i, doc in enumerate(docs)]
    # What each sentence says for the worthiness rules: without its hedges ("If I recall correctly, …" is no
    # assistant talk once "If I recall correctly" is off).
    said = [text if hedged else s.text for s, (text, _, hedged) in zip(sentences, unhedged, strict=True)]
    how_to = (
        HOW_TO_STEPS not in run.config.rules_off
        and bool(run.question and _HOW_TO.match(run.question.strip()))
        and not (docs and docs[0].ents and docs[0].ents[0].label_ == "PERSON")
    )
    steps = [s.list_item and how_to for s in sentences]
    groups = _plan_groups(individuals, atoms, said, run.config.rules_off, steps)
    bounds = [doc.to_array(_IDX_LENGTH).tolist() for doc in docs]  # (offset, length) of each token
    for g in groups:
        for fact in g.facts:
            i = fact.atom.sentence_index
            tokens, (_, kept, hedged) = bounds[i], unhedged[i]
            ranges = [(start, start + length) for start, length in (tokens[t] for t in sorted(fact.atom.tokens))]
            if hedged:  # back to the sentence as written, around the hedges taken off
                ranges = [(kept[a], kept[b - 1] + 1) for a, b in ranges if 0 <= a < b <= len(kept)]
            reading = readings[i]
            if reading.rewritten:  # back to the line as written, around the words the record reading added
                offsets = reading.offsets
                ranges = [(offsets[a], offsets[b - 1] + 1) for a, b in ranges if 0 <= a < b <= len(offsets)]
            fact.ranges = tuple(ranges)
            fact.hedged = hedged
    return groups


def parse_ahead(answers: Sequence[Sequence[Sentence]], config: CheckConfig) -> None:
    """Parse in one spaCy batch the sentences :func:`decompose` will parse (of several answers): the
    parse cache then serves each answer's check, and one batch of a few hundred sentences costs less
    than a batch per answer."""
    nlp.parse([s.text for sentences in answers for s in sentences])  # what reading the records parses
    nlp.parse([text for sentences in answers for text, _, _ in _readings(sentences, config)[1]], config.rules_off)


def _readings(
    sentences: Sequence[Sentence], config: CheckConfig, question: str | None = None
) -> tuple[list[Reading], list[tuple[str, list[int], bool]]]:
    """The sentences of one answer as decomposition reads them: records as prose (:func:`prose`, with the
    answer's pronoun), then without their hedges (:func:`strip_hedges`).

    Read once per answer: :func:`parse_ahead` reads a worker's batch ahead and :func:`decompose` then
    finds each answer's readings here (callers only read them)."""
    return _read(tuple(sentences), config.rules_off, question)


@lru_cache(maxsize=512)
def _read(
    sentences: tuple[Sentence, ...], rules_off: frozenset[str], question: str | None = None
) -> tuple[list[Reading], list[tuple[str, list[int], bool]]]:
    pronoun = answer_pronoun([s.text for s in sentences])
    if pronoun is None and any(s.scope is not None and s.scope.kind in _PERSON_TABLES for s in sentences):
        pronoun = "they"  # a table's row or column presents a person: its items are about them
    nlp.parse([s.text for s in sentences])  # in one batch: reading a record parses the sentence as written
    # Records as prose: a date list's item ("1946 – joins the X Orchestra") with its date first (dated-lines).
    readings = [prose(s.text, pronoun, s.list_item, rules_off, s.record) for s in sentences]
    thing = thing_name([s.text for s in sentences]) if pronoun is None and THING_RECORDS not in rules_off else None
    if thing is not None:
        readings = [thing_prose(s.text, thing) for s in sentences]
    elif pronoun is None and THING_ITEMS not in rules_off and len(sentences) > 2:
        # "Corvane Nimbus AX3200 (2021): dual-band Wi-Fi 6 · 4 external antennas · launched at $149": a line that
        # names a thing, then items about it.
        named = named_thing(sentences[0].text)
        if named is not None and all(s.list_item for s in sentences[1:]):
            readings[1:] = [
                thing_item(s.text, named) if not r.rewritten else r
                for s, r in zip(sentences[1:], readings[1:], strict=True)
            ]
    readings = [_untagged(s, r) for s, r in zip(sentences, readings, strict=True)]
    if LEAD_IN_ITEMS not in rules_off:
        lead: str | None = None
        for i, s in enumerate(sentences):
            if not s.list_item:
                lead = s.text if s.text.rstrip().endswith(":") else None
            elif lead is not None and not readings[i].rewritten:
                readings[i] = completed_by_lead_in(lead, s.text) or readings[i]
    if QUESTION_ANSWERED not in rules_off and pronoun is not None:
        for i in range(1, len(sentences)):
            found = answered(sentences[i - 1].text, sentences[i].text, pronoun)
            readings[i] = found or readings[i]
    if question and sentences and BARE_ANSWER not in rules_off and not readings[0].rewritten:
        # "Sixteen.", "Yes, since 2019.": a help desk's bare answer says what the question asked
        readings[0] = asked(question, sentences[0].text) or readings[0]
    readings = [unlabelled(r, rules_off) for r in readings]  # "A: It launched in 2019." claims what follows "A:"
    readings = [corrected(r, rules_off) for r in readings]  # "not in Oslo but in Bergen" claims Bergen
    readings = [uninverted(r, rules_off) for r in readings]  # "Nor did she ever drive": "She did not ever drive"
    if SHORT_YEARS not in rules_off:  # "went pro in '28" beside "born in 1909": 1928
        readings = short_years_read([r.text for r in readings], readings)
    if ANSWER_RELATIVE_YEARS not in rules_off:  # "in 1972. Twenty-two years later she …" says 1994
        readings = answer_years_read([r.text for r in readings], readings, rules_off)
    hedges = HEDGED_CLAIMS not in rules_off
    unhedged = [strip_hedges(r.text, rules_off) if hedges else (r.text, [], False) for r in readings]
    return readings, unhedged


def _untagged(sentence: Sentence, reading: Reading) -> Reading:
    """A namesake's part read without the tag a description follows ("Ada Brook the cellist, a Polish cellist who
    …," as "Ada Brook, a Polish cellist who ….": the parser takes a name before "the cellist" for a verb), its
    closing comma a full stop; any other sentence as it was read."""
    if sentence.scope is None or sentence.scope.kind != NAMESAKE or reading.rewritten:
        return reading
    tag = namesake_tag(sentence.text)
    if tag is None:
        return reading
    text = sentence.text
    end = len(text.rstrip(" ,;"))
    kept = [*range(tag[0]), *range(tag[1], end)]
    return Reading("".join(text[i] for i in kept) + ".", [*kept, max(end - 1, 0)], True)


def verify(run: Run, groups: list[PlannedGroup], candidates: list[EntityRef]) -> None:
    """The stance model's verdict of every check-worthy fact against every candidate's passages."""
    run.evidence.prefetch((fact.text, ref.title) for g in groups for fact in g.factual for ref in candidates)
    for g in groups:
        for fact in g.factual:
            for ref in candidates:
                fact.verdicts[ref.title] = run.evidence.against(fact.text, ref.title, g.individual.name)
        if run.config.on(ENTAILED_BY_LONGER):
            _entailed_support(g.factual)


def revise_by_rules(
    run: Run, groups: list[PlannedGroup], result: CheckResult, candidates: list[EntityRef]
) -> Revision | None:
    """Edits by rule: wrong values replaced from the linked page, unsupported facts cut, merged people separated."""
    return revise(
        RevisionInput(
            sentences=run.readings or [s.text for s in run.sentences],
            written=[s.text for s in run.sentences],
            groups=[(g, r.entity or _by_name(g, candidates)) for g, r in zip(groups, result.groups, strict=True)],
            conflated={i for i, r in enumerate(result.groups) if r.conflated},
            entities={c.title: c for c in candidates},
            mode=run.config.revise_mode,
            paragraphs=[s.paragraph for s in run.sentences],
            confirm=lambda fact, entity: run.evidence.against(fact, entity, run.subject).supported,
            rules_off=run.config.rules_off,
            answer=run.text,
            maps=run.char_maps,
            headings=frozenset(i for i, s in enumerate(run.sentences) if s.label and s.section),
        )
    )


def _by_name(group: PlannedGroup, candidates: list[EntityRef]) -> str | None:
    """The page a group's name points to: what revision corrects an unlinked group's facts against. Namesakes'
    pages the name points to alike are told apart by what the group says its person is ("Theodore Vance, the
    boxer" → "Theodore Vance (boxer)"); where nothing tells them apart the name points to none (the first page
    found was taken, and a boxer's birthplace corrected from the politician's page by the order of the search)."""
    scored = [(name_match(group.individual.label, c), c) for c in candidates]
    best = max((s for s, _ in scored), default=0)
    if best <= 0:
        return None
    tied = [c for s, c in scored if s == best]
    if len(tied) == 1:
        return tied[0].title
    said = {w.lower() for f in group.facts for w in re.findall(r"[^\W\d_]+", f.text)}
    described = [c for c in tied if c.disambiguator and _describes(c.disambiguator, said)]
    return described[0].title if len(described) == 1 else None


def _describes(disambiguator: str, said: set[str]) -> bool:
    """Whether the words ``said`` of a group hold every word of a page's disambiguator ("boxer", "American
    football")."""
    words = [w.lower() for w in re.findall(r"[^\W\d_]+", disambiguator) if len(w) > 2]
    return bool(words) and all(w in said for w in words)


def _entailed_support(facts: list[PlannedFact]) -> None:
    """A fact built from a subset of another fact's words is entailed by it ("won a medal" by "won a
    medal in 1956"): wherever the longer fact is supported, so is the shorter one. Only facts of one
    sentence are compared."""
    siblings = by_sentence(facts)
    for short in facts:
        for long in siblings[short.atom.sentence_index]:
            if long is short:
                continue
            if not short.atom.tokens < long.atom.tokens:
                continue
            for title, verdict in long.verdicts.items():
                if verdict.supported and not short.verdicts[title].supported:
                    short.verdicts[title] = replace(verdict, decided_by=ENTAILED_BY_LONGER)


def _plan_groups(
    individuals: list[PerceivedGroup],
    atoms: list[list[AtomicFact]],
    sentences: list[str],
    rules_off: frozenset[str] | None = None,
    steps: Sequence[bool] = (),
) -> list[PlannedGroup]:
    """``steps``: the sentences that are steps of a how-to answer, whose imperatives are claims."""
    planned: list[PlannedGroup] = []
    # The answer presents several people (a preamble on them all is none of them): "The one …" points at one.
    namesakes = sum(1 for ind in individuals if not ind.lead) > 1
    for ind in individuals:
        facts: list[PlannedFact] = []
        context = tuple(sentences[i] for i in ind.sentences)
        for i in ind.sentences:
            for atom in atoms[i]:
                text = decontextualize(
                    atom.text, atom.subject, ind.name, ind.role, rules_off or frozenset(), context, namesakes
                )
                # What the fact says of its own: its words without the name of whom it is about.
                bare = _without_name(atom.text, ind.name)
                step = i < len(steps) and steps[i]
                worthiness, by = classify_by_rule(
                    text, sentences[i], rules_off, bare=bare, subjectless=not atom.subject.strip() and not step
                )
                if not step:  # a how-to step is a claim about the thing, imperative or not
                    worthiness, by = worthiness_gate(worthiness, by, text, bare, rules_off)
                facts.append(PlannedFact(atom, text, worthiness, worthiness_rule=by))
            _talk_clauses([f for f in facts if f.atom.sentence_index == i], sentences[i], ind.name, rules_off)
        planned.append(PlannedGroup(ind, facts))
    kept = [g for g in planned if g.factual]
    if not kept:
        return planned[:1] if planned else []
    # Sentences that carry no factual claim ("X may refer to:") join the nearest kept group.
    nearest = _nearest([k.individual.sentences[0] for k in kept])
    for g in planned:
        if g.factual:
            continue
        kept[nearest(g.individual.sentences[0])].facts.extend(g.facts)
    for g in kept:
        g.facts.sort(key=lambda f: f.atom.sentence_index)
    if CLAIMS_ORDER not in (rules_off or ()):
        # The individual described first comes first: a question offering both namesakes ("Did you mean Ada Brook
        # the cellist, or Ada Brook the ecologist?") names the second before either is described.
        kept.sort(key=lambda g: min(f.atom.sentence_index for f in g.factual))
    return kept


def _talk_clauses(facts: list[PlannedFact], sentence: str, name: str, rules_off: frozenset[str] | None) -> None:
    """The facts of one sentence once more, where another of its facts is talk: a clause of a sentence of talk
    that names no one and nothing ("Stepping back for a second, it's striking how …") is talk too (``talk-clause``,
    the last worthiness rule, which only this second reading can fire)."""
    talk = (Worthiness.NOT_A_CLAIM, Worthiness.OPINION)
    if not any(f.worthiness in talk for f in facts):
        return
    for f in facts:
        if f.worthiness is not Worthiness.FACTUAL:
            continue
        worthiness, by = classify_by_rule(
            f.text, sentence, rules_off, bare=_without_name(f.atom.text, name), talk_beside=True
        )
        if by == TALK_CLAUSE:
            f.worthiness, f.worthiness_rule = worthiness, by


def _nearest(positions: list[int]) -> Callable[[int], int]:
    """``nearest(x)``: the index in ``positions`` of the one closest to ``x``, the first in the list of two
    as close (as ``min`` over the list would choose), found by bisection: as cheap for hundreds of groups
    as for two."""
    order = sorted(range(len(positions)), key=lambda k: (positions[k], k))
    ordered = [positions[k] for k in order]

    def nearest(x: int) -> int:
        at = bisect.bisect_left(ordered, x)
        best: tuple[int, int] | None = None
        # The closest lie on either side of x; of equal positions the first in the list comes first.
        for j in (at - 1, at):
            if not 0 <= j < len(ordered):
                continue
            first = bisect.bisect_left(ordered, ordered[j])
            candidate = (abs(ordered[j] - x), order[first])
            best = candidate if best is None or candidate < best else best
        if best is None:
            raise ValueError("nearest() of no positions")
        return best[1]

    return nearest


def _without_name(text: str, name: str) -> str:
    """``text`` without the name it is about ("Writing about Edda Marlowe would …" → "Writing about  would …")."""
    return text.replace(name, "") if name.strip() else text
