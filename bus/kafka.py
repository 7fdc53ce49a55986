"""Kafka client factories shared by the gateway and the workers.

tansu (the embedded broker) rejects idempotent producers and transactions, so producers are
plain ``acks=all`` producers; consumers never auto-commit (the runner commits after producing).
"""

from __future__ import annotations

from typing import Any

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.errors import TopicAlreadyExistsError

from bus.settings import BusSettings


def make_producer(settings: BusSettings, **overrides: Any) -> AIOKafkaProducer:
    options: dict[str, Any] = {
        "bootstrap_servers": settings.kafka_bootstrap,
        "client_id": settings.kafka_client_id,
        "acks": "all",
        "linger_ms": 2,
        "request_timeout_ms": 10_000,
        "max_request_size": 4 * 1024 * 1024,
    }
    options.update(overrides)
    return AIOKafkaProducer(**options)


def make_consumer(settings: BusSettings, *topics: str, group_id: str | None, **overrides: Any) -> AIOKafkaConsumer:
    options: dict[str, Any] = {
        "bootstrap_servers": settings.kafka_bootstrap,
        "client_id": settings.kafka_client_id,
        "group_id": group_id,
        "enable_auto_commit": False,
        "auto_offset_reset": "earliest",
        "max_poll_records": 64,
        "session_timeout_ms": 30_000,
        "heartbeat_interval_ms": 3_000,
    }
    options.update(overrides)
    return AIOKafkaConsumer(*topics, **options)


async def ensure_topics(settings: BusSettings, topics: dict[str, int]) -> None:
    """Create each topic (name → partitions) that does not exist yet."""
    admin = AIOKafkaAdminClient(bootstrap_servers=settings.kafka_bootstrap, client_id=settings.kafka_client_id)
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
    (learned from fetch responses) is used instead.
    """
    lag: dict[TopicPartition, int] = {}
    for tp in consumer.assignment():
        high = consumer.highwater(tp)
        if high is None:
            continue
        committed = await consumer.committed(tp)
        lag[tp] = max(0, high - (committed or 0))
    return lag
