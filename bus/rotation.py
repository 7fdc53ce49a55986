"""Topic generations: how the embedded stack bounds a broker that keeps every record.

tansu 0.6 (the embedded broker) keeps every record of its memory engine for its lifetime: it never applies
``retention.ms`` and answers DeleteRecords with a panic, but deleting a topic frees its memory. So with
``FACTSENTRY_KAFKA_ROTATE`` on (``factsentry up`` sets it for its own broker only) a topic ``T`` is written as
generations ``T.g1``, ``T.g2``, …: producers write to the newest generation, consumers subscribe to the
pattern ``T`` or ``T.g<N>``, and :class:`Rotator` (a task of ``factsentry up``) opens a new generation once the
newest one holds ``max_records`` records or is ``max_age_s`` old, and deletes an older one only when

- no producer has written to it for ``grace_s`` seconds and a newer generation has existed that long
  (producers look for the newest generation every few seconds: past the grace no one still writes there), and
- every consumer group that reads it has committed its end: its ``readers`` (the workers' group for the
  generations; none for the results, which only replay reads, without a group) on every partition holding
  records, and any other group the broker lists that has committed on it.

``T`` itself is never deleted (the clients watch it to notice a broker that restarted empty) and stays empty
while generations exist. A real Kafka deployment does not rotate: its topics keep its own retention.

A deleted generation must not come back. tansu creates a topic that a Metadata request names (as Kafka does
with ``auto.create.topics.enable``); a Metadata request for every topic, a Fetch or an OffsetFetch on a deleted
topic create nothing. aiokafka 0.14's pattern-subscribed consumers ask for every topic, but two clients named
the generations they had used:

- a consumer assigned to partitions names their topics: the rotator measured the generations' ends with one,
  kept it assigned while it deleted them, and its next refresh brought them back. The consumer that reads the
  ends stops before anything is deleted.
- a producer names every topic it has ever sent to: the gateway's and the workers' producers brought back the
  generations they had written to at their first send to a newer one (g2 of both topics, deleted, was back at
  the first record on g4). :class:`WrittenGeneration` drops a generation from its producer's list one broker
  check after the producer moved on.

A generation that is back all the same (a client outside factsentry that asked for it by name) is empty and
deleted again after the grace; the rotator counts it in ``recreated`` and says so.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import re
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.errors import TopicAlreadyExistsError

from bus.kafka import make_admin, make_consumer
from bus.settings import BusSettings

log = logging.getLogger(__name__)

_SUFFIX = re.compile(r"\.g([0-9]+)$")


def generation_topic(base: str, n: int) -> str:
    """The ``n``-th generation of ``base``: ``generation_topic("t", 3) == "t.g3"``."""
    return f"{base}.g{n}"


def generation_of(base: str, name: str) -> int | None:
    """The generation number of topic ``name`` if it is a generation of ``base``, else None."""
    if not name.startswith(base + "."):
        return None
    found = _SUFFIX.fullmatch(name[len(base) :])
    return int(found.group(1)) if found else None


def generation_pattern(base: str) -> str:
    """The regular expression of ``base`` and all its generations (a consumer's pattern subscription)."""
    return f"^{re.escape(base)}(\\.g[0-9]+)?$"


def base_topic(name: str) -> str:
    """``name`` without its generation suffix (``t.g3`` → ``t``)."""
    return _SUFFIX.sub("", name)


def newest_generation(base: str, names: Collection[str]) -> str | None:
    """The newest generation of ``base`` among ``names`` (None when there is none)."""
    found = [(n, name) for name in names if (n := generation_of(base, name)) is not None]
    return max(found)[1] if found else None


class WrittenGeneration:
    """The generation of ``base`` a producer writes to, followed from the broker's topic list at each check, with
    the producer's Metadata requests kept to the generations it still writes.

    aiokafka 0.14's producer names every topic it has ever sent to in each of its Metadata requests (when it first
    sends to a topic it has no metadata for, and every ``metadata_max_age_ms``), and tansu creates a topic that a
    Metadata request names: a gateway or a worker that had written to a generation brought it back after its
    deletion at its first send to the next one. So the generation a producer left is dropped from its list at
    the check after the one that moved it on (batches sent to it just before the move are delivered meanwhile),
    long before the rotator may delete it (``grace_s`` after its last record).

    Example::

        written = WrittenGeneration(settings.generations_topic)
        topic = written.update(await admin.list_topics(), producer)  # at every broker check
        await producer.send(topic, value)
    """

    def __init__(self, base: str) -> None:
        self.base = base
        self.topic = base
        # The generation left at the last check: still named until the next one.
        self.left: str | None = None

    def update(self, names: Collection[str], producer: AIOKafkaProducer | None) -> str:
        """Move to the newest generation among ``names`` (the topics the broker lists; ``base`` while it has
        none), drop the generations written before from ``producer``'s Metadata requests; returns the topic."""
        newest = newest_generation(self.base, names) or self.topic
        self.left = None
        if newest != self.topic:
            self.left, self.topic = self.topic, newest
        if producer is not None:
            named: set[str] = producer.client._topics
            stale = {t for t in named if generation_of(self.base, t) is not None and t not in (self.topic, self.left)}
            if stale:
                # A smaller list asks the broker for nothing now; an empty one is every topic, which creates none.
                producer.client.set_topics(sorted(named - stale))
        return self.topic


def generations(base: str, names: Collection[str]) -> list[str]:
    """``base`` and its generations among ``names``, oldest first (``base`` itself counts as generation 0)."""
    found = [(0, base)] if base in names else []
    found += [(n, name) for name in names if (n := generation_of(base, name)) is not None]
    return [name for _, name in sorted(found)]


@dataclass
class _Seen:
    """What the rotator knows of one generation topic: when it first saw it, its end offsets, when they moved."""

    since: float
    ends: dict[int, int] = field(default_factory=dict)
    moved: float = 0.0


class Rotator:
    """Opens new generations of ``topics`` (base name → partitions) and deletes consumed old ones (see the
    module's docstring). :meth:`step` does one round and returns what it did, one line per action;
    :meth:`run` steps every ``interval_s`` until cancelled."""

    def __init__(
        self,
        settings: BusSettings,
        topics: dict[str, int],
        readers: dict[str, list[str]],
        *,
        max_records: int = 10_000,
        max_age_s: float = 300.0,
        grace_s: float = 30.0,
        interval_s: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings
        self.topics = topics
        self.readers = readers
        self.max_records = max_records
        self.max_age_s = max_age_s
        self.grace_s = grace_s
        self.interval_s = interval_s
        self.clock = clock
        self.seen: dict[str, _Seen] = {}
        # Every generation deleted (oldest first), and those found again after their deletion (see the module's
        # docstring): each is empty and deleted again.
        self.deleted: list[str] = []
        self.recreated: list[str] = []

    async def run(self) -> None:
        while True:
            try:
                for line in await self.step():
                    log.info("%s", line)
            except Exception as e:  # the broker may be restarting: try again next round
                log.warning("topic rotation: %s", e)
            except asyncio.CancelledError:
                # A client of a broker killed under it can let a CancelledError out of its own waits; only a
                # cancel of this task stops the rotation (else it would end silently and memory grow unbounded).
                task = asyncio.current_task()
                if task is None or task.cancelling():
                    raise
                log.warning("topic rotation: a client's wait was cancelled (broker restarting?); next round")
            await asyncio.sleep(self.interval_s)

    async def ensure_first(self) -> list[str]:
        """Create generation 1 of every topic that has no generation yet (a new or restarted broker)."""
        admin = make_admin(self.settings)
        await admin.start()
        try:
            names = set(await admin.list_topics())
            missing = {generation_topic(b, 1): n for b, n in self.topics.items() if newest_generation(b, names) is None}
            await _create(admin, missing)
        finally:
            await admin.close()
        return [f"created {name}" for name in sorted(missing)]

    async def step(self) -> list[str]:
        said = await self.ensure_first()
        now = self.clock()
        consumer = make_consumer(self.settings, group_id=None)
        await consumer.start()
        try:
            # Every topic with its partitions (consumer.topics() names them but leaves the client's own metadata,
            # which partitions_for_topic reads, to the topics it already knew).
            cluster = await consumer._client.fetch_all_metadata()
        finally:
            await consumer.stop()
        partitions = {t: cluster.partitions_for_topic(t) or set() for t in cluster.topics()}
        return said + await self._rotate(partitions, now)

    async def _rotate(self, names: dict[str, set[int]], now: float) -> list[str]:
        said: list[str] = []
        for gone in [name for name in self.seen if name not in names]:  # deleted, or lost with a broker restart
            del self.seen[gone]
        deleted = set(self.deleted)
        for back in sorted(name for name in names if name in deleted and name not in self.seen):
            self.recreated.append(back)  # seen again from here on: counted once per return
            said.append(f"{back} is back after its deletion: a client named it in a Metadata request")
        for base, partitions in self.topics.items():
            gens = [name for name in generations(base, names) if name != base]
            if not gens:
                continue
            for name, ends in (
                await _ends(
                    self.settings,
                    {g: names[g] for g in gens},
                    {g: self.seen[g].ends if g in self.seen else {} for g in gens},
                )
            ).items():
                seen = self.seen.setdefault(name, _Seen(since=now, ends=ends, moved=now))
                if ends != seen.ends:
                    seen.ends, seen.moved = ends, now
            newest = gens[-1]
            held = sum(self.seen[newest].ends.values())
            age = now - self.seen[newest].since
            if held >= self.max_records or (held and age >= self.max_age_s):
                following = generation_topic(base, (generation_of(base, newest) or 0) + 1)
                admin = make_admin(self.settings)
                await admin.start()
                try:
                    await _create(admin, {following: partitions})
                finally:
                    await admin.close()
                self.seen[following] = _Seen(since=now, moved=now)
                said.append(f"created {following} ({held} records in {newest}, {age:.0f} s old)")
                newest = following
            chain = [*gens, newest] if newest != gens[-1] else gens
            for name, newer in itertools.pairwise(chain):
                seen = self.seen[name]
                if now - seen.moved < self.grace_s or now - self.seen[newer].since < self.grace_s:
                    continue  # a producer may still write there
                waiting = await self.unconsumed(name, seen.ends, self.readers.get(base, []))
                if waiting:
                    continue
                admin = make_admin(self.settings)
                await admin.start()
                try:
                    await admin.delete_topics([name])
                finally:
                    await admin.close()
                self.seen.pop(name, None)
                self.deleted.append(name)
                said.append(f"deleted {name} ({sum(seen.ends.values())} records, consumed by every group)")
        return said

    async def unconsumed(self, name: str, ends: dict[int, int], readers: list[str]) -> list[str]:
        """The groups that have not committed the end of every partition of ``name`` holding records: the
        ``readers`` (groups that must read it), and any other the broker lists that committed something on it."""
        if not any(ends.values()):
            return []
        admin = make_admin(self.settings)
        await admin.start()
        try:
            listed = [group for group, _ in await admin.list_consumer_groups()]
        finally:
            await admin.close()
        waiting = []
        for group in dict.fromkeys([*readers, *listed]):
            committed = await _committed(self.settings, group, name, list(ends))
            if group not in readers and all(c is None for c in committed.values()):
                continue  # a group that does not read this topic
            if any(end and (committed.get(p) or 0) < end for p, end in ends.items()):
                waiting.append(group)
        return waiting


async def _ends(
    settings: BusSettings, partitions: dict[str, set[int]], known: dict[str, dict[int, int]]
) -> dict[str, dict[int, int]]:
    """:func:`_read_ends` with a consumer of its own, stopped before the rotator deletes anything: a consumer
    assigned to a topic names it in its Metadata requests, and one that named it after its deletion would
    re-create it (the module's docstring)."""
    consumer = make_consumer(settings, group_id=None, fetch_max_wait_ms=100)
    await consumer.start()
    try:
        return await _read_ends(consumer, partitions, known)
    finally:
        await consumer.stop()


async def _read_ends(
    consumer: AIOKafkaConsumer, partitions: dict[str, set[int]], known: dict[str, dict[int, int]]
) -> dict[str, dict[int, int]]:
    """The offset after the last record of each of ``partitions`` (topic → partition numbers), read from the
    records themselves; ``known``: the ends found last time (topic → partition → end).

    tansu 0.6 answers ListOffsets (latest) with less than the end when the last batches held several records
    (8 records, offsets 0-7, reported as ending at 5): a group that committed that "end" would still have
    records to read. So the records past the reported end (or past the end found last time) are fetched, until
    a fetch the broker answers within 100 ms (``fetch_max_wait_ms`` of the rotator's consumer) brings nothing
    for a whole second.
    """
    tps = [TopicPartition(t, p) for t, numbers in partitions.items() for p in sorted(numbers)]
    if not tps:
        return {t: {} for t in partitions}
    reported = await consumer.end_offsets(tps)
    consumer.assign(tps)
    ends: dict[str, dict[int, int]] = {t: {} for t in partitions}
    for tp in tps:
        end = ends[tp.topic][tp.partition] = max(reported[tp], known.get(tp.topic, {}).get(tp.partition, 0))
        consumer.seek(tp, max(0, end - 1))
    while batch := await consumer.getmany(timeout_ms=1000, max_records=1000):
        for tp, records in batch.items():
            if records:
                ends[tp.topic][tp.partition] = max(ends[tp.topic][tp.partition], records[-1].offset + 1)
    return ends


async def _committed(settings: BusSettings, group: str, topic: str, partitions: list[int]) -> dict[int, int | None]:
    # aiokafka's admin OffsetFetch is not understood by tansu 0.6 (it drops the connection); a consumer of the
    # group asks in the version tansu answers. It only reads: it never joins the group.
    consumer = make_consumer(settings, group_id=group)
    await consumer.start()
    try:
        return {p: await consumer.committed(TopicPartition(topic, p)) for p in partitions}
    finally:
        await consumer.stop()


async def _create(admin: AIOKafkaAdminClient, topics: dict[str, int]) -> None:
    if not topics:
        return
    try:
        await admin.create_topics([NewTopic(name, n, 1) for name, n in topics.items()])
    except TopicAlreadyExistsError:
        pass
