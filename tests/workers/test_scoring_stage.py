"""The scoring stage end to end on the real broker and valkey, with the real pipeline and the demo knowledge store."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from bus.results import ResultStore
from knowledge.documents import DocumentSource
from knowledge.store import Store
from schemas.messages import ResultMessage
from scoring.pipeline import check
from tests.workers.conftest import MakeSettings
from tests.workers.helpers import generation, produce, read_topic
from tests.workers.test_runner import RunningWorker
from workers.scoring_stage import question_of

# Answers written for these tests from the demo pages' facts.
ANSWERS = [
    pytest.param(
        "merged",
        "Dick Hanley was an American swimmer born in 1936. He won a silver medal in the freestyle relay at the "
        "1956 Summer Olympics in Melbourne. He later coached football at Northwestern University and died in 1970.",
        {"name": "Dick Hanley"},
        id="merged-bio",
    ),
    pytest.param(
        "single",
        "John Stewart was an American folk singer and songwriter. He joined the Kingston Trio in 1961 and wrote "
        "the song Daydream Believer.",
        {"messages": [{"role": "user", "content": "Who was John Stewart, the folk singer?"}]},
        id="question-from-messages",
    ),
    pytest.param("abstained", "I could not find any information about Gavin Hamilton.", {}, id="abstention"),
    pytest.param(
        "grounded",
        "The Orrin tide gauge was installed in 1911 and has recorded sea levels since 1925.",
        {
            "documents": [
                {"title": "Orrin tide gauge", "text": "The Orrin tide gauge was installed in 1911 on the north pier."},
                {"title": "Orrin tide gauge", "text": "The Orrin gauge has recorded sea levels since 1925."},
            ]
        },
        id="request-documents",
    ),
]


@pytest.mark.parametrize("executor", ["thread", "process"])
async def test_generations_get_verdicts_on_the_topic_and_in_redis(
    make_settings: MakeSettings, demo_kb: Path, executor: str
) -> None:
    settings = make_settings(stage="scoring", kb_path=demo_kb, executor=executor, concurrency=2)
    answers = {p.values[0]: (p.values[1], p.values[2]) for p in ANSWERS}
    records = [
        (rid, generation(rid, text, **fields).model_dump_json().encode()) for rid, (text, fields) in answers.items()
    ]
    await produce(settings.kafka_bootstrap, settings.generations_topic, records)  # type: ignore[arg-type]
    worker = RunningWorker(settings)
    client = aioredis.from_url(settings.redis_url)
    try:
        results_store = ResultStore(client, settings.redis_prefix, settings.result_ttl_s)
        waited = await asyncio.gather(*(results_store.wait(rid, timeout=120) for rid in answers))
        on_topic = await read_topic(settings.kafka_bootstrap, settings.results_topic, len(answers))
        ttl = await client.ttl(f"{settings.redis_prefix}:result:merged")
    finally:
        await client.aclose()
        summary = await worker.stop()
    by_key = {r.key.decode(): ResultMessage.model_validate_json(r.value) for r in on_topic}
    assert set(by_key) == set(answers)
    with Store.open(demo_kb) as store:
        for rid, result in zip(answers, waited, strict=True):
            assert result is not None
            text, fields = answers[rid]
            message = generation(rid, text, **fields)
            documents = [(d.title, d.text) for d in message.documents]
            kb = DocumentSource.of(documents) if documents else store
            expected = check(text, kb=kb, name=message.name, question=question_of(message))
            assert result.check.grounding == ("documents" if documents else "store")
            assert by_key[rid].check == result.check
            assert (result.request_id, result.model, result.worker) == (rid, "test-model", settings.worker_id)
            assert (result.check.abstained, result.check.factscore, result.check.dfactscore) == (
                expected.abstained,
                expected.factscore,
                expected.dfactscore,
            )
            assert (result.check.num_bios, result.check.num_entities) == (expected.num_bios, expected.num_entities)
            assert result.scoring_ms > 0
    assert 0 < ttl <= settings.result_ttl_s
    assert waited[2] is not None and waited[2].check.abstained
    assert waited[3] is not None and waited[3].check.dfactscore == 1.0  # both chunks are one page
    assert (summary.done, summary.dlq, summary.failed) == (4, 0, 0)
    assert worker.metric("factsentry_worker_records_total", outcome="scored") == 3
    assert worker.metric("factsentry_worker_records_total", outcome="abstained") == 1
    assert worker.metric("factsentry_worker_factscore_count", source="proxy", model="test-model") == 3
    facts = sum(len(g.facts) for r in waited if r is not None for g in r.check.groups)
    counted = sum(
        s.value
        for m in worker.registry.collect()
        if m.name == "factsentry_worker_facts"
        for s in m.samples
        if s.name == "factsentry_worker_facts_total"
    )
    assert facts > 0 and counted == facts


async def test_a_verdict_is_delivered_when_scored_not_when_its_batch_is(make_settings: MakeSettings) -> None:
    """Two generations fetched together, one slow to check: the quick one's waiter wakes while the slow
    one is still checking; each is written once, so the batch's own delivery afterwards skips both."""
    from concurrent.futures import ThreadPoolExecutor
    from time import sleep

    from prometheus_client import CollectorRegistry

    from schemas.check import CheckResult
    from workers.metrics import make_metrics
    from workers.scoring_stage import score_batch, store_results
    from workers.stage import Context

    release = asyncio.Event()
    loop = asyncio.get_running_loop()

    def score(
        text: str, name: str | None, question: str | None, engine: str | None, documents: object
    ) -> tuple[CheckResult, float]:
        if text.startswith("slow"):
            sleep(0.05)
            while not release.is_set():  # held until the test has seen the quick verdict
                sleep(0.01)
        return CheckResult(factscore=1.0, dfactscore=1.0), 1.0

    settings = make_settings(stage="scoring")
    client = aioredis.from_url(settings.redis_url)
    executor = ThreadPoolExecutor(2)
    ctx = Context(settings, client, make_metrics(CollectorRegistry()))
    ctx.state.update(executor=executor, score=score)
    ctx.state["results"] = store = ResultStore(client, settings.redis_prefix, settings.result_ttl_s)
    try:
        batch = asyncio.create_task(
            score_batch([generation("quick", "quick text"), generation("slow", "slow text")], ctx)
        )
        quick = await store.wait("quick", timeout=10)
        assert quick is not None and not batch.done()  # delivered while its batch-mate is still checking
        assert await store.get("slow") is None
        loop.call_soon_threadsafe(release.set)
        results = await asyncio.wait_for(batch, 10)
        assert [r.request_id for r in results if isinstance(r, ResultMessage)] == ["quick", "slow"]
        assert ctx.state["delivered_early"] == {"quick", "slow"}
        await store_results([r for r in results if isinstance(r, ResultMessage)], ctx)
        assert ctx.state["delivered_early"] == set()
        assert (await store.get("slow")) is not None
    finally:
        release.set()
        executor.shutdown(wait=True)
        await client.aclose()


