"""The whole path: openai client → gateway (uvicorn) → mock upstream → Kafka → worker → Redis → client.

The worker runs in-process with the real scoring pipeline over the demo knowledge base; the
broker and valkey are the session's real servers.
"""

from __future__ import annotations

import asyncio

import httpx
import openai
from aiokafka import AIOKafkaConsumer

from schemas.messages import ResultMessage
from tests.gateway.conftest import FAITHFUL, MERGED, StartStack, ask


async def results_on_topic(bootstrap: str, topic: str, ids: set[str], wait_s: float = 30.0) -> dict[str, ResultMessage]:
    consumer = AIOKafkaConsumer(topic, bootstrap_servers=bootstrap, group_id=None, auto_offset_reset="earliest")
    await consumer.start()
    found: dict[str, ResultMessage] = {}
    try:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait_s
        while loop.time() < deadline and not ids <= found.keys():
            for records in (await consumer.getmany(timeout_ms=500)).values():
                for record in records:
                    result = ResultMessage.model_validate_json(record.value)
                    found[result.request_id] = result
    finally:
        await consumer.stop()
    return found


async def test_observe_answer_gets_a_verdict_in_redis_and_on_the_results_topic(
    start_stack: StartStack, kafka_bootstrap: str
) -> None:
    gw = await start_stack()
    request_id, completion, _ = await ask(gw, MERGED)
    assert completion.choices[0].message.content == MERGED.answer
    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        body = None
        for _ in range(600):
            response = await http.get(f"/v1/results/{request_id}")
            if response.status_code == 200:
                body = response.json()
                break
            await asyncio.sleep(0.2)
    assert body is not None, "no verdict within 120 s"
    check = body["check"]
    assert check["num_bios"] == 1
    assert check["num_entities"] == 2
    assert check["factscore"] >= 0.9
    assert check["dfactscore"] <= 0.7
    assert any(group["conflated"] for group in check["groups"])
    # Every fact says what decided it (the stance model or a named rule), in Redis and on the topic.
    deciders = [fact["decided_by"] for group in check["groups"] for fact in group["facts"]]
    assert deciders and all(deciders) and "model" in deciders
    on_topic = await results_on_topic(kafka_bootstrap, gw.settings.results_topic, {request_id})
    assert on_topic[request_id].check.dfactscore == check["dfactscore"]
    assert [f.decided_by for g in on_topic[request_id].check.groups for f in g.facts] == deciders


async def test_block_blocks_the_merged_biography_and_passes_the_faithful_one(start_stack: StartStack) -> None:
    gw = await start_stack({"default": {"mode": "block", "threshold": 0.75, "timeout_s": 120}})
    _, blocked, headers = await ask(gw, MERGED)
    assert headers["x-factsentry-action"] == "block"
    assert blocked.choices[0].finish_reason == "content_filter"
    assert "1970" not in (blocked.choices[0].message.content or "")
    assert float(headers["x-factsentry-dfactscore"]) < 0.75
    # OpenAI's conventions: the refusal is in message.refusal, content null; the verdict says flagged, like moderation.
    assert blocked.choices[0].message.content is None
    assert "merges different people" in (blocked.choices[0].message.refusal or "")
    verdict = blocked.model_extra["factsentry"]  # type: ignore[index]
    assert verdict["flagged"] is True and verdict["result_url"] == f"/v1/results/{verdict['request_id']}"
    _, passed, headers = await ask(gw, FAITHFUL)
    assert headers["x-factsentry-action"] == "pass"
    assert passed.choices[0].message.content == FAITHFUL.answer
    assert passed.choices[0].message.refusal is None
    assert passed.model_extra["factsentry"]["flagged"] is False  # type: ignore[index]
    assert float(headers["x-factsentry-dfactscore"]) >= 0.75
    # Streaming: one id for every chunk, the verdict chunk included; the refusal streams as delta.refusal.
    client = openai.AsyncOpenAI(base_url=gw.base_url + "/v1", api_key="unused", max_retries=0, timeout=180)
    for conv, refused in ((MERGED, True), (FAITHFUL, False)):
        stream = await client.chat.completions.create(
            model="mock-lean",
            messages=[{"role": "user", "content": conv.question}],
            extra_headers={"x-factsentry-name": conv.name},
            stream=True,
        )
        ids, refusal, content = set(), [], []
        async for chunk in stream:
            ids.add(chunk.id)
            if chunk.choices:
                refusal.append(chunk.choices[0].delta.refusal or "")
                content.append(chunk.choices[0].delta.content or "")
        assert len(ids) == 1
        assert ("merges different people" in "".join(refusal)) if refused else not "".join(refusal)
        assert not "".join(content) if refused else "".join(content) == FAITHFUL.answer
    await client.close()


async def test_revise_returns_the_revision_and_streaming_holds_text_until_the_verdict(start_stack: StartStack) -> None:
    gw = await start_stack({"default": {"mode": "revise", "threshold": 0.75, "timeout_s": 120}})
    _, revised, headers = await ask(gw, MERGED)
    assert headers["x-factsentry-action"] == "revise"
    text = revised.choices[0].message.content or ""
    assert text and text != MERGED.answer
    client = openai.AsyncOpenAI(base_url=gw.base_url + "/v1", api_key="unused", max_retries=0, timeout=180)
    stream = await client.chat.completions.create(
        model="mock-lean",
        messages=[{"role": "user", "content": MERGED.question}],
        extra_headers={"x-factsentry-name": MERGED.name},
        stream=True,
    )
    pieces, verdicts = [], []
    async for chunk in stream:
        pieces.append(chunk.choices[0].delta.content or "")  # every chunk has a choice: no usage was asked for
        if chunk.model_extra and "factsentry" in chunk.model_extra:
            assert chunk.choices[0].finish_reason == "stop"  # the verdict rides on the finishing chunk
            verdicts.append(chunk.model_extra["factsentry"])
    await client.close()
    assert "".join(pieces).strip() == text.strip()
    assert len(verdicts) == 1
    assert verdicts[0]["action"] == "revise"
    assert verdicts[0]["dfactscore"] < 0.75


async def test_factcheck_route_checks_a_given_text(start_stack: StartStack) -> None:
    gw = await start_stack()
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=180) as http:
        response = await http.post(
            "/v1/factcheck", json={"text": FAITHFUL.answer, "name": FAITHFUL.name, "timeout_s": 120}
        )
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["status"] == "done"
        assert body["num_bios"] == 1
        assert body["dfactscore"] == body["factscore"]
        bad = await http.post("/v1/factcheck", json={"text": ""})
        assert bad.status_code == 400
        assert bad.json()["error"]["param"] == "text"
