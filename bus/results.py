"""Results in Redis: the worker writes each verdict and notifies; the gateway reads or waits.

Waiting costs no polling and no connection per request: each gateway process holds ONE pub/sub
connection (:class:`VerdictListener`, a pattern subscription to every request's channel) and
hands notifications to per-request futures. A waiter registers its future first, then reads the
key (the result may already be there), then waits for the notification.

A worker that cannot score a record (dead-lettered, cut by its budget) calls
:meth:`ResultStore.fail`, which stores a short-lived failure marker and notifies the same channel,
so a waiting gateway acts at once instead of waiting out its deadline.

A stored verdict is zlib-compressed JSON (:func:`pack`): a verdict's JSON carries every fact with its evidence,
about 18 KB in the soak, 2.3 KB compressed (8x, half a millisecond), and the results are most of what Redis
holds (102 of 152 MB after 11 minutes at 20 requests/s). The notification goes out as plain JSON: nothing
keeps it. A value stored before (plain JSON, which starts with ``{``) is still read.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import zlib
from dataclasses import dataclass
from typing import Literal

import orjson
import redis.asyncio as aioredis

from bus.topics import failure_key, result_channel, result_key
from schemas.messages import ResultMessage

log = logging.getLogger(__name__)

# A failure marker only has to outlive the gateway's longest wait.
FAILURE_TTL_S = 900


@dataclass(frozen=True)
class Outcome:
    """What a wait for a verdict ended with.

    ``status`` is ``checked`` (``result`` is set), ``failed`` (the pipeline gave up on the record:
    ``reason`` says why), ``timeout`` or ``unavailable`` (Redis could not be reached).
    """

    status: Literal["checked", "failed", "timeout", "unavailable"]
    result: ResultMessage | None = None
    reason: str | None = None


def pack(payload: str | bytes) -> bytes:
    """A verdict's JSON as stored in Redis: zlib-compressed (level 1; its stream starts with byte 0x78)."""
    return zlib.compress(payload.encode() if isinstance(payload, str) else payload, 1)


def unpack(raw: bytes | str) -> bytes | str:
    """A stored verdict's JSON: decompressed when :func:`pack` compressed it, as it is when plain JSON."""
    return zlib.decompress(raw) if isinstance(raw, bytes) and raw[:1] == b"\x78" else raw


def _parse(raw: bytes | str) -> ResultMessage | Outcome:
    """A notification or stored value: a verdict, or a failure marker ``{"failed": reason}``."""
    data = orjson.loads(raw)
    if isinstance(data, dict) and "failed" in data and "check" not in data:
        return Outcome("failed", reason=str(data["failed"]))
    return ResultMessage.model_validate(data)


class ResultStore:
    """Result of each request by id, with a TTL, plus a pub/sub notification when it is written."""

    def __init__(
        self, client: aioredis.Redis, prefix: str = "factsentry", ttl_s: int = 86_400, *, compress: bool = True
    ) -> None:
        self.client = client
        self.prefix = prefix
        self.ttl_s = ttl_s
        # Off (FACTSENTRY_RESULT_COMPRESSION=false): plain JSON, which gateways from before compression read.
        self.compress = compress

    async def put(self, result: ResultMessage) -> None:
        payload = result.model_dump_json()
        async with self.client.pipeline(transaction=False) as pipe:
            stored = pack(payload) if self.compress else payload
            pipe.set(result_key(self.prefix, result.request_id), stored, ex=self.ttl_s)
            pipe.publish(result_channel(self.prefix, result.request_id), payload)
            await pipe.execute()

    async def fail(self, request_id: str, reason: str) -> None:
        """Record that ``request_id`` will get no verdict (``reason``: why) and wake its waiters."""
        payload = orjson.dumps({"request_id": request_id, "failed": reason[:500]})
        async with self.client.pipeline(transaction=False) as pipe:
            pipe.set(failure_key(self.prefix, request_id), payload, ex=FAILURE_TTL_S)
            pipe.publish(result_channel(self.prefix, request_id), payload)
            await pipe.execute()

    async def get(self, request_id: str) -> ResultMessage | None:
        raw = await self.client.get(result_key(self.prefix, request_id))
        return None if raw is None else ResultMessage.model_validate_json(unpack(raw))

    async def wait(self, request_id: str, timeout: float) -> ResultMessage | None:
        """The verdict of ``request_id``, waiting up to ``timeout`` s on a subscription of its own; None if none.

        For one-off callers (the CLI, tests); a process with many waits shares one :class:`VerdictListener`.
        """
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
                    parsed = _parse(message["data"])
                    return None if isinstance(parsed, Outcome) else parsed
            return None
        finally:
            with contextlib.suppress(Exception):
                await pubsub.unsubscribe()
            await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def lookup(self, request_id: str) -> Outcome | None:
        """The verdict or failure already stored for ``request_id``, if any (one round trip)."""
        raw_result, raw_failure = await self.client.mget(
            [result_key(self.prefix, request_id), failure_key(self.prefix, request_id)]
        )
        if raw_result is not None:
            return Outcome("checked", ResultMessage.model_validate_json(unpack(raw_result)))
        if raw_failure is not None:
            parsed = _parse(raw_failure)
            return parsed if isinstance(parsed, Outcome) else Outcome("checked", parsed)
        return None


