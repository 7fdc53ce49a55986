"""Measurements that guard themselves: the pass counts of ``eval corpus`` and ``eval styles`` may not fall
below the floors recorded in ``evaluation/floors.json`` (``tests/evaluation/test_floors.py`` runs both and
fails on a drop). A floor is raised when a change raises its count, and lowered only in a commit whose
message says why.

``python -m evaluation.floors`` measures both with the offline engine and prints a floors file of today's
figures (``--write`` writes it), to raise the floors after an improvement.

>>> cells = [{"layout": "json", "kind": "merged", "passed": 2, "total": 10}]
>>> below({"passed": 5, "cells": {"json/merged": 3}}, {"passed": 5, "cells": cells}, "styles")
['styles cell json × merged: 2 passed, below its floor of 3']
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

FLOORS = Path(__file__).resolve().parent / "floors.json"
HOW = (
    "If the drop is intended, lower the floor in evaluation/floors.json in a commit whose message says why; "
    "when a change raises a count, raise its floor (python -m evaluation.floors --write)."
)


def load(path: Path = FLOORS) -> dict[str, Any]:
    """The recorded floors."""
    floors: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return floors


def cell_key(cell: dict[str, Any]) -> str:
    return f"{cell['layout']}/{cell['kind']}"


def below(floor: dict[str, Any], result: dict[str, Any], name: str) -> list[str]:
    """Where ``result`` (an ``eval corpus`` or ``eval styles`` --json object) falls below ``floor``: the whole
    pass count and, for the matrix, each cell, named."""
    out: list[str] = []
    if "answers" in floor and result.get("answers") != floor["answers"]:
        out.append(f"{name}: {result.get('answers')} answers, the floors were measured on {floor['answers']}")
    if result["passed"] < floor["passed"]:
        out.append(f"{name}: {result['passed']} passed, below its floor of {floor['passed']}")
    cells = {cell_key(c): c for c in result.get("cells", [])}
    for key, least in floor.get("cells", {}).items():
        cell = cells.get(key)
        layout, kind = key.split("/")
        if cell is None:
            out.append(f"{name} cell {layout} × {kind}: not measured (floor {least})")
        elif cell["passed"] < least:
            out.append(f"{name} cell {layout} × {kind}: {cell['passed']} passed, below its floor of {least}")
    return out


def above(floor: dict[str, Any], result: dict[str, Any]) -> list[str]:
    """The counts that rose above their floors (to raise them)."""
    out = [f"passed {result['passed']} > {floor['passed']}"] if result["passed"] > floor["passed"] else []
    for c in result.get("cells", []):
        least = floor.get("cells", {}).get(cell_key(c))
        if least is not None and c["passed"] > least:
            out.append(f"{cell_key(c)} {c['passed']} > {least}")
    return out


def floors_of(corpus: dict[str, Any], styles: dict[str, Any]) -> dict[str, Any]:
    """A floors file at the figures measured."""
    return {
        "_about": "Pass counts eval corpus and eval styles may not fall below (evaluation/floors.py). Raise a floor "
        "when a change raises its count; lower one only in a commit whose message says why.",
        "corpus": {"answers": corpus["answers"], "passed": corpus["passed"]},
        "styles": {
            "answers": styles["answers"],
            "passed": styles["passed"],
            "cells": {cell_key(c): c["passed"] for c in styles["cells"]},
        },
    }


def main(argv: list[str] | None = None) -> int:  # pragma: no cover - a maintainer's tool, run by hand
    from evaluation import corpus, styles
    from evaluation.engines import Engine

    parser = argparse.ArgumentParser(prog="python -m evaluation.floors", description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"write {FLOORS.name} instead of printing it")
    args = parser.parse_args(argv)
    engine = Engine()
    doc = floors_of(corpus.run(corpus.DEFAULT_CORPUS, engine).result, styles.run(corpus.DEFAULT_CORPUS, engine).result)
    text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    if args.write:
        FLOORS.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
