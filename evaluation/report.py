"""The evaluation sets by name, and the human table: our figures beside the published ones.

>>> flatten({"stance": {"accuracy": 0.5}, "runs": {"a": {"factscore": 0.9}}})
[('stance.accuracy', 0.5), ('runs.a.factscore', 0.9)]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from evaluation import ambigbio, corpus, factcheck_bench, factscore, styles, wice
from evaluation.engines import Engine
from evaluation.errors import EvaluationError
from evaluation.progress import Outcome, Progress
from evaluation.published import PUBLISHED

Runner = Callable[..., Outcome]
RUNNERS: dict[str, Runner] = {
    "factcheck-bench": factcheck_bench.run,
    "wice": wice.run,
    "ambigbio": ambigbio.run,
    "factscore": factscore.run,
    "corpus": corpus.run,
    "styles": styles.run,
}


def run(name: str, root: Path, engine: Engine, *, limit: int | None, progress: Progress, **options: Any) -> Outcome:
    """Run the evaluation set ``name`` (``options``: the set's own, e.g. the layouts and kinds of styles)."""
    try:
        runner = RUNNERS[name]
    except KeyError:
        raise EvaluationError(f"unknown evaluation set {name!r}; choose one of {', '.join(RUNNERS)}") from None
    return runner(root, engine, limit=limit, progress=progress, **options)


def flatten(obj: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """Dotted keys and leaf values of a nested dict, in order."""
    out: list[tuple[str, Any]] = []
    for key, value in obj.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            out += flatten(value, f"{path}.")
        else:
            out.append((path, value))
    return out


def difference(base: dict[str, Any], ablated: dict[str, Any]) -> dict[str, float]:
    """Ablated minus baseline, for every numeric figure both runs have (dotted keys)."""
    before = dict(flatten(base))
    out: dict[str, float] = {}
    for key, value in flatten(ablated):
        old = before.get(key)
        numeric = (int, float)
        if isinstance(value, numeric) and isinstance(old, numeric) and not isinstance(value, bool):
            if value == value and old == old:  # NaN: undefined in one of the runs
                out[key] = round(float(value) - float(old), 4)
    return out


def ablation_table(name: str, rules: Sequence[str], base: Outcome, ablated: Outcome) -> Table:
    """Every figure with and without ``rules``; changed figures first."""
    t = Table(title=f"factsentry eval {name} --ablate {','.join(rules)}", title_justify="left")
    for header in ("metric", "with", "without", "change"):
        t.add_column(header, justify="left" if header == "metric" else "right")
    before = dict(flatten(base.result))
    delta = difference(base.result, ablated.result)
    rows = [(key, before.get(key), value, delta.get(key)) for key, value in flatten(ablated.result)]
    rows.sort(key=lambda row: row[3] in (None, 0.0))
    for key, old, new, change in rows:
        t.add_row(key, _fmt(old), _fmt(new), "" if change in (None, 0.0) else f"{change:+.3f}")
    return t


def _fmt(value: Any) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def short_names(names: Sequence[str]) -> dict[str, str]:
    """Each name without the ``-``-separated words that every name shares at its start and its end.

    >>> short_names(["bioqa-llama-shot2", "bioqa-tulu-shot2"])
    {'bioqa-llama-shot2': 'llama', 'bioqa-tulu-shot2': 'tulu'}
    """
    parts = [n.split("-") for n in names]
    if len(parts) < 2:
        return {n: n for n in names}
    shortest = min(len(p) for p in parts)
    head = 0
    while head < shortest - 1 and len({p[head] for p in parts}) == 1:
        head += 1
    tail = 0
    while tail < shortest - head - 1 and len({p[len(p) - 1 - tail] for p in parts}) == 1:
        tail += 1
    return {n: "-".join(p[head : len(p) - tail]) for n, p in zip(names, parts, strict=True)}


RUN_COLUMNS = (
    ("factscore", "FS"),
    ("dfactscore", "D-FS"),
    ("num_bios", "bios"),
    ("num_entities", "entities"),
    ("reference_factscore", "paper FS"),
    ("reference_dfactscore", "paper D-FS"),
)


def runs_table(runs: dict[str, dict[str, Any]]) -> Table:
    """One row per model run (AmbigBio): our scores beside the paper's automatic reference."""
    t = Table(title="per model run (paper: the D-FActScore authors' automatic scores)", title_justify="left")
    t.add_column("run", overflow="fold")
    for _, header in RUN_COLUMNS:
        t.add_column(header, justify="right")
    short = short_names(list(runs))
    for run_name, row in runs.items():
        t.add_row(short[run_name], *(_fmt(row.get(key)) for key, _ in RUN_COLUMNS))
    return t


def table(name: str, outcome: Outcome, *, engine: str) -> Table:
    """A table of every figure we measured, with the published figures for the same metric beside it."""
    published = PUBLISHED.get(name, {})
    t = Table(title=f"factsentry eval {name} (engine: {engine})", title_justify="left")
    t.add_column("metric")
    t.add_column("ours", justify="right")
    t.add_column("published", overflow="fold")
    for key, value in flatten({k: v for k, v in outcome.result.items() if k not in ("runs", "failures")}):
        others = "; ".join(f"{system} {number:.3f}" for system, number in published.get(key, []))
        t.add_row(key, _fmt(value), others)
    if outcome.counts:
        t.caption = "measured on " + ", ".join(f"{v} {k}" for k, v in outcome.counts.items())
    return t


def print_table(name: str, outcome: Outcome, *, engine: str, console: Console | None = None) -> None:
    """Print :func:`table` (and the per-run table, where there are runs) to ``console`` (stdout by default)."""
    console = console or Console()
    if outcome.result.get("runs"):
        console.print(runs_table(outcome.result["runs"]))
    console.print(table(name, outcome, engine=engine))
    for note in outcome.notes:
        console.print(note)
