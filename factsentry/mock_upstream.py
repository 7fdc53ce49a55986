"""A small, fast OpenAI-compatible server standing in for the upstream LLM (the edge we don't own).

Used by ``factsentry bench gateway`` and the tests. It answers ``POST /v1/chat/completions``
(JSON or SSE) with a fixed answer, or with the answer keyed by the last user message (a later turn by
"first question#N"), and
``GET /v1/models``. Asked with ``tools`` (and ``tool_choice`` not ``none``) while the last message is the user's, it
calls the first function tool instead, with ``{"query": <the user's text>}`` as arguments, as an agent's model does
before it answers from the tool's result. Run it as ``python -m factsentry.mock_upstream --port 8000``.
"""

from __future__ import annotations

import argparse
import asyncio
import time
import uuid
from collections.abc import Mapping

import orjson

DEFAULT_ANSWER = "Paris is the capital of France."
# An answer that makes the mock refuse the call as a rate-limited provider would (scripted faults in tests).
RATE_LIMITED = "<rate-limited>"


def usage(answer: str) -> dict[str, int]:
    return {"prompt_tokens": 12, "completion_tokens": len(answer.split()), "total_tokens": 12 + len(answer.split())}


def completion(answer: str, model: str) -> dict[str, object]:
    return {
        "id": "chatcmpl-" + uuid.uuid4().hex[:12],
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": answer}, "finish_reason": "stop"}],
        "usage": usage(answer),
    }


def tool_call(request: Mapping[str, object]) -> dict[str, object] | None:
    """The tool call the mock makes for ``request``: the first function tool, called with the user's text, when
    tools are offered and the last message is the user's; else None (it answers)."""
    tools, messages = request.get("tools"), request.get("messages")
    if not isinstance(tools, list) or not tools or request.get("tool_choice") == "none":
        return None
    if not isinstance(messages, list) or not messages or not isinstance(messages[-1], dict):
        return None
    if messages[-1].get("role") != "user":
        return None
    first = tools[0].get("function") if isinstance(tools[0], dict) else None
    name = first.get("name") if isinstance(first, dict) else None
    if not isinstance(name, str):
        return None
    query = messages[-1].get("content")
    arguments = orjson.dumps({"query": query if isinstance(query, str) else ""}).decode()
    return {
        "id": "call_" + uuid.uuid4().hex[:12],
        "type": "function",
        "function": {"name": name, "arguments": arguments},
    }


def tool_completion(call: dict[str, object], model: str) -> dict[str, object]:
    body = completion("", model)
    body["choices"] = [
        {
            "index": 0,
            "message": {"role": "assistant", "content": None, "tool_calls": [call]},
            "finish_reason": "tool_calls",
        }
    ]
    return body


