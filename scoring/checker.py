"""One orchestration for every engine: a :class:`Checker` runs the same steps in the same order, and an
engine (``scoring.engines``) is only a choice of step implementations.

Steps (papers.md), each a small protocol below:

1. **segment** — sentences, abstention (shared by every engine);
2. **decompose** — atomic facts, grouped by the individual a reader would think they describe, made
   standalone and classified as check-worthy or not (offline: spaCy and rules; llm: one call);
3. **candidates** — the store's entities behind the groups' names (shared);
4. **verify** — each check-worthy fact against each candidate's page (offline: the stance model and
   named rules; llm: batched calls; hybrid: the stance model, the LLM for what it is unsure of);
5. **link and score** — attribution, linking, FActScore, D-FActScore, conflation (shared:
   :func:`scoring.score.score_groups`);
6. **revise** — the suggested revision (offline: edits by rule; llm: one call).

A step reads what it needs from the :class:`Run` of one answer (the store, the cache, the
configuration, the stance model's evidence) and counts its LLM calls in ``run.usage``. The
orchestration is synchronous: LLM steps block on their call, so callers run checks in threads or
processes (the worker's executor), never on an event loop.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from schemas.check import CheckResult, Revision
from schemas.knowledge import EntityRef
from scoring.abstain import abstention_rule, declines_or_asks
from scoring.config import CheckConfig
from scoring.language import detect
from scoring.linking import FAMILIAR_NAME_PAGE, QUOTED_NICKNAME_PAGE, candidate_entities
from scoring.models import default_verifier
from scoring.plan import PlannedGroup
from scoring.protocols import DocumentGrounded, KnowledgeSource, MemoryVerdictCache, StanceModel, VerdictCache
from scoring.recheck import DELETE_FAILING, RECHECKED, evidence_texts, offer
from scoring.revise import RevisionInput, revise
from scoring.rules import rule
from scoring.score import group_result, lead_after_people, score_groups
from scoring.sentences import Sentence, split_sentences
from scoring.spans import align, char_spans, sentence_span
from scoring.subject import infer_subject
from scoring.verify import EntityVerdict, EvidenceVerifier
from scoring.worthiness import (
    ABOUT_SOURCES,
    ABOUT_THE_DOCUMENT,
    ASSISTANT_ASIDE,
    ASSISTANT_TALK,
    CHATTER,
    EXISTENCE,
    QUESTION,
    READER_DIRECTION,
    TALK_RESIDUE,
)
from vocabulary.english import THIRD_PERSON_SINGULAR

log = logging.getLogger(__name__)


@dataclass
class Usage:
    """LLM calls of one check: calls made, tokens used, and calls that failed or could not be read."""

    calls: int = 0
    tokens: int = 0
    errors: int = 0
    # Of ``tokens``, those of the prompts and of the replies, when the judge reports them; and the calls' cost
    # in US dollars by litellm's cost map (None when the judge's model is not in it).
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = None
    # Judge calls answered from the cache (the same prompt to the same judge model and prompt version): not
    # in ``calls``.
    cached: int = 0
    # What the llm steps' validations rejected of the judge's replies, by check ("verify:quote-not-found",
    # "decompose:value-not-in-answer", "revise:refusal", ...): see scoring/llm.
    rejected: dict[str, int] = field(default_factory=dict)


@dataclass
class Reuse:
    """What a check hands to the re-check of its own revision, so that what the revision kept is not worked out
    again: the verdicts by cache key (``EvidenceVerifier.known``: what the cache would serve for them) and the
    candidate pages by the names searched (the same store, read within one check)."""

    verdicts: dict[str, EntityVerdict] = field(default_factory=dict)
    candidates: dict[tuple[object, ...], list[EntityRef]] = field(default_factory=dict)


@dataclass
class Run:
    """One answer on its way through the steps: what every step may read, and the counters it adds to."""

    text: str
    sentences: list[Sentence]
    subject: str
    question: str | None
    kb: KnowledgeSource
    cache: VerdictCache | None
    config: CheckConfig
    stance_model: StanceModel | None = None
    usage: Usage = field(default_factory=Usage)
    language: str | None = None  # the answer's main language (scoring.language)
    # The sentences as the decomposition read them (records as prose, hedges off), when it rewrote any:
    # what facts' token ids point into.
    readings: list[str] | None = None
    reuse: Reuse = field(default_factory=Reuse)
    _evidence: EvidenceVerifier | None = None
    _char_maps: list[list[int]] | None = None

    @property
    def char_maps(self) -> list[list[int]]:
        """For each sentence, the answer offset of each of its characters (``scoring.spans.align``)."""
        if self._char_maps is None:
            self._char_maps = align(self.text, [s.text for s in self.sentences])
        return self._char_maps

    @property
    def evidence(self) -> EvidenceVerifier:
        """The stance model's verdict of a fact against one entity's page (cached); loaded on first use."""
        if self._evidence is None:
            model = self.stance_model or default_verifier()
            self._evidence = EvidenceVerifier(self.kb, model, self.cache, self.config.verify, known=self.reuse.verdicts)
        return self._evidence


class Decompose(Protocol):
    """Atomic facts of ``run.sentences`` grouped by perceived individual, each with its worthiness."""

    def __call__(self, run: Run) -> list[PlannedGroup]: ...


class Verify(Protocol):
    """Fill ``fact.verdicts[title]`` for every check-worthy fact and every candidate title."""

    def __call__(self, run: Run, groups: list[PlannedGroup], candidates: list[EntityRef]) -> None: ...


class ParseAhead(Protocol):
    """Do at once, for several answers (the sentences of each), the parsing their decompose steps will ask for."""

    def __call__(self, answers: Sequence[Sequence[Sentence]], config: CheckConfig) -> None: ...


class Revise(Protocol):
    """The suggested revision of ``run.text`` from the scored groups (``None`` when none can be made)."""

    def __call__(
        self, run: Run, groups: list[PlannedGroup], result: CheckResult, candidates: list[EntityRef]
    ) -> Revision | None: ...


@dataclass(frozen=True)
class Checker:
    """An engine's steps, run by the one orchestration :meth:`check`."""

    engine: str
    decompose: Decompose
    verify: Verify
    revise: Revise
    config: CheckConfig = field(default_factory=CheckConfig)
    stance_model: StanceModel | None = None
    # The LLM judge's name (a model_name of the operator's model list) for engines that call one.
    judge: str | None = None
    # Batch work of the decompose step (the offline one parses); None when it has none.
    parse_ahead: ParseAhead | None = None
    # Check the revise step's revision again before offering it (scoring.recheck); the llm engine's judge
    # revision is guarded by its own step (scoring.llm: no refusal, no refuted or unfounded value) instead.
    recheck: bool = True

    def prepare(self, texts: Sequence[str]) -> None:
        """Parse the sentences of all ``texts`` in one batch before they are checked one by one.

        A worker's batch of answers costs less this way (one spaCy batch instead of one per answer);
        each :meth:`check` then finds its parses cached. Results are the same with or without it.
        """
        if self.parse_ahead is None:
            return
        max_sentences = self.config.max_sentences
        rules_off = self.config.rules_off
        self.parse_ahead([split_sentences(text, rules_off)[:max_sentences] for text in texts], self.config)

    def check(
        self,
        text: str,
        *,
        kb: KnowledgeSource,
        name: str | None = None,
        question: str | None = None,
        cache: VerdictCache | None = None,
    ) -> CheckResult:
        """Check one answer against ``kb``: facts, groups, FActScore, D-FActScore and a suggested revision."""
        return self._checked(text, kb, name, question, cache, Reuse())

    def _checked(
        self,
        text: str,
        kb: KnowledgeSource,
        name: str | None,
        question: str | None,
        cache: VerdictCache | None,
        reuse: Reuse,
    ) -> CheckResult:
        config = self.config
        all_sentences = split_sentences(text, config.rules_off)
        abstained_by = "empty" if not text.strip() else abstention_rule(text, all_sentences, config.rules_off)
        if abstained_by is not None:
            return CheckResult(abstained=True, abstained_by=abstained_by, engine=self.engine)
        sentences = all_sentences[: config.max_sentences]
        subject = (name or "").strip() or infer_subject(text, question)
        run = Run(text, sentences, subject, question, kb, cache, config, self.stance_model, reuse=reuse)
        language = detect(text, config.language)
        run.language = language.code
        if not language.readable:  # a language the engine does not read: nothing in it is judged or scored
            return self._finish(run, CheckResult(unverifiable=True, reason="language"))
        try:
            return self._check(run, config)
        finally:
            # This answer's new verdicts go to the cache in one write, also when a later step failed (a judge
            # out of reach): a retry then finds them.
            if run._evidence is not None:
                try:
                    run._evidence.flush()
                except Exception:
                    log.warning("writing the verdicts of a check to the cache failed", exc_info=True)

    def _check(self, run: Run, config: CheckConfig) -> CheckResult:
        sentences, subject, kb = run.sentences, run.subject, run.kb
        groups = self.decompose(run)
        _locate(run, groups)
        if config.on(ONLY_ASSISTANT_TALK) and _only_assistant_talk(groups):
            return self._finish(run, _abstained(groups, ONLY_ASSISTANT_TALK))
        declined = config.on(DECLINED_WITHOUT_EVIDENCE) and declines_or_asks(
            [s.text for s in sentences], config.rules_off
        )
        if declined and not any(g.factual for g in groups):
            return self._finish(run, _abstained(groups, DECLINED_WITHOUT_EVIDENCE))
        if not any(g.factual for g in groups):
            return self._finish(
                run,
                CheckResult(
                    unverifiable=True,  # nothing check-worthy: no claim to judge
                    groups=[group_result(g, None, False) for g in groups],
                    num_facts=sum(len(g.facts) for g in groups),
                ),
            )
        names = [g.individual.name for g in groups if g.factual] + [subject]
        documents = kb.documents if isinstance(kb, DocumentGrounded) else []
        options = {"nicknames": config.on(QUOTED_NICKNAME_PAGE), "familiar": config.on(FAMILIAR_NAME_PAGE)}
        candidates = _candidates(run, names, documents, options)
        aliases = identity_names(groups) if len(candidates) == len(documents) and config.on(IDENTITY_NAMES) else []
        if aliases:
            # No page carries the names asked about (a nickname): the name the answer says they go by may.
            candidates = _candidates(run, names + aliases, documents, options)
        self.verify(run, groups, candidates)
        if declined and _without_evidence(groups, config):
            return self._finish(run, _abstained(groups, DECLINED_WITHOUT_EVIDENCE))
        for g in groups:
            for fact in g.factual:
                fact.attribute(config.attribution_margin)
        # Against its own documents an answer is always judged: what none of them supports is not grounded.
        result = score_groups(groups, candidates, config, grounded=bool(documents), subject=subject)
        groups, result = lead_after_people(groups, result, config)
        if config.revise and candidates and not result.unverifiable:
            # Without any page about the names in the answer there is nothing to revise against.
            result.revision = self._revised(run, groups, result, candidates)
        return self._finish(run, result)

    def _revised(
        self, run: Run, groups: list[PlannedGroup], result: CheckResult, candidates: list[EntityRef]
    ) -> Revision | None:
        """The revise step, its revision checked again (once, without a revision of its own) before it is
        offered, else the failing facts deleted (:mod:`scoring.recheck`)."""
        first = self.revise(run, groups, result, candidates)
        if first is None or not self.recheck or not run.config.on(RECHECKED):
            return first
        again = replace(self, config=replace(run.config, revise=False))

        def recheck(text: str) -> CheckResult:
            # The verdicts of facts the revision kept as they were are not computed again: this check's (flushed
            # to the cache first, and handed over as objects), or without a cache its facts' own verdicts. Its
            # candidate pages are handed over too; the parses of the sentences the revision kept are in the parse
            # cache (``scoring.nlp``), so only the sentences it changed are parsed.
            cache = run.cache
            reuse = run.reuse
            if run._evidence is not None:
                run._evidence.flush()
                if cache is None:
                    cache = MemoryVerdictCache()
                    reuse = Reuse(_verdicts(run._evidence, groups), run.reuse.candidates)
            name = run.subject or None
            checked = again._checked(text, run.kb, name, run.question, cache, reuse)
            _add_usage(run.usage, checked)  # the re-check's judge calls are this check's
            return checked

        def delete(wrong: frozenset[str]) -> Revision | None:
            if not run.config.on(DELETE_FAILING):
                return first
            return revise(
                RevisionInput(
                    sentences=run.readings or [s.text for s in run.sentences],
                    written=[s.text for s in run.sentences],
                    groups=[(g, r.entity) for g, r in zip(groups, result.groups, strict=True)],
                    entities={c.title: c for c in candidates},
                    mode="drop",
                    paragraphs=[s.paragraph for s in run.sentences],
                    rules_off=run.config.rules_off,
                    whole_on_fragment=True,
                    answer=run.text,
                    maps=run.char_maps,
                    wrong_values=wrong,
                    headings=frozenset(i for i, s in enumerate(run.sentences) if s.label and s.section),
                )
            )

        return offer(first, run.text, result, recheck, delete, evidence_texts(groups, candidates))

    def _finish(self, run: Run, result: CheckResult) -> CheckResult:
        result.sentences = [s.text for s in run.sentences]
        result.sentence_spans = [sentence_span(m) for m in run.char_maps]
        result.engine = self.engine
        result.language = run.language
        if isinstance(run.kb, DocumentGrounded):
            result.grounding = "documents" if run.kb.store is None else "documents_and_store"
        result.llm_model = self.judge
        result.llm_calls, result.llm_tokens, result.llm_errors = run.usage.calls, run.usage.tokens, run.usage.errors
        result.llm_rejected = dict(run.usage.rejected)
        result.llm_prompt_tokens, result.llm_completion_tokens = run.usage.prompt_tokens, run.usage.completion_tokens
        result.llm_cost_usd = round(run.usage.cost_usd, 8) if run.usage.cost_usd is not None else None
        result.llm_cached_calls = run.usage.cached
        return result


