"""A revision is checked again before it is offered (issue 28.3).

The revised answer is checked with the same engine and configuration, without a revision of its own, once.
It is offered only when

- every check-worthy fact it keeps is supported by its group's page, or is kept as the answer wrote it and
  not refuted;
- it introduces no value the pages state for another relation (a place where he studied, for where he
  teaches): a value not in the answer that :func:`scoring.roles.misplaced_values` finds on the pages only
  in another role.

Otherwise the revision deletes the failing facts' words (with the grammar repair of :mod:`scoring.revise`),
replacing and moving nothing, and a sentence that the deletion would leave as a fragment goes whole.
Each edit records the path it came by in ``decided_by``: :data:`RECHECKED` or :data:`DELETE_FAILING`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING

from schemas.check import CheckResult, Edit, FactResult, Revision
from schemas.enums import Stance, Verdict, Worthiness
from scoring import roles
from scoring.revise import fragment
from scoring.rules import rule
from scoring.verify import CROSSED_VALUE
from vocabulary import fold_ascii

if TYPE_CHECKING:
    from schemas.knowledge import EntityRef
    from scoring.plan import PlannedGroup

RECHECKED = rule(
    "rechecked-revision",
    "revise",
    "a revision is checked again with the same engine and offered only if every fact it keeps is supported (or "
    "kept as written and not refuted) and it brings in no value the pages give for another relation",
)
DELETE_FAILING = rule(
    "delete-failing",
    "revise",
    "a revision the re-check rejects is replaced by one that deletes the failing facts' words with grammar "
    "repair, and deletes whole a sentence the deletion would leave as a fragment",
)


_MARKUP = re.compile(r"[*_#>|`]|(?<=\w)[-‐](?=\w)")
_SPACE = re.compile(r"\s+")


# Texts up to this long (sentences, facts, values) are cached by :func:`_plain`; an answer is not kept.
_CACHED_PLAIN = 1000


def _plain(text: str) -> str:
    """Text compared as words: markup off, hyphens as spaces ("Nwankwo-Hale" is "Nwankwo Hale"), folded case."""
    return _plain_short(text) if len(text) <= _CACHED_PLAIN else _unmarked(text)


@lru_cache(maxsize=8192)
def _plain_short(text: str) -> str:
    """:func:`_plain` of a sentence, a fact or a value, once: a re-check compares each of them many times."""
    return _unmarked(text)


def _words(text: str) -> str:
    """A text's words alone, one space apart: "brandt atelier, strasbourg" is "brandt atelier strasbourg"."""
    return " ".join(re.findall(r"\w+", text))


def _unmarked(text: str) -> str:
    return _SPACE.sub(" ", _MARKUP.sub(" ", text)).strip().casefold()


# A value a fact states: a number (a year, a count) or a run of capitalised words ("Elbe Technical University").
_VALUE = re.compile(r"\b\d[\d,.]*\d\b|\b\d\b|\b[A-ZÀ-Þ][\w'’-]+(?:\s+(?:of\s+|de\s+)?[A-ZÀ-Þ][\w'’-]+)*")
# Clauses of a page: a value stands in the relation of its own clause ("studied at the Elbe Technical University
# and received her doctorate there in 1998": the university is where she studied).
_CLAUSE = re.compile(r"(?<=[.!?;])\s+|\s(?:and|but|while|whereas)\s|;")


# Words that open a sentence capitalised beside a name: "Another Zoë Ferrán-Okafor", "Was Priya Raghunathan …".
_OPENERS = frozenset("another the a an was is has had for in on at by as and but".split())


def _values(text: str, names: tuple[str, ...]) -> list[str]:
    """The values ``text`` states, without the names of whom it is about and a sentence's capitalised opening."""
    out = []
    plain = [_plain(n) for n in names]
    parts = {w for n in names for w in re.split(r"[-\s]+", n) if len(w) > 2 and w[:1].isupper()}
    full = sorted({*(n for n in names if len(_plain(n).split()) > 1), *parts}, key=len, reverse=True)
    spelled = [_spelled(n) for n in full]
    for m in _VALUE.finditer(text):
        if m.start() == 0 and " " not in m.group(0):
            continue
        value = m.group(0)
        for name in spelled:  # "During the Second World War Dick Hanley served": the war, not the man
            value = name.sub("\0", value)
        for v in (v.strip(" -'’") for v in value.split("\0")):
            if re.match(r"[A-ZÀ-Þ0-9]", v) and not any(_plain(v) in n for n in plain) and _plain(v) not in _OPENERS:
                out.append(v)  # not what a name leaves ("'s" of "Ferrán-Okafor's")
    return out


