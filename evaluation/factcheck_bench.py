"""Factcheck-Bench: stance of evidence passages, claim verification with the given evidence, revision.

- Stance: every labelled (claim, passage) pair in the three-label space (complete and partial
  support merged), accuracy and macro-F1.
- Verification: each claim labelled true or false (``unknown`` dropped) decided from its five
  passages by :meth:`OfflineVerifier.verify`; precision, recall and F1 of each class.
- Revision: each answer checked by the full pipeline against an in-memory store of its claims'
  evidence; the suggested revision against the human revised response (normalised character edit
  distance and bag-of-words F1, means over answers).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from evaluation import datasets, metrics
from evaluation.engines import Engine
from evaluation.progress import Outcome, Progress, limited, silent
from schemas.enums import Stance

STANCE_3 = {Stance.SUPPORT: "support", Stance.PARTIAL: "support", Stance.REFUTE: "refute"}
LABELS_3 = ("support", "refute", "irrelevant")


def _stance3(stance: Stance) -> str:
    return STANCE_3.get(stance, "irrelevant")


def run(root: Path, engine: Engine, *, limit: int | None = None, progress: Progress = silent) -> Outcome:
    """Measure on the first ``limit`` claims (all by default); returns the ``--json`` object and counts."""
    claims = limited(datasets.factcheck_bench(root), limit)
    gold_stance: list[str] = []
    pred_stance: list[str] = []
    gold_claim: list[str] = []
    pred_claim: list[str] = []
    for claim in progress(claims, total=len(claims), desc="factcheck-bench claims"):
        verdict = engine.verifier.verify(claim.claim, claim.evidence)
        if len(claim.stances) == len(claim.evidence):
            gold_stance += [datasets.FCB_TO_3.get(s, "irrelevant") for s in claim.stances]
            pred_stance += [_stance3(s.stance) for s in verdict.scores]
        if claim.label in ("true", "false"):
            gold_claim.append(claim.label)
            pred_claim.append("true" if verdict.stance is Stance.SUPPORT else "false")
    stance = metrics.classification_report(gold_stance, pred_stance, LABELS_3)
    verification = metrics.classification_report(gold_claim, pred_claim, ("false", "true"))
    revision, answers = _revision(claims, engine, progress)
    cross_validated = _cross_validated(engine)
    result = {
        **({"cross_validated": cross_validated} if cross_validated else {}),
        "stance": {"accuracy": stance["accuracy"], "macro_f1": stance["macro_f1"]},
        "verification": {
            label: {k: verification[label][k] for k in ("precision", "recall", "f1")} for label in ("false", "true")
        },
        "revision": revision,
    }
    counts = {"pairs": len(gold_stance), "claims": len(gold_claim), "answers revised": answers}
    return Outcome(result, counts, _notes(engine) if cross_validated else ())


def _cross_validated(engine: Engine) -> dict[str, Any] | None:
    """The verifier's cross-validated figures on this set (recorded when it was trained on it, grouped by
    answer), the headline in place of the in-sample ones; None for a verifier not trained on Factcheck-Bench."""
    meta = engine.verifier.model.meta
    cv = meta.get("cv") or {}
    if "Factcheck-Bench" not in str(meta.get("trained_on", "")) or not cv:
        return None

    def mean(key: str) -> float | None:
        value = (cv.get(key) or {}).get("mean")
        return None if value is None else float(value)

    return {
        "stance": {"accuracy": mean("stance3_accuracy"), "macro_f1": mean("stance3_macro_f1")},
        "verification": {"false": {k: mean(f"false_{k}") for k in ("precision", "recall", "f1")}},
    }


def _notes(engine: Engine) -> tuple[str, ...]:
    """What the cross-validated rows are, with their spread, and why the rest are not the figure to quote."""
    cv = engine.verifier.model.meta["cv"]

    def sd(key: str) -> str:
        return f"± {(cv.get(key) or {}).get('sd', float('nan')):.3f}"

    return (
        "cross_validated.*: the offline verifier was trained on this dev set, so its figures are the "
        "cross-validated ones recorded at training (folds grouped by answer, mean over repeats; stance macro-F1 "
        f"{sd('stance3_macro_f1')}, accuracy {sd('stance3_accuracy')}, false-claim F1 {sd('false_f1')}).",
        "stance.* and verification.*: the same model on the claims measured here, in-sample; they overstate it.",
    )


def _revision(
    claims: list[datasets.FcbClaim], engine: Engine, progress: Progress
) -> tuple[dict[str, float | None], int]:
    """Mean edit distance and word overlap of our revision against the human one, and the answers revised."""
    if not engine.can_check:
        return {"edit_distance": None, "word_overlap": None}, 0
    answers: dict[int, list[datasets.FcbClaim]] = defaultdict(list)
    for claim in claims:
        answers[claim.doc_id].append(claim)
    distances: list[float] = []
    overlaps: list[float] = []
    for doc_claims in progress(list(answers.values()), total=len(answers), desc="factcheck-bench revisions"):
        first = doc_claims[0]
        evidence = list(dict.fromkeys(e for c in doc_claims for e in c.evidence if e.strip()))
        result = engine.try_check(first.response, pages=[(first.prompt or "evidence", evidence)], question=first.prompt)
        if result is None:
            continue
        revised = result.revision.text if result.revision is not None else first.response
        distances.append(metrics.edit_distance(revised, first.revised_response))
        overlaps.append(metrics.word_overlap(revised, first.revised_response))
    return {"edit_distance": metrics.mean(distances), "word_overlap": metrics.mean(overlaps)}, len(distances)
