"""Pieces of the evaluation runners and the report, on small tables."""

from __future__ import annotations

import pytest

from evaluation import datasets
from evaluation.ambigbio import pages_of, select
from evaluation.progress import Outcome
from evaluation.report import flatten, short_names, table
from evaluation.wice import chunks


@pytest.mark.parametrize(
    ("sentences", "expected"),
    [
        (["a", "b", "c", "d", "e"], ["a b c", "c d e"]),
        (["a", "b", "c", "d"], ["a b c", "b c d"]),
        (["a", "b"], ["a b"]),
        (["a", " ", "c"], ["a c"]),
        ([], []),
    ],
)
def test_wice_chunks(sentences: list[str], expected: list[str]) -> None:
    assert chunks(sentences) == expected


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        (["bioqa-llama-x-42", "bioqa-tulu-x-42"], {"bioqa-llama-x-42": "llama", "bioqa-tulu-x-42": "tulu"}),
        (["a-b", "a-b-c"], {"a-b": "b", "a-b-c": "b-c"}),
        (["only-one"], {"only-one": "only-one"}),
    ],
)
def test_short_names(names: list[str], expected: dict[str, str]) -> None:
    assert short_names(names) == expected


def test_flatten_keeps_order_and_leaves() -> None:
    assert flatten({"a": {"b": 1, "c": {"d": None}}, "e": 2.5}) == [("a.b", 1), ("a.c.d", None), ("e", 2.5)]


def _item(name: str, run: str, passages: list[tuple[str, str]]) -> datasets.AmbigGeneration:
    return datasets.AmbigGeneration(
        qid=0,
        name=name,
        question="",
        model_run=run,
        output="",
        passages=tuple(datasets.AmbigPassage(t, x) for t, x in passages),
        reference_factscore=None,
        reference_dfactscore=None,
    )


def test_pages_of_groups_passages_by_title_without_duplicates() -> None:
    item = _item("X", "r", [("X (a)", "one"), ("X (b)", "two"), ("X (a)", "three"), ("X (a)", "one")])
    assert pages_of(item) == [("X (a)", ["one", "three"]), ("X (b)", ["two"])]


def test_select_takes_the_limit_from_every_run() -> None:
    items = [_item(f"n{i}", run, []) for run in ("r2", "r1") for i in range(3)]
    picked = select(items, 2)
    assert [(i.model_run, i.name) for i in picked] == [("r1", "n0"), ("r1", "n1"), ("r2", "n0"), ("r2", "n1")]
    assert select(items, None) == items


def test_table_puts_published_numbers_beside_ours() -> None:
    outcome = Outcome({"stance": {"macro_f1": 0.5}, "revision": {"edit_distance": None}}, {"pairs": 10})
    t = table("factcheck-bench", outcome, engine="offline")
    cells = [list(column.cells) for column in t.columns]
    assert cells[0] == ["stance.macro_f1", "revision.edit_distance"]
    assert cells[1] == ["0.500", "n/a"]
    assert "RoBERTa-large-MNLI 0.512" in cells[2][0]
    assert t.caption == "measured on 10 pairs"
