"""The llm engine's steps: decomposition+grouping, batched verification and revision, each one call.

The network call is the caller's: ``complete(messages) -> str`` (or ``(text, tokens)``), synchronous,
e.g. :class:`scoring.llm.client.LiteLLMJudge` over the operator's litellm model list. Everything else
is pure: prompts are built by the ``build_*_request`` functions and answers read by the ``parse_*``
functions of this package. A malformed answer is asked again (``retries`` times) and then reported:
decomposition and verification raise :class:`scoring.errors.LLMOutputError`; a failed revision
leaves ``revision=None``. Every verdict the LLM gives records ``decided_by="llm"``.

Calls per answer: 1 (decompose) + ⌈facts' prompt size / budget⌉ (verify, usually 1) + 1 (revise,
only when something is wrong), against FActScore's one call per sentence plus one per fact. In the
``hybrid`` engine (:class:`LLMVerify` with ``settle=True``) the stance model's confident verdicts stand
and only the uncertain facts are sent to the LLM.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from schemas.check import CheckResult, Evidence, Revision
from schemas.enums import Stance
from schemas.knowledge import EntityRef
from scoring import offline
from scoring.checker import Run, Usage
from scoring.decompose import AtomicFact
from scoring.errors import LLMCallError, LLMOutputError
from scoring.grouping import PerceivedGroup
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
from scoring.plan import PlannedFact, PlannedGroup
from scoring.protocols import KnowledgeSource
from scoring.rules import LLM
from scoring.verify import EntityVerdict
from scoring.worthiness import classify

Message = dict[str, str]
T = TypeVar("T")
Complete = Callable[[list[Message]], "str | tuple[str, int]"]


@dataclass(frozen=True)
class LLMConfig:
    """Settings of the LLM steps (scoring settings are the checker's :class:`scoring.pipeline.CheckConfig`)."""

    # A reply that cannot be read is asked again this many times, then the step fails.
    retries: int = 2
    # A call that fails transiently (rate limit, timeout, connection, 5xx) is made again this many
    # times, after backoff_s, 2·backoff_s, ... (capped at 8 s), then the step fails with LLMCallError.
    call_retries: int = 3
    backoff_s: float = 0.5
    # Prompt budget for one verification call, in characters (about 4 per token): ~12k tokens, well
    # inside today's context windows; lower it for small local models.
    max_prompt_chars: int = 48_000
    passages_per_page: int = 3
    # hybrid: facts the stance model supports above ``settle_above`` on some page, or below
    # ``settle_below`` on every page, are decided without the LLM.
    settle_above: float = 0.85
    settle_below: float = 0.15
    # hybrid: the steps the LLM also does instead of the offline engine ("decompose", "revise").
    hybrid_llm_steps: frozenset[str] = frozenset()


def ask(
    complete: Complete,
    messages: list[Message],
    usage: Usage,
    retries: int,
    parse: Callable[[str], T],
    config: LLMConfig | None = None,
) -> T:
    """Call the model and parse. An unreadable reply is asked again ``retries`` times, a transient call
    failure ``config.call_retries`` times with backoff; every failed attempt counts in ``usage.errors``;
    then the last error is raised."""
    config = config or LLMConfig()
    error: LLMOutputError | None = None
    asked = 0
    failed_calls = 0
    while asked <= retries:
        usage.calls += 1
        try:
            reply = complete(messages)
        except LLMCallError as e:
            usage.errors += 1
            if not e.transient or failed_calls >= config.call_retries:
                raise
            time.sleep(min(8.0, config.backoff_s * 2**failed_calls))
            failed_calls += 1
            continue
        asked += 1
        if isinstance(reply, tuple):
            text, tokens = reply
        else:
            text, tokens = reply, (sum(len(m["content"]) for m in messages) + len(reply)) // 4
        usage.tokens += int(tokens)
        try:
            return parse(text)
        except LLMOutputError as e:
            usage.errors += 1
            error = e
    assert error is not None
    raise error


@dataclass(frozen=True)
class LLMDecompose:
    """Decomposition and grouping in one call: the model lists the facts under each individual."""

    complete: Complete
    config: LLMConfig = LLMConfig()

    def __call__(self, run: Run) -> list[PlannedGroup]:
        subject = run.subject
        lists = ask(
            self.complete,
            build_decompose_request(run.text, subject),
            run.usage,
            self.config.retries,
            lambda raw: parse_decompose(raw, subject),
            self.config,
        )
        return _plan(lists, [s.text for s in run.sentences], subject)


@dataclass(frozen=True)
class LLMVerify:
    """Every check-worthy fact against its group's candidate pages, batched into as few calls as fit.

    With ``settle`` (the hybrid engine), the offline verdicts come first and only facts the stance
    model is unsure about (best support between ``settle_below`` and ``settle_above``) are asked.
    """

    complete: Complete
    config: LLMConfig = LLMConfig()
    settle: bool = False

    def __call__(self, run: Run, groups: list[PlannedGroup], candidates: list[EntityRef]) -> None:
        pending: set[int] | None = None
        if self.settle:
            offline.verify(run, groups, candidates)
            pending = set()
            for fact in (f for g in groups for f in g.factual):
                best = max((v.support for v in fact.verdicts.values()), default=0.0)
                if self.config.settle_below < best < self.config.settle_above:
                    pending.add(id(fact))
            if not pending:
                return
        pages = {id(g): _pages(run.kb, g, candidates, self.config.passages_per_page) for g in groups}
        _verify(groups, pages, candidates, pending, self.complete, run.usage, self.config)


@dataclass(frozen=True)
class LLMRevise:
    """The revision in one call: the answer, every fact's verdict and the evidence of the wrong ones."""

    complete: Complete
    config: LLMConfig = LLMConfig()

    def __call__(
        self, run: Run, groups: list[PlannedGroup], result: CheckResult, candidates: list[EntityRef]
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
            return Revision(text=run.text.strip(), edits=[])
        try:
            revised, edits = ask(
                self.complete,
                build_revise_request(run.text, checked, run.config.revise_mode),
                run.usage,
                self.config.retries,
                parse_revise,
                self.config,
            )
        except LLMOutputError:
            return None
        return Revision(text=revised, edits=edits)


def _plan(lists: Sequence[FactList], sentences: list[str], subject: str) -> list[PlannedGroup]:
    groups: list[PlannedGroup] = []
    source = _SentenceFinder(sentences)
    for fl in lists:
        fl_name = fl.name or subject
        facts = [PlannedFact(AtomicFact(f, source(f, fl_name), fl_name), f, classify(f)) for f in fl.facts]
        individual = PerceivedGroup(fl_name, sentences=sorted({f.atom.sentence_index for f in facts}), from_text=True)
        groups.append(PlannedGroup(individual, facts))
    kept = [g for g in groups if g.factual] or groups[:1]
    return kept


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"\w+", text.lower()) if len(w) > 2}


