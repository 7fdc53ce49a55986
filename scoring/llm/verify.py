"""LLM verification (Retrieve→LM), batched, with every verdict validated against the passages it cites.

Each fact comes with the passages retrieved for it (its group's name and the fact) from every candidate
page of its group. A batch prints each page once, labelled ``P1``, ``P2``, ..., with the union of the
passages retrieved for the batch's facts, each labelled ``P1.1``, ``P1.2``, ... — every group's own
passages, also when two groups (namesakes) share candidate pages. Facts (``F1``, ``F2``, ...) are listed
under their group with the pages they may be judged against. Pages and facts are untrusted text, fenced
(:mod:`scoring.llm.fence`).

The judge answers one JSON object: per fact, the pages that support or refute it, each with the passage
it cites and a short quote from it. :func:`parse_verify` keeps only what it can check:

=====================  ===================================================================
rejected as            when
=====================  ===================================================================
``unknown-id``         the id was not asked
``duplicate-id``       the id is answered twice (the fact gets no verdict from this reply)
``unknown-label``      the label is not supported / refuted / not_enough_info
``unknown-page``       the page is no page of the prompt
``page-not-candidate`` the page is not one of the fact's group's pages
``both-ways``          one page both supports and refutes the fact (both dropped)
``quote-not-found``    the quote (whitespace, case, punctuation ignored) is in no passage of the page
``quote-unrelated``    the quote shares no word with the fact beyond its person's name
=====================  ===================================================================

A rejected verdict leaves the page without a stance (not_enough_info) and is counted; ids the reply does
not answer are returned as ``missing`` (asked again once by :mod:`scoring.llm.steps`). A reply that holds no
readable JSON object, or none of the asked ids, raises :class:`LLMOutputError` (a repair turn follows).

>>> groups = [VerifyGroup("Dick Hanley", (("F1", "Dick Hanley was born in 1936."),),
...                       (Page("Dick Hanley (swimmer)", ("Hanley was born in 1936 in Ohio.",)),))]
>>> raw = ('Here you go: {"results": [{"id": "F1", "verdicts": [{"page": "P1", "label": "supported", '
...        '"passage": "P1.1", "quote": "born in 1936"}]}]}')
>>> parse_verify(raw, groups).judgements["F1"].supported_by
{'Dick Hanley (swimmer)'}
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.errors import LLMOutputError
from scoring.llm.fence import data_rule, fence, nonce

Message = dict[str, str]

PROMPT_VERSION = "verify-3"
LABELS = ("supported", "refuted", "not_enough_info")

SYSTEM = (
    "You are a careful fact checker. You judge each fact only by the passages given, never by what you know. "
    "The pages may describe different people who share a name: a page supports a fact only if it states every "
    "part of the fact about its own person; it refutes a fact when it states something incompatible about its "
    "own person (another date, number, place or name). Otherwise the page has not enough information. "
    "Every verdict cites one passage and quotes the words of it that decide the verdict, copied exactly. "
    "Answer with one JSON object only."
)

# Indented, so that no line of them reads as a page, passage or fact of the request.
EXAMPLES = """Examples (the pages may describe different people who share a name):
  Pages: [P1] Ann Doyle (rower)  [P1.1] Ann Doyle (born 1970) rowed for Ireland at the 1996 Olympics.
         [P2] Ann Doyle (politician)  [P2.1] Ann Doyle was elected to the Dail in 2002.
  Group 1 (pages P1, P2): F1 Ann Doyle rowed at the 1996 Olympics. F2 Ann Doyle was elected in 2002.
    F3 Ann Doyle was born in 1971. F4 Ann Doyle rowed at the 1996 Olympics and was elected in 2002. F5 Ann Doyle
    has two children.
  Reply: {"results": [
    {"id": "F1", "verdicts": [{"page": "P1", "label": "supported", "passage": "P1.1",
      "quote": "rowed for Ireland at the 1996 Olympics"}]},
    {"id": "F2", "verdicts": [{"page": "P2", "label": "supported", "passage": "P2.1",
      "quote": "was elected to the Dail in 2002"}]},
    {"id": "F3", "verdicts": [{"page": "P1", "label": "refuted", "passage": "P1.1", "quote": "Ann Doyle (born 1970)"}]},
    {"id": "F4", "verdicts": []},
    {"id": "F5", "verdicts": []}]}
  (F4: no page states both parts about its own person; F5: no page says anything about it.)"""

REPLY_FORMAT = (
    "Reply with one JSON object and nothing else:\n"
    '{"results": [{"id": "F1", "verdicts": [{"page": "P1", "label": "supported", "passage": "P1.2", '
    '"quote": "<the deciding words of passage P1.2, copied exactly>"}]}, {"id": "F2", "verdicts": []}]}\n'
    "- Every fact id exactly once.\n"
    '- In verdicts, only pages listed for the fact\'s group that support or refute it (label "supported" or '
    '"refuted"); a page that does neither is left out (not_enough_info). An empty list: no page decides it.\n'
    "- A page never both supports and refutes one fact."
)

# What the provider is asked to hold the reply to (``response_format``), where it can.
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "results": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "id": {"type": "string"},
                    "verdicts": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "page": {"type": "string"},
                                "label": {"type": "string", "enum": list(LABELS)},
                                "passage": {"type": "string"},
                                "quote": {"type": "string"},
                            },
                            "required": ["page", "label", "passage", "quote"],
                            "additionalProperties": False,
                        },
                    },
                },
                "required": ["id", "verdicts"],
                "additionalProperties": False,
            },
        }
    },
    "required": ["results"],
    "additionalProperties": False,
}


@dataclass(frozen=True)
class Page:
    """A candidate entity's page: its title and the passages retrieved from it."""

    title: str
    passages: tuple[str, ...]