def _abstained(groups: list[PlannedGroup], rule_name: str) -> CheckResult:
    return CheckResult(abstained=True, abstained_by=rule_name, groups=[group_result(g, None, False) for g in groups])


def _verdicts(evidence: EvidenceVerifier, groups: list[PlannedGroup]) -> dict[str, EntityVerdict]:
    """One check's verdicts by cache key, for its re-check when no cache is configured."""
    return {
        evidence._key(fact.text, title): verdict
        for g in groups
        for fact in g.factual
        for title, verdict in fact.verdicts.items()
    }


def _candidates(run: Run, names: list[str], documents: list[EntityRef], options: dict[str, bool]) -> list[EntityRef]:
    """:func:`candidate_entities` of ``names``, searched once per check: the re-check of a revision that keeps the
    names finds the pages found before (the same store, within one check)."""
    limit = run.config.max_candidates
    # The search reads each name once, in order (a name said twice or empty changes nothing).
    searched = tuple(dict.fromkeys(n for n in names if n))
    key = (searched, limit, tuple(d.title for d in documents), tuple(sorted(options.items())))
    found = run.reuse.candidates.get(key)
    if found is None:
        found = run.reuse.candidates[key] = candidate_entities(run.kb, names, limit=limit, pinned=documents, **options)
    return list(found)


