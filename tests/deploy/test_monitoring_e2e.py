"""End to end: Prometheus scrapes the real gateway and worker started from the chart's config, loads
the rules, and the dashboard's queries show the per-model scores the workers produced."""

from __future__ import annotations

import signal
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from factsentry.embedded import free_port
from tests.deploy.conftest import REPO, Renderer
from tests.deploy.processes import Started, deployed_pod, start, wait_ready
from tests.deploy.test_grafana_dashboard import PANELS

pytestmark = pytest.mark.integration

SCRAPE = 1.0
WINDOWS = {
    "$__rate_interval": "5m",
    "$__interval": "1s",
    "$__range": "5m",
    "$window": "5m",
    '"$model"': '".*"',
    '"$env"': '".*"',
}
OBSERVE = {"x-factsentry-policy": "observe"}
ANSWER = {"messages": [{"role": "user", "content": "Who was Dick Hanley?"}], "model": "demo"}


def _query_text(expr: str) -> str:
    for var, value in WINDOWS.items():
        expr = expr.replace(var, value)
    return expr


def _prometheus_config(tmp_path: Path, gateway: Started, worker: Started) -> Path:
    """deploy/prometheus with local targets (no compose DNS) and 1 s scrape and rule intervals."""
    config = yaml.safe_load((REPO / "deploy" / "prometheus" / "prometheus.yml").read_text())
    config["global"].update(scrape_interval=f"{SCRAPE:g}s", evaluation_interval=f"{SCRAPE:g}s")
    targets = {"factsentry-gateway": gateway, "factsentry-worker": worker}
    for job in config["scrape_configs"]:
        job.pop("dns_sd_configs", None)
        job["static_configs"] = [{"targets": [targets[job["job_name"]].base_url.removeprefix("http://")]}]
    rules = yaml.safe_load((REPO / "deploy" / "prometheus" / "alerts.yml").read_text())
    for group in rules["groups"]:
        group["interval"] = f"{SCRAPE:g}s"
    (tmp_path / "prom").mkdir()
    (tmp_path / "prom" / "alerts.yml").write_text(yaml.safe_dump(rules))
    path = tmp_path / "prom" / "prometheus.yml"
    path.write_text(yaml.safe_dump(config))
    return path


def _start_prometheus(binary: Path, config: Path, tmp_path: Path) -> Started:
    port = free_port()
    log = tmp_path / "prometheus.log"
    process = subprocess.Popen(
        [
            str(binary),
            f"--config.file={config}",
            f"--storage.tsdb.path={tmp_path / 'tsdb'}",
            f"--web.listen-address=127.0.0.1:{port}",
            "--log.level=warn",
        ],
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    return Started(f"http://127.0.0.1:{port}", process, log)


def _query(prom: Started, expr: str) -> list[dict[str, Any]]:
    body = httpx.get(prom.base_url + "/api/v1/query", params={"query": _query_text(expr)}, timeout=10).json()
    assert body["status"] == "success", (expr, body)
    return list(body["data"]["result"])


def _wait(condition: Any, what: str, timeout_s: float = 120.0) -> Any:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}")


def _result(gateway: Started, request_id: str) -> dict[str, Any] | None:
    reply = httpx.get(f"{gateway.base_url}/v1/results/{request_id}", timeout=5)
    return dict(reply.json()) if reply.status_code == 200 else None


def _ask(gateway: Started, headers: dict[str, str] | None = None) -> str:
    reply = httpx.post(gateway.base_url + "/v1/chat/completions", json=ANSWER, headers=headers or {}, timeout=90)
    assert reply.status_code == 200, reply.text
    return str(reply.headers["x-request-id"])


