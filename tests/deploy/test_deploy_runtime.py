"""The deployment configs start the real processes: gateway and worker run with the environment, files
and probe paths of the helm chart and of docker compose, against the embedded broker and valkey."""

from __future__ import annotations

import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from gateway.policy import PolicyTable
from gateway.upstream import ModelRegistry
from tests.deploy.conftest import REPO, Renderer, run
from tests.deploy.processes import Started, deployed_pod, in_pod_filesystem, start, wait_ready
from tests.deploy.promql_names import METRICS

pytestmark = pytest.mark.integration

DEPLOY = REPO / "deploy"


# The chart's gateway and worker run (probes, SIGTERM included) in test_monitoring_e2e.py.
@pytest.mark.parametrize("source", ["compose"])
def test_gateway_serves_its_probes_answers_and_counts_with_the_deployed_config(
    source: str,
    render: Renderer,
    tmp_path: Path,
    kafka_bootstrap: str,
    redis_url: str,
    unique: str,
    stop: list[Started],
) -> None:
    pod = deployed_pod(source, "gateway", render)
    overrides = {
        "FACTSENTRY_HOST": "127.0.0.1",
        "FACTSENTRY_KAFKA_BOOTSTRAP": kafka_bootstrap,
        "FACTSENTRY_REDIS_URL": redis_url,
        "FACTSENTRY_GENERATIONS_TOPIC": f"deploy-gen-{unique}",
        "OPENAI_API_KEY": "sk-unused",
        "ANTHROPIC_API_KEY": "unused",
        # The request below loosens the demo model's annotate policy to observe by header.
        "FACTSENTRY_POLICY_OVERRIDE": "any",
    }
    gateway = start(pod, tmp_path, overrides)
    stop.append(gateway)
    wait_ready(gateway, pod.probes[0])
    for path in [*pod.probes, "/readyz", "/metrics"]:
        wait_ready(gateway, path)

    models = yaml.safe_load(pod.files["/etc/factsentry/models.yaml"])["model_list"]
    demo = next(m for m in models if m["model_name"] == "demo")
    reply = httpx.post(
        gateway.base_url + "/v1/chat/completions",
        json={"model": "demo", "messages": [{"role": "user", "content": "Who was Dick Hanley?"}]},
        headers={"x-factsentry-policy": "observe"},
        timeout=30,
    )
    assert reply.status_code == 200, reply.text
    assert reply.json()["choices"][0]["message"]["content"] == demo["litellm_params"]["mock_response"]
    assert reply.headers["x-request-id"]
    metrics = httpx.get(gateway.base_url + "/metrics", timeout=5).text
    assert 'factsentry_gateway_requests_total{mode="observe",model="demo",outcome="ok",source="proxy"} 1.0' in metrics

    gateway.process.send_signal(signal.SIGTERM)
    # uvicorn shuts down gracefully, then re-raises the signal it caught: exit status -SIGTERM.
    assert gateway.process.wait(timeout=pod.grace_s) in (0, -signal.SIGTERM)
    assert "Application shutdown complete." in gateway.log.read_text()


# The chart's gateway and worker run (probes, SIGTERM included) in test_monitoring_e2e.py.
@pytest.mark.parametrize("source", ["compose"])
def test_worker_serves_its_metrics_probe_and_drains_on_sigterm_within_the_grace_period(
    source: str,
    render: Renderer,
    tmp_path: Path,
    kafka_bootstrap: str,
    redis_url: str,
    unique: str,
    kb: Path,
    stop: list[Started],
) -> None:
    pod = deployed_pod(source, "worker", render)
    overrides = {
        "FACTSENTRY_KAFKA_BOOTSTRAP": kafka_bootstrap,
        "FACTSENTRY_REDIS_URL": redis_url,
        "FACTSENTRY_GENERATIONS_TOPIC": f"deploy-gen-{unique}",
        "FACTSENTRY_RESULTS_TOPIC": f"deploy-res-{unique}",
        "FACTSENTRY_GROUP_ID": f"deploy-{unique}",
        "FACTSENTRY_METRICS_HOST": "127.0.0.1",
    }
    worker = start(pod, tmp_path, overrides, image_kb=kb)
    stop.append(worker)
    for path in pod.probes:
        wait_ready(worker, path)
    exposition = httpx.get(worker.base_url + "/metrics", timeout=5).text
    types = {line.split()[2] for line in exposition.splitlines() if line.startswith("# TYPE factsentry_worker_")}
    worker_metrics = {name for name in METRICS if name.startswith("factsentry_worker_")}
    assert worker_metrics <= types

    started = time.monotonic()
    worker.process.send_signal(signal.SIGTERM)
    assert worker.process.wait(timeout=pod.grace_s) == 0, worker.log.read_text()
    assert time.monotonic() - started < float(pod.env["FACTSENTRY_DRAIN_TIMEOUT_S"])


@pytest.mark.parametrize("models_file", [DEPLOY / "models.example.yaml"])
async def test_example_models_build_and_the_demo_model_answers_offline(models_file: Path) -> None:
    registry = ModelRegistry.load(models_file, env={"OPENAI_API_KEY": "sk-x", "ANTHROPIC_API_KEY": "x"})
    try:
        names = {m["id"] for m in registry.list()}
        policies = PolicyTable.load(DEPLOY / "policies.example.yaml")
        assert set(policies.models) <= names, "a policy names a model the gateway does not serve"
        answer = await registry.get("demo").complete({"messages": [{"role": "user", "content": "Dick Hanley?"}]})
        assert answer.text.startswith("Dick Hanley was an American football coach.")
    finally:
        await registry.aclose()


def test_chart_policies_name_only_chart_models() -> None:
    values: dict[str, Any] = yaml.safe_load((REPO / "helm" / "factsentry" / "values.yaml").read_text())
    served = {m["model_name"] for m in values["models"]["model_list"]}
    assert set(values["policies"]["models"]) <= served


def test_the_chart_pods_run_here_on_a_read_only_root_filesystem(render: Renderer, tmp_path: Path) -> None:
    """The end-to-end test runs the chart's pods as the cluster would: only their volumes are writable."""
    worker = deployed_pod("helm", "worker", render)
    assert worker.read_only_root and deployed_pod("helm", "gateway", render).read_only_root
    inside, outside = tmp_path / "ok", REPO / f"write-probe-{tmp_path.name}"
    assert run(in_pod_filesystem(["touch", str(inside)], tmp_path, read_only_root=True)).returncode == 0
    blocked = run(in_pod_filesystem(["touch", str(outside)], tmp_path, read_only_root=True))
    assert "Read-only file system" in blocked.stderr
    assert inside.exists() and not outside.exists()
