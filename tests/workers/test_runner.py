"""The generic runner, in-process, against the real embedded broker, with a small real stage (word counts)."""

from __future__ import annotations

import asyncio
import contextlib
import time

import orjson
import pytest
import redis.asyncio as aioredis
from prometheus_client import CollectorRegistry

from factsentry import embedded
from schemas.messages import DLQRecord
from tests.servers import frozen, kill
from tests.workers.conftest import MakeSettings
from tests.workers.helpers import generation, produce, read_topic, read_until
from tests.workers.stages import STARTED, WordCount
from workers import WorkerSettings, run_worker
from workers.runner import Summary


def gen_bytes(request_id: str, answer: str) -> bytes:
    return generation(request_id, answer).model_dump_json().encode()


async def wait_for(predicate: object, timeout: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():  # type: ignore[operator]
        if loop.time() > deadline:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.05)


class RunningWorker:
    """A worker task on the test's event loop, with its own stop event and registry."""

    def __init__(self, settings: WorkerSettings) -> None:
        self.settings = settings
        self.stop_event = asyncio.Event()
        self.registry = CollectorRegistry()
        self.task = asyncio.create_task(run_worker(settings, stop_event=self.stop_event, registry=self.registry))

    def metric(self, name: str, **labels: str) -> float:
        return self.registry.get_sample_value(name, labels) or 0.0

    async def stop(self) -> Summary:
        self.stop_event.set()
        return await asyncio.wait_for(self.task, 30)


def counts(records: list) -> dict[str, int]:
    return {r.key.decode(): WordCount.model_validate_json(r.value).words for r in records}


async def test_records_flow_to_the_output_topic_keyed_by_request_id(make_settings: MakeSettings) -> None:
    settings = make_settings()
    answers = {f"r{i}": " ".join(["word"] * (i + 1)) for i in range(6)}
    await produce(
        settings.kafka_bootstrap, settings.generations_topic, [(k, gen_bytes(k, a)) for k, a in answers.items()]
    )
    worker = RunningWorker(settings)
    out = await read_topic(settings.kafka_bootstrap, settings.results_topic, len(answers))
    summary = await worker.stop()
    assert counts(out) == {rid: i + 1 for i, rid in enumerate(answers)}
    assert (summary.done, summary.dlq, summary.failed, summary.retried) == (6, 0, 0, 0)
    assert worker.metric("factsentry_worker_records_total", outcome="scored") == 6
    assert worker.metric("factsentry_worker_stage_seconds_count", stage="commit") >= 1


MALFORMED = [
    pytest.param(b"{not json", "ValidationError", "Invalid JSON", id="bad-json"),
    pytest.param(
        orjson.dumps(generation("x", "a b").model_dump(mode="json") | {"schema_version": 2}),
        "ValidationError",
        "schema_version: Input should be 1",
        id="wrong-schema-version",
    ),
    pytest.param(
        orjson.dumps({k: v for k, v in generation("x", "a b").model_dump(mode="json").items() if k != "answer"}),
        "ValidationError",
        "answer: Field required",
        id="missing-field",
    ),
    pytest.param(None, "ValueError", "tombstone", id="no-value"),
]


@pytest.mark.parametrize(("value", "error_type", "error"), MALFORMED)
async def test_malformed_record_goes_to_the_dlq_and_the_next_one_is_handled(
    make_settings: MakeSettings, value: bytes | None, error_type: str, error: str
) -> None:
    settings = make_settings()
    # One key, so one partition: the bad record sits between two good ones.
    records = [("k", gen_bytes("before", "one two")), ("k", value), ("k", gen_bytes("after", "one two three"))]
    await produce(settings.kafka_bootstrap, settings.generations_topic, records)  # type: ignore[arg-type]
    worker = RunningWorker(settings)
    out = await read_topic(settings.kafka_bootstrap, settings.results_topic, 2)
    dead = await read_topic(settings.kafka_bootstrap, settings.generations_topic + ".dlq", 1)
    summary = await worker.stop()
    assert sorted(WordCount.model_validate_json(r.value).words for r in out) == [2, 3]
    assert len(dead) == 1
    record = DLQRecord.model_validate_json(dead[0].value)
    assert (record.topic, record.offset, record.attempts, record.error_type) == (
        settings.generations_topic,
        1,
        1,
        error_type,
    )
    assert error in record.error
    assert record.value == (value or b"").decode()
    assert dead[0].key == b"k"
    assert (summary.done, summary.dlq) == (2, 1)
    assert worker.metric("factsentry_worker_dlq_total") == 1


