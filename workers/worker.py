"""One worker process: settings → stage → metrics server → runner, until SIGTERM/SIGINT or a stop event.

``factsentry worker`` calls :func:`run_worker`; the launcher (``factsentry up`` / ``demo``) may
call it in-process with its own ``stop_event`` and ``registry``, or start
``python -m factsentry worker`` subprocesses.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import ssl
from typing import TYPE_CHECKING

import redis.asyncio as aioredis
from prometheus_client import CollectorRegistry, PlatformCollector, ProcessCollector
from redis.exceptions import AuthenticationError, RedisError

from bus.exporter import MetricsServer
from bus.settings import redacted_url
from bus.tracing import TracingSettingError
from bus.tracing import from_env as tracing_from_env
from workers.errors import SettingsError
from workers.metrics import make_metrics
from workers.runner import Runner, Summary
from workers.settings import WorkerSettings
from workers.stage import Context, load_stage

if TYPE_CHECKING:
    from bus.spans import Tracing

log = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def redis_client(settings: WorkerSettings) -> aioredis.Redis:
    """The worker's Redis client, with the pool options of every Redis client of the project (health-checked,
    retrying: ``BusSettings.redis_pool_options``); timeouts turn a hung Redis into a retriable error instead of a
    stalled batch."""
    return aioredis.from_url(
        settings.redis_url, socket_timeout=10, socket_connect_timeout=5, **settings.redis_pool_options()
    )


async def check_redis(client: aioredis.Redis, settings: WorkerSettings) -> None:
    """Refuse to start when Redis rejects the password or the TLS handshake fails.

    Both are settings to fix, not transient failures: left to the runner, which takes Redis connection
    errors as retriable, every record would be retried and then dead-lettered. A Redis that is only down
    is logged, and the runner retries it as before.
    """
    where = f"FACTSENTRY_REDIS_URL={redacted_url(settings.redis_url)}"
    try:
        await client.ping()
    except AuthenticationError as e:
        raise SettingsError(
            f"{where}: Redis refused the credentials ({e}); set FACTSENTRY_REDIS_PASSWORD or put the password"
            " in the URL (rediss://:password@host:port/0)"
        ) from e
    except (RedisError, OSError) as e:
        if isinstance(e.__cause__ or e.__context__, ssl.SSLError):
            raise SettingsError(
                f"{where}: the TLS handshake with Redis failed ({e}); FACTSENTRY_REDIS_SSL_CA_CERTS must name the"
                " CA that signed the server's certificate, and the port must speak TLS"
            ) from e
        log.warning("%s: Redis is not reachable yet (%s); the runner retries it", where, e)


async def run_worker(
    settings: WorkerSettings,
    *,
    stop_event: asyncio.Event | None = None,
    registry: CollectorRegistry | None = None,
    tracing: Tracing | None = None,
) -> Summary:
    """Run the stage ``settings.stage`` until stopped; returns the run's summary.

    With ``stop_event=None`` the worker stops itself on SIGTERM or SIGINT (main thread only);
    otherwise it stops when the caller sets the event. With ``registry=None`` the metrics go to a
    fresh registry with the process and platform collectors. Metrics are served on
    ``settings.metrics_port`` unless it is 0. With ``tracing=None`` the ``OTEL_*`` variables say whether it
    traces (bus/tracing.py: off unless they ask for traces); a ``tracing`` handed in is the caller's to shut down.

    Raises :class:`~workers.errors.SettingsError` if the metrics port is taken, and
    :class:`~workers.errors.StageNotFound` for an unknown stage.

    Example::

        stop = asyncio.Event()
        task = asyncio.create_task(run_worker(load_settings(metrics_port=0), stop_event=stop))
        ...
        stop.set()
        summary = await task
    """
    if registry is None:
        registry = CollectorRegistry()
        ProcessCollector(registry=registry)
        PlatformCollector(registry=registry)
    metrics = make_metrics(registry)
    stage = load_stage(settings.stage, settings)
    own_tracing = tracing is None
    if tracing is None:
        try:
            tracing = tracing_from_env("factsentry-worker", os.environ)
        except TracingSettingError as e:
            raise SettingsError(str(e)) from e
    redis = redis_client(settings)
    try:
        await check_redis(redis, settings)
    except SettingsError:
        await redis.aclose()
        raise
    own_signals = stop_event is None
    runner = Runner(stage, Context(settings, redis, metrics, tracing=tracing), stop_event=stop_event or asyncio.Event())
    server = MetricsServer(registry, settings.metrics_port, settings.metrics_host)
    try:
        server.start()
    except OSError as e:
        await redis.aclose()
        raise SettingsError(
            f"FACTSENTRY_METRICS_PORT={settings.metrics_port}: cannot serve metrics there ({e.strerror});"
            " pick another port or 0 to turn metrics off"
        ) from e
    loop = asyncio.get_running_loop()
    if own_signals:
        for sig in STOP_SIGNALS:
            loop.add_signal_handler(sig, runner.stop, sig.name)
    log.info(
        "worker %s: stage %s, group %s, %s → %s, batch %d, concurrency %d (%s), metrics %s",
        settings.worker_id,
        stage.name,
        settings.group_id,
        stage.input_topic,
        stage.output_topic or "-",
        settings.batch_size,
        settings.concurrency,
        settings.executor,
        f"http://{settings.metrics_host}:{settings.metrics_port}/metrics" if settings.metrics_port else "off",
    )
    try:
        return await runner.run()
    finally:
        if own_signals:
            for sig in STOP_SIGNALS:
                with contextlib.suppress(Exception):
                    loop.remove_signal_handler(sig)
        await redis.aclose()
        server.stop()
        if own_tracing and tracing is not None:
            tracing.shutdown()