@dataclass(frozen=True)
class VerifyGroup:
    """The facts of one perceived individual and the pages they may come from.

    ``per_fact`` (aligned with ``facts``) holds the passages retrieved for each fact; ``pages`` is their
    union (or, without ``per_fact``, what every fact of the group is judged against).
    """

    name: str
    facts: tuple[tuple[str, str], ...]  # (id, text)
    pages: tuple[Page, ...]
    per_fact: tuple[tuple[Page, ...], ...] | None = None

    @classmethod
    def of(cls, name: str, facts: Sequence[tuple[str, str, Sequence[Page]]]) -> VerifyGroup:
        """A group from ``(id, text, pages retrieved for that fact)``."""
        per_fact = tuple(tuple(pages) for _, _, pages in facts)
        return cls(name, tuple((i, t) for i, t, _ in facts), union_pages(per_fact), per_fact)

    def part(self, indices: Sequence[int]) -> VerifyGroup:
        """The group with only the facts at ``indices`` (and, with ``per_fact``, only their passages)."""
        facts = tuple(self.facts[i] for i in indices)
        if self.per_fact is None:
            return VerifyGroup(self.name, facts, self.pages)
        per_fact = tuple(self.per_fact[i] for i in indices)
        return VerifyGroup(self.name, facts, union_pages(per_fact), per_fact)

    def size(self) -> int:
        return sum(len(t) for _, t in self.facts) + sum(len(p) for page in self.pages for p in page.passages)


def union_pages(lists: Sequence[Sequence[Page]]) -> tuple[Page, ...]:
    """One page per title, in order of first appearance, with the passages of all, each once."""
    order: dict[str, dict[str, None]] = {}
    for pages in lists:
        for page in pages:
            texts = order.setdefault(page.title, {})
            for p in page.passages:
                texts.setdefault(p)
    return tuple(Page(title, tuple(texts)) for title, texts in order.items())


@dataclass
class Judgement:
    """Which pages (titles) support and which refute one fact, and the passage each verdict cites."""

    supported_by: set[str] = field(default_factory=set)
    refuted_by: set[str] = field(default_factory=set)
    cited: dict[str, str] = field(default_factory=dict)  # title -> the cited passage's text


@dataclass
class VerifyReply:
    """A judge's reply, validated: judgements by fact id, the ids it left out, and what was rejected."""

    judgements: dict[str, Judgement] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    rejected: list[tuple[str, str]] = field(default_factory=list)  # (check, detail)

    def merge(self, other: VerifyReply) -> None:
        self.judgements.update(other.judgements)
        self.missing = [m for m in self.missing if m not in other.judgements] + [
            m for m in other.missing if m not in self.missing
        ]
        self.rejected.extend(other.rejected)