def tool_events(call: dict[str, object], model: str, include_usage: bool = False) -> bytes:
    """The SSE events of a tool call: its id and name first, its arguments in two pieces, ``finish_reason``
    ``tool_calls``, the usage chunk if asked, ``[DONE]``."""
    cid = "chatcmpl-" + uuid.uuid4().hex[:12]
    function = call["function"]
    assert isinstance(function, dict)
    arguments = str(function["arguments"])
    half = len(arguments) // 2
    deltas: list[dict[str, object]] = [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "index": 0,
                    "id": call["id"],
                    "type": "function",
                    "function": {"name": function["name"], "arguments": ""},
                }
            ],
        },
        {"tool_calls": [{"index": 0, "function": {"arguments": arguments[:half]}}]},
        {"tool_calls": [{"index": 0, "function": {"arguments": arguments[half:]}}]},
    ]
    head = {"id": cid, "object": "chat.completion.chunk", "created": int(time.time()), "model": model}
    chunks = [{**head, "choices": [{"index": 0, "delta": d, "finish_reason": None}]} for d in deltas]
    chunks.append({**head, "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    if include_usage:
        chunks.append({**head, "choices": [], "usage": usage("")})
    return b"".join(b"data: " + orjson.dumps(c) + b"\n\n" for c in chunks) + b"data: [DONE]\n\n"


def stream_events(answer: str, model: str, include_usage: bool = False) -> bytes:
    return b"".join(event_list(answer, model, include_usage))


def event_list(answer: str, model: str, include_usage: bool = False) -> list[bytes]:
    """The SSE events of ``answer``: one word (token) a chunk, the finishing chunk, then (``include_usage``, as
    OpenAI sends it for ``stream_options.include_usage``) a chunk with no choices and the usage, ``[DONE]``."""
    cid = "chatcmpl-" + uuid.uuid4().hex[:12]
    created = int(time.time())
    words = answer.split(" ")
    out: list[bytes] = []
    for i, word in enumerate(words):
        delta = {"content": word if i == len(words) - 1 else word + " "}
        if i == 0:
            delta["role"] = "assistant"
        chunk = {
            "id": cid,
            "object": "chat.completion.chunk",
            "created": created,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": None}],
        }
        out.append(b"data: " + orjson.dumps(chunk) + b"\n\n")
    final = {
        "id": cid,
        "object": "chat.completion.chunk",
        "created": created,
        "model": model,
        "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
    }
    out.append(b"data: " + orjson.dumps(final) + b"\n\n")
    if include_usage:
        last = {**final, "choices": [], "usage": usage(answer)}
        out.append(b"data: " + orjson.dumps(last) + b"\n\n")
    out.append(b"data: [DONE]\n\n")
    return out


def metadata_problem(metadata: object) -> str | None:
    """Why OpenAI would refuse a request's ``metadata`` (up to 16 string keys of at most 64 characters, string
    values of at most 512), or None: a gateway must not pass on what it alone reads."""
    if metadata is None:
        return None
    if not isinstance(metadata, dict) or len(metadata) > 16:
        return "Invalid 'metadata': expected an object of at most 16 keys."
    for key, value in metadata.items():
        if len(key) > 64 or not isinstance(value, str) or len(value) > 512:
            return f"Invalid 'metadata.{key[:64]}': expected a string of at most 512 characters."
    return None


class _Protocol(asyncio.Protocol):
    def __init__(self, answers: Mapping[str, str], default: str, tokens_per_s: float | None = None) -> None:
        self.answers = answers
        self.default = default
        self.tokens_per_s = tokens_per_s  # streams paced like a model generating (None: all at once)
        self.buffer = bytearray()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # uvloop's transports are not asyncio.Transport

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self.buffer[:end]).decode("latin-1").split("\r\n")
            length = 0
            for line in head[1:]:
                key, _, value = line.partition(":")
                if key.strip().lower() == "content-length":
                    length = int(value.strip())
            if len(self.buffer) < end + 4 + length:
                return
            body = bytes(self.buffer[end + 4 : end + 4 + length])
            del self.buffer[: end + 4 + length]
            method, path, _ = head[0].split(" ", 2)
            self.respond(method, path, body)

    def _answer_for(self, request: dict[str, object]) -> str:
        messages = request.get("messages")
        if isinstance(messages, list):
            # A later turn of a conversation ("question#2": the answer after one reply of the assistant).
            users = [m.get("content") for m in messages if isinstance(m, dict) and m.get("role") == "user"]
            turn = 1 + sum(1 for m in messages if isinstance(m, dict) and m.get("role") == "assistant")
            if turn > 1 and users and isinstance(users[0], str) and f"{users[0]}#{turn}" in self.answers:
                return self.answers[f"{users[0]}#{turn}"]
            for m in reversed(messages):
                if isinstance(m, dict) and m.get("role") == "user" and isinstance(m.get("content"), str):
                    return self.answers.get(m["content"], self.default)
        return self.default

    def respond(self, method: str, path: str, body: bytes) -> None:
        assert self.transport is not None
        if method == "GET" and path.endswith("/models"):
            self.send(200, orjson.dumps({"object": "list", "data": [{"id": "mock", "object": "model"}]}))
            return
        if method != "POST" or not path.endswith("/chat/completions"):
            self.send(404, orjson.dumps({"error": {"message": "not found", "type": "invalid_request_error"}}))
            return
        try:
            request = orjson.loads(body)
        except orjson.JSONDecodeError:
            self.send(400, orjson.dumps({"error": {"message": "bad json", "type": "invalid_request_error"}}))
            return
        model = str(request.get("model", "mock"))
        if model == "fail-429" or self._answer_for(request) == RATE_LIMITED:
            self.send(
                429,
                orjson.dumps(
                    {
                        "error": {
                            "message": "Rate limit reached",
                            "type": "rate_limit_error",
                            "code": "rate_limit_exceeded",
                        }
                    }
                ),
            )
            return
        problem = metadata_problem(request.get("metadata"))
        if problem:
            error = {"message": problem, "type": "invalid_request_error", "param": "metadata", "code": None}
            self.send(400, orjson.dumps({"error": error}))
            return
        answer = self._answer_for(request)
        options = request.get("stream_options")
        include_usage = isinstance(options, dict) and options.get("include_usage") is True
        call = tool_call(request)
        if call is not None and request.get("stream"):
            self.send(200, tool_events(call, model, include_usage), "text/event-stream")
        elif call is not None:
            self.send(200, orjson.dumps(tool_completion(call, model)))
        elif request.get("stream") and self.tokens_per_s:
            events = event_list(answer, model, include_usage)
            asyncio.get_running_loop().create_task(self._paced(events, 1 / self.tokens_per_s))
        elif request.get("stream"):
            self.send(200, stream_events(answer, model, include_usage), "text/event-stream")
        else:
            self.send(200, orjson.dumps(completion(answer, model)))

    async def _paced(self, events: list[bytes], gap_s: float) -> None:
        """One event every ``gap_s`` seconds, in HTTP/1.1 chunked encoding."""
        assert self.transport is not None
        self.transport.write(
            b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n"
            b"connection: keep-alive\r\n\r\n"
        )
        for i, event in enumerate(events):
            if i:
                await asyncio.sleep(gap_s)
            if self.transport.is_closing():
                return
            self.transport.write(b"%x\r\n%s\r\n" % (len(event), event))
        self.transport.write(b"0\r\n\r\n")

    def send(self, status: int, payload: bytes, content_type: str = "application/json") -> None:
        assert self.transport is not None
        reason = {200: "OK", 400: "Bad Request", 404: "Not Found", 429: "Too Many Requests"}.get(status, "Error")
        head = (
            f"HTTP/1.1 {status} {reason}\r\ncontent-type: {content_type}\r\n"
            f"content-length: {len(payload)}\r\nconnection: keep-alive\r\n\r\n"
        )
        self.transport.write(head.encode() + payload)


async def serve(
    host: str,
    port: int,
    answers: Mapping[str, str] | None = None,
    default: str = DEFAULT_ANSWER,
    tokens_per_s: float | None = None,
) -> asyncio.Server:
    loop = asyncio.get_running_loop()
    return await loop.create_server(
        lambda: _Protocol(answers or {}, default, tokens_per_s), host, port, reuse_address=True
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--answer", default=DEFAULT_ANSWER)
    parser.add_argument("--tokens-per-s", type=float, help="pace streams like a model generating (default: at once)")
    args = parser.parse_args()

    async def run() -> None:
        server = await serve(args.host, args.port, default=args.answer, tokens_per_s=args.tokens_per_s)
        async with server:
            await server.serve_forever()

    try:
        import uvloop

        uvloop.run(run())
    except ImportError:
        asyncio.run(run())


if __name__ == "__main__":
    main()