def _add_usage(usage: Usage, result: CheckResult) -> None:
    usage.calls += result.llm_calls
    usage.tokens += result.llm_tokens
    usage.errors += result.llm_errors
    usage.prompt_tokens += result.llm_prompt_tokens
    usage.completion_tokens += result.llm_completion_tokens
    usage.cached += result.llm_cached_calls
    if result.llm_cost_usd is not None:
        usage.cost_usd = (usage.cost_usd or 0.0) + result.llm_cost_usd
    for key, n in result.llm_rejected.items():
        usage.rejected[key] = usage.rejected.get(key, 0) + n


ONLY_ASSISTANT_TALK = rule(
    "only-assistant-talk",
    "worthiness",
    "an answer whose every statement is about the conversation or the sources (declining, asking which "
    "person is meant, offering help) abstains",
)
IDENTITY_NAMES = rule(
    "identity-names",
    "link",
    "when no page carries the names an answer is about (a nickname), a name the answer says its person is "
    "('the organizer known as \"Mother Mary\" was Mary Ellen Castellane') is searched for candidate pages",
)
# "… was Mary Ellen Castellane.", "… is the ring name of Theodore Vance (1909–1971).", "… appears to be a
# pseudonym for Mahmoud Khoshnam": the fact names who it is.
_IDENTITY = re.compile(
    r"\b(?:was|is|be)\s+(?:(?:probably|likely|perhaps|possibly|most\s+likely)\s+)?"
    r"(?:(?:(?:the|a|an)\s+)?(?:(?:ring|stage|pen|real|birth|given|full)\s+name|pseudonym|alias"
    r"|nickname|misspelling|(?:another|other|alternative|variant)\s+(?:name|spelling))\s+(?:of|for)\s+)?"
    r"(?P<name>[A-Z][\w'’.-]+(?:\s+(?:[A-Z][\w'’.-]+|de|van|von|da|del|la|le))+)\s*(?:\([^()]*\))?\s*\.?$"
)


