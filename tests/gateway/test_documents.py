"""Grounding in the request's own documents (retrieval-augmented answers), end to end: the official
``openai`` client → gateway → Kafka → worker → verdict, with the documents in
``metadata.factsentry.documents`` (or /v1/factcheck's ``documents``). The product and the people are
invented and in no knowledge store: without the documents the same answers are unverifiable."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import openai
import pytest

from tests.gateway.conftest import FAITHFUL, RAG_ANSWERS, RunningGateway, StartStack, released_unchecked

BLOCK = {"mode": "block", "threshold": 0.75, "timeout_s": 120, "grounding": "documents"}
GOOD, BAD, NAMESAKES = list(RAG_ANSWERS)

L7_DOCUMENTS = [
    {
        "title": "Larkspur L7 owner's manual",
        "entity": "Larkspur L7",
        "text": "The Larkspur L7 is a cargo e-bike made by Larkspur Cycles of Ghent. Its 750 Wh battery gives a "
        "range of up to 110 kilometres. The L7 carries loads of up to 200 kilograms.",
    },
    {
        "title": "Larkspur warranty terms",
        "entity": "Larkspur L7",
        "text": "The Larkspur L7 comes with a three-year warranty on the frame and a two-year warranty on the "
        "battery. Damage from accidents is not covered.",
    },
]
NAMESAKE_DOCUMENTS = [
    {
        "title": "Tomas Ebbeson (cellist)",
        "text": "Tomas Ebbeson is a Swedish cellist, born in 1971 in Uppsala. He studied at the Royal College of "
        "Music in Stockholm and has played with the Gothenburg Symphony Orchestra since 1998.",
    },
    {
        "title": "Tomas Ebbeson (rower)",
        "text": "Tomas Ebbeson is a Swedish rower, born in 1976 in Malmö. He won a bronze medal in the coxless "
        "four at the 2000 Summer Olympics in Sydney.",
    },
]


async def ask_with(
    gw: RunningGateway, question: str, documents: list[dict[str, str]] | None
) -> tuple[str, Any, httpx.Headers]:
    """One chat completion through the official client, the documents in the request's metadata."""
    client = openai.AsyncOpenAI(base_url=gw.base_url + "/v1", api_key="unused", max_retries=0, timeout=180)
    extra = {"metadata": {"factsentry": {"documents": documents}}} if documents is not None else None
    try:
        raw = await client.chat.completions.with_raw_response.create(
            model="mock-lean", messages=[{"role": "user", "content": question}], extra_body=extra
        )
    finally:
        await client.close()
    return raw.headers["x-request-id"], raw.parse(), raw.headers


async def refusal_of(gw: RunningGateway, question: str, documents: object) -> openai.BadRequestError:
    """The 400 the official client raises for a chat request carrying ``documents``."""
    client = openai.AsyncOpenAI(base_url=gw.base_url + "/v1", api_key="unused", max_retries=0)
    try:
        with pytest.raises(openai.BadRequestError) as refused:
            await client.chat.completions.create(
                model="mock-lean",
                messages=[{"role": "user", "content": question}],
                extra_body={"metadata": {"factsentry": {"documents": documents}}},
            )
    finally:
        await client.close()
    return refused.value


async def check_of(gw: RunningGateway, request_id: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        response = await http.get(f"/v1/results/{request_id}")
    assert response.status_code == 200, response.text
    check: dict[str, Any] = response.json()["check"]
    return check


async def test_an_answer_is_judged_against_the_documents_its_request_carried(start_stack: StartStack) -> None:
    gw = await start_stack({"default": BLOCK})
    rid, good, headers = await ask_with(gw, GOOD, L7_DOCUMENTS)
    assert headers["x-factsentry-action"] == "pass"
    assert good.choices[0].message.content == RAG_ANSWERS[GOOD]
    check = await check_of(gw, rid)
    assert check["status"] == "checked" and check["grounding"] == "documents"
    assert check["dfactscore"] == 1.0 and check["coverage"] == 1.0
    # The manual and the warranty name one entity: drawing on both is not merging two.
    assert [g["entity"] for g in check["groups"]] == ["Larkspur L7"] and check["num_entities"] == 1

    rid, bad, headers = await ask_with(gw, BAD, L7_DOCUMENTS)
    assert headers["x-factsentry-action"] == "block" and bad.choices[0].finish_reason == "content_filter"
    check = await check_of(gw, rid)
    assert check["grounding"] == "documents" and check["dfactscore"] < 0.5
    wrong = [f["text"] for g in check["groups"] for f in g["facts"] if f["verdict"] == "not_supported"]
    assert any("500 Wh" in t for t in wrong) and any("ten-year" in t for t in wrong)
    revision = check["revision"]["text"]
    assert "500 Wh" not in revision and "ten-year" not in revision and "Larkspur L7" in revision

    # Without its documents the same answer is about a product no store holds: unverifiable, released.
    rid, plain, headers = await ask_with(gw, BAD, None)
    assert headers["x-factsentry-action"] == "pass" and plain.choices[0].message.content == RAG_ANSWERS[BAD]
    check = await check_of(gw, rid)
    assert check["status"] == "unverifiable" and check["grounding"] == "store" and check["dfactscore"] is None
    assert released_unchecked(gw) == 0


async def test_documents_about_namesakes_are_two_entities_and_a_merged_answer_is_caught(
    start_stack: StartStack,
) -> None:
    gw = await start_stack({"default": BLOCK})
    rid, _, headers = await ask_with(gw, NAMESAKES, NAMESAKE_DOCUMENTS)
    assert headers["x-factsentry-action"] == "block"
    check = await check_of(gw, rid)
    # Every fact is true of one of the two, so FActScore is perfect; D-FActScore sees the merge.
    assert check["factscore"] == 1.0 and check["dfactscore"] < 0.75
    assert check["num_entities"] == 2 and check["groups"][0]["conflated"] is True
    linked = {g["entity"] for g in check["groups"]}
    assert linked <= {d["title"] for d in NAMESAKE_DOCUMENTS}


async def test_the_policy_decides_whether_the_store_is_used_beside_the_documents(start_stack: StartStack) -> None:
    # The demo store knows John Stewart; the request's only document is the e-bike's manual.
    gw = await start_stack(
        {"default": {**BLOCK, "grounding": "store"}, "models": {"mock-lean": {"grounding": "documents"}}}
    )
    rid, _, headers = await ask_with(gw, FAITHFUL.question, L7_DOCUMENTS[:1])
    assert headers["x-factsentry-action"] == "block"  # nothing in the documents grounds a word of it
    check = await check_of(gw, rid)
    assert check["grounding"] == "documents" and check["factscore"] == 0.0


async def test_documents_and_store_grounding_checks_against_both(start_stack: StartStack) -> None:
    gw = await start_stack({"default": {**BLOCK, "grounding": "documents_and_store"}})
    rid, answer, headers = await ask_with(gw, FAITHFUL.question, L7_DOCUMENTS[:1])
    assert headers["x-factsentry-action"] == "pass" and answer.choices[0].message.content == FAITHFUL.answer
    check = await check_of(gw, rid)
    assert check["grounding"] == "documents_and_store" and check["dfactscore"] >= 0.75
    assert check["groups"][0]["entity"].startswith("John Stewart")


async def test_factcheck_route_takes_documents(start_stack: StartStack) -> None:
    gw = await start_stack({"default": {"grounding": "documents"}})
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=180) as http:
        response = await http.post(
            "/v1/factcheck",
            json={"text": RAG_ANSWERS[BAD], "documents": L7_DOCUMENTS, "timeout_s": 120},
        )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["check_status"] == "checked" and body["grounding"] == "documents"
    assert body["factscore"] < 0.5 and body["revision"]["text"]


