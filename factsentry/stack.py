"""The embedded stack: broker, valkey, gateway and a worker pool as child processes.

``factsentry up`` runs it until Ctrl-C; ``factsentry demo`` runs it for one demo. Servers named
by ``FACTSENTRY_KAFKA_BOOTSTRAP`` / ``FACTSENTRY_REDIS_URL`` are used instead of starting ours.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from bus.kafka import ensure_topics
from bus.rotation import Rotator
from bus.settings import BusSettings
from factsentry import embedded

log = logging.getLogger(__name__)


class StackSettings(BaseSettings):
    """External servers to use instead of the embedded ones (unset: start our own), and the embedded
    valkey's memory limit and eviction policy (see ``embedded.valkey``)."""

    model_config = SettingsConfigDict(env_prefix="FACTSENTRY_", extra="ignore")

    kafka_bootstrap: str | None = None
    redis_url: str | None = None
    valkey_maxmemory: str = Field(default=embedded.DEFAULT_VALKEY_MAXMEMORY, pattern=r"(?i)^[0-9]+(b|k|kb|m|mb|g|gb)?$")
    valkey_maxmemory_policy: embedded.EvictionPolicy = embedded.DEFAULT_VALKEY_EVICTION
    # The embedded broker's topics rotate (bus/rotation.py): a new generation after this many records or
    # seconds, an old one deleted once consumed and unwritten for the grace period. Never for an external broker.
    broker_rotate: bool = True
    broker_rotate_records: int = Field(default=10_000, ge=1)
    broker_rotate_s: float = Field(default=300.0, gt=0)
    broker_rotate_grace_s: float = Field(default=30.0, ge=0)


