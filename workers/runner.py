"""The generic stage runner: consume a batch → validate → handle → produce → deliver → commit.

Offsets are committed only after every output of the batch is produced (and delivered), so a
worker that dies mid-batch loses nothing: the group redelivers the uncommitted records
(at-least-once; results are keyed by request id, so a redelivery overwrites, never duplicates
a verdict in Redis).

Up to ``max_inflight_batches`` batches are handled at once: the next fetch does not wait for the
batch before it to be scored, produced and committed, so a record that arrives while the worker
is busy starts as soon as a scoring slot is free instead of queueing behind a whole batch. Each
batch still commits only after every batch fetched before it has committed, so a commit never
covers a record still in flight.

- A record that does not decode or validate goes to ``<topic>.dlq`` as a ``DLQRecord`` at once.
- A record whose handling fails with a retriable error is retried with exponential backoff up
  to ``max_retries`` times; one that keeps failing, or fails with a non-retriable error, goes to
  the DLQ with its attempt count. Both are committed, so a poison record never stalls a partition.
- Producing, delivering and committing are retried for as long as the worker runs: a broker or
  Redis outage pauses the stage instead of dead-lettering good records.
- On partition revocation the in-flight batch is finished (up to the drain timeout) and committed
  before the partitions move.
- On stop (SIGTERM): no more fetching, the in-flight batch drains up to ``drain_timeout_s``, the
  producer and the consumer stop within ``stop_timeout_s`` each (a dead or hung broker does not keep the
  worker from exiting: what it did not take was never committed and is redelivered), and
  one summary line is logged: ``shutdown on SIGTERM ◆ 120 done ◆ 2 dlq ◆ 0 failed ◆ 1 retries``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Generic

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, ConsumerRecord, TopicPartition
from aiokafka.abc import ConsumerRebalanceListener
from aiokafka.errors import CommitFailedError, IllegalStateError
from pydantic import ValidationError

from bus.codec import decode, encode
from bus.kafka import BrokerWatch, consumer_lag, make_consumer, make_producer, stop_consumer, stop_producer
from bus.rotation import WrittenGeneration, base_topic, generation_pattern
from bus.topics import dlq_topic
from schemas.messages import DLQRecord
from workers.errors import StageContractError, is_retriable
from workers.metrics import Step
from workers.stage import Context, In, Out, Stage
from workers.tracing import batch_spans

log = logging.getLogger(__name__)


@dataclass
class Summary:
    """What one run of a stage did; ``line()`` is the shutdown log line."""

    reason: str = "stop"
    done: int = 0
    dlq: int = 0
    failed: int = 0
    retried: int = 0

    def line(self) -> str:
        return (
            f"shutdown on {self.reason} ◆ {self.done} done ◆ {self.dlq} dlq ◆ {self.failed} failed"
            f" ◆ {self.retried} retries"
        )


@dataclass
class _Item(Generic[In, Out]):
    """One record on its way through a batch."""

    record: ConsumerRecord[bytes, bytes]
    value: In | None = None
    output: Out | None = None
    error: BaseException | None = None
    attempts: int = 0


def describe(exc: BaseException) -> str:
    """A one-line description of ``exc`` for the DLQ and the log."""
    if isinstance(exc, ValidationError):
        parts = [f"{'.'.join(str(p) for p in e['loc']) or 'value'}: {e['msg']}" for e in exc.errors()]
        return f"invalid {exc.title}: " + "; ".join(parts)
    return str(exc) or type(exc).__name__


class _Revocation(ConsumerRebalanceListener):  # type: ignore[misc]
    def __init__(self, runner: Runner[Any, Any], consumer: AIOKafkaConsumer, from_start: bool = False) -> None:
        self.runner = runner
        self.consumer = consumer
        self.from_start = from_start

    async def on_partitions_revoked(self, revoked: set[TopicPartition]) -> None:
        await self.runner.finish_inflight(revoked)

    async def on_partitions_assigned(self, assigned: set[TopicPartition]) -> None:
        if self.from_start and assigned:
            # After a broker reset, offsets committed by the consumer that had not noticed it yet may
            # skip records of the new log (its positions came from the old one): read it all again.
            await self.consumer.seek_to_beginning(*assigned)
            self.from_start = False
        log.info("assigned %s", ", ".join(f"{tp.topic}[{tp.partition}]" for tp in sorted(assigned)) or "nothing")
        # The stage started (models loaded) before the consumer joined: from here a record is checked
        # as fast as the hundredth one (what `factsentry up` and the benchmarks wait for).
        self.runner.metrics.ready.set(1)


class Runner(Generic[In, Out]):
    """Runs one :class:`Stage` in one consumer group until ``stop_event`` is set.

    Example::

        runner = Runner(stage, Context(settings, redis, metrics), stop_event=asyncio.Event())
        summary = await runner.run()
    """

    def __init__(self, stage: Stage[In, Out], ctx: Context, *, stop_event: asyncio.Event) -> None:
        self.stage = stage
        self.ctx = ctx
        self.settings = ctx.settings
        self.metrics = ctx.metrics
        self.stop_event = stop_event
        self.summary = Summary()
        # Batches in flight, oldest first, with their record counts.
        self._batches: deque[tuple[asyncio.Future[None], int]] = deque()
        self._lag_labels: set[tuple[str, str]] = set()
        self._reset = asyncio.Event()
        # Where outputs go: the stage's output topic, or with FACTSENTRY_KAFKA_ROTATE its newest generation (the
        # producer's metadata then drops the ones it left: bus/rotation.py).
        self._output = stage.output_topic
        self._written = WrittenGeneration(stage.output_topic) if stage.output_topic else None

    def stop(self, reason: str = "stop") -> None:
        """Ask the runner to stop fetching and drain (safe to call from a signal handler)."""
        self.summary.reason = reason
        self.stop_event.set()

    async def run(self) -> Summary:
        """Consume until stopped; returns the summary (also logged as one line).

        The stage's ``on_startup`` runs first, so a stage that cannot work fails before any
        connection is made; a broker that is not up yet is waited for until stopped.
        """
        stage, settings = self.stage, self.settings
        topics = {stage.input_topic: settings.topic_partitions, dlq_topic(stage.input_topic): settings.topic_partitions}
        if stage.output_topic:
            topics[stage.output_topic] = settings.topic_partitions
        if stage.on_startup is not None:
            await stage.on_startup(self.ctx)
        watch = BrokerWatch(settings, topics)
        try:
            if await self._until_stopped("create topics", watch.check):
                await self._consume(watch)
        except BaseException as e:
            self.summary.reason = "cancel" if isinstance(e, asyncio.CancelledError) else f"error ({describe(e)})"
            raise
        finally:
            with contextlib.suppress(Exception):
                await watch.close()
            if stage.on_shutdown is not None:
                await stage.on_shutdown(self.ctx)
            log.info("%s", self.summary.line())
        return self.summary

    async def _consume(self, watch: BrokerWatch) -> None:
        settings = self.settings
        producer = make_producer(settings)
        await producer.start()
        self._follow(watch, producer)
        try:
            after_reset = False
            while not self.stop_event.is_set():
                self._reset.clear()
                await self._consume_until_reset(producer, watch, after_reset)
                after_reset = True
                if self._reset.is_set() and not self.stop_event.is_set():
                    # The new log starts at 0 and the group forgot our offsets: a fresh consumer
                    # reads it from the start (records seen twice are overwritten by request id).
                    log.warning("re-joining group %s after the broker reset", settings.group_id)
        finally:
            await stop_producer(producer, settings.stop_timeout_s)

    async def _consume_until_reset(self, producer: AIOKafkaProducer, watch: BrokerWatch, from_start: bool) -> None:
        settings = self.settings
        consumer = make_consumer(
            settings,
            group_id=settings.group_id,
            max_poll_records=settings.batch_size,
            session_timeout_ms=settings.session_timeout_ms,
            heartbeat_interval_ms=max(100, settings.session_timeout_ms // 5),
            fetch_max_wait_ms=settings.fetch_max_wait_ms,
            # A new generation is seen (and a deleted one let go) at the next metadata refresh.
            **({"metadata_max_age_ms": int(settings.broker_check_s * 1000)} if settings.kafka_rotate else {}),
        )
        listener = _Revocation(self, consumer, from_start)
        if settings.kafka_rotate:  # every generation of the input topic, old ones until deleted (bus/rotation.py)
            consumer.subscribe(pattern=generation_pattern(self.stage.input_topic), listener=listener)
        else:
            consumer.subscribe([self.stage.input_topic], listener=listener)
        await consumer.start()
        try:
            helpers = [
                asyncio.create_task(self._lag_loop(consumer)),
                asyncio.create_task(self._watch_loop(watch, producer)),
            ]
            try:
                await self._loop(consumer, producer)
            finally:
                for task in helpers:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
        finally:
            await stop_consumer(consumer, settings.stop_timeout_s)

    def _follow(self, watch: BrokerWatch, producer: AIOKafkaProducer) -> None:
        """With FACTSENTRY_KAFKA_ROTATE: write to the newest output generation the broker listed at the last check."""
        if self.settings.kafka_rotate and self._written is not None:
            self._output = self._written.update(watch.names, producer)

    async def _watch_loop(self, watch: BrokerWatch, producer: AIOKafkaProducer) -> None:
        """Every ``broker_check_s``: did the broker come back empty? Then count it and re-join."""
        while True:
            await asyncio.sleep(self.settings.broker_check_s)
            try:
                reset = await watch.check()
            except Exception as e:
                log.debug("broker check failed (the broker may be restarting): %s", e)
                continue
            self._follow(watch, producer)
            if reset:
                self.metrics.broker_resets.inc()
                log.warning(
                    "the broker at %s came back without its state: topics re-created, reading the new log from 0",
                    self.settings.kafka_bootstrap,
                )
                self._reset.set()
                return

    async def finish_inflight(self, revoked: set[TopicPartition] | None = None) -> None:
        """Wait (up to the drain timeout) for the batches in flight, which commit their own offsets."""
        tasks = {task for task, _ in self._batches if not task.done()}
        if tasks:
            log.info("partitions revoked: finishing %d in-flight batch(es) before handing them over", len(tasks))
            await asyncio.wait(tasks, timeout=self.settings.drain_timeout_s)

    async def _loop(self, consumer: AIOKafkaConsumer, producer: AIOKafkaProducer) -> None:
        settings = self.settings
        fetch: asyncio.Future[dict[TopicPartition, list[ConsumerRecord[bytes, bytes]]]] | None = None
        try:
            while not self.stop_event.is_set() and not self._reset.is_set():
                self._reap()
                if len(self._batches) >= settings.max_inflight_batches:
                    await self._until_any({self._batches[0][0]})
                    continue
                if fetch is None:
                    fetch = asyncio.ensure_future(
                        consumer.getmany(timeout_ms=settings.poll_timeout_ms, max_records=settings.batch_size)
                    )
                # The oldest batch ending (or failing) while the fetch waits is reaped at once; a later one cannot
                # commit before it anyway.
                await self._until_any({fetch, self._batches[0][0]} if self._batches else {fetch})
                if not fetch.done():
                    continue
                fetched, fetch = fetch.result(), None
                records = [r for batch in fetched.values() for r in batch]
                if records:
                    before = self._batches[-1][0] if self._batches else None
                    task = asyncio.ensure_future(self._process(consumer, producer, records, before))
                    self._batches.append((task, len(records)))
        except BaseException:
            await self._abandon(fetch)
            self._cancel_batches()
            raise
        # Stopped (or the broker reset) while waiting: nothing fetched and not handled is lost, it is simply not
        # committed. What is in flight finishes (on stop, up to the drain timeout).
        await self._abandon(fetch)
        await self._drain()

    def _reap(self) -> None:
        """Drop the finished batches at the head of the queue; a failed one raises its error here."""
        while self._batches and self._batches[0][0].done():
            task, _ = self._batches.popleft()
            task.result()

    async def _until_any(self, futures: set[asyncio.Future[Any]], *, or_reset: bool = True) -> None:
        """Wait until one of ``futures`` is done, or the runner is stopped, or (``or_reset``) the broker reset."""
        stopping: asyncio.Future[Any] = asyncio.ensure_future(self.stop_event.wait())
        resetting: asyncio.Future[Any] = asyncio.ensure_future(self._reset.wait())
        try:
            await asyncio.wait(
                {*futures, stopping, *([resetting] if or_reset else [])}, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            stopping.cancel()
            resetting.cancel()

    @staticmethod
    async def _abandon(fetch: asyncio.Future[Any] | None) -> None:
        if fetch is not None and not fetch.done():
            fetch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await fetch

    def _cancel_batches(self) -> None:
        for task, _ in self._batches:
            task.cancel()
        self._batches.clear()

    async def _drain(self) -> None:
        """Finish the batches in flight: all of them unless stopped, then up to the drain timeout; what is
        still running after it is cancelled, left uncommitted (the group redelivers it) and counted failed."""
        while self._batches and not self.stop_event.is_set():
            self._reap()
            if self._batches:
                await self._until_any({self._batches[0][0]}, or_reset=False)
        running = [(task, n) for task, n in self._batches if not task.done()]
        if running:
            n = sum(n for _, n in running)
            log.info("stopping: draining %d in-flight record(s) for up to %.0f s", n, self.settings.drain_timeout_s)
            await asyncio.wait({task for task, _ in running}, timeout=self.settings.drain_timeout_s)
        left = [(task, n) for task, n in self._batches if not task.done()]
        for task, _ in left:
            task.cancel()
        for task, _ in left:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if left:
            n = sum(n for _, n in left)
            self.summary.failed += n
            self.metrics.count("failed", n)
            log.warning("drain timeout: %d record(s) left uncommitted; the group will redeliver them", n)
        finished = [task for task, _ in self._batches if not task.cancelled()]
        self._batches.clear()
        for task in finished:
            task.result()

    async def _process(
        self,
        consumer: AIOKafkaConsumer,
        producer: AIOKafkaProducer,
        records: list[ConsumerRecord[bytes, bytes]],
        before: asyncio.Future[None] | None = None,
    ) -> None:
        """Handle one batch; its offsets are committed once ``before`` (the batch fetched before it) is. With
        tracing on, each record is a consumer span under the producer span its headers carry (bus/spans.py),
        which the stage finds by its input (``workers.tracing.span_of``)."""
        items: list[_Item[In, Out]] = [_Item(record=r) for r in records]
        with self._timed("decode"):
            for item in items:
                try:
                    item.value = decode(self.stage.input_model, item.record.value)
                except (ValidationError, ValueError) as e:
                    item.error, item.attempts = e, 1
        tracing = self.ctx.tracing
        if tracing is None:
            await self._process_decoded(consumer, producer, items, before)
            return
        spans = [tracing.process(item.record, self.settings.group_id) for item in items]
        batch_spans.set({id(i.value): span for i, span in zip(items, spans, strict=True) if i.value is not None})
        try:
            await self._process_decoded(consumer, producer, items, before)
        finally:
            for item, span in zip(items, spans, strict=True):
                tracing.end(span, None if item.error is None else describe(item.error))

    async def _process_decoded(
        self,
        consumer: AIOKafkaConsumer,
        producer: AIOKafkaProducer,
        items: list[_Item[In, Out]],
        before: asyncio.Future[None] | None,
    ) -> None:
        with self._timed("score"):
            await self._handle([i for i in items if i.error is None])
        with self._timed("produce"):
            # Delivery (Redis, which wakes the gateway's waiters) and the output topic's acks go on
            # together: a waiter need not wait for the broker. Both finish before the commit, and a
            # batch that fails either is handled again (the same verdicts), so nothing is lost.
            delivering = None
            if self.stage.deliver is not None:
                deliver = self.stage.deliver
                outputs = [i.output for i in items if i.output is not None]
                if outputs:
                    delivering = asyncio.ensure_future(self._infra("deliver", lambda: deliver(outputs, self.ctx)))
            try:
                await self._infra("produce", lambda: self._produce(producer, items))
            except BaseException:
                if delivering is not None:
                    delivering.cancel()
                    with contextlib.suppress(BaseException):
                        await delivering
                raise
            if delivering is not None:
                await delivering
            if self.stage.on_dead_letter is not None:
                notify = self.stage.on_dead_letter
                dead = [
                    (i.record.key.decode("utf-8", "replace") if i.record.key is not None else None, describe(i.error))
                    for i in items
                    if i.error is not None
                ]
                if dead:
                    await self._infra("notify dead letters", lambda: notify(dead, self.ctx))
        if before is not None:
            await asyncio.wait({before})
            if before.cancelled() or before.exception() is not None:
                return  # the runner stops on that failure: these offsets stay uncommitted, the group redelivers them
        with self._timed("commit"):
            await self._commit(consumer, items)
        self._account(items)

    async def _handle(self, items: list[_Item[In, Out]]) -> None:
        pending, attempt = items, 0
        while pending:
            attempt += 1
            results = await self._call(pending)
            retry: list[_Item[In, Out]] = []
            for item, result in zip(pending, results, strict=True):
                item.attempts += 1
                if not isinstance(result, BaseException):
                    item.output = result
                elif is_retriable(result) and item.attempts <= self.settings.max_retries:
                    retry.append(item)
                else:
                    item.error = result
            if retry:
                delay = self.settings.retry_delay(attempt)
                cause = next(r for r in results if isinstance(r, BaseException))
                self.summary.retried += len(retry)
                self.metrics.count("retried", len(retry))
                log.info("retrying %d record(s) in %.2f s after: %s", len(retry), delay, describe(cause))
                await asyncio.sleep(delay)
            pending = retry

    async def _call(self, items: list[_Item[In, Out]]) -> list[Out | BaseException | None]:
        """Handle ``items``; every failure comes back as an exception in the record's slot."""
        try:
            results = await self.stage.handle([i.value for i in items if i.value is not None], self.ctx)
            if not isinstance(results, list) or len(results) != len(items):
                got = len(results) if isinstance(results, list) else type(results).__name__
                raise StageContractError(f"stage {self.stage.name!r} returned {got} results for {len(items)} inputs")
        except Exception as e:
            if len(items) > 1 and not is_retriable(e):
                # Which record broke the batch is unknown: handle each on its own to find out.
                return [(await self._call([item]))[0] for item in items]
            return [e] * len(items)
        model = self.stage.output_model
        return [
            r
            if r is None or isinstance(r, (model, BaseException))
            else StageContractError(f"stage {self.stage.name!r} returned {type(r).__name__}, not {model.__name__}")
            for r in results
        ]

    async def _produce(self, producer: AIOKafkaProducer, items: list[_Item[In, Out]]) -> None:
        sends: list[asyncio.Future[Any]] = []
        for item in items:
            if item.error is not None:
                sends.append(await self._send_dlq(producer, item))
            elif item.output is not None and self.stage.output_topic:
                key = self.stage.key(item.output)
                value = encode(item.output)
                sends.append(await producer.send(self._output, value, key=key.encode() if key else None))
        await asyncio.gather(*sends)

    async def _send_dlq(self, producer: AIOKafkaProducer, item: _Item[In, Out]) -> asyncio.Future[Any]:
        record, error = item.record, item.error
        assert error is not None
        raw_key = record.key.decode("utf-8", "replace") if record.key is not None else None
        dead = DLQRecord(
            topic=record.topic,
            partition=record.partition,
            offset=record.offset,
            key=raw_key,
            value=(record.value or b"").decode("utf-8", "replace"),
            error=describe(error),
            error_type=type(error).__name__,
            failed_at=datetime.now(UTC),
            attempts=max(1, item.attempts),
        )
        log.warning(
            "dead-lettered %s[%d]@%d after %d attempt(s): %s",
            record.topic,
            record.partition,
            record.offset,
            dead.attempts,
            dead.error,
        )
        # One dead-letter topic for all the generations of a rotated input topic.
        source = base_topic(record.topic) if self.settings.kafka_rotate else record.topic
        sent: asyncio.Future[Any] = await producer.send(dlq_topic(source), encode(dead), key=record.key)
        return sent

    async def _commit(self, consumer: AIOKafkaConsumer, items: list[_Item[In, Out]]) -> None:
        offsets: dict[TopicPartition, int] = {}
        for item in items:
            tp = TopicPartition(item.record.topic, item.record.partition)
            offsets[tp] = max(offsets.get(tp, 0), item.record.offset + 1)
        try:
            await self._infra("commit", lambda: consumer.commit(offsets))
        except (CommitFailedError, IllegalStateError) as e:
            log.warning("commit of %d record(s) failed, the group will redeliver them: %s", len(items), e)

    async def _infra(self, what: str, op: Callable[[], Awaitable[Any]]) -> None:
        """Run ``op`` until it succeeds, backing off on retriable errors (a broker or Redis outage)."""
        attempt = 0
        while True:
            try:
                await op()
                return
            except Exception as e:
                if not is_retriable(e):
                    raise
                attempt += 1
                delay = self.settings.retry_delay(attempt)
                log.warning("%s failed (%s); retrying in %.1f s", what, describe(e), delay)
                await asyncio.sleep(delay)

    async def _until_stopped(self, what: str, op: Callable[[], Awaitable[Any]]) -> bool:
        """Run ``op`` until it succeeds (True) or the runner is stopped first (False); retriable errors back off."""
        attempt = 0
        while not self.stop_event.is_set():
            # A hung broker (accepting connections, answering nothing) holds ``op`` for as long as it likes: the
            # stop does not wait for it.
            attempt_task = asyncio.ensure_future(op())
            await self._until_any({attempt_task}, or_reset=False)
            if not attempt_task.done():
                await self._abandon(attempt_task)
                return False
            try:
                attempt_task.result()
                return True
            except Exception as e:
                if not is_retriable(e):
                    raise
                attempt += 1
                delay = self.settings.retry_delay(attempt)
                log.warning(
                    "%s: Kafka at %s not reachable (%s); retrying in %.1f s",
                    what,
                    self.settings.kafka_bootstrap,
                    describe(e),
                    delay,
                )
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.stop_event.wait(), delay)
        return False

    def _account(self, items: list[_Item[In, Out]]) -> None:
        for item in items:
            if item.error is not None:
                self.summary.dlq += 1
                self.metrics.count("dlq")
                self.metrics.dlq.inc()
                continue
            self.summary.done += 1
            output = item.output
            self.metrics.count(self.stage.outcome(output) if output is not None else "scored")
            if output is not None and self.stage.observe is not None:
                try:
                    self.stage.observe(output, self.metrics)
                except Exception:
                    log.exception("stage %s: observe failed", self.stage.name)

    async def _lag_loop(self, consumer: AIOKafkaConsumer) -> None:
        gauge = self.metrics.consumer_lag
        while True:
            try:
                lag = await consumer_lag(consumer)
            except Exception as e:
                log.debug("consumer lag not available: %s", e)
            else:
                by_label: dict[tuple[str, str], int] = {}
                for tp, value in lag.items():  # the generations of a rotated topic add up under its name
                    topic = base_topic(tp.topic) if self.settings.kafka_rotate else tp.topic
                    labels = (topic, str(tp.partition))
                    by_label[labels] = by_label.get(labels, 0) + value
                for labels, value in by_label.items():
                    gauge.labels(*labels).set(value)
                seen = set(by_label)
                for labels in self._lag_labels - seen:
                    with contextlib.suppress(KeyError):
                        gauge.remove(*labels)
                self._lag_labels = seen
            await asyncio.sleep(self.settings.lag_interval_s)

    @contextlib.contextmanager
    def _timed(self, step: Step) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.metrics.stage_seconds.labels(stage=step).observe(time.perf_counter() - start)
