"""Topic rotation of the embedded broker (bus/rotation.py), against the real embedded tansu.

tansu 0.6 keeps every record of its memory engine (see tests/test_embedded_memory.py); deleting a topic is
what frees its memory. The rotator must never delete what a consumer group has not committed, nor a topic a
producer still writes to; workers must follow the generations; and the broker's memory must come back.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from pathlib import Path
from typing import Any

import psutil
from aiokafka import AIOKafkaConsumer
from aiokafka.admin import AIOKafkaAdminClient
from prometheus_client import CollectorRegistry

from bus.rotation import (
    Rotator,
    base_topic,
    generation_of,
    generation_pattern,
    generation_topic,
    generations,
    newest_generation,
)
from bus.settings import BusSettings
from factsentry import embedded
from factsentry.stack import Stack
from tests.workers.conftest import MakeSettings
from tests.workers.helpers import generation, produce, read_until
from workers import run_worker


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def topics(bootstrap: str) -> set[str]:
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    try:
        return set(await admin.list_topics())
    finally:
        await admin.close()


async def consume(bootstrap: str, group: str, topic: str, count: int, timeout: float = 30.0) -> list[bytes]:
    """Read ``count`` records of ``topic`` as ``group`` (from the start), committing each one read."""
    consumer = AIOKafkaConsumer(
        topic, bootstrap_servers=bootstrap, group_id=group, enable_auto_commit=False, auto_offset_reset="earliest"
    )
    await consumer.start()
    got: list[bytes] = []
    try:
        deadline = asyncio.get_running_loop().time() + timeout
        while len(got) < count and asyncio.get_running_loop().time() < deadline:
            for tp, records in (await consumer.getmany(timeout_ms=500, max_records=count - len(got))).items():
                got += [r.value or b"" for r in records]
                if records:
                    await consumer.commit({tp: records[-1].offset + 1})
    finally:
        await consumer.stop()
    return got


def test_generation_names() -> None:
    base = "factsentry.generations.v1"
    assert generation_topic(base, 3) == "factsentry.generations.v1.g3"
    assert generation_of(base, "factsentry.generations.v1.g12") == 12
    assert generation_of(base, base) is None
    assert generation_of(base, base + ".dlq") is None
    assert generation_of(base, base + ".g3.dlq") is None
    assert generation_of("t", "tt.g3") is None  # another topic whose name starts alike
    names = {base, base + ".g2", base + ".g10", base + ".g9", base + ".dlq", "other.g11"}
    assert newest_generation(base, names) == base + ".g10"
    assert newest_generation(base, {base}) is None
    assert generations(base, names) == [base, base + ".g2", base + ".g9", base + ".g10"]
    assert base_topic(base + ".g10") == base and base_topic(base) == base
    pattern = generation_pattern("a.b")
    import re

    assert [n for n in ["a.b", "a.b.g1", "a.b.g1.dlq", "axb.g1", "a.b.gx"] if re.match(pattern, n)] == ["a.b", "a.b.g1"]


async def test_nothing_unconsumed_or_still_written_is_deleted(kafka_bootstrap: str, unique: str) -> None:
    base, group = f"rot-{unique}", f"readers-{unique}"
    settings = BusSettings(kafka_bootstrap=kafka_bootstrap)
    clock = Clock()
    rotator = Rotator(settings, {base: 2}, {base: [group]}, max_records=10, max_age_s=3600, grace_s=30, clock=clock)
    assert await rotator.step() == [f"created {base}.g1"]
    g1, g2 = f"{base}.g1", f"{base}.g2"
    await produce(kafka_bootstrap, g1, [(f"k{i}", str(i).encode()) for i in range(9)])
    clock.now += 5
    assert await rotator.step() == []  # 9 records < 10, and young
    await produce(kafka_bootstrap, g1, [("k9", b"9")])
    clock.now += 5
    said = await rotator.step()
    assert said == [f"created {g2} (10 records in {g1}, 10 s old)"]
    clock.now += 31
    assert await rotator.step() == []
    assert g1 in await topics(kafka_bootstrap)  # unwritten for 31 s, but the group committed nothing
    assert len(await consume(kafka_bootstrap, group, g1, 6)) == 6  # the group reads (and commits) 6 of 10
    clock.now += 31
    assert await rotator.step() == []
    assert await rotator.unconsumed(g1, rotator.seen[g1].ends, [group]) == [group]
    # a late producer (a gateway that had not looked for the new generation yet) writes to g1 again
    await produce(kafka_bootstrap, g1, [("late", b"10")])
    rest = await consume(kafka_bootstrap, group, g1, 5)
    assert len(rest) == 5 and b"10" in rest  # the group has now read all 11
    clock.now += 10
    assert await rotator.step() == []  # g1 moved since the last look: its grace starts again
    clock.now += 29
    assert await rotator.step() == []
    assert g1 in await topics(kafka_bootstrap)
    clock.now += 2
    said = await rotator.step()
    assert said == [f"deleted {g1} (11 records, consumed by every group)"]
    names = await topics(kafka_bootstrap)
    assert g1 not in names and g2 in names


async def test_a_worker_moves_to_the_new_generation_and_the_old_one_goes(make_settings: MakeSettings) -> None:
    """The real runner, subscribed by pattern, reads the generations the gateway writes to and writes its
    verdicts to the newest results generation; once it has committed g1 the rotator deletes it."""
    settings = make_settings(kafka_rotate=True, broker_check_s=0.5)
    bootstrap, gen, res = settings.kafka_bootstrap, settings.generations_topic, settings.results_topic
    clock = Clock()
    rotator = Rotator(settings, {gen: 2, res: 2}, {gen: [settings.group_id]}, max_records=4, grace_s=30, clock=clock)
    await rotator.step()
    await produce(bootstrap, f"{gen}.g1", [(f"a{i}", gen_bytes(f"a{i}", "one two")) for i in range(4)])
    worker = Worker(settings)
    try:
        first = await read_until(bootstrap, f"{res}.g1", lambda records: len(records) >= 4)
        assert sorted(r.key for r in first) == [b"a0", b"a1", b"a2", b"a3"]
        said = await rotator.step()
        assert f"created {gen}.g2 (4 records in {gen}.g1, 0 s old)" in said
        assert f"created {res}.g2 (4 records in {res}.g1, 0 s old)" in said, (said, rotator.seen)
        await asyncio.sleep(1.5)  # the worker's next broker check names the new results generation
        await produce(bootstrap, f"{gen}.g2", [(f"b{i}", gen_bytes(f"b{i}", "one two three")) for i in range(3)])
        second = await read_until(bootstrap, f"{res}.g2", lambda records: len(records) >= 3)
        assert sorted(r.key for r in second) == [b"b0", b"b1", b"b2"]
        clock.now += 31
        said = await rotator.step()  # g1 quiet for 31 s, committed by the workers' group
        assert f"deleted {gen}.g1 (4 records, consumed by every group)" in said
        assert f"deleted {res}.g1 (4 records, consumed by every group)" in said  # no group must read the results
        await asyncio.sleep(2)  # four metadata refreshes of the worker's consumer and producer (broker_check_s)
        names = await topics(bootstrap)
        assert f"{gen}.g1" not in names and f"{res}.g1" not in names  # not re-created by the worker's clients
        await produce(bootstrap, f"{gen}.g2", [("c0", gen_bytes("c0", "four words in here"))])
        third = await read_until(bootstrap, f"{res}.g2", lambda records: len(records) >= 4)
        assert sorted(r.key for r in third) == [b"b0", b"b1", b"b2", b"c0"]  # still reading after g1 went
    finally:
        await worker.stop()


async def test_the_broker_gives_its_memory_back_when_an_old_generation_is_deleted(
    own_broker: embedded.ServerProcess, unique: str
) -> None:
    bootstrap = f"{own_broker.host}:{own_broker.port}"
    rss = psutil.Process(own_broker.proc.pid if own_broker.proc else 0)
    base, group = f"mem-{unique}", f"readers-{unique}"
    clock = Clock()
    rotator = Rotator(BusSettings(kafka_bootstrap=bootstrap), {base: 2}, {base: [group]}, max_records=2000, clock=clock)
    await rotator.step()
    before = rss.memory_info().rss
    value = bytes(range(256)) * 80  # 20 kB, incompressible enough
    await produce(bootstrap, f"{base}.g1", [(f"k{i}", value + str(i).encode()) for i in range(2000)])  # 40 MB
    full = rss.memory_info().rss
    assert await rotator.step() == [f"created {base}.g2 (2000 records in {base}.g1, 0 s old)"]
    assert len(await consume(bootstrap, group, f"{base}.g1", 2000, timeout=60)) == 2000
    clock.now += 31
    assert await rotator.step() == [f"deleted {base}.g1 (2000 records, consumed by every group)"]
    await asyncio.sleep(1)
    after = rss.memory_info().rss
    held = full - before
    assert held > 35 * 2**20  # the 40 MB were held
    assert after - before < 0.2 * held, (before >> 20, full >> 20, after >> 20)


def gen_bytes(request_id: str, answer: str) -> bytes:
    return generation(request_id, answer).model_dump_json().encode()


class Worker:
    """A worker task on the test's event loop."""

    def __init__(self, settings: Any) -> None:
        self.stop_event = asyncio.Event()
        self.task = asyncio.create_task(run_worker(settings, stop_event=self.stop_event, registry=CollectorRegistry()))

    async def stop(self) -> None:
        self.stop_event.set()
        await asyncio.wait_for(self.task, 30)


