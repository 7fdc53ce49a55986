"""Measurements that guard themselves: ``eval corpus``, ``eval styles`` and ``eval corpus`` on the blind sets
(tests/corpus-blind), run in-process with the offline engine, may not pass fewer answers than
``evaluation/floors.json`` records (the whole count, and each layout × kind cell of the matrix)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from evaluation import floors
from factsentry.cli import main

FLOORS = floors.load()


BLIND = Path(__file__).resolve().parents[1] / "corpus-blind"


def _eval(capsys: pytest.CaptureFixture[str], name: str, *args: str) -> dict[str, Any]:
    assert main(["eval", name, *args, "--json"]) == 0
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    return result


def test_the_floors_file_covers_every_cell() -> None:
    from evaluation import styles

    cells = {f"{lay}/{kind}" for lay in styles.LAYOUTS for kind in styles.KINDS}
    assert set(FLOORS["styles"]["cells"]) == cells
    assert FLOORS["styles"]["answers"] == len(cells) * styles.PER_CELL
    assert sum(FLOORS["styles"]["cells"].values()) == FLOORS["styles"]["passed"]
    assert all(0 <= v <= styles.PER_CELL for v in FLOORS["styles"]["cells"].values())


def test_below_names_the_cell_and_the_count() -> None:
    floor: dict[str, Any] = {"answers": 20, "passed": 15, "cells": {"json/merged": 6, "yaml/refusal": 10}}
    result: dict[str, Any] = {
        "answers": 20,
        "passed": 14,
        "cells": [
            {"layout": "json", "kind": "merged", "passed": 5, "total": 10},
            {"layout": "yaml", "kind": "refusal", "passed": 10, "total": 10},
        ],
    }
    assert floors.below(floor, result, "styles") == [
        "styles: 14 passed, below its floor of 15",
        "styles cell json × merged: 5 passed, below its floor of 6",
    ]
    raised = {**result, "passed": 16, "cells": [{**result["cells"][0], "passed": 7}, result["cells"][1]]}
    assert floors.below(floor, raised, "styles") == []
    assert floors.above(floor, raised) == ["passed 16 > 15", "json/merged 7 > 6"]
    assert floors.below(floor, {**result, "answers": 30}, "styles")[0] == (
        "styles: 30 answers, the floors were measured on 20"
    )
    assert floors.below(floor, {**raised, "cells": raised["cells"][:1]}, "styles") == [
        "styles cell yaml × refusal: not measured (floor 10)"
    ]


@pytest.mark.timeout(1800)  # the whole matrix: about a minute of CPU, several on a busy machine
def test_corpus_and_styles_do_not_fall_below_their_floors(capsys: pytest.CaptureFixture[str]) -> None:
    corpus = _eval(capsys, "corpus")
    matrix = _eval(capsys, "styles")
    blind = _eval(capsys, "corpus", "--corpus", str(BLIND))  # the blind sets kept as regression sets
    drops = floors.below(FLOORS["corpus"], corpus, "corpus") + floors.below(FLOORS["styles"], matrix, "styles")
    drops += floors.below(FLOORS["blind"], blind, "blind")
    assert not drops, "\n".join([*drops, floors.HOW])
