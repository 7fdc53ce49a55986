"""Revision (Factcheck-Bench steps 7–8): edit the unsupported claims, keep everything else as written.

For every sentence, each check-worthy fact is

- *kept* when the group's linked entity supports it;
- *replaced* when the linked entity's evidence holds a different value of the same kind (a year,
  a number, a date, a place, a name) in a matching context: the value is swapped in the sentence,
  but only if the stance model confirms the edited fact against that entity;
- *separated* (or dropped, ``mode="drop"``) when another entity supports it: the answer merged two
  individuals, so the other person's facts leave the paragraph and, in ``separate`` mode, come
  back after it under that person's disambiguated name ("Dick Hanley (American football) ...");
- *deleted* otherwise.

Deleting a fact removes the words only it uses (each fact keeps the token ids it was built from),
so "He was born in 1936 and won a gold medal in 1956." loses "and won a gold medal in 1956" when
only that part is wrong. A revision never adds a fact that was not supported.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from schemas.check import Edit, Revision
from schemas.enums import Worthiness
from schemas.knowledge import EntityRef
from scoring import nlp, roles
from scoring.answer_dates import answer_years_read, short_years_read
from scoring.crossed import corrections
from scoring.decontext import decontextualize
from scoring.durations import durations
from scoring.grouping import name_parts
from scoring.hedges import strip_hedges
from scoring.plan import PlannedFact, PlannedGroup
from scoring.revise_layout import LAYOUT_IN_PLACE, in_place
from scoring.revise_leftovers import (
    APPOSITIONS_GO,
    ASIDES_GO,
    TALK_LEFT_GOES,
    appositions_go,
    asides_go,
    sentence_lines,
    talk_left_goes,
)
from scoring.rules import rule
from scoring.score import SUPPORTED_BETTER_ELSEWHERE
from scoring.verify import CONTRADICTED_VALUE, CROSSED_VALUE, EntityVerdict, base_name
from scoring.worthiness import ASSISTANT_ASIDE, CHATTER
from vocabulary import MONTHS, fold_ascii

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

# Ordinals are left alone: "The first Joseph F. Smith" counts people, it does not state a fact.
_VALUE_LABELS = ("DATE", "CARDINAL", "GPE", "LOC", "PERSON", "ORG", "QUANTITY", "MONEY", "NORP", "FAC")


DROP_CHATTER = rule(
    "drop-chatter",
    "revise",
    "the revision deletes assistant chatter and asides (I hope this helps, I may be misremembering): not the answer",
)
RESTATE_STRANDED = rule(
    "restate-stranded",
    "revise",
    'a sentence whose main verb went with an unsupported claim, leaving kept words without it ("Born in Lerwick, he '
    '[fished for a living] before joining the service in 1925"), is written as its kept facts, one sentence each',
)
PLAIN_SEPARATION = rule(
    "plain-separation",
    "revise",
    "the facts of a merged-in namesake are moved out in plain prose, not under the store's title: 'Another Dick "
    "Hanley, a swimmer, was born in 1936. The swimmer won …' (not 'Dick Hanley (swimmer) was born in 1936'), and "
    "the main individual keeps the name the answer gave",
)
DESCRIBED_NAMESAKE_STAYS = rule(
    "described-namesake-stays",
    "revise",
    "a fact of a group only a namesake's page supports, where that namesake is another group's page in the same answer "
    "(the answer tells the two apart and gave one of them the other's award, employer or work), is corrected or "
    "deleted, not moved out as 'Another X, a …': the answer already describes that namesake on their own",
)
YEARS_AS_WRITTEN = rule(
    "years-as-written",
    "revise",
    "an edited sentence says a year the answer wrote short or relative as the answer wrote it ('born in '87', 'Three "
    "years later'), not as the decomposition read it ('1987', 'In 1928'), where the revision still reads it as that "
    "year",
)
KEEP_HEADINGS = rule(
    "keep-headings",
    "revise",
    "a heading that labels a part of the answer ('## Career', '**Section 3: Historical significance of the works**', "
    "'**CLASS NOTES — Alumni News**') is kept as written: read as a sentence it said nothing the pages could support "
    "('CLASS NOTES is Alumni News'), and the revision deleted it; one with a refuted fact or a wrong value still goes",
)
DROP_HEDGES = rule(
    "drop-hedges",
    "revise",
    "a kept sentence is written without its hedges (I believe, if I recall correctly, probably): its claims were "
    "checked, and a revision states what the page supports",
)


@dataclass
class RevisionInput:
    """What revision needs: the sentences, each group with its linked entity, and the entities."""

    sentences: list[str]
    groups: list[tuple[PlannedGroup, str | None]]
    entities: dict[str, EntityRef]
    # Indices of groups flagged as merging several individuals; only their facts are separated.
    conflated: set[int] = field(default_factory=set)
    mode: Literal["separate", "drop"] = "separate"
    # The sentences as written, where ``sentences`` are as the decomposition read them: a sentence left
    # without an edit is kept as written.
    written: list[str] | None = None
    paragraphs: list[int] = field(default_factory=list)
    # Confirms an edited fact against an entity (the stance model); without it nothing is replaced.
    confirm: Callable[[str, str], bool] | None = None
    rules_off: frozenset[str] = frozenset()
    # The deletion a rejected revision falls back to (scoring.recheck): an edited sentence that would read as a
    # fragment (no verb kept, opening on punctuation, a pronoun cut from its verb) goes whole, and so does a
    # sentence holding a failing fact whose words are not known.
    whole_on_fragment: bool = False
    # Values the re-check found wrong (scoring.recheck): a fact stating one is deleted, however its verdict went.
    wrong_values: frozenset[str] = frozenset()
    # The answer as written, and where each sentence of ``written`` stands in it (``scoring.spans.align``): the
    # revision is written on it, its layout kept (``scoring.revise_layout``).
    answer: str | None = None
    maps: list[list[int]] | None = None
    # The sentences that are headings labelling a part of the answer ("## Career", "**Section 3: Historical
    # significance**"): kept as written unless a fact of theirs is refuted (``keep-headings``).
    headings: frozenset[int] = frozenset()


@dataclass
class _SentencePlan:
    delete: set[int] = field(default_factory=set)
    keep: set[int] = field(default_factory=set)
    replacements: list[tuple[str, str]] = field(default_factory=list)
    moved: dict[str, list[str]] = field(default_factory=dict)
    whole_moved_to: str | None = None
    whole_deleted: bool = False
    # The kept check-worthy facts (token ids, standalone text, replaced values in): what a sentence whose
    # main clause went says in its place.
    stated: list[tuple[frozenset[int], str]] = field(default_factory=list)


def revise(inp: RevisionInput) -> Revision:
    """The suggested revision of an answer; ``edits`` lists every change with its reason."""
    docs = nlp.parse(inp.sentences, inp.rules_off) if inp.sentences else []
    plans: dict[int, _SentencePlan] = {}
    edits: list[Edit] = []
    separated: dict[str, list[str]] = {}
    for gi, (group, entity) in enumerate(inp.groups):
        name = group.individual.name
        by_sentence: dict[int, list[PlannedFact]] = {}
        for fact in group.facts:
            by_sentence.setdefault(fact.atom.sentence_index, []).append(fact)
        support = _support_by_page(group)
        for si, sfacts in sorted(by_sentence.items()):
            plan = plans.setdefault(si, _SentencePlan())
            _plan_sentence(inp, docs[si], sfacts, entity, name, gi in inp.conflated, plan, edits, separated, support)
    out_sentences: list[str | None] = []
    # The edited sentences whose years the answer wrote short or relative are given back as written ("born in '87",
    # "Three years later"); each sentence's edit with the years as read, should the revision read them otherwise.
    said: dict[int, str] = {}
    # What each sentence's revision was edited from: the sentence as written, or as the decomposition read it.
    bases: list[str] = []
    kept_headings = _kept_headings(inp)
    for si, text in enumerate(inp.sentences):
        found = plans.get(si)
        as_written = inp.written[si] if inp.written else text
        if si in kept_headings:
            found = None  # a heading labels a part of the answer: no claim of it to edit
        if found is None or (not found.delete and not found.replacements and found.whole_moved_to is None):
            out_sentences.append(_unhedged(as_written, inp.rules_off))
            bases.append(as_written)
            continue
        if found.whole_moved_to is not None or found.whole_deleted:
            out_sentences.append(None)
            bases.append(text)
            continue
        written = _replaced_as_written(inp.written[si] if inp.written else None, found)
        bases.append(as_written if written is not None else text)
        written = _unhedged(written, inp.rules_off) if written is not None else None
        # A record read as prose ("Record: 61–9–3") is edited as its reading, never rewritten from its facts.
        prose = (not inp.written or inp.written[si].strip() == text.strip()) and not _LABEL.match(text)
        edited = (
            written if written is not None else _apply(docs[si], found, prose, inp.rules_off, inp.whole_on_fragment)
        )
        if written is None and edited is not None and inp.written and YEARS_AS_WRITTEN not in inp.rules_off:
            restored = _years_as_written(edited, text, inp.written[si])
            if restored != edited:
                edited, said[si] = restored, edited
        out_sentences.append(None if edited is not None and inp.whole_on_fragment and fragment(edited) else edited)
    _years_still_read(out_sentences, said)
    if inp.whole_on_fragment:
        _continuations_go(inp, out_sentences, plans)
    if TALK_LEFT_GOES not in inp.rules_off:
        went = {
            i
            for i, p in plans.items()
            if out_sentences[i] is None and (p.delete or p.whole_deleted or p.whole_moved_to is not None)
        }
        checked = {f.atom.sentence_index for g, _ in inp.groups for f in g.facts if f.worthiness is Worthiness.FACTUAL}
        lines = sentence_lines(inp.answer, inp.maps, inp.paragraphs or [0] * len(inp.sentences))
        talk_left_goes(out_sentences, lines, went, checked)
    out_sentences = [_opened(t) for t in out_sentences]
    _named_first(inp, out_sentences)
    plain = PLAIN_SEPARATION not in inp.rules_off
    if separated and inp.mode == "separate" and not plain:
        out_sentences = _label_main_subjects(inp, out_sentences)
    placed = None
    if inp.answer is not None and inp.maps is not None and inp.written and LAYOUT_IN_PLACE not in inp.rules_off:
        placed = in_place(inp.answer, inp.maps, inp.written, bases, out_sentences)
    text = placed if placed is not None else _join(out_sentences, inp.paragraphs or [0] * len(inp.sentences))
    if separated and inp.mode == "separate":
        extra = [
            _in_plain_prose(" ".join(_without_repeats(lines)), inp.entities.get(target))
            if plain
            else " ".join(_without_repeats(lines))
            for target, lines in separated.items()
            if lines
        ]
        text = "\n\n".join([t for t in [text, *extra] if t])
    return Revision(text=text, edits=edits)


def _kept_headings(inp: RevisionInput) -> set[int]:
    """The headings (``inp.headings``) the revision keeps as written: those no fact of which is refuted by its group's
    page, states a value the re-check found wrong, or states a year its page does not hold ("## Kask Prize winner,
    1975" where the page says 1970): a heading claims nothing, but a year in it is a claim all the same."""
    if KEEP_HEADINGS in inp.rules_off or not inp.headings:
        return set()
    wrong = set()
    for group, entity in inp.groups:
        for fact in group.facts:
            if fact.atom.sentence_index not in inp.headings:
                continue
            own = fact.verdicts.get(entity) if entity else None
            page = " ".join(e.text for e in own.evidence) if own is not None else ""
            if (
                (own is not None and own.refuted)
                or any(re.search(rf"(?<!\w){re.escape(v)}(?!\w)", fact.text) for v in inp.wrong_values)
                or any(year not in page for year in _YEAR.findall(fact.text))
            ):
                wrong.add(fact.atom.sentence_index)
    return set(inp.headings) - wrong


_YEAR = re.compile(r"(?<!\d)1\d{3}(?!\d)|(?<!\d)20\d{2}(?!\d)")


def _plan_sentence(
    inp: RevisionInput,
    doc: Doc,
    facts: list[PlannedFact],
    entity: str | None,
    name: str,
    conflated: bool,
    plan: _SentencePlan,
    edits: list[Edit],
    separated: dict[str, list[str]],
    support: dict[str, int] | None = None,
) -> None:
    kept: set[int] = set()
    dropped: list[tuple[PlannedFact, str, str | None]] = []  # fact, kind, other entity
    described = {e for _, e in inp.groups if e is not None and e != entity}  # the pages other groups are linked to
    for fact in facts:
        if fact.worthiness_rule in (CHATTER, ASSISTANT_ASIDE) and DROP_CHATTER not in inp.rules_off:
            dropped.append((fact, "chatter", None))
            continue
        if inp.wrong_values and any(re.search(rf"(?<!\w){re.escape(v)}(?!\w)", fact.text) for v in inp.wrong_values):
            dropped.append((fact, "delete", None))
            continue
        if fact.worthiness is not Worthiness.FACTUAL or not fact.verdicts:
            kept |= set(fact.atom.tokens)
            continue
        own = fact.verdicts.get(entity) if entity else None
        # A fact another page supports by more than the attribution margin is that page's (as in scoring).
        elsewhere = conflated and bool(fact.attributed) and entity not in fact.attributed
        if own is not None and own.supported and not (elsewhere and SUPPORTED_BETTER_ELSEWHERE not in inp.rules_off):
            kept |= set(fact.atom.tokens)
            plan.stated.append((frozenset(fact.atom.tokens), fact.text))
            continue
        others = [t for t in fact.attributed if t != entity] if conflated else []
        crossed = own is not None and own.decided_by == CROSSED_VALUE and _link_holds(fact, entity, support or {})
        moved_to_described = others and max(others, key=lambda t: fact.verdicts[t].support) in described
        if moved_to_described and (crossed or DESCRIBED_NAMESAKE_STAYS not in inp.rules_off):
            # A value crossed from a namesake the answer describes on their own: their sentences say it already;
            # this one is corrected (or dropped), not moved out to them a second time.
            others = []
        if others:
            best = max(others, key=lambda t: fact.verdicts[t].support)
            dropped.append((fact, "separate", best))
            continue
        if crossed and own is not None:
            # A value crossed from a namesake: the page's own value for that relation replaces it where the model
            # confirms the edited fact, else the fact goes; a crossed value is never kept, nor replaced by a value
            # of another relation.
            swaps = _crossed_replacement(inp, fact, entity, own)
            if not swaps:
                dropped.append((fact, "delete", None))
                continue
            new_fact = fact.text
            for old, new in swaps:
                new_fact = new_fact.replace(old, new, 1)
            written = inp.written[fact.atom.sentence_index] if inp.written else nlp.text(doc)
            texts = [nlp.text(doc), written]
            plan.replacements += _with_regions(swaps, fact.text, texts, own, entity or "", (name, fact.atom.subject))
            kept |= set(fact.atom.tokens)
            plan.stated.append((frozenset(fact.atom.tokens), new_fact))
            said = ", ".join(new for _, new in swaps)
            edits.append(Edit(kind="replace", original=fact.text, replacement=new_fact, reason=f"{entity} says {said}"))
            continue
        replacement = _replacement(inp, doc, fact, entity, own, name) if own is not None else None
        if replacement is not None:
            old, new, new_fact = replacement
            plan.replacements.append((old, new))
            kept |= set(fact.atom.tokens)
            plan.stated.append((frozenset(fact.atom.tokens), new_fact))
            edits.append(Edit(kind="replace", original=fact.text, replacement=new_fact, reason=f"{entity} says {new}"))
            continue
        if own is not None and roles.stated_in(fact.text, [e.text for e in own.evidence], (name, entity or "")):
            kept |= set(fact.atom.tokens)  # the page says it in so many words: never delete it
            plan.stated.append((frozenset(fact.atom.tokens), fact.text))
            continue
        dropped.append((fact, "delete", None))
    plan.keep |= kept
    if any(k == "chatter" for _, k, _ in dropped) and not any(f.worthiness is Worthiness.FACTUAL for f in facts):
        # chatter and talk only ("Thanks for your note — here's a background you can adapt."): nothing of the
        # answer is left once the chatter goes, so the sentence goes whole, not as "— you can adapt."
        plan.whole_deleted = True
    moved_targets = {o for _, k, o in dropped if k == "separate"}
    moved_facts = [d for d, k, _ in dropped if k == "separate"]
    all_factual = [f for f in facts if f.worthiness is Worthiness.FACTUAL and f.verdicts]
    whole = (
        inp.mode == "separate"
        and len(moved_targets) == 1
        and bool(all_factual)
        and all(any(f is d for d in moved_facts) for f in all_factual)
    )
    if whole:
        target = next(iter(moved_targets)) or ""
        plan.whole_moved_to = target
        ref = inp.entities.get(target)
        label = ref.title if ref is not None else target
        sentence = _relabel(nlp.text(doc), name, label, first=not separated.get(target))
        separated.setdefault(target, []).append(sentence)
        for fact, _, _ in dropped:
            edits.append(
                Edit(kind="separate", original=fact.text, replacement=sentence, reason=f"about {label}, not {entity}")
            )
        return
    for fact, kind, other in dropped:
        plan.delete |= set(fact.atom.tokens) - kept
        plan.whole_deleted |= inp.whole_on_fragment and not fact.atom.tokens
        if kind == "separate" and other is not None:
            ref = inp.entities.get(other)
            label = ref.title if ref is not None else other
            if inp.mode == "separate":
                pronoun = fact.atom.subject.lower() in ("he", "she", "they")
                if separated.get(other) and pronoun:
                    moved = fact.atom.text  # the separated paragraph already named them
                else:
                    moved = decontextualize(fact.atom.text, fact.atom.subject, label, rules_off=inp.rules_off)
                if name and moved.startswith(name) and not moved.startswith(label):
                    moved = label + moved[len(name) :]
                separated.setdefault(other, []).append(moved)
                edits.append(Edit(kind="separate", original=fact.text, replacement=moved, reason=f"about {label}"))
            else:
                edits.append(Edit(kind="delete", original=fact.text, reason=f"about {label}, not {entity}"))
        elif kind == "chatter":
            edits.append(Edit(kind="delete", original=fact.text, reason="assistant chatter, not part of the answer"))
        else:
            edits.append(Edit(kind="delete", original=fact.text, reason=f"not supported by {entity or 'any page'}"))


def _replacement(
    inp: RevisionInput, doc: Doc, fact: PlannedFact, entity: str | None, own: EntityVerdict, name: str
) -> tuple[str, str, str] | None:
    """(old value, new value, edited fact) when the evidence holds a confirmed value in the fact's role.

    A value is replaced only by one of the same kind (a year by a year, a count of the same noun by
    a count, a place by a place) that stands beside the fact's own predicate words in the evidence;
    the subject's names never count as such words. Without one the fact is deleted.
    """
    if entity is None or inp.confirm is None or not own.evidence:
        return None
    tokens = set(fact.atom.tokens)
    values = [e for e in doc.ents if e.label_ in _VALUE_LABELS and all(t.i in tokens for t in e)]
    values += [doc[t.i : t.i + 1] for t in doc if t.i in tokens and t.like_num and not t.ent_type_]
    values = [v for v in values if not _counts_people(v)]
    evidence_text = " ".join(e.text for e in own.evidence)
    exclude = (name, entity, fact.atom.subject)
    # A value the evidence holds only in another role ("born in 1958" where 1958 is when she joined) is
    # as wrong as one it never mentions.
    pages = [e.text for e in own.evidence]
    misplaced = {v.text for v in roles.misplaced_values(fact.text, pages, exclude)}
    if own.decided_by == CONTRADICTED_VALUE:  # "Bramwell University in Madrid" where the page has London
        misplaced |= {v.text for v in roles.contradicted_values(fact.text, pages, exclude)}
    values = [v for v in values if v.text not in evidence_text or fold_ascii(v.text) in misplaced]
    if not values:
        return None
    evidence = [e.text for e in own.evidence]
    for value in values:
        label = value.label_ or ("CARDINAL" if value[0].like_num else "")
        if _looks_like_year(value.text):
            year = re.sub(r"^(?:in|on) ", "", value.text.strip())
            found = roles.role_years(fact.text, year, [e.text for e in own.evidence], exclude)
            # A year the sentence already gives ("in 1994 and 1999") is no replacement for its neighbour, and a year
            # the page only writes as a name's date ("Cold Harbour Lane (2005) won the Gilded Quill Award in 2006":
            # when the book came out) is no event's.
            options = [
                value.text.replace(year, y)
                for y in found
                if y not in nlp.text(doc) and not _only_a_names_date(y, evidence)
            ]
        else:
            role_set = roles.role_words(fact.text, (*exclude, value.text))
            options = _ranked_values(_evidence_docs(evidence, role_set), label, value, role_set) if role_set else []
        # A place is replaced only by the one nearest the fact's role word: when the model will not
        # confirm "born in Nyeri District", "born in Kenya" further off is vaguer, not better.
        for option in options[: 1 if label in _PLACES else 3]:
            edited = fact.text.replace(value.text, option, 1)
            if edited != fact.text and inp.confirm(edited, entity):
                return value.text, option, edited
    return None


def _only_a_names_date(year: str, texts: Sequence[str]) -> bool:
    """Whether ``texts`` write ``year`` only alone in parentheses right after a name: a work's or a building's date
    ("Cold Harbour Lane (2005)", "The Glass Orchard (2012)"), not an event's (a lifespan, "(1911–1990)", and "(born
    1911)" date a birth)."""
    said = [m for t in texts for m in re.finditer(rf"(?<![\w.,]){year}(?![\w.,]\d)", t)]
    dated = re.compile(rf"[A-ZÀ-Þ][\w'’-]*\s*\(\s*{year}\s*\)")
    return bool(said) and all(any(d.start() <= m.start() < d.end() for d in dated.finditer(m.string)) for m in said)


def _continuations_go(inp: RevisionInput, sentences: list[str | None], plans: dict[int, _SentencePlan]) -> None:
    """In the deletion, a sentence that went whole takes along the part of its line read as a sentence of its own
    after it ("Tamarack River Bridge (2008) — cable-stayed, main span 412 m:" then "his largest and best-known
    bridge."): said alone, the part says nothing of anything."""
    written = inp.written or inp.sentences
    paragraphs = inp.paragraphs or [0] * len(written)
    for i in range(len(written) - 1):
        if sentences[i] is not None or i not in plans or not plans[i].keep or paragraphs[i] != paragraphs[i + 1]:
            continue  # not a sentence that went as a fragment, its kept words with it (chatter, a wrong sentence)
        line, after = written[i].rstrip(), written[i + 1].lstrip()
        if line[-1:] not in ".!?" and after[:1].islower():
            sentences[i + 1] = None


def _support_by_page(group: PlannedGroup) -> dict[str, int]:
    """How many of the group's check-worthy facts each page supports."""
    out: dict[str, int] = {}
    for fact in group.factual:
        for title, verdict in fact.verdicts.items():
            out[title] = out.get(title, 0) + verdict.supported
    return out


def _link_holds(fact: PlannedFact, entity: str | None, support: dict[str, int]) -> bool:
    """Whether the group's page supports at least as many of its facts as each page that supports ``fact``: a value
    crossed from a namesake is corrected from the group's page only where that page is the group's person's (a
    group linked to the namesake by mistake would take the namesake's values for its own)."""
    own = support.get(entity or "", 0)
    return all(support.get(t, 0) <= own for t, v in fact.verdicts.items() if t != entity and v.supported)


def _crossed_replacement(
    inp: RevisionInput, fact: PlannedFact, entity: str | None, own: EntityVerdict
) -> list[tuple[str, str]]:
    """The page's own values for the fact's crossed ones (``crossed-value``), where the model confirms the edited
    fact against the page; empty otherwise."""
    if entity is None or inp.confirm is None:
        return []
    swaps = corrections(fact.text, [e.text for e in own.evidence], base_name(entity))
    edited = fact.text
    for old, new in swaps:
        edited = edited.replace(old, new, 1)
    return swaps if swaps and inp.confirm(edited, entity) else []


# The regions a sentence writes after a town: "Columbus, Ohio", "Llandeilo, Carmarthenshire, Wales".
_REGIONS = r"(?:,\s+[A-ZÀ-Þ][\w'’-]*(?:\s+(?:of\s+)?[A-ZÀ-Þ][\w'’-]*){0,2}){1,2}(?![\w'’-])"


def _with_regions(
    swaps: list[tuple[str, str]],
    fact: str,
    texts: list[str],
    own: EntityVerdict,
    entity: str,
    names: tuple[str, ...],
) -> list[tuple[str, str]]:
    """The crossed values' replacements as the sentence needs them: a town the sentence writes with its regions
    where the fact read it alone ("born in Columbus, Ohio, in 1909" read "born in Columbus, in 1909") is replaced
    with its regions by the page's place with the page's regions ("Scranton, Pennsylvania"; the town alone where
    the page gives none), not left with the namesake's region ("Scranton, Ohio")."""
    name_words = {w for n in names for w in re.findall(r"[\w'’-]+", n or "")}
    out: list[tuple[str, str]] = []
    for old, new in swaps:
        found = [re.search(rf"(?<![\w'’-]){re.escape(old)}{_REGIONS}", t) for t in texts]
        whole = found[0].group(0) if found[0] is not None else None
        regions = set(re.findall(r"[\w'’-]+", whole[len(old) :])) if whole else set()
        if (
            whole is None
            or regions & name_words
            or any(m is None or m.group(0) != whole or t.count(whole) != 1 for m, t in zip(found, texts, strict=True))
        ):
            out.append((old, new))
            continue
        place = corrections(fact.replace(old, whole, 1), [e.text for e in own.evidence], base_name(entity))
        full = [(o, n) for o, n in place if o == whole]
        out.append(full[0] if full else (old, new))
    return out


def _counts_people(value: Span) -> bool:
    """ "one of the greatest", "one of six children": a share, not a value to correct."""
    doc = value.doc
    return value.text.lower() in ("one", "1") and value.end < len(doc) and doc[value.end].lower_ == "of"


# Kinds whose values are counts of something: a replacement must count the same noun.
_COUNTS = ("CARDINAL", "QUANTITY", "MONEY")
# Kinds that are all places: a town (GPE) may be replaced by a district (LOC).
_PLACES = ("GPE", "LOC", "FAC")


def _evidence_docs(texts: Sequence[str], role_set: frozenset[str]) -> list[list[Doc]]:
    """Per evidence passage, its sentences whose words can show the fact's role, with their named entities.

    A value stands in the role only by a role word of its own sentence (:func:`_ranked_values`), so the entity
    recogniser, the costliest step of a revision, reads those sentences alone: on the AmbigBio dev answers about
    a third of the words of the passages it read whole (issue #12)."""
    chosen: list[tuple[str, ...]] = []
    for text in texts:
        if not roles.fills(role_set, roles.content_stems(nlp.words(text))):
            chosen.append(())  # no sentence of it can: not even split
            continue
        pieces = nlp.marked_sentences(text)
        chosen.append(tuple(s for s in pieces if roles.fills(role_set, roles.content_stems(nlp.words(s)))))
    named = iter(nlp.entities([s for pieces in chosen for s in pieces]))
    return [[next(named) for _ in pieces] for pieces in chosen]


def _ranked_values(ev_docs: Sequence[Sequence[Doc]], label: str, old: Span, role_set: frozenset[str]) -> list[str]:
    """Values of the same kind standing in the fact's role in the evidence (per passage, docs of its text or of
    some of its sentences), the best placed first."""
    if not role_set:
        return []
    noun = _count_noun(old.doc[old.end]) if old.end < len(old.doc) else ""
    scored: list[tuple[int, int, int, str]] = []
    for doc_no, ev_doc in ((n, d) for n, docs in enumerate(ev_docs) for d in docs):
        words = [t.text for t in ev_doc]
        for ent in list(ev_doc.ents) + (_unnamed_places(ev_doc) if label in _PLACES else []):
            same_kind = ent.label_ == label or (ent.label_ in _PLACES and label in _PLACES)
            if not same_kind or ent.text == old.text:
                continue
            if _looks_like_year(old.text) != _looks_like_year(ent.text):
                continue
            if bool(durations(old.text)) != bool(durations(ent.text)):
                continue  # a length of time by a length of time: "for eight years", never "for 1988 to 1996"
            if label in _COUNTS and (ent.end >= len(ev_doc) or _count_noun(ev_doc[ent.end]) != noun):
                continue
            lo, hi = _sentence_bounds(words, ent.start, ent.end)
            window = roles.window_of(words[lo:hi], ent.start - lo, ent.end - lo)
            if not roles.fills(role_set, window):
                continue
            # The value nearest its role word first: "born in Ihithe, Nyeri, Kenya" gives Ihithe.
            at = [i for i in range(lo, hi) if roles.stem(words[i]) in role_set]
            distance = min((abs(ent.start - i) for i in at), default=len(words))
            if label in _PLACES and not _first_place_after(words, [i for i in at if i < ent.start], ent.start):
                continue  # "born in Ihithe, a village in ... Kenya": the birthplace is the unrecognised Ihithe
            value = ent.text
            if value[:4].lower() == "the " and old.start > 0 and old.doc[old.start - 1].lower_ == "the":
                # "the United States Navy" for "U.S. Navy": the sentence keeps its own article ("served in the U.S.
                # Navy" → "served in the United States Navy", not "the the").
                value = value[4:]
            scored.append((len(role_set & window), -distance, -doc_no, value))
    scored.sort(key=lambda s: (s[0], s[1], s[2]), reverse=True)
    return list(dict.fromkeys(s[3] for s in scored))


def _count_noun(token: Token) -> str:
    """What a count counts, read from the word as written ("caps", "cap" → "cap"): the evidence passages are
    read by the entity recogniser alone, without lemmas, so a lemma on one side matched nothing on the other."""
    return roles.stem(re.sub(r"(?<=\w\w)(?:es|s)$", "", token.lower_))


def _unnamed_places(doc: Doc) -> list[Span]:
    """Capitalised words after "in" or "at" that the entity recogniser left out ("the hospital in Enugu"): the
    places a small model does not know, as spans labelled GPE."""
    from spacy.tokens import Span

    known = {t.i for e in doc.ents for t in e}
    out: list[Span] = []
    for t in doc[:-1]:
        if t.lower_ not in ("in", "at") or t.i + 1 in known:
            continue
        j = t.i + 1
        while j < len(doc) and doc[j].is_alpha and doc[j].text[:1].isupper() and doc[j].i not in known:
            j += 1
        if j > t.i + 1 and doc[t.i + 1].text.lower() not in MONTHS and doc[t.i + 1].lower_ not in ("the", "a"):
            out.append(Span(doc, t.i + 1, j, label="GPE"))
    return out


def _first_place_after(words: Sequence[str], role_at: list[int], start: int) -> bool:
    """Whether ``words[start]`` is the first capitalised word after the nearest role word before it."""
    if not role_at:
        return True
    first = next((i for i in range(max(role_at) + 1, start) if words[i][:1].isupper()), None)
    return first is None


def _sentence_bounds(words: Sequence[str], start: int, end: int) -> tuple[int, int]:
    lo = start
    while lo > 0 and words[lo - 1] not in (".", ";", "!", "?"):
        lo -= 1
    hi = end
    while hi < len(words) and words[hi] not in (".", ";", "!", "?"):
        hi += 1
    return lo, hi


def _replaced_as_written(written: str | None, plan: _SentencePlan) -> str | None:
    """A sentence whose only edits are values replaced, with the values replaced in the line as written: a
    record keeps its own words ("- 32 caps for Norway" → "- 23 caps for Norway", not the reading "They had
    23 caps for Norway"). None when words go too, or a value is not in the line as written."""
    if written is None or not plan.replacements or plan.delete - plan.keep:
        return None
    for old, new in dict.fromkeys(plan.replacements):  # two facts of one sentence may carry the same value
        found = list(re.finditer(rf"(?<!\w){re.escape(old)}(?!\w)", written))
        if len(found) != 1:
            return None
        written = written[: found[0].start()] + new + written[found[0].end() :]  # as written: no template
    return written


def _unhedged(sentence: str, rules_off: frozenset[str]) -> str:
    """A kept sentence without its hedges ("born in Freiburg (in 1990, I believe)" → "born in Freiburg (in
    1990)"): the sentence as written where nothing hedges it, or the rule is off."""
    if DROP_HEDGES in rules_off:
        return sentence
    stripped, _, hedged = strip_hedges(sentence, rules_off)
    if not hedged:
        return sentence
    stripped = re.sub(r"\s+([,.;:!?)])", r"\1", stripped).strip()
    return stripped[:1].upper() + stripped[1:] if sentence.lstrip()[:1].isupper() else stripped


# A year as the decomposition wrote one in place of the answer's words: "1987" for "'87", "In 1928" for "Three years
# later", "in about 2012" for "about a year later".
_READ_YEAR = re.compile(r"(?:[Ii]n\s+(?:(?:about|around|roughly|some|nearly|almost)\s+)?)?\d{4}")
# The answer's words for such a year: a year without its century ("'87", "’28") or a date relative to a year ("two
# years later", "the following year", "a decade on"); never a year in full.
_WRITTEN_YEAR = re.compile(
    r"['’]\d{2}|\b(?:years?|decades?)\b.*\b(?:later|on|after|afterwards?|earlier|before)\b"
    r"|\b(?:following|next|subsequent|same|that)\s+year\b|\byear\s+(?:after|before)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"\w+|[^\w\s]")


def _year_words(reading: str, written: str) -> list[tuple[str, str]]:
    """(the year as read, the answer's words for it) for each year the reading of a sentence wrote in place of a
    short or relative year of the sentence as written ("1987" and "'87"; "In 1928" and "Three years later")."""
    if reading == written:
        return []
    ours = [(m.start(), m.end()) for m in _WORD.finditer(reading)]
    theirs = [(m.start(), m.end()) for m in _WORD.finditer(written)]
    matcher = difflib.SequenceMatcher(
        None, [reading[a:b] for a, b in ours], [written[a:b] for a, b in theirs], autojunk=False
    )
    out: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op != "replace":
            continue
        read = reading[ours[i1][0] : ours[i2 - 1][1]]
        words = written[theirs[j1][0] : theirs[j2 - 1][1]]
        if _READ_YEAR.fullmatch(read) and _WRITTEN_YEAR.search(words) and not re.search(r"\d{4}", words):
            out.append((read, words))
    return out


def _years_as_written(edited: str, reading: str, written: str) -> str:
    """``edited`` (an edit of ``reading``) with the years the reading made of the answer's short or relative ones
    said as the answer wrote them: a year read correctly is kept in the answer's words, not normalised."""
    for read, words in _year_words(reading, written):
        found = list(re.finditer(rf"(?<!\w){re.escape(read)}(?!\w)", edited))
        if len(found) != 1 or len(re.findall(rf"(?<!\w){re.escape(read)}(?!\w)", reading)) != 1:
            continue
        at = found[0]
        if at.start() > 0 and words[:1].isupper() and not edited[: at.start()].rstrip().endswith((".", "!", "?", ":")):
            words = words[:1].lower() + words[1:]  # "Three years later" inside a sentence: "three years later"
        edited = edited[: at.start()] + words + edited[at.end() :]
    return edited


def _years_still_read(sentences: list[str | None], said: dict[int, str]) -> None:
    """Undo the answer's wording of a year (:func:`_years_as_written`) where the revision would read it as another
    year: a relative date whose anchor went with a deleted sentence, a short year whose century the answer's other
    years no longer settle."""
    if not said:
        return
    kept = [i for i, t in enumerate(sentences) if t is not None]
    texts = [sentences[i] or "" for i in kept]
    read = answer_years_read(texts, short_years_read(texts))
    for i, reading in zip(kept, read, strict=True):
        if i in said and not all(y in reading.text for y in re.findall(r"\d{4}", said[i])):
            sentences[i] = said[i]


def _looks_like_year(text: str) -> bool:
    return bool(re.fullmatch(r"(?:in |on )?\d{3,4}", text.strip()))


def _apply(
    doc: Doc, plan: _SentencePlan, prose: bool = True, rules_off: frozenset[str] = frozenset(), verbs: bool = False
) -> str | None:
    remove = plan.delete - plan.keep
    if plan.keep and not (set(range(len(doc))) - remove) & plan.keep:
        return None
    if not plan.keep and remove:
        return None
    remove, swaps = _repair(doc, remove)
    stated = {i for ids, _ in plan.stated for i in ids}
    if ASIDES_GO not in rules_off:
        asides_go(doc, remove, stated)
    if APPOSITIONS_GO not in rules_off:
        appositions_go(doc, remove, stated)
    if verbs and prose and not any(t.pos_ in ("VERB", "AUX") and t.i not in remove for t in doc):
        return None  # "the registry.": no verb kept, no sentence left
    if verbs and not prose and _opening_went(doc, remove):
        # a record's item without what it was about ("Tamarack River Bridge (2008) — cable-stayed: his largest
        # bridge." less its name and dates): "His largest bridge." says nothing of anything
        return None
    main_went = any(t.dep_ == "ROOT" and t.i in remove for t in doc)
    restate = RESTATE_STRANDED not in rules_off and prose and main_went and plan.stated
    if restate and _stranded(doc, remove):
        said = _said_by_facts(plan, lower=nlp.text(doc)[:1].islower())
        if said is not None:
            return said
        if verbs:
            # the main clause went, what is left hangs on nothing and its facts say no sentence: a fragment ("Mary
            # Ellen Castellane's life, almost all of it bound up with Lowell, …"), which the deletion path drops
            return None
    text = _tidy(_render(doc, remove, swaps), nlp.text(doc))
    for old, new in plan.replacements:
        text = text.replace(old, new, 1)
    return text or None


# What a reader sees as a fragment in an edited sentence: an opening on punctuation (": she founded in 2012.") or on
# a dash ("— you can adapt."), an ending on an auxiliary or a pronoun left without its words ("Mei Lin's had.") or
# on a dash ("… from Kingsmere University —."),
# a pronoun cut off from its verb ("It, might have sharpened …"),
# an empty parenthesis, a word said twice ("was was"), punctuation left beside punctuation ("Record:, 9 losses"),
# an ending on a word that needs another after it ("He was mayor of.", "… a composer who also."; a preposition after
# a verb in -ing ends a sentence well: "… the answer you were hoping for.").
_FRAGMENT = re.compile(
    r"^\s*[—–-]?\s*[,;:.)\]]|^\s*[—–]\s|^(?:It|He|She|They|This|That)\s*,|\(\s*[,;]?\s*\)|\b(\w{2,}) \1\b"
    r"|[,;:]\s*[,;:.!?]|\b((?:a|an|the) [a-z]{3,}),? (?:\w+ ){0,2}\2\b"
    r"|(?<!ing )\b(?:also|of|to|in|on|at|with|for|from|by|the|a|an|and|or|but|who|which|whom|whose|that)\s*[.!?:]?\s*$"
    r"|\b(?:was|is|were|are|has|have|had|he|she|they|their|its)\s*[.!?:]?\s*$|\s[—–]\s*[.!?]?\s*$",
    re.IGNORECASE,
)


# A sentence opening on what stood before it: an empty table cell's dash and its colon ("—: Trained as a
# surveyor"), a label's colon whose label went (": she founded …").
_BARE_OPENING = re.compile(r"^\s*(?:[—–-]\s*)?[,;:.]+\s*(?=\w)")


def _opened(sentence: str | None) -> str | None:
    """A sentence without a bare opening (:data:`_BARE_OPENING`), its first word capitalised."""
    if sentence is None or not _BARE_OPENING.match(sentence):
        return sentence
    rest = _BARE_OPENING.sub("", sentence, count=1)
    return rest[:1].upper() + rest[1:] if rest else None


def fragment(sentence: str) -> bool:
    """Whether an edited sentence reads as a fragment (:data:`_FRAGMENT`) or leaves a parenthesis unpaired."""
    text = sentence.strip()
    return bool(_FRAGMENT.search(text)) or text.count("(") != text.count(")")


def _opening_went(doc: Doc, remove: set[int]) -> bool:
    """Whether the first word of a line went while words after it stay, no verb among them."""
    words = [t for t in doc if any(c.isalnum() for c in t.text)]
    kept = [t for t in words if t.i not in remove]
    return bool(words and kept) and words[0].i in remove and not any(t.pos_ in ("VERB", "AUX") for t in kept)


def _stranded(doc: Doc, remove: set[int]) -> bool:
    """Whether a kept word lost the word it hangs on, with no clause of its own to stand in: "Born in Lerwick,
    he [fished for a living] before joining the service in 1925" keeps "Born in Lerwick" and "before joining …"
    with no verb; "the Raghunathan bound (1999), an estimate on gaps …" less "Her best-known result is the
    Raghunathan bound" keeps the apposition alone."""
    for tok in doc:
        head = tok.head
        if tok.i in remove or head.i == tok.i or head.i not in remove or tok.is_punct or tok.dep_ in ("cc", "preconj"):
            continue
        if tok.pos_ in ("VERB", "AUX") and any(c.dep_ in _SUBJECTS and c.i not in remove for c in tok.children):
            continue  # a clause that stands: "and from 1928 he was principal keeper"
        if tok.dep_ == "conj" and any(c.dep_ in _SUBJECTS and c.i not in remove for c in head.children):
            continue  # a verb sharing a kept subject: "He [was born in 1936 and] won a medal"
        if tok.dep_ in ("nsubj", "nsubjpass") and any(c.i not in remove for c in head.conjuncts):
            continue  # the subject a kept coordinated verb shares
        if not any(c.isalnum() for c in tok.text):
            continue
        return True
    return False


# A record's label ("Record: 61–9–3", "**Born:** 1912"): a line edited as written, never rewritten from its facts.
_LABEL = re.compile(r"^\W*[\w'’ -]{1,40}:\s")
_LOWERED = frozenset("its his her their the a an one he she they it".split())

# A fact text that does not stand as a sentence: a relative word or a contraction left without its clause.
_UNFINISHED = re.compile(r"\b(?:which|whom|whose|during which)\b|\s'\w|;|\s[.,]")


def _said_by_facts(plan: _SentencePlan, lower: bool = False) -> str | None:
    """The sentence said by its kept facts, each as a sentence, the longest of each family only ("She received
    the medal in 2002" and not also "She received the medal"), in the order the answer gave them."""
    facts = sorted(plan.stated, key=lambda f: min(f[0], default=0))
    kept = [(ids, text) for ids, text in facts if not any(ids < other for other, _ in facts)]
    texts = list(dict.fromkeys(text.strip() for _, text in kept))
    if any(_UNFINISHED.search(t) for t in texts):
        return None  # a fact that is no sentence of its own ("Vance during which wrote …"): edit as written
    if not all(_finite(t) for t in texts if t):
        # a fact with no finite verb ("Mary Ellen Castellane's life bound up with the mill city of Lowell") is no
        # sentence either: said alone it is a fragment no check of fragments sees
        return None
    out = " ".join(t if t[-1:] in ".!?" else t + "." for t in texts if t)
    for old, new in plan.replacements:
        out = out.replace(old, new)
    if lower and out.split(" ", 1)[0].lower() in _LOWERED:
        out = out[:1].lower() + out[1:]  # the part after a semicolon: "…; its 1958 album is Brushfire."
    return out or None


def _finite(text: str) -> bool:
    """Whether ``text`` has a finite verb (a past, a present, a modal): "She was born in Lowell", not "Her life bound
    up with Lowell"."""
    return any(t.tag_ in ("VBD", "VBZ", "VBP", "MD") for t in nlp.parse_one(text))


def _render(doc: Doc, remove: set[int], swaps: dict[int, str]) -> str:
    """The kept words with the spacing the deleted ones stood between: a word that was followed by a
    deleted comma ("in 1925, and from 1928 …" less ", and") is kept apart from the next kept word,
    where joining only the kept words' own trailing spaces glued them ("1925from")."""
    parts: list[str] = []
    gap = False  # a deleted token with space after it stands between the last kept word and the next
    for tok in doc:
        if tok.i in remove:
            gap = gap or bool(tok.whitespace_) or (tok.i > 0 and bool(doc[tok.i - 1].whitespace_))
            continue
        if gap and parts and not parts[-1][-1:].isspace() and not tok.is_punct:
            parts.append(" ")
        gap = False
        parts.append(swaps.get(tok.i, tok.text) + tok.whitespace_)
    return "".join(parts)


def _repair(doc: Doc, remove: set[int]) -> tuple[set[int], dict[int, str]]:
    """Keep the sentence grammatical after deleting words.

    A coordinator goes when either side of its coordination went ("He was born in 1936 and
    represented ..." -> "He represented ..."); a relative word whose antecedent went becomes "and"
    ("..., where he won a medal" -> "..., and he won a medal").
    """
    remove = set(remove)
    swaps: dict[int, str] = {}
    for tok in doc:
        if tok.i in remove:
            continue
        if tok.dep_ in ("cc", "preconj"):
            head = tok.head
            conj = next((c for c in head.children if c.dep_ == "conj" and c.i > tok.i), None)
            if head.i in remove or (conj is not None and conj.i in remove):
                remove.add(tok.i)
                if tok.i > 0 and doc[tok.i - 1].text == ",":
                    remove.add(tok.i - 1)
        elif tok.tag_ in ("WRB", "WDT", "WP") and tok.head.dep_ == "relcl" and tok.head.head.i in remove:
            swaps[tok.i] = "and"
    for tok in doc:
        # A parenthesis that annotated a deleted word goes with it: "best known for the Marsh Light series
        # (1958)" less the series left "an American painter (1958)".
        if tok.text == "(" and tok.i > 0 and tok.i - 1 in remove and tok.i not in remove:
            depth = 0
            for t in doc[tok.i :]:
                remove.add(t.i)
                depth += t.text == "("
                depth -= t.text == ")"
                if depth == 0:
                    break
    _orphans(doc, remove)
    if _clause_leftovers(doc, remove):
        _orphans(doc, remove)
    for tok in doc:
        # A verb that lost its subject to a deleted coordinated clause keeps the shared subject.
        if tok.i in remove and tok.dep_ in ("nsubj", "nsubjpass"):
            head = tok.head
            if head.i in remove and _sharing(head, remove):
                remove.discard(tok.i)
    return remove, swaps


_SUBJECTS = ("nsubj", "nsubjpass", "expl")

# Words that only serve the word they hang on: they go when it goes.
_SERVING = frozenset({"aux", "auxpass", "neg", "mark", "prt", "case", "expl"})


def _sharing(verb: Token, remove: set[int]) -> bool:
    """Whether a kept verb coordinated with ``verb`` shares its subject (not one with a subject of its own: "I may
    be misremembering …, but it was 1951")."""
    return any(
        c.i not in remove and c.pos_ in ("VERB", "AUX") and not any(g.dep_ in _SUBJECTS for g in c.children)
        for c in verb.conjuncts
    )


def _clause_leftovers(doc: Doc, remove: set[int]) -> bool:
    """A coordinated clause whose verb went takes along what hung on it: "…, and at the Central European
    Biomedicine Awards in 2020 she came in just behind the winner" less the coming in leaves no "at the … Awards in
    2020" to join the clause before ("She won the Purkyně Medal in 2016 at the … Awards in 2020": another claim);
    "and a decade later the vaccine got the green light" less its verb leaves no "a decade later". Its subject is
    left to the facts that keep it ("…, and her most recent novel, A Map of Small Rains, came out in 2018" less the
    date still says which novel). Only a clause with a subject of its own: the object of "founded and directed the
    lab" is the kept verb's too. Whether anything went."""
    went = False
    for verb in doc:
        if verb.i not in remove or verb.dep_ != "conj" or verb.pos_ not in ("VERB", "AUX"):
            continue
        if not any(c.dep_ in _SUBJECTS for c in verb.children):
            continue
        for child in verb.children:
            if child.is_punct or child.dep_ in ("cc", "preconj") or child.dep_ in _SUBJECTS:
                # its subject stays where other facts keep it: "her most recent novel, A Map of Small Rains" says
                # which novel, though not when it came out
                continue
            if child.dep_ == "conj" and any(g.dep_ in _SUBJECTS and g.i not in remove for g in child.children):
                continue  # a clause coordinated after it, which stands: "…, and he retired in 1941"
            for t in child.subtree:
                went |= t.i not in remove
                remove.add(t.i)
        subject = next((c for c in verb.children if c.dep_ in _SUBJECTS and c.i not in remove), None)
        if subject is not None and verb.head.i not in remove:
            # a kept subject stays joined as the answer joined it ("…, and her most recent novel, …"), not glued to
            # the clause before ("The Ochre Houses her most recent novel")
            cc = [c for c in verb.head.children if c.dep_ == "cc" and c.i < subject.left_edge.i]
            if cc:
                remove.discard(cc[-1].i)
                if cc[-1].i > 0 and doc[cc[-1].i - 1].text == ",":
                    remove.discard(cc[-1].i - 1)
    return went


def _orphans(doc: Doc, remove: set[int]) -> None:
    """A deleted word takes the words that only serve it: "who also played the organ" less the playing leaves no
    "who also"; "after finishing fourth" less the finishing leaves no "after"; "I think it was 1951" less the
    hedge leaves no "I"."""
    changed = True
    while changed:
        changed = False
        for tok in doc:
            if tok.i in remove or tok.head.i == tok.i:
                continue
            head = tok.head
            if (
                head.i in remove
                and tok.i < head.i
                and (
                    tok.dep_ in _SERVING
                    or (tok.dep_ == "advmod" and tok.pos_ == "ADV" and not tok.n_lefts and not tok.n_rights)
                    or tok.tag_ in ("WDT", "WP", "WRB")
                    or (tok.dep_ in ("nsubj", "nsubjpass") and tok.pos_ == "PRON" and not _sharing(head, remove))
                )
            ):
                remove.add(tok.i)
                changed = True
            elif tok.dep_ == "prep" and tok.n_rights and all(t.i in remove for t in tok.subtree if t.i != tok.i):
                remove.add(tok.i)
                changed = True


def _tidy(text: str, original: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"\s+([,.;:!?])", r"\1", text)
    text = re.sub(r"(,\s*){2,}", ", ", text)
    text = re.sub(r"([:;])\s*,\s*", r"\1 ", text)  # "Record:, 9 losses" less "71 wins" → "Record: 9 losses"
    text = re.sub(r"\(\s*\)", "", text)
    text = re.sub(r"\s*([—–])\s*[—–]\s*", r" \1 ", text)  # an aside between dashes gone: one dash, not "— —"
    for _ in range(3):
        text = re.sub(r"\s*(?:,\s*)?\b(?:and|or|but|so|yet|as well as|while|where|which|who)\s*([.;!?])$", r"\1", text)
        text = re.sub(r"\s*,\s*([.;!?])$", r"\1", text)
        text = re.sub(r",\s*(and|or)\s*,", r" \1", text)
        text = re.sub(r"\b(and|or)\s+(and|or)\b", r"\1", text)
        text = re.sub(r"^(?:and|but|or|,)\s+", "", text, flags=re.IGNORECASE)
    text = text.strip(" ,;")
    if not text:
        return ""
    end = original.rstrip()[-1:] if original.rstrip()[-1:] in ".!?" else "."
    # A line that leads into a list keeps its colon: "…; treat it with some caution:" less its opening.
    lead_in = text[-1] == ":" and original.rstrip()[-1:] == ":"
    if text[-1] not in ".!?" and original.rstrip()[-1:] != ";" and not lead_in:
        text += end
    first = original.lstrip()[:1]
    return (text[0].upper() if not first or first.isupper() else text[0]) + text[1:]


def _relabel(sentence: str, name: str, label: str, first: bool) -> str:
    """Name the separated individual: "He died in 1970." -> "Dick Hanley (American football) died in 1970."."""
    if name and name in sentence and label != name:
        return sentence.replace(name, label, 1) if first else sentence
    if first:
        m = re.match(r"(He|She|They)\b", sentence)
        if m:
            return label + sentence[m.end() :]
        # "Evans also hosted ...": a leading surname or other part of the name gives way to the title.
        parts = set(name_parts(name))
        m = re.match(r"(?:[A-ZÀ-Þ][\w.'’-]*\s+)*[A-ZÀ-Þ][\w.'’-]*", sentence)
        if m and parts and set(name_parts(m.group(0))) and set(name_parts(m.group(0))) <= parts:
            return label + sentence[m.end() :]
    return sentence


# A disambiguator that names what a person is ("swimmer", "American football coach", "film director"), so that
# "a swimmer" and "the swimmer" say who is meant; another ("American football") is what they are known for.
_PERSON_NOUN = re.compile(
    r"(?:er|or|ist|ian|ant|ent|eer|man|woman|coach|chef|director|officer|poet|priest|judge|monk|pilot|cook|critic|"
    r"athlete|keeper|nurse|surgeon|bishop|general|admiral|executive|architect|artist)s?$",
    re.IGNORECASE,
)


def _named_first(inp: RevisionInput, sentences: list[str | None]) -> None:
    """Every kept sentence keeps a subject: where the sentences that named the person went, the first kept one
    opens with the name, not a pronoun with nothing before it ("He died in 1984." → "Edmund Larkspur died in
    1984.")."""
    name = inp.groups[0][0].individual.name if inp.groups else ""
    first = next((i for i, t in enumerate(sentences) if t), None)
    if not name or not first:
        return  # nothing kept, or the answer's own first sentence kept: as the answer wrote it
    text = sentences[first] or ""
    m = re.match(r"(?:He|She|They)\b", text)
    if m is not None:
        sentences[first] = name + text[m.end() :]


def _in_plain_prose(paragraph: str, ref: EntityRef | None) -> str:
    """A moved-out namesake's paragraph without the store's title: its first mention introduces them ("Another
    Dick Hanley, a swimmer, was born in 1936."), later ones name them by what they are ("The swimmer won …")."""
    if ref is None or not ref.disambiguator or ref.title not in paragraph:
        return paragraph
    base, what = ref.base_name, ref.disambiguator
    person = bool(_PERSON_NOUN.search(what.split()[-1]))
    article = "an" if what[:1].lower() in "aeiou" else "a"
    intro = f"Another {base}, {article} {what}," if person else f"Another {base}, known for {what},"
    first = paragraph.index(ref.title)
    said = re.split(r"(?<=[.!?])\s", paragraph[first + len(ref.title) :], maxsplit=1)[0]
    if re.search(rf"\b{re.escape(what)}\b", said, re.IGNORECASE):
        intro = f"Another {base}"  # "… was a swimmer born in 1936" says what they are: not twice over
    opens = first == 0 or paragraph[:first].rstrip().endswith((".", "!", "?"))
    out = paragraph[:first] + (intro if opens else intro[0].lower() + intro[1:]) + paragraph[first + len(ref.title) :]

    def later(m: re.Match[str]) -> str:
        if not person:
            return base
        at_start = m.start() == 0 or out[: m.start()].rstrip().endswith((".", "!", "?"))
        return f"{'The' if at_start else 'the'} {what}"

    return re.sub(re.escape(ref.title), later, out)


def _label_main_subjects(inp: RevisionInput, sentences: list[str | None]) -> list[str | None]:
    """Give the main individual its disambiguated title where it is first named, so readers can tell them apart."""
    out = list(sentences)
    for group, entity in inp.groups:
        if entity is None:
            continue
        name = group.individual.name
        ref = inp.entities.get(entity)
        if not name or ref is None or ref.title == name or not ref.disambiguator:
            continue
        for i in sorted(group.individual.sentences):
            s = out[i]
            if s and name in s and f"{name} (" not in s:
                out[i] = s.replace(name, ref.title, 1)
                break
    return out


def _without_repeats(lines: list[str]) -> list[str]:
    """Drop a moved fact whose words all appear in a longer moved fact."""
    words = [frozenset(re.findall(r"\w+", line.lower())) for line in lines]
    # A longer fact holding all of a fact's words holds its rarest one: only those are compared.
    holding: dict[str, list[int]] = {}
    for j, ws in enumerate(words):
        for w in ws:
            holding.setdefault(w, []).append(j)
    out: list[str] = []
    seen: set[str] = set()
    for i, line in enumerate(lines):
        rarest = min(words[i], key=lambda w: len(holding[w]), default=None)
        others = holding[rarest] if rarest is not None else range(len(lines))
        if any(j != i and words[i] < words[j] for j in others):
            continue
        if line not in seen:
            seen.add(line)
            out.append(line)
    return out


# An enumeration marker opening a line of options ("a) Edinburgh b) Glasgow", "(ii) …", "b. …"): lower case as
# written, not a sentence's first word.
_MARKER = re.compile(r"^\(?(?:[a-z]|[ivx]{1,4})[).]\s")


def _join(sentences: Sequence[str | None], paragraphs: Sequence[int]) -> str:
    chunks: list[list[str]] = []
    last: int | None = None
    for text, para in zip(sentences, paragraphs, strict=False):
        if text is None:
            continue
        if last is None or para != last:
            chunks.append([])
            last = para
        # A sentence whose opening words went (a hedge, a deleted clause) starts with a capital all the same.
        opens = not chunks[-1] or chunks[-1][-1].rstrip()[-1:] in ".!?:"  # not after "…;" of a list
        lower = opens and text[:1].islower() and text.split()[0].islower() and not _MARKER.match(text)  # "iPhone"
        chunks[-1].append(text[:1].upper() + text[1:] if lower else text)
    return "\n\n".join(" ".join(c) for c in chunks)
