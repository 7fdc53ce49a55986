"""Metrics of quality, as plain functions registered by name.

    >>> get("macro_f1")(["a", "b", "b"], ["a", "b", "a"])
    0.6666666666666666
    >>> get("macro-f1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    evaluation.errors.UnknownMetricError: unknown metric 'macro-f1'; did you mean 'macro_f1'? ...

Every function takes plain sequences and returns a float (or, for :func:`classification_report`,
a dict of floats). Undefined values (a correlation of a constant series) are ``nan``.
"""

from __future__ import annotations

import difflib
import math
import re
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

from rapidfuzz.distance import Levenshtein

from evaluation.errors import UnknownMetricError

F = TypeVar("F", bound=Callable[..., Any])
METRICS: dict[str, Callable[..., Any]] = {}


def register(name: str) -> Callable[[F], F]:
    """Register a metric function under ``name``."""

    def wrap(fn: F) -> F:
        if name in METRICS:
            raise ValueError(f"metric {name!r} is already registered")
        METRICS[name] = fn
        return fn

    return wrap


def get(name: str) -> Callable[..., Any]:
    """The metric registered as ``name``; an unknown name fails with the closest names and the full list."""
    try:
        return METRICS[name]
    except KeyError:
        close = difflib.get_close_matches(name.replace("-", "_").lower(), METRICS, n=3, cutoff=0.5)
        hint = f"did you mean {' or '.join(repr(c) for c in close)}? " if close else ""
        raise UnknownMetricError(f"unknown metric {name!r}; {hint}known: {', '.join(sorted(METRICS))}") from None


def _check_lengths(gold: Sequence[Any], pred: Sequence[Any]) -> None:
    if len(gold) != len(pred):
        raise ValueError(f"gold has {len(gold)} items, predictions {len(pred)}")


@register("accuracy")
def accuracy(gold: Sequence[Hashable], pred: Sequence[Hashable]) -> float:
    """accuracy = (1/n) Σ 1[gold_i = pred_i]; 0 for empty input."""
    _check_lengths(gold, pred)
    return sum(g == p for g, p in zip(gold, pred, strict=True)) / len(gold) if gold else 0.0


def precision_recall_f1(gold: Sequence[Hashable], pred: Sequence[Hashable], positive: Hashable) -> dict[str, float]:
    """P = TP/(TP+FP), R = TP/(TP+FN), F1 = 2PR/(P+R), each 0 when its denominator is 0."""
    _check_lengths(gold, pred)
    tp = sum(g == positive and p == positive for g, p in zip(gold, pred, strict=True))
    fp = sum(g != positive and p == positive for g, p in zip(gold, pred, strict=True))
    fn = sum(g == positive and p != positive for g, p in zip(gold, pred, strict=True))
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1, "support": float(tp + fn)}


@register("f1")
def f1(gold: Sequence[Hashable], pred: Sequence[Hashable], positive: Hashable = True) -> float:
    """F1 of the ``positive`` class: 2·TP / (2·TP + FP + FN)."""
    return precision_recall_f1(gold, pred, positive)["f1"]


@register("macro_f1")
def macro_f1(gold: Sequence[Hashable], pred: Sequence[Hashable], labels: Sequence[Hashable] | None = None) -> float:
    """macro-F1 = (1/|L|) Σ_{l∈L} F1_l, with L the labels given, else every label seen in gold or pred."""
    labels = list(labels) if labels is not None else sorted(set(gold) | set(pred), key=str)
    if not labels:
        return 0.0
    return sum(precision_recall_f1(gold, pred, label)["f1"] for label in labels) / len(labels)


@register("classification_report")
def classification_report(
    gold: Sequence[Hashable], pred: Sequence[Hashable], labels: Sequence[Hashable] | None = None
) -> dict[str, Any]:
    """``{"accuracy", "macro_f1", <label>: {"precision", "recall", "f1", "support"}}`` for every label."""
    labels = list(labels) if labels is not None else sorted(set(gold) | set(pred), key=str)
    report: dict[str, Any] = {"accuracy": accuracy(gold, pred), "macro_f1": macro_f1(gold, pred, labels)}
    for label in labels:
        report[str(label)] = precision_recall_f1(gold, pred, label)
    return report


@register("pearson")
def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    """r = Σ(x−x̄)(y−ȳ) / √(Σ(x−x̄)² Σ(y−ȳ)²); nan when either series is constant or shorter than 2."""
    _check_lengths(x, y)
    n = len(x)
    if n < 2:
        return math.nan
    mx, my = sum(x) / n, sum(y) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y, strict=True))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    if sxx == 0 or syy == 0:
        return math.nan
    return sxy / math.sqrt(sxx * syy)


@register("kendall_tau")
def kendall_tau(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's τ-b = (C − D) / √((n₀ − n₁)(n₀ − n₂)), n₀ = n(n−1)/2, n₁ / n₂ the pairs tied in x / y.

    C and D count concordant and discordant pairs; nan when either series is constant.
    """
    _check_lengths(x, y)
    n = len(x)
    concordant = discordant = ties_x = ties_y = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = x[i] - x[j], y[i] - y[j]
            if dx == 0:
                ties_x += 1
            if dy == 0:
                ties_y += 1
            if dx == 0 or dy == 0:
                continue
            if (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    n0 = n * (n - 1) // 2
    denominator = math.sqrt((n0 - ties_x) * (n0 - ties_y))
    return (concordant - discordant) / denominator if denominator else math.nan


_WORD = re.compile(r"\w+")


def words(text: str) -> list[str]:
    """Lower-cased word tokens (letters, digits, underscore)."""
    return _WORD.findall(text.lower())


@register("edit_distance")
def edit_distance(prediction: str, reference: str) -> float:
    """Normalised character edit distance: Levenshtein(a, b) / max(|a|, |b|), in [0, 1]; 0 for two empty strings."""
    return float(Levenshtein.normalized_distance(prediction, reference))


@register("word_overlap")
def word_overlap(prediction: str, reference: str) -> float:
    """Bag-of-words F1: with m = |words(pred) ∩ words(ref)| (multiset), P = m/|pred|, R = m/|ref|, 2PR/(P+R).

    1.0 for two texts without words, 0.0 when only one has words.
    """
    p, r = Counter(words(prediction)), Counter(words(reference))
    if not p and not r:
        return 1.0
    common = sum((p & r).values())
    if common == 0:
        return 0.0
    precision, recall = common / sum(p.values()), common / sum(r.values())
    return 2 * precision * recall / (precision + recall)


@register("best_match_overlap")
def best_match_overlap(predictions: Sequence[str], references: Sequence[str]) -> float:
    """Mean over references of the best :func:`word_overlap` with any prediction.

    (1/|R|) Σ_{r∈R} max_{p∈P} overlap(p, r); 0 when there are references but no predictions, 1 when neither.
    """
    if not references:
        return 1.0 if not predictions else 0.0
    if not predictions:
        return 0.0
    return sum(max(word_overlap(p, r) for p in predictions) for r in references) / len(references)


@register("mean")
def mean(values: Sequence[float]) -> float:
    """Arithmetic mean, nan for an empty sequence."""
    return sum(values) / len(values) if values else math.nan