@pytest.mark.parametrize(
    ("documents", "param", "code"),
    [
        ("the manual", "metadata.factsentry.documents", "invalid_type"),
        ([{"title": "no text"}], "metadata.factsentry.documents[0]", "invalid_document"),
        ([{"text": "x", "url": "https://example.com"}], "metadata.factsentry.documents[0]", "invalid_document"),
        ([{"text": "a passage"}] * 4, "metadata.factsentry.documents", "too_many_documents"),
    ],
)
async def test_malformed_documents_are_refused_in_openais_error_shape(
    start_gateway: Any, documents: object, param: str, code: str
) -> None:
    gw = await start_gateway({"default": {"grounding": "documents"}}, max_documents=3)
    refused = await refusal_of(gw, GOOD, documents)
    assert refused.code == code and refused.param == param
    assert "document" in refused.message


async def test_documents_stay_in_the_gateway_and_streams_are_judged_by_them_too(
    start_stack: StartStack, upstream_url: str
) -> None:
    # The upstream refuses metadata as OpenAI does (string values only): ours must not reach it.
    async with httpx.AsyncClient() as http:
        direct = await http.post(
            upstream_url + "/chat/completions",
            json={"model": "mock", "messages": [{"role": "user", "content": BAD}], "metadata": {"factsentry": {}}},
        )
    assert direct.status_code == 400 and direct.json()["error"]["param"] == "metadata"
    gw = await start_stack({"default": BLOCK})
    client = openai.AsyncOpenAI(base_url=gw.base_url + "/v1", api_key="unused", max_retries=0, timeout=180)
    try:
        stream = await client.chat.completions.create(
            model="mock-lean",
            messages=[{"role": "user", "content": BAD}],
            stream=True,
            extra_body={"metadata": {"team": "support", "factsentry": {"documents": L7_DOCUMENTS}}},
        )
        chunks = [chunk async for chunk in stream]
    finally:
        await client.close()
    refusal = "".join(c.choices[0].delta.refusal or "" for c in chunks if c.choices)
    content = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert "D-FActScore" in refusal and "500 Wh" not in content
    verdict = chunks[-1].model_extra["factsentry"]  # type: ignore[index]
    assert verdict["action"] == "block" and verdict["dfactscore"] < 0.5


async def test_documents_are_refused_unless_the_policy_allows_them(start_gateway: Any) -> None:
    """Under the default ``grounding: store`` a client may not bring the evidence its answer is judged by:
    the request is refused before anything is forwarded or published."""
    gw = await start_gateway({"default": BLOCK | {"grounding": "store"}, "models": {"mock-lean": {"mode": "block"}}})
    refused = await refusal_of(gw, BAD, L7_DOCUMENTS)
    assert refused.code == "documents_not_allowed" and "grounding" in refused.message
    assert refused.param == "metadata.factsentry.documents"
    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        factcheck = await http.post("/v1/factcheck", json={"text": RAG_ANSWERS[BAD], "documents": L7_DOCUMENTS})
    assert factcheck.status_code == 400 and factcheck.json()["error"]["code"] == "documents_not_allowed"
    await asyncio.sleep(0.5)  # a generation queued for Kafka would be counted by now
    assert not gw.gateway.registry.get_sample_value("factsentry_gateway_published_total")
