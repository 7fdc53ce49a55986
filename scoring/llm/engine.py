"""The llm engine: decomposition+grouping, batched verification and revision, each one call.

The network call is the caller's: ``complete(messages) -> str`` (or ``(text, tokens)``), async, e.g.
a thin wrapper over ``litellm.acompletion``. Everything else is pure: prompts are built by the
``build_*_request`` functions and answers read by the ``parse_*`` functions of this package. A
malformed answer is asked again (``retries`` times) and then reported: decomposition and
verification raise :class:`scoring.errors.LLMOutputError`; a failed revision leaves
``revision=None``.

Calls per answer: 1 (decompose) + ⌈facts' prompt size / budget⌉ (verify, usually 1) + 1 (revise,
only when something is wrong), against FActScore's one call per sentence plus one per fact.
With ``offline`` (a stance model), facts it is confident about are settled without the LLM and only
the uncertain ones are escalated.

>>> async def complete(messages): ...  # doctest: +SKIP
>>> result = await check_llm(answer, kb=store, name="Dick Hanley", complete=complete)  # doctest: +SKIP
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from schemas.check import CheckResult, Evidence, Revision
from schemas.enums import Stance, Worthiness
from schemas.knowledge import EntityRef
from scoring.abstain import is_abstention
from scoring.decompose import AtomicFact
from scoring.errors import LLMOutputError
from scoring.grouping import PerceivedGroup
from scoring.linking import candidate_entities
from scoring.llm.decompose import FactList, build_decompose_request, parse_decompose
from scoring.llm.revise import CheckedFact, build_revise_request, parse_revise
from scoring.llm.verify import (
    Judgement,
    Page,
    VerifyGroup,
    batch_groups,
    build_verify_request,
    page_labels,
    parse_verify,
)
from scoring.pipeline import CheckConfig, infer_subject, score_groups
from scoring.plan import PlannedFact, PlannedGroup
from scoring.protocols import KnowledgeSource, StanceModel, VerdictCache
from scoring.sentences import split_sentences
from scoring.verify import EntityVerdict, EvidenceVerifier
from scoring.worthiness import classify

Message = dict[str, str]
T = TypeVar("T")
Complete = Callable[[list[Message]], Awaitable["str | tuple[str, int]"]]


@dataclass(frozen=True)
class LLMConfig:
    """Settings of the llm engine (scoring settings are shared with the offline engine)."""

    scoring: CheckConfig = field(default_factory=CheckConfig)
    retries: int = 2
    # Prompt budget for one verification call, in characters (about 4 per token): ~12k tokens, well
    # inside today's context windows; lower it for small local models.
    max_prompt_chars: int = 48_000
    passages_per_page: int = 3
    # With an offline stance model: facts it supports above ``settle_above`` on some page, or below
    # ``settle_below`` on every page, are decided without the LLM.
    settle_above: float = 0.85
    settle_below: float = 0.15


@dataclass
class _Usage:
    calls: int = 0
    tokens: int = 0


async def _ask(
    complete: Complete, messages: list[Message], usage: _Usage, retries: int, parse: Callable[[str], T]
) -> T:
    """Call the model and parse; on a parse error ask again, then re-raise the last error."""
    error: LLMOutputError | None = None
    for _ in range(retries + 1):
        reply = await complete(messages)
        usage.calls += 1
        if isinstance(reply, tuple):
            text, tokens = reply
        else:
            text, tokens = reply, (sum(len(m["content"]) for m in messages) + len(reply)) // 4
        usage.tokens += int(tokens)
        try:
            return parse(text)
        except LLMOutputError as e:
            error = e
    assert error is not None
    raise error


async def check_llm(
    text: str,
    *,
    kb: KnowledgeSource,
    complete: Complete,
    name: str | None = None,
    question: str | None = None,
    config: LLMConfig | None = None,
    offline: StanceModel | None = None,
    cache: VerdictCache | None = None,
) -> CheckResult:
    """Check one answer with an LLM; the same :class:`schemas.CheckResult` as the offline engine."""
    config = config or LLMConfig()
    if not text.strip() or is_abstention(text):
        return CheckResult(abstained=True, engine="llm")
    usage = _Usage()
    subject = (name or "").strip() or infer_subject(text, question)
    sentences = [s.text for s in split_sentences(text)]
    lists = await _ask(
        complete,
        build_decompose_request(text, subject),
        usage,
        config.retries,
        lambda raw: parse_decompose(raw, subject),
    )
    groups = _plan(lists, sentences, subject)
    names = [g.individual.name for g in groups] + [subject]
    candidates = candidate_entities(kb, names, limit=config.scoring.max_candidates)
    pages = {id(g): _pages(kb, g, candidates, config.passages_per_page) for g in groups}
    pending = _settle_offline(groups, candidates, kb, offline, cache, config) if offline is not None else None
    await _verify(groups, pages, candidates, pending, complete, usage, config)
    for g in groups:
        for fact in g.factual:
            fact.attribute(0.0 if offline is None else config.scoring.attribution_margin)
    result = score_groups(groups, candidates, config.scoring)
    result.engine = "llm"
    if config.scoring.revise:
        result.revision = await _revise(text, groups, result, candidates, complete, usage, config)
    result.llm_calls, result.llm_tokens = usage.calls, usage.tokens
    return result


def _plan(lists: Sequence[FactList], sentences: list[str], subject: str) -> list[PlannedGroup]:
    groups: list[PlannedGroup] = []
    for fl in lists:
        fl_name = fl.name or subject
        facts = [PlannedFact(AtomicFact(f, _sentence_of(f, sentences), fl_name), f, classify(f)) for f in fl.facts]
        individual = PerceivedGroup(fl_name, sentences=sorted({f.atom.sentence_index for f in facts}), from_text=True)
        groups.append(PlannedGroup(individual, facts))
    kept = [g for g in groups if g.factual] or groups[:1]
    return kept


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"\w+", text.lower()) if len(w) > 2}


def _sentence_of(fact: str, sentences: list[str]) -> int:
    if not sentences:
        return 0
    words = _words(fact)
    return max(range(len(sentences)), key=lambda i: len(words & _words(sentences[i])))


def _pages(kb: KnowledgeSource, group: PlannedGroup, candidates: list[EntityRef], k: int) -> list[Page]:
    query = group.individual.name + " " + " ".join(f.text for f in group.factual)[:600]
    out: list[Page] = []
    for ref in candidates:
        passages = kb.passages(ref.title, query, k=k)
        if passages:
            out.append(Page(ref.title, tuple(p.text for p in passages)))
    return out


def _settle_offline(
    groups: list[PlannedGroup],
    candidates: list[EntityRef],
    kb: KnowledgeSource,
    offline: StanceModel,
    cache: VerdictCache | None,
    config: LLMConfig,
) -> set[int]:
    """Verdicts from the offline model; returns the ids of the facts it is unsure about (for the LLM)."""
    evidence = EvidenceVerifier(kb, offline, cache, config.scoring.verify)
    unsure: set[int] = set()
    for g in groups:
        for fact in g.factual:
            for ref in candidates:
                fact.verdicts[ref.title] = evidence.against(fact.text, ref.title, g.individual.name)
            best = max((v.support for v in fact.verdicts.values()), default=0.0)
            if config.settle_below < best < config.settle_above:
                unsure.add(id(fact))
    return unsure


async def _verify(
    groups: list[PlannedGroup],
    pages: dict[int, list[Page]],
    candidates: list[EntityRef],
    pending: set[int] | None,
    complete: Complete,
    usage: _Usage,
    config: LLMConfig,
) -> None:
    ids: dict[str, PlannedFact] = {}
    vgroups: list[VerifyGroup] = []
    for g in groups:
        items: list[tuple[str, str]] = []
        for fact in g.factual:
            if pending is not None and id(fact) not in pending:
                continue
            fid = f"F{len(ids) + 1}"
            ids[fid] = fact
            items.append((fid, fact.text))
        if items:
            vgroups.append(VerifyGroup(g.individual.name, tuple(items), tuple(pages[id(g)])))
    judged: dict[str, Judgement] = {}
    for batch in batch_groups(vgroups, config.max_prompt_chars):
        labels = page_labels(batch)
        batch_ids = [fid for vg in batch for fid, _ in vg.facts]
        parsed = await _ask(
            complete, build_verify_request(batch), usage, config.retries, _verify_parser(batch_ids, labels)
        )
        judged.update(parsed)
    page_text = {p.title: p.passages for ps in pages.values() for p in ps}
    for fid, fact in ids.items():
        j = judged.get(fid, Judgement())
        for ref in candidates:
            t = ref.title
            evidence = tuple(Evidence(title=t, text=p) for p in page_text.get(t, ())[:1])
            if t in j.supported_by:
                fact.verdicts[t] = EntityVerdict(t, Stance.SUPPORT, 1.0, 0.0, evidence)
            elif t in j.refuted_by:
                fact.verdicts[t] = EntityVerdict(t, Stance.REFUTE, 0.0, 1.0, evidence)
            else:
                fact.verdicts[t] = EntityVerdict(t, Stance.IRRELEVANT, 0.0, 0.0, evidence)


async def _revise(
    text: str,
    groups: list[PlannedGroup],
    result: CheckResult,
    candidates: list[EntityRef],
    complete: Complete,
    usage: _Usage,
    config: LLMConfig,
) -> Revision | None:
    checked: list[CheckedFact] = []
    anything_wrong = False
    for g, rg in zip(groups, result.groups, strict=True):
        for fact in g.factual:
            own = fact.verdicts.get(rg.entity or "")
            others = sorted(t for t in fact.attributed if t != rg.entity)
            if own is not None and own.supported:
                checked.append(CheckedFact(fact.text, "supported", rg.entity))
                continue
            anything_wrong = True
            evidence = own.evidence[0].text if own is not None and own.evidence else ""
            if rg.conflated and others:
                checked.append(CheckedFact(fact.text, "other", others[0], evidence))
            else:
                checked.append(CheckedFact(fact.text, "unsupported", rg.entity, evidence))
    if not anything_wrong:
        return Revision(text=text.strip(), edits=[])
    try:
        revised, edits = await _ask(
            complete,
            build_revise_request(text, checked, config.scoring.revise_mode),
            usage,
            config.retries,
            parse_revise,
        )
    except LLMOutputError:
        return None
    return Revision(text=revised, edits=edits)


def _verify_parser(ids: list[str], labels: dict[str, str]) -> Callable[[str], dict[str, Judgement]]:
    def parse(raw: str) -> dict[str, Judgement]:
        return parse_verify(raw, ids, labels)

    return parse


def fact_count(result: CheckResult) -> int:
    """Number of check-worthy facts in a result."""
    return sum(1 for g in result.groups for f in g.facts if f.worthiness is Worthiness.FACTUAL)