@pytest.mark.parametrize(
    ("failures", "max_retries", "words", "retried", "dlq_attempts"),
    [
        pytest.param(2, 3, 3, 2, None, id="succeeds-on-third-attempt"),
        pytest.param(5, 2, None, 2, 3, id="dead-lettered-after-retries"),
        pytest.param(1, 0, None, 0, 1, id="no-retries-allowed"),
    ],
)
async def test_retriable_failure_is_retried_with_backoff(
    make_settings: MakeSettings,
    failures: int,
    max_retries: int,
    words: int | None,
    retried: int,
    dlq_attempts: int | None,
) -> None:
    settings = make_settings(max_retries=max_retries)
    await produce(
        settings.kafka_bootstrap,
        settings.generations_topic,
        [("f", gen_bytes("flaky", f"FLAKY{failures} b c")), ("f", gen_bytes("plain", "x y"))],
    )
    worker = RunningWorker(settings)
    expected_out = 2 if words is not None else 1
    out = await read_topic(settings.kafka_bootstrap, settings.results_topic, expected_out)
    await wait_for(lambda: worker.metric("factsentry_worker_records_total", outcome="retried") >= retried)
    dead = (
        []
        if dlq_attempts is None
        else await read_topic(settings.kafka_bootstrap, settings.generations_topic + ".dlq", 1)
    )
    summary = await worker.stop()
    expected = {"plain": 2} if words is None else {"plain": 2, "flaky": words}
    assert counts(out) == expected
    assert summary.retried == retried
    assert worker.metric("factsentry_worker_records_total", outcome="retried") == retried
    if dlq_attempts is not None:
        record = DLQRecord.model_validate_json(dead[0].value)
        assert (record.attempts, record.error_type) == (dlq_attempts, "RetriableError")
        assert "transient failure" in record.error


async def test_non_retriable_failure_is_isolated_to_its_record(make_settings: MakeSettings) -> None:
    settings = make_settings()
    records = [("p", gen_bytes("a", "one")), ("p", gen_bytes("b", "POISON here")), ("p", gen_bytes("c", "x y z"))]
    await produce(settings.kafka_bootstrap, settings.generations_topic, records)
    worker = RunningWorker(settings)
    out = await read_topic(settings.kafka_bootstrap, settings.results_topic, 2)
    dead = await read_topic(settings.kafka_bootstrap, settings.generations_topic + ".dlq", 1)
    summary = await worker.stop()
    assert counts(out) == {"a": 1, "c": 3}
    record = DLQRecord.model_validate_json(dead[0].value)
    assert (record.key, record.offset, record.error_type, record.attempts) == ("p", 1, "Poisoned", 1)
    assert (summary.done, summary.dlq, summary.retried) == (2, 1, 0)


async def test_consumer_lag_gauge_is_highwater_minus_committed(make_settings: MakeSettings) -> None:
    settings = make_settings(batch_size=1)
    answers = ["SLOW2 first"] + [f"n{i}" for i in range(4)]
    await produce(
        settings.kafka_bootstrap,
        settings.generations_topic,
        [("L", gen_bytes(f"l{i}", a)) for i, a in enumerate(answers)],
    )
    worker = RunningWorker(settings)

    def total_lag() -> float:
        samples = [
            s
            for metric in worker.registry.collect()
            if metric.name == "factsentry_worker_consumer_lag"
            for s in metric.samples
            if s.labels["topic"] == settings.generations_topic
        ]
        return sum(s.value for s in samples) if samples else -1.0

    # While the first record sleeps nothing is committed: the whole partition is lag.
    await wait_for(lambda: total_lag() == 5, timeout=10)
    await read_topic(settings.kafka_bootstrap, settings.results_topic, 5)
    await wait_for(lambda: total_lag() == 0, timeout=10)
    summary = await worker.stop()
    assert summary.done == 5


@pytest.mark.parametrize(
    ("inflight", "waits"),
    [pytest.param(2, False, id="next-batch-while-busy"), pytest.param(1, True, id="one-at-a-time")],
)
async def test_a_record_fetched_while_a_batch_is_busy_does_not_wait_for_it(
    make_settings: MakeSettings, inflight: int, waits: bool
) -> None:
    """A slow record (3 s), then a quick one, on one partition, one record a batch. With two batches in flight the
    quick one is handled (its output produced) while the slow one still sleeps, yet nothing is committed until the
    slow one is: a commit never covers a record still in flight. One batch at a time, the quick one waits."""
    settings = make_settings(batch_size=1, max_inflight_batches=inflight, lag_interval_s=0.1)
    slow, quick = f"slow-{inflight}", f"quick-{inflight}"
    records = [("P", gen_bytes(slow, "SLOW3 slow")), ("P", gen_bytes(quick, "quick"))]
    await produce(settings.kafka_bootstrap, settings.generations_topic, records)
    worker = RunningWorker(settings)

    def lag() -> float:
        return sum(
            s.value
            for metric in worker.registry.collect()
            if metric.name == "factsentry_worker_consumer_lag"
            for s in metric.samples
            if s.labels["topic"] == settings.generations_topic
        )

    await read_until(
        settings.kafka_bootstrap, settings.results_topic, lambda out: any(r.key.decode() == quick for r in out)
    )
    if not waits:
        await wait_for(lambda: lag() == 2, timeout=2)  # the slow record still sleeps: neither offset is committed
    out = await read_topic(settings.kafka_bootstrap, settings.results_topic, 2)
    assert counts(out) == {slow: 2, quick: 1}
    await wait_for(lambda: lag() == 0, timeout=10)
    summary = await worker.stop()
    assert (summary.done, summary.failed) == (2, 0)
    assert (STARTED[quick] - STARTED[slow] >= 3) == waits


