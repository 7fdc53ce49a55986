"""The deployment configs start the real processes: gateway and worker run with the environment, files
and probe paths of the helm chart and of docker compose, against the embedded broker and valkey."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from factsentry.embedded import free_port
from gateway.policy import PolicyTable
from gateway.upstream import ModelRegistry
from tests.deploy.conftest import REPO, Renderer, container, duration_s, env_of, one, run, venv_tool
from tests.deploy.promql_names import METRICS

pytestmark = pytest.mark.integration

DEPLOY = REPO / "deploy"


@dataclass
class Pod:
    """What one deployment config says about a process: its env, files, probe paths and ports."""

    command: str
    env: dict[str, str]
    files: dict[str, str]  # path in the container -> content
    probes: list[str]
    port: int
    grace_s: float


def _helm_pod(render: Renderer, component: str) -> Pod:
    docs = render()
    deployment = one(docs, "Deployment", f"-{component}")
    c = container(deployment)
    config = one(docs, "ConfigMap", "-config")
    mount = next(m["mountPath"] for m in c["volumeMounts"] if m["name"] == "config")
    files = {f"{mount}/{name}": text for name, text in config["data"].items()}
    probes = [c[p]["httpGet"]["path"] for p in ("startupProbe", "livenessProbe", "readinessProbe")]
    (port,) = [p["containerPort"] for p in c["ports"]]
    grace = deployment["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
    return Pod(c["args"][0], {k: str(v) for k, v in env_of(c).items()}, files, probes, port, float(grace))


def _compose_pod(component: str) -> Pod:
    proc = run([venv_tool("docker-compose"), "--file", REPO / "docker-compose.yml", "config", "--format", "json"])
    assert proc.returncode == 0, proc.stderr
    service = json.loads(proc.stdout)["services"][component]
    files = {v["target"]: Path(v["source"]).read_text() for v in service.get("volumes", []) if v["type"] == "bind"}
    env = {k: str(v) for k, v in service["environment"].items() if v is not None}
    url = httpx.URL(env.get("HEALTHCHECK_URL", "http://127.0.0.1:8080/healthz"))  # the image's default
    grace = duration_s(service.get("stop_grace_period", "10s"))  # docker's default
    return Pod(service["command"][0], env, files, [url.path], url.port or 80, grace)


@dataclass
class Started:
    base_url: str
    process: subprocess.Popen[bytes]
    log: Path


def _start(pod: Pod, tmp_path: Path, overrides: dict[str, str]) -> Started:
    """Start ``factsentry <command>`` with the pod's env; container paths are mapped into tmp_path."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FACTSENTRY_")}
    env.update(pod.env)
    for container_path, text in pod.files.items():
        local = tmp_path / container_path.lstrip("/")
        local.parent.mkdir(parents=True, exist_ok=True)
        local.write_text(text)
        for key, value in pod.env.items():
            if value == container_path:
                env[key] = str(local)
    env.update(overrides)
    port = free_port()
    env["FACTSENTRY_PORT" if pod.command == "gateway" else "FACTSENTRY_METRICS_PORT"] = str(port)
    log = tmp_path / f"{pod.command}.log"
    process = subprocess.Popen(
        [str(venv_tool("factsentry")), pod.command],
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        cwd=tmp_path,
    )
    return Started(f"http://127.0.0.1:{port}", process, log)


def _wait_ready(started: Started, path: str, timeout_s: float = 90.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        assert started.process.poll() is None, started.log.read_text()
        try:
            if httpx.get(started.base_url + path, timeout=2.0).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.3)
    raise AssertionError(f"{path} never answered 200:\n{started.log.read_text()}")


@pytest.fixture
def kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("kb") / "kb.sqlite3"
    proc = run([venv_tool("factsentry"), "kb", "import", REPO / "knowledge" / "demo", "--db", db, "--quiet"])
    assert proc.returncode == 0, proc.stderr
    return db


@pytest.fixture
def stop() -> Iterator[list[Started]]:
    started: list[Started] = []
    yield started
    for s in started:
        if s.process.poll() is None:
            s.process.kill()
            s.process.wait(10)


def _pod(source: str, component: str, render: Renderer) -> Pod:
    return _helm_pod(render, component) if source == "helm" else _compose_pod(component)


@pytest.mark.parametrize("source", ["helm", "compose"])
def test_gateway_serves_its_probes_answers_and_counts_with_the_deployed_config(
    source: str,
    render: Renderer,
    tmp_path: Path,
    kafka_bootstrap: str,
    redis_url: str,
    unique: str,
    stop: list[Started],
) -> None:
    pod = _pod(source, "gateway", render)
    overrides = {
        "FACTSENTRY_HOST": "127.0.0.1",
        "FACTSENTRY_KAFKA_BOOTSTRAP": kafka_bootstrap,
        "FACTSENTRY_REDIS_URL": redis_url,
        "FACTSENTRY_GENERATIONS_TOPIC": f"deploy-gen-{unique}",
        "OPENAI_API_KEY": "sk-unused",
        "ANTHROPIC_API_KEY": "unused",
    }
    gateway = _start(pod, tmp_path, overrides)
    stop.append(gateway)
    _wait_ready(gateway, pod.probes[0])
    for path in [*pod.probes, "/readyz", "/metrics"]:
        _wait_ready(gateway, path, timeout_s=30)

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
    assert 'factsentry_gateway_requests_total{mode="observe",model="demo",outcome="ok"} 1.0' in metrics

    gateway.process.send_signal(signal.SIGTERM)
    # uvicorn shuts down gracefully, then re-raises the signal it caught: exit status -SIGTERM.
    assert gateway.process.wait(timeout=pod.grace_s) in (0, -signal.SIGTERM)
    assert "Application shutdown complete." in gateway.log.read_text()


@pytest.mark.parametrize("source", ["helm", "compose"])
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
    pod = _pod(source, "worker", render)
    overrides = {
        "FACTSENTRY_KAFKA_BOOTSTRAP": kafka_bootstrap,
        "FACTSENTRY_REDIS_URL": redis_url,
        "FACTSENTRY_KB_PATH": str(kb),
        "FACTSENTRY_GENERATIONS_TOPIC": f"deploy-gen-{unique}",
        "FACTSENTRY_RESULTS_TOPIC": f"deploy-res-{unique}",
        "FACTSENTRY_GROUP_ID": f"deploy-{unique}",
        "FACTSENTRY_METRICS_HOST": "127.0.0.1",
    }
    worker = _start(pod, tmp_path, overrides)
    stop.append(worker)
    for path in pod.probes:
        _wait_ready(worker, path)
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
