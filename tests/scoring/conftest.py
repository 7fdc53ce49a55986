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


@pytest.fixture(scope="session")
def verifier() -> OfflineVerifier:
    return OfflineVerifier.load()
