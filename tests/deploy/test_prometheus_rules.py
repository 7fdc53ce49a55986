"""Prometheus: the compose config, the recording and alert rules, and their promtool unit tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.deploy.conftest import CHART, REPO, run
from tests.deploy.promql_names import (
    PLACE_LABELS,
    iter_dropped_place_labels,
    iter_label_problems,
    selectors,
    series_labels,
)

PROM_DIR = REPO / "deploy" / "prometheus"
ALERTS = PROM_DIR / "alerts.yml"
RULE_TESTS = Path(__file__).with_name("alerts_test.yml")
RUNBOOKS = REPO / "deploy" / "runbooks"
RUNBOOK_BASE = "https://runbooks.factsentry.invalid/"


def _rules() -> list[dict[str, Any]]:
    return [rule for group in yaml.safe_load(ALERTS.read_text())["groups"] for rule in group["rules"]]


def _known_series() -> dict[str, frozenset[str]]:
    """Scraped series plus the recording rules' outputs (labelled by their `by` clause)."""
    known = series_labels()
    for rule in _rules():
        if "record" in rule:
            sels = selectors(rule["expr"])
            labels: frozenset[str] = frozenset()
            for sel in sels:
                labels |= known.get(sel.name, frozenset())
            known[rule["record"]] = labels - {"le"}
    return known


def test_promtool_accepts_the_compose_config_and_its_rule_files(promtool: Path) -> None:
    proc = run([promtool, "check", "config", PROM_DIR / "prometheus.yml"])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 rule files found" in proc.stdout


@pytest.mark.parametrize("path", [ALERTS, CHART / "files" / "alerts.yml"], ids=["deploy", "chart"])
def test_promtool_accepts_the_rule_files(promtool: Path, path: Path) -> None:
    proc = run([promtool, "check", "rules", path])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"SUCCESS: {len(_rules())} rules found" in proc.stdout


def test_the_chart_ships_the_same_rules_byte_for_byte() -> None:
    assert (CHART / "files" / "alerts.yml").read_bytes() == ALERTS.read_bytes(), (
        "copy deploy/prometheus/alerts.yml to helm/factsentry/files/alerts.yml"
    )


def test_every_alert_fires_and_stays_quiet_as_its_promtool_unit_tests_say(promtool: Path) -> None:
    proc = run([promtool, "test", "rules", RULE_TESTS], cwd=RULE_TESTS.parent)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "SUCCESS" in proc.stdout


def test_every_alert_has_a_firing_and_a_quiet_unit_test() -> None:
    tests = yaml.safe_load(RULE_TESTS.read_text())["tests"]
    cases = [case for test in tests for case in test.get("alert_rule_test", [])]
    firing = {c["alertname"] for c in cases if c["exp_alerts"]}
    quiet = {c["alertname"] for c in cases if not c["exp_alerts"]}
    alerts = {r["alert"] for r in _rules() if "alert" in r}
    assert alerts - firing == set(), "alerts never shown to fire"
    assert alerts - quiet == set(), "alerts never shown to stay quiet"


@pytest.mark.parametrize("rule", _rules(), ids=lambda r: r.get("alert") or r["record"])
def test_every_expression_is_promql_over_known_series_and_labels(rule: dict[str, Any]) -> None:
    assert list(iter_label_problems(rule["expr"], _known_series())) == []


@pytest.mark.parametrize("rule", [r for r in _rules() if "alert" in r], ids=lambda r: r["alert"])
def test_every_alert_has_severity_summary_description_and_a_for_clause(rule: dict[str, Any]) -> None:
    assert rule["labels"]["severity"] in {"info", "warning", "critical"}
    assert {"summary", "description"} <= set(rule["annotations"])
    assert rule["for"].endswith("m")


