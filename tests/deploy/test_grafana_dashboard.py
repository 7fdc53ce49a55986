"""The Grafana dashboard and its provisioning: valid PromQL over known series, the panels SREs need."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import yaml

from tests.deploy.conftest import REPO
from tests.deploy.promql_names import iter_label_problems, selectors, series_labels

GRAFANA = REPO / "deploy" / "grafana"
DASHBOARD = json.loads((GRAFANA / "factsentry.json").read_text())
PANELS = [p for p in DASHBOARD["panels"] if p["type"] != "row"]
TARGETS = [(p["title"], t["expr"]) for p in PANELS for t in p["targets"]]

# What Grafana puts in place of its variables when it sends a query.
GRAFANA_VARS = {
    "$__rate_interval": "1m",
    "$__interval": "15s",
    "$__range": "6h",
    "$window": "15m",
    '"$model"': '".*"',
    '"$env"': '".*"',
}
_LABEL_VALUES = re.compile(r"^label_values\((\w+)(?:\{[^}]*\})?,\s*(\w+)\)$")


def _substituted(expr: str) -> str:
    for var, value in GRAFANA_VARS.items():
        expr = expr.replace(var, value)
    assert "$" not in expr, f"an unknown variable is left in {expr!r}"
    return expr


@pytest.mark.parametrize(("title", "expr"), TARGETS, ids=[f"{t}#{i}" for i, (t, _) in enumerate(TARGETS)])
def test_every_panel_query_is_promql_over_known_series(title: str, expr: str) -> None:
    assert list(iter_label_problems(_substituted(expr), series_labels())) == []


def test_template_variables_cover_every_variable_the_queries_use() -> None:
    defined = {v["name"] for v in DASHBOARD["templating"]["list"]}
    used = {m for _, expr in TARGETS for m in re.findall(r"\$(\w+)", expr) if not m.startswith("__")}
    assert used <= defined
    assert {"datasource", "env", "model", "window"} <= defined


def test_the_model_variable_reads_a_known_metric_label() -> None:
    model = next(v for v in DASHBOARD["templating"]["list"] if v["name"] == "model")
    match = _LABEL_VALUES.match(model["query"]["query"])
    assert match is not None
    metric, label = match.groups()
    assert label in series_labels()[metric]
    assert (model["multi"], model["includeAll"], model["allValue"]) == (True, True, ".*")


@pytest.mark.parametrize(
    ("title", "series"),
    [
        ("FActScore per model", {"factsentry_worker_factscore_sum", "factsentry_worker_factscore_count"}),
        ("D-FActScore per model", {"factsentry_worker_dfactscore_sum", "factsentry_worker_dfactscore_count"}),
        (
            "FActScore − D-FActScore gap",
            {
                "factsentry_worker_factscore_sum",
                "factsentry_worker_factscore_count",
                "factsentry_worker_dfactscore_sum",
                "factsentry_worker_dfactscore_count",
            },
        ),
        ("Blocked and revised answers", {"factsentry_gateway_blocked_total", "factsentry_gateway_revised_total"}),
        ("Added latency p50 / p99", {"factsentry_gateway_added_seconds_bucket"}),
        ("Consumer lag", {"factsentry_worker_consumer_lag"}),
        ("Dead-letter records", {"factsentry_worker_dlq_total"}),
        ("Cache hit ratio", {"factsentry_cache_hits_total", "factsentry_cache_misses_total"}),
        ("Lost publishes", {"factsentry_gateway_publish_lost_total"}),
        ("Gateway error ratio", {"factsentry_gateway_requests_total"}),
        ("Shadow vs enforced block rate", {"factsentry_worker_would_total", "factsentry_gateway_requests_total"}),
    ],
)
def test_the_dashboard_has_each_panel_on_its_series(title: str, series: set[str]) -> None:
    panel = next(p for p in PANELS if p["title"] == title)
    used = {s.name for t in panel["targets"] for s in selectors(_substituted(t["expr"]))}
    assert used == series


def test_added_latency_panel_shows_p50_and_p99() -> None:
    panel = next(p for p in PANELS if p["title"] == "Added latency p50 / p99")
    quantiles = sorted(re.findall(r"histogram_quantile\(([\d.]+),", " ".join(t["expr"] for t in panel["targets"])))
    assert quantiles == ["0.5", "0.99"]
    assert panel["fieldConfig"]["defaults"]["unit"] == "s"


def _cells(panel: dict[str, Any]) -> set[tuple[int, int]]:
    g = panel["gridPos"]
    return {(x, y) for x in range(g["x"], g["x"] + g["w"]) for y in range(g["y"], g["y"] + g["h"])}


def test_panels_have_unique_ids_and_do_not_overlap_on_the_24_column_grid() -> None:
    ids = [p["id"] for p in DASHBOARD["panels"]]
    assert len(ids) == len(set(ids))
    taken: set[tuple[int, int]] = set()
    for panel in DASHBOARD["panels"]:
        g = panel["gridPos"]
        assert g["x"] + g["w"] <= 24, panel["title"]
        cells = _cells(panel)
        assert not cells & taken, f"{panel['title']} overlaps another panel"
        taken |= cells
    for panel in PANELS:
        ref_ids = [t["refId"] for t in panel["targets"]]
        assert len(ref_ids) == len(set(ref_ids)), panel["title"]


def test_panels_query_the_datasource_variable_which_defaults_to_the_provisioned_uid() -> None:
    provisioned = yaml.safe_load((GRAFANA / "provisioning" / "datasources" / "prometheus.yml").read_text())
    (source,) = provisioned["datasources"]
    variable = next(v for v in DASHBOARD["templating"]["list"] if v["name"] == "datasource")
    assert (variable["query"], variable["current"]["value"]) == (source["type"], source["uid"])
    for panel in PANELS:
        assert panel["datasource"] == {"type": "prometheus", "uid": "${datasource}"}, panel["title"]
    assert source["url"] == "http://prometheus:9090"


def test_dashboard_provider_loads_the_folder_compose_mounts_the_dashboard_into() -> None:
    provider = yaml.safe_load((GRAFANA / "provisioning" / "dashboards" / "factsentry.yml").read_text())["providers"][0]
    compose = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    mounts = {v.split(":")[0]: v.split(":")[1] for v in compose["services"]["grafana"]["volumes"]}
    target = mounts["./deploy/grafana/factsentry.json"]
    assert target == f"{provider['options']['path']}/factsentry.json"
    assert mounts["./deploy/grafana/provisioning"] == "/etc/grafana/provisioning"
    assert DASHBOARD["uid"] == "factsentry" and DASHBOARD["schemaVersion"] >= 36


@pytest.mark.parametrize(("title", "expr"), TARGETS, ids=[f"{t}#{i}" for i, (t, _) in enumerate(TARGETS)])
def test_every_panel_query_shows_the_chosen_environment_only(title: str, expr: str) -> None:
    """Two environments never add up in one line: every selector filters on the env variable."""
    sels = selectors(_substituted(expr.replace('"$env"', '"ENV"')))
    assert sels and all(("env", "ENV") in s.matchers for s in sels), expr


def test_the_env_variable_reads_the_env_label_and_allows_all() -> None:
    env = next(v for v in DASHBOARD["templating"]["list"] if v["name"] == "env")
    assert _LABEL_VALUES.match(env["query"]["query"]) is not None
    assert env["query"]["query"].endswith(", env)")
    assert (env["includeAll"], env["allValue"]) == (True, ".*")
    model = next(v for v in DASHBOARD["templating"]["list"] if v["name"] == "model")
    assert 'env=~"$env"' in model["query"]["query"]
