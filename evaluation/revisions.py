"""How suggested revisions read and what they keep, counted over the corpus and the style matrix.

Three questions are asked of every revision, by words alone (not by the checker that made it):

- **keeps a refuted value**: a fact the evidence refutes had a value (a year, a number, a capitalised name)
  that no page of its group holds, and that value is still in the revision (more often than the answer's
  sentences state it in a fact their own group's page supports: a namesake's own "born in Chester" may stay);
  for a group linked to no page, only where one sentence of the revision still states all the fact's values;
- **introduces a value of another relation**: a value the revision brings in (not in the answer) stands on
  the pages only in clauses that share no relation word with the revised clause that says it ("teaches at
  Oxford" from a page that says "studied at Oxford");
- **loses a layout**: the answer's table, bullets, nesting, headings or bold lead-ins are gone while their words
  stay, a fenced JSON or YAML profile no longer parses, a medal given as an emoji is written as a word
  (:func:`lost_layout`);
- **visible faults** of the sentences it changed (:func:`evaluation.corpus.revision_faults`): fragments, a
  dangling pronoun or comma, an empty parenthesis, doubled words.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from schemas.check import CheckResult
from schemas.enums import Stance, Verdict, Worthiness

# A value: a number (a year, a count) or a run of capitalised words ("Harwick College").
_VALUE = re.compile(r"\b\d[\d,.]*\b|\b[A-ZÀ-Þ][\w'’-]+(?:\s+(?:of\s+|the\s+|de\s+)?[A-ZÀ-Þ][\w'’-]+)*")
# Words that open a sentence or name no value.
_NOT_VALUES = frozenset(
    "a an the he she they it his her their its this that these those in on at of for by and but or as after "
    "before during from with another i we you is was were are has had".split()
)
_STOP = frozenset(
    "a an the he she they it his her their its this that these those in on at of for by and but or as after before "
    "during from with was were is are has have had been be also then later there which who when where while into "
    "about than over under another both".split()
)


def values_of(text: str) -> list[str]:
    """The values a text states: numbers and capitalised names (not a sentence's opening pronoun or article)."""
    out = []
    for m in _VALUE.finditer(text):
        value = m.group(0).rstrip(".,")
        words = value.split()
        before = re.sub(r"[\s*_#>|`(\[\-•]+$", "", text[: m.start()])
        if len(words) == 1 and not value[0].isdigit() and (not before or before[-1] in ".!?:;\n"):
            continue  # a sentence's or a label's first word ("Born", "Restaurant"), not a name
        if (not before or before[-1] in ".!?:;\n") and len(words) > 1:
            # A sentence's capitalised first word is no part of a name it opens on: "Married Lorraine Dutton",
            # "Won the Norwegian Cup" (a name that opens one, "Harwick College", loses a word: still a value).
            words = words[2:] if len(words) > 2 and words[1] in ("the", "of") else words[1:]
        while words and words[0].lower() in _NOT_VALUES:
            words = words[1:]
        if words:
            out.append(" ".join(words))
    return out


def _stems(text: str, drop: Iterable[str]) -> set[str]:
    dropped = {w.lower() for d in drop for w in re.findall(r"\w+", d)}
    return {
        w.lower()[:5] for w in re.findall(r"[^\W\d_]{3,}", text) if w.lower() not in _STOP and w.lower() not in dropped
    }


def kept_refuted(result: CheckResult, pages: Mapping[str, str]) -> list[str]:
    """The values of refuted facts that no page of the fact's group holds and the revision still says."""
    if result.revision is None:
        return []
    revised = result.revision.text
    out: list[str] = []
    for group in result.groups:
        page = pages.get(group.entity or "", "")
        for fact in group.facts:
            if fact.worthiness is not Worthiness.FACTUAL or fact.stance is not Stance.REFUTE:
                continue
            if fact.verdict is not Verdict.NOT_SUPPORTED:
                continue
            evidence = " ".join([page, *(e.text for e in fact.evidence)])
            names = [group.mention or "", group.entity or ""]
            if group.entity is None and not _claim_stands(fact.text, names, revised):
                continue
            for value in values_of(fact.text):
                if value in evidence or any(value in n for n in names) or len(value) < 2:
                    continue
                said = re.compile(rf"(?<!\w){re.escape(value)}(?!\w)")
                # A value a namesake's sentences state as theirs (supported by their group's page: "born in Chester"
                # of the rower, crossed to the bishop) may stay there: kept is said more often than those.
                if len(said.findall(revised)) > len(_stated_by_their_page(result, said)):
                    out.append(f"{value} ({fact.text})")
    return out


def _claim_stands(fact: str, names: list[str], revised: str) -> bool:
    """Whether some sentence of the revision still states every value of ``fact`` (its names aside): the claim as
    the answer made it. A group linked to no page has no page to tell which of a refuted fact's values is the wrong
    one (its evidence may be a namesake's page, which holds the crossed value and lacks the right ones), nor where
    else a value may rightly stand: a revision that changed the claim ("born in Scranton, in 1952" → "born in
    Columbus, Ohio, in 1952") keeps no refuted value by words alone; one that left it whole does."""
    values = [v for v in values_of(fact) if len(v) >= 2 and not any(v in n for n in names if n)]
    if not values:
        return True
    return any(all(re.search(rf"(?<!\w){re.escape(v)}(?!\w)", s) for v in values) for s in _sentences(revised))


def _stated_by_their_page(result: CheckResult, said: re.Pattern[str]) -> set[int]:
    """The sentences where a fact its own group's page supports states the value ``said`` matches."""
    return {
        f.sentence_index
        for g in result.groups
        for f in g.facts
        if f.worthiness is Worthiness.FACTUAL and f.verdict_linked is Verdict.SUPPORTED and said.search(f.text)
    }


def other_relation(answer: str, result: CheckResult, pages: Mapping[str, str]) -> list[str]:
    """Values the revision brings in that the pages state only for another relation: no page clause holding
    the value shares a relation word with the revised sentence that says it."""
    if result.revision is None:
        return []
    names = [g.mention or "" for g in result.groups] + [g.entity or "" for g in result.groups]
    written = " ".join(answer.split())  # a value the answer wraps over a line break is still the answer's
    out: list[str] = []
    for sentence in _sentences(result.revision.text):
        for value in values_of(sentence):
            if re.search(rf"(?<!\w){re.escape(value)}(?!\w)", written) or any(value in n for n in names if n):
                continue
            others = [v for v in values_of(sentence) if v != value and not any(v in n for n in names if n)]
            words = _stems(sentence, [value, *names, *others])
            holding = [c for body in pages.values() if value in body for c in _page_clauses(body) if value in c]
            if not holding or not (words or others):
                continue  # a value no page holds is another fault (an invention), not a crossed relation
            # In its relation: a clause holding it shares a relation word with the sentence, or another of the
            # sentence's values ("Lindeman Prize (1962)" from "received the Lindeman Prize in 1962").
            if not any(words & _stems(c, [value, *names]) or any(v in c for v in others) for c in holding):
                out.append(f"{value} ({sentence.strip()})")
    return out


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+|\n+", text) if s.strip()]


def _page_clauses(text: str) -> list[str]:
    """A page's clauses: its sentences cut at semicolons and at "and", "but", "while" before a lower-case word
    (not at commas, which hold appositions: "In 1995 she founded her own practice, Brandt Atelier, in
    Strasbourg"; not in "in 1994 and 1997")."""
    return [c for c in re.split(r"(?<=[.!?])\s+|;|\s(?:and|but|while|whereas)\s(?=[a-z])", text) if c.strip()]


_LAYOUTS = {
    "table": re.compile(r"^\s*\|.*\|\s*$"),
    "bullets": re.compile(r"^\s*(?:[-*+•]|\d{1,2}[.)])\s+\S"),
    "nesting": re.compile(r"^[ \t]{2,}(?:[-*+•]|\d{1,2}[.)])\s+\S"),
    "headings": re.compile(r"^\s*#{1,6}\s+\S"),
    "bold": re.compile(r"\*\*[^*\n]+\*\*|__[^_\n]+__"),
}
_FENCE_BLOCK = re.compile(r"^\s*(?:```|~~~)\s*(json|ya?ml)\s*\n(.*?)\n\s*(?:```|~~~)\s*$", re.MULTILINE | re.DOTALL)
_MEDAL_WORDS = {"🥇": "Gold", "🥈": "Silver", "🥉": "Bronze"}


def _words_of(text: str) -> set[str]:
    return {w.casefold() for w in re.findall(r"[^\W\d_]{4,}", text)}


def lost_layout(answer: str, revised: str) -> list[str]:
    """The layouts of ``answer`` its revision lost, by words alone: a table, bullets, their nesting, headings or bold
    lead-ins the revision has none of while it still says at least half the words of one such line; a fenced JSON
    or YAML profile that no longer parses (or whose fence went while its words stayed); a medal the answer gave as
    an emoji written as a word."""
    said = _words_of(revised)
    lines = revised.splitlines()
    out: list[str] = []
    for name, pattern in _LAYOUTS.items():
        marked = [line for line in answer.splitlines() if pattern.search(line)]
        if not marked or any(pattern.search(line) for line in lines):
            continue
        if any(
            (w := _words_of(pattern.sub(" ", line) if name == "bold" else line)) and len(w & said) * 2 >= len(w)
            for line in marked
        ):
            out.append(name)
    fences = {m.group(1)[0]: m.group(2) for m in _FENCE_BLOCK.finditer(revised)}
    for m in _FENCE_BLOCK.finditer(answer):
        kind, body = m.group(1)[0], m.group(2)
        if not _parses(body, kind):
            continue
        if kind in fences:
            if not _parses(fences[kind], kind):
                out.append(f"{m.group(1)}-invalid")
        elif (w := _words_of(body)) and len(w & said) * 2 >= len(w):
            out.append(f"{m.group(1)}-fence")
    for emoji, word in _MEDAL_WORDS.items():
        if emoji in answer and word not in answer and re.search(rf"\b{word}\b", revised):
            out.append("medal-emoji")
            break
    return out


def _parses(text: str, kind: str) -> bool:
    import json

    import yaml

    try:
        json.loads(text) if kind == "j" else yaml.safe_load(text)
    except Exception:
        return False
    return True


@dataclass
class RevisionTally:
    """Counts over many answers' revisions."""

    revised: int = 0
    changed: int = 0
    hedged: int = 0
    keeps_refuted: list[dict[str, Any]] = field(default_factory=list)
    introduces_other_relation: list[dict[str, Any]] = field(default_factory=list)
    faults: list[dict[str, Any]] = field(default_factory=list)
    layouts: list[dict[str, Any]] = field(default_factory=list)
    paths: Counter[str] = field(default_factory=Counter)

    def add(self, id_: str, answer: str, result: CheckResult | None, pages: Mapping[str, str]) -> None:
        from evaluation.corpus import changed_sentences, revision_faults, sentences_of
        from scoring.hedges import strip_hedges

        if result is None or result.revision is None:
            return
        self.revised += 1
        self.paths.update(e.decided_by or "none" for e in result.revision.edits)
        edited = changed_sentences(answer, result.revision.text)
        self.changed += len(edited)
        self.hedged += sum(strip_hedges(s)[2] for s in sentences_of(result.revision.text))
        self.faults += [{"id": id_, "faults": found, "sentence": s} for s in edited if (found := revision_faults(s))]
        if found := kept_refuted(result, pages):
            self.keeps_refuted.append({"id": id_, "values": found})
        if found := lost_layout(answer, result.revision.text):
            self.layouts.append({"id": id_, "lost": found})
        if found := other_relation(answer, result, pages):
            self.introduces_other_relation.append({"id": id_, "values": found})

    def figures(self) -> dict[str, Any]:
        return {
            "revised_answers": self.revised,
            "sentences_changed": self.changed,
            "with_faults": len(self.faults),
            "hedged_sentences": self.hedged,
            "by_fault": dict(Counter(k for f in self.faults for k in f["faults"]).most_common()),
            "keeps_refuted_value": len(self.keeps_refuted),
            "introduces_other_relation": len(self.introduces_other_relation),
            "loses_layout": len(self.layouts),
            "by_layout_lost": dict(Counter(k for f in self.layouts for k in f["lost"]).most_common()),
            "edits_by_path": dict(self.paths.most_common()),
            "faulty": self.faults,
            "keeping_refuted": self.keeps_refuted,
            "introducing_other_relation": self.introduces_other_relation,
            "losing_layout": self.layouts,
        }