def _sentence_of(fact: str, sentences: list[str], name: str = "") -> int:
    """The sentence a listed fact came from: most shared words, the person's name (which the model writes
    into every fact) left out and numbers counted twice; the first such sentence on a tie."""
    return _SentenceFinder(sentences)(fact, name)


class _SentenceFinder:
    """:func:`_sentence_of` for many facts of one answer: each sentence's words are read once, and a fact's
    words are looked up in an index of the sentences holding them instead of in every sentence."""

    def __init__(self, sentences: list[str]) -> None:
        self.holding: dict[str, list[int]] = {}
        for i, sentence in enumerate(sentences):
            for w in _words(sentence):
                self.holding.setdefault(w, []).append(i)

    def __call__(self, fact: str, name: str = "") -> int:
        shared: dict[int, int] = {}
        for w in _words(fact) - _words(name):
            weight = 2 if w.isdigit() else 1
            for i in self.holding.get(w, ()):
                shared[i] = shared.get(i, 0) + weight
        # Sentences sharing nothing score 0, as the first sentence does when none shares anything.
        return min(shared, key=lambda i: (-shared[i], i)) if shared else 0


def _pages(kb: KnowledgeSource, group: PlannedGroup, candidates: list[EntityRef], k: int) -> list[Page]:
    query = group.individual.name + " " + " ".join(f.text for f in group.factual)[:600]
    out: list[Page] = []
    for ref in candidates:
        passages = kb.passages(ref.title, query, k=k)
        if passages:
            out.append(Page(ref.title, tuple(p.text for p in passages)))
    return out


def _verify(
    groups: list[PlannedGroup],
    pages: dict[int, list[Page]],
    candidates: list[EntityRef],
    pending: set[int] | None,
    complete: Complete,
    usage: Usage,
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
        parsed = ask(
            complete, build_verify_request(batch), usage, config.retries, _verify_parser(batch_ids, labels), config
        )
        judged.update(parsed)
    page_text = {p.title: p.passages for ps in pages.values() for p in ps}
    for fid, fact in ids.items():
        j = judged.get(fid, Judgement())
        for ref in candidates:
            t = ref.title
            evidence = tuple(Evidence(title=t, text=p) for p in page_text.get(t, ())[:1])
            if t in j.supported_by:
                fact.verdicts[t] = EntityVerdict(t, Stance.SUPPORT, 1.0, 0.0, evidence, decided_by=LLM)
            elif t in j.refuted_by:
                fact.verdicts[t] = EntityVerdict(t, Stance.REFUTE, 0.0, 1.0, evidence, decided_by=LLM)
            else:
                fact.verdicts[t] = EntityVerdict(t, Stance.IRRELEVANT, 0.0, 0.0, evidence, decided_by=LLM)


def _verify_parser(ids: list[str], labels: dict[str, str]) -> Callable[[str], dict[str, Judgement]]:
    def parse(raw: str) -> dict[str, Judgement]:
        return parse_verify(raw, ids, labels)

    return parse
