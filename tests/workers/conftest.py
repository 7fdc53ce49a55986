"""Fixtures of the worker tests: settings on unique topics, groups and Redis prefixes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from knowledge.importers import import_path
from knowledge.store import Store
from workers.kb import DEMO_PAGES
from workers.settings import WorkerSettings, load_settings

MakeSettings = Callable[..., WorkerSettings]


@pytest.fixture
def make_settings(kafka_bootstrap: str, redis_url: str, unique: str) -> MakeSettings:
    """Worker settings on this test's own topics, group and Redis prefix; keyword overrides on top."""

    def make(**overrides: Any) -> WorkerSettings:
        base: dict[str, Any] = {
            "kafka_bootstrap": kafka_bootstrap,
            "redis_url": redis_url,
            "generations_topic": f"gen-{unique}",
            "results_topic": f"res-{unique}",
            "group_id": f"workers-{unique}",
            "redis_prefix": f"t-{unique}",
            "stage": "tests.workers.stages:word_count",
            "metrics_port": 0,
            "topic_partitions": 2,
            "backoff_s": 0.05,
            "backoff_max_s": 0.2,
            "drain_timeout_s": 10.0,
            "poll_timeout_ms": 100,
            "lag_interval_s": 0.2,
            # tansu holds a join for half the session timeout: keep it short so each test joins in ~1 s.
            "session_timeout_ms": 2000,
        }
        base.update(overrides)
        return load_settings(**base)

    return make


@pytest.fixture(scope="session")
def demo_kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo knowledge store as a file, as ``make kb`` builds it."""
    path = tmp_path_factory.mktemp("kb") / "demo-kb.sqlite3"
    with Store(path) as store:
        import_path(DEMO_PAGES, store)
    return path