def identity_names(groups: list[PlannedGroup]) -> list[str]:
    """Full names the answer's facts say its people are (a nickname answered with the real name)."""
    out: dict[str, None] = {}  # in order of appearance, each once (membership in a list was a scan per name)
    for g in groups:
        for fact in g.factual:
            m = _IDENTITY.search(fact.text)
            name = m.group("name").rstrip(".") if m is not None else ""
            if name:
                out.setdefault(name)
    return list(out)


DECLINED_WITHOUT_EVIDENCE = rule(
    "declined-without-evidence",
    "verify",
    "an answer that declines or asks which person is meant somewhere, and whose check-worthy statements are "
    "at most three and share no content with any page (what is left of its talk), abstains",
)
# At most this many check-worthy statements may be left over from a declining answer's talk.
_LEFTOVER = 3
# Verdicts that found nothing on the page to judge by.
_NO_EVIDENCE = frozenset({"no-shared-content", "no-passages", "key-terms-missing", "name-missing"})


GENERIC_AFTER_DECLINE = rule(
    "generic-after-decline",
    "verify",
    "in an answer that declines, a statement that names no one and nothing (no capitalised word after its first, no "
    "digit, no he or she: 'Local archives often keep short profiles.') is advice, not a claim about anyone: it is not "
    "one of the statements declined-without-evidence counts",
)


