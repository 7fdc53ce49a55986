"""Fixtures of the deployment tests: the validators installed by ``make tools`` and a helm renderer."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import yaml

if TYPE_CHECKING:
    from tests.deploy.processes import Started

REPO = Path(__file__).resolve().parents[2]
CHART = REPO / "helm" / "factsentry"
TOOLS_DIR = REPO / ".tools" / "bin"
COMPOSE = REPO / "docker-compose.yml"
# docker-compose.yml has no default Grafana password: compose refuses the file until one is set.
COMPOSE_ENV = {"GRAFANA_ADMIN_PASSWORD": "only-for-the-tests"}

Renderer = Callable[..., list[dict[str, Any]]]


def _installer() -> Any:
    """``deploy/tools/install_tools.py`` as a module (it is a script, not a package)."""
    path = REPO / "deploy" / "tools" / "install_tools.py"
    spec = importlib.util.spec_from_file_location("factsentry_install_tools", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def helm() -> Path:
    """helm 4, installed into .tools/bin by ``make tools`` (installed here too if the target was skipped)."""
    return Path(_installer().install_helm(TOOLS_DIR))


@pytest.fixture(scope="session")
def promtool() -> Path:
    """promtool from Debian's prometheus package, installed into .tools/bin by ``make tools``."""
    return Path(_installer().install_promtool(TOOLS_DIR))


@pytest.fixture(scope="session")
def prometheus() -> Path:
    """The Prometheus server from the same Debian package, installed into .tools/bin by ``make tools``."""
    return Path(_installer().install_prometheus(TOOLS_DIR))


def run(cmd: list[str | Path], cwd: Path = REPO, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run a validator (``env`` on top of ours); the result carries stdout and stderr for the assertion message."""
    return subprocess.run(
        [str(c) for c in cmd],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env=None if env is None else {**os.environ, **env},
    )


def compose_config(path: Path = COMPOSE) -> dict[str, Any]:
    """The compose file as the Compose CLI resolves it (anchors merged, defaults filled in)."""
    proc = run([venv_tool("docker-compose"), "--file", path, "config", "--format", "json"], env=COMPOSE_ENV)
    assert proc.returncode == 0, proc.stderr
    return dict(json.loads(proc.stdout))


def venv_tool(name: str) -> Path:
    """A console script of a dev dependency, next to the running interpreter."""
    path = Path(sys.executable).parent / name
    assert path.exists(), f"{name} is missing from {path.parent}: run `make install` (it is in the dev extra)"
    return path


@pytest.fixture(scope="session")
def render(helm: Path, tmp_path_factory: pytest.TempPathFactory) -> Renderer:
    """``render(values, release="fs")``: the chart's manifests from ``helm template`` as parsed documents."""
    cache: dict[str, list[dict[str, Any]]] = {}

    def _render(values: dict[str, Any] | None = None, release: str = "fs") -> list[dict[str, Any]]:
        key = yaml.safe_dump({"values": values or {}, "release": release}, sort_keys=True)
        if key not in cache:
            values_file = tmp_path_factory.mktemp("values") / "values.yaml"
            values_file.write_text(yaml.safe_dump(values or {}))
            proc = run([helm, "template", release, CHART, "--namespace", "factsentry", "--values", values_file])
            assert proc.returncode == 0, proc.stderr
            cache[key] = [doc for doc in yaml.safe_load_all(proc.stdout) if doc]
        return cache[key]

    return _render


def by_kind(docs: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [d for d in docs if d["kind"] == kind]


def one(docs: list[dict[str, Any]], kind: str, name_suffix: str = "") -> dict[str, Any]:
    """The single document of ``kind`` whose name ends with ``name_suffix``."""
    found = [d for d in by_kind(docs, kind) if d["metadata"]["name"].endswith(name_suffix)]
    assert len(found) == 1, f"expected one {kind} named *{name_suffix}, found {[d['metadata']['name'] for d in found]}"
    return found[0]


def container(deployment: dict[str, Any]) -> dict[str, Any]:
    containers = deployment["spec"]["template"]["spec"]["containers"]
    assert len(containers) == 1
    return containers[0]


def env_of(c: dict[str, Any]) -> dict[str, Any]:
    """A container's env as name -> value (or the valueFrom mapping)."""
    return {e["name"]: e.get("value", e.get("valueFrom")) for e in c.get("env", [])}


def duration_s(duration: str) -> float:
    """A Go duration as the Compose CLI prints it (``1m0s``, ``45s``) in seconds."""
    parts = re.findall(r"(\d+(?:\.\d+)?)(h|m|s)", duration)
    assert parts, f"not a duration: {duration!r}"
    return sum(float(n) * {"h": 3600, "m": 60, "s": 1}[unit] for n, unit in parts)


@pytest.fixture
def kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo knowledge store, imported with the real `factsentry kb import`."""
    db = tmp_path_factory.mktemp("kb") / "kb.sqlite3"
    proc = run([venv_tool("factsentry"), "kb", "import", REPO / "knowledge" / "demo", "--db", db, "--quiet"])
    assert proc.returncode == 0, proc.stderr
    return db


@pytest.fixture
def stop() -> Iterator[list[Started]]:
    """Processes a test started; any still running at the end are killed."""
    started: list[Started] = []
    yield started
    for s in started:
        if s.process.poll() is None:
            s.process.kill()
            s.process.wait(10)
