"""Metric functions against small tables computed by hand."""

from __future__ import annotations

import math

import pytest

from evaluation import metrics
from evaluation.errors import UnknownMetricError

GOLD = ["s", "s", "s", "r", "i", "i"]
PRED = ["s", "s", "i", "s", "i", "r"]
# s: TP 2, FP 1, FN 1 -> P 2/3, R 2/3, F1 2/3
# r: TP 0, FP 1, FN 1 -> 0
# i: TP 1, FP 1, FN 1 -> P 1/2, R 1/2, F1 1/2


@pytest.mark.parametrize(
    ("name", "args", "expected"),
    [
        ("accuracy", (GOLD, PRED), 3 / 6),
        ("accuracy", ([], []), 0.0),
        ("macro_f1", (GOLD, PRED), (2 / 3 + 0 + 1 / 2) / 3),
        ("macro_f1", (GOLD, PRED, ["s", "i"]), (2 / 3 + 1 / 2) / 2),
        ("f1", ([True, True, False, False], [True, False, True, False]), 0.5),
        ("f1", (["a", "b"], ["b", "b"], "a"), 0.0),
        ("pearson", ([1, 2, 3], [2, 4, 6]), 1.0),
        ("pearson", ([1, 2, 3], [3, 2, 1]), -1.0),
        ("pearson", ([1, 2, 3, 4], [1, 3, 2, 4]), 0.8),
        ("kendall_tau", ([1, 2, 3, 4], [1, 2, 3, 4]), 1.0),
        ("kendall_tau", ([1, 2, 3, 4], [4, 3, 2, 1]), -1.0),
        # pairs: (1,2)+ (1,3)+ (1,4)+ (2,3)- (2,4)+ (3,4)+ -> (5 - 1) / 6
        ("kendall_tau", ([1, 2, 3, 4], [1, 3, 2, 4]), 4 / 6),
        # tie in y on (1,2): C=2, D=0, n0=3, ties_y=1 -> 2 / sqrt(3 * 2)
        ("kendall_tau", ([1, 2, 3], [1, 1, 2]), 2 / math.sqrt(6)),
        ("edit_distance", ("kitten", "sitting"), 3 / 7),
        ("edit_distance", ("", ""), 0.0),
        ("edit_distance", ("abc", "abc"), 0.0),
        ("word_overlap", ("The cat sat", "the cat ran away"), 2 * (2 / 3) * (2 / 4) / (2 / 3 + 2 / 4)),
        ("word_overlap", ("a a b", "a b b"), 2 / 3),
        ("word_overlap", ("", ""), 1.0),
        ("word_overlap", ("x", ""), 0.0),
        # "he was born" vs "He was born in 1936.": 3 common, P 1, R 3/5 -> F1 0.75
        (
            "best_match_overlap",
            (["he is a poet", "he was born"], ["He is a poet.", "He was born in 1936."]),
            (1 + 0.75) / 2,
        ),
        ("best_match_overlap", ([], ["a fact"]), 0.0),
        ("best_match_overlap", ([], []), 1.0),
        ("mean", ([1.0, 2.0, 6.0],), 3.0),
    ],
)
def test_metric_values(name: str, args: tuple[object, ...], expected: float) -> None:
    assert metrics.get(name)(*args) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("pearson", ([1, 1, 1], [1, 2, 3])),
        ("pearson", ([1], [2])),
        ("kendall_tau", ([1, 1], [1, 2])),
        ("mean", ([],)),
    ],
)
def test_undefined_values_are_nan(name: str, args: tuple[object, ...]) -> None:
    assert math.isnan(metrics.get(name)(*args))


def test_classification_report_per_class() -> None:
    report = metrics.classification_report(GOLD, PRED, ["s", "r", "i"])
    assert report["accuracy"] == pytest.approx(0.5)
    assert report["s"] == pytest.approx({"precision": 2 / 3, "recall": 2 / 3, "f1": 2 / 3, "support": 3.0})
    assert report["r"] == pytest.approx({"precision": 0.0, "recall": 0.0, "f1": 0.0, "support": 1.0})
    assert report["i"] == pytest.approx({"precision": 0.5, "recall": 0.5, "f1": 0.5, "support": 2.0})


@pytest.mark.parametrize(
    ("name", "suggestion"),
    [("macro-f1", "'macro_f1'"), ("acuracy", "'accuracy'"), ("kendall", "'kendall_tau'")],
)
def test_unknown_metric_suggests_the_closest(name: str, suggestion: str) -> None:
    with pytest.raises(UnknownMetricError) as info:
        metrics.get(name)
    message = str(info.value)
    assert f"did you mean {suggestion}" in message
    assert "known: accuracy, best_match_overlap" in message


def test_lengths_must_match() -> None:
    with pytest.raises(ValueError, match="gold has 2 items, predictions 1"):
        metrics.accuracy(["a", "b"], ["a"])


def test_register_refuses_a_taken_name() -> None:
    with pytest.raises(ValueError, match="already registered"):
        metrics.register("accuracy")(lambda: 0.0)
