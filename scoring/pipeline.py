"""Scoring settings and the steps every engine shares: subject inference, linking and scoring.

:func:`check` runs the offline engine (``scoring.engines``) on one answer; :class:`scoring.checker.Checker`
holds the orchestration (segment → decompose → candidates → verify → link and score → revise), and
:func:`score_groups` is its link-and-score step: attribution, linking (argmax share, Hungarian),
FActScore, D-FActScore, bios, entities and conflation.

It holds no per-call state outside its arguments, so it is safe to call from several threads
(the spaCy pipeline is shared behind a lock; the default verifier is loaded once).

>>> from knowledge.store import Store  # doctest: +SKIP
>>> result = check("Dick Hanley was born in 1936. He died in 1970.", kb=Store.open("demo.sqlite3"))  # doctest: +SKIP
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from schemas.check import CheckResult, Evidence, FactGroup, FactResult
from schemas.enums import Stance, Verdict, Worthiness
from schemas.knowledge import EntityRef
from scoring import nlp
from scoring.language import LanguageConfig
from scoring.linking import MAX_CANDIDATES, link, name_match, set_cover
from scoring.metrics import dfactscore, factscore
from scoring.plan import PlannedFact, PlannedGroup, by_sentence
from scoring.protocols import KnowledgeSource, StanceModel, VerdictCache
from scoring.segment.question import question_subject
from scoring.sentences import split_sentences
from scoring.verify import NO_SHARED_CONTENT, VerifyConfig

_QUESTION_NAME = re.compile(
    r"(?:bio(?:graphy)? of|about|who (?:is|was|were)|information on|life of)\s+(.+?)\s*[?.!]*$", re.IGNORECASE
)


@dataclass(frozen=True)
class CheckConfig:
    """Settings of the offline engine."""

    verify: VerifyConfig = field(default_factory=lambda: VerifyConfig(support=0.6))
    max_candidates: int = MAX_CANDIDATES
    # Which entities a fact "comes from" (entity_supporting, number of entities, conflation): those
    # supporting it within this margin of the strongest support, so a weak generic match to another
    # page does not count as a second source.
    attribution_margin: float = 0.1
    # A group is conflated when at least this many of its facts come from other entities (and not from
    # its own); an entity counts towards the number of entities when it is linked or is the source of
    # at least this many facts. Two, so that one stray match of a noisy verifier is not a second person.
    conflation_min_facts: int = 2
    revise: bool = True
    revise_mode: Literal["separate", "drop"] = "separate"
    max_sentences: int = 120
    # Names of rules (``scoring.rules``) switched off, in every step (the caller's setting: nothing here reads
    # the environment).
    rules_off: frozenset[str] = frozenset()
    # The languages the engine reads (English for the offline engine); an answer in another is unverifiable.
    language: LanguageConfig = field(default_factory=LanguageConfig)

    def on(self, name: str) -> bool:
        return name not in self.rules_off

    def without(self, names: Iterable[str]) -> CheckConfig:
        """This configuration with the rules ``names`` switched off (validated: unknown names raise)."""
        from scoring.rulebook import rule_names  # the rule modules run the steps configured here

        off = self.rules_off | rule_names(names)
        return replace(self, rules_off=off, verify=replace(self.verify, rules_off=off))


def default_config(rules_off: Iterable[str] = ()) -> CheckConfig:
    """The offline engine's configuration with the rules named in ``rules_off`` (names or comma-separated
    lists, validated: an unknown name raises :class:`scoring.rules.UnknownRule`) switched off in every step."""
    return CheckConfig().without(rules_off)


_verifier_lock = threading.Lock()
_default_verifier: StanceModel | None = None
_nli_model_dir: Path | None = None


def use_nli_model(directory: Path | None) -> None:
    """Make the NLI model in ``directory`` (``scoring.verifier.nli``) the stance model of every check in this
    process that is given none; None: the packaged offline model. The caller reads the setting (a worker's
    ``FACTSENTRY_NLI_MODEL_DIR``); it takes effect at the next :func:`default_verifier`."""
    global _default_verifier, _nli_model_dir
    with _verifier_lock:
        if directory != _nli_model_dir:
            _nli_model_dir, _default_verifier = directory, None


def default_verifier() -> StanceModel:
    """The stance model, loaded once per process: the NLI model :func:`use_nli_model` names, else the packaged
    offline model."""
    global _default_verifier
    with _verifier_lock:
        if _default_verifier is None:
            if _nli_model_dir is not None:
                from scoring.verifier.nli import NLIStanceModel

                _default_verifier = NLIStanceModel.load(_nli_model_dir)
            else:
                from scoring.verifier import OfflineVerifier

                _default_verifier = OfflineVerifier.load()
        return _default_verifier


def warm_up() -> None:
    """Load what a first check would load on demand (the spaCy pipeline, the stance model) and run each
    once. A worker also runs a whole check before it reports ready (``workers.scoring_stage``)."""
    nlp.parse(["Ada Lovelace was an English mathematician. She was born in London in 1815."])
    default_verifier().score("Ada Lovelace was born in 1815.", ["Ada Lovelace was born in London in 1815."])


def infer_subject(text: str, question: str | None = None) -> str:
    """The person an answer is about: from the question ("Tell me a bio of X"), else the first person named, else what
    the question asks about ("What are the specs of the Acme X2?")."""
    if question:
        m = _QUESTION_NAME.search(question.strip())
        if m:
            return m.group(1).strip(" \"'")
    sentences = split_sentences(text)[:3]
    docs = nlp.parse([s.text for s in sentences])
    for doc in docs:
        for ent in doc.ents:
            if ent.label_ == "PERSON":
                return ent.text
    asked = question_subject(question) if question else ""  # "What are the specs of the Acme X2?"
    if asked:
        return asked
    for doc in docs:
        for tok in doc:
            if tok.dep_ in ("nsubj", "nsubjpass") and tok.pos_ == "PROPN":
                left = tok.left_edge.i
                return doc[left : tok.i + 1].text
    return ""


def check(
    text: str,
    *,
    kb: KnowledgeSource,
    name: str | None = None,
    question: str | None = None,
    verifier: StanceModel | None = None,
    cache: VerdictCache | None = None,
    config: CheckConfig | None = None,
) -> CheckResult:
    """Check one answer against ``kb`` with the offline engine (``scoring.engines``): facts, groups,
    FActScore, D-FActScore and a suggested revision."""
    from scoring.engines import build_checker

    checker = build_checker("offline", config=config or default_config(), stance_model=verifier)
    return checker.check(text, kb=kb, name=name, question=question, cache=cache)


def score_groups(
    groups: list[PlannedGroup], candidates: list[EntityRef], config: CheckConfig, grounded: bool = False
) -> CheckResult:
    """Link each group, then FActScore, D-FActScore, bios, entities and conflation from the facts' verdicts.

    Shared by the offline and the LLM engine: every factual fact must hold a verdict per candidate.
    ``grounded``: the candidates are the request's own documents, which the answer is always judged by
    (never ``unverifiable``: a claim none of them supports is ungrounded).
    """
    titles = [c.title for c in candidates]
    # Support decides the link; attribution (the fact's closest source) breaks near-ties.
    counts = [
        [sum(1.0 + 0.5 * (t in f.attributed) for f in g.factual if f.verdicts[t].supported) for t in titles]
        for g in groups
    ]
    names = [[name_match(g.individual.label, c) for c in candidates] for g in groups]
    # Beside other groups, a group none of whose facts any page supports is linked to no page: it must
    # not take a page from a group that has evidence for it. Alone, its name still points to its page.
    alone = len(groups) == 1
    links = [e if e is not None and (alone or any(counts[gi])) else None for gi, e in enumerate(link(counts, names))]
    linked: dict[int, str | None] = {i: (titles[e] if e is not None else None) for i, e in enumerate(links)}

    all_supports: list[set[int]] = []
    independent: list[bool] = []
    # What each fact counts as evidence of another person: as for conflation, a distinctive fact counts twice.
    weights: list[int] = []
    any_flags: list[bool] = []
    group_flags: list[list[bool]] = []
    conflated: dict[int, bool] = {}
    for gi, g in enumerate(groups):
        flags: list[bool] = []
        others = 0
        factual = g.factual
        siblings = by_sentence(factual)
        for fact in factual:
            support = {ti for ti, t in enumerate(titles) if t in fact.attributed}
            all_supports.append(support)
            # "wrote the song" and "wrote the song in 1971" are one piece of evidence for a source, not two.
            independent.append(not _dominated(fact, siblings[fact.atom.sentence_index]))
            any_flags.append(bool(support))
            own = linked[gi] is not None and fact.verdicts[linked[gi] or ""].supported
            flags.append(own)
            weights.append((2 if _distinctive(fact, linked[gi]) else 1) if independent[-1] else 0)
            if support and not own and independent[-1]:
                others += weights[-1]
        group_flags.append(flags)
        conflated[gi] = linked[gi] is not None and others >= config.conflation_min_facts and any(group_flags[gi])
    prefer = [e for e in links if e is not None]
    cover = set_cover(all_supports, prefer)
    entities = [
        e for e in cover if e in prefer or _covers(e, cover, all_supports, weights) >= config.conflation_min_facts
    ]

    results = [group_result(g, linked[gi], conflated[gi]) for gi, g in enumerate(groups)]
    facts = [f for g in groups for f in g.factual]
    covered = [any(v.stance is not Stance.IRRELEVANT for v in f.verdicts.values()) for f in facts]
    coverage = round(sum(covered) / len(covered), 4) if covered else None
    about_anyone = any(
        c > 0 or n >= 1.0 for gc, gn in zip(counts, names, strict=True) for c, n in zip(gc, gn, strict=True)
    )
    if not grounded and not about_anyone:
        # No page is about anyone the answer describes (no page supports a fact, none bears a group's
        # name): nothing here can say whether the facts are true. An invented life of a person the
        # store knows by that name is still checked, and scores 0.
        return CheckResult(
            unverifiable=True,
            coverage=coverage,
            num_facts=len(any_flags),
            num_bios=len(groups),
            groups=results,
            engine="offline",
        )
    return CheckResult(
        abstained=False,
        coverage=coverage,
        factscore=factscore(any_flags),
        dfactscore=dfactscore(group_flags),
        num_facts=len(any_flags),
        num_bios=len(groups),
        num_entities=len(entities),
        groups=results,
        engine="offline",
    )


def _covers(entity: int, cover: list[int], supports: list[set[int]], weights: list[int]) -> int:
    """The weight of the independent facts ``entity`` is the chosen source of in the greedy ``cover`` (earlier
    picks win): one per fact, two for a fact only its page can hold (:func:`_distinctive`)."""
    before = set(cover[: cover.index(entity)])
    return sum(w for s, w in zip(supports, weights, strict=True) if entity in s and not (s & before))


def _distinctive(fact: PlannedFact, linked: str | None) -> bool:
    """The fact's years and names are all on another supporting page and missing from the linked one
    ("born in 1936" with the swimmer's page saying 1936 and the coach's 1894): proof of a merge on its own."""
    own = fact.verdicts.get(linked or "")
    if own is None:
        return False
    # A linked page that shares no word with the fact at all holds none of its years and names either.
    keys = 0.0 if own.decided_by == NO_SHARED_CONTENT else own.key_terms
    if keys is None or keys >= 0.5:
        return False
    return any((fact.verdicts[t].key_terms or 0.0) >= 0.75 for t in fact.attributed if t != linked)


def _dominated(fact: PlannedFact, facts: list[PlannedFact]) -> bool:
    """True when another fact of the same sentence says this and more, from the same sources (``facts``: the
    group's facts, or only those of its sentence, :func:`scoring.plan.by_sentence`)."""
    for other in facts:
        if other is fact or other.atom.sentence_index != fact.atom.sentence_index:
            continue
        if fact.atom.tokens < other.atom.tokens and (fact.attributed & other.attributed or not fact.attributed):
            return True
    return False


def group_result(g: PlannedGroup, entity: str | None, conflated: bool) -> FactGroup:
    facts: list[FactResult] = []
    for fact in g.facts:
        if fact.worthiness is not Worthiness.FACTUAL or not fact.verdicts:
            facts.append(
                FactResult(
                    text=fact.text,
                    sentence_index=fact.atom.sentence_index,
                    worthiness=fact.worthiness,
                    verdict=Verdict.IRRELEVANT,
                    stance=Stance.IRRELEVANT,
                    decided_by=fact.worthiness_rule or "no-candidates",
                    spans=fact.spans,
                    hedged=fact.hedged,
                )
            )
            continue
        supporting = [t for t in fact.verdicts if t in fact.attributed]
        any_support = any(v.supported for v in fact.verdicts.values())
        own = fact.verdicts.get(entity) if entity else None
        best = own or max(fact.verdicts.values(), key=lambda v: v.support)
        evidence: list[Evidence] = list(best.evidence)
        if own is not None and not own.supported and supporting:
            other = max((fact.verdicts[t] for t in supporting), key=lambda v: v.support)
            evidence.extend(other.evidence[:1])
        facts.append(
            FactResult(
                text=fact.text,
                sentence_index=fact.atom.sentence_index,
                worthiness=fact.worthiness,
                verdict=Verdict.SUPPORTED if any_support else Verdict.NOT_SUPPORTED,
                verdict_linked=Verdict.SUPPORTED if own is not None and own.supported else Verdict.NOT_SUPPORTED,
                stance=best.stance,
                entity_supporting=supporting,
                confidence=best.support if best.supported else 1.0 - best.support,
                evidence=evidence,
                decided_by=best.decided_by,
                spans=fact.spans,
                hedged=fact.hedged,
            )
        )
    return FactGroup(
        mention=g.individual.label,
        entity=entity,
        conflated=conflated,
        facts=facts,
    )
