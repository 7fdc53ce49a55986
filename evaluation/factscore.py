"""FActScore's human atomic facts: how our decomposition matches them, sentence by sentence.

For every sentence that has human facts: the absolute difference between our number of facts and
theirs, and :func:`evaluation.metrics.best_match_overlap` (each human fact against its best-matching
fact of ours, bag-of-words F1). Both are means over sentences.
"""

from __future__ import annotations

from pathlib import Path

from evaluation import datasets, metrics
from evaluation.engines import Engine
from evaluation.progress import Outcome, Progress, limited, silent


def run(root: Path, engine: Engine, *, limit: int | None = None, progress: Progress = silent) -> Outcome:
    """Measure on the first ``limit`` biographies (all by default); returns the ``--json`` object and counts."""
    bios = limited(datasets.factscore(root), limit)
    count_diffs: list[float] = []
    overlaps: list[float] = []
    ours_total = humans_total = 0
    for bio in progress(bios, total=len(bios), desc="factscore bios"):
        for index, sentence in enumerate(bio.sentences):
            if not sentence.facts:
                continue
            ours = engine.decompose(sentence.text, index)
            count_diffs.append(abs(len(ours) - len(sentence.facts)))
            overlaps.append(metrics.best_match_overlap(ours, sentence.facts))
            ours_total += len(ours)
            humans_total += len(sentence.facts)
    result = {"decomposition": {"count_diff_mean": metrics.mean(count_diffs), "word_overlap": metrics.mean(overlaps)}}
    return Outcome(result, {"sentences": len(count_diffs), "facts ours": ours_total, "facts human": humans_total})
