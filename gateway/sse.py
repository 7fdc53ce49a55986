"""Server-sent events in the shape OpenAI's streaming API uses."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any

import orjson

from gateway.errors import GatewayError

DONE = b"data: [DONE]\n\n"
_SENTENCE_END = re.compile(r"(?<=[.!?])(?=\s)")


def event(data: dict[str, Any]) -> bytes:
    return b"data: " + orjson.dumps(data) + b"\n\n"


async def encode(chunks: AsyncGenerator[dict[str, Any], None]) -> AsyncIterator[bytes]:
    """A chat completion stream's chunks as SSE events, then ``[DONE]``; a failure once the stream has begun (its
    HTTP status is out) as an error event instead (the OpenAI SDKs raise it)."""
    async with contextlib.aclosing(chunks):
        try:
            async for chunk in chunks:
                yield event(chunk)
        except GatewayError as e:
            yield event(e.body())
            return
    yield DONE


def delta_text(chunk: dict[str, Any]) -> str:
    """The assistant text a chat.completion.chunk adds to choice 0 ('' if none)."""
    for choice in chunk.get("choices") or []:
        # Only the first choice is published and checked (n > 1 streams interleave their choices).
        if isinstance(choice, dict) and choice.get("index", 0) == 0:
            delta = choice.get("delta")
            content = delta.get("content") if isinstance(delta, dict) else None
            return content if isinstance(content, str) else ""
    return ""


def text_chunks(
    text: str,
    *,
    request_id: str,
    model: str,
    finish_reason: str = "stop",
    created: int | None = None,
    refusal: bool = False,
    in_content: bool = False,
) -> list[dict[str, Any]]:
    """``text`` as chat.completion.chunk objects, one per sentence, then a finishing chunk.

    ``refusal``: the text is a refusal, streamed as ``delta.refusal`` with ``content`` null (OpenAI's refusal
    delta); ``in_content``: in ``delta.content`` too, for clients that read only that."""
    created = created or int(time.time())
    base = {"id": request_id, "object": "chat.completion.chunk", "created": created, "model": model}
    parts = [p for p in _SENTENCE_END.split(text) if p]  # the white space stays with the next sentence
    chunks = []
    for i, piece in enumerate(parts):
        delta: dict[str, Any] = {"content": piece if not refusal or in_content else None}
        if refusal:
            delta["refusal"] = piece
        if i == 0:
            delta["role"] = "assistant"
        chunks.append({**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]})
    chunks.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish_reason}]})
    return chunks