@dataclass(frozen=True)
class Layout:
    """The labels of one prompt: pages ``P1``.., their passages ``P1.1``.., and each fact's pages."""

    labels: dict[str, str]  # "P1" -> title
    passages: dict[str, list[tuple[str, str]]]  # title -> [("P1.1", text), ...]
    allowed: dict[str, list[str]]  # fact id -> titles of its group's pages
    facts: dict[str, str]  # fact id -> text
    names: dict[str, str]  # fact id -> its group's name


def layout(groups: Sequence[VerifyGroup]) -> Layout:
    """The labels of a batch: every group's passages of a page under that page's one label."""
    pages = union_pages([g.pages for g in groups])
    labels = {f"P{i + 1}": page.title for i, page in enumerate(pages)}
    passages = {
        page.title: [(f"P{i + 1}.{j + 1}", _one_line(p)) for j, p in enumerate(page.passages)]
        for i, page in enumerate(pages)
    }
    allowed = {fid: [p.title for p in g.pages] for g in groups for fid, _ in g.facts}
    facts = {fid: _one_line(t) for g in groups for fid, t in g.facts}
    names = {fid: g.name for g in groups for fid, _ in g.facts}
    return Layout(labels, passages, allowed, facts, names)


def page_labels(groups: Sequence[VerifyGroup]) -> dict[str, str]:
    """``P1``, ``P2``, ... for the distinct page titles of a batch, in order of appearance."""
    return layout(groups).labels


def build_verify_request(groups: Sequence[VerifyGroup]) -> list[Message]:
    """One prompt judging every fact of ``groups`` against the pages of its group (all passages of each)."""
    lay = layout(groups)
    by_title = {t: label for label, t in lay.labels.items()}
    page_lines: list[str] = []
    for label, title in lay.labels.items():
        if page_lines:
            page_lines.append("")
        page_lines.append(f"[{label}] {_one_line(title)}")
        page_lines.extend(f"[{pid}] {text}" for pid, text in lay.passages[title])
    group_texts = [
        "\n".join([f"name: {_one_line(g.name)}", *(f"{fid}: {lay.facts[fid]}" for fid, _ in g.facts)]) for g in groups
    ]
    pages_text = "\n".join(page_lines)
    n = nonce(pages_text, *group_texts)
    lines = [EXAMPLES, "", "Pages:", fence(pages_text, n) if page_lines else "(none)", ""]
    lines.append(
        "Facts, grouped by the individual the answer describes. Judge each fact only against the pages listed "
        "for its group:"
    )
    for k, (g, text) in enumerate(zip(groups, group_texts, strict=True)):
        pages = ", ".join(by_title[p.title] for p in g.pages) or "none"
        lines.append(f"Group {k + 1} (pages {pages}):")
        lines.append(fence(text, n))
    lines += ["", REPLY_FORMAT]
    system = f"{SYSTEM} {data_rule(n)}"
    return [{"role": "system", "content": system}, {"role": "user", "content": "\n".join(lines)}]


def batch_groups(groups: Sequence[VerifyGroup], max_chars: int, max_facts: int = 1_000_000) -> list[list[VerifyGroup]]:
    """Consecutive batches of at most ``max_facts`` facts whose facts and passages stay under ``max_chars``
    (each page's passages counted once per batch); a fact too big alone gets a batch of its own."""
    batches: list[list[VerifyGroup]] = []
    current: list[tuple[int, int]] = []  # (group index, fact index)
    seen: set[tuple[str, str]] = set()
    size = 0

    def close() -> None:
        nonlocal current, seen, size
        if current:
            batches.append(_regroup(groups, current))
        current, seen, size = [], set(), 0

    for gi, g in enumerate(groups):
        for fi, (_, text) in enumerate(g.facts):
            pages = g.per_fact[fi] if g.per_fact is not None else g.pages
            new = {(p.title, x) for p in pages for x in p.passages} - seen
            extra = len(text) + sum(len(x) for _, x in new)
            if current and (len(current) >= max_facts or size + extra > max_chars):
                close()
                new = {(p.title, x) for p in pages for x in p.passages}
                extra = len(text) + sum(len(x) for _, x in new)
            current.append((gi, fi))
            seen |= new
            size += extra
    close()
    return batches


