"""The metric names the processes expose, and the names and labels a PromQL expression uses."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import promql_parser

# The metrics of issue 2: name -> (type, labels). Counters are written with their `_total`.
METRICS: dict[str, tuple[str, frozenset[str]]] = {
    "factsentry_gateway_requests_total": ("counter", frozenset({"source", "model", "mode", "outcome"})),
    "factsentry_gateway_upstream_seconds": ("histogram", frozenset({"model"})),
    "factsentry_gateway_added_seconds": ("histogram", frozenset({"model", "mode"})),
    "factsentry_gateway_blocked_total": ("counter", frozenset({"model"})),
    "factsentry_gateway_revised_total": ("counter", frozenset({"model"})),
    "factsentry_gateway_publish_lost_total": ("counter", frozenset({"reason"})),
    "factsentry_gateway_released_unchecked_total": ("counter", frozenset({"model", "reason"})),
    "factsentry_gateway_verdict_failed_total": ("counter", frozenset()),
    "factsentry_gateway_verdict_unavailable_total": ("counter", frozenset()),
    "factsentry_worker_records_total": ("counter", frozenset({"outcome"})),
    "factsentry_worker_stage_seconds": ("histogram", frozenset({"stage"})),
    "factsentry_worker_factscore": ("histogram", frozenset({"source", "model"})),
    "factsentry_worker_dfactscore": ("histogram", frozenset({"source", "model"})),
    "factsentry_worker_facts_total": ("counter", frozenset({"source", "model", "verdict"})),
    "factsentry_worker_coverage": ("histogram", frozenset({"source", "model"})),
    "factsentry_worker_answers_total": ("counter", frozenset({"source", "model", "status"})),
    "factsentry_worker_would_total": ("counter", frozenset({"source", "model", "action"})),
    "factsentry_worker_consumer_lag": ("gauge", frozenset({"topic", "partition"})),
    "factsentry_replay_answers_total": ("counter", frozenset({"run", "model", "status"})),
    "factsentry_replay_dfactscore_mean": ("gauge", frozenset({"run", "model", "side"})),
    "factsentry_worker_dlq_total": ("counter", frozenset()),
    "factsentry_worker_llm_calls_total": ("counter", frozenset({"engine", "judge"})),
    "factsentry_worker_llm_tokens_total": ("counter", frozenset({"engine", "judge"})),
    "factsentry_worker_llm_errors_total": ("counter", frozenset({"engine", "judge"})),
    "factsentry_worker_llm_failures_total": ("counter", frozenset({"engine", "judge", "kind"})),
    "factsentry_worker_llm_cost_usd_total": ("counter", frozenset({"engine", "judge"})),
    "factsentry_cache_hits_total": ("counter", frozenset({"kind"})),
    "factsentry_cache_misses_total": ("counter", frozenset({"kind"})),
    "factsentry_cache_errors_total": ("counter", frozenset({"kind"})),
}

# Labels Prometheus attaches to every scraped series (target labels), and our relabelled `component`.
TARGET_LABELS = frozenset({"job", "instance", "component"})
# Labels that say where a series comes from: set by a scrape config or a ServiceMonitor (namespace, or
# env / cluster from the chart's metrics.targetLabels), or the external labels a Thanos / Mimir ruler
# sees. Every aggregation of the rules keeps them (tests/deploy/test_prometheus_rules.py).
PLACE_LABELS = frozenset({"env", "cluster", "namespace"})

# Label values the processes write, where a rule or panel selects on them.
LABEL_VALUES: dict[str, frozenset[str]] = {
    "outcome": frozenset(
        {"scored", "abstained", "dlq", "retried", "failed"}  # workers
        | {"ok", "pass", "block", "revise", "timeout", "failed", "unavailable", "partial", "pending"}  # gateway
        | {"client_error", "upstream_error", "checker_error", "gateway_error", "client_closed"}
    ),
    "mode": frozenset({"observe", "annotate", "block", "revise", "none"}),
    "status": frozenset({"checked", "unverifiable", "abstained"}),
    "source": frozenset({"proxy", "factcheck", "guardrail_api"}),
    "action": frozenset({"pass", "revise", "block"}),  # factsentry_worker_would_total
}


def series_labels() -> dict[str, frozenset[str]]:
    """Every series name the metrics above expose, with its labels (histograms as _bucket/_sum/_count)."""
    series: dict[str, frozenset[str]] = {}
    for name, (kind, labels) in METRICS.items():
        if kind == "histogram":
            series[f"{name}_bucket"] = labels | {"le"}
            series[f"{name}_sum"] = labels
            series[f"{name}_count"] = labels
        else:
            series[name] = labels
    return series


@dataclass(frozen=True)
class Selector:
    """One vector selector of an expression: the metric name and its label matchers."""

    name: str
    matchers: tuple[tuple[str, str], ...]


def selectors(expr: str) -> list[Selector]:
    """The vector selectors of ``expr`` (raises ValueError if it is not valid PromQL)."""
    found: list[Selector] = []

    def visit(node: promql_parser.Expr) -> bool:
        if isinstance(node, promql_parser.VectorSelector):
            pairs = tuple((m.name, m.value) for m in node.matchers.matchers)
            name = node.name or dict(pairs).get("__name__", "")
            found.append(Selector(name, tuple(p for p in pairs if p[0] != "__name__")))
        return True

    promql_parser.walk(promql_parser.parse(expr), visit)
    return found


_GROUPING = re.compile(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)")


def grouping_labels(expr: str) -> set[str]:
    """Label names in by/without/on/ignoring/group_* clauses of ``expr``."""
    labels: set[str] = set()
    for group in _GROUPING.findall(expr):
        labels.update(part.strip() for part in group.split(",") if part.strip())
    return labels


def iter_label_problems(expr: str, known: dict[str, frozenset[str]]) -> Iterator[str]:
    """Why ``expr`` selects a series or a label that does not exist; nothing if it is consistent."""
    used = selectors(expr)
    available: set[str] = set(TARGET_LABELS | PLACE_LABELS)
    for sel in used:
        if sel.name not in known:
            yield f"unknown metric {sel.name!r}"
            continue
        labels = known[sel.name] | TARGET_LABELS | PLACE_LABELS
        available |= labels
        for label, value in sel.matchers:
            if label not in labels:
                yield f"{sel.name} has no label {label!r}"
            elif label in LABEL_VALUES:
                # an alternation of plain values (outcome=~"a|b") is checked value by value
                values = value.split("|") if re.fullmatch(r"[\w|]+", value) else [value]
                for v in values:
                    if v not in LABEL_VALUES[label]:
                        yield f"{sel.name}{{{label}}} never has the value {v!r}"
    for label in grouping_labels(expr) - available:
        yield f"grouping by {label!r}, which none of the selected series has"


def iter_dropped_place_labels(expr: str) -> Iterator[str]:
    """Each aggregation or vector match of ``expr`` that would merge series of different places (env,
    cluster, namespace): ``by``/``on`` without all of them, or ``without``/``ignoring`` naming one."""
    problems: list[str] = []

    def visit(node: promql_parser.Expr) -> bool:
        if isinstance(node, promql_parser.AggregateExpr) and node.modifier is not None:
            grouping, labels = str(node.modifier.type).rsplit(".", 1)[-1], set(node.modifier.labels)
        elif isinstance(node, promql_parser.BinaryExpr) and node.modifier is not None and node.modifier.matching:
            grouping, labels = str(node.modifier.matching.type).rsplit(".", 1)[-1], set(node.modifier.matching.labels)
        elif isinstance(node, promql_parser.AggregateExpr):
            grouping, labels = "By", set()  # sum(x): everything into one series
        else:
            return True
        if grouping in {"By", "Include"} and not PLACE_LABELS <= labels:
            problems.append(f"{node}: keeps {sorted(labels)}, not {sorted(PLACE_LABELS - labels)}")
        elif grouping in {"Without", "Exclude"} and labels & PLACE_LABELS:
            problems.append(f"{node}: drops {sorted(labels & PLACE_LABELS)}")
        return True

    promql_parser.walk(promql_parser.parse(expr), visit)
    yield from problems
