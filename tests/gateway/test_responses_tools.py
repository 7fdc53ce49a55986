"""An agent's loop on ``POST /v1/responses`` with the official ``openai`` client: the model's function calls come
back as ``function_call`` items (JSON and streamed events), the client sends them back with its
``function_call_output`` items, and the final answer is checked against those tool outputs (the store empty) and
governed by the policy — the same agent as tests/gateway/test_conversation.py, in the Responses API's terms."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openai
import pytest

from tests.gateway.conftest import RunningGateway, StartStack, released_unchecked
from tests.gateway.test_clients import POLICIES
from tests.gateway.test_clients import base_url as base_url  # the module's gateway and worker
from tests.gateway.test_conversation import (
    CONVERSION,
    ORDER,
    QUESTION,
    SHIPPING,
    assert_grounded_in_the_tools,
    empty_store,
    verdict_of,
)

INSTRUCTIONS = "You are the support agent of Fennel Home. Answer from the tools' results."
TOOLS: list[Any] = [
    {"type": "function", "name": name, "parameters": {"type": "object", "properties": {}}, "strict": False}
    for name in ("get_order", "get_shipping", "convert_currency")
]


def function_call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"type": "function_call", "call_id": call_id, "name": name, "arguments": json.dumps(arguments)}


def output(call_id: str, result: dict[str, Any]) -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": call_id, "output": json.dumps(result)}


# The loop as the client sends it back: the question, the calls the model made and what the tools returned.
TRANSCRIPT: list[Any] = [
    {"role": "user", "content": QUESTION},
    function_call("call_order_1", "get_order", {"order_id": "A-4417"}),
    function_call("call_ship_2", "get_shipping", {"order_id": "A-4417"}),
    output("call_order_1", ORDER),
    output("call_ship_2", SHIPPING),
    function_call("call_fx_3", "convert_currency", {"amount": 129.0, "from": "EUR", "to": "USD"}),
    {
        "type": "function_call_output",
        "call_id": "call_fx_3",
        "output": [{"type": "input_text", "text": json.dumps(CONVERSION)}],
    },
]


def client(gw: RunningGateway) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(base_url=gw.base_url + "/v1", api_key="unused", max_retries=0, timeout=180)


async def test_an_agent_loop_on_responses_calls_its_tools_and_its_answer_is_judged_by_their_outputs(
    start_stack: StartStack, tmp_path: Path
) -> None:
    gw = await start_stack(
        {"default": {"mode": "block", "threshold": 0.8, "timeout_s": 120}}, worker={"kb_path": empty_store(tmp_path)}
    )
    async with client(gw) as c:
        # 1. The model calls a tool: a function_call item, no message; a call is nothing to check, never withheld.
        first = await c.responses.create(model="mock-lean", instructions=INSTRUCTIONS, input=QUESTION, tools=TOOLS)
        assert first.status == "completed" and [item.type for item in first.output] == ["function_call"]
        call: Any = first.output[0]
        assert call.name == "get_order" and json.loads(call.arguments) == {"query": QUESTION}
        assert call.call_id.startswith("call_") and call.status == "completed"
        offered: list[Any] = first.tools
        assert first.output_text == "" and [t.name for t in offered] == [
            "get_order",
            "get_shipping",
            "convert_currency",
        ]
        # 2. The outputs sent back: the answer misreads one number of the conversion's output, and is blocked.
        raw = await c.responses.with_raw_response.create(
            model="mock-lean", instructions=INSTRUCTIONS, input=TRANSCRIPT, tools=TOOLS
        )
    final = raw.parse()
    assert raw.headers["x-factsentry-action"] == "block"
    assert final.output_text == "" and [p.type for p in final.output[0].content] == ["refusal"]  # type: ignore[union-attr]
    body = await verdict_of(gw, raw.headers["x-request-id"])
    assert_grounded_in_the_tools(body["check"])
    assert released_unchecked(gw) == 0


async def test_a_streamed_tool_call_arrives_as_function_call_events(start_stack: StartStack, tmp_path: Path) -> None:
    gw = await start_stack(
        {"default": {"mode": "block", "threshold": 0.8, "timeout_s": 120}}, worker={"kb_path": empty_store(tmp_path)}
    )
    types: list[str] = []
    deltas: list[str] = []
    async with client(gw) as c:
        async with c.responses.stream(model="mock-lean", input=QUESTION, tools=TOOLS) as stream:
            async for event in stream:
                types.append(event.type)
                if event.type == "response.function_call_arguments.delta":
                    deltas.append(event.delta)
                    assert event.output_index == 0
            final = await stream.get_final_response()
    assert [t for i, t in enumerate(types) if i == 0 or t != types[i - 1]] == [
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.function_call_arguments.delta",
        "response.function_call_arguments.done",
        "response.output_item.done",
        "response.completed",
    ]
    assert len(deltas) == 2 and json.loads("".join(deltas)) == {"query": QUESTION}
    assert [item.type for item in final.output] == ["function_call"]
    assert final.output[0].arguments == "".join(deltas) and final.output[0].name == "get_order"  # type: ignore[union-attr]


@pytest.mark.parametrize("streamed", [False, True], ids=["json", "stream"])
@pytest.mark.parametrize("policy", list(POLICIES))
async def test_a_tool_call_reaches_the_client_under_every_policy(base_url: str, policy: str, streamed: bool) -> None:
    """A turn that only calls a tool has no text to check or withhold: every policy, hold-back included, hands
    the call over whole, on chat completions and on the Responses API alike."""
    tools: list[Any] = [{"type": "function", "function": {"name": "get_order", "parameters": {"type": "object"}}}]
    async with openai.AsyncOpenAI(base_url=base_url + "/v1", api_key="unused", max_retries=0, timeout=180) as c:
        if streamed:
            chat = await c.chat.completions.create(
                model=f"sdk-{policy}", messages=[{"role": "user", "content": QUESTION}], tools=tools, stream=True
            )
            pieces: dict[int, list[str]] = {}
            names = []
            async for chunk in chat:
                for choice in chunk.choices:
                    for call in choice.delta.tool_calls or []:
                        pieces.setdefault(call.index, []).append((call.function and call.function.arguments) or "")
                        if call.function and call.function.name:
                            names.append(call.function.name)
            assert names == ["get_order"] and json.loads("".join(pieces[0])) == {"query": QUESTION}
            async with c.responses.stream(model=f"sdk-{policy}", input=QUESTION, tools=TOOLS) as stream:
                async for _ in stream:
                    pass
                response = await stream.get_final_response()
        else:
            completion = await c.chat.completions.create(
                model=f"sdk-{policy}", messages=[{"role": "user", "content": QUESTION}], tools=tools
            )
            calls: Any = completion.choices[0].message.tool_calls
            assert [call.function.name for call in calls] == ["get_order"]
            assert json.loads(calls[0].function.arguments) == {"query": QUESTION}
            response = await c.responses.create(model=f"sdk-{policy}", input=QUESTION, tools=TOOLS)
    item: Any = response.output[-1]
    assert (
        item.type == "function_call" and item.name == "get_order" and json.loads(item.arguments) == {"query": QUESTION}
    )
