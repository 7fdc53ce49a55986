"""``python -m factsentry worker`` as a real process: SIGTERM drains and summarises; SIGKILL loses nothing."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import redis.asyncio as aioredis

from bus.results import ResultStore
from factsentry.embedded import READY_TIMEOUT_S, free_port
from tests.conftest import REPO_ROOT
from tests.workers.conftest import MakeSettings
from tests.workers.helpers import generation, produce, read_topic, read_until
from workers import WorkerSettings


def settings_env(settings: WorkerSettings) -> dict[str, str]:
    """The environment that gives a worker process exactly ``settings``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FACTSENTRY_")}
    for name, value in settings.model_dump(exclude={"worker_id"}).items():
        if value is not None:
            env[f"FACTSENTRY_{name.upper()}"] = str(value)
    return env


def start_worker(settings: WorkerSettings, log: Path, *args: str) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "factsentry", "worker", *args],
            cwd=REPO_ROOT,
            env=settings_env(settings),
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )


async def scrape(port: int, name: str, timeout: float = 30.0, **labels: str) -> float:
    """The value of one sample on the worker's /metrics (0 until it is served)."""
    selector = name + ("{" + ",".join(f'{k}="{v}"' for k, v in sorted(labels.items())) + "}" if labels else "")
    async with httpx.AsyncClient(timeout=2) as client:
        try:
            text = (await client.get(f"http://127.0.0.1:{port}/metrics")).text
        except httpx.TransportError:
            return 0.0
    for line in text.splitlines():
        if line.startswith(selector + " "):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


