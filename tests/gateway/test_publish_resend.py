"""A generation whose send fails while its topic is being created (a gateway's first requests, before its first
broker check has created the topic, where the broker auto-creates it meanwhile; or just after a broker reset) is sent
again within the acknowledgement bound, instead of being lost as ``unavailable`` (which blocks the answer under a
closed policy). Against the real embedded broker, the failures injected into the real producer's ``send`` (seen in
test runs as ``UnknownTopicOrPartitionError`` on a busy machine, not reproducible on demand)."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime

from aiokafka.errors import UnknownTopicOrPartitionError
from prometheus_client import CollectorRegistry

from bus.kafka import make_consumer
from gateway.metrics import build_metrics
from gateway.publisher import Publisher
from gateway.settings import GatewaySettings
from schemas.messages import GenerationMessage

NOW = datetime(2026, 11, 27, tzinfo=UTC)


def generation(request_id: str) -> GenerationMessage:
    return GenerationMessage(request_id=request_id, model="bot", answer="A.", created_at=NOW, completed_at=NOW)


async def keys_in(settings: GatewaySettings, topic: str, want: int) -> set[str]:
    consumer = make_consumer(settings, topic, group_id=None, auto_offset_reset="earliest")
    await consumer.start()
    keys: set[str] = set()
    try:
        for _ in range(100):
            batch = await consumer.getmany(timeout_ms=200)
            keys.update(r.key.decode() for records in batch.values() for r in records if r.key)
            if len(keys) >= want:
                break
    finally:
        await consumer.stop()
    return keys


async def started(publisher: Publisher, failures: int) -> list[asyncio.Task[None]]:
    """The publisher's sender and reaper (not its broker check), its producer's first ``failures`` sends failing
    as a topic being created fails them."""
    tasks = [asyncio.create_task(publisher._run()), asyncio.create_task(publisher._reap())]
    await asyncio.wait_for(publisher.connected.wait(), 30)
    assert publisher.producer is not None
    send = publisher.producer.send
    calls = [0]

    async def failing_send(*args: object, **kwargs: object) -> object:
        calls[0] += 1
        if calls[0] <= failures:
            raise UnknownTopicOrPartitionError()
        return await send(*args, **kwargs)  # type: ignore[arg-type]

    publisher.producer.send = failing_send  # type: ignore[method-assign]
    return tasks


async def stopped(publisher: Publisher, tasks: list[asyncio.Task[None]]) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    if publisher.producer is not None:
        await publisher.producer.stop()


async def test_a_generation_refused_while_its_topic_is_created_is_sent_again(kafka_bootstrap: str) -> None:
    topic = f"gen-resend-{uuid.uuid4().hex[:8]}"
    settings = GatewaySettings(kafka_bootstrap=kafka_bootstrap, generations_topic=topic)
    lost: list[tuple[str, str]] = []
    publisher = Publisher(
        settings, build_metrics(CollectorRegistry()), on_lost=lambda rid, why: lost.append((rid, why)), ack_timeout_s=10
    )
    tasks = await started(publisher, failures=6)  # each refused three times
    try:
        assert publisher.publish(generation("fs-early-1")) and publisher.publish(generation("fs-early-2"))
        for _ in range(200):
            if not publisher.pending:
                break
            await asyncio.sleep(0.05)
        assert lost == [] and not publisher.pending
        assert await keys_in(settings, topic, 2) == {"fs-early-1", "fs-early-2"}
    finally:
        await stopped(publisher, tasks)


async def test_a_topic_that_never_comes_is_lost_at_the_acknowledgement_bound(kafka_bootstrap: str) -> None:
    """The resending is bounded: without the topic the generation is lost as not acknowledged (``unavailable``)."""
    settings = GatewaySettings(kafka_bootstrap=kafka_bootstrap, generations_topic=f"gen-never-{uuid.uuid4().hex[:8]}")
    lost: list[tuple[str, str]] = []
    publisher = Publisher(
        settings, build_metrics(CollectorRegistry()), on_lost=lambda rid, why: lost.append((rid, why)), ack_timeout_s=1
    )
    tasks = await started(publisher, failures=1_000_000)
    try:
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        assert publisher.publish(generation("fs-never"))
        while not lost and loop.time() - t0 < 10:
            await asyncio.sleep(0.05)
        assert lost == [("fs-never", "not_acknowledged")] and 0.9 <= loop.time() - t0 < 3
        assert not publisher.pending and publisher.queue.empty()
    finally:
        await stopped(publisher, tasks)


async def test_a_shutdown_is_bounded_when_a_task_and_the_broker_watch_do_not_end() -> None:
    """With the broker dead, a task cancelled inside a client call (a producer stopping after a start the broker
    never answered) or the watch's admin client closing may wait on it: the publisher's stop still returns within
    its bound a step, so the gateway's shutdown ends (a fresh-clone CI run hung 300 s in such a teardown)."""
    settings = GatewaySettings(kafka_bootstrap="127.0.0.1:1", generations_topic=f"gen-stop-{uuid.uuid4().hex[:8]}")
    publisher = Publisher(settings, build_metrics(CollectorRegistry()))
    closes: list[str] = []

    async def deaf() -> None:  # ends only long after it is cancelled
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            await asyncio.sleep(3600)

    async def close_that_hangs() -> None:
        closes.append("watch")
        await asyncio.sleep(3600)

    sender, reaper = asyncio.create_task(deaf()), asyncio.create_task(publisher._reap())
    publisher._task, publisher._reap_task = sender, reaper
    publisher.watch.close = close_that_hangs  # type: ignore[method-assign]
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    await asyncio.wait_for(publisher.stop(timeout=0.3), 10)
    took = loop.time() - t0
    try:
        assert took < 2, f"stop took {took:.1f} s"
        assert closes == ["watch"]
        assert reaper.cancelled() and not sender.done()  # the reaper ended; the deaf sender was left behind
    finally:
        sender.cancel()
        await asyncio.gather(sender, return_exceptions=True)