@lru_cache(maxsize=1024)
def _spelled(name: str) -> re.Pattern[str]:
    """A name as written either way: "Nwankwo-Hale" or "Nwankwo Hale" (compiled once per name)."""
    return re.compile(r"\b" + r"[-\s]".join(re.escape(w) for w in re.split(r"[-\s]+", name)) + r"\b")


def rejections(answer: str, first: CheckResult, again: CheckResult, pages: Mapping[str, list[str]]) -> list[str]:
    """Why the re-check ``again`` of a revision of ``answer`` (checked as ``first``) rejects it; [] to offer it.

    A fact whose sentence the revision kept as the answer wrote it (markup aside) is kept as written: it
    passes unless it is refuted. Any other fact must be supported by its group's page; a value it brings in
    (not in the answer) must stand on the page in a clause that shares a predicate word with it; and no value
    of a refuted fact that its page does not hold may be left in the revision.
    """
    written = _plain(answer)
    # The answer's words alone: a value the decomposition read across the answer's punctuation ("Brandt Atelier
    # Strasbourg" of "own practice, Brandt Atelier, Strasbourg") is the answer's, not brought in.
    worded = f" {_words(written)} "
    out = [f"fragment: {s}" for s in again.sentences if _plain(s) not in written and fragment(s)]
    out += _kept_refuted(first, again, pages)
    if again.abstained or again.unverifiable:
        if any(f.worthiness is Worthiness.FACTUAL for g in again.groups for f in g.facts):
            out.append("the revision could not be judged")
        return out
    as_written = {_plain(f.text) for g in first.groups for f in g.facts}
    for group in again.groups:
        names = tuple(n for n in (group.mention, group.entity, *(n for n in (group.mention or "").split())) if n)
        texts = list(pages.get(group.entity or "", []))
        for fact in group.facts:
            if fact.worthiness is not Worthiness.FACTUAL:
                continue
            sentence = again.sentences[fact.sentence_index] if fact.sentence_index < len(again.sentences) else ""
            kept = _plain(sentence) in written or _plain(fact.text) in as_written
            if not _acceptable(fact, kept):
                out.append(f"{'refuted' if fact.stance is Stance.REFUTE else 'not supported'}: {fact.text}")
                continue
            evidence = texts + [e.text for e in fact.evidence if e.title == group.entity]
            for value in _values(fact.text, names):
                if _plain(value) in written or f" {_words(_plain(value))} " in worded:
                    continue
                if not _in_its_role(fact.text, value, names, evidence):
                    out.append(f"another relation's value: {value} in {fact.text}")
    return out


def _in_its_role(fact: str, value: str, names: tuple[str, ...], texts: list[str]) -> bool:
    """Whether ``texts`` hold ``value`` in ``fact``'s relation: where a clause holding it shares a predicate word
    with ``fact``; a birth or death year or place also as :mod:`scoring.roles` reads life roles (a lifespan in
    parentheses, "(12 March 1931 – 8 July 1999)", gives a birth and a death year)."""
    own = roles.role_words(fact, (*names, value))
    folded = fold_ascii(value)
    if own & {roles.BORN, roles.DIED} and any(v.text == folded for v in roles.fact_values(fact, names)):
        attested = bool(roles.value_windows(texts, value))
        if attested and all(v.text != folded for v in roles.misplaced_values(fact, texts, names)):
            return True
    clauses = [c for t in texts for c in _CLAUSE.split(t) if value in c]
    if not own:
        return bool(clauses)
    return any(own & roles.content_stems(re.findall(r"\w+", c.lower())) for c in clauses)


