"""A local OpenAI-compatible LLM judge for the llm and hybrid engines' tests: the edge we don't own.

It answers each of the engine's prompts as a capable model would (``scripted_reply``: the decomposition
a careful reader makes, verification by word overlap with each page, the answer back as the revision),
in OpenAI's chat-completion shape with token usage. ``script`` makes the next requests misbehave, one
entry per request: ``malformed`` (prose instead of the asked format), ``truncated`` (cut at
max_tokens), ``429`` (rate limited), ``500``, ``slow`` (answers after ``slow_s``); ``default`` is
what every request gets once the script is used up.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from factsentry.bench.scoring import scripted_reply
from factsentry.embedded import free_port


@dataclass
class JudgeServer:
    script: list[str] = field(default_factory=list)
    default: str = "ok"
    slow_s: float = 3.0
    requests: list[dict[str, Any]] = field(default_factory=list)
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
        out = []
        for body in self.requests:
            system = body["messages"][0]["content"]
            out.append("decompose" if "atomic facts" in system else "verify" if "fact checker" in system else "revise")
        return out

    async def _handle(self, request: web.Request) -> web.Response:
        body = await request.json()
        if request.headers.get("authorization") != "Bearer sk-judge":
            return web.json_response({"error": {"message": "bad key", "type": "invalid_request_error"}}, status=401)
        self.requests.append(body)
        behaviour = self.script.pop(0) if self.script else self.default
        if behaviour == "429":
            error = {"error": {"message": "Rate limit reached for judge-1", "type": "rate_limit_error"}}
            return web.json_response(error, status=429, headers={"retry-after": "0"})
        if behaviour == "500":
            return web.json_response({"error": {"message": "internal error", "type": "server_error"}}, status=500)
        if behaviour == "slow":
            await asyncio.sleep(self.slow_s)
        reply = scripted_reply(body["messages"])
        finish = "stop"
        if behaviour == "malformed":
            reply = "I'd be happy to help! Could you tell me more about what you need?"
        elif behaviour == "truncated":
            reply, finish = reply[: max(1, len(reply) // 3)], "length"
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
