"""Start the real processes the way a deployment config describes them (helm chart or compose)."""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from factsentry.embedded import EmbeddedServerError, free_port, wait_until_ready
from tests.deploy.conftest import Renderer, compose_config, container, duration_s, env_of, one, run, venv_tool

# Container paths our configs use; a test maps each into its own folder (``local``).
CONTAINER_ROOTS = ("/etc/factsentry/", "/var/lib/factsentry/", "/opt/factsentry/")
# The store the image's build step writes (see the Dockerfile).
IMAGE_KB = "/opt/factsentry/kb/demo-kb.sqlite3"
# The chart refuses to render without an auth choice. The pods run here without a cluster's Secrets,
# so they take the explicit opt-out (the keys-file path is tested on the rendered manifests).
HELM_VALUES = {"auth": {"allowUnauthenticated": True}}


@dataclass
class Pod:
    """What one deployment config says about a process: its env, files, probes, volumes and grace period."""

    command: str
    env: dict[str, str]
    files: dict[str, str]  # path in the container -> content
    probes: list[str]
    grace_s: float
    init: list[list[str]] = field(default_factory=list)  # init containers' commands
    empty_dirs: list[str] = field(default_factory=list)  # writable volumes' mount paths
    read_only_root: bool = False


def local(root: Path, container_path: str) -> Path:
    """Where ``container_path`` of a pod lives in a test's folder ``root``."""
    return root / "fs" / container_path.lstrip("/")


def _mapped(root: Path, value: str) -> str:
    return str(local(root, value)) if value.startswith(CONTAINER_ROOTS) else value


def helm_pod(render: Renderer, component: str) -> Pod:
    """The chart's ``gateway`` or ``worker`` Deployment (default values plus :data:`HELM_VALUES`) as a Pod."""
    docs = render(HELM_VALUES)
    deployment = one(docs, "Deployment", f"-{component}")
    c = container(deployment)
    config = one(docs, "ConfigMap", "-config")
    mount = next(m["mountPath"] for m in c["volumeMounts"] if m["name"] == "config")
    files = {f"{mount}/{name}": text for name, text in config["data"].items()}
    probes = [c[p]["httpGet"]["path"] for p in ("startupProbe", "livenessProbe", "readinessProbe")]
    spec = deployment["spec"]["template"]["spec"]
    init = [list(ic["command"]) for ic in spec.get("initContainers", [])]
    empty = {v["name"] for v in spec["volumes"] if "emptyDir" in v}
    mounts = [m for ic in [*spec.get("initContainers", []), c] for m in ic["volumeMounts"]]
    empty_dirs = sorted({m["mountPath"] for m in mounts if m["name"] in empty})
    env = {k: str(v) for k, v in env_of(c).items()}
    grace = float(spec["terminationGracePeriodSeconds"])
    read_only = bool(c["securityContext"].get("readOnlyRootFilesystem"))
    return Pod(c["args"][0], env, files, probes, grace, init, empty_dirs, read_only)


def compose_pod(component: str) -> Pod:
    """A docker compose service as a Pod; its probe is the image HEALTHCHECK's URL."""
    service = compose_config()["services"][component]
    files = {v["target"]: Path(v["source"]).read_text() for v in service.get("volumes", []) if v["type"] == "bind"}
    env = {k: str(v) for k, v in service["environment"].items() if v is not None}
    url = httpx.URL(env.get("HEALTHCHECK_URL", "http://127.0.0.1:8080/healthz"))  # the image's default
    grace = duration_s(service.get("stop_grace_period", "10s"))  # docker's default
    return Pod(service["command"][0], env, files, [url.path], grace)


@dataclass
class Started:
    """A process a test started, where it listens and where its output goes."""

    base_url: str
    process: subprocess.Popen[bytes]
    log: Path


# In a private mount namespace: keep ``$ROOT`` writable, make every other path read-only, run "$@".
_READ_ONLY_ROOT = 'mount --make-rprivate / && mount --bind "$ROOT" "$ROOT" && mount -o remount,bind,ro / && exec "$@"'


def in_pod_filesystem(command: list[str], root: Path, read_only_root: bool) -> list[str]:
    """``command``, run with a read-only root filesystem (only ``root`` writable) if the pod asks for one."""
    if not read_only_root:
        return command
    return ["unshare", "--mount", "env", f"ROOT={root}", "sh", "-c", _READ_ONLY_ROOT, "sh", *command]


def start(pod: Pod, root: Path, overrides: dict[str, str], image_kb: Path | None = None) -> Started:
    """Run the pod's init commands, then ``factsentry <command>`` with its env, in folder ``root``.

    Container paths (config files, volumes, the image's knowledge store ``image_kb``) are mapped
    into ``root``; ``overrides`` replace what only exists in a cluster (servers, ports, topics).
    """
    root.mkdir(parents=True, exist_ok=True)
    for container_path, text in pod.files.items():
        local(root, container_path).parent.mkdir(parents=True, exist_ok=True)
        local(root, container_path).write_text(text)
    if image_kb is not None:
        local(root, IMAGE_KB).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(image_kb, local(root, IMAGE_KB))
    for mount in pod.empty_dirs:
        local(root, mount).mkdir(parents=True, exist_ok=True)
    for command in pod.init:
        proc = run(in_pod_filesystem([_mapped(root, arg) for arg in command], root, pod.read_only_root))
        assert proc.returncode == 0, f"init container {command} failed: {proc.stderr}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("FACTSENTRY_")}
    env.update({key: _mapped(root, value) for key, value in pod.env.items()})
    # As in the image: /tmp (an emptyDir in the chart) holds temporary files and caches.
    local(root, "/tmp/.cache").mkdir(parents=True, exist_ok=True)
    env.update(TMPDIR=str(local(root, "/tmp")), XDG_CACHE_HOME=str(local(root, "/tmp/.cache")))
    env.update(PYTHONDONTWRITEBYTECODE="1")
    env.update(overrides)
    port = free_port()
    env["FACTSENTRY_PORT" if pod.command == "gateway" else "FACTSENTRY_METRICS_PORT"] = str(port)
    if pod.command == "gateway" and env.get("FACTSENTRY_METRICS_PORT", "0") != "0":
        # The pod's own metrics listener (0.0.0.0 in a cluster): here on loopback, on a port of its own.
        env.update(FACTSENTRY_METRICS_PORT=str(free_port()), FACTSENTRY_METRICS_HOST="127.0.0.1")
    log = root / f"{pod.command}.log"
    process = subprocess.Popen(
        in_pod_filesystem([str(venv_tool("factsentry")), pod.command], root, pod.read_only_root),
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        cwd=root,
    )
    return Started(f"http://127.0.0.1:{port}", process, log)


def wait_ready(started: Started, path: str) -> None:
    """Until ``path`` answers 200, within the bound every start waits (``embedded.READY_TIMEOUT_S``)."""
    try:
        wait_until_ready(started.base_url + path, started.process)
    except EmbeddedServerError as e:
        raise AssertionError(f"{e}:\n{started.log.read_text()}") from e


def deployed_pod(source: str, component: str, render: Renderer) -> Pod:
    """The gateway or worker pod of the helm chart ("helm") or of docker compose ("compose")."""
    return helm_pod(render, component) if source == "helm" else compose_pod(component)
