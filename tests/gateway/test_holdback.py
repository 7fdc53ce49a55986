"""Sentence hold-back streaming: sentences reach the client once verified, a failing one stops (block) or
is left out (revise), and without verdicts nothing unchecked leaves unless the operator opened it."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import openai
import pytest

from factsentry.demo_data import CONVERSATIONS, Conversation
from gateway.holdback import split_complete, withheld
from tests.gateway.conftest import FAITHFUL, GatewayFactory, RunningGateway, StartStack, released_unchecked

WRONG_DATE = next(c for c in CONVERSATIONS if c.model == "demo-wrong-date")  # its last sentence is refuted
HOLDBACK = {"threshold": 0.75, "timeout_s": 120, "stream": "holdback"}


@pytest.mark.parametrize(
    ("text", "pieces", "rest"),
    [
        ("He was born in 1936. He competed", ["He was born in 1936. "], "He competed"),
        ("Joseph F. Smith met Dr. Brown. Then", ["Joseph F. Smith met Dr. Brown. "], "Then"),
        ('She said "yes." Later, in the U.S. Army', ['She said "yes." '], "Later, in the U.S. Army"),
        ("- first item\n- second", ["- first item\n"], "- second"),
        ("It costs 4.5 million", [], "It costs 4.5 million"),
    ],
)
def test_complete_sentences_are_split_off_the_stream(text: str, pieces: list[str], rest: str) -> None:
    assert split_complete(text) == (pieces, rest)


async def stream(gw: RunningGateway, conv: Conversation, **headers: str) -> tuple[str, str, list[Any], dict[str, Any]]:
    """(content, finish_reason, every chunk, the factsentry verdict) of one streamed answer; a refusal is
    in ``delta.refusal`` only (content null, as OpenAI streams one)."""
    client = openai.AsyncOpenAI(base_url=gw.base_url + "/v1", api_key="unused", max_retries=0, timeout=180)
    chunks = [
        chunk
        async for chunk in await client.chat.completions.create(
            model="mock-lean",
            messages=[{"role": "user", "content": conv.question}],
            extra_headers={"x-factsentry-name": conv.name, **headers},
            stream=True,
        )
    ]
    await client.close()
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    finish = next(c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason)
    verdict = next(c.model_extra["factsentry"] for c in chunks if c.model_extra and "factsentry" in c.model_extra)
    return text, finish, chunks, verdict


def refusal_of(chunks: list[Any]) -> str:
    return "".join(getattr(c.choices[0].delta, "refusal", None) or "" for c in chunks if c.choices)


def sentences(answer: str) -> list[str]:
    pieces, rest = split_complete(answer)
    return [*pieces, rest]


async def test_block_releases_verified_sentences_and_stops_at_the_first_refuted_one(start_stack: StartStack) -> None:
    gw = await start_stack({"default": {"mode": "block", **HOLDBACK}})
    text, finish, chunks, verdict = await stream(gw, WRONG_DATE)
    first_three = "".join(sentences(WRONG_DATE.answer)[:3])
    assert text == first_three
    assert "1982" not in text
    assert finish == "content_filter"
    assert refusal_of(chunks) == withheld("unsupported")
    assert "facts its sources do not support" in refusal_of(chunks)
    assert len({c.id for c in chunks}) == 1  # one id for the whole stream, verdict chunk included
    assert verdict["action"] == "block"
    assert verdict["holdback"]["released_sentences"] == 3 and verdict["holdback"]["withheld_sentences"] == 1
    assert verdict["holdback"]["released_unchecked"] == 0

    text, finish, _, verdict = await stream(gw, FAITHFUL)
    assert (text, finish, verdict["action"]) == (FAITHFUL.answer, "stop", "pass")
    assert verdict["result_url"] == f"/v1/results/{verdict['request_id']}"  # the whole answer's own verdict
    assert verdict["holdback"]["checks"] >= 2  # sentences went out before the answer was complete


async def test_revise_leaves_the_refuted_sentence_out_and_goes_on(start_stack: StartStack) -> None:
    gw = await start_stack({"default": {"mode": "revise", **HOLDBACK}})
    text, finish, _, verdict = await stream(gw, WRONG_DATE)
    assert text == "".join(sentences(WRONG_DATE.answer)[:3])
    assert finish == "stop" and verdict["action"] == "revise"
    assert verdict["holdback"]["withheld_sentences"] == 1


async def test_without_verdicts_nothing_unchecked_leaves_unless_opened(start_gateway: GatewayFactory) -> None:
    """No worker runs: every check times out."""
    closed = await start_gateway({"default": {"mode": "block", **HOLDBACK, "timeout_s": 0.3}})
    text, finish, chunks, verdict = await stream(closed, FAITHFUL)
    assert (text, finish, refusal_of(chunks)) == ("", "content_filter", withheld("timeout"))
    assert verdict["holdback"]["released_sentences"] == 0 and released_unchecked(closed) == 0

    opened = await start_gateway({"default": {"mode": "block", **HOLDBACK, "timeout_s": 0.3, "on_timeout": "open"}})
    text, finish, _, verdict = await stream(opened, FAITHFUL)
    assert (text, finish) == (FAITHFUL.answer, "stop")
    assert verdict["holdback"]["released_unchecked"] == len(sentences(FAITHFUL.answer))
    assert released_unchecked(opened) >= 1  # counted, never silent


async def test_a_merged_biography_is_stopped_where_the_second_person_begins(start_stack: StartStack) -> None:
    """The swimmer's sentences are verified against the swimmer as the answer builds him; when the
    football coach's life is added to the same person, the group is linked again and the new sentence
    no longer holds: block stops there."""
    from tests.gateway.conftest import MERGED

    gw = await start_stack({"default": {"mode": "block", **HOLDBACK}})
    text, finish, chunks, verdict = await stream(gw, MERGED)
    parts = sentences(MERGED.answer)
    released = verdict["holdback"]["released_sentences"]
    assert finish == "content_filter" and text == "".join(parts[:released])
    assert refusal_of(chunks) == withheld("conflated")
    assert released < len(parts)
    assert "1922" not in text or "1936" not in text  # never both lives as one person


async def test_a_dropped_stream_is_still_published_as_the_answer_and_counted(
    start_gateway: GatewayFactory, kafka_bootstrap: str
) -> None:
    """The client goes away while the first check waits: the text received is published under the request's
    own id (its whole-answer verdict will be stored there) and the request is counted as client_closed."""
    from tests.gateway.test_proxy import published

    gw = await start_gateway({"default": {"mode": "block", **HOLDBACK, "timeout_s": 5}})
    body = {"model": "mock-lean", "messages": [{"role": "user", "content": FAITHFUL.question}], "stream": True}
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=30) as http:
        async with http.stream("POST", "/v1/chat/completions", json=body) as response:
            request_id = response.headers["x-request-id"]
    messages = await published(kafka_bootstrap, gw.settings.generations_topic, request_id)
    whole = [m for m in messages if m.partial_of is None]
    assert len(whole) == 1 and whole[0].truncated and whole[0].answer
    assert FAITHFUL.answer.startswith(whole[0].answer)
    for _ in range(50):
        counted = gw.gateway.registry.get_sample_value(
            "factsentry_gateway_requests_total",
            {"source": "proxy", "model": "mock-lean", "mode": "block", "outcome": "client_closed"},
        )
        if counted:
            break
        await asyncio.sleep(0.1)
    assert counted == 1
