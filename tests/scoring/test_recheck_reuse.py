"""The re-check of a revision works out again only what the revision changed: the sentences it kept are not
parsed again, the verdicts of the facts it kept are not computed again, and the candidate pages are not searched
again; the result is the one a re-check from nothing gives."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from knowledge.store import Store
from schemas.check import CheckResult
from scoring import checker as checker_module
from scoring import nlp
from scoring.checker import Reuse
from scoring.engines import build_checker
from scoring.protocols import MemoryVerdictCache
from scoring.sentences import split_sentences
from scoring.verifier import OfflineVerifier
from scoring.verify import EvidenceVerifier, VerifyConfig, code_version
from vocabulary.fold import fold_claim

HANLEY = (
    "Dick Hanley was an American swimmer born in 1936. He competed for the United States at the 1956 "
    "Summer Olympics in Melbourne, where he won a silver medal in the 4×200-metre freestyle relay. "
    "He later became a football coach, leading the Haskell Institute from 1922 to 1926 and Northwestern "
    "University from 1927 to 1934. During the Second World War he served in the United States Marine Corps. "
    "Hanley died in 1970."
)


class _Spy:
    """What spaCy parsed, the (fact, page) verdicts computed and the candidate searches, before and during the
    re-check of the revision."""

    def __init__(self) -> None:
        self.rechecking = False
        self.parsed: dict[bool, list[str]] = {False: [], True: []}
        self.computed: dict[bool, list[tuple[str, str]]] = {False: [], True: []}
        self.searched: dict[bool, int] = {False: 0, True: 0}
        self.revision: str | None = None


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> Iterator[_Spy]:
    found = _Spy()
    nlp.clear_cache()  # every sentence of the answer is parsed afresh by its first pass
    piped, compute, search = nlp._piped, EvidenceVerifier._compute, checker_module.candidate_entities
    offer = checker_module.offer

    def piped_spy(model: Any, texts: list[str], disable: list[str]) -> Any:
        found.parsed[found.rechecking] += texts
        return piped(model, texts, disable)

    def compute_spy(self: EvidenceVerifier, fact: str, entity: str, name: str) -> Any:
        found.computed[found.rechecking].append((fact, entity))
        return compute(self, fact, entity, name)

    def search_spy(*args: Any, **kwargs: Any) -> Any:
        found.searched[found.rechecking] += 1
        return search(*args, **kwargs)

    def offer_spy(first: Any, answer: str, result: Any, recheck: Callable[[str], CheckResult], *rest: Any) -> Any:
        def watched(text: str) -> CheckResult:
            found.rechecking, found.revision = True, text
            try:
                return recheck(text)
            finally:
                found.rechecking = False

        return offer(first, answer, result, watched, *rest)

    monkeypatch.setattr(nlp, "_piped", piped_spy)
    monkeypatch.setattr(EvidenceVerifier, "_compute", compute_spy)
    monkeypatch.setattr(checker_module, "candidate_entities", search_spy)
    monkeypatch.setattr(checker_module, "offer", offer_spy)
    yield found
    nlp.clear_cache()


def _check(kb: Store, cache: MemoryVerdictCache | None) -> CheckResult:
    return build_checker("offline").check(HANLEY, kb=kb, name="Dick Hanley", cache=cache)


@pytest.mark.parametrize("cached", [True, False])
def test_the_recheck_parses_only_the_sentences_the_revision_changed(demo_kb: Store, spy: _Spy, cached: bool) -> None:
    result = _check(demo_kb, MemoryVerdictCache() if cached else None)
    assert result.revision is not None and spy.revision is not None
    first = set(spy.parsed[False])
    revised = [s.text for s in split_sentences(spy.revision)]
    changed = [s for s in revised if s not in first]
    # The revision moves the swimmer out ("Another Dick Hanley was a swimmer born in 1936.") and keeps the rest.
    assert 0 < len(changed) < len(revised)
    assert sorted(spy.parsed[True]) == sorted(changed)
    assert len(spy.parsed[False]) == len(first)  # the first pass parsed each sentence once


@pytest.mark.parametrize("cached", [True, False])
def test_the_recheck_computes_only_the_verdicts_of_facts_the_revision_changed(
    demo_kb: Store, spy: _Spy, cached: bool
) -> None:
    _check(demo_kb, MemoryVerdictCache() if cached else None)
    first, again = spy.computed[False], spy.computed[True]
    assert first and not set(again) & set(first)
    # The kept facts' verdicts were handed over: the re-check computed fewer than the first pass.
    assert len(again) < len(first)
    # The revision keeps the names, so the candidate pages are not searched again.
    assert spy.searched == {False: 1, True: 0}


def test_the_recheck_gives_what_a_recheck_from_nothing_gives(demo_kb: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    handed = _check(demo_kb, MemoryVerdictCache())
    checked = checker_module.Checker._checked

    def from_nothing(self: Any, text: str, kb: Any, name: Any, question: Any, cache: Any, reuse: Reuse) -> Any:
        return checked(self, text, kb, name, question, MemoryVerdictCache() if cache is not None else None, Reuse())

    monkeypatch.setattr(checker_module.Checker, "_checked", from_nothing)
    alone = _check(demo_kb, MemoryVerdictCache())
    assert handed.revision is not None and alone.revision is not None
    assert handed.model_dump() == alone.model_dump()


@pytest.mark.parametrize(
    "config",
    [VerifyConfig(), VerifyConfig(support=0.6, passages_k=3, rules_off=frozenset({"work-year", "rank-mismatch"}))],
)
def test_cache_keys_are_those_written_before(demo_kb: Store, verifier: OfflineVerifier, config: VerifyConfig) -> None:
    """Keys are shared with every worker of a Redis cache: joining their fixed parts once keeps them as they were."""
    evidence = EvidenceVerifier(demo_kb, verifier, MemoryVerdictCache(), config)
    fact, entity = "Dick Hanley was born in 1936.", "Dick Hanley (swimmer)"
    settings = f"{config.support}:{config.refute}:{config.passages_k}:{config.key_terms}"
    written = (
        demo_kb.version,
        verifier.version,
        entity,
        fold_claim(fact),
        settings,
        ",".join(sorted(config.rules_off)),
    )
    expected = "\x1f".join(("verdict/4", code_version(), *written))
    assert evidence._key(fact, entity) == expected
    assert evidence._key("He died in 1970.", entity).endswith(f"\x1fhe died in 1970\x1f{settings}\x1f{written[-1]}")
