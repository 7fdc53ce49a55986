"""``POST /v1/responses``: OpenAI's Responses API, checked and governed as chat completions are.

A Responses request is translated into a chat completion for the upstream (gateway/responses_input.py) and served
by the chat path (gateway/chat.py): the same policy, publish, verdict wait and release gate (gateway/release.py),
the same ``x-factsentry-*`` headers and ``factsentry`` object. Only the writing differs — this module turns what
the release gate lets out back into a ``response`` object, or into the Responses stream of events::

    response.created, response.in_progress, response.output_item.added, response.content_part.added,
    response.output_text.delta …, response.output_text.done, response.content_part.done,
    response.output_item.done, response.completed

A tool call of the answer is a ``function_call`` output item after the message (streamed as
``response.output_item.added``, ``response.function_call_arguments.delta`` … ``.done``,
``response.output_item.done``); a turn that only calls tools has no message item. A refusal (block) is a
``refusal`` content part (``response.refusal.delta`` / ``.done`` when streamed), as the Responses API represents one;
usage is reported as ``input_tokens`` / ``output_tokens`` / ``total_tokens``; the verdict is the ``factsentry``
object of the response (on ``response.completed``'s when streamed). The gateway keeps no responses:
``previous_response_id``, ``conversation`` and ``GET /v1/responses/{id}`` are not served.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response

from gateway import release
from gateway.chat import serve
from gateway.errors import GatewayError
from gateway.release import Release
from gateway.request import ChatCall
from gateway.responses_input import Echo, to_chat
from gateway.upstream import Completion


async def responses(request: Request) -> Response:
    return await serve(request, ResponsesApi())


class ResponsesApi:
    """One Responses request on the chat path (gateway/chat.py's :class:`~gateway.chat.Api`); it keeps what the
    response object repeats of the request (``instructions``, ``metadata``, sampling parameters)."""

    def __init__(self) -> None:
        self.echo = Echo()

    def read(self, body: dict[str, Any]) -> tuple[str, list[dict[str, Any]], dict[str, Any]]:
        model, messages, chat, self.echo = to_chat(body)
        return model, messages, chat

    def passed(self, call: ChatCall, completion: Completion) -> Response:
        body = response_object(call, self.echo, completion.data)
        return Response(orjson.dumps(body), media_type="application/json", headers=call.headers)

    def released(self, call: ChatCall, rel: Release, completion: dict[str, Any]) -> Response:
        return release.as_json(rel, completion, call.headers, lambda data: response_object(call, self.echo, data))

    def events(self, call: ChatCall, chunks: AsyncGenerator[dict[str, Any], None]) -> AsyncIterator[bytes]:
        return stream(Events(head(call, self.echo), item_id(call)), chunks)


def item_id(call: ChatCall) -> str:
    return "msg_" + call.request_id.removeprefix("fs-")


def head(call: ChatCall, echo: Echo) -> dict[str, Any]:
    """The response object without its output: what ``response.created`` carries."""
    return {
        "id": "resp_" + call.request_id.removeprefix("fs-"),
        "object": "response",
        "created_at": int(call.created.timestamp()),
        "status": "in_progress",
        "error": None,
        "incomplete_details": None,
        "model": echo.model,
        "output": [],
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "store": False,  # the gateway keeps no responses
        "usage": None,
        **echo.fields,
    }


def usage_of(usage: object) -> dict[str, Any] | None:
    """A chat completion's usage as the Responses API reports it."""
    if not isinstance(usage, dict):
        return None
    input_tokens, output_tokens = count(usage, "prompt_tokens"), count(usage, "completion_tokens")
    prompt = usage.get("prompt_tokens_details")
    total = usage.get("total_tokens")
    return {
        "input_tokens": input_tokens,
        "input_tokens_details": {k: count(prompt, k) for k in ("cached_tokens", "cache_write_tokens")},
        "output_tokens": output_tokens,
        "output_tokens_details": {
            "reasoning_tokens": count(usage.get("completion_tokens_details"), "reasoning_tokens")
        },
        "total_tokens": total if isinstance(total, int) else input_tokens + output_tokens,
    }


def count(details: object, key: str) -> int:
    value = details.get(key) if isinstance(details, dict) else None
    return value if isinstance(value, int) else 0


def text_part(text: str) -> dict[str, Any]:
    return {"type": "output_text", "text": text, "annotations": []}


def refusal_part(refusal: str) -> dict[str, Any]:
    return {"type": "refusal", "refusal": refusal}


def call_item(call_id: str, name: str, arguments: str, status: str = "completed") -> dict[str, Any]:
    """A ``function_call`` output item (its ``id`` derived from the call's)."""
    return {
        "id": "fc_" + call_id.removeprefix("call_"),
        "type": "function_call",
        "status": status,
        "call_id": call_id,
        "name": name,
        "arguments": arguments,
    }


def tool_calls(message: dict[str, Any]) -> list[dict[str, Any]]:
    """The function calls of a chat completion message as ``function_call`` items."""
    items = []
    for call in message.get("tool_calls") or []:
        function = call.get("function") if isinstance(call, dict) else None
        if isinstance(function, dict) and isinstance(call.get("id"), str):
            items.append(call_item(call["id"], str(function.get("name") or ""), str(function.get("arguments") or "")))
    return items


def finished(response: dict[str, Any], items: list[dict[str, Any]], finish_reason: object) -> dict[str, Any]:
    """``response`` with its output ``items``, ended as the chat completion's ``finish_reason`` says: cut by the
    token limit is ``incomplete`` (``max_output_tokens``), anything else ``completed``."""
    cut = finish_reason == "length"
    for item in items:
        item["status"] = "incomplete" if cut else "completed"
    response.update(status="incomplete" if cut else "completed", output=items)
    if cut:
        response["incomplete_details"] = {"reason": "max_output_tokens"}
    else:
        response["completed_at"] = int(time.time())
    return response


def response_object(call: ChatCall, echo: Echo, completion: dict[str, Any]) -> dict[str, Any]:
    """A (released) chat completion as a ``response`` object: choice 0's text and refusal as the message's content
    parts, its tool calls as ``function_call`` items, its usage, and the ``factsentry`` object when there is one."""
    choice = (completion.get("choices") or [{}])[0]
    message = choice.get("message") or {}
    parts = []
    if isinstance(message.get("content"), str):
        parts.append(text_part(message["content"]))
    if isinstance(message.get("refusal"), str):
        parts.append(refusal_part(message["refusal"]))
    calls = tool_calls(message)
    items = [] if calls and not parts else [message_item(call, parts or [text_part("")])]
    response = finished(head(call, echo), items + calls, choice.get("finish_reason"))
    response["usage"] = usage_of(completion.get("usage"))
    if "factsentry" in completion:
        response["factsentry"] = completion["factsentry"]
    return response


def message_item(call: ChatCall, parts: list[dict[str, Any]], status: str = "completed") -> dict[str, Any]:
    return {"id": item_id(call), "type": "message", "status": status, "role": "assistant", "content": parts}


class Events:
    """The Responses stream of one answer, written from the chat completion chunks the chat path lets out: text
    deltas into an ``output_text`` part, refusal deltas into a ``refusal`` part (in the order they begin), tool call
    deltas into ``function_call`` items (output items in the order they begin), the usage chunk and the
    ``factsentry`` object of the finishing chunk into the final response."""

    def __init__(self, response: dict[str, Any], item_id: str) -> None:
        self.response = response
        self.item: dict[str, Any] = {
            "id": item_id,
            "type": "message",
            "role": "assistant",
            "status": "in_progress",
            "content": [],
        }
        self.sequence = 0
        self.added = False
        self.finish_reason: object = None
        self.output: list[dict[str, Any]] = []  # the items begun, in order
        self.calls: dict[int, dict[str, Any]] = {}  # the function_call items by the chunks' tool call index

    def event(self, kind: str, **fields: Any) -> bytes:
        data = {"type": kind, "sequence_number": self.sequence, **fields}
        self.sequence += 1
        return b"event: " + kind.encode() + b"\ndata: " + orjson.dumps(data) + b"\n\n"

    def start(self) -> bytes:
        return self.event("response.created", response=self.response) + self.event(
            "response.in_progress", response=self.response
        )

    def feed(self, chunk: dict[str, Any]) -> bytes:
        """The events of one chat completion chunk (none for the usage chunk and an empty finishing one)."""
        if isinstance(chunk.get("usage"), dict):
            self.response["usage"] = usage_of(chunk["usage"])
        if "factsentry" in chunk:
            self.response["factsentry"] = chunk["factsentry"]
        out = b""
        for choice in chunk.get("choices") or []:
            if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                continue  # only choice 0 is checked and written (n > 1 is refused outside observe)
            delta = choice.get("delta") or {}
            if isinstance(delta.get("content"), str) and delta["content"]:
                out += self.add("output_text", delta["content"])
            if isinstance(delta.get("refusal"), str) and delta["refusal"]:
                out += self.add("refusal", delta["refusal"])
            for call in delta.get("tool_calls") or []:
                if isinstance(call, dict):
                    out += self.call(call)
            if choice.get("finish_reason"):
                self.finish_reason = choice["finish_reason"]
        return out

    def add(self, kind: str, text: str) -> bytes:
        """``text`` appended to the part of ``kind`` (the item and the part begun first if need be)."""
        out = b"" if self.added else self.open_item()
        parts = self.item["content"]
        index = next((i for i, p in enumerate(parts) if p["type"] == kind), None)
        if index is None:
            index = len(parts)
            part = text_part("") if kind == "output_text" else refusal_part("")
            out += self.event("response.content_part.added", part=part, **self.at(index))
            parts.append(part)
        if kind == "output_text":
            parts[index]["text"] += text
            return out + self.event("response.output_text.delta", delta=text, logprobs=[], **self.at(index))
        parts[index]["refusal"] += text
        return out + self.event("response.refusal.delta", delta=text, **self.at(index))

    def call(self, delta: dict[str, Any]) -> bytes:
        """One tool call delta: its ``function_call`` item begun at its first delta, its arguments appended."""
        index = delta.get("index", 0)
        function = delta.get("function")
        if not isinstance(function, dict):
            function = {}
        out = b""
        item = self.calls.get(index)
        if item is None:
            given = delta.get("id")
            call_id = given if isinstance(given, str) else f"call_{len(self.calls)}"
            item = call_item(call_id, str(function.get("name") or ""), "", status="in_progress")
            self.calls[index] = item
            self.output.append(item)
            out += self.event("response.output_item.added", output_index=len(self.output) - 1, item=item)
        arguments = function.get("arguments")
        if isinstance(arguments, str) and arguments:
            item["arguments"] += arguments
            out += self.event(
                "response.function_call_arguments.delta",
                item_id=item["id"],
                output_index=self.output.index(item),
                delta=arguments,
            )
        return out

    def open_item(self) -> bytes:
        self.added = True
        self.output.append(self.item)
        return self.event("response.output_item.added", output_index=self.output.index(self.item), item=self.item)

    def at(self, index: int) -> dict[str, Any]:
        return {"item_id": self.item["id"], "output_index": self.output.index(self.item), "content_index": index}

    def finish(self) -> bytes:
        """The parts and the items done, then ``response.completed`` (``response.incomplete`` when cut short). A
        turn that only called tools has no message item."""
        if not self.added and self.calls:
            return self.finish_calls(b"")
        out = b"" if self.added else self.open_item()
        if not self.item["content"]:
            out += self.event("response.content_part.added", part=text_part(""), **self.at(0))
            self.item["content"].append(text_part(""))
        for index, part in enumerate(self.item["content"]):
            if part["type"] == "output_text":
                out += self.event("response.output_text.done", text=part["text"], logprobs=[], **self.at(index))
            else:
                out += self.event("response.refusal.done", refusal=part["refusal"], **self.at(index))
            out += self.event("response.content_part.done", part=part, **self.at(index))
        return self.finish_calls(out)

    def finish_calls(self, out: bytes) -> bytes:
        """The function calls' arguments done, every item done, then the final response event."""
        response = finished(self.response, self.output, self.finish_reason)
        for index, item in enumerate(self.output):
            if item["type"] == "function_call":
                out += self.event(
                    "response.function_call_arguments.done",
                    item_id=item["id"],
                    output_index=index,
                    name=item["name"],
                    arguments=item["arguments"],
                )
            out += self.event("response.output_item.done", output_index=index, item=item)
        return out + self.event(f"response.{response['status']}", response=response)

    def fail(self, error: GatewayError) -> bytes:
        """A failure once the stream has begun: an ``error`` event, then ``response.failed``."""
        out = self.event("error", code=error.code, message=error.message, param=error.param)
        failed = {
            **self.response,
            "status": "failed",
            "error": {"code": error.code or "server_error", "message": error.message},
        }
        return out + self.event("response.failed", response=failed)


async def stream(events: Events, chunks: AsyncGenerator[dict[str, Any], None]) -> AsyncIterator[bytes]:
    """The Responses SSE stream of ``chunks`` (chat completion chunks the chat path lets out)."""
    yield events.start()
    async with contextlib.aclosing(chunks):
        try:
            async for chunk in chunks:
                if out := events.feed(chunk):
                    yield out
        except GatewayError as e:
            yield events.fail(e)
            return
    yield events.finish()
