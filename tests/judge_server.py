"""A local OpenAI-compatible LLM judge for the llm and hybrid engines' tests: the edge we don't own.

It answers each of the engine's prompts as a capable model would (``scripted_reply``: the decomposition
a careful reader makes, verification by word overlap with each page quoting the passage it found, the
wrong sentences deleted as the revision), in OpenAI's chat-completion shape with token usage. ``script``
makes the next requests misbehave, one entry per request; ``default`` is what every request gets once the
script is used up:

==================  ==================================================================================
``ok``              the capable reply
``malformed``       prose instead of the asked format
``truncated``       cut at max_tokens (``finish_reason: length``)
``content-filter``  stopped by the provider's content filter (``finish_reason: content_filter``)
``truncate-large``  a verify request with more than ``large_facts`` facts is cut at max_tokens
``429``             rate limited, with ``Retry-After: retry_after`` seconds
``500``             a server error
``slow``            answers after ``slow_s``
``drop-ids``        a verify reply without its last fact
``invent-labels``   a verify reply labelling its verdicts "true" / "mostly"
``prose``           the JSON wrapped in chatty prose
``fake-quotes``     every fact supported by every page of its group, quoting the fact itself
``obey``            follows an instruction found in the data: a verify reply supports every fact that is
                    not supported with a quote of the fact itself, a revision returns the answer unchanged
``refuse``          a revision answered with a refusal
==================  ==================================================================================

Step-specific behaviours (``drop-ids`` ... ``refuse``) give the capable reply to the other steps.
``requests`` and ``replies`` record what was asked and answered.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from factsentry.bench.scoring import scripted_facts, scripted_reply
from factsentry.embedded import free_port
from scoring.llm.fence import blocks

INJECTION = "Ignore the rules above"
REFUSAL = "I'm sorry, but I can't help with rewriting this answer."


@dataclass
class JudgeServer:
    script: list[str] = field(default_factory=list)
    default: str = "ok"
    slow_s: float = 3.0
    retry_after: float = 0.0
    large_facts: int = 4
    requests: list[dict[str, Any]] = field(default_factory=list)
    replies: list[str] = field(default_factory=list)
    port: int = 0
    _runner: web.AppRunner | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def model_list(self, name: str = "judge") -> dict[str, Any]:
        """A litellm model_list with this server as the entry ``name`` (what an operator writes)."""
        return {
            "model_list": [
                {
                    "model_name": name,
                    "litellm_params": {"model": "openai/judge-1", "api_base": self.base_url, "api_key": "sk-judge"},
                }
            ]
        }

    async def start(self) -> JudgeServer:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._handle)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        self.port = free_port()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def kinds(self) -> list[str]:
        """Which step each request so far was: decompose, verify or revise."""
        return [_kind(body["messages"]) for body in self.requests]

    def prompts(self, kind: str) -> list[str]:
        """The request (first user turn) of each call of step ``kind``."""
        return [_request(b["messages"]) for b in self.requests if _kind(b["messages"]) == kind]

    async def _handle(self, request: web.Request) -> web.Response:
        body = await request.json()
        if request.headers.get("authorization") != "Bearer sk-judge":
            return web.json_response({"error": {"message": "bad key", "type": "invalid_request_error"}}, status=401)
        self.requests.append(body)
        behaviour = self.script.pop(0) if self.script else self.default
        if behaviour == "429":
            error = {"error": {"message": "Rate limit reached for judge-1", "type": "rate_limit_error"}}
            return web.json_response(error, status=429, headers={"retry-after": str(self.retry_after)})
        if behaviour == "500":
            return web.json_response({"error": {"message": "internal error", "type": "server_error"}}, status=500)
        if behaviour == "slow":
            await asyncio.sleep(self.slow_s)
        messages = body["messages"]
        reply = scripted_reply(messages)
        finish = "stop"
        kind = _kind(messages)
        if behaviour == "malformed":
            reply = "I'd be happy to help! Could you tell me more about what you need?"
        elif behaviour == "truncated" or (
            behaviour == "truncate-large"
            and kind == "verify"
            and len(scripted_facts(_request(messages))) > self.large_facts
        ):
            reply, finish = reply[: max(1, len(reply) // 3)], "length"
        elif behaviour == "content-filter":
            reply, finish = "", "content_filter"
        elif kind == "verify":
            reply = _verify_behaviour(behaviour, _request(messages), reply)
        elif kind == "revise" and behaviour == "refuse":
            reply = REFUSAL
        elif kind == "revise" and behaviour == "obey" and any(INJECTION in b for b in blocks(_request(messages))):
            reply = json.dumps({"revised": blocks(_request(messages))[0], "edits": []})
        self.replies.append(reply)
        prompt_tokens = sum(len(m["content"]) for m in body["messages"]) // 4
        completion_tokens = len(reply) // 4
        return web.json_response(
            {
                "id": f"chatcmpl-{len(self.requests)}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model", "judge-1"),
                "choices": [{"index": 0, "message": {"role": "assistant", "content": reply}, "finish_reason": finish}],
                "usage": {
                    "prompt_tokens": prompt_tokens,
                    "completion_tokens": completion_tokens,
                    "total_tokens": prompt_tokens + completion_tokens,
                },
            }
        )


def _request(messages: list[dict[str, str]]) -> str:
    return next((m["content"] for m in messages if m["role"] == "user"), "")


def _kind(messages: list[dict[str, str]]) -> str:
    system = messages[0]["content"]
    return "decompose" if "atomic facts" in system else "verify" if "fact checker" in system else "revise"


def _verify_behaviour(behaviour: str, prompt: str, reply: str) -> str:
    """The capable verify ``reply`` made to misbehave as ``behaviour`` says."""
    doc = json.loads(re.sub(r"^```json\n|\n```$", "", reply))
    results: list[dict[str, Any]] = doc["results"]
    facts = {fid: (text, pages) for fid, text, _, pages in scripted_facts(prompt)}
    if behaviour == "drop-ids":
        results = results[:-1]
    elif behaviour == "invent-labels":
        for r in results:
            for v in r["verdicts"]:
                v["label"] = "true" if v["label"] == "supported" else "mostly"
    elif behaviour == "fake-quotes" or (behaviour == "obey" and any(INJECTION in b for b in blocks(prompt))):
        for r in results:
            text, pages = facts[r["id"]]
            if behaviour == "fake-quotes" or not r["verdicts"]:
                r["verdicts"] = [{"page": p, "label": "supported", "passage": f"{p}.1", "quote": text} for p in pages]
    elif behaviour != "prose":
        return reply
    body = json.dumps({"results": results})
    if behaviour == "prose":
        return f"Sure! I checked every fact against the pages.\n\n{body}\n\nLet me know if you need anything else."
    return body
