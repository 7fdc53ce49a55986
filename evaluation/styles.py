"""A style × kind matrix of our own: answers generated from the corpus store's pages in the layouts chat
models use (prose, bullets, tables, timelines, JSON, …) × the kinds of the corpus (faithful, wrong value,
merged namesakes, refusal, …), each checked with the expectations that follow from how it was made.

The hand-written corpus (:mod:`evaluation.corpus`) has a few answers per layout; the matrix has at least
ten per layout × kind cell, so a layout that breaks the checker shows as a cell below its neighbours. The
facts come from per-person profiles (``styles_data/profiles.json``): sentences taken from or faithful to
each page of ``tests/corpus/kb``, the values that can be planted wrong and the same facts in other words.
Answers are generated deterministically: the same seed, layout, kind and number give the same answer,
and the first N answers of a cell are the same whatever ``limit`` asks for.

Expectations are the corpus's (:func:`evaluation.corpus.judge`) plus ``none_refuted`` (no fact is refuted
by the evidence):

==============  ===========================================================================================
kind            passes when
==============  ===========================================================================================
faithful        checked, linked to its page, not conflated, D-FActScore ≥ 0.75, no fact refuted
wrong-value     the planted value is in a fact that is not supported
invented-award  the made-up award is in a fact that is not supported
merged          two namesakes' facts told as one person: conflated and D-FActScore below FActScore
separated       two namesakes told as two people: not conflated, ≥ 2 bios, 2 pages, D-FS ≥ 0.75, none refuted
crossed         told as two people with one fact moved from one to the other: ≥ 2 bios, that fact not
                supported by its group's page
paraphrase      the faithful facts in other words: as faithful
hedged          the faithful facts, some behind "I believe …": as faithful
refusal         abstained
out-of-store    a person with no page: unverifiable
==============  ===========================================================================================
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from random import Random
from typing import Any

from evaluation.corpus import DEFAULT_CORPUS, THRESHOLD, blocked, judge, load, refuted
from evaluation.engines import Engine
from evaluation.errors import EvaluationError
from evaluation.progress import Outcome, Progress, silent
from evaluation.revisions import RevisionTally
from schemas.check import CheckResult

DATA = Path(__file__).resolve().parent / "styles_data"
SEED = "factsentry-styles-1"
PER_CELL = 10

LAYOUTS = (
    "prose",
    "bullets",
    "nested-bullets",
    "headings",
    "bold-lead-ins",
    "table-rows",
    "table-columns",
    "timeline",
    "json",
    "yaml",
    "citations",
    "short-answer-first",
    "q-and-a",
    "one-liner",
    "rambling",
)
KINDS = (
    "faithful",
    "wrong-value",
    "invented-award",
    "merged",
    "separated",
    "crossed",
    "paraphrase",
    "hedged",
    "refusal",
    "out-of-store",
)
# Kinds whose answers a careful human would pass: the ones a policy must not block.
CORRECT = ("faithful", "separated", "paraphrase", "hedged")


# --- the data ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fact:
    """One fact of a profile: ``says`` follows the person as subject ("was born in Kraków in 1968")."""

    label: str
    year: str | None
    says: str
    note: str
    para: str = ""
    key: str = ""
    wrong: tuple[str, str] | None = None


@dataclass(frozen=True)
class Profile:
    name: str
    tag: str  # what tells namesakes apart: "cellist"
    role: str  # "Polish cellist and teacher"
    pron: str  # "she" / "he"
    be: str  # "is" / "was"
    facts: tuple[Fact, ...]
    title: str | None = None  # the page's title; None for a person with no page
    surname: str = ""


@dataclass(frozen=True)
class Data:
    profiles: tuple[Profile, ...]
    outsiders: tuple[Profile, ...]
    templates: dict[str, Any]

    def namesakes(self) -> list[tuple[Profile, Profile]]:
        """Every ordered pair of profiles that share a name (the store's namesakes)."""
        by_name: dict[str, list[Profile]] = defaultdict(list)
        for p in self.profiles:
            by_name[p.name].append(p)
        return [(a, b) for group in by_name.values() for a in group for b in group if a is not b]


def _profile(doc: dict[str, Any]) -> Profile:
    facts = tuple(
        Fact(
            f["label"],
            f.get("year"),
            f["says"],
            f["note"],
            f.get("para", ""),
            f.get("key", ""),
            (f["wrong"][0], f["wrong"][1]) if f.get("wrong") else None,
        )
        for f in doc["facts"]
    )
    return Profile(
        doc["name"],
        doc["tag"],
        doc["role"],
        doc["pron"],
        doc["be"],
        facts,
        doc.get("title"),
        doc.get("surname") or doc["name"].split()[-1],
    )


def load_data(folder: Path = DATA) -> Data:
    """The profiles and templates (a clear error for a missing or malformed file)."""
    try:
        doc = json.loads((folder / "profiles.json").read_text(encoding="utf-8"))
        templates = json.loads((folder / "templates.json").read_text(encoding="utf-8"))
        return Data(
            tuple(_profile(p) for p in doc["profiles"]),
            tuple(_profile(p) for p in doc["outsiders"]),
            templates,
        )
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise EvaluationError(f"the styles matrix's data in {folder} cannot be read ({e})") from e


def data_problems(data: Data, pages: Sequence[tuple[str, str, list[str]]]) -> list[str]:
    """What in the profiles does not hold with the store's pages: a profile without a page, a fact whose key
    is not on its page or not in its own wording, a wrong value that is not in the fact it replaces, an
    outsider who shares a word of his name with the store."""
    text = {title: body for title, body, _ in pages}
    store = " ".join(f"{title} {body}" for title, body, _ in pages)
    problems: list[str] = []
    for p in data.profiles:
        page = text.get(p.title or "")
        if page is None:
            problems.append(f"{p.title}: no page of that title")
            continue
        for f in p.facts:
            where = f"{p.title} / {f.label}"
            if not f.key or f.key.casefold() not in page.casefold():
                problems.append(f"{where}: key {f.key!r} is not on the page")
            for wording in (f.says, f.note):
                if f.key.casefold() not in wording.casefold():
                    problems.append(f"{where}: key {f.key!r} not in {wording!r}")
                if f.wrong and f.wrong[0] not in wording:
                    problems.append(f"{where}: wrong value {f.wrong[0]!r} not in {wording!r}")
            if not f.para:
                problems.append(f"{where}: no paraphrase")
            if f.wrong and re.search(rf"\b{re.escape(f.wrong[1])}\b", f.says.replace(f.wrong[0], "")):
                problems.append(f"{where}: the planted value {f.wrong[1]!r} is already in the fact")
    for p in data.outsiders:
        for word in p.name.split():
            if re.search(rf"\b{re.escape(word)}\b", store):
                problems.append(f"outsider {p.name}: {word!r} is in the store")
    for award in data.templates["awards"]:
        if award.casefold() in store.casefold():
            problems.append(f"award {award!r} is in the store")
    return problems


# --- what an answer tells ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Told:
    """A fact as the answer tells it (its wording after the kind's change: paraphrased, wrong, hedged)."""

    label: str
    year: str | None
    says: str
    note: str
    hedge: str = ""  # "I believe" before the sentence
    hedge_note: str = ""  # "(I think)" after the value


@dataclass(frozen=True)
class Person:
    """One person as the answer presents them."""

    name: str
    tag: str
    role: str
    pron: str
    be: str
    surname: str
    facts: tuple[Told, ...]

    @property
    def poss(self) -> str:
        return "her" if self.pron == "she" else "his"


@dataclass(frozen=True)
class Case:
    """One generated answer, with what it must show."""

    id: str
    layout: str
    kind: str
    question: str
    name: str
    answer: str
    expect: dict[str, Any]
    none_refuted: bool = False
    planted: str | None = None  # the value, award or fact planted wrong


def _told(f: Fact, *, para: bool = False) -> Told:
    return Told(f.label, f.year, f.para if para and f.para else f.says, f.note)


def _person(p: Profile, facts: Sequence[Told]) -> Person:
    return Person(p.name, p.tag, p.role, p.pron, p.be, p.surname, tuple(facts))


# --- writing -----------------------------------------------------------------------------------------------


def _a(phrase: str) -> str:
    return f"an {phrase}" if phrase[:1].lower() in "aeiou" else f"a {phrase}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _item(says: str) -> str:
    """A predicate as a list item without its subject: 'was born in …' → 'Born in …'."""
    if says.startswith("was born "):
        says = says[4:]
    return _cap(says)


def _sentence(subject: str, t: Told) -> str:
    if t.hedge:
        low = subject if subject[:1].isupper() and subject.lower() not in ("she", "he") else subject.lower()
        return f"{t.hedge} {low} {t.says}."
    return f"{_cap(subject)} {t.says}."


def _trailing(hedge: str) -> str:
    """A hedge moved after what it hedges: 'If I recall correctly,' → 'if I recall correctly'."""
    hedge = hedge.rstrip(",")
    return hedge if hedge.startswith("I ") else hedge[:1].lower() + hedge[1:]


def _value(t: Told) -> str:
    return f"{t.note} {t.hedge_note}" if t.hedge_note else t.note


class Writer:
    """Writes the people of one answer in one layout; ``rng`` varies the wording within the layout."""

    def __init__(self, data: Data, rng: Random) -> None:
        self.t = data.templates
        self.rng = rng

    # subjects: the name first, then the pronoun (or, for one person, now and then the surname)
    def _subjects(self, p: Person, single: bool, start: int = 1) -> list[str]:
        out = []
        for k in range(len(p.facts)):
            if k + start == 0:
                out.append(p.name)
            elif single and self.rng.random() < 0.25:
                out.append(p.surname)
            else:
                out.append(p.pron)
        return out

    def _sentences(self, p: Person, single: bool, start: int = 1) -> list[str]:
        return [_sentence(s, t) for s, t in zip(self._subjects(p, single, start), p.facts, strict=True)]

    def _intro(self, p: Person) -> str:
        return f"{p.name} {p.be} {_a(p.role)}."

    def _two(self, people: Sequence[Person]) -> str:
        return f"There are two notable people named {people[0].name}."

    def _hedged(self, people: Sequence[Person]) -> bool:
        return any(t.hedge or t.hedge_note for p in people for t in p.facts)

    def _disclaimer(self, people: Sequence[Person]) -> str:
        return "\n\n" + self.rng.choice(self.t["disclaimers"]) if self._hedged(people) else ""

    def write(self, layout: str, people: Sequence[Person]) -> str:
        text = str(getattr(self, "w_" + layout.replace("-", "_"))(people))
        return text + self._disclaimer(people)

    def w_prose(self, people: Sequence[Person]) -> str:
        if len(people) == 1:
            p = people[0]
            sents = [self._intro(p), *self._sentences(p, True)]
            cut = self.rng.randint(2, max(2, len(sents) - 1))
            return " ".join(sents[:cut]) + ("\n\n" + " ".join(sents[cut:]) if sents[cut:] else "")
        paras = [self._two(people)]
        for k, p in enumerate(people):
            lead = f"{'One' if k == 0 else 'The other'} {p.name} {p.be} {_a(p.role)}."
            paras.append(" ".join([lead, *self._sentences(p, False)]))
        return "\n\n".join(paras)

    def _bullets(self, p: Person, subjectless: bool) -> list[str]:
        if subjectless:
            return [f"- {_item(t.says)}{', ' + _trailing(t.hedge) if t.hedge else ''}." for t in p.facts]
        return [f"- {s}" for s in self._sentences(p, False)]

    def w_bullets(self, people: Sequence[Person]) -> str:
        subjectless = self.rng.random() < 0.5
        if len(people) == 1:
            p = people[0]
            return "\n".join([f"{self._intro(p)} Key facts:", "", *self._bullets(p, subjectless)])
        out = [self._two(people)]
        for p in people:
            out += [
                "",
                f"{p.name}, the {p.tag}:",
                f"- {_cap(p.pron)} {p.be} {_a(p.role)}.",
                *self._bullets(p, subjectless),
            ]
        return "\n".join(out)

    def w_nested_bullets(self, people: Sequence[Person]) -> str:
        out = [self._two(people) if len(people) > 1 else self.rng.choice(self.t["openers"]).format(name=people[0].name)]
        out = [o for o in out if o] + ([""] if out[0] else [])
        for p in people:
            head = f"- **{p.name}** — {p.role}" if len(people) == 1 else f"- **{p.name}** ({p.tag}) — {p.role}"
            out.append(head)
            for t in p.facts:
                out.append(f"  - {t.label}")
                body = f"{t.hedge} {p.pron} {t.says}." if t.hedge else f"{_item(t.says)}."
                out.append(f"    - {body}")
        return "\n".join(out)

    def w_headings(self, people: Sequence[Person]) -> str:
        if len(people) == 1:
            p = people[0]
            return f"## {p.name}\n\n" + " ".join([self._intro(p), *self._sentences(p, True)])
        out = [self._two(people)]
        comma = self.rng.random() < 0.5
        for p in people:
            head = f"### {p.name}, {p.tag}" if comma else f"### {p.name} ({p.tag})"
            out += [head, " ".join([f"{p.name} {p.be} {_a(p.role)}.", *self._sentences(p, False)])]
        return "\n\n".join(out)

    def w_bold_lead_ins(self, people: Sequence[Person]) -> str:
        if len(people) == 1:
            p = people[0]
            out = [f"**{p.name}** {p.be} {_a(p.role)}."]
            for s, t in zip(self._subjects(p, False), p.facts, strict=True):
                out.append(f"**{t.label}.** {_sentence(s, t)}")
            return "\n\n".join(out)
        out = [self._two(people)]
        for p in people:
            lead = f"**{p.name}, {p.tag}.**"
            out.append(" ".join([lead, f"{_cap(p.pron)} {p.be} {_a(p.role)}.", *self._sentences(p, False)]))
        return "\n\n".join(out)

    def _table(self, rows: list[list[str]]) -> str:
        lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
        return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows[1:]])

    def _lead(self, people: Sequence[Person]) -> str:
        if len(people) > 1:
            return f"There are two notable people named {people[0].name}:"
        return f"Here is a quick profile of {people[0].name}:"

    def _col_name(self, p: Person, people: Sequence[Person]) -> str:
        return p.name if len(people) == 1 else f"{p.name} ({p.tag})"

    def w_table_rows(self, people: Sequence[Person]) -> str:
        rows = [["Name", "Description", "Born", "Highlights"]]
        for p in people:
            born = next((_value(t) for t in p.facts if t.label == "Born"), "—")
            rest = "; ".join(_value(t) for t in p.facts if t.label != "Born")
            rows.append([self._col_name(p, people), p.role, born, rest])
        return f"{self._lead(people)}\n\n{self._table(rows)}"

    def w_table_columns(self, people: Sequence[Person]) -> str:
        labels: list[str] = []
        for p in people:
            labels += [t.label for t in p.facts if t.label not in labels]
        rows = [["", *(self._col_name(p, people) for p in people)], ["Description", *(p.role for p in people)]]
        for label in labels:
            cells = ["; ".join(_value(t) for t in p.facts if t.label == label) or "—" for p in people]
            rows.append([label, *cells])
        return f"{self._lead(people)}\n\n{self._table(rows)}"

    def w_timeline(self, people: Sequence[Person]) -> str:
        out = [self._two(people)] if len(people) > 1 else []
        for p in people:
            head = f"**{p.name}** — {p.role}" if len(people) == 1 else f"**{p.name} ({p.tag})** — {p.role}"
            items = []
            for t in sorted(p.facts, key=lambda t: t.year or "9999"):
                body = f"{t.hedge} {p.pron} {t.says}." if t.hedge else f"{_item(t.says)}."
                items.append(f"- **{t.year}** — {body}")
            out.append(head + "\n\n" + "\n".join(items))
        return "\n\n".join(out)

    def _record(self, p: Person) -> dict[str, Any]:
        rec: dict[str, Any] = {"name": p.name, "description": p.role}
        for t in p.facts:
            key = re.sub(r"\W+", "_", t.label.lower()).strip("_")
            if key in rec:
                rec[key] = [*rec[key], _value(t)] if isinstance(rec[key], list) else [rec[key], _value(t)]
            else:
                rec[key] = _value(t)
        return rec

    def w_json(self, people: Sequence[Person]) -> str:
        doc: Any = self._record(people[0]) if len(people) == 1 else {"people": [self._record(p) for p in people]}
        lead = (
            "Here is the profile as JSON:"
            if len(people) == 1
            else f"There are two notable people named {people[0].name}; here they are as JSON:"
        )
        return f"{lead}\n\n```json\n{json.dumps(doc, indent=2, ensure_ascii=False)}\n```"

    @staticmethod
    def _yaml_scalar(value: str) -> str:
        if re.search(r":\s|#|^[\"'\[{&*!|>%@`-]|^\d+$|^\d+, ", value) or value != value.strip():
            return json.dumps(value, ensure_ascii=False)
        return value

    def _yaml(self, rec: dict[str, Any], indent: str, first: str) -> list[str]:
        lines = []
        for n, (key, value) in enumerate(rec.items()):
            pad = first if n == 0 else indent
            if isinstance(value, list):
                lines.append(f"{pad}{key}:")
                lines += [f"{indent}  - {self._yaml_scalar(v)}" for v in value]
            else:
                lines.append(f"{pad}{key}: {self._yaml_scalar(value)}")
        return lines

    def w_yaml(self, people: Sequence[Person]) -> str:
        if len(people) == 1:
            lines = self._yaml(self._record(people[0]), "", "")
            lead = "Here is the profile as YAML:"
        else:
            lines = ["people:"]
            for p in people:
                lines += self._yaml(self._record(p), "    ", "  - ")
            lead = f"There are two notable people named {people[0].name}; here they are as YAML:"
        return f"{lead}\n\n```yaml\n" + "\n".join(lines) + "\n```"

    def w_citations(self, people: Sequence[Person]) -> str:
        sources: list[str] = []
        paras = [self._two(people)] if len(people) > 1 else []
        for k, p in enumerate(people):
            label = p.name if len(people) == 1 else f"{p.name} ({p.tag})"
            mine = [len(sources) + j + 1 for j in range(2)]
            sources += [s.format(name=label) for s in self.rng.sample(self.t["sources"], 2)]
            lead = (
                self._intro(p)
                if len(people) == 1
                else f"{'One' if k == 0 else 'The other'} {p.name} {p.be} {_a(p.role)}."
            )
            sents = [lead, *self._sentences(p, len(people) == 1)]
            paras.append(" ".join(f"{s[:-1]} [{mine[j % 2]}]." for j, s in enumerate(sents)))
        listing = "\n".join(f"[{n}] {s}" for n, s in enumerate(sources, 1))
        head = self.rng.choice(["Sources:", "**Sources**", "References:"])
        return "\n\n".join(paras) + f"\n\n{head}\n{listing}"

    def w_short_answer_first(self, people: Sequence[Person]) -> str:
        label = self.rng.choice(["**Short answer:**", "**TL;DR:**", "**In short:**", "Short answer:"])
        details = self.rng.choice(["**Details:**", "**The longer version:**", "**More detail:**"])
        if len(people) == 1:
            p = people[0]
            short = f"{label} {p.name} {p.be} {_a(p.role)}."
            body = " ".join(self._sentences(p, True, start=0))
            return f"{short}\n\n{details}\n\n{body}"
        short = (
            f"{label} There are two notable people named {people[0].name}: "
            f"{_a(people[0].role)} and {_a(people[1].role)}."
        )
        paras = [
            " ".join([f"{'One' if k == 0 else 'The other'} {p.name} {p.be} {_a(p.role)}.", *self._sentences(p, False)])
            for k, p in enumerate(people)
        ]
        return "\n\n".join([short, details, *paras])

    def _question(self, t: Told, p: Person, k: int) -> str:
        q = self.t["questions"].get(t.label)
        if q is None:
            q = self.t["generic_questions"][k % len(self.t["generic_questions"])]
        return _cap(q.format(pron=p.pron, poss=p.poss))

    def w_q_and_a(self, people: Sequence[Person]) -> str:
        bold = self.rng.random() < 0.5

        def qa(q: str, a: str) -> str:
            return f"**Q: {q}**\nA: {a}" if bold else f"Q: {q}\nA: {a}"

        if len(people) == 1:
            p = people[0]
            out = [qa(f"Who {p.be} {p.name}?", self._intro(p))]
            for k, (s, t) in enumerate(zip(self._subjects(p, True), p.facts, strict=True)):
                out.append(qa(self._question(t, p, k), _sentence(s, t)))
            return "\n\n".join(out)
        first, second = people
        out = [
            qa(
                f"Is there more than one {first.name}?",
                f"Yes. There are two notable people of that name: {_a(first.role)} and {_a(second.role)}.",
            )
        ]
        for p in people:
            out.append(
                qa(
                    f"What about the {p.tag}?",
                    " ".join([f"{p.name} the {p.tag} {p.be} {_a(p.role)}.", *self._sentences(p, False)]),
                )
            )
        return "\n\n".join(out)

    def _clause(self, p: Person, facts: Sequence[Told]) -> str:
        parts = [t.says for t in facts]
        said = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
        return f"{_a(p.role)} who {said}"

    def w_one_liner(self, people: Sequence[Person]) -> str:
        hedge = next((t.hedge for p in people for t in p.facts if t.hedge), "")
        if len(people) == 1:
            p = people[0]
            line = f"{p.name} {p.be} {self._clause(p, p.facts)}."
        else:
            a, b = people
            line = (
                f"There are two: {a.name} the {a.tag}, {self._clause(a, a.facts)}, "
                f"and {b.name} the {b.tag}, {self._clause(b, b.facts)}."
            )
        if hedge:
            return f"{hedge} {line[0].lower() + line[1:] if line.startswith('There') else line}"
        return line

    def w_rambling(self, people: Sequence[Person]) -> str:
        fillers = self.rng.sample(self.t["fillers"], len(self.t["fillers"]))
        transitions = list(self.t["transitions"])
        opening = self.rng.choice(
            ["Great question! ", "Oh, this is a fun one. ", "Sure, happy to walk through this. ", ""]
        )
        paras: list[str] = []
        if len(people) > 1:
            paras.append(
                f"{opening}{self._two(people)} I'll take them one at a time, since it's easy to mix them up. "
                + fillers.pop()
            )
        for k, p in enumerate(people):
            intro = (
                f"{p.name} {p.be} {_a(p.role)}."
                if len(people) == 1
                else f"{'One' if k == 0 else 'The other'} {p.name} {p.be} {_a(p.role)}."
            )
            if len(people) == 1:
                intro = opening + intro
            paras.append(f"{intro} {fillers.pop()} {fillers.pop()}")
            sents = self._sentences(p, len(people) == 1)
            for j in range(0, len(sents), 2):
                chunk = sents[j : j + 2]
                lead = transitions[(j // 2) % len(transitions)] if len(people) == 1 and j // 2 < 3 else ""
                if lead:
                    pronoun = chunk[0].split()[0] in ("She", "He")
                    chunk[0] = f"{lead} {chunk[0][0].lower() + chunk[0][1:] if pronoun else chunk[0]}"
                paras.append(" ".join([*chunk, fillers.pop(), fillers.pop()]))
        closing = "I hope that helps, and let me know if you'd like more on any part of it."
        while len(" ".join(paras).split()) < 600 and len(fillers) >= 2:
            paras.insert(len(paras) - 1, f"{fillers.pop()} {fillers.pop()}")
        paras.append(closing)
        return "\n\n".join(paras)


def refusal(data: Data, layout: str, name: str, rng: Random) -> str:
    """A refusal about ``name`` laid out as ``layout`` (no claim about anyone)."""
    t = data.templates
    say = str(rng.choice(t["refusals"])).format(name=name)
    more = rng.sample(t["refusal_fillers"], len(t["refusal_fillers"]))
    if layout in ("prose", "citations", "headings", "bold-lead-ins"):
        body = f"{say} {more[0]}"
        if layout == "headings":
            return f"### {name}\n\n{body}"
        if layout == "bold-lead-ins":
            return f"**{name}.** {body}"
        if layout == "citations":
            return f"{body}\n\nSources: none that I can vouch for."
        return body
    if layout == "bullets":
        return f"{say}\n\n- {more[0]}\n- {more[1]}"
    if layout == "nested-bullets":
        return f"- **{name}**\n  - {say}\n  - Where to look instead\n    - {more[2]}"
    if layout == "table-rows":
        return f"{say}\n\n| Name | What I can tell you |\n|---|---|\n| {name} | No reliable information available |"
    if layout == "table-columns":
        return f"{say}\n\n| | {name} |\n|---|---|\n| Information | Not available to me |"
    if layout == "timeline":
        return f"I can't build a timeline for {name}. {say}"
    if layout == "json":
        doc = {"name": name, "information": None, "note": say}
        return f"```json\n{json.dumps(doc, indent=2, ensure_ascii=False)}\n```"
    if layout == "yaml":
        return f"```yaml\nname: {name}\ninformation: null\nnote: {json.dumps(say, ensure_ascii=False)}\n```"
    if layout == "short-answer-first":
        return f"**Short answer:** I don't know.\n\n**Details:** {say} {more[0]}"
    if layout == "q-and-a":
        return f"**Q: Who is {name}?**\nA: {say}\n\n**Q: Where could I find out more?**\nA: {more[2]}"
    if layout == "one-liner":
        return say
    if layout == "rambling":  # a long apology and advice, no claim about anyone
        paras = [say]
        while len(" ".join(paras).split()) < 600 and len(more) >= 3:
            paras.append(f"{more.pop()} {more.pop()} {more.pop()}")
        return "\n\n".join(paras)
    raise EvaluationError(f"unknown layout {layout!r}")


# --- generating a cell -------------------------------------------------------------------------------------


def _count(text: str, value: str) -> int:
    return len(re.findall(rf"(?<!\w){re.escape(value)}(?!\w)", text, flags=re.IGNORECASE))


def _pick(rng: Random, facts: Sequence[Fact], n: int, layout: str) -> list[Fact]:
    """``n`` facts of a profile, the birth first and the rest in the profile's order (timelines: dated only)."""
    born = [f for f in facts if f.label == "Born"]
    rest = [f for f in facts if f.label != "Born" and (layout != "timeline" or f.year)]
    chosen = set(rng.sample(range(len(rest)), min(n - len(born), len(rest))))
    return born + [f for i, f in enumerate(rest) if i in chosen]


def _size(layout: str, rng: Random, people: int) -> int:
    if layout == "one-liner":  # the birth and two facts (one per person), the birth left out by _facts_only
        return 3 if people == 1 else 2
    if layout == "rambling":  # every fact of one person; five of each of two, so one is left to move
        return 99 if people == 1 else 5
    return rng.randint(4, 6) if people == 1 else rng.randint(3, 4)


def _facts_only(layout: str, picked: list[Fact]) -> list[Fact]:
    """A one-liner tells no birth (its clause would read 'who was born …')."""
    return [f for f in picked if f.label != "Born"] if layout == "one-liner" else picked


def _order(seed: str, layout: str, kind: str, n: int) -> list[int]:
    order = list(range(n))
    Random(f"{seed}:{layout}:{kind}:order").shuffle(order)
    return order


def generate(
    data: Data, layout: str, kind: str, index: int, *, seed: str = SEED, pages: dict[str, str] | None = None
) -> Case:
    """Answer ``index`` of the cell ``layout`` × ``kind``: deterministic for a seed."""
    if layout not in LAYOUTS:
        raise EvaluationError(f"unknown layout {layout!r}; choose from {', '.join(LAYOUTS)}")
    if kind not in KINDS:
        raise EvaluationError(f"unknown kind {kind!r}; choose from {', '.join(KINDS)}")
    pages = pages or {}
    # An answer whose planted value would be ambiguous (said twice, or true of the page) is drawn again from
    # the next subject in the cell's order.
    for attempt in range(40):
        rng = Random(f"{seed}:{layout}:{kind}:{index}:{attempt}")
        case = _generate(data, layout, kind, index + attempt * 7, rng, seed, pages)
        if case is not None:
            return replace(case, id=f"{layout}/{kind}/{index:02d}")
    raise EvaluationError(f"no answer could be generated for {layout} × {kind} #{index}")


def _generate(
    data: Data, layout: str, kind: str, index: int, rng: Random, seed: str, pages: dict[str, str]
) -> Case | None:
    w = Writer(data, rng)
    t = data.templates
    if kind == "refusal":
        names = sorted({p.name for p in data.profiles})
        name = names[_order(seed, layout, kind, len(names))[index % len(names)]]
        question = rng.choice(["Tell me about {n}.", "Who is {n}?", "What do you know about {n}?"]).format(n=name)
        return Case("", layout, kind, question, name, refusal(data, layout, name, rng), {"status": "abstained"})
    if kind in ("merged", "separated", "crossed"):
        # a different name for each answer of a cell while names last, then the name's other pairs
        names = sorted({a.name for a, _ in data.namesakes()})
        name = names[_order(seed, layout, kind, len(names))[index % len(names)]]
        pairs = [(a, b) for a, b in data.namesakes() if a.name == name]
        first, second = pairs[_order(seed, layout, kind + name, len(pairs))[index // len(names) % len(pairs)]]
        return _two(data, w, layout, kind, first, second, rng, pages)
    pool = data.outsiders if kind == "out-of-store" else data.profiles
    p = pool[_order(seed, layout, kind, len(pool))[index % len(pool)]]
    facts = _facts_only(layout, _pick(rng, p.facts, _size(layout, rng, 1), layout))
    told = [_told(f, para=kind == "paraphrase") for f in facts]
    question = rng.choice(
        ["Tell me about {n}.", "Who is {n}?", "Give me a short bio of {n}.", "What is {n} known for?"]
    )
    question = question.format(n=p.name)
    planted = None
    if kind == "wrong-value":
        options = [i for i, f in enumerate(facts) if f.wrong]
        if not options:
            return None
        i = rng.choice(options)
        old, new = facts[i].wrong  # type: ignore[misc]
        told[i] = replace(told[i], says=told[i].says.replace(old, new), note=told[i].note.replace(old, new))
        planted = new
    elif kind == "invented-award":
        award = rng.choice(t["awards"])
        years = sorted(int(f.year) for f in p.facts if f.year and f.label != "Born")
        year = str(rng.randint(years[0], years[-1])) if years else "1990"
        new = Told("Award", year, f"received the {award} in {year}", f"{award} ({year})")
        told.insert(rng.randint(1, len(told)), new)
        if layout == "one-liner":
            told = told[-2:] if told[-1] is new else [told[0], new]
        planted = award
    elif kind == "hedged":
        chosen = rng.sample(range(len(told)), max(1, min(3, len(told) - 1)))
        for i in chosen:
            told[i] = replace(told[i], hedge=rng.choice(t["hedges"]), hedge_note=rng.choice(t["hedge_notes"]))
    answer = w.write(layout, [_person(p, told)])
    if planted is not None:
        page = pages.get(p.title or "", "")
        if _count(answer, planted) != 1 or (kind == "wrong-value" and _count(page, planted) > 0 and planted.isdigit()):
            return None
        expect: dict[str, Any] = {"status": "checked", "entity": p.title, "not_supported": [planted]}
        return Case("", layout, kind, question, p.name, answer, expect, planted=planted)
    if kind == "out-of-store":
        return Case("", layout, kind, question, p.name, answer, {"status": "unverifiable"})
    expect = {"status": "checked", "entity": p.title, "conflated": False, "dfactscore_min": THRESHOLD}
    return Case("", layout, kind, question, p.name, answer, expect, none_refuted=True)


def _two(
    data: Data, w: Writer, layout: str, kind: str, first: Profile, second: Profile, rng: Random, pages: dict[str, str]
) -> Case | None:
    question = rng.choice(["Tell me about {n}.", "Who is {n}?", "What is {n} known for?"]).format(n=first.name)
    if kind == "merged":
        n = _size(layout, rng, 1)
        # the person's own birth and two to four facts, two of the namesake's among them: the answer is
        # about the first (its role, most of its facts), with the other's slipped in
        mine = _facts_only(layout, _pick(rng, first.facts, max(3, n - 1), layout))
        theirs = [f for f in second.facts if f.label != "Born" and (layout != "timeline" or f.year)]
        if layout == "one-liner":
            mine = mine[:1]
        borrowed = rng.sample(theirs, 1 if layout == "one-liner" else 2)
        told = [_told(f) for f in mine]
        for f in borrowed:
            told.insert(rng.randint(1, len(told)), _told(f))
        answer = w.write(layout, [_person(first, told)])
        merged: dict[str, Any] = {"status": "checked", "entity": first.title, "conflated": True, "dfs_below_fs": True}
        return Case("", layout, kind, question, first.name, answer, merged)
    size = _size(layout, rng, 2)
    a = _facts_only(layout, _pick(rng, first.facts, size, layout))
    b = _facts_only(layout, _pick(rng, second.facts, size, layout))
    planted = None
    if kind == "crossed":
        page = pages.get(first.title or "", "").casefold()
        movable = [
            f
            for f in second.facts
            if f.label != "Born" and f not in b and f.key.casefold() not in page and (layout != "timeline" or f.year)
        ]
        if not movable:
            return None
        moved = rng.choice(movable)
        slots = [i for i, f in enumerate(a) if f.label != "Born"] or [len(a)]
        i = rng.choice(slots)
        a = [*a[:i], moved, *a[i + 1 :]]
        planted = moved.key
    answer = w.write(layout, [_person(first, [_told(f) for f in a]), _person(second, [_told(f) for f in b])])
    if planted is not None:
        if _count(answer, planted) != 1:
            return None
        crossed: dict[str, Any] = {"status": "checked", "min_bios": 2, "not_supported": [planted]}
        return Case("", layout, kind, question, first.name, answer, crossed, planted=planted)
    expect: dict[str, Any] = {
        "status": "checked",
        "conflated": False,
        "min_bios": 2,
        "num_entities": 2,
        "dfactscore_min": THRESHOLD,
    }
    return Case("", layout, kind, question, first.name, answer, expect, none_refuted=True)


def matrix(
    data: Data,
    *,
    per_cell: int = PER_CELL,
    layouts: Sequence[str] = LAYOUTS,
    kinds: Sequence[str] = KINDS,
    seed: str = SEED,
    pages: dict[str, str] | None = None,
) -> list[Case]:
    """Every answer of the matrix, cell by cell."""
    return [
        generate(data, lay, kind, i, seed=seed, pages=pages)
        for lay in layouts
        for kind in kinds
        for i in range(per_cell)
    ]


# --- judging -----------------------------------------------------------------------------------------------


def missed(case: Case, result: CheckResult | None) -> list[str]:
    """What ``case`` expected and ``result`` did not show."""
    if result is None:
        return ["error: the check failed"]
    out = judge(case.expect, result, case.answer)
    if case.none_refuted and (found := refuted(result)):
        out.append(f"none_refuted: {found[0]!r}" + (f" (+{len(found) - 1})" if len(found) > 1 else ""))
    return out


@dataclass
class _Tally:
    passed: int = 0
    total: int = 0
    failures: list[dict[str, Any]] = field(default_factory=list)


def _rate(count: int, total: int) -> dict[str, Any]:
    return {"count": count, "total": total, "rate": round(count / total, 3) if total else None}


def parse_names(value: str | None, known: Sequence[str], what: str) -> list[str]:
    """A comma-separated choice of ``known`` names (all of them for None)."""
    if not value:
        return list(known)
    names = [v.strip() for v in value.split(",") if v.strip()]
    unknown = [n for n in names if n not in known]
    if unknown:
        raise EvaluationError(f"unknown {what} {', '.join(unknown)}; choose from {', '.join(known)}")
    return names


def run(
    root: Path = DEFAULT_CORPUS,
    engine: Engine | None = None,
    *,
    limit: int | None = None,
    progress: Progress = silent,
    layouts: Sequence[str] | None = None,
    kinds: Sequence[str] | None = None,
    data: Data | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Outcome:
    """Check the matrix (``limit``: answers per cell, default 10) against the corpus store in ``root``."""
    pages, _ = load(root)
    data = data or load_data()
    engine = engine or Engine()
    text = {title: body for title, body, _ in pages}
    cases = matrix(data, per_cell=limit or PER_CELL, layouts=layouts or LAYOUTS, kinds=kinds or KINDS, pages=text)
    cells: dict[tuple[str, str], _Tally] = defaultdict(_Tally)
    blocked_correct = correct = flagged = planted_values = 0
    flagged_by_kind: Counter[str] = Counter()
    planted_by_kind: Counter[str] = Counter()
    errors = 0
    revisions = RevisionTally()
    start = clock()
    for case in progress(cases, total=len(cases), desc="styles answers"):
        result = engine.try_check(case.answer, pages=pages, name=case.name, question=case.question)
        revisions.add(case.id, case.answer, result, text)
        errors += result is None
        miss = missed(case, result)
        cell = cells[(case.layout, case.kind)]
        cell.total += 1
        cell.passed += not miss
        if miss:
            cell.failures.append(
                {"id": case.id, "missed": miss, "question": case.question, "name": case.name, "answer": case.answer}
            )
        if case.kind in CORRECT:
            correct += 1
            blocked_correct += blocked(result)
        if case.planted is not None:
            planted_by_kind[case.kind] += 1
            hit = result is not None and not judge({"not_supported": [case.planted]}, result, case.answer)
            flagged_by_kind[case.kind] += hit
            if case.kind == "wrong-value":
                planted_values += 1
                flagged += hit
    seconds = clock() - start
    order = [(lay, kind) for lay in (layouts or LAYOUTS) for kind in (kinds or KINDS)]
    passed = sum(c.passed for c in cells.values())

    def by(axis: int) -> dict[str, dict[str, Any]]:
        sums: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for key, c in cells.items():
            sums[key[axis]][0] += c.passed
            sums[key[axis]][1] += c.total
        names = layouts or LAYOUTS if axis == 0 else kinds or KINDS
        return {n: {"passed": sums[n][0], "total": sums[n][1]} for n in names if n in sums}

    figures: dict[str, Any] = {
        "answers": len(cases),
        "passed": passed,
        "pass_rate": round(passed / len(cases), 3) if cases else None,
        "cells": [
            {"layout": lay, "kind": kind, "passed": cells[(lay, kind)].passed, "total": cells[(lay, kind)].total}
            for lay, kind in order
        ],
        "by_layout": by(0),
        "by_kind": by(1),
        "correct_answers_blocked": {**_rate(blocked_correct, correct), "threshold": THRESHOLD, "kinds": list(CORRECT)},
        "planted_wrong_values_flagged": _rate(flagged, planted_values),
        "planted_flagged_by_kind": {k: _rate(flagged_by_kind[k], planted_by_kind[k]) for k in sorted(planted_by_kind)},
        "failed_checks": errors,
        "revisions": revisions.figures(),
        "failures": [{"layout": lay, "kind": kind, **f} for lay, kind in order for f in cells[(lay, kind)].failures],
    }
    notes = (f"checked {len(cases)} answers in {seconds:.1f} s",)
    return Outcome(figures, counts={"answers": len(cases), "failed": errors}, notes=notes)


def print_report(outcome: Outcome, *, engine: str, console: Any = None, examples: int = 3) -> None:
    """The layout × kind table of pass counts, the totals, and each failing cell with its failing answers."""
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    result = outcome.result
    layouts = list(dict.fromkeys(c["layout"] for c in result["cells"]))
    kinds = list(dict.fromkeys(c["kind"] for c in result["cells"]))
    at = {(c["layout"], c["kind"]): c for c in result["cells"]}
    table = Table(title=f"factsentry eval styles (engine: {engine}): passed / answers", title_justify="left")
    table.add_column("layout")
    for kind in kinds:
        table.add_column(kind, justify="right")
    table.add_column("all", justify="right")
    for lay in layouts:
        row = []
        for kind in kinds:
            c = at[(lay, kind)]
            text = f"{c['passed']}/{c['total']}"
            row.append(text if c["passed"] == c["total"] else f"[red]{text}[/red]")
        total = result["by_layout"][lay]
        row.append(f"{total['passed']}/{total['total']}")
        table.add_row(lay, *row)
    table.add_row(
        "all",
        *(f"{result['by_kind'][k]['passed']}/{result['by_kind'][k]['total']}" for k in kinds),
        f"{result['passed']}/{result['answers']}",
    )
    console.print(table)
    blocked_ = result["correct_answers_blocked"]
    flagged_ = result["planted_wrong_values_flagged"]
    console.print(
        f"passed {result['passed']} of {result['answers']} ({result['pass_rate']}); correct answers blocked at "
        f"{blocked_['threshold']}: {blocked_['count']} of {blocked_['total']} ({blocked_['rate']}); planted wrong "
        f"values flagged: {flagged_['count']} of {flagged_['total']} ({flagged_['rate']}); failed checks "
        f"{result['failed_checks']}"
    )
    failing: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for f in result["failures"]:
        failing[(f["layout"], f["kind"])].append(f)
    for (lay, kind), items in failing.items():
        c = at[(lay, kind)]
        console.print(f"\n[bold]{lay} × {kind}[/bold]: {c['passed']}/{c['total']}", highlight=False)
        for f in items[:examples]:
            console.print(f"  {f['id']}: {'; '.join(f['missed'])}", highlight=False, markup=False)
        if len(items) > examples:
            console.print(f"  … and {len(items) - examples} more", highlight=False)
    for note in outcome.notes:
        console.print(note)
