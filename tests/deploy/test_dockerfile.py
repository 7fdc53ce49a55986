"""Dockerfile and .dockerignore: hadolint, one non-root image for both processes, a build that works."""

from __future__ import annotations

import fnmatch
import json
import shlex
import tomllib
from pathlib import Path

import pytest
import yaml

from factsentry.cli import build_parser
from tests.deploy.conftest import REPO, run, venv_tool
from tests.deploy.processes import IMAGE_KB

DOCKERFILE = REPO / "Dockerfile"


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined, comments dropped."""
    out: list[tuple[str, str]] = []
    pending = ""
    for line in DOCKERFILE.read_text().splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        full = (pending + line).strip()
        pending = ""
        keyword, _, args = full.partition(" ")
        out.append((keyword.upper(), " ".join(args.split())))
    return out


def final_stage() -> list[tuple[str, str]]:
    steps = instructions()
    last_from = max(i for i, (k, _) in enumerate(steps) if k == "FROM")
    return steps[last_from:]


def dockerignore() -> list[str]:
    lines = (REPO / ".dockerignore").read_text().splitlines()
    return [p.strip() for p in lines if p.strip() and not p.startswith("#")]


def ignored(path: str) -> bool:
    parts = Path(path).parts
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    return any(
        fnmatch.fnmatch(prefix, pattern.removeprefix("**/")) or fnmatch.fnmatch(prefix, pattern)
        for pattern in dockerignore()
        for prefix in prefixes
    )


def test_hadolint_finds_nothing() -> None:
    proc = run([venv_tool("hadolint"), "--no-color", DOCKERFILE])
    assert (proc.returncode, proc.stdout.strip()) == (0, ""), proc.stdout + proc.stderr


def test_both_stages_build_on_python_311_slim() -> None:
    bases = [args.split()[0] for k, args in instructions() if k == "FROM"]
    assert bases == ["python:3.11-slim", "python:3.11-slim"]


def test_the_image_runs_as_a_non_root_user_with_a_healthcheck() -> None:
    final = final_stage()
    users = [args for k, args in final if k == "USER"]
    assert users and users[-1].split(":")[0] not in {"root", "0"}
    (healthcheck,) = [args for k, args in final if k == "HEALTHCHECK"]
    assert "--interval=" in healthcheck and "HEALTHCHECK_URL" in healthcheck
    env = " ".join(args for k, args in final if k == "ENV")
    assert "HEALTHCHECK_URL=http://127.0.0.1:8080/healthz" in env
    exposed = {int(p) for k, args in final if k == "EXPOSE" for p in args.split()}
    assert exposed == {8080, 9464}


def test_one_image_serves_both_commands_of_the_cli() -> None:
    final = dict(final_stage())
    assert json.loads(final["ENTRYPOINT"]) == ["factsentry"]
    assert json.loads(final["CMD"]) == ["gateway"]
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert {"gateway", "worker"} <= set(sub.choices or {}), (
        "the image runs `factsentry gateway` and `factsentry worker`"
    )


def test_every_package_is_copied_into_the_build_and_none_is_ignored() -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    patterns = pyproject["tool"]["setuptools"]["packages"]["find"]["include"]
    packages = {p.removesuffix("*") for p in patterns if (REPO / p.removesuffix("*")).is_dir()}
    copied = {args.split()[0].rstrip("/") for k, args in instructions() if k == "COPY" and "--from" not in args}
    assert packages <= copied, f"not copied into the image: {sorted(packages - copied)}"
    for source in copied:
        assert (REPO / source).exists(), source
        assert not ignored(source), f"{source} is copied but .dockerignore leaves it out of the context"


@pytest.mark.parametrize(
    ("path", "excluded"),
    [
        (".venv/bin/python", True),
        (".venv-dev/bin/python", True),
        (".git/config", True),
        (".tools/bin/helm", True),
        ("tests/conftest.py", True),
        ("gateway/__pycache__/app.cpython-311.pyc", True),
        ("var/demo-kb.sqlite3", True),
        ("gateway/app.py", False),
        ("knowledge/demo/dick_hanley.jsonl", False),
        ("deploy/policies.example.yaml", False),
        ("pyproject.toml", False),
    ],
)
def test_dockerignore_keeps_the_context_small(path: str, excluded: bool) -> None:
    assert ignored(path) is excluded


def test_the_knowledge_store_build_step_works(tmp_path: Path) -> None:
    """Run the Dockerfile's `factsentry kb import ...` on the same sources, outside Docker."""
    (run_step,) = [args for k, args in instructions() if k == "RUN" and "factsentry kb import" in args]
    command = shlex.split(run_step.split("&&")[-1])
    assert command[:3] == ["factsentry", "kb", "import"]
    image_kb = command[command.index("--db") + 1]
    env = " ".join(args for k, args in final_stage() if k == "ENV")
    assert f"FACTSENTRY_KB_PATH={image_kb}" in env
    chart = yaml.safe_load((REPO / "helm" / "factsentry" / "values.yaml").read_text())
    assert chart["knowledge"]["path"] == image_kb == IMAGE_KB
    copies = [args for k, args in final_stage() if k == "COPY" and args.endswith(str(Path(image_kb).parent))]
    assert copies == [f"--from=build --chown=10001:10001 {Path(image_kb).parent} {Path(image_kb).parent}"]
    db = tmp_path / "demo-kb.sqlite3"
    command[command.index("--db") + 1] = str(db)
    proc = run([venv_tool("factsentry"), *command[1:]])
    assert proc.returncode == 0, proc.stderr
    stats = run([venv_tool("factsentry"), "kb", "stats", "--db", db])
    assert stats.returncode == 0, stats.stderr
    counts = json.loads(stats.stdout)
    demo_pages = sum(1 for f in (REPO / "knowledge" / "demo").glob("*.jsonl") for line in f.open() if line.strip())
    assert counts["entities"] == demo_pages > 0