def test_rule_names_are_unique_and_recording_names_follow_level_metric_operation() -> None:
    names = [r.get("alert") or r["record"] for r in _rules()]
    assert len(names) == len(set(names))
    for rule in _rules():
        if "record" in rule:
            _level, metric, operation = rule["record"].split(":")
            assert metric.startswith("factsentry_") and operation, rule["record"]


@pytest.mark.parametrize(
    ("alert", "metric"),
    [
        ("FactSentryDFactScoreLow", "model:factsentry_worker_dfactscore:mean1h"),
        ("FactSentryDFactScoreDrift", "model:factsentry_worker_dfactscore:mean1d"),
        ("FactSentryConflationGapHigh", "model:factsentry_worker_conflation_gap:mean1h"),
        ("FactSentryDLQGrowing", "factsentry_worker_dlq_total"),
        ("FactSentryDLQRatioHigh", "factsentry_worker_records_total"),
        ("FactSentryConsumerLagHigh", "topic:factsentry_worker_consumer_lag:sum"),
        ("FactSentryPublishesLost", "factsentry_gateway_publish_lost_total"),
        ("FactSentryGatewayErrorRatioHigh", ":factsentry_gateway_error_ratio:rate5m"),
        ("FactSentryAddedLatencyHigh", "model_mode:factsentry_gateway_added_seconds:p99_5m"),
        ("FactSentryCoverageDropped", "model:factsentry_worker_coverage:mean1h"),
        ("FactSentryUnverifiableShareRising", "model:factsentry_worker_unverifiable_share:ratio1h"),
        ("FactSentryReleasedUnchecked", "factsentry_gateway_released_unchecked_total"),
        ("FactSentryBlockRatioRising", "model:factsentry_gateway_block_ratio:ratio1h"),
        ("FactSentryBlockRatioFalling", "model:factsentry_gateway_block_ratio:ratio1d"),
        ("FactSentryJudgeFailures", "factsentry_worker_llm_failures_total"),
        ("FactSentryJudgeErrorRatioHigh", "factsentry_worker_llm_errors_total"),
        ("FactSentryJudgeTokensHigh", "judge:factsentry_worker_llm_tokens:increase1h"),
        ("FactSentryWouldBlockRatioRising", "model:factsentry_worker_would_block_ratio:ratio1h"),
        ("FactSentryWouldBlockRatioFalling", "model:factsentry_worker_would_block_ratio:ratio1d"),
        ("FactSentryJudgeCostHigh", "judge:factsentry_worker_llm_cost_usd:increase1h"),
    ],
)
def test_each_concern_has_its_alert_on_the_right_series(alert: str, metric: str) -> None:
    rule = next(r for r in _rules() if r.get("alert") == alert)
    assert metric in {s.name for s in selectors(rule["expr"])}


@pytest.mark.parametrize(
    ("record", "histogram"),
    [
        ("model:factsentry_worker_factscore:mean5m", "factsentry_worker_factscore"),
        ("model:factsentry_worker_dfactscore:mean5m", "factsentry_worker_dfactscore"),
        ("model:factsentry_worker_factscore:mean1h", "factsentry_worker_factscore"),
        ("model:factsentry_worker_dfactscore:mean1h", "factsentry_worker_dfactscore"),
        ("model:factsentry_worker_dfactscore:mean1d", "factsentry_worker_dfactscore"),
    ],
)
def test_per_model_means_divide_the_histogram_sum_by_its_count(record: str, histogram: str) -> None:
    rule = next(r for r in _rules() if r.get("record") == record)
    assert [s.name for s in selectors(rule["expr"])] == [f"{histogram}_sum", f"{histogram}_count"]
    assert rule["expr"].count("sum by (env, cluster, namespace, model)") == 2


def test_compose_prometheus_scrapes_the_gateway_port_and_every_worker_replica() -> None:
    config = yaml.safe_load((PROM_DIR / "prometheus.yml").read_text())
    jobs = {job["job_name"]: job for job in config["scrape_configs"]}
    assert jobs["factsentry-gateway"]["static_configs"][0]["targets"] == ["gateway:8080"]
    worker_sd = jobs["factsentry-worker"]["dns_sd_configs"][0]
    assert (worker_sd["names"], worker_sd["type"], worker_sd["port"]) == (["worker"], "A", 9464)
    assert config["rule_files"] == ["alerts.yml"]


