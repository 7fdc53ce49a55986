"""Fixtures of the knowledge tests: the demo knowledge base imported into a store file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from knowledge.importers import import_path
from knowledge.store import Store


@pytest.fixture(scope="session")
def demo_dir(repo_root: Path) -> Path:
    return repo_root / "knowledge" / "demo"


@pytest.fixture
def demo_store(tmp_path: Path, demo_dir: Path) -> Iterator[Store]:
    """The demo knowledge base imported into a fresh store file."""
    with Store(tmp_path / "demo.sqlite3") as store:
        report = import_path(demo_dir, store)
        assert report.pages >= 12 and report.bad_lines == 0
        yield store