def _without_evidence(groups: list[PlannedGroup], config: CheckConfig) -> bool:
    generic = config.on(GENERIC_AFTER_DECLINE)
    facts = [f for g in groups for f in g.factual if not (generic and names_nothing(f.text))]
    return len(facts) <= _LEFTOVER and all(
        all(v.decided_by in _NO_EVIDENCE for v in f.verdicts.values()) for f in facts
    )


def names_nothing(statement: str) -> bool:
    """True when ``statement`` names no one and nothing: no capitalised word after its first (the assistant's "I"
    aside), no digit, no he or she.

    >>> names_nothing("A local archive often keeps short profiles of residents.")
    True
    >>> names_nothing("He played for two clubs."), names_nothing("Archives in Leeds keep them.")
    (False, False)
    """
    words = [w.strip(".,;:!?\"'()") for w in statement.split()]
    if any(ch.isdigit() for ch in statement) or any(w.lower() in THIRD_PERSON_SINGULAR for w in words):
        return False
    return not any(w[:1].isupper() and w != "I" and not w.startswith("I'") for w in words[1:])


# What the assistant says of itself, the user or the sources: an answer made only of these says nothing.
_TALK_RULES = frozenset(
    {
        ABOUT_SOURCES,
        QUESTION,
        CHATTER,
        ASSISTANT_ASIDE,
        ASSISTANT_TALK,
        EXISTENCE,
        TALK_RESIDUE,
        READER_DIRECTION,
        ABOUT_THE_DOCUMENT,
        "empty",
    }
)


def _only_assistant_talk(groups: list[PlannedGroup]) -> bool:
    facts = [f for g in groups for f in g.facts]
    return bool(facts) and all(f.worthiness_rule in _TALK_RULES for f in facts)


def _locate(run: Run, groups: list[PlannedGroup]) -> None:
    """Each fact's spans of the answer as written: its words' (or else its whole sentence's)."""
    maps = run.char_maps
    for g in groups:
        for fact in g.facts:
            i = fact.atom.sentence_index
            if not 0 <= i < len(maps):
                continue
            ranges = fact.ranges or ((0, len(run.sentences[i].text)),)
            fact.spans = char_spans(maps[i], ranges, run.text)
