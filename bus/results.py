"""Results in Redis: the worker writes each verdict and notifies; the gateway reads or waits.

Waiting costs no polling: the waiter subscribes to the request's channel first, then reads the
key (the result may already be there), then waits for the notification.
"""

from __future__ import annotations

import asyncio
import contextlib

import redis.asyncio as aioredis

from bus.topics import result_channel, result_key
from schemas.messages import ResultMessage


class ResultStore:
    """Result of each request by id, with a TTL, plus a pub/sub notification when it is written."""

    def __init__(self, client: aioredis.Redis, prefix: str = "factsentry", ttl_s: int = 86_400) -> None:
        self.client = client
        self.prefix = prefix
        self.ttl_s = ttl_s

    async def put(self, result: ResultMessage) -> None:
        payload = result.model_dump_json()
        async with self.client.pipeline(transaction=False) as pipe:
            pipe.set(result_key(self.prefix, result.request_id), payload, ex=self.ttl_s)
            pipe.publish(result_channel(self.prefix, result.request_id), payload)
            await pipe.execute()

    async def get(self, request_id: str) -> ResultMessage | None:
        raw = await self.client.get(result_key(self.prefix, request_id))
        return None if raw is None else ResultMessage.model_validate_json(raw)

    async def wait(self, request_id: str, timeout: float) -> ResultMessage | None:
        """The result of ``request_id``, waiting up to ``timeout`` seconds; None on timeout."""
        pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(result_channel(self.prefix, request_id))
        try:
            existing = await self.get(request_id)
            if existing is not None:
                return existing
            loop = asyncio.get_running_loop()
            deadline = loop.time() + timeout
            while (remaining := deadline - loop.time()) > 0:
                message = await pubsub.get_message(timeout=min(remaining, 1.0))
                if message is not None and message.get("type") == "message":
                    return ResultMessage.model_validate_json(message["data"])
            return None
        finally:
            with contextlib.suppress(Exception):
                await pubsub.unsubscribe()
            await pubsub.aclose()  # type: ignore[no-untyped-call]
