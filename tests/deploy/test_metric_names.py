"""The metric names of the rules and dashboards exist in the processes, with the same labels."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from prometheus_client import CollectorRegistry

from factsentry.replay import ReplayMetrics
from gateway.metrics import build_metrics
from knowledge.cache import cache_metrics
from tests.deploy.promql_names import METRICS, iter_label_problems, series_labels
from workers.metrics import make_metrics


def _exposed(metrics: Any) -> dict[str, tuple[str, frozenset[str]]]:
    """name (counters with _total) -> (type, labels) of one metrics dataclass built by its factory."""
    out: dict[str, tuple[str, frozenset[str]]] = {}
    for field in dataclasses.fields(metrics):
        collector = getattr(metrics, field.name)
        kind = getattr(collector, "_type", None)
        if kind is None:
            continue
        name = collector._name + ("_total" if kind == "counter" else "")
        out[name] = (kind, frozenset(collector._labelnames))
    return out


@pytest.fixture(scope="module")
def exposed() -> dict[str, tuple[str, frozenset[str]]]:
    names: dict[str, tuple[str, frozenset[str]]] = {}
    names.update(_exposed(build_metrics(CollectorRegistry())))
    names.update(_exposed(make_metrics(CollectorRegistry())))
    names.update(_exposed(cache_metrics(CollectorRegistry())))
    names.update(_exposed(ReplayMetrics.build(CollectorRegistry())))
    return names


@pytest.mark.parametrize("name", sorted(METRICS))
def test_the_processes_expose_every_metric_the_rules_may_use(
    name: str, exposed: dict[str, tuple[str, frozenset[str]]]
) -> None:
    assert name in exposed, f"{name} is not registered by gateway.metrics, workers.metrics or knowledge.cache"
    assert exposed[name] == METRICS[name]


@pytest.mark.parametrize(
    ("expr", "problems"),
    [
        ('sum by (model) (rate(factsentry_worker_dfactscore_sum{model="x"}[5m]))', []),
        ("rate(factsentry_worker_dfactscore[5m])", ["unknown metric 'factsentry_worker_dfactscore'"]),
        ('factsentry_gateway_blocked_total{mode="block"}', ["factsentry_gateway_blocked_total has no label 'mode'"]),
        (
            'factsentry_worker_records_total{outcome="dead"}',
            ["factsentry_worker_records_total{outcome} never has the value 'dead'"],
        ),
        ('factsentry_gateway_requests_total{outcome=~"client_error|checker_error"}', []),
        (
            'factsentry_gateway_requests_total{outcome=~"client_error|error"}',
            ["factsentry_gateway_requests_total{outcome} never has the value 'error'"],
        ),
        (
            "sum by (stage) (rate(factsentry_worker_factscore_count[5m]))",
            ["grouping by 'stage', which none of the selected series has"],
        ),
        ("histogram_quantile(0.9, sum by (le, stage) (rate(factsentry_worker_stage_seconds_bucket[1m])))", []),
        ('{__name__="factsentry_worker_dlq_total", instance="w1"}', []),
    ],
)
def test_label_checker_finds_unknown_names_labels_and_values(expr: str, problems: list[str]) -> None:
    assert list(iter_label_problems(expr, series_labels())) == problems