async def test_answers_held_for_their_verdict_are_checked_before_observed_ones(make_settings: MakeSettings) -> None:
    """One scoring slot and a batch of observed answers with a blocked and an annotated one among them: the two
    a gateway holds back start first (in batch order), the observed ones after; results keep the batch's order."""
    from concurrent.futures import ThreadPoolExecutor

    from prometheus_client import CollectorRegistry

    from schemas.check import CheckResult
    from schemas.enums import Policy
    from workers.metrics import make_metrics
    from workers.scoring_stage import score_batch
    from workers.stage import Context

    started: list[str] = []

    def score(
        text: str, name: str | None, question: str | None, engine: str | None, documents: object
    ) -> tuple[CheckResult, float]:
        started.append(text)
        return CheckResult(factscore=1.0, dfactscore=1.0), 1.0

    settings = make_settings(stage="scoring")
    client = aioredis.from_url(settings.redis_url)
    executor = ThreadPoolExecutor(1)
    ctx = Context(settings, client, make_metrics(CollectorRegistry()))
    ctx.state.update(executor=executor, score=score)
    ctx.state["results"] = ResultStore(client, settings.redis_prefix, settings.result_ttl_s)
    batch = [
        generation("o1", "observed 1"),
        generation("o2", "observed 2", policy=Policy.OBSERVE),
        generation("b", "blocked", policy=Policy.BLOCK),
        generation("o3", "observed 3"),
        generation("a", "annotated", policy=Policy.ANNOTATE, source="factcheck"),
    ]
    try:
        results = await score_batch(batch, ctx)
    finally:
        executor.shutdown(wait=True)
        await client.aclose()
    assert started == ["blocked", "annotated", "observed 1", "observed 2", "observed 3"]
    assert [r.request_id for r in results if isinstance(r, ResultMessage)] == ["o1", "o2", "b", "o3", "a"]
