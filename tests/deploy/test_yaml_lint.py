"""yamllint over every YAML file of the deployment (helm templates are Go templates, linted by helm)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.deploy.conftest import CHART, REPO, run, venv_tool

CONFIG = Path(__file__).with_name("yamllint.yaml")
FILES = sorted(
    [
        REPO / "docker-compose.yml",
        *(REPO / "deploy").rglob("*.y*ml"),
        CHART / "Chart.yaml",
        CHART / "values.yaml",
        *(CHART / "files").glob("*.y*ml"),
        *Path(__file__).parent.glob("*.y*ml"),
    ]
)


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(REPO)) for p in FILES])
def test_yamllint_is_clean(path: Path) -> None:
    proc = run([venv_tool("yamllint"), "--strict", "--config-file", CONFIG, path])
    assert proc.returncode == 0, proc.stdout


def test_yamllint_config_catches_a_long_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("key: " + "x" * 130 + "\n")
    proc = run([venv_tool("yamllint"), "--strict", "--config-file", CONFIG, bad])
    assert proc.returncode != 0 and "line-length" in proc.stdout