class VerdictListener:
    """One pub/sub connection for every verdict wait of a process.

    ``start()`` subscribes to ``<prefix>:done:*`` and keeps the subscription alive, reconnecting
    with backoff after a Redis outage. While it is down, :meth:`wait` answers ``unavailable`` at
    once (waiting would only run out the deadline), and the waits in progress when it went down
    are ended with ``unavailable`` too: a notification may have been missed.

    Example::

        listener = VerdictListener(store)
        await listener.start()
        outcome = await listener.wait("fs-1234", timeout=10)
    """

    def __init__(
        self, store: ResultStore, *, reconnect_max_s: float = 2.0, client: aioredis.Redis | None = None
    ) -> None:
        """``client``: the connection the subscription uses (the store's by default); give one that does
        not retry silently (see ``BusSettings.redis_pool_options``), so an outage is noticed and the waits
        it may have cost a notification end ``unavailable``."""
        self.store = store
        self.client = client if client is not None else store.client
        self.reconnect_max_s = reconnect_max_s
        self.up = asyncio.Event()
        self._waiters: dict[str, list[asyncio.Future[Outcome]]] = {}
        self._task: asyncio.Task[None] | None = None
        self._channel_head = result_channel(store.prefix, "")
        self._early: dict[str, Outcome] = {}

    @property
    def waiting(self) -> int:
        """How many requests are waiting for a verdict now."""
        return sum(len(v) for v in self._waiters.values())

    def waiting_ids(self) -> list[str]:
        """The request ids with a wait in progress now (an id leaves once its last wait ends)."""
        return list(self._waiters)

    async def start(self, ready_timeout: float = 2.0) -> None:
        """Start listening; waits up to ``ready_timeout`` for the subscription (Redis may be down)."""
        self._task = asyncio.create_task(self._run(), name="factsentry-verdict-listener")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.up.wait(), ready_timeout)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._abort_all("the gateway is shutting down")

    async def wait(self, request_id: str, timeout: float) -> Outcome:
        """The outcome for ``request_id`` within ``timeout`` seconds."""
        if (early := self._early.pop(request_id, None)) is not None:
            return early
        if not self.up.is_set():
            return Outcome("unavailable", reason="the verdict listener is not connected to Redis")
        future: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(request_id, []).append(future)
        try:
            try:
                stored = await self.store.lookup(request_id)
            except (aioredis.RedisError, OSError) as e:
                return Outcome("unavailable", reason=f"Redis: {e}")
            if stored is not None:
                return stored
            try:
                return await asyncio.wait_for(asyncio.shield(future), timeout)
            except TimeoutError:
                if future.done() and not future.cancelled():
                    # An outcome that landed in the same turn of the loop as the deadline (a late loop runs
                    # both at once under load) wins: the publisher may have just reported the generation
                    # lost, and by then it no longer counts it as unacknowledged.
                    return future.result()
                return Outcome("timeout")
        finally:
            waiters = self._waiters.get(request_id)
            if waiters is not None:
                with contextlib.suppress(ValueError):
                    waiters.remove(future)
                if not waiters:
                    del self._waiters[request_id]
            if not future.done():
                future.cancel()

    def fail_local(self, request_id: str, reason: str, status: Literal["failed", "unavailable"] = "failed") -> None:
        """End the waits for ``request_id`` with ``status`` (this process knows no verdict can come):
        ``failed`` for the record's own fault, ``unavailable`` when the broker could not take it.

        Remembered for a while if nobody waits yet, so a wait that starts just after still sees it.
        """
        outcome = Outcome(status, reason=reason)
        waiters = self._waiters.get(request_id)
        if waiters:
            for future in waiters:
                if not future.done():
                    future.set_result(outcome)
            return
        self._early[request_id] = outcome
        while len(self._early) > 10_000:
            self._early.pop(next(iter(self._early)))

    def fail_waiting(
        self, reason: str, only: set[str] | None = None, status: Literal["failed", "unavailable"] = "failed"
    ) -> list[str]:
        """End the waits in progress (of the ids in ``only``, if given) with ``status``; the ids ended."""
        outcome = Outcome(status, reason=reason)
        ended = []
        for request_id, waiters in list(self._waiters.items()):
            if only is not None and request_id not in only:
                continue
            live = [f for f in waiters if not f.done()]
            for future in live:
                future.set_result(outcome)
            if live:
                ended.append(request_id)
        return ended

    def _deliver(self, channel: bytes | str, data: bytes | str) -> None:
        name = channel.decode() if isinstance(channel, bytes) else channel
        request_id = name[len(self._channel_head) :]
        waiters = self._waiters.get(request_id)
        if not waiters:
            return
        try:
            parsed = _parse(data)
        except (ValueError, TypeError) as e:  # pydantic's ValidationError is a ValueError
            log.warning("unreadable verdict notification for %s: %s", request_id, e)
            return
        outcome = parsed if isinstance(parsed, Outcome) else Outcome("checked", parsed)
        for future in waiters:
            if not future.done():
                future.set_result(outcome)

    def _abort_all(self, reason: str) -> None:
        for waiters in self._waiters.values():
            for future in waiters:
                if not future.done():
                    future.set_result(Outcome("unavailable", reason=reason))

    async def _run(self) -> None:
        pattern = self._channel_head + "*"
        delay = 0.1
        while True:
            pubsub = self.client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(pattern)
                self.up.set()
                delay = 0.1
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is not None and message.get("type") == "pmessage":
                        self._deliver(message["channel"], message["data"])
            except asyncio.CancelledError:
                raise
            except (aioredis.RedisError, OSError) as e:
                if self.up.is_set():
                    log.warning("verdict listener lost Redis (%s): waiting requests follow on_unavailable", e)
                self.up.clear()
                self._abort_all(f"lost the connection to Redis: {e}")
                await asyncio.sleep(delay)
                delay = min(delay * 2, self.reconnect_max_s)
            finally:
                self.up.clear()
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