@dataclass
class Stack:
    kb_path: Path
    models_file: Path
    policy_file: Path | None = None
    host: str = "127.0.0.1"
    gateway_port: int = 8080
    workers: int = 2
    partitions: int = 4
    # Where the embedded valkey keeps its append-only file (verdicts survive a restart); None: nowhere.
    data_dir: Path | None = None
    log_dir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="factsentry-stack-")))
    kafka_bootstrap: str = ""
    redis_url: str = ""
    worker_metrics_ports: list[int] = field(default_factory=list)
    # Milliseconds from spawning to ready, by child ("gateway", "worker-0", ...): filled by start().
    ready_ms: dict[str, float] = field(default_factory=dict)
    _servers: list[embedded.ServerProcess] = field(default_factory=list)
    _children: list[tuple[str, subprocess.Popen[bytes]]] = field(default_factory=list)
    # Environment of the gateway and the workers on top of this process's (a benchmark's shorter result TTL).
    child_env: dict[str, str] = field(default_factory=dict)
    rotator: Rotator | None = None
    _rotation: tuple[threading.Thread, asyncio.AbstractEventLoop, asyncio.Task[None]] | None = None

    @property
    def embedded_broker(self) -> bool:
        """Whether this stack runs its own tansu broker (not one named by ``FACTSENTRY_KAFKA_BOOTSTRAP``)."""
        return any(server.name == "tansu" for server in self._servers)

    @property
    def gateway_url(self) -> str:
        return f"http://{self.host}:{self.gateway_port}"

    def _env(self, **extra: str) -> dict[str, str]:
        env = dict(os.environ)
        env.update(
            FACTSENTRY_KAFKA_BOOTSTRAP=self.kafka_bootstrap,
            FACTSENTRY_REDIS_URL=self.redis_url,
            FACTSENTRY_KB_PATH=str(self.kb_path),
            FACTSENTRY_MODELS_FILE=str(self.models_file),
            LITELLM_LOCAL_MODEL_COST_MAP="True",
        )
        # tansu holds a group join for half the session timeout; 6 s is the lowest real Kafka accepts.
        env.setdefault("FACTSENTRY_SESSION_TIMEOUT_MS", "6000")
        if self.embedded_broker:
            # tansu's memory storage keeps every record for its lifetime (no retention, no DeleteRecords):
            # gzip keeps a third of what plain batches take.
            env.setdefault("FACTSENTRY_KAFKA_COMPRESSION", "gzip")
        if self.rotator is not None:  # its topics rotate (bus/rotation.py)
            env["FACTSENTRY_KAFKA_ROTATE"] = "true"
        if self.policy_file is not None:
            env["FACTSENTRY_POLICY_FILE"] = str(self.policy_file)
        env.update(self.child_env)
        env.update(extra)
        return env

    def _spawn(self, name: str, argv: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
        log_path = self.log_dir / f"{name}.log"
        with log_path.open("wb") as out:
            proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)
        self._children.append((name, proc))
        return proc

    def start(self, external: StackSettings | None = None) -> Stack:
        """Start everything; raises :class:`embedded.EmbeddedServerError` with a one-line reason."""
        external = external or StackSettings()
        if embedded.port_in_use(self.gateway_port, self.host):
            raise embedded.EmbeddedServerError(f"gateway port {self.host}:{self.gateway_port} is already in use")
        try:
            if external.kafka_bootstrap:
                self.kafka_bootstrap = external.kafka_bootstrap
            else:
                broker = embedded.tansu().start()
                self._servers.append(broker)
                self.kafka_bootstrap = f"{broker.host}:{broker.port}"
            if external.redis_url:
                self.redis_url = external.redis_url
            else:
                valkey = embedded.valkey(
                    data_dir=self.data_dir / "valkey" if self.data_dir else None,
                    maxmemory=external.valkey_maxmemory,
                    maxmemory_policy=external.valkey_maxmemory_policy,
                ).start()
                self._servers.append(valkey)
                self.redis_url = f"redis://{valkey.host}:{valkey.port}/0"
            bus = BusSettings(kafka_bootstrap=self.kafka_bootstrap, redis_url=self.redis_url)
            asyncio.run(
                ensure_topics(bus, {bus.generations_topic: self.partitions, bus.results_topic: self.partitions})
            )
            if self.embedded_broker and external.broker_rotate:
                self._start_rotation(bus, external)
            python = sys.executable
            spawned = time.monotonic()
            self._spawn(
                "gateway",
                [python, "-m", "factsentry", "gateway", "--host", self.host, "--port", str(self.gateway_port)],
                self._env(),
            )
            for i in range(self.workers):
                port = embedded.free_port()
                self.worker_metrics_ports.append(port)
                env = self._env(FACTSENTRY_METRICS_PORT=str(port), FACTSENTRY_METRICS_HOST=self.host)
                self._spawn(f"worker-{i}", [python, "-m", "factsentry", "worker"], env)
            self._wait_until_ready(spawned)
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_until_ready(self, spawned: float) -> None:
        """Until the gateway answers ``/healthz`` and every worker says it is ready (models loaded, partitions
        assigned), so the first request is checked as fast as the next ones; a child that exits meanwhile
        stops the start. Each one's time from ``spawned`` to ready goes into ``ready_ms``."""
        waiting = {"gateway": (f"{self.gateway_url}/healthz", "")} | {
            f"worker-{i}": (f"http://{self.host}:{port}/metrics", embedded.WORKER_READY)
            for i, port in enumerate(self.worker_metrics_ports)
        }
        while waiting:
            for name, proc in self._children:
                if proc.poll() is not None:
                    log_path = self.log_dir / f"{name}.log"
                    raise embedded.EmbeddedServerError(f"{name} exited with code {proc.returncode} (log: {log_path})")
            for name, (url, marker) in list(waiting.items()):
                if embedded.answers(url, marker):
                    self.ready_ms[name] = (time.monotonic() - spawned) * 1000
                    del waiting[name]
            if waiting and time.monotonic() - spawned > embedded.READY_TIMEOUT_S:
                raise embedded.EmbeddedServerError(
                    f"{', '.join(waiting)} not ready within {embedded.READY_TIMEOUT_S:g} s (logs: {self.log_dir})"
                )
            time.sleep(0.2)  # a worker renders its whole /metrics for each look: not too often while it loads

    def _start_rotation(self, bus: BusSettings, settings: StackSettings) -> None:
        """Rotate the generations and results topics of our own broker in a thread of this process: tansu
        keeps every record, deleting a topic is what frees its memory (bus/rotation.py)."""
        self.rotator = Rotator(
            bus,
            {bus.generations_topic: self.partitions, bus.results_topic: self.partitions},
            readers={bus.generations_topic: [os.environ.get("FACTSENTRY_GROUP_ID", "factsentry-workers")]},
            max_records=settings.broker_rotate_records,
            max_age_s=settings.broker_rotate_s,
            grace_s=settings.broker_rotate_grace_s,
        )
        asyncio.run(self.rotator.ensure_first())  # before any client starts: nothing is written to the bare topic
        loop = asyncio.new_event_loop()
        task = loop.create_task(self.rotator.run())

        def run() -> None:
            with contextlib.suppress(asyncio.CancelledError):
                loop.run_until_complete(task)
            loop.close()

        thread = threading.Thread(target=run, name="factsentry-rotation", daemon=True)
        thread.start()
        self._rotation = (thread, loop, task)

    def _stop_rotation(self) -> None:
        if self._rotation is not None:
            thread, loop, task = self._rotation
            self._rotation = None
            # The thread closes its loop when the task ends; a loop already closed has nothing left to cancel.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(task.cancel)
            thread.join(10)

    def supervise(self) -> list[str]:
        """Restart any embedded server that died (same port, same data dir) and re-create the topics.

        Returns one line per restart, for the operator. The gateway and the workers notice a broker
        that came back empty by themselves (``bus.kafka.BrokerWatch``) and count what was lost.
        """
        said = []
        for server in self._servers:
            if server.running:
                continue
            code = server.proc.returncode if server.proc is not None else None
            server.start()
            if server.name == "tansu":
                bus = BusSettings(kafka_bootstrap=self.kafka_bootstrap, redis_url=self.redis_url)
                asyncio.run(
                    ensure_topics(bus, {bus.generations_topic: self.partitions, bus.results_topic: self.partitions})
                )
                if self.rotator is not None:
                    asyncio.run(self.rotator.ensure_first())
                what = "broker restarted empty (memory only); topics re-created, generations in flight are lost"
            else:
                what = "valkey restarted" + (" from its append-only file" if self.data_dir else " empty (no data dir)")
            said.append(f"{server.name} on {server.host}:{server.port} exited (code {code}): {what}")
        return said

    def server(self, name: str) -> embedded.ServerProcess:
        """The embedded server called ``name`` (``tansu``, ``valkey``); KeyError if the stack uses an external one."""
        for server in self._servers:
            if server.name == name:
                return server
        raise KeyError(f"no embedded {name} in this stack")

    def check_children(self) -> str | None:
        """The name and exit code of a child that died, if any."""
        for name, proc in self._children:
            if proc.poll() is not None:
                return f"{name} exited with code {proc.returncode} (log: {self.log_dir / (name + '.log')})"
        return None

    def stop(self, timeout: float = 35.0) -> None:
        """SIGTERM every child (workers drain), wait, then stop the servers."""
        for _, proc in self._children:
            if proc.poll() is None:
                proc.terminate()
        for _, proc in self._children:
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(5)
        self._children.clear()
        self._stop_rotation()
        for server in reversed(self._servers):
            server.stop()
        self._servers.clear()


def build_demo_kb(path: Path) -> Path:
    """Import the demo knowledge base shipped with ``knowledge`` into ``path`` (a SQLite file)."""
    import knowledge
    from knowledge.importers import import_path
    from knowledge.store import Store

    demo = Path(knowledge.__file__).parent / "demo"
    with Store(path) as store:
        import_path(demo, store)
    return path