async def test_stop_drains_every_batch_in_flight(make_settings: MakeSettings) -> None:
    """Two batches in flight when the worker is stopped: both finish within the drain timeout and are committed."""
    settings = make_settings(batch_size=1, max_inflight_batches=2, drain_timeout_s=10.0)
    records = [("P", gen_bytes("drain-a", "SLOW1 a")), ("P", gen_bytes("drain-b", "SLOW1 b"))]
    await produce(settings.kafka_bootstrap, settings.generations_topic, records)
    worker = RunningWorker(settings)
    await wait_for(lambda: {"drain-a", "drain-b"} <= STARTED.keys(), timeout=20)  # both handlers sleep now
    summary = await worker.stop()
    assert (summary.done, summary.failed) == (2, 0)
    out = await read_topic(settings.kafka_bootstrap, settings.results_topic, 2)
    assert counts(out) == {"drain-a": 2, "drain-b": 2}


@pytest.mark.parametrize(
    ("sleep", "drain_timeout", "done", "failed"),
    [pytest.param(1, 10.0, 1, 0, id="drains-in-time"), pytest.param(30, 0.3, 0, 1, id="abandons-after-timeout")],
)
async def test_stop_drains_in_flight_work_up_to_the_timeout(
    make_settings: MakeSettings, sleep: int, drain_timeout: float, done: int, failed: int
) -> None:
    settings = make_settings(drain_timeout_s=drain_timeout)
    await produce(settings.kafka_bootstrap, settings.generations_topic, [("d", gen_bytes("slow", f"SLOW{sleep} a"))])

    async def stop_while_in_handler(worker: RunningWorker) -> Summary:
        # Decoding is timed before the handler runs: once it is counted, the record is in flight.
        await wait_for(lambda: worker.metric("factsentry_worker_stage_seconds_count", stage="decode") >= 1)
        return await worker.stop()

    summary = await stop_while_in_handler(RunningWorker(settings))
    assert (summary.done, summary.failed, summary.reason) == (done, failed, "stop")
    assert summary.line() == f"shutdown on stop ◆ {done} done ◆ 0 dlq ◆ {failed} failed ◆ 0 retries"
    if failed:
        # Left uncommitted, so the next worker of the group is handed the same record again.
        again = await stop_while_in_handler(RunningWorker(settings))
        assert (again.done, again.failed) == (0, 1)


async def test_worker_waits_for_a_broker_that_is_not_up_yet(make_settings: MakeSettings) -> None:
    port = embedded.free_port()
    settings = make_settings(kafka_bootstrap=f"127.0.0.1:{port}")
    worker = RunningWorker(settings)
    await asyncio.sleep(1.0)
    assert not worker.task.done()
    broker = embedded.tansu(port).start()
    try:
        await produce(settings.kafka_bootstrap, settings.generations_topic, [("b", gen_bytes("late", "a b c d"))])
        out = await read_topic(settings.kafka_bootstrap, settings.results_topic, 1)
        summary = await worker.stop()
    finally:
        broker.stop()
    assert counts(out) == {"late": 4}
    assert summary.done == 1


async def test_stop_while_waiting_for_the_broker_exits_at_once(make_settings: MakeSettings) -> None:
    worker = RunningWorker(make_settings(kafka_bootstrap=f"127.0.0.1:{embedded.free_port()}"))
    await asyncio.sleep(0.5)
    summary = await asyncio.wait_for(worker.stop(), 5)
    assert (summary.done, summary.dlq, summary.failed) == (0, 0, 0)


