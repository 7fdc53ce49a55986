"""The llm engine's steps: decomposition+grouping, batched verification and revision.

The network call is the caller's: ``complete(messages) -> str`` (or ``(text, tokens)``), synchronous,
e.g. :class:`scoring.llm.client.LiteLLMJudge` over the operator's litellm model list; a ``complete``
with ``accepts_schema = True`` is also handed the JSON schema its reply must follow (``schema=``).
Everything else is pure: prompts are built by the ``build_*_request`` functions and replies read by the
``parse_*`` functions of this package. A reply that cannot be read gets a repair turn (the model is shown
its reply and what is wrong with it), ``retries`` times; then decomposition and verification raise
:class:`scoring.errors.LLMOutputError`. Every verdict the LLM gives records ``decided_by="llm"``.

What the judge says is checked before it is used, and every rejection is counted in
``run.usage.rejected`` (``CheckResult.llm_rejected``): a decomposed fact with a number or name the answer
does not have is dropped; a verdict that fails :func:`scoring.llm.verify.parse_verify`'s checks leaves its
page without a stance; fact ids the reply leaves out are asked again once; a revision that refuses, keeps
a refuted value, adds a value or claim found neither in the answer nor in the evidence, or leaves a wrong
answer unchanged is replaced by the rule-based revision, as is one whose call fails.

Calls per answer: 1 (decompose) + ⌈facts / ``max_facts_per_call``⌉ (verify, more when passages exceed the
prompt budget) + 1 (revise, only when something is wrong). In the ``hybrid`` engine (:class:`LLMVerify`
with ``settle=True``) the stance model's confident verdicts stand and only the uncertain facts are sent.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import scoring.llm.verify as llm_verify
from schemas.check import CheckResult, Edit, Evidence, Revision
from schemas.enums import Stance, Worthiness
from schemas.knowledge import EntityRef
from scoring import offline
from scoring.checker import Run, Usage
from scoring.decompose import AtomicFact
from scoring.errors import LLMCallError, LLMOutputError
from scoring.grouping import PerceivedGroup
from scoring.llm.decompose import PROMPT_VERSION as DECOMPOSE_VERSION
from scoring.llm.decompose import FactList, build_decompose_request, parse_decompose, values_not_in
from scoring.llm.reply import JudgeReply
from scoring.llm.revise import PROMPT_VERSION as REVISE_VERSION
from scoring.llm.revise import CheckedFact, build_revise_request, parse_revise, revision_problem
from scoring.llm.verify import Page, VerifyGroup, VerifyReply, batch_groups, build_verify_request, parse_verify
from scoring.plan import PlannedFact, PlannedGroup
from scoring.protocols import KnowledgeSource, VerdictCache
from scoring.rules import LLM
from scoring.spans import sentence_span
from scoring.verify import EntityVerdict
from scoring.worthiness import classify

Message = dict[str, str]
T = TypeVar("T")


Complete = Callable[..., "str | tuple[str, int] | JudgeReply"]


@dataclass(frozen=True)
class LLMConfig:
    """Settings of the LLM steps (scoring settings are the checker's :class:`scoring.config.CheckConfig`)."""

    # A reply that cannot be read gets a repair turn this many times, then the step fails.
    retries: int = 2
    # A call that fails transiently (rate limit, timeout, connection, 5xx) is made again this many
    # times, after backoff_s, 2·backoff_s, ... (capped at 8 s) or the provider's Retry-After when it
    # says one (capped at max_wait_s), then the step fails with LLMCallError.
    call_retries: int = 3
    backoff_s: float = 0.5
    max_wait_s: float = 20.0
    # A longer answer is decomposed in parts of at most this many characters, cut at blank lines.
    decompose_chunk_chars: int = 6_000
    # Prompt budget for one verification call, in characters (about 4 per token): ~12k tokens, well
    # inside today's context windows; lower it for small local models.
    max_prompt_chars: int = 48_000
    # Facts per verification call: a long reply is more often cut or sloppy at the end.
    max_facts_per_call: int = 25
    # Passages retrieved from each candidate page for each fact (its group's name and the fact).
    passages_per_fact: int = 3
    # A page of at most this many passages and characters is given whole to every fact.
    short_page_passages: int = 3
    short_page_chars: int = 3_000
    # hybrid: facts the stance model supports above ``settle_above`` on some page, or below
    # ``settle_below`` on every page, are decided without the LLM.
    settle_above: float = 0.85
    settle_below: float = 0.15
    # hybrid: the steps the LLM also does instead of the offline engine ("decompose", "revise").
    hybrid_llm_steps: frozenset[str] = frozenset()


def reject(usage: Usage, check: str, times: int = 1) -> None:
    """Count one rejection of the judge's reply by ``check`` ("verify:quote-not-found", ...)."""
    usage.rejected[check] = usage.rejected.get(check, 0) + times


REPAIR = (
    "Your reply above could not be used: {error}. Reply again to the request before it, in exactly the format "
    "it asks for and with nothing else."
)


def ask(
    complete: Complete,
    messages: list[Message],
    usage: Usage,
    retries: int,
    parse: Callable[[str], T],
    config: LLMConfig | None = None,
    *,
    schema: dict[str, Any] | None = None,
    cache: JudgeCache | None = None,
) -> T:
    """Call the model and parse. An unreadable reply gets a repair turn (its text and the error shown to the
    model) ``retries`` times, a transient call failure is made again ``config.call_retries`` times after a
    backoff (the provider's Retry-After when it gives one); every failed attempt counts in
    ``usage.errors``; then the last error is raised."""
    config = config or LLMConfig()
    key = cache.key(messages, schema) if cache is not None else ""
    if cache is not None:
        hit = cache.get(key)
        if hit is not None:
            try:
                parsed = parse(hit)
            except LLMOutputError:
                pass  # a reply this parser no longer reads: asked again
            else:
                usage.cached += 1
                return parsed
    error: LLMOutputError | None = None
    asked = 0
    failed_calls = 0
    turn = list(messages)
    while asked <= retries:
        usage.calls += 1
        try:
            reply = _call(complete, turn, schema)
        except LLMCallError as e:
            usage.errors += 1
            if not e.transient or failed_calls >= config.call_retries:
                raise
            wait = min(8.0, config.backoff_s * 2**failed_calls)
            if e.retry_after is not None:
                wait = max(wait, min(config.max_wait_s, e.retry_after))
            time.sleep(wait)
            failed_calls += 1
            continue
        asked += 1
        text = _count(reply, turn, usage)
        try:
            parsed = parse(text)
        except LLMOutputError as e:
            usage.errors += 1
            error = e
            shown = text if len(text) <= 4000 else text[:4000] + " …"
            turn = [
                *messages,
                {"role": "assistant", "content": shown},
                {"role": "user", "content": REPAIR.format(error=e.detail)},
            ]
            continue
        if cache is not None:
            cache.set(key, text)  # the readable reply to the request (after a repair turn, too)
        return parsed
    assert error is not None
    raise error


@dataclass(frozen=True)
class JudgeCache:
    """Judge replies by judge model, prompt version and a hash of the messages, in the check's cache (Redis
    or in-process; ``run.cache``): a replayed or redelivered answer is not asked again. Only replies that
    were read are kept; a cache that fails is a miss."""

    cache: VerdictCache
    prefix: str

    @classmethod
    def of(cls, run: Run, complete: Complete, version: str) -> JudgeCache | None:
        if run.cache is None:
            return None
        cache: Any = run.cache
        kind_of = getattr(cache, "kind_of", None)  # knowledge.cache.Cache: counted under its own label
        if callable(kind_of):
            cache = kind_of("judge")
        params = getattr(complete, "params", None) or {}
        judge = f"{getattr(complete, 'name', '')}/{params.get('model', '')}/{params.get('api_base', '')}"
        return cls(cache, f"judge:{hashlib.sha256(judge.encode()).hexdigest()[:16]}:{version}:")

    def key(self, messages: list[Message], schema: dict[str, Any] | None) -> str:
        body = json.dumps([messages, schema], sort_keys=True, ensure_ascii=False)
        return self.prefix + hashlib.sha256(body.encode()).hexdigest()

    def get(self, key: str) -> str | None:
        try:
            value = self.cache.get(key)
        except Exception:
            return None
        return value.decode("utf-8", "replace") if value is not None else None

    def set(self, key: str, text: str) -> None:
        try:
            self.cache.set(key, text.encode())
        except Exception:
            return


def _count(reply: str | tuple[str, int] | JudgeReply, turn: list[Message], usage: Usage) -> str:
    """The reply's text; its tokens (and cost) added to ``usage`` (a bare text: about 4 characters a token)."""
    if isinstance(reply, JudgeReply):
        usage.tokens += reply.tokens
        usage.prompt_tokens += reply.prompt_tokens
        usage.completion_tokens += reply.completion_tokens
        if reply.cost_usd is not None:
            usage.cost_usd = (usage.cost_usd or 0.0) + reply.cost_usd
        return reply.text
    if isinstance(reply, tuple):
        text, tokens = reply
        usage.tokens += int(tokens)
        return text
    usage.tokens += (sum(len(m["content"]) for m in turn) + len(reply)) // 4
    return reply


def _call(
    complete: Complete, messages: list[Message], schema: dict[str, Any] | None
) -> str | tuple[str, int] | JudgeReply:
    if schema is not None and getattr(complete, "accepts_schema", False):
        return complete(messages, schema=schema)
    return complete(messages)


@dataclass(frozen=True)
class LLMDecompose:
    """Decomposition and grouping: the model lists the facts under each individual, one call per part of the
    answer of at most ``decompose_chunk_chars`` (cut at blank lines; a part whose reply is cut at max_tokens
    is asked again in halves); a part's first individual continues the previous part's last one of the same
    name.

    A fact with a number, year or name the answer does not have is dropped (counted as
    ``decompose:value-not-in-answer``): the decomposition may not invent what is checked."""

    complete: Complete
    config: LLMConfig = LLMConfig()

    def __call__(self, run: Run) -> list[PlannedGroup]:
        subject = run.subject
        cache = JudgeCache.of(run, self.complete, DECOMPOSE_VERSION)
        lists: list[FactList] = []
        for part in sections(_checked_text(run), self.config.decompose_chunk_chars):
            lists = _join(lists, self._decompose(part, subject, run.usage, cache))
        kept: list[FactList] = []
        for fl in lists:
            facts = []
            for fact in fl.facts:
                if values_not_in(fact, run.text, subject):
                    reject(run.usage, "decompose:value-not-in-answer")
                else:
                    facts.append(fact)
            name = fl.name if not values_not_in(fl.name, run.text, subject) else subject
            if facts:
                kept.append(FactList(name, facts))
        groups = _plan(kept or [FactList(subject, [])], [s.text for s in run.sentences], subject)
        _cover(run, groups)
        return groups

    def _decompose(self, text: str, subject: str, usage: Usage, cache: JudgeCache | None) -> list[FactList]:
        """One part's fact lists; a reply cut at max_tokens is asked again for each half of the part."""
        try:
            return ask(
                self.complete,
                build_decompose_request(text, subject),
                usage,
                self.config.retries,
                lambda raw: parse_decompose(raw, subject),
                self.config,
                cache=cache,
            )
        except LLMCallError as e:
            halves = _halves(text)
            if e.kind != "truncated" or len(halves) < 2:
                raise
            reject(usage, "decompose:truncated-split")
            out: list[FactList] = []
            for half in halves:
                out = _join(out, self._decompose(half, subject, usage, cache))
            return out


def _checked_text(run: Run) -> str:
    """The answer up to the end of the last sentence checked (``CheckConfig.max_sentences``): what lies beyond
    is not decomposed."""
    if not run.sentences or len(run.sentences) < run.config.max_sentences:
        return run.text  # every sentence is checked
    return run.text[: sentence_span(run.char_maps[-1])[1]]


def sections(text: str, size: int) -> list[str]:
    """``text`` cut at blank lines into parts of at most ``size`` characters (a longer paragraph is a part of
    its own): a long answer is decomposed part by part, each reply short enough not to be cut."""
    parts: list[str] = []
    current = ""
    for paragraph in re.split(r"\n\s*\n", text.strip()):
        if current and len(current) + len(paragraph) + 2 > size:
            parts.append(current)
            current = ""
        current = f"{current}\n\n{paragraph}" if current else paragraph
    if current:
        parts.append(current)
    return parts or [text]


def _halves(text: str) -> list[str]:
    """``text`` in two parts at the paragraph or sentence end nearest its middle ([text] when it has none)."""
    middle = len(text) // 2
    cuts = [m.end() for m in re.finditer(r"\n\s*\n|(?<=[.!?])\s+", text) if 0 < m.end() < len(text)]
    if not cuts:
        return [text]
    cut = min(cuts, key=lambda c: abs(c - middle))
    return [text[:cut].strip(), text[cut:].strip()]


def _join(lists: list[FactList], more: list[FactList]) -> list[FactList]:
    """The fact lists of consecutive parts of one answer: a part's first individual continues the previous
    part's last one when the two have the same name (only "===" separates individuals)."""
    if lists and more and lists[-1].name.strip().lower() == more[0].name.strip().lower():
        return [*lists[:-1], FactList(lists[-1].name, lists[-1].facts + more[0].facts), *more[1:]]
    return lists + more


def _cover(run: Run, groups: list[PlannedGroup]) -> None:
    """A sentence that states a claim with a number or a name (besides the people's own names), by the offline
    worthiness rules, and that none of the judge's facts came from, is checked as a fact of its own, in the
    group of the facts before it: a decomposition that leaves such a claim out cannot let it through
    unchecked. Counted as ``decompose:uncovered-sentence``."""
    covered = {f.atom.sentence_index for g in groups for f in g.facts}
    names = " ".join([run.subject, *(g.individual.name for g in groups)])
    for i, sentence in enumerate(run.sentences):
        text = " ".join(sentence.text.split())
        if i in covered or classify(text) is not Worthiness.FACTUAL:
            continue
        if not values_not_in(text.split(" ", 1)[1] if " " in text else "", names):
            continue  # no value of its own ("Thanks for asking about Dick Hanley."): nothing specific to check
        before = [g for g in groups if any(f.atom.sentence_index < i for f in g.facts)]
        group = max(
            before,
            key=lambda g: max(f.atom.sentence_index for f in g.facts if f.atom.sentence_index < i),
            default=groups[0],
        )
        group.facts.append(PlannedFact(AtomicFact(text, i, group.individual.name), text, Worthiness.FACTUAL))
        group.facts.sort(key=lambda f: f.atom.sentence_index)
        reject(run.usage, "decompose:uncovered-sentence")


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
        _verify(run, groups, candidates, pending, self.complete, self.config)


@dataclass(frozen=True)
class LLMRevise:
    """The revision in one call: the answer, every fact's verdict and the passage each wrong one was judged
    on; used only when :func:`scoring.llm.revise.revision_problem` finds nothing wrong with it, else (and when
    the call fails) the rule-based revision. The scores are never lost to the revision."""

    complete: Complete
    config: LLMConfig = LLMConfig()

    def __call__(
        self, run: Run, groups: list[PlannedGroup], result: CheckResult, candidates: list[EntityRef]
    ) -> Revision | None:
        checked: list[CheckedFact] = []
        evidence: list[str] = []
        wrong: list[PlannedFact] = []
        for g, rg in zip(groups, result.groups, strict=True):
            for fact in g.factual:
                own = fact.verdicts.get(rg.entity or "")
                others = sorted(t for t in fact.attributed if t != rg.entity)
                if own is not None and own.supported:
                    checked.append(CheckedFact(fact.text, "supported", rg.entity))
                    continue
                if rg.conflated and others:
                    other = fact.verdicts.get(others[0])
                    cited = other.evidence[0].text if other is not None and other.evidence else ""
                    checked.append(CheckedFact(fact.text, "other", others[0], cited))
                    if run.config.revise_mode != "separate":
                        wrong.append(fact)
                else:
                    refuted = own is not None and own.refuted
                    cited = own.evidence[0].text if refuted and own is not None and own.evidence else ""
                    checked.append(CheckedFact(fact.text, "refuted" if refuted else "unsupported", rg.entity, cited))
                    wrong.append(fact)
                if checked[-1].evidence:
                    evidence.append(checked[-1].evidence)
        if len(checked) == sum(1 for f in checked if f.status == "supported"):
            return Revision(text=run.text.strip(), edits=[])
        titles = [c.title for c in candidates]
        mode = run.config.revise_mode
        try:
            revised, edits = ask(
                self.complete,
                build_revise_request(run.text, checked, mode),
                run.usage,
                self.config.retries,
                parse_revise,
                self.config,
                cache=JudgeCache.of(run, self.complete, REVISE_VERSION),
            )
        except (LLMOutputError, LLMCallError):
            reject(run.usage, "revise:no-usable-reply")
            return _fallback(run, groups, result, candidates, checked, evidence, wrong)
        problem = revision_problem(revised, run.text, checked, evidence, titles, mode)
        if problem is not None:
            reject(run.usage, f"revise:{problem}")
            return _fallback(run, groups, result, candidates, checked, evidence, wrong)
        return Revision(text=revised, edits=edits)


def _fallback(
    run: Run,
    groups: list[PlannedGroup],
    result: CheckResult,
    candidates: list[EntityRef],
    checked: list[CheckedFact],
    evidence: list[str],
    wrong: list[PlannedFact],
) -> Revision | None:
    """The rule-based revision; where it keeps a wrong value (the rules edit the facts they can place in a
    sentence, and an LLM's facts have no word ranges), the sentences the wrong facts came from are deleted."""
    revision = offline.revise_by_rules(run, groups, result, candidates)
    titles = [c.title for c in candidates]
    if revision is not None:
        problem = revision_problem(revision.text, run.text, checked, evidence, titles, run.config.revise_mode)
        if problem not in ("kept-refuted-value", "unchanged"):
            return revision
    return _delete_sentences(run.text, wrong)


def _delete_sentences(answer: str, wrong: Sequence[PlannedFact]) -> Revision:
    """``answer`` without the sentences (their spans) that ``wrong`` came from."""
    spans = sorted({span for fact in wrong for span in fact.spans})
    merged: list[list[int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    text = answer
    edits: list[Edit] = []
    for start, end in reversed(merged):
        edits.append(Edit(kind="delete", original=text[start:end], reason="not supported by the pages"))
        text = text[:start] + text[end:]
    text = re.sub(r"\n{3,}", "\n\n", re.sub(r"[ \t]+\n", "\n", re.sub(r"[ \t]{2,}", " ", text))).strip()
    return Revision(text=text, edits=edits[::-1])


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


def _retrieve(
    kb: KnowledgeSource, name: str, facts: Sequence[PlannedFact], candidates: list[EntityRef], config: LLMConfig
) -> list[list[Page]]:
    """For each fact, the passages of each candidate page for its group's name and the fact (a short page
    whole, in page order)."""
    whole: dict[str, tuple[str, ...] | None] = {}
    out: list[list[Page]] = [[] for _ in facts]
    for ref in candidates:
        t = ref.title
        if t not in whole:
            first = kb.passages(t, name, k=config.short_page_passages + 1)
            short = (
                len(first) <= config.short_page_passages and sum(len(p.text) for p in first) <= config.short_page_chars
            )
            if short and all(p.passage_id is not None for p in first):
                first = sorted(first, key=lambda p: p.passage_id or 0)
            whole[t] = tuple(p.text for p in first) if short else None
        page = whole[t]
        for i, fact in enumerate(facts):
            if page is not None:
                passages = page
            else:
                passages = tuple(p.text for p in kb.passages(t, f"{name} {fact.text}", k=config.passages_per_fact))
            if passages:
                out[i].append(Page(t, passages))
    return out


def _verify(
    run: Run,
    groups: list[PlannedGroup],
    candidates: list[EntityRef],
    pending: set[int] | None,
    complete: Complete,
    config: LLMConfig,
) -> None:
    usage = run.usage
    ids: dict[str, PlannedFact] = {}
    retrieved: dict[str, dict[str, tuple[str, ...]]] = {}  # fact id -> title -> its passages
    vgroups: list[VerifyGroup] = []
    for g in groups:
        facts = [f for f in g.factual if pending is None or id(f) in pending]
        if not facts:
            continue
        per_fact = _retrieve(run.kb, g.individual.name, facts, candidates, config)
        items: list[tuple[str, str, list[Page]]] = []
        for fact, pages in zip(facts, per_fact, strict=True):
            fid = f"F{len(ids) + 1}"
            ids[fid] = fact
            retrieved[fid] = {p.title: p.passages for p in pages}
            items.append((fid, fact.text, pages))
        vgroups.append(VerifyGroup.of(g.individual.name, items))
    cache = JudgeCache.of(run, complete, llm_verify.PROMPT_VERSION)
    reply = VerifyReply()
    for batch in batch_groups(vgroups, config.max_prompt_chars, config.max_facts_per_call):
        reply.merge(_judge(batch, complete, usage, config, cache))
    if reply.missing:
        # One more call with only the facts the replies left out.
        missing = set(reply.missing)
        again = [g.part([i for i, (fid, _) in enumerate(g.facts) if fid in missing]) for g in vgroups]
        again = [g for g in again if g.facts]
        try:
            reply.merge(_judge(again, complete, usage, config, cache))
        except (LLMOutputError, LLMCallError):
            pass  # the facts stay without a verdict (not supported), counted below; the others' verdicts stand
    for check, _ in reply.rejected:
        reject(usage, f"verify:{check}")
    if reply.missing:
        reject(usage, "verify:missing-id", len(reply.missing))
    for fid, fact in ids.items():
        j = reply.judgements.get(fid, llm_verify.Judgement())
        for ref in candidates:
            t = ref.title
            cited: tuple[str, ...]
            if t in j.cited:
                cited = (j.cited[t],)
            else:
                cited = retrieved[fid].get(t, ())[:1]  # what it was judged on: its best passage of the page
            evidence = tuple(Evidence(title=t, text=p) for p in cited)
            if t in j.supported_by:
                fact.verdicts[t] = EntityVerdict(t, Stance.SUPPORT, 1.0, 0.0, evidence, decided_by=LLM)
            elif t in j.refuted_by:
                fact.verdicts[t] = EntityVerdict(t, Stance.REFUTE, 0.0, 1.0, evidence, decided_by=LLM)
            else:
                fact.verdicts[t] = EntityVerdict(t, Stance.IRRELEVANT, 0.0, 0.0, evidence, decided_by=LLM)


def _judge(
    batch: list[VerifyGroup], complete: Complete, usage: Usage, config: LLMConfig, cache: JudgeCache | None = None
) -> VerifyReply:
    """One verification call for ``batch``; a reply cut at max_tokens is asked again in two halves."""
    try:
        return ask(
            complete,
            build_verify_request(batch),
            usage,
            config.retries,
            lambda raw: parse_verify(raw, batch),
            config,
            schema=llm_verify.SCHEMA,
            cache=cache,
        )
    except LLMCallError as e:
        halves = llm_verify.split_batch(batch)
        if e.kind != "truncated" or len(halves) < 2:
            raise
        reject(usage, "verify:truncated-split")
        reply = VerifyReply()
        for half in halves:
            reply.merge(_judge(half, complete, usage, config, cache))
        return reply