async def test_the_gateway_publishes_to_the_newest_generation(kafka_bootstrap: str, unique: str) -> None:
    from gateway.metrics import build_metrics
    from gateway.publisher import Publisher

    base = f"pub-{unique}"
    settings = BusSettings(kafka_bootstrap=kafka_bootstrap, generations_topic=base, kafka_rotate=True)
    rotator = Rotator(settings, {base: 2}, {}, max_records=1, clock=Clock())
    await rotator.step()  # creates g1
    publisher = Publisher(settings, build_metrics(CollectorRegistry()), partitions=2, broker_check_s=0.2)
    await publisher.start()
    try:
        await wait_until(lambda: publisher.topic == f"{base}.g1")
        assert publisher.publish(generation("one", "a b"))
        await publisher.flush()
        assert f"created {base}.g2 (1 records in {base}.g1, 0 s old)" in await rotator.step()
        await wait_until(lambda: publisher.topic == f"{base}.g2")
        assert publisher.publish(generation("two", "a b"))
        await publisher.flush()
    finally:
        await publisher.stop()
    g1 = await read_until(kafka_bootstrap, f"{base}.g1", lambda records: len(records) >= 1, timeout=5)
    g2 = await read_until(kafka_bootstrap, f"{base}.g2", lambda records: len(records) >= 1, timeout=5)
    bare = await read_until(kafka_bootstrap, base, lambda records: False, timeout=2)
    assert [r.key for r in g1] == [b"one"] and [r.key for r in g2] == [b"two"] and bare == []


