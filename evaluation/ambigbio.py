"""AmbigBio: FActScore and D-FActScore of real merged biographies, beside the D-FActScore paper's own.

For each generation a private in-memory knowledge store holds its passages (grouped into pages by
their disambiguated titles); the full pipeline checks ``output`` for ``name``. Per model run we
report the mean FActScore, D-FActScore, number of bios and of entities over the answers the
pipeline did not abstain on, beside the paper's automatic reference on the same answers.
``pearson_dfs`` correlates our per-answer D-FActScore with the reference; ``kendall_tau`` compares
the ranking of the runs by mean D-FActScore with the reference ranking.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from evaluation import datasets, metrics
from evaluation.engines import Engine
from evaluation.progress import Outcome, Progress, limited, silent

_RUN_ON = re.compile(r"\n?Title: (.+)\n")


def group_passages(passages: Iterable[tuple[str, str]]) -> list[tuple[str, list[str]]]:
    """Passages grouped by title, in first-seen order, duplicates dropped.

    Many retrieved passages run on into the next article ("… Title: Other page\n…"); the part
    after such a marker belongs to that other page, so it is filed under its own title.
    """
    pages: dict[str, list[str]] = {}
    for title, text in passages:
        parts = _RUN_ON.split(text)
        pieces = [(title, parts[0]), *zip((t.strip() for t in parts[1::2]), parts[2::2], strict=False)]
        for page_title, piece in pieces:
            texts = pages.setdefault(page_title, [])
            if piece.strip() and piece not in texts:
                texts.append(piece)
    return [(title, texts) for title, texts in pages.items() if texts]


def pages_of(item: datasets.AmbigGeneration) -> list[tuple[str, list[str]]]:
    """The item's knowledge: its passages grouped into pages (see :func:`group_passages`)."""
    return group_passages((p.title, p.text) for p in item.passages)


def select(items: list[datasets.AmbigGeneration], limit: int | None) -> list[datasets.AmbigGeneration]:
    """``limit`` items from every run (all when None), so that a short run still covers each run."""
    if limit is None:
        return items
    by_run: dict[str, list[datasets.AmbigGeneration]] = defaultdict(list)
    for item in items:
        by_run[item.model_run].append(item)
    return [item for run in sorted(by_run) for item in limited(by_run[run], limit)]


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def run(root: Path, engine: Engine, *, limit: int | None = None, progress: Progress = silent) -> Outcome:
    """Measure ``limit`` answers of each run (all by default); returns the ``--json`` object and counts."""
    return measure(select(datasets.ambigbio(root), limit), engine, progress=progress)


def measure(items: list[datasets.AmbigGeneration], engine: Engine, *, progress: Progress = silent) -> Outcome:
    """Check every item with the full pipeline and compare with the reference, per run and per answer."""
    rows: dict[str, list[dict[str, float]]] = defaultdict(list)
    ours_dfs: list[float] = []
    ref_dfs: list[float] = []
    abstained = unverifiable = failed = 0
    for item in progress(items, total=len(items), desc="ambigbio answers"):
        checked = engine.try_check(item.output, pages=pages_of(item), name=item.name, question=item.question or None)
        if checked is None:
            failed += 1
            continue
        if checked.unverifiable and checked.num_facts:
            # The papers have no "unverifiable": a text none of whose facts the given pages support
            # scores 0. Compared with their figures on their terms, and counted apart.
            unverifiable += 1
            checked = checked.model_copy(update={"factscore": 0.0, "dfactscore": 0.0})
        if checked.abstained or checked.factscore is None or checked.dfactscore is None:
            abstained += 1
            continue
        row = {
            "factscore": checked.factscore,
            "dfactscore": checked.dfactscore,
            "num_bios": float(checked.num_bios),
            "num_entities": float(checked.num_entities),
        }
        if item.reference_factscore is not None and item.reference_dfactscore is not None:
            row["reference_factscore"] = item.reference_factscore
            row["reference_dfactscore"] = item.reference_dfactscore
            ours_dfs.append(checked.dfactscore)
            ref_dfs.append(item.reference_dfactscore)
        rows[item.model_run].append(row)
    runs: dict[str, dict[str, Any]] = {}
    for name in sorted(rows):
        answers = rows[name]
        summary: dict[str, Any] = {
            key: _mean([a[key] for a in answers if key in a])
            for key in (
                "factscore",
                "dfactscore",
                "num_bios",
                "num_entities",
                "reference_factscore",
                "reference_dfactscore",
            )
        }
        runs[name] = summary
    ranked = [r for r in runs.values() if r["dfactscore"] is not None and r["reference_dfactscore"] is not None]
    tau = metrics.kendall_tau([r["dfactscore"] for r in ranked], [r["reference_dfactscore"] for r in ranked])
    pearson = metrics.pearson(ours_dfs, ref_dfs)
    result = {
        "runs": runs,
        "pearson_dfs": None if math.isnan(pearson) else pearson,
        "kendall_tau": None if math.isnan(tau) else tau,
    }
    counts = {
        "answers": len(items),
        "abstained": abstained,
        "unverifiable": unverifiable,
        "failed": failed,
        "runs": len(runs),
    }
    return Outcome(result, counts)
