"""The Responses API's shapes, without a server: a request as the chat completion sent upstream, and chat completion
chunks as the Responses stream of events."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import orjson
import pytest
from openai.types.responses import Response, ResponseStreamEvent
from pydantic import TypeAdapter

from gateway.access import Exchange
from gateway.policy import PolicySpec
from gateway.request import About, ChatCall
from gateway.responses import Events, head, response_object, usage_of
from gateway.responses_input import Echo, to_chat

SYSTEM = {"role": "system", "content": "Be brief."}
HI = {"role": "user", "content": "Who was Ada Lovelace?"}


@pytest.mark.parametrize(
    ("body", "messages", "chat"),
    [
        pytest.param({"model": "m", "input": "Who was Ada Lovelace?"}, [HI], {}, id="string"),
        pytest.param(
            {"model": "m", "input": "Who was Ada Lovelace?", "instructions": "Be brief."}, [SYSTEM, HI], {}, id="instr"
        ),
        pytest.param(
            {
                "model": "m",
                "input": [
                    {"role": "developer", "content": "Be brief."},
                    {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Hello."}]},
                    {
                        "type": "message",
                        "role": "assistant",
                        "id": "msg_1",
                        "status": "completed",
                        "content": [{"type": "output_text", "text": "Hi.", "annotations": []}],
                    },
                    HI,
                ],
            },
            [
                SYSTEM,
                {"role": "user", "content": [{"type": "text", "text": "Hello."}]},
                {"role": "assistant", "content": "Hi."},
                HI,
            ],
            {},
            id="items",
        ),
        pytest.param(
            {
                "model": "m",
                "input": [
                    {
                        "role": "user",
                        "content": [
                            {"type": "input_text", "text": "What is this?"},
                            {"type": "input_image", "image_url": "https://example.org/a.png", "detail": "low"},
                        ],
                    }
                ],
            },
            [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "What is this?"},
                        {"type": "image_url", "image_url": {"url": "https://example.org/a.png", "detail": "low"}},
                    ],
                }
            ],
            {},
            id="image",
        ),
        pytest.param(
            {
                "model": "m",
                "input": "Who was Ada Lovelace?",
                "max_output_tokens": 50,
                "temperature": 0.2,
                "stream": True,
                "store": True,
                "reasoning": {"effort": "low"},
                "text": {"format": {"type": "json_schema", "name": "bio", "schema": {"type": "object"}}},
                "metadata": {"factsentry_name": "Ada Lovelace", "team": "docs"},
            },
            [HI],
            {
                "max_tokens": 50,
                "temperature": 0.2,
                "stream": True,
                "stream_options": {"include_usage": True},  # so that the streamed response reports usage
                "reasoning_effort": "low",
                "response_format": {
                    "type": "json_schema",
                    "json_schema": {"name": "bio", "schema": {"type": "object"}},
                },
            },
            id="parameters",
        ),
    ],
)
def test_a_request_becomes_a_chat_completion(
    body: dict[str, Any], messages: list[dict[str, Any]], chat: dict[str, Any]
) -> None:
    model, got_messages, got_chat, echo = to_chat(body)
    assert model == "m" and got_messages == messages
    assert got_chat == {"messages": messages, **chat}  # no metadata upstream: the gateway's is its own
    assert echo.fields["instructions"] == body.get("instructions")
    assert echo.fields["metadata"] == ({"team": "docs"} if "metadata" in body else {})


def call() -> ChatCall:
    x = Exchange(source="proxy", request_id="fs-abc", model="m")
    when = datetime(2026, 1, 1, tzinfo=UTC)
    return ChatCall("fs-abc", when, {}, x, None, PolicySpec(), About(), {}, [])  # type: ignore[arg-type]


def events_of(chunks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    events = Events(head(call(), Echo("m")), "msg_abc")
    raw = events.start() + b"".join(events.feed(c) for c in chunks) + events.finish()
    parsed = [orjson.loads(line[6:]) for line in raw.decode().splitlines() if line.startswith("data: ")]
    for event in parsed:  # every event is one the openai SDK knows
        TypeAdapter(ResponseStreamEvent).validate_python(event)
    return parsed


def chunk(content: str | None = None, refusal: str | None = None, finish: str | None = None) -> dict[str, Any]:
    delta = {k: v for k, v in (("content", content), ("refusal", refusal)) if v is not None}
    return {
        "id": "c",
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


USAGE = {"id": "c", "choices": [], "usage": {"prompt_tokens": 5, "completion_tokens": 7, "total_tokens": 12}}


def test_text_chunks_become_one_text_part_with_usage_and_verdict() -> None:
    events = events_of(
        [
            chunk("Ada was "),
            chunk("a mathematician."),
            {**chunk(finish="stop"), "factsentry": {"action": "pass"}},
            USAGE,
        ]
    )
    assert [e["delta"] for e in events if e["type"] == "response.output_text.delta"] == ["Ada was ", "a mathematician."]
    final = events[-1]["response"]
    assert events[-1]["type"] == "response.completed" and final["factsentry"] == {"action": "pass"}
    assert Response.model_validate(final).output_text == "Ada was a mathematician."
    assert final["usage"]["input_tokens"] == 5 and final["usage"]["output_tokens"] == 7
    assert final["usage"]["total_tokens"] == 12


def test_an_answer_cut_by_the_token_limit_is_incomplete() -> None:
    events = events_of([chunk("Ada was"), chunk(finish="length")])
    assert events[-1]["type"] == "response.incomplete"
    final = events[-1]["response"]
    assert final["status"] == "incomplete" and final["incomplete_details"] == {"reason": "max_output_tokens"}
    assert final["output"][0]["status"] == "incomplete"


def test_a_refusal_in_content_too_is_a_text_part_and_a_refusal_part() -> None:
    """FACTSENTRY_REFUSAL_IN_CONTENT: the chat chunks carry the refusal twice; the response keeps both parts."""
    events = events_of([chunk("No. ", "No. "), chunk("Sorry.", "Sorry."), chunk(finish="content_filter")])
    content = events[-1]["response"]["output"][0]["content"]
    assert [p["type"] for p in content] == ["output_text", "refusal"]
    assert content[0]["text"] == content[1]["refusal"] == "No. Sorry."
    assert events[-1]["response"]["status"] == "completed"


def test_an_empty_answer_is_one_empty_text_part() -> None:
    events = events_of([chunk(finish="stop")])
    assert [e["type"] for e in events][2:5] == [
        "response.output_item.added",
        "response.content_part.added",
        "response.output_text.done",
    ]
    assert events[-1]["response"]["output"][0]["content"] == [{"type": "output_text", "text": "", "annotations": []}]


def test_a_blocked_completion_is_a_refusal_part_with_content_null() -> None:
    completion = {
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": None, "refusal": "No."},
                "finish_reason": "content_filter",
            }
        ],
        "usage": USAGE["usage"],
        "factsentry": {"action": "block"},
    }
    body = response_object(call(), Echo("m"), completion)
    response = Response.model_validate(body)
    assert response.output_text == "" and body["output"][0]["content"] == [{"type": "refusal", "refusal": "No."}]
    assert body["factsentry"] == {"action": "block"} and response.usage and response.usage.total_tokens == 12


@pytest.mark.parametrize(
    ("usage", "expected"),
    [
        (None, None),
        ({"prompt_tokens": 3}, (3, 0, 3)),
        ({"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7}, (3, 4, 7)),
    ],
)
def test_usage_is_reported_in_the_responses_terms(
    usage: dict[str, int] | None, expected: tuple[int, ...] | None
) -> None:
    got = usage_of(usage)
    assert (None if got is None else (got["input_tokens"], got["output_tokens"], got["total_tokens"])) == expected


FUNCTION_CALL = {"type": "function_call", "call_id": "call_1", "name": "get_order", "arguments": '{"id": 7}'}
CHAT_CALL: dict[str, Any] = {
    "id": "call_1",
    "type": "function",
    "function": {"name": "get_order", "arguments": '{"id": 7}'},
}


@pytest.mark.parametrize(
    ("items", "messages"),
    [
        pytest.param(
            [HI, FUNCTION_CALL, {"type": "function_call_output", "call_id": "call_1", "output": "Shipped."}],
            [
                HI,
                {"role": "assistant", "content": None, "tool_calls": [CHAT_CALL]},
                {"role": "tool", "tool_call_id": "call_1", "content": "Shipped."},
            ],
            id="call-and-output",
        ),
        pytest.param(
            [
                HI,
                {"role": "assistant", "content": "Let me look."},
                FUNCTION_CALL,
                {**FUNCTION_CALL, "call_id": "call_2", "name": "get_shipping"},
            ],
            [
                HI,
                {
                    "role": "assistant",
                    "content": "Let me look.",
                    "tool_calls": [
                        CHAT_CALL,
                        {**CHAT_CALL, "id": "call_2", "function": {**CHAT_CALL["function"], "name": "get_shipping"}},
                    ],
                },
            ],
            id="text-then-two-calls-one-turn",
        ),
        pytest.param(
            [
                FUNCTION_CALL,
                {
                    "type": "function_call_output",
                    "call_id": "call_1",
                    "output": [{"type": "input_text", "text": "Shipped "}, {"type": "input_text", "text": "today."}],
                },
                HI,
            ],
            [
                {"role": "assistant", "content": None, "tool_calls": [CHAT_CALL]},
                {"role": "tool", "tool_call_id": "call_1", "content": "Shipped today."},
                HI,
            ],
            id="output-parts",
        ),
    ],
)
def test_function_calls_and_their_outputs_become_tool_calls_and_tool_messages(
    items: list[dict[str, Any]], messages: list[dict[str, Any]]
) -> None:
    assert to_chat({"model": "m", "input": items})[1] == messages


@pytest.mark.parametrize(
    ("choice", "chat_choice"),
    [
        ("auto", "auto"),
        ("none", "none"),
        ("required", "required"),
        ({"type": "function", "name": "get_order"}, {"type": "function", "function": {"name": "get_order"}}),
    ],
)
def test_function_tools_and_tool_choice_are_sent_as_chat_tools(choice: object, chat_choice: object) -> None:
    tool = {"type": "function", "name": "get_order", "description": "An order.", "parameters": {"type": "object"}}
    body = {"model": "m", "input": "hi", "tools": [tool], "tool_choice": choice, "parallel_tool_calls": False}
    _, _, chat, echo = to_chat(body)
    function = {"name": "get_order", "description": "An order.", "parameters": {"type": "object"}}
    assert chat["tools"] == [{"type": "function", "function": function}]
    assert chat["tool_choice"] == chat_choice and chat["parallel_tool_calls"] is False
    # the response repeats them as the request gave them
    assert echo.fields["tools"] == [tool] and echo.fields["tool_choice"] == choice
    assert echo.fields["parallel_tool_calls"] is False
    assert to_chat({"model": "m", "input": "hi"})[3].fields["tools"] == []


def tool_chunk(index: int, call_id: str | None = None, name: str | None = None, arguments: str = "") -> dict[str, Any]:
    call: dict[str, Any] = {"index": index, "function": {"arguments": arguments}}
    if call_id is not None:
        call.update(id=call_id, type="function")
        call["function"]["name"] = name
    return {"id": "c", "choices": [{"index": 0, "delta": {"tool_calls": [call]}, "finish_reason": None}]}


def test_text_then_two_streamed_tool_calls_are_a_message_and_two_function_call_items() -> None:
    events = events_of(
        [
            chunk("Checking."),
            tool_chunk(0, "call_a", "get_order"),
            tool_chunk(1, "call_b", "get_shipping", '{"id"'),
            tool_chunk(0, arguments='{"id": 1}'),
            tool_chunk(1, arguments=": 2}"),
            chunk(finish="tool_calls"),
        ]
    )
    added = [(e["output_index"], e["item"]["type"]) for e in events if e["type"] == "response.output_item.added"]
    assert added == [(0, "message"), (1, "function_call"), (2, "function_call")]
    done = {e["output_index"]: e for e in events if e["type"] == "response.function_call_arguments.done"}
    assert done[1]["arguments"] == '{"id": 1}' and done[2]["arguments"] == '{"id": 2}'
    assert done[1]["item_id"] == "fc_a" and done[2]["name"] == "get_shipping"
    final = Response.model_validate(events[-1]["response"])
    assert final.status == "completed" and final.output_text == "Checking."
    calls = [(i.call_id, i.name, i.arguments, i.status) for i in final.output if i.type == "function_call"]
    assert calls == [
        ("call_a", "get_order", '{"id": 1}', "completed"),
        ("call_b", "get_shipping", '{"id": 2}', "completed"),
    ]


def test_a_completion_that_only_calls_a_tool_is_one_function_call_item() -> None:
    completion = {
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": None, "tool_calls": [CHAT_CALL]},
                "finish_reason": "tool_calls",
            }
        ],
        "usage": {"prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8},
    }
    response = Response.model_validate(response_object(call(), Echo("m"), completion))
    assert [item.type for item in response.output] == ["function_call"] and response.output_text == ""
    item = response.output[0]
    assert (item.call_id, item.name, item.arguments, item.id) == ("call_1", "get_order", '{"id": 7}', "fc_1")  # type: ignore[union-attr]
