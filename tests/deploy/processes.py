"""Start the real processes the way a deployment config describes them (helm chart or compose)."""

from __future__ import annotations

import json
import os
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from factsentry.embedded import free_port
from tests.deploy.conftest import REPO, Renderer, container, duration_s, env_of, one, run, venv_tool


@dataclass
class Pod:
    """What one deployment config says about a process: its env, files, probe paths and ports."""

    command: str
    env: dict[str, str]
    files: dict[str, str]  # path in the container -> content
    probes: list[str]
    port: int
    grace_s: float


def helm_pod(render: Renderer, component: str) -> Pod:
    """The chart's default ``gateway`` or ``worker`` Deployment as a Pod."""
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


def compose_pod(component: str) -> Pod:
    """A docker compose service as a Pod; its probe is the image HEALTHCHECK's URL."""
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
    """A process a test started, where it listens and where its output goes."""

    base_url: str
    process: subprocess.Popen[bytes]
    log: Path


def start(pod: Pod, tmp_path: Path, overrides: dict[str, str]) -> Started:
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


def wait_ready(started: Started, path: str, timeout_s: float = 90.0) -> None:
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


def deployed_pod(source: str, component: str, render: Renderer) -> Pod:
    """The gateway or worker pod of the helm chart ("helm") or of docker compose ("compose")."""
    return helm_pod(render, component) if source == "helm" else compose_pod(component)
