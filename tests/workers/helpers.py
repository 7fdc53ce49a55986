"""Kafka helpers for the worker tests: produce raw records, read a topic from the start."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, ConsumerRecord, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient

from schemas.messages import GenerationMessage


def generation(request_id: str, answer: str, **fields: object) -> GenerationMessage:
    now = datetime.now(UTC)
    return GenerationMessage.model_validate(
        {"request_id": request_id, "model": "test-model", "answer": answer, "created_at": now, "completed_at": now}
        | fields
    )


async def produce(bootstrap: str, topic: str, records: list[tuple[str | None, bytes]]) -> None:
    """Send ``(key, value)`` pairs to ``topic`` and wait until each is acknowledged."""
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap, acks="all")
    await producer.start()
    try:
        futures = [await producer.send(topic, value, key=key.encode() if key else None) for key, value in records]
        await asyncio.gather(*futures)
    finally:
        await producer.stop()


Records = list[ConsumerRecord[bytes, bytes]]


async def read_topic(bootstrap: str, topic: str, count: int, timeout: float = 30.0) -> Records:
    """The first ``count`` records of ``topic`` (every partition, no group); fewer on timeout."""
    return await read_until(bootstrap, topic, lambda records: len(records) >= count, timeout)


async def read_until(bootstrap: str, topic: str, done: Callable[[Records], bool], timeout: float = 30.0) -> Records:
    """Records of ``topic`` from the start until ``done(records)`` holds or ``timeout`` passes.

    Waits for the topic to exist first: a consumer learns partitions only from the metadata it
    loads at start.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    try:
        while topic not in await admin.list_topics() and loop.time() < deadline:
            await asyncio.sleep(0.2)
    finally:
        await admin.close()
    consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False)
    await consumer.start()
    partitions = consumer.partitions_for_topic(topic)
    try:
        if not partitions:
            return []
        consumer.assign([TopicPartition(topic, p) for p in partitions])
        await consumer.seek_to_beginning()
        out: list[ConsumerRecord[bytes, bytes]] = []
        while not done(out) and loop.time() < deadline:
            fetched = await consumer.getmany(timeout_ms=200)
            for batch in fetched.values():
                out.extend(batch)
        return out
    finally:
        await consumer.stop()