def test_dashboard_and_rules_show_what_the_workers_scored(
    render: Renderer,
    prometheus: Path,
    tmp_path: Path,
    kafka_bootstrap: str,
    redis_url: str,
    unique: str,
    kb: Path,
    stop: list[Started],
) -> None:
    bus = {
        "FACTSENTRY_KAFKA_BOOTSTRAP": kafka_bootstrap,
        "FACTSENTRY_REDIS_URL": redis_url,
        "FACTSENTRY_GENERATIONS_TOPIC": f"e2e-gen-{unique}",
        "FACTSENTRY_RESULTS_TOPIC": f"e2e-res-{unique}",
        "FACTSENTRY_REDIS_PREFIX": f"e2e-{unique}",
    }
    worker_env = {**bus, "FACTSENTRY_GROUP_ID": f"e2e-{unique}"}
    worker_env["FACTSENTRY_METRICS_HOST"] = "127.0.0.1"
    worker_pod, gateway_pod = deployed_pod("helm", "worker", render), deployed_pod("helm", "gateway", render)
    # The worker pod copies the image's store to its emptyDir (init container) and reads the copy.
    worker = start(worker_pod, tmp_path / "worker", worker_env, image_kb=kb)
    stop.append(worker)
    # Each request below picks its own policy by header, looser than the demo model's included.
    gateway_env = {**bus, "FACTSENTRY_HOST": "127.0.0.1", "FACTSENTRY_POLICY_OVERRIDE": "any"}
    gateway = start(gateway_pod, tmp_path / "gateway", gateway_env)
    stop.append(gateway)
    wait_ready(worker, "/metrics")
    wait_ready(gateway, "/readyz")
    prom = _start_prometheus(prometheus, _prometheus_config(tmp_path, gateway, worker), tmp_path)
    stop.append(prom)
    wait_ready(prom, "/-/ready")
    _wait(lambda: len(_query(prom, 'up{job=~"factsentry-.*"} == 1')) == 2, "both targets up")

    # The first verdict creates the per-model series; the mean is taken over the verdicts after it.
    # The chart's policy for "demo" is annotate; observe is the mode whose added latency is measured.
    first = _ask(gateway, OBSERVE)
    _wait(lambda: _result(gateway, first), "the first verdict")
    _wait(lambda: _query(prom, "factsentry_worker_dfactscore_count"), "the first scrape of a score")
    time.sleep(2 * SCRAPE)
    later = [_ask(gateway, OBSERVE) for _ in range(3)]
    blocked = _ask(
        gateway, {"x-factsentry-policy": "block", "x-factsentry-threshold": "1.0", "x-factsentry-timeout": "90"}
    )
    results = [_wait(lambda rid=rid: _result(gateway, rid), f"verdict {rid}") for rid in [*later, blocked]]
    scored = [r["check"] for r in results if r["check"]["dfactscore"] is not None]
    assert scored, f"no answer was scored: {results}"
    expected_fs = statistics.fmean(c["factscore"] for c in scored)
    expected_dfs = statistics.fmean(c["dfactscore"] for c in scored)
    total = len(results) + 1
    _wait(
        lambda: [s for s in _query(prom, "factsentry_worker_dfactscore_count") if float(s["value"][1]) >= total],
        "the last scores to be scraped",
    )
    time.sleep(2 * SCRAPE)

    def panel_values(title: str) -> dict[str, float]:
        panel = next(p for p in PANELS if p["title"] == title)
        samples = _query(prom, panel["targets"][0]["expr"])
        return {s["metric"].get("model", ""): float(s["value"][1]) for s in samples}

    assert panel_values("FActScore per model") == {"demo": pytest.approx(expected_fs, abs=1e-9)}
    assert panel_values("D-FActScore per model") == {"demo": pytest.approx(expected_dfs, abs=1e-9)}
    assert panel_values("FActScore − D-FActScore gap") == {"demo": pytest.approx(expected_fs - expected_dfs, abs=1e-9)}
    recorded = _wait(lambda: _query(prom, "model:factsentry_worker_dfactscore:mean5m"), "the recording rule")
    assert [(s["metric"]["model"], float(s["value"][1])) for s in recorded] == [
        ("demo", pytest.approx(expected_dfs, abs=1e-9))
    ]
    # The block request (threshold 1.0) is blocked exactly when its verdict is below 1.
    verdict = results[-1]["check"]["dfactscore"]
    was_blocked = verdict is not None and verdict < 1.0
    blocked_counts = [float(s["value"][1]) for s in _query(prom, 'factsentry_gateway_blocked_total{model="demo"}')]
    assert blocked_counts == ([1.0] if was_blocked else [])

    # Every panel query runs on the real engine; the ones about traffic we sent have data.
    for panel in PANELS:
        for target in panel["targets"]:
            _query(prom, target["expr"])
    for title in ("Requests by outcome", "Added latency p50 / p99", "Records by outcome", "Stage latency p50 / p99"):
        panel = next(p for p in PANELS if p["title"] == title)
        assert _query(prom, panel["targets"][0]["expr"]), f"panel {title!r} shows nothing"

    # Every recording and alerting rule evaluates without error against real series.
    groups = httpx.get(prom.base_url + "/api/v1/rules", timeout=10).json()["data"]["groups"]
    rules = [rule for group in groups for rule in group["rules"]]
    assert len(rules) == sum(
        len(g["rules"]) for g in yaml.safe_load((REPO / "deploy/prometheus/alerts.yml").read_text())["groups"]
    )
    assert [r["name"] for r in rules if r["health"] != "ok"] == []

    # The chart's probe paths answer, and SIGTERM ends both processes within their grace periods.
    for started, pod in ((gateway, gateway_pod), (worker, worker_pod)):
        for path in pod.probes:
            assert httpx.get(started.base_url + path, timeout=5).status_code == 200, path
    worker.process.send_signal(signal.SIGTERM)
    assert worker.process.wait(timeout=worker_pod.grace_s) == 0, worker.log.read_text()
    gateway.process.send_signal(signal.SIGTERM)
    # uvicorn shuts down gracefully, then re-raises the signal it caught: exit status -SIGTERM.
    assert gateway.process.wait(timeout=gateway_pod.grace_s) in (0, -signal.SIGTERM)
