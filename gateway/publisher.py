"""Publishes generations to Kafka without ever delaying an answer.

The request path only puts the message on a bounded in-memory queue; a background task owns
the producer, (re)connects with backoff, and sends. If the broker is down or the queue is full
the message is counted in ``factsentry_gateway_publish_lost_total`` and logged; the answer
still returns under observe. ``publish()`` says at once whether the message was queued, and
``on_lost(request_id, reason)`` is called for a queued message that is lost later, so a request
waiting for its verdict follows the operator's ``on_unavailable`` at once; ``on_reset(lost)`` when the
broker came back without its log, with the ids it had acknowledged that the new log does not hold, of the
requests still waiting for a verdict (``waiting()``, the gateway's verdict listener): nothing is kept per
request once it is acknowledged, so a long-running gateway's memory does not grow with its requests.

A broker that is down is not a slow verdict. Every queued message is *pending* until the broker
acknowledges it; one still pending after ``ack_timeout_s``, or any pending while the broker watch cannot
reach the broker (a metadata request failing or not answering within ``broker_check_timeout_s``), is lost
at once with a reason in :data:`UNAVAILABLE_REASONS`, so its wait follows ``on_unavailable`` instead of
running out the policy's timeout. While the broker is known down, ``publish()`` refuses at once
(:attr:`down` says why) and ``on_down(reason)`` is called once per outage.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from aiokafka import AIOKafkaProducer, TopicPartition
from aiokafka.errors import (
    KafkaError,
    KafkaTimeoutError,
    LeaderNotAvailableError,
    NotLeaderForPartitionError,
    UnknownTopicOrPartitionError,
)

from bus.codec import encode
from bus.kafka import BrokerWatch, make_consumer, make_producer
from bus.rotation import WrittenGeneration, generations
from bus.settings import BusSettings
from gateway.metrics import GatewayMetrics
from schemas.messages import GenerationMessage

if TYPE_CHECKING:
    from bus.spans import Tracing

log = logging.getLogger(__name__)

# A record's headers as aiokafka sends them: the trace context, when tracing is on.
Headers = list[tuple[str, bytes]]

# Send failures of a passing state of the topic, not of the broker (an unreachable broker is lost at once), and
# how long a generation they failed waits before it is sent again.
PASSING = (UnknownTopicOrPartitionError, LeaderNotAvailableError, NotLeaderForPartitionError)
RESEND_AFTER_S = 0.1
STOP_STEP_S = 5.0  # the longest a client's stop may take when the sender is cancelled at shutdown
# Why a message was lost when the broker, not the message, is at fault: its wait is ``unavailable``.
UNAVAILABLE_REASONS = frozenset({"broker_down", "not_acknowledged", "broker_unreachable", "broker_reset"})


class Publisher:
    def __init__(
        self,
        settings: BusSettings,
        metrics: GatewayMetrics,
        queue_max: int = 10_000,
        max_bytes: int = 256 << 20,
        *,
        max_record_bytes: int = 4 * 1024 * 1024,
        on_lost: Callable[[str, str], None] | None = None,
        on_reset: Callable[[set[str]], None] | None = None,
        waiting: Callable[[], Iterable[str]] | None = None,
        on_down: Callable[[str], None] | None = None,
        partitions: int = 4,
        broker_check_s: float = 2.0,
        broker_check_timeout_s: float = 3.0,
        ack_timeout_s: float = 5.0,
        tracing: Tracing | None = None,
    ) -> None:
        self.settings = settings
        # With tracing on, each record carries its producer span's context in its headers (bus/spans.py).
        self.tracing = tracing
        self.metrics = metrics
        self.max_record_bytes = max_record_bytes
        self.on_lost = on_lost
        self.on_reset = on_reset
        self.waiting = waiting
        self.on_down = on_down
        self.broker_check_timeout_s = broker_check_timeout_s
        self.ack_timeout_s = ack_timeout_s
        # Queued or sent, not yet acknowledged: request id -> when it was queued (loop time), oldest first.
        self.pending: dict[str, float] = {}
        # Why the broker is taken for down (None: it answered the last check or acknowledged a record).
        self.down: str | None = None
        self.watch = BrokerWatch(settings, {settings.generations_topic: partitions})
        # Where generations go: the configured topic, or with FACTSENTRY_KAFKA_ROTATE its newest generation
        # (bus/rotation.py), looked up at every broker check; the producer's metadata then drops the ones it left.
        self.topic = settings.generations_topic
        self.written = WrittenGeneration(settings.generations_topic)
        self.broker_check_s = broker_check_s
        self._watch_task: asyncio.Task[None] | None = None
        self._reap_task: asyncio.Task[None] | None = None
        # Bounded by count and by bytes: with the broker down, large bodies must not exhaust memory.
        self.queue: asyncio.Queue[tuple[str, bytes, Headers | None]] = asyncio.Queue(maxsize=queue_max)
        self.max_bytes = max_bytes
        self.queued_bytes = 0
        self.producer: AIOKafkaProducer | None = None
        self.connected = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._pending: set[asyncio.Future[object]] = set()

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="factsentry-publisher")
        self._watch_task = asyncio.create_task(self._watch(), name="factsentry-broker-watch")
        self._reap_task = asyncio.create_task(self._reap(), name="factsentry-publish-reaper")

    def unacknowledged(self, request_id: str) -> bool:
        """Whether ``request_id`` is queued or sent but not acknowledged by the broker yet (one lost since has
        already ended its wait; one acknowledged is the workers' to check)."""
        return request_id in self.pending

    def acknowledged_waiting(self) -> set[str]:
        """Ids of requests waiting for a verdict whose generation the broker has acknowledged (not pending): after
        a reset, those missing from the new log were lost with the old one. Asked of the waits in progress
        rather than kept per acknowledged id (a record of every id grew by ~110 bytes a request up to 100,000)."""
        if self.waiting is None:
            return set()
        return {request_id for request_id in self.waiting() if request_id not in self.pending}

    def _broker_down(self, reason: str) -> None:
        """The broker cannot be reached: every message not acknowledged yet is lost now (their waits
        follow ``on_unavailable`` at once), and so is what is published until it answers again."""
        first = self.down is None
        self.down = reason
        if first:
            self.metrics.broker_down.inc()
            log.warning("the broker at %s is unreachable (%s)", self.settings.kafka_bootstrap, reason)
        for request_id in list(self.pending):
            self._lost(request_id, "broker_down")
        if first and self.on_down is not None:
            self.on_down(reason)

    def _broker_up(self) -> None:
        if self.down is not None:
            log.warning("the broker at %s answers again", self.settings.kafka_bootstrap)
        self.down = None

    async def _reap(self) -> None:
        """Lose what the broker has not acknowledged within ``ack_timeout_s`` (oldest first)."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(min(0.25, self.ack_timeout_s / 4))
            cutoff = loop.time() - self.ack_timeout_s
            expired = []
            for request_id, queued_at in self.pending.items():
                if queued_at > cutoff:
                    break
                expired.append(request_id)
            for request_id in expired:
                self._lost(request_id, "not_acknowledged")
            if expired:
                log.warning(
                    "%d generation(s) not acknowledged by the broker within %.1f s: lost",
                    len(expired),
                    self.ack_timeout_s,
                )

    async def _watch(self) -> None:
        """Notice a broker that came back empty: re-create the topic at once and count the reset."""
        while True:
            try:
                reset = await self._check()
            except Exception as e:  # unreachable: look again at once before calling it down
                log.debug("broker check failed: %s", e)
                await asyncio.sleep(0.2)
                try:
                    reset = await self._check()
                except Exception as again:
                    self._broker_down(f"metadata unreachable: {again!r}")
                    await asyncio.sleep(min(self.broker_check_s, 0.5))
                    continue
            self._broker_up()
            try:
                if reset:
                    self.metrics.broker_resets.inc()
                    log.warning(
                        "the broker at %s came back without its state: topic %s re-created",
                        self.settings.kafka_bootstrap,
                        self.settings.generations_topic,
                    )
                    if self.on_reset is not None:
                        candidates = self.acknowledged_waiting()
                        kept = await self.keys_in_log()
                        self.on_reset(candidates - kept)
            except Exception as e:
                log.debug("broker check failed: %s", e)
            await asyncio.sleep(self.broker_check_s)

    async def _check(self) -> bool:
        try:
            reset = await asyncio.wait_for(self.watch.check(), self.broker_check_timeout_s)
        except TimeoutError:
            with contextlib.suppress(Exception):
                await self.watch.close()
            raise TimeoutError(f"no metadata within {self.broker_check_timeout_s} s") from None
        if self.settings.kafka_rotate:
            self.topic = self.written.update(self.watch.names, self.producer)
        return reset

    def publish(self, message: GenerationMessage) -> bool:
        """Queue ``message`` for Kafka; never blocks. False if it had to be dropped (``down`` says whether
        because the broker is unreachable)."""
        if self.down is not None:
            self.metrics.publish_lost.labels("broker_down").inc()
            return False
        payload = encode(message)
        # The record also carries its key and headers; what the broker refuses must never be queued.
        if len(payload) + 1024 > self.max_record_bytes:
            self.metrics.publish_lost.labels("too_large").inc()
            log.warning(
                "generation %s is %d bytes, over the record limit: not published", message.request_id, len(payload)
            )
            return False
        if self.queued_bytes + len(payload) > self.max_bytes:
            self.metrics.publish_lost.labels("queue_full").inc()
            log.warning("publish queue over %d bytes: generation %s dropped", self.max_bytes, message.request_id)
            return False
        headers = None
        if self.tracing is not None:
            headers = self.tracing.send(self.topic, message.request_id)
        try:
            self.queue.put_nowait((message.request_id, payload, headers))
        except asyncio.QueueFull:
            self._traced(message.request_id, "queue_full")
            self.metrics.publish_lost.labels("queue_full").inc()
            log.warning("publish queue full (%d): generation %s dropped", self.queue.maxsize, message.request_id)
            return False
        self.queued_bytes += len(payload)
        self.pending[message.request_id] = asyncio.get_running_loop().time()
        self.metrics.publish_queue.set(self.queue.qsize())
        return True

    async def _connect(self) -> AIOKafkaProducer:
        delay = 0.2
        while True:
            # linger 0: a generation someone waits for is sent at once, not 2 ms later (under load the
            # producer still batches what queues up while a send is in flight).
            producer = make_producer(self.settings, request_timeout_ms=5_000, linger_ms=0)
            try:
                await producer.start()
            except asyncio.CancelledError:
                # bounded: cancelled (shutdown) while a dead broker is not answering the start, the producer's
                # stop may wait on it too, and the gateway would never finish shutting down
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(producer.stop(), STOP_STEP_S)
                raise
            except (KafkaError, OSError) as e:
                with contextlib.suppress(Exception):
                    await producer.stop()
                self._drop_queued("broker_down", e)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
                continue
            self.connected.set()
            return producer

    def _lost(self, request_id: str, reason: str) -> None:
        """Count ``request_id`` as lost and tell its waiter, once (a message already reported is skipped)."""
        if self.pending.pop(request_id, None) is None:
            return
        self._traced(request_id, reason)
        self.metrics.publish_lost.labels(reason).inc()
        if self.on_lost is not None:
            self.on_lost(request_id, reason)

    def _drop_queued(self, reason: str, error: BaseException) -> None:
        dropped = 0
        while not self.queue.empty():
            request_id, _, _ = self.queue.get_nowait()
            if self.pending.pop(request_id, None) is None:
                continue  # already reported (not acknowledged in time)
            self._traced(request_id, reason)
            if self.on_lost is not None:
                self.on_lost(request_id, reason)
            dropped += 1
        self.queued_bytes = 0
        if dropped:
            self.metrics.publish_lost.labels(reason).inc(dropped)
            log.warning("Kafka unreachable (%s): %d generation(s) not published", error, dropped)
        self.metrics.publish_queue.set(0)

    def _on_sent(self, request_id: str, fut: asyncio.Future[object]) -> None:
        self._pending.discard(fut)
        if fut.cancelled():
            self._lost(request_id, "cancelled")
        elif (error := fut.exception()) is not None:
            self._lost(request_id, _send_failure(error))
            log.warning("publishing generation %s failed: %s", request_id, error)
        else:
            self.pending.pop(request_id, None)
            self._traced(request_id)
            self._broker_up()
            self.metrics.published.inc()

    async def _run(self) -> None:
        self.producer = await self._connect()
        while True:
            request_id, payload, headers = await self.queue.get()
            self.queued_bytes -= len(payload)
            self.metrics.publish_queue.set(self.queue.qsize())
            if request_id not in self.pending:
                continue  # already lost (the broker went down or did not acknowledge in time): not sent late
            try:
                fut = await self.producer.send(self.topic, payload, key=request_id.encode(), headers=headers)
            except KafkaError as e:
                if isinstance(e, PASSING):
                    # The topic being created (at start-up, after a reset) or its leader moving: sent again
                    # shortly while it is pending; the reaper still loses it after ack_timeout_s.
                    log.debug("publishing generation %s: %r, sending it again", request_id, e)
                    asyncio.get_running_loop().call_later(RESEND_AFTER_S, self._resend, request_id, payload, headers)
                    continue
                self._lost(request_id, _send_failure(e))
                log.warning("publishing generation %s failed: %s", request_id, e)
                continue
            self._pending.add(fut)
            fut.add_done_callback(functools.partial(self._on_sent, request_id))

    def _resend(self, request_id: str, payload: bytes, headers: Headers | None) -> None:
        """Queue a generation again whose send failed for a passing reason (unless it was lost meanwhile)."""
        if request_id not in self.pending:
            return
        try:
            self.queue.put_nowait((request_id, payload, headers))
        except asyncio.QueueFull:
            self._lost(request_id, "queue_full")
            return
        self.queued_bytes += len(payload)
        self.metrics.publish_queue.set(self.queue.qsize())

    def _traced(self, request_id: str, lost: str | None = None) -> None:
        """End the producer span of ``request_id`` (tracing on): acknowledged, or ``lost``."""
        if self.tracing is not None:
            self.tracing.sent(request_id, lost)

    async def keys_in_log(self, quiet_s: float = 0.3, limit_s: float = 10.0) -> set[str]:
        """Keys of every record in the generations topic now (read once from the start; called after a
        reset, when the new log holds only what was published since the broker came back)."""
        consumer = make_consumer(self.settings, group_id=None, enable_auto_commit=False)
        keys: set[str] = set()
        try:
            await consumer.start()
            topics = generations(self.settings.generations_topic, await consumer.topics())
            consumer.assign([TopicPartition(t, p) for t in topics for p in consumer.partitions_for_topic(t) or ()])
            await consumer.seek_to_beginning()
            deadline = asyncio.get_running_loop().time() + limit_s
            while asyncio.get_running_loop().time() < deadline:
                batch = await consumer.getmany(timeout_ms=int(quiet_s * 1000))
                if not batch:
                    break
                keys.update(r.key.decode() for records in batch.values() for r in records if r.key)
        except (KafkaError, OSError) as e:
            log.warning("could not read the generations topic after a broker reset: %s", e)
        finally:
            with contextlib.suppress(Exception):
                await consumer.stop()
        return keys

    async def flush(self, timeout: float = 5.0) -> None:
        """Wait until everything queued so far is acknowledged by the broker (or ``timeout``)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (not self.queue.empty() or self._pending) and loop.time() < deadline:
            await asyncio.sleep(0.01)

    async def stop(self, timeout: float = 5.0) -> None:
        """Flush, then stop the sender, the broker watch and the reaper, each step bounded by ``timeout``: with
        the broker dead, a task cancelled inside a client call (a producer stopping after a start the broker never
        answered, an admin client closing) may not end, and a shutdown must."""
        if self.connected.is_set():
            await self.flush(timeout)
        tasks = [task for task in (self._task, self._watch_task, self._reap_task) if task is not None]
        for task in tasks:
            task.cancel()
        if tasks:
            done, stuck = await asyncio.wait(tasks, timeout=timeout)
            for task in done:
                if not task.cancelled() and (error := task.exception()) is not None:
                    log.warning("%s ended with %r", task.get_name(), error)
            for task in stuck:
                log.warning("%s did not stop within %.1f s of being cancelled: left behind", task.get_name(), timeout)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.watch.close(), timeout)
        if self.producer is not None:
            # Bounded: with the broker down, the producer would retry its unsent batches for ever and the
            # gateway would never finish shutting down (what was not acknowledged is already counted lost).
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.producer.stop(), timeout)


def _send_failure(error: BaseException) -> str:
    """The lost reason of a failed send: the broker's fault (retriable: unreachable, timed out, no leader)
    makes its wait ``unavailable``; a record the broker refuses is ``send_failed``. aiokafka's own timeout
    (metadata that never came, a batch that expired unsent) is the broker's fault although not retriable."""
    if isinstance(error, KafkaTimeoutError) or getattr(error, "retriable", False):
        return "broker_unreachable"
    return "send_failed"