async def wait_metric(port: int, name: str, at_least: float, timeout: float = READY_TIMEOUT_S, **labels: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while await scrape(port, name, **labels) < at_least:
        assert loop.time() < deadline, f"{name}{labels} did not reach {at_least}"
        await asyncio.sleep(0.1)


async def test_sigterm_drains_in_flight_work_and_logs_one_summary_line(
    make_settings: MakeSettings, tmp_path: Path
) -> None:
    port = free_port()
    settings = make_settings(batch_size=1, metrics_port=port, metrics_host="127.0.0.1")
    answers = ["a b", "c d e", "f"]
    records = [("s", generation(f"ok{i}", a).model_dump_json().encode()) for i, a in enumerate(answers)]
    records.append(("s", b'{"schema_version": 1}'))
    records.append(("s", generation("slow", "SLOW2 g h").model_dump_json().encode()))
    await produce(settings.kafka_bootstrap, settings.generations_topic, records)  # type: ignore[arg-type]
    log = tmp_path / "worker.log"
    proc = start_worker(settings, log, "--stage", "tests.workers.stages:word_count")
    try:
        # One record per batch: five decodes means the slow record is in the handler.
        await wait_metric(port, "factsentry_worker_stage_seconds_count", 5, stage="decode")
        assert await scrape(port, "factsentry_worker_records_total", outcome="scored") == 3
        assert await scrape(port, "factsentry_worker_dlq_total") == 1
        proc.send_signal(signal.SIGTERM)
        code = await asyncio.to_thread(proc.wait, 30)
    finally:
        if proc.poll() is None:
            proc.kill()
    text = log.read_text()
    summaries = [line for line in text.splitlines() if "shutdown on" in line]
    assert code == 0, text
    assert len(summaries) == 1, text
    assert summaries[0].endswith("shutdown on SIGTERM ◆ 4 done ◆ 1 dlq ◆ 0 failed ◆ 0 retries")
    out = await read_topic(settings.kafka_bootstrap, settings.results_topic, 4)
    assert sorted(r.key.decode() for r in out) == ["ok0", "ok1", "ok2", "slow"]


async def test_sigterm_stops_a_worker_whose_check_is_stuck_within_its_grace_period(
    make_settings: MakeSettings, tmp_path: Path
) -> None:
    port = free_port()
    settings = make_settings(batch_size=1, metrics_port=port, metrics_host="127.0.0.1", drain_timeout_s=2)
    await produce(
        settings.kafka_bootstrap,
        settings.generations_topic,
        [("s", generation("stuck", "STUCK600 a b").model_dump_json().encode())],  # type: ignore[list-item]
    )
    log = tmp_path / "worker.log"
    proc = start_worker(settings, log, "--stage", "tests.workers.stages:stuck")
    try:
        await wait_metric(port, "factsentry_worker_stage_seconds_count", 1, stage="decode")
        started = asyncio.get_running_loop().time()
        proc.send_signal(signal.SIGTERM)
        code = await asyncio.to_thread(proc.wait, 30)
        took = asyncio.get_running_loop().time() - started
    finally:
        if proc.poll() is None:
            proc.kill()
    text = log.read_text()
    assert code == 0, text
    assert took < 15, f"SIGTERM took {took:.1f} s with a check stuck for 600 s"
    assert "shutdown on SIGTERM ◆ 0 done ◆ 0 dlq ◆ 1 failed" in text
    assert "still running after the drain" in text


# Answers about the demo pages' people, in our own words; each request gets one of them.
CRASH_ANSWERS = [
    ("Dick Hanley", "Dick Hanley was an American swimmer born in 1936. He swam at the 1956 Summer Olympics."),
    ("Dick Hanley", "Dick Hanley coached football at Northwestern University from 1927 to 1934. He died in 1970."),
    ("John Stewart", "John Stewart was a folk singer who joined the Kingston Trio in 1961."),
    ("Joseph F. Smith", "Joseph F. Smith led the LDS Church. He was born in 1838."),
]


async def test_worker_killed_mid_batch_loses_no_record(
    make_settings: MakeSettings, demo_kb: Path, tmp_path: Path
) -> None:
    settings = make_settings(
        stage="scoring",
        kb_path=demo_kb,
        batch_size=4,
        concurrency=1,
        metrics_port=free_port(),
        metrics_host="127.0.0.1",
    )
    # Enough records that a worker scraped slowly on a busy machine cannot finish them all before the kill.
    ids = [f"id{i:03d}" for i in range(400)]
    records = []
    for i, rid in enumerate(ids):
        name, answer = CRASH_ANSWERS[i % len(CRASH_ANSWERS)]
        records.append((rid, generation(rid, answer, name=name).model_dump_json().encode()))
    await produce(settings.kafka_bootstrap, settings.generations_topic, records)  # type: ignore[arg-type]
    log = tmp_path / "worker.log"
    first = start_worker(settings, log)
    try:
        await wait_metric(settings.metrics_port, "factsentry_worker_records_total", 8, outcome="scored")
        first.send_signal(signal.SIGKILL)
        await asyncio.to_thread(first.wait, 10)
    finally:
        if first.poll() is None:
            first.kill()
    before = await read_topic(settings.kafka_bootstrap, settings.results_topic, len(ids), 2)
    done_before = {r.key.decode() for r in before}
    assert 8 <= len(done_before) < len(ids), "the worker must die with records still to do"

    second = start_worker(settings.model_copy(update={"metrics_port": free_port()}), log)
    try:
        out = await read_until(
            settings.kafka_bootstrap, settings.results_topic, lambda rs: {r.key.decode() for r in rs} >= set(ids), 90
        )
    finally:
        second.send_signal(signal.SIGTERM)
        await asyncio.to_thread(second.wait, 30)
    assert {r.key.decode() for r in out} == set(ids), log.read_text()
    client = aioredis.from_url(settings.redis_url)
    try:
        stored = ResultStore(client, settings.redis_prefix)
        in_redis = [await stored.get(rid) for rid in ids]
    finally:
        await client.aclose()
    assert all(r is not None and r.request_id == rid for r, rid in zip(in_redis, ids, strict=True))
    assert all(r is not None and r.check.factscore is not None for r in in_redis)
    assert re.search(r"shutdown on SIGTERM ◆ \d+ done ◆ 0 dlq ◆ 0 failed", log.read_text())
