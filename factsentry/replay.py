"""Re-score past traffic: the generations of a time window, checked again, beside their live verdicts.

After a change of the knowledge store or of the checker, a drop of the live scores is either the
models drifting or the checker judging differently. ``replay`` tells them apart: it reads the
generations the gateway published between two times (each partition sought by timestamp), checks
each again with the given store and engine, produces the verdicts to a results topic of their own
(``factsentry.results.replay.v1`` by default, each one carrying ``run``, never to Redis or the live
results topic), and sets them beside the live verdicts of the same requests, per model.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from typing import Any

from aiokafka import AIOKafkaConsumer, TopicPartition
from prometheus_client import CollectorRegistry, Counter, Gauge
from pydantic import ValidationError

from bus.kafka import ensure_topics, make_consumer, make_producer
from bus.rotation import generations
from bus.settings import BusSettings
from schemas.check import CheckResult
from schemas.messages import GenerationMessage, ResultMessage

REPLAY_TOPIC = "factsentry.results.replay.v1"
# Live verdicts come after their generation: the results topic is read this far past the window.
RESULT_LAG_MS = 15 * 60 * 1000

Check = Callable[[GenerationMessage], CheckResult]


@dataclass
class ModelFigures:
    answers: int = 0
    live: list[float] = field(default_factory=list)  # D-FActScore, requests with both verdicts
    replay: list[float] = field(default_factory=list)
    replay_all: list[float] = field(default_factory=list)
    no_live: int = 0
    status_changed: int = 0
    score_changed: int = 0  # |replay - live| >= 0.01

    def add(self, other: ModelFigures) -> None:
        """Counts summed, score lists joined: the figures of every model as one."""
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def summary(self) -> dict[str, Any]:
        def mean(values: list[float]) -> float | None:
            return round(statistics.fmean(values), 4) if values else None

        live, replay = mean(self.live), mean(self.replay)
        return {
            "answers": self.answers,
            "compared": len(self.live),
            "no_live_verdict": self.no_live,
            "live_dfactscore": live,
            "replay_dfactscore": replay,
            "delta": None if live is None or replay is None else round(replay - live, 4),
            "replay_dfactscore_all": mean(self.replay_all),
            "score_changed": self.score_changed,
            "status_changed": self.status_changed,
        }


@dataclass
class ReplayMetrics:
    answers: Counter
    dfactscore: Gauge

    @classmethod
    def build(cls, registry: CollectorRegistry) -> ReplayMetrics:
        return cls(
            answers=Counter(
                "factsentry_replay_answers_total",
                "Generations re-scored by a replay run",
                ["run", "model", "status"],
                registry=registry,
            ),
            dfactscore=Gauge(
                "factsentry_replay_dfactscore_mean",
                "Mean D-FActScore of a replay run's answers (side=replay) and of the same answers' live verdicts"
                " (side=live), per model",
                ["run", "model", "side"],
                registry=registry,
            ),
        )


def parse_time(text: str, now: datetime | None = None) -> datetime:
    """ISO 8601 (``2026-11-23T18:00:00Z``; no zone means UTC), ``now``, or an age: ``90m``, ``2h``, ``7d``."""
    now = now or datetime.now(UTC)
    text = text.strip()
    if text == "now":
        return now
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    if text[:-1].isdigit() and text[-1:] in units:
        return datetime.fromtimestamp(now.timestamp() - int(text[:-1]) * units[text[-1]], UTC)
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"{text!r} is not a time: use ISO 8601 (2026-11-23T18:00:00Z), now, or an age (2h)") from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


async def _window(
    settings: BusSettings, topic: str, start_ms: int, end_ms: int
) -> list[tuple[int, bytes | None, bytes | None]]:
    """(timestamp, key, value) of every record of ``topic`` stamped within [start_ms, end_ms], read from the
    topic and from each of its generations (a rotating embedded broker, bus/rotation.py: only the generations
    not yet deleted are there)."""
    consumer = make_consumer(settings, group_id=None)
    await consumer.start()
    try:
        names = generations(topic, await consumer.topics()) or [topic]
    finally:
        await consumer.stop()
    records = []
    for name in names:
        # A consumer for each: one assigned to a topic asks the broker for that topic's metadata only, so it
        # would find no partitions of the next generation (and read none of it).
        consumer = make_consumer(settings, group_id=None)
        await consumer.start()
        try:
            records += await _read_window(consumer, name, start_ms, end_ms)
        finally:
            await consumer.stop()
    return records


async def _read_window(
    consumer: AIOKafkaConsumer, topic: str, start_ms: int, end_ms: int
) -> list[tuple[int, bytes | None, bytes | None]]:
    partitions = consumer.partitions_for_topic(topic) or set()
    if not partitions:
        await consumer._client.force_metadata_update()  # a topic the consumer has not seen yet
        partitions = consumer.partitions_for_topic(topic) or set()
    tps = [TopicPartition(topic, p) for p in sorted(partitions)]
    if not tps:
        return []
    consumer.assign(tps)
    starts = await consumer.offsets_for_times({tp: start_ms for tp in tps})
    ends = await consumer.end_offsets(tps)
    todo = {}
    for tp in tps:
        found = starts.get(tp)
        if found is None or found.offset >= ends[tp]:
            continue  # nothing stamped at or after the start
        consumer.seek(tp, found.offset)
        todo[tp] = ends[tp]
    records: list[tuple[int, bytes | None, bytes | None]] = []
    while todo:
        batch = await consumer.getmany(*todo, timeout_ms=1000, max_records=500)
        for tp, messages in batch.items():
            for m in messages:
                if m.offset >= todo.get(tp, -1):
                    continue
                if m.timestamp <= end_ms:
                    records.append((m.timestamp, m.key, m.value))
                if m.offset + 1 >= todo[tp] or m.timestamp > end_ms:
                    todo.pop(tp, None)  # the partition's end, or past the window (timestamps grow)
                    break
    return records


async def stored_verdicts(settings: BusSettings, start_ms: int, end_ms: int) -> list[ResultMessage]:
    """The live verdicts on the results topic stamped within [start_ms, end_ms], unreadable records left out."""
    verdicts = []
    for _, _, value in await _window(settings, settings.results_topic, start_ms, end_ms):
        try:
            verdicts.append(ResultMessage.model_validate_json(value or b""))
        except ValidationError:
            continue
    return verdicts


async def replay(
    settings: BusSettings,
    check: Check,
    start: datetime,
    end: datetime,
    run: str,
    results_topic: str = REPLAY_TOPIC,
    registry: CollectorRegistry | None = None,
    progress: Callable[[str], None] | None = None,
    limit: int | None = None,
    pairs: list[tuple[ResultMessage, ResultMessage]] | None = None,
) -> dict[str, Any]:
    """Re-score the generations of [start, end]; returns the comparison (per model and overall).

    ``pairs``, when given, receives (live verdict, fresh verdict) for every request that has both.
    """
    start_ms, end_ms = int(start.timestamp() * 1000), int(end.timestamp() * 1000)
    metrics = ReplayMetrics.build(registry or CollectorRegistry())
    generations = await _window(settings, settings.generations_topic, start_ms, end_ms)
    live = {r.request_id: r for r in await stored_verdicts(settings, start_ms, end_ms + RESULT_LAG_MS)}
    await ensure_topics(settings, {results_topic: 1})
    producer = make_producer(settings)
    await producer.start()
    figures: dict[str, ModelFigures] = {}
    skipped = 0
    started = time.perf_counter()
    try:
        generations.sort(key=lambda r: r[0])
        for i, (_, _, raw) in enumerate(generations[:limit] if limit else generations):
            try:
                message = GenerationMessage.model_validate_json(raw or b"")
            except ValidationError:
                skipped += 1  # the live worker dead-lettered it too
                continue
            t0 = time.perf_counter()
            checked = check(message)
            result = ResultMessage(
                request_id=message.request_id,
                model=message.model,
                check=checked,
                scored_at=datetime.now(UTC),
                worker=f"replay:{run}",
                scoring_ms=round((time.perf_counter() - t0) * 1000, 3),
                tenant=message.tenant,
                source=message.source,
                run=run,
            )
            await producer.send_and_wait(
                results_topic, result.model_dump_json().encode(), key=message.request_id.encode()
            )
            before = live.get(message.request_id)
            _count(figures.setdefault(message.model, ModelFigures()), result, before)
            if pairs is not None and before is not None:
                pairs.append((before, result))
            metrics.answers.labels(run, message.model, checked.status).inc()
            if progress and (i + 1) % 50 == 0:
                progress(f"{i + 1}/{len(generations)} re-scored")
    finally:
        await producer.stop()
    models = {model: f.summary() for model, f in sorted(figures.items())}
    for model, summary in models.items():
        for side in ("live", "replay"):
            if summary[f"{side}_dfactscore"] is not None:
                metrics.dfactscore.labels(run, model, side).set(summary[f"{side}_dfactscore"])
    total = ModelFigures()
    for f in figures.values():
        total.add(f)
    return {
        "run": run,
        "from": start.isoformat(),
        "to": end.isoformat(),
        "results_topic": results_topic,
        "generations": len(generations),
        "skipped_invalid": skipped,
        "seconds": round(time.perf_counter() - started, 2),
        "overall": total.summary(),
        "models": models,
    }


def _count(f: ModelFigures, result: ResultMessage, live: ResultMessage | None) -> None:
    f.answers += 1
    now = result.check.dfactscore
    if now is not None:
        f.replay_all.append(now)
    if live is None:
        f.no_live += 1
        return
    before = live.check.dfactscore
    if live.check.status != result.check.status:
        f.status_changed += 1
    if before is not None and now is not None:
        f.live.append(before)
        f.replay.append(now)
        if abs(now - before) >= 0.01:
            f.score_changed += 1
