"""Session fixtures: real servers (embedded tansu broker, valkey) on free ports, and the data path."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from factsentry import embedded
from tests.servers import owned

REPO_ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``shared/data`` beside the project root (the evaluation data; never copied into the repo)."""
    path = Path(os.environ.get("FACTSENTRY_DATA", REPO_ROOT.parent / "shared" / "data"))
    if not path.is_dir():
        raise RuntimeError(f"evaluation data not found at {path}: set FACTSENTRY_DATA")
    return path


@pytest.fixture(scope="session")
def broker() -> Iterator[embedded.ServerProcess]:
    """A real Kafka-protocol broker (tansu, memory storage) for the whole session."""
    server = embedded.tansu().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def kafka_bootstrap(broker: embedded.ServerProcess) -> str:
    return f"{broker.host}:{broker.port}"


@pytest.fixture(scope="session")
def valkey_server() -> Iterator[embedded.ServerProcess]:
    """A real valkey server for the whole session (tests that stop it use their own)."""
    server = embedded.valkey().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def redis_url(valkey_server: embedded.ServerProcess) -> str:
    return f"redis://{valkey_server.host}:{valkey_server.port}/0"


@pytest.fixture
def own_broker() -> Iterator[embedded.ServerProcess]:
    """A broker of this test's own, to kill or freeze (tests/servers.py)."""
    with owned(embedded.tansu()) as server:
        yield server


@pytest.fixture
def own_valkey() -> Iterator[embedded.ServerProcess]:
    """A valkey of this test's own, to kill (tests/servers.py)."""
    with owned(embedded.valkey()) as server:
        yield server


@pytest.fixture
def unique() -> str:
    """A unique suffix for topic names, group ids and Redis prefixes of one test."""
    return uuid.uuid4().hex[:10]