def split_batch(batch: Sequence[VerifyGroup]) -> list[list[VerifyGroup]]:
    """A batch cut in two halves by facts (for a reply cut at max_tokens); one fact stays one batch."""
    items = [(gi, fi) for gi, g in enumerate(batch) for fi in range(len(g.facts))]
    if len(items) < 2:
        return [list(batch)]
    half = len(items) // 2
    return [_regroup(batch, items[:half]), _regroup(batch, items[half:])]


def _regroup(groups: Sequence[VerifyGroup], items: Sequence[tuple[int, int]]) -> list[VerifyGroup]:
    out: list[VerifyGroup] = []
    run: list[int] = []
    for k, (gi, fi) in enumerate(items):
        run.append(fi)
        if k + 1 == len(items) or items[k + 1][0] != gi:
            out.append(groups[gi].part(run) if len(run) < len(groups[gi].facts) else groups[gi])
            run = []
    return out


def parse_verify(raw: str, groups: Sequence[VerifyGroup]) -> VerifyReply:
    """The validated judgements of a reply to :func:`build_verify_request` for ``groups`` (see the module)."""
    lay = layout(groups)
    doc = extract_json(raw, "verify")
    items = doc.get("results") if isinstance(doc, dict) else doc
    if not isinstance(items, list):
        raise LLMOutputError("verify", 'the JSON object has no list "results"', raw)
    reply = VerifyReply()
    answered: dict[str, int] = {}
    for item in items:
        if not isinstance(item, dict):
            reply.rejected.append(("malformed-entry", f"{str(item)[:60]!r} is not an object"))
            continue
        fid = _fact_id(item.get("id", item.get("fact")))
        if fid not in lay.facts:
            reply.rejected.append(("unknown-id", f"{fid!r} was not asked"))
            continue
        answered[fid] = answered.get(fid, 0) + 1
        if answered[fid] > 1:
            continue
        reply.judgements[fid] = _judge(fid, item, lay, reply.rejected)
    if not answered:
        raise LLMOutputError(
            "verify", f"none of the asked fact ids ({', '.join(list(lay.facts)[:5])}...) answered", raw
        )
    for fid, times in answered.items():
        if times > 1:
            reply.judgements[fid] = Judgement()
            reply.rejected.append(("duplicate-id", f"{fid} answered {times} times"))
    reply.missing = [fid for fid in lay.facts if fid not in answered]
    return reply


def _judge(fid: str, item: dict[str, Any], lay: Layout, rejected: list[tuple[str, str]]) -> Judgement:
    verdicts = item.get("verdicts", item.get("pages"))
    if verdicts is None and "label" in item:
        verdicts = [item]  # one verdict written into the fact's entry
    if isinstance(verdicts, dict):
        # {"P1": {"label": ...}}: verdicts keyed by page; else one verdict
        keyed = all(isinstance(v, dict) for v in verdicts.values()) and "label" not in verdicts
        verdicts = [{"page": k, **v} for k, v in verdicts.items()] if keyed else [verdicts]
    if not isinstance(verdicts, list):
        verdicts = []
    found: dict[str, dict[str, str]] = {}  # title -> label -> cited passage
    for v in verdicts:
        if not isinstance(v, dict):
            rejected.append(("malformed-entry", f"{fid}: a verdict that is not an object"))
            continue
        label = re.sub(r"[\s-]+", "_", str(v.get("label", "")).strip().lower())
        label = _INFLECTED.get(label, label)
        if label not in LABELS:
            rejected.append(("unknown-label", f"{fid}: label {str(v.get('label'))[:40]!r}"))
            continue
        if label == "not_enough_info":
            continue
        title = _page_title(v.get("page"), lay)
        if title is None:
            rejected.append(("unknown-page", f"{fid}: page {str(v.get('page'))[:40]!r}"))
            continue
        if title not in lay.allowed[fid]:
            rejected.append(("page-not-candidate", f"{fid}: {title!r} is not a page of its group"))
            continue
        quote = str(v.get("quote") or "")
        passage = _quoted_passage(quote, str(v.get("passage") or ""), lay.passages[title])
        if passage is None:
            rejected.append(("quote-not-found", f"{fid}: {quote[:60]!r} is in no passage of {title!r}"))
            continue
        if not _related(quote, lay.facts[fid], lay.names[fid]):
            rejected.append(("quote-unrelated", f"{fid}: {quote[:60]!r} shares no word with the fact"))
            continue
        found.setdefault(title, {}).setdefault(label, passage)
    out = Judgement()
    for title, labels in found.items():
        if len(labels) > 1:
            rejected.append(("both-ways", f"{fid}: {title!r} both supports and refutes it"))
            continue
        ((label, passage),) = labels.items()
        (out.supported_by if label == "supported" else out.refuted_by).add(title)
        out.cited[title] = passage
    return out