async def wait_until(predicate: Any, timeout: float = 15.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, "condition not reached in time"
        await asyncio.sleep(0.05)


async def test_deleted_generations_stay_deleted_over_several_rotations(make_settings: MakeSettings) -> None:
    """The rotator, a gateway's publisher and a worker (its consumer's metadata refreshed every half second) over
    three rotation cycles: each generation deleted is still gone after four metadata refreshes and after the
    producers' first records on the next generation, and every answer is checked. tansu re-creates a topic a
    Metadata request names: the rotator's consumer, assigned to the generations it measured, brought g1 back at
    once; the publisher's and the worker's producers, which named every topic they had written to, brought g2
    and g3 back at their first record on g4 (before WrittenGeneration)."""
    from gateway.metrics import build_metrics
    from gateway.publisher import Publisher

    settings = make_settings(kafka_rotate=True, broker_check_s=0.5)
    bootstrap, gen, res = settings.kafka_bootstrap, settings.generations_topic, settings.results_topic
    clock = Clock()
    rotator = Rotator(settings, {gen: 2, res: 2}, {gen: [settings.group_id]}, max_records=3, grace_s=30, clock=clock)
    await rotator.step()
    publisher = Publisher(settings, build_metrics(CollectorRegistry()), partitions=2, broker_check_s=0.5)
    await publisher.start()
    worker = Worker(settings)
    deleted: list[str] = []
    try:
        for cycle in range(1, 4):
            await wait_until(lambda current=f"{gen}.g{cycle}": publisher.topic == current)
            for i in range(3):
                assert publisher.publish(generation(f"c{cycle}-{i}", "one two " * cycle))
            await publisher.flush()
            checked = await read_until(bootstrap, f"{res}.g{cycle}", lambda records: len(records) >= 3)
            assert sorted(r.key for r in checked) == [f"c{cycle}-{i}".encode() for i in range(3)]
            said = await rotator.step()
            assert any(line.startswith(f"created {gen}.g{cycle + 1} (3 records in {gen}.g{cycle},") for line in said)
            await asyncio.sleep(1.5)  # the publisher and the worker move on at their next broker check
            assert publisher.topic == f"{gen}.g{cycle + 1}"
            clock.now += 31
            gone = {f"{gen}.g{cycle}", f"{res}.g{cycle}"}
            for _ in range(10):  # the worker's commits may trail its results by a moment
                said = await rotator.step()
                if gone <= set(rotator.deleted):
                    break
                await asyncio.sleep(0.5)
            assert gone <= set(rotator.deleted), (said, rotator.deleted)
            deleted += sorted(gone)
            await asyncio.sleep(2)  # four metadata refreshes of every client
            names = await topics(bootstrap)
            assert not names & set(deleted), sorted(names & set(deleted))
        # the worker still reads and writes after three rotations, and its first record on g4 (a Metadata request
        # of the publisher's and of the worker's producer) brings back none of the deleted generations
        assert publisher.publish(generation("last", "five"))
        await publisher.flush()
        last = await read_until(bootstrap, f"{res}.g4", lambda records: len(records) >= 1)
        assert [r.key for r in last] == [b"last"]
        await asyncio.sleep(2)
        names = await topics(bootstrap)
        assert not names & set(deleted), sorted(names & set(deleted))
        await rotator.step()
        assert rotator.recreated == []
    finally:
        await worker.stop()
        await publisher.stop()


async def test_replay_reads_every_kept_generation_and_nothing_deleted_comes_back(
    kafka_bootstrap: str, unique: str
) -> None:
    """Replay's window spans the generations still there: all of them before a deletion, the kept ones after;
    reading them does not bring a deleted one back."""
    from factsentry.replay import _window

    base, group = f"replay-{unique}", f"readers-{unique}"
    settings = BusSettings(kafka_bootstrap=kafka_bootstrap)
    clock = Clock()
    rotator = Rotator(settings, {base: 2}, {base: [group]}, max_records=2, grace_s=30, clock=clock)
    await rotator.step()
    for key in ("a0", "a1"):  # one send each: tansu reports the end of a batch of several short
        await produce(kafka_bootstrap, f"{base}.g1", [(key, key.encode())])
    assert await rotator.step() == [f"created {base}.g2 (2 records in {base}.g1, 0 s old)"]
    await produce(kafka_bootstrap, f"{base}.g2", [("b0", b"b0")])  # one: g2 stays the newest
    window = (0, 2**62)
    assert sorted(k for _, k, _ in await _window(settings, base, *window)) == [b"a0", b"a1", b"b0"]
    assert len(await consume(kafka_bootstrap, group, f"{base}.g1", 2)) == 2
    clock.now += 31
    assert await rotator.step() == [f"deleted {base}.g1 (2 records, consumed by every group)"]
    assert sorted(k for _, k, _ in await _window(settings, base, *window)) == [b"b0"]
    await asyncio.sleep(1)
    assert f"{base}.g1" not in await topics(kafka_bootstrap)
    assert await rotator.step() == [] and rotator.recreated == []


class FlakyRotator(Rotator):
    """A rotator whose first round meets a CancelledError let out by a client of a broker killed under it."""

    def __init__(self) -> None:
        super().__init__(BusSettings(kafka_bootstrap="127.0.0.1:1"), {"t": 1}, {}, interval_s=0.01)
        self.rounds = 0

    async def step(self) -> list[str]:
        self.rounds += 1
        if self.rounds == 1:
            raise asyncio.CancelledError
        return []


async def test_a_cancelled_wait_inside_a_round_does_not_end_the_rotation() -> None:
    rotator = FlakyRotator()
    task = asyncio.create_task(rotator.run())
    for _ in range(200):
        if rotator.rounds >= 3:
            break
        await asyncio.sleep(0.01)
    assert not task.done()  # the first round's CancelledError did not end it
    assert rotator.rounds >= 3
    task.cancel()  # its own cancel still stops it
    with contextlib.suppress(asyncio.CancelledError):
        await task
    assert task.cancelled()


def test_stopping_a_stack_whose_rotation_thread_has_ended_does_not_raise(tmp_path: Path) -> None:
    """The rotation thread closes its loop when its task ends; stop() must not fail on the closed loop (it did,
    after a broker was killed under a running `up`, and `up` exited 1 on Ctrl-C)."""
    loop = asyncio.new_event_loop()

    async def ended() -> None:
        return None

    task = loop.create_task(ended())

    def run() -> None:
        loop.run_until_complete(task)
        loop.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(10)
    assert loop.is_closed()
    stack = Stack(kb_path=tmp_path / "kb.sqlite", models_file=tmp_path / "models.yaml", log_dir=tmp_path)
    stack._rotation = (thread, loop, task)
    stack.stop()
    assert stack._rotation is None
