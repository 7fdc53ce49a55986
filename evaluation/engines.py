"""The engine an evaluation runs: the offline verifier, and the full pipeline over an in-memory store.

The pipeline (``scoring.pipeline``), the decomposer (``scoring.decompose``) and the knowledge store
(``knowledge.store``) are imported when first needed, so the stance evaluations run even where
those are not installed; asking for them then fails with :class:`EngineUnavailable`.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from evaluation.errors import EvaluationError
from schemas.check import CheckResult
from scoring.verifier import OfflineVerifier

ENGINES = ("offline", "llm", "hybrid")
# Sets that judge whole answers through the checker, so any engine can run them; the others evaluate the
# offline stance model or decomposer on their own.
WHOLE_ANSWER_SETS = ("ambigbio", "corpus", "styles")
log = logging.getLogger(__name__)


class EngineUnavailable(EvaluationError):
    """A part of the pipeline that this evaluation needs is not importable."""


def _module(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError as e:
        raise EngineUnavailable(f"{name} is not available ({e}); this evaluation needs it") from e


@dataclass
class Engine:
    """What a runner calls: ``verifier`` for stances, :meth:`check` for whole answers, :meth:`decompose`."""

    name: str = "offline"
    verifier: OfflineVerifier = field(default_factory=OfflineVerifier.load)
    # Names of rules (``scoring.rules``) switched off in the pipeline (``factsentry eval --ablate``).
    rules_off: frozenset[str] = frozenset()
    # The LLM judge of the llm and hybrid engines: ``complete(messages)`` and its name.
    complete: Any = None
    judge: str | None = None

    @property
    def can_check(self) -> bool:
        """Whether the full pipeline and the knowledge store are importable."""
        try:
            _module("scoring.pipeline")
            _module("knowledge.store")
        except EngineUnavailable:
            return False
        return True

    def check(
        self,
        text: str,
        *,
        pages: Sequence[tuple[Any, ...]],
        name: str | None = None,
        question: str | None = None,
    ) -> CheckResult:
        """Check ``text`` with the full pipeline against a private in-memory store of ``pages``."""
        store_module = _module("knowledge.store")
        pipeline = _module("scoring.pipeline")
        engines = _module("scoring.engines")
        # A page is (title, passages) or (title, text or passages, aliases): what Store.add_pages takes.
        store = store_module.Store.in_memory(pages)
        try:
            config = pipeline.default_config().without(self.rules_off)
            checker = engines.build_checker(
                self.name, config=config, stance_model=self.verifier, complete=self.complete, judge=self.judge
            )
            result: CheckResult = checker.check(text, kb=store, name=name, question=question)
        finally:
            store.close()
        return result

    def try_check(
        self,
        text: str,
        *,
        pages: Sequence[tuple[Any, ...]],
        name: str | None = None,
        question: str | None = None,
    ) -> CheckResult | None:
        """:meth:`check`, or ``None`` (logged) when the pipeline fails on this answer.

        One answer the pipeline cannot handle must not sink a whole evaluation run; the runners count
        these failures and print the count beside the figures.
        """
        try:
            return self.check(text, pages=pages, name=name, question=question)
        except EngineUnavailable:
            raise
        except Exception as e:
            log.warning("the pipeline failed on an answer (%s: %s): %.80r", type(e).__name__, e, text)
            return None

    def decompose(self, sentence: str, sentence_index: int = 0) -> list[str]:
        """The atomic facts of one sentence, as texts."""
        decompose = _module("scoring.decompose")
        return [fact.text for fact in decompose.decompose_sentence(sentence, sentence_index)]


def engine(name: str, complete: Any = None, judge: str | None = None) -> Engine:
    """The engine called ``name``; ``llm`` and ``hybrid`` need the judge's ``complete``."""
    if name not in ENGINES:
        raise EvaluationError(f"unknown engine {name!r}; choose one of {', '.join(ENGINES)}")
    if name != "offline" and complete is None:
        raise EvaluationError(f"engine {name!r} needs an LLM judge (--model, or --models FILE --model NAME)")
    return Engine(name=name, complete=complete, judge=judge)
