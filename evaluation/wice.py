"""WiCE: is a Wikipedia sentence supported by the article it cites?

The cited article (a list of sentences) is cut into overlapping chunks of :data:`CHUNK` sentences;
the verifier scores the claim against every chunk, and :func:`judge` turns the scores into
``supported`` / ``partially_supported`` / ``not_supported``. Reported: binary (supported vs not,
F1 of ``supported``) and three-way (accuracy, macro-F1). The published systems read oracle
chunks (the gold sentences); we read the whole article, which is harder.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from evaluation import datasets, metrics
from evaluation.engines import Engine
from evaluation.progress import Outcome, Progress, limited, silent
from scoring.verifier import OfflineVerifier

CHUNK = 3
STRIDE = 2
LABELS = ("supported", "partially_supported", "not_supported")


def chunks(sentences: Sequence[str], size: int = CHUNK, stride: int = STRIDE) -> list[str]:
    """Overlapping windows of ``size`` sentences, every ``stride`` sentences (the last may be shorter)."""
    out: list[str] = []
    for start in range(0, max(len(sentences) - size, 0) + 1, stride):
        out.append(" ".join(s.strip() for s in sentences[start : start + size] if s.strip()))
    if len(sentences) > size and (len(sentences) - size) % stride:
        out.append(" ".join(s.strip() for s in sentences[-size:] if s.strip()))
    return [c for c in out if c]


def judge(verifier: OfflineVerifier, claim: str, sentences: Sequence[str]) -> str:
    """``supported``, ``partially_supported`` or ``not_supported`` for ``claim`` against the article.

    By the best chunk's P(support): at least the verifier's support threshold is ``supported``, at
    least half of it ``partially_supported`` (WiCE claims are long; a chunk often backs part of one).
    The two levels were set, not fitted: WiCE takes no part in choosing them beyond a look at its
    distribution.
    """
    scores = verifier.score(claim, chunks(sentences))
    best = max((s.support for s in scores), default=0.0)
    if best >= verifier.decision.support:
        return "supported"
    if best >= verifier.decision.support / 2:
        return "partially_supported"
    return "not_supported"


def run(root: Path, engine: Engine, *, limit: int | None = None, progress: Progress = silent) -> Outcome:
    """Measure on the first ``limit`` claims (all by default); returns the ``--json`` object and counts."""
    claims = limited(datasets.wice(root), limit)
    gold: list[str] = []
    pred: list[str] = []
    for claim in progress(claims, total=len(claims), desc="wice claims"):
        gold.append(claim.label)
        pred.append(judge(engine.verifier, claim.claim, claim.evidence))
    gold_binary = [g == "supported" for g in gold]
    pred_binary = [p == "supported" for p in pred]
    three = metrics.classification_report(gold, pred, LABELS)
    result = {
        "binary": {"accuracy": metrics.accuracy(gold_binary, pred_binary), "f1": metrics.f1(gold_binary, pred_binary)},
        "three_way": {"accuracy": three["accuracy"], "macro_f1": three["macro_f1"]},
    }
    return Outcome(result, {"claims": len(gold)})