async def test_redis_outage_pauses_the_stage_and_loses_nothing(make_settings: MakeSettings) -> None:
    valkey = embedded.valkey().start()
    url = f"redis://127.0.0.1:{valkey.port}/0"
    settings = make_settings(redis_url=url, stage="tests.workers.stages:word_count_to_redis", batch_size=1)
    client = aioredis.from_url(url)
    worker = RunningWorker(settings)
    try:
        await produce(settings.kafka_bootstrap, settings.generations_topic, [("r", gen_bytes("first", "a b"))])
        await wait_for(lambda: worker.metric("factsentry_worker_records_total", outcome="scored") == 1)
        valkey.stop()
        await produce(settings.kafka_bootstrap, settings.generations_topic, [("r", gen_bytes("second", "a b c"))])
        # The output is produced, but the Redis write keeps failing: the record stays uncommitted.
        await read_topic(settings.kafka_bootstrap, settings.results_topic, 2)
        await asyncio.sleep(1.0)
        assert worker.metric("factsentry_worker_records_total", outcome="scored") == 1
        valkey.start()
        await wait_for(lambda: worker.metric("factsentry_worker_records_total", outcome="scored") == 2)
        summary = await worker.stop()
        # The restarted valkey keeps nothing on disk: only the write retried after the outage is there.
        second = await client.get(f"{settings.redis_prefix}:words:second")
    finally:
        await client.aclose()
        valkey.stop()
    assert second == b"3"
    assert (summary.done, summary.dlq, summary.retried) == (2, 0, 0)


async def test_revoked_partitions_are_finished_and_committed_before_they_move(make_settings: MakeSettings) -> None:
    settings = make_settings(batch_size=2, topic_partitions=4)
    ids = [f"v{i}" for i in range(16)]
    await produce(
        settings.kafka_bootstrap, settings.generations_topic, [(rid, gen_bytes(rid, "SLOW0.3 x")) for rid in ids]
    )
    first = RunningWorker(settings)
    await wait_for(lambda: first.metric("factsentry_worker_stage_seconds_count", stage="decode") >= 1)
    # A second member joins mid-batch: the first finishes and commits what it holds before the hand-over.
    second = RunningWorker(settings)
    out = await read_until(
        settings.kafka_bootstrap, settings.results_topic, lambda rs: {r.key.decode() for r in rs} >= set(ids), 60
    )
    await asyncio.sleep(1.0)  # anything handled twice would show up by now
    out = await read_topic(settings.kafka_bootstrap, settings.results_topic, len(ids) + 8, timeout=1)
    a, b = await first.stop(), await second.stop()
    assert sorted(r.key.decode() for r in out) == sorted(ids)
    assert a.done + b.done == len(ids)
    assert a.done > 0 and b.done > 0


@pytest.mark.parametrize("fault", ["killed", "frozen"])
async def test_stop_with_the_broker_gone_exits_within_the_bound(
    make_settings: MakeSettings, own_broker: embedded.ServerProcess, fault: str
) -> None:
    """A worker stopped while its broker is dead (kill -9) or hung (SIGSTOP), with a batch in flight whose output
    cannot be produced: it drains up to the drain timeout, then its producer's and consumer's stops are each bounded
    by the stop timeout, so it exits within their sum instead of retrying for ever."""
    settings = make_settings(
        kafka_bootstrap=f"{own_broker.host}:{own_broker.port}", drain_timeout_s=1.0, stop_timeout_s=1.0
    )
    request_id = f"gone-{fault}"
    await produce(settings.kafka_bootstrap, settings.generations_topic, [("k", gen_bytes(request_id, "SLOW2 a b"))])
    worker = RunningWorker(settings)
    await wait_for(lambda: request_id in STARTED, timeout=30)  # it sleeps: its output is produced after the fault
    with contextlib.ExitStack() as fault_held:
        if fault == "killed":
            kill(own_broker)
        else:
            fault_held.enter_context(frozen(own_broker))
        await asyncio.sleep(2.5)  # the handler is done and its produce is retrying against the missing broker
        started = time.monotonic()
        worker.stop_event.set()
        summary = await asyncio.wait_for(worker.task, 30)
        took = time.monotonic() - started
    # drain 1 s + producer stop 1 s + consumer stop 1 s, and slack for a busy machine (before the bound: 9.5 s
    # killed, held past 30 s frozen)
    assert took < 3 + 4, f"the worker took {took:.1f} s to stop"
    assert (summary.done, summary.failed) == (0, 1)  # left uncommitted: the group redelivers it


async def test_stop_while_the_broker_hangs_at_startup_exits_at_once(
    make_settings: MakeSettings, own_broker: embedded.ServerProcess
) -> None:
    """A broker that accepts connections and answers nothing (SIGSTOP) holds the worker's first topic check for
    as long as it likes: a stop does not wait for it (before, the worker was still in that check 30 s later)."""
    worker_settings = make_settings(kafka_bootstrap=f"{own_broker.host}:{own_broker.port}", stop_timeout_s=1.0)
    with frozen(own_broker):
        worker = RunningWorker(worker_settings)
        await asyncio.sleep(1.0)
        assert not worker.task.done()
        started = time.monotonic()
        worker.stop_event.set()
        summary = await asyncio.wait_for(worker.task, 30)
        took = time.monotonic() - started
    assert took < 2.0, f"the worker took {took:.1f} s to stop"
    assert (summary.done, summary.dlq, summary.failed) == (0, 0, 0)
