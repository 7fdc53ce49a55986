"""Publishes generations to Kafka without ever delaying an answer.

The request path only puts the message on a bounded in-memory queue; a background task owns
the producer, (re)connects with backoff, and sends. If the broker is down or the queue is full
the message is counted in ``factsentry_gateway_publish_lost_total`` and logged; the answer
still returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from aiokafka import AIOKafkaProducer
from aiokafka.errors import KafkaError

from bus.codec import encode
from bus.kafka import make_producer
from bus.settings import BusSettings
from gateway.metrics import GatewayMetrics
from schemas.messages import GenerationMessage

log = logging.getLogger(__name__)


class Publisher:
    def __init__(
        self, settings: BusSettings, metrics: GatewayMetrics, queue_max: int = 10_000, max_bytes: int = 256 << 20
    ) -> None:
        self.settings = settings
        self.metrics = metrics
        # Bounded by count and by bytes: with the broker down, large bodies must not exhaust memory.
        self.queue: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue(maxsize=queue_max)
        self.max_bytes = max_bytes
        self.queued_bytes = 0
        self.producer: AIOKafkaProducer | None = None
        self.connected = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._pending: set[asyncio.Future[object]] = set()

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="factsentry-publisher")

    def publish(self, message: GenerationMessage) -> bool:
        """Queue ``message`` for Kafka; never blocks. False if it had to be dropped."""
        payload = encode(message)
        if self.queued_bytes + len(payload) > self.max_bytes:
            self.metrics.publish_lost.labels("queue_full").inc()
            log.warning("publish queue over %d bytes: generation %s dropped", self.max_bytes, message.request_id)
            return False
        try:
            self.queue.put_nowait((message.request_id, payload))
        except asyncio.QueueFull:
            self.metrics.publish_lost.labels("queue_full").inc()
            log.warning("publish queue full (%d): generation %s dropped", self.queue.maxsize, message.request_id)
            return False
        self.queued_bytes += len(payload)
        self.metrics.publish_queue.set(self.queue.qsize())
        return True

    async def _connect(self) -> AIOKafkaProducer:
        delay = 0.2
        while True:
            producer = make_producer(self.settings, request_timeout_ms=5_000)
            try:
                await producer.start()
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await producer.stop()
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

    def _drop_queued(self, reason: str, error: BaseException) -> None:
        dropped = 0
        while not self.queue.empty():
            self.queue.get_nowait()
            dropped += 1
        self.queued_bytes = 0
        if dropped:
            self.metrics.publish_lost.labels(reason).inc(dropped)
            log.warning("Kafka unreachable (%s): %d generation(s) not published", error, dropped)
        self.metrics.publish_queue.set(0)

    def _on_sent(self, fut: asyncio.Future[object]) -> None:
        self._pending.discard(fut)
        if fut.cancelled():
            self.metrics.publish_lost.labels("cancelled").inc()
        elif (error := fut.exception()) is not None:
            self.metrics.publish_lost.labels("send_failed").inc()
            log.warning("publishing a generation failed: %s", error)
        else:
            self.metrics.published.inc()

    async def _run(self) -> None:
        self.producer = await self._connect()
        while True:
            request_id, payload = await self.queue.get()
            self.queued_bytes -= len(payload)
            self.metrics.publish_queue.set(self.queue.qsize())
            try:
                fut = await self.producer.send(self.settings.generations_topic, payload, key=request_id.encode())
            except KafkaError as e:
                self.metrics.publish_lost.labels("send_failed").inc()
                log.warning("publishing generation %s failed: %s", request_id, e)
                continue
            self._pending.add(fut)
            fut.add_done_callback(self._on_sent)

    async def flush(self, timeout: float = 5.0) -> None:
        """Wait until everything queued so far is acknowledged by the broker (or ``timeout``)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (not self.queue.empty() or self._pending) and loop.time() < deadline:
            await asyncio.sleep(0.01)

    async def stop(self, timeout: float = 5.0) -> None:
        if self.connected.is_set():
            await self.flush(timeout)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self.producer is not None:
            with contextlib.suppress(Exception):
                await self.producer.stop()