# The labels' inflections a model writes ("supports"); anything else ("true", "mostly") is not a label.
_INFLECTED = {
    "support": "supported",
    "supports": "supported",
    "refute": "refuted",
    "refutes": "refuted",
    "nei": "not_enough_info",
    "not_enough_information": "not_enough_info",
}


def normalise(text: str) -> str:
    """Lower case, punctuation as spaces, whitespace collapsed: how quotes are compared with passages."""
    text = unicodedata.normalize("NFKC", text).lower()
    return " ".join(re.sub(r"[^\w\s]|_", " ", text).split())


def _quoted_passage(quote: str, cited: str, passages: list[tuple[str, str]]) -> str | None:
    """The passage holding ``quote`` (each part of a quote elided with "..."): the cited one if it does,
    else the first of the page that does; None when none does or the quote is too short to tell."""
    parts = [normalise(p) for p in re.split(r"\.{3}|…", quote)]
    parts = [p for p in parts if p]
    if not parts or not any(len(p.split()) >= 2 or any(c.isdigit() for c in p) for p in parts):
        return None
    cited = cited.strip().strip("[]").upper()
    ordered = sorted(passages, key=lambda x: x[0].upper() != cited)
    for _, text in ordered:
        flat = f" {normalise(text)} "
        if all(f" {p} " in flat for p in parts):
            return text
    return None


_STOP = frozenset(
    "that this with from were was have has had been their they them than then also into about which when where "
    "what more most such only other over under after before while would could should there these those".split()
)


def _stems(text: str) -> set[str]:
    return {w[:5] for w in normalise(text).split() if (len(w) >= 4 and w not in _STOP) or w.isdigit()}


def _related(quote: str, fact: str, name: str) -> bool:
    return bool((_stems(quote) & _stems(fact)) - _stems(name))


def _fact_id(value: object) -> str:
    fid = str(value if value is not None else "").strip().strip("[]").upper()
    return f"F{fid}" if fid.isdigit() else fid


def _page_title(value: object, lay: Layout) -> str | None:
    key = str(value if value is not None else "").strip().strip("[]")
    label = key.upper().split(".", 1)[0]  # "P1.2" names page P1
    if label in lay.labels:
        return lay.labels[label]
    titles = {t.lower(): t for t in lay.labels.values()}
    return titles.get(key.lower())


def _one_line(text: str) -> str:
    return " ".join(text.split())


def extract_json(raw: str, step: str, key: str = "results") -> Any:
    """The JSON object in ``raw`` that has ``key`` (else the first object or list of objects), prose, code
    fences and trailing commas around it tolerated. Raises :class:`LLMOutputError` when there is none."""
    decoder = json.JSONDecoder()
    first: Any = None
    for text in (raw, re.sub(r",\s*([}\]])", r"\1", raw)):
        for m in re.finditer(r"[{\[]", text):
            try:
                doc, _ = decoder.raw_decode(text, m.start())
            except ValueError:
                continue
            if isinstance(doc, dict) and key in doc:
                return doc
            if first is None and (
                isinstance(doc, dict) or (isinstance(doc, list) and doc and isinstance(doc[0], dict))
            ):
                first = doc
    if first is None:
        raise LLMOutputError(step, "no JSON object in the reply", raw)
    return first
