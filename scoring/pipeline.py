"""The checker's public entry for one answer: :func:`check` runs the offline engine (``scoring.engines``), and the
settings and models it uses are importable from here too.

:class:`scoring.checker.Checker` holds the orchestration (segment → decompose → candidates → verify → link and
score → revise); the settings are :class:`scoring.config.CheckConfig`, the link-and-score step
:func:`scoring.score.score_groups`. Nothing in scoring/ imports this module (it imports the engines).

It holds no per-call state outside its arguments, so it is safe to call from several threads
(the spaCy pipeline is shared behind a lock; the default verifier is loaded once).

>>> from knowledge.store import Store  # doctest: +SKIP
>>> result = check("Dick Hanley was born in 1936. He died in 1970.", kb=Store.open("demo.sqlite3"))  # doctest: +SKIP
"""

from __future__ import annotations

from schemas.check import CheckResult
from scoring.config import CheckConfig
from scoring.engines import build_checker
from scoring.models import default_verifier, use_nli_model, warm_up
from scoring.protocols import KnowledgeSource, StanceModel, VerdictCache
from scoring.rulebook import default_config
from scoring.subject import infer_subject

__all__ = ["CheckConfig", "check", "default_config", "default_verifier", "infer_subject", "use_nli_model", "warm_up"]


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
    checker = build_checker("offline", config=config or default_config(), stance_model=verifier)
    return checker.check(text, kb=kb, name=name, question=question, cache=cache)
