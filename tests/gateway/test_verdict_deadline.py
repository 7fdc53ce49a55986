"""A verdict wait whose deadline and outcome fall in the same turn of the event loop.

Under load the loop runs late, and what was due at different times runs at once: the wait's deadline and
the publisher's report that the broker never acknowledged the generation. The outcome that landed must
win over the deadline: reported lost, the generation is no longer counted as unacknowledged, so a wait
that answered ``timeout`` was released under ``on_timeout: open`` although the broker was down (seen in
CI: a frozen broker, three answers past a 1.5 s timeout, ``timeout`` instead of ``unavailable``).
"""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Literal

import redis.asyncio as aioredis

from bus.results import Outcome, ResultStore, VerdictListener


class _NoticedLookup(ResultStore):
    """The store, telling the test when a wait has looked up the stored verdict (it then starts its timer)."""

    def __init__(self, client: aioredis.Redis, prefix: str) -> None:
        super().__init__(client, prefix)
        self.looked = asyncio.Event()

    async def lookup(self, request_id: str) -> Outcome | None:
        stored = await super().lookup(request_id)
        self.looked.set()
        return stored


async def _wait_with_a_late_loop(redis_url: str, status: Literal["failed", "unavailable"]) -> Outcome:
    """Wait 50 ms for a verdict while the outcome is reported at 50 ms too, then hold the loop for 200 ms, so
    both are due in the same turn (the deadline first: its timer was armed first)."""
    client = aioredis.from_url(redis_url)
    store = _NoticedLookup(client, f"deadline-{uuid.uuid4().hex[:8]}")
    listener = VerdictListener(store)
    await listener.start()
    try:
        waiting = asyncio.create_task(listener.wait("fs-late", timeout=0.05))
        await store.looked.wait()
        loop = asyncio.get_running_loop()
        loop.call_later(0.05, listener.fail_local, "fs-late", "not acknowledged in time", status)
        time.sleep(0.2)  # noqa: ASYNC251 -- on purpose: the loop is late, the deadline and the report run in one turn
        return await asyncio.wait_for(waiting, 10)
    finally:
        await listener.stop()
        await client.aclose()


async def test_an_unavailable_outcome_landing_with_the_deadline_wins(redis_url: str) -> None:
    outcome = await _wait_with_a_late_loop(redis_url, "unavailable")
    assert outcome.status == "unavailable"
    assert outcome.reason == "not acknowledged in time"


async def test_a_failed_outcome_landing_with_the_deadline_wins(redis_url: str) -> None:
    outcome = await _wait_with_a_late_loop(redis_url, "failed")
    assert outcome.status == "failed"


async def test_a_wait_nobody_answers_still_ends_at_its_deadline(redis_url: str) -> None:
    client = aioredis.from_url(redis_url)
    listener = VerdictListener(ResultStore(client, f"deadline-{uuid.uuid4().hex[:8]}"))
    await listener.start()
    try:
        start = time.perf_counter()
        outcome = await listener.wait("fs-nobody", timeout=0.2)
        elapsed = time.perf_counter() - start
    finally:
        await listener.stop()
        await client.aclose()
    assert outcome.status == "timeout"
    assert 0.19 <= elapsed < 5