def _kept_refuted(first: CheckResult, again: CheckResult, pages: Mapping[str, list[str]]) -> list[str]:
    """Values of the refuted facts of ``first`` that their page does not hold and the revision still states."""
    revised = " ".join(again.sentences)
    out: list[str] = []
    for group in first.groups:
        names = tuple(n for n in (group.mention, group.entity, *(n for n in (group.mention or "").split())) if n)
        page = " ".join(pages.get(group.entity or "", []))
        for fact in group.facts:
            if fact.worthiness is not Worthiness.FACTUAL or fact.stance is not Stance.REFUTE:
                continue
            if fact.verdict is Verdict.SUPPORTED or fact.decided_by == CROSSED_VALUE:
                # another page's fact: a merged-in namesake's, moved out rather than wrong; a value crossed from a
                # namesake is the namesake's, which their own sentences may keep (the fact itself may not stay:
                # ``_acceptable``)
                continue
            evidence = page + " ".join(e.text for e in fact.evidence)
            for value in _values(fact.text, names):
                if not _held(value, evidence) and re.search(rf"(?<!\w){re.escape(value)}(?!\w)", revised):
                    out.append(f"refuted value kept: {value} in {fact.text}")
    return out


def _held(value: str, evidence: str) -> bool:
    """Whether ``evidence`` holds ``value`` as the value it is, markup and hyphens aside: a name with its capitals
    ("Recurve M" is no value a page holds by saying "a recurve archer"), a number as it is."""
    return _cased(value) in _cased(evidence)


def _cased(text: str) -> str:
    return _SPACE.sub(" ", _MARKUP.sub(" ", text)).strip()


def refuted_values(first: CheckResult, pages: Mapping[str, list[str]]) -> frozenset[str]:
    """The values of ``first``'s refuted facts that their page does not hold: what no revision may keep."""
    out: set[str] = set()
    for group in first.groups:
        names = tuple(n for n in (group.mention, group.entity, *(n for n in (group.mention or "").split())) if n)
        page = " ".join(pages.get(group.entity or "", []))
        for fact in group.facts:
            if fact.worthiness is Worthiness.FACTUAL and fact.stance is Stance.REFUTE:
                if fact.verdict is not Verdict.SUPPORTED and fact.decided_by != CROSSED_VALUE:
                    evidence = page + " ".join(e.text for e in fact.evidence)
                    out |= {v for v in _values(fact.text, names) if not _held(v, evidence)}
    return frozenset(out)


def _acceptable(fact: FactResult, kept_as_written: bool) -> bool:
    if fact.stance is Stance.REFUTE and fact.verdict is not Verdict.SUPPORTED:
        return False
    verdict = fact.verdict_linked or fact.verdict
    return verdict is Verdict.SUPPORTED or kept_as_written


def offer(
    first: Revision,
    answer: str,
    result: CheckResult,
    recheck: Callable[[str], CheckResult],
    delete: Callable[[frozenset[str]], Revision | None],
    pages: Mapping[str, list[str]],
) -> Revision | None:
    """The revision of ``answer`` to offer: ``first`` when its re-check accepts it, else the deletion of the failing
    facts."""
    if first.text.strip() == answer.strip():
        return _stamped(first, RECHECKED)
    again = recheck(first.text)
    why = rejections(answer, result, again, pages)
    if not why:
        return _stamped(first, RECHECKED)
    fallback = delete(refuted_values(result, pages))
    if fallback is None:
        return None
    fallback = _stamped(fallback, DELETE_FAILING)
    fallback.rejected = why
    return fallback


def _stamped(revision: Revision, path: str) -> Revision:
    edits = [Edit(**{**e.model_dump(), "decided_by": path}) for e in revision.edits]
    return Revision(text=revision.text, edits=edits, rejected=list(revision.rejected))


def evidence_texts(groups: list[PlannedGroup], candidates: list[EntityRef]) -> dict[str, list[str]]:
    """Per candidate title, the evidence passages the verdicts of ``groups`` read."""
    out: dict[str, list[str]] = {c.title: [] for c in candidates}
    for g in groups:
        for fact in g.factual:
            for title, verdict in fact.verdicts.items():
                texts = out.setdefault(title, [])
                texts += [e.text for e in verdict.evidence if e.text not in texts]
    return out
