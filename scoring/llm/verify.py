"""LLM verification (Retrieve→LM), batched: every fact of every group against its candidate pages in one call.

Each group lists its facts (ids ``F1``, ``F2``, ...) and the retrieved passages of each candidate
page (labels ``P1``, ``P2``, ...); the model answers in JSON which pages support and which refute
each fact. One answer of linking evidence serves FActScore (any page), D-FActScore (the linked
page) and the entity attribution. Batches are cut so that each prompt stays within a character
budget (the context window).

>>> raw = '```json\\n{"results": [{"id": "F1", "supported_by": ["P2"], "refuted_by": []}]}\\n```'
>>> parse_verify(raw, ["F1"], {"P1": "Dick Hanley (swimmer)", "P2": "Dick Hanley (American football)"})["F1"]
Judgement(supported_by={'Dick Hanley (American football)'}, refuted_by=set())
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from scoring.errors import LLMOutputError

Message = dict[str, str]

SYSTEM = (
    "You are a careful fact checker. You judge each fact only by the passages given, never by what you know. "
    "A page supports a fact when its passages state it or directly imply it; it refutes a fact when they state "
    "something incompatible (another date, number, place or name). Answer with JSON only."
)


@dataclass(frozen=True)
class Page:
    """A candidate entity's page: its title and the passages retrieved for the group's facts."""

    title: str
    passages: tuple[str, ...]


@dataclass(frozen=True)
class VerifyGroup:
    """The facts of one perceived individual and the pages they may come from."""

    name: str
    facts: tuple[tuple[str, str], ...]  # (id, text)
    pages: tuple[Page, ...]

    def size(self) -> int:
        return sum(len(t) for _, t in self.facts) + sum(len(p) for page in self.pages for p in page.passages)


@dataclass
class Judgement:
    """Which pages (titles) support and which refute one fact."""

    supported_by: set[str] = field(default_factory=set)
    refuted_by: set[str] = field(default_factory=set)


def page_labels(groups: Sequence[VerifyGroup]) -> dict[str, str]:
    """``P1``, ``P2``, ... for the distinct page titles of a batch, in order of appearance."""
    titles = list(dict.fromkeys(p.title for g in groups for p in g.pages))
    return {f"P{i + 1}": t for i, t in enumerate(titles)}


def build_verify_request(groups: Sequence[VerifyGroup]) -> list[Message]:
    """One prompt judging every fact of ``groups`` against every candidate page of its group."""
    labels = page_labels(groups)
    by_title = {t: label for label, t in labels.items()}
    lines: list[str] = ["Pages:"]
    seen: set[str] = set()
    for g in groups:
        for page in g.pages:
            if page.title in seen:
                continue
            seen.add(page.title)
            lines.append(f"[{by_title[page.title]}] {page.title}")
            lines.extend(f"  - {p.strip()}" for p in page.passages)
    lines.append("")
    lines.append("Facts (grouped by the individual the text describes; judge each against the listed pages):")
    for g in groups:
        pages = ", ".join(by_title[p.title] for p in g.pages) or "none"
        lines.append(f"# {g.name} (pages {pages})")
        lines.extend(f"{fid}: {text}" for fid, text in g.facts)
    lines.append("")
    lines.append(
        'Answer with JSON only, one entry per fact: {"results": [{"id": "F1", "supported_by": ["P1"], '
        '"refuted_by": []}, ...]}. Use page labels. An empty list means no page supports (or refutes) the fact.'
    )
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "\n".join(lines)}]


def batch_groups(groups: Sequence[VerifyGroup], max_chars: int) -> list[list[VerifyGroup]]:
    """Consecutive batches of groups whose prompt text stays under ``max_chars`` (a group too big alone is split)."""
    batches: list[list[VerifyGroup]] = []
    current: list[VerifyGroup] = []
    size = 0
    for g in groups:
        parts = [g]
        if g.size() > max_chars and len(g.facts) > 1:
            page_size = sum(len(p) for page in g.pages for p in page.passages)
            per = max(1, (max_chars - page_size) // max(1, max(len(t) for _, t in g.facts) + 8))
            parts = [VerifyGroup(g.name, g.facts[i : i + per], g.pages) for i in range(0, len(g.facts), per)]
        for part in parts:
            if current and size + part.size() > max_chars:
                batches.append(current)
                current, size = [], 0
            current.append(part)
            size += part.size()
    if current:
        batches.append(current)
    return batches


def parse_verify(raw: str, ids: Sequence[str], labels: dict[str, str]) -> dict[str, Judgement]:
    """Judgements by fact id. Page labels or titles are accepted; unknown pages are ignored.

    Raises :class:`LLMOutputError` when the answer holds no JSON or none of the expected ids.
    """
    doc = _load_json(raw)
    items = doc.get("results") if isinstance(doc, dict) else doc
    if isinstance(doc, dict) and items is None:
        items = [{"id": k, **v} if isinstance(v, dict) else {"id": k, "supported_by": v} for k, v in doc.items()]
    if not isinstance(items, list):
        raise LLMOutputError("verify", "the JSON has no list of results", raw)
    titles = {t.lower(): t for t in labels.values()}
    wanted = set(ids)
    out: dict[str, Judgement] = {}
    for item in items:
        if not isinstance(item, dict):
            continue
        fid = str(item.get("id", item.get("fact", ""))).strip()
        if not fid.upper().startswith("F") and fid.isdigit():
            fid = f"F{fid}"
        fid = fid.upper()
        if fid not in wanted:
            continue
        supp = _pages(item.get("supported_by", item.get("supports", [])), labels, titles)
        refu = _pages(item.get("refuted_by", item.get("refutes", [])), labels, titles)
        out[fid] = Judgement(supp, refu - supp)
    if not out:
        raise LLMOutputError("verify", f"none of the fact ids {sorted(wanted)[:5]}... in the model's answer", raw)
    return out


def _pages(value: object, labels: dict[str, str], titles: dict[str, str]) -> set[str]:
    if value is None or value is False:
        return set()
    if isinstance(value, str):
        value = [v for v in re.split(r"[,;]\s*", value) if v.strip()]
    if not isinstance(value, list):
        return set()
    out: set[str] = set()
    for v in value:
        key = str(v).strip().strip("[]")
        if key.upper() in labels:
            out.add(labels[key.upper()])
        elif key.lower() in titles:
            out.add(titles[key.lower()])
    return out


def _load_json(raw: str) -> object:
    text = re.sub(r"^\s*```(?:json)?\s*|\s*```\s*$", "", raw.strip(), flags=re.M)
    starts = [i for i in (text.find("{"), text.find("[")) if i >= 0]
    if not starts:
        raise LLMOutputError("verify", "no JSON in the model's answer", raw)
    start = min(starts)
    end = max(text.rfind("}"), text.rfind("]"))
    body = text[start : end + 1]
    for candidate in (body, re.sub(r",\s*([}\]])", r"\1", body)):
        try:
            return json.loads(candidate)
        except ValueError:
            continue
    raise LLMOutputError("verify", "the JSON in the model's answer does not parse", raw)
