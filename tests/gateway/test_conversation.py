"""Grounding in the conversation, end to end: an agent's transcript (three tool calls returning JSON, then its
final answer) through the official ``openai`` client → gateway → Kafka → worker → verdict, with the knowledge
store empty. The answer is checked against what its tools returned, and each fact's evidence names the tool
message (its ``tool_call_id``) that supports or refutes it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import openai
from openai.types.chat import ChatCompletionMessageParam, ChatCompletionToolParam

from knowledge.store import Store
from tests.gateway.conftest import AGENT_ANSWERS, RunningGateway, StartStack, released_unchecked

QUESTION = "Where is my order A-4417, and what did it cost in dollars?"
ORDER = {
    "order_id": "A-4417",
    "status": "shipped",
    "placed_on": "2026-11-18",
    "items": [{"name": "Fennel desk lamp", "quantity": 2, "unit_price": 64.5}],
    "total": 129.0,
    "currency": "EUR",
}
SHIPPING = {
    "order_id": "A-4417",
    "carrier": "Parcelia",
    "tracking_number": "PX-88213",
    "shipped_on": "2026-11-20",
    "estimated_delivery": "2026-11-26",
    "weight_kg": 3.4,
}
CONVERSION = {"from": "EUR", "to": "USD", "amount": 129.0, "rate": 1.0842, "converted_amount": 139.86}


def call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}


TRANSCRIPT: list[ChatCompletionMessageParam] = [
    {"role": "system", "content": "You are the support agent of Fennel Home. Answer from the tools' results."},
    {"role": "user", "content": QUESTION},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            call("call_order_1", "get_order", {"order_id": "A-4417"}),  # type: ignore[list-item]
            call("call_ship_2", "get_shipping", {"order_id": "A-4417"}),  # type: ignore[list-item]
        ],
    },
    {"role": "tool", "tool_call_id": "call_order_1", "content": json.dumps(ORDER)},
    {"role": "tool", "tool_call_id": "call_ship_2", "content": json.dumps(SHIPPING)},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [call("call_fx_3", "convert_currency", {"amount": 129.0, "from": "EUR", "to": "USD"})],  # type: ignore[list-item]
    },
    {"role": "tool", "tool_call_id": "call_fx_3", "content": json.dumps(CONVERSION)},
]
TOOLS: list[ChatCompletionToolParam] = [
    {"type": "function", "function": {"name": name, "parameters": {"type": "object", "properties": {}}}}
    for name in ("get_order", "get_shipping", "convert_currency")
]
# Which tool message each of the answer's true facts is read from (by a word only that message's fact has).
READ_FROM = {
    "placed": "call_order_1",
    "Parcelia": "call_ship_2",
    "lamps": "call_order_1",
    "delivery": "call_ship_2",
}


def empty_store(tmp_path: Path) -> Path:
    """A knowledge store without a page: only the conversation can ground the answer."""
    path = tmp_path / "empty.sqlite3"
    Store(path).close()
    return path


async def ask_agent(gw: RunningGateway) -> tuple[str, Any, httpx.Headers]:
    client = openai.AsyncOpenAI(base_url=gw.base_url + "/v1", api_key="unused", max_retries=0, timeout=180)
    try:
        raw = await client.chat.completions.with_raw_response.create(
            model="mock-lean", messages=TRANSCRIPT, tools=TOOLS
        )
    finally:
        await client.close()
    return raw.headers["x-request-id"], raw.parse(), raw.headers


async def verdict_of(gw: RunningGateway, request_id: str) -> dict[str, Any]:
    """The request's verdict from ``/v1/results`` (waited for: under observe the answer comes first)."""
    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        for _ in range(900):
            response = await http.get(f"/v1/results/{request_id}")
            if response.status_code == 200:
                body: dict[str, Any] = response.json()
                return body
            await asyncio.sleep(0.2)
    raise AssertionError(f"no verdict for {request_id} within 180 s")


def facts_of(check: dict[str, Any]) -> list[dict[str, Any]]:
    return [fact for group in check["groups"] for fact in group["facts"]]


def assert_grounded_in_the_tools(check: dict[str, Any]) -> None:
    """The misread amount refuted by the conversion's message, every other fact supported by its own tool's."""
    assert check["status"] == "checked" and check["grounding"] == "documents_and_store"
    facts = facts_of(check)
    misread = [f for f in facts if "193.86" in f["text"]]
    assert misread, [f["text"] for f in facts]
    for fact in misread:
        assert fact["verdict"] == "not_supported" and fact["stance"] == "refute", fact
        assert fact["evidence"][0]["document"] == "call_fx_3" and fact["evidence"][0]["stance"] == "refute"
        assert "139.86" in fact["evidence"][0]["text"]  # the tool's number, exactly as it returned it
    rest = [f for f in facts if "193.86" not in f["text"]]
    assert rest and all(f["verdict"] == "supported" for f in rest), [(f["text"], f["verdict"]) for f in rest]
    for word, call_id in READ_FROM.items():
        named = [f["evidence"][0]["document"] for f in rest if word in f["text"]]
        assert named and set(named) == {call_id}, (word, named)
    assert check["factscore"] == check["dfactscore"] == round(len(rest) / len(facts), 4)


async def test_an_agent_answer_misreading_one_number_is_blocked_by_its_tool_message(
    start_stack: StartStack, tmp_path: Path
) -> None:
    gw = await start_stack(
        {"default": {"mode": "block", "threshold": 0.8, "timeout_s": 120}}, worker={"kb_path": empty_store(tmp_path)}
    )
    request_id, blocked, headers = await ask_agent(gw)
    assert headers["x-factsentry-action"] == "block"
    assert blocked.choices[0].finish_reason == "content_filter" and blocked.choices[0].message.content is None
    body = await verdict_of(gw, request_id)
    assert_grounded_in_the_tools(body["check"])
    assert released_unchecked(gw) == 0


async def test_under_observe_the_agent_answer_is_returned_and_its_tool_grounded_scores_recorded(
    start_stack: StartStack, tmp_path: Path
) -> None:
    gw = await start_stack({"default": {"mode": "observe"}}, worker={"kb_path": empty_store(tmp_path)})
    request_id, answer, headers = await ask_agent(gw)
    assert "x-factsentry-action" not in headers
    assert answer.choices[0].message.content == AGENT_ANSWERS[QUESTION]
    body = await verdict_of(gw, request_id)
    assert_grounded_in_the_tools(body["check"])
    assert 0.0 < body["check"]["factscore"] < 1.0


async def test_without_tool_grounding_the_same_answer_is_unverifiable_against_the_empty_store(
    start_stack: StartStack, tmp_path: Path
) -> None:
    """The operator may switch the conversation off: nothing then grounds the answer (and under block with the
    default ``on_unverifiable`` it is not passed as checked)."""
    policy = {"mode": "observe", "conversation": {"tools": False}}
    gw = await start_stack({"default": policy}, worker={"kb_path": empty_store(tmp_path)})
    request_id, _, _ = await ask_agent(gw)
    check = (await verdict_of(gw, request_id))["check"]
    assert check["status"] == "unverifiable" and check["grounding"] == "store" and check["factscore"] is None