@pytest.mark.parametrize("rule", _rules(), ids=lambda r: r.get("alert") or r["record"])
def test_every_aggregation_and_match_keeps_env_cluster_and_namespace(rule: dict[str, Any]) -> None:
    assert list(iter_dropped_place_labels(rule["expr"])) == []


@pytest.mark.parametrize(
    ("expr", "dropped"),
    [
        ("sum by (env, cluster, namespace, model) (rate(x[5m]))", False),
        ("sum without (instance, pod) (x)", False),
        ("a and b", False),
        ("sum(x)", True),
        ("sum by (model) (x)", True),
        ("sum by (env, cluster, namespace) (x) and on (model) y", True),
        ("sum without (env) (x)", True),
        ("x / ignoring (cluster) y", True),
    ],
)
def test_place_label_checker_finds_aggregations_that_merge_places(expr: str, dropped: bool) -> None:
    assert bool(list(iter_dropped_place_labels(expr))) is dropped


def test_some_unit_test_keeps_two_environments_apart_for_each_new_alert() -> None:
    """An alert that fires for env=prod and stays quiet for env=staging with the same model or judge."""
    tests = yaml.safe_load(RULE_TESTS.read_text())["tests"]
    apart: set[str] = set()
    for test in tests:
        envs = {
            s["series"].split('env="', 1)[1].split('"', 1)[0] for s in test["input_series"] if 'env="' in s["series"]
        }
        if len(envs) < 2:
            continue
        for case in test.get("alert_rule_test", []):
            fired = {a["exp_labels"].get("env") for a in case["exp_alerts"]}
            if case["exp_alerts"] and None not in fired and fired < envs:
                apart.add(case["alertname"])
    new = {
        "FactSentryCoverageDropped",
        "FactSentryUnverifiableShareRising",
        "FactSentryReleasedUnchecked",
        "FactSentryBlockRatioRising",
        "FactSentryBlockRatioFalling",
        "FactSentryJudgeFailures",
        "FactSentryJudgeErrorRatioHigh",
        "FactSentryJudgeTokensHigh",
        "FactSentryWouldBlockRatioRising",
        "FactSentryWouldBlockRatioFalling",
        "FactSentryJudgeCostHigh",
    }
    assert new - apart == set()
    assert PLACE_LABELS >= {"env"}


@pytest.mark.parametrize("rule", [r for r in _rules() if "alert" in r], ids=lambda r: r["alert"])
def test_every_alert_links_its_own_runbook_page_with_the_three_sections(rule: dict[str, Any]) -> None:
    url = rule["annotations"]["runbook_url"]
    assert url == f"{RUNBOOK_BASE}{rule['alert']}.md"
    page = (RUNBOOKS / url.removeprefix(RUNBOOK_BASE)).read_text()
    assert page.startswith(f"# {rule['alert']}\n")
    assert f"Severity: {rule['labels']['severity']}." in page
    headings = [line for line in page.splitlines() if line.startswith("## ")]
    assert headings == ["## What it means", "## How to confirm", "## What to do"]
    for section in page.split("\n## ")[1:]:
        assert len(section.split("\n", 1)[1].strip()) > 80, section


def test_the_runbook_index_lists_every_alert_and_no_other() -> None:
    index = (RUNBOOKS / "README.md").read_text()
    alerts = {r["alert"] for r in _rules() if "alert" in r}
    listed = {line.split("|")[1].strip() for line in index.splitlines() if line.startswith("| FactSentry")}
    assert listed == alerts
    pages = {p.stem for p in RUNBOOKS.glob("*.md")} - {"README"}
    assert pages == alerts
