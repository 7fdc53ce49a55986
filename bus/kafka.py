"""Kafka client factories shared by the gateway and the workers.

tansu (the embedded broker) rejects idempotent producers and transactions, so producers are
plain ``acks=all`` producers; consumers never auto-commit (the runner commits after producing).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from typing import Any

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.errors import KafkaError, TopicAlreadyExistsError

from bus.settings import BusSettings

log = logging.getLogger(__name__)

# A broker that restarts empty (the embedded tansu keeps everything in memory) must be noticed: every
# client remembers the epoch topic it saw; when it is gone, the broker lost its state.
EPOCH_PREFIX = "factsentry.epoch."


def make_producer(settings: BusSettings, **overrides: Any) -> AIOKafkaProducer:
    """An ``acks=all`` producer with the security settings (``BusSettings.kafka_options()``); ``overrides`` win."""
    options: dict[str, Any] = {
        "bootstrap_servers": settings.kafka_bootstrap,
        "client_id": settings.kafka_client_id,
        "acks": "all",
        "linger_ms": 2,
        "request_timeout_ms": 10_000,
        "max_request_size": 4 * 1024 * 1024,
        "compression_type": None if settings.kafka_compression == "none" else settings.kafka_compression,
        **settings.kafka_options(),
    }
    options.update(overrides)
    return AIOKafkaProducer(**options)


def make_consumer(settings: BusSettings, *topics: str, group_id: str | None, **overrides: Any) -> AIOKafkaConsumer:
    """A manually committing consumer with the security settings (``BusSettings.kafka_options()``)."""
    options: dict[str, Any] = {
        "bootstrap_servers": settings.kafka_bootstrap,
        "client_id": settings.kafka_client_id,
        "group_id": group_id,
        "enable_auto_commit": False,
        "auto_offset_reset": "earliest",
        "max_poll_records": 64,
        "session_timeout_ms": 30_000,
        "heartbeat_interval_ms": 3_000,
        **settings.kafka_options(),
    }
    options.update(overrides)
    return AIOKafkaConsumer(*topics, **options)


async def stop_producer(producer: AIOKafkaProducer, timeout: float) -> bool:
    """Stop ``producer`` within ``timeout`` seconds; False when the broker did not take its last records in time.

    aiokafka's ``stop()`` first flushes every pending batch, and with the broker dead or hung its sender waits
    for metadata that never comes: a worker or gateway told to stop would not exit. Past ``timeout`` the stop
    is abandoned and what was unsent is dropped; the sender task is left to the event loop's shutdown, which
    cancels it. A caller commits its input only after its sends are acknowledged, so a dropped record was
    never committed: the input is redelivered, nothing is lost.
    """
    try:
        await asyncio.wait_for(producer.stop(), timeout)
        return True
    except TimeoutError:
        log.warning("producer stop: the broker did not take the pending records within %g s; dropped them", timeout)
        return False


async def stop_consumer(consumer: AIOKafkaConsumer, timeout: float) -> bool:
    """Stop ``consumer`` within about ``timeout`` seconds; False when the broker did not answer in time.

    ``stop()`` leaves the group, which waits on the group coordinator (up to the request timeout, 40 s, with a
    hung broker). Past ``timeout`` the leave is abandoned (the broker drops the member after its session
    timeout, as it does for a crashed one) and the connections are closed. A fetch task that aiokafka cancels
    inside ``stop()`` is not the caller's cancellation.
    """
    try:
        await asyncio.wait_for(consumer.stop(), timeout)
        return True
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            raise
        log.debug("the consumer's fetcher was cancelled while stopping")
        return True
    except TimeoutError:
        log.warning("consumer stop: the broker did not answer within %g s; leaving the group abandoned", timeout)
        # aiokafka (0.14): stop() was cut before it closed the fetcher and the connections.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(consumer._fetcher.close(), timeout)
        with contextlib.suppress(Exception):
            await consumer._client.close()
        return False


def make_admin(settings: BusSettings) -> AIOKafkaAdminClient:
    """An admin client (topics, the broker's epoch) with the security settings (``BusSettings.kafka_options()``)."""
    return AIOKafkaAdminClient(
        bootstrap_servers=settings.kafka_bootstrap, client_id=settings.kafka_client_id, **settings.kafka_options()
    )


async def ensure_topics(settings: BusSettings, topics: dict[str, int]) -> None:
    """Create each topic (name → partitions) that does not exist yet."""
    admin = make_admin(settings)
    await admin.start()
    try:
        existing = set(await admin.list_topics())
        new = [NewTopic(name, n, 1) for name, n in topics.items() if name not in existing]
        if new:
            try:
                await admin.create_topics(new)
            except TopicAlreadyExistsError:
                pass
    finally:
        await admin.close()


async def consumer_lag(consumer: AIOKafkaConsumer) -> dict[TopicPartition, int]:
    """Lag per assigned partition as highwater minus committed.

    tansu's ``end_offsets()`` is wrong after batched sends, so the consumer's own highwater
    (learned from fetch responses) is used instead. A committed offset beyond the highwater means
    the partition's log was reset under us: nothing of the new log is done, so its lag is all of it
    (never a silent 0).
    """
    lag: dict[TopicPartition, int] = {}
    for tp in consumer.assignment():
        high = consumer.highwater(tp)
        if high is None:
            continue
        committed = await consumer.committed(tp) or 0
        lag[tp] = high - committed if committed <= high else high
    return lag


class BrokerWatch:
    """Notices a broker that came back without its state, and restores the topics.

    The first :meth:`check` adopts the broker's epoch topic (``factsentry.epoch.<id>``), creating one
    if there is none. A later check that finds that epoch gone, or one of ``topics`` missing, has
    found a reset: it re-creates the missing topics, adopts (or creates) the new epoch and returns
    True, so the caller can re-join and count it. Errors reaching the broker are the caller's to
    retry; a broker that refuses to create the epoch topic only disables the epoch half of the check.
    """

    def __init__(self, settings: BusSettings, topics: dict[str, int]) -> None:
        self.settings = settings
        self.topics = topics
        self.epoch: str | None = None
        self.epochs_supported = True
        # Every topic the broker named at the last check (a rotating publisher picks its topic from them).
        self.names: set[str] = set()
        self._admin: AIOKafkaAdminClient | None = None

    async def _client(self) -> AIOKafkaAdminClient:
        if self._admin is None:
            admin = make_admin(self.settings)
            await admin.start()
            self._admin = admin
        return self._admin

    async def close(self) -> None:
        if self._admin is not None:
            admin, self._admin = self._admin, None
            await admin.close()

    async def check(self) -> bool:
        """True if the broker lost its state since the last check (topics are restored before returning)."""
        try:
            admin = await self._client()
            names = set(await admin.list_topics())
        except (KafkaError, OSError):
            await self.close()  # reconnect from scratch next time: the broker may be a new process
            raise
        self.names = names
        epochs = sorted(n for n in names if n.startswith(EPOCH_PREFIX))
        missing = {t: n for t, n in self.topics.items() if t not in names}
        first = self.epoch is None
        reset = not first and ((self.epochs_supported and self.epoch not in names) or bool(missing))
        if missing:
            await self._create(admin, missing)
        if self.epochs_supported and (first or reset or self.epoch not in names):
            self.epoch = epochs[0] if epochs else await self._new_epoch(admin)
        elif not self.epochs_supported and first:
            self.epoch = ""
        return reset

    async def _create(self, admin: AIOKafkaAdminClient, topics: dict[str, int]) -> None:
        try:
            await admin.create_topics([NewTopic(name, n, 1) for name, n in topics.items()])
        except TopicAlreadyExistsError:
            pass

    async def _new_epoch(self, admin: AIOKafkaAdminClient) -> str | None:
        name = EPOCH_PREFIX + uuid.uuid4().hex[:12]
        try:
            await self._create(admin, {name: 1})
        except KafkaError as e:
            log.warning("cannot create the epoch topic %s (%s): only missing topics will show a broker reset", name, e)
            self.epochs_supported = False
            return ""
        # Two clients may create an epoch at once: all settle on the first by name.
        names = sorted(n for n in await admin.list_topics() if n.startswith(EPOCH_PREFIX))
        return names[0] if names else name
