"""Fixtures of the scoring tests: the demo knowledge base in memory and the packaged offline verifier."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from knowledge.store import Store
from scoring.verifier import OfflineVerifier


@pytest.fixture(scope="session")
def demo_kb(repo_root: Path) -> Store:
    """The demo knowledge base (knowledge/demo/*.jsonl) in an in-memory store, read-only in tests."""
    store = Store.in_memory()
    for path in sorted((repo_root / "knowledge" / "demo").glob("*.jsonl")):
        pages = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        store.add_pages([(p["title"], p["text"], p.get("aliases", [])) for p in pages])
    return store


@pytest.fixture(scope="module")
def store(request: pytest.FixtureRequest) -> Store:
    """A store of one page: the test module's ``TITLE`` and ``TEXT`` (a module with other pages defines its own)."""
    kb = Store.in_memory()
    kb.add_pages([(request.module.TITLE, request.module.TEXT, [])])
    return kb


@pytest.fixture(scope="session")
def verifier() -> OfflineVerifier:
    return OfflineVerifier.load()
