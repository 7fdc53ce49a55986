"""Outages are named for what they are (issue 31, item 6): a broker or Redis that is down is
``unavailable`` and follows ``on_unavailable`` at once; it is never a slow verdict that runs out the
policy's timeout and then follows ``on_timeout``. A record the broker acknowledged whose verdict is
slow is a timeout; a record it never acknowledged is unavailable. Pooled Redis connections and the
verdict listener recover within seconds of a valkey restart, and ``/readyz`` says so honestly.

The servers are real and killed for real (``kill -9``, ``SIGSTOP``): the embedded tansu broker and valkey
on loopback ports of their own, a uvicorn gateway and, where verdicts are needed, an in-process worker.
Every loop is bounded in count and in time.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import httpx
import orjson
import pytest
from aiokafka.errors import (
    InvalidTopicError,
    KafkaConnectionError,
    KafkaTimeoutError,
    MessageSizeTooLargeError,
    NotLeaderForPartitionError,
    RequestTimedOutError,
)

from factsentry import embedded
from factsentry.demo_data import CONVERSATIONS
from gateway.access import Exchange
from gateway.policy import PolicySpec
from gateway.publisher import UNAVAILABLE_REASONS, _send_failure
from gateway.reask import reask
from gateway.release import REFUSALS
from gateway.request import About, ChatCall
from gateway.upstream import Completion
from tests.gateway.conftest import FAITHFUL, MERGED, GatewayFactory, RunningGateway, StartStack, released_unchecked
from tests.gateway.conftest import ask as ask_openai
from tests.servers import frozen, kill

WRONG_DATE = next(c for c in CONVERSATIONS if c.model == "demo-wrong-date")
GUARDED = {"mode": "block", "threshold": 0.75, "on_timeout": "open", "on_unavailable": "closed"}


@dataclass
class Answer:
    conv: Any
    status: str
    action: str
    content: str | None
    refusal: str | None
    elapsed: float


def sample(gw: RunningGateway, name: str, **labels: str) -> float:
    return gw.gateway.registry.get_sample_value(name, labels) or 0.0


async def ask(http: httpx.AsyncClient, conv: Any) -> Answer:
    start = time.monotonic()
    response = await http.post(
        "/v1/chat/completions",
        json={"model": "mock-lean", "messages": [{"role": "user", "content": conv.question}]},
        headers={"x-factsentry-name": conv.name},
    )
    assert response.status_code == 200, response.text
    message = response.json()["choices"][0]["message"]
    return Answer(
        conv,
        response.headers["x-factsentry-status"],
        response.headers["x-factsentry-action"],
        message.get("content"),
        message.get("refusal"),
        time.monotonic() - start,
    )


async def load(gw: RunningGateway, total: int, concurrency: int, answers: list[Answer]) -> None:
    """``total`` requests (merged and faithful biographies in turn), ``concurrency`` at a time."""
    queue: asyncio.Queue[Any] = asyncio.Queue()
    for i in range(total):
        queue.put_nowait(MERGED if i % 2 == 0 else FAITHFUL)

    async def client() -> None:
        async with httpx.AsyncClient(base_url=gw.base_url, timeout=120) as http:
            while not queue.empty():
                answers.append(await ask(http, queue.get_nowait()))

    await asyncio.gather(*(client() for _ in range(concurrency)))


async def ready(gw: RunningGateway) -> tuple[int, dict[str, Any]]:
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=10) as http:
        response = await http.get("/readyz")
        return response.status_code, response.json()


async def wait_ready(gw: RunningGateway, want: int, limit_s: float) -> float:
    """Seconds until ``/readyz`` answers ``want`` (polled every 0.1 s, at most ``limit_s``)."""
    start = time.monotonic()
    while time.monotonic() - start < limit_s:
        if (await ready(gw))[0] == want:
            return time.monotonic() - start
        await asyncio.sleep(0.1)
    raise AssertionError(f"/readyz did not answer {want} within {limit_s} s: {await ready(gw)}")


def assert_refused_unavailable(answer: Answer, timeout_s: float) -> None:
    assert answer.action == "block", answer
    assert answer.content is None, answer
    assert answer.refusal == REFUSALS["unavailable"], answer
    assert answer.elapsed < timeout_s / 2, f"waited {answer.elapsed:.1f} s: the outage ran out the timeout"


async def test_broker_kill_mid_load_refuses_every_unchecked_answer_as_unavailable(
    own_broker: embedded.ServerProcess, start_stack: StartStack
) -> None:
    """``kill -9`` of the broker while 6 clients ask: with ``on_timeout: open`` and ``on_unavailable:
    closed``, nothing is released unchecked; every answer without a verdict is refused at once with the
    unavailable reason and counted; ``/readyz`` is red while the broker is down."""
    timeout_s = 60.0
    gw = await start_stack(
        {"default": {**GUARDED, "timeout_s": timeout_s}},
        worker={"session_timeout_ms": 6000, "broker_check_s": 0.5},
        kafka_bootstrap=f"{own_broker.host}:{own_broker.port}",
    )
    await wait_ready(gw, 200, 30)
    answers: list[Answer] = []
    running = asyncio.create_task(load(gw, total=60, concurrency=6, answers=answers))
    deadline = time.monotonic() + 120
    while len(answers) < 12 and time.monotonic() < deadline and not running.done():
        await asyncio.sleep(0.05)
    assert len(answers) >= 12, "the load did not get going"
    checked_before = sum(a.status == "checked" for a in answers)
    kill(own_broker)  # mid-load
    killed = len(answers)
    status, body = await ready(gw)
    await asyncio.wait_for(running, 150)
    red_s = await wait_ready(gw, 503, 15)  # red at the latest once the broker watch looked

    refused = [a for a in answers if a.status == "unavailable"]
    released_unverified = [a for a in answers if a.status != "checked" and a.content is not None]
    print(
        f"\nbroker kill -9: {len(answers)} answers, {checked_before} checked before the kill, {killed} answered "
        f"by then; {len(refused)} refused unavailable (slowest {max((a.elapsed for a in refused), default=0):.2f} s), "
        f"{len(released_unverified)} released unchecked, "
        f"counted {sample(gw, 'factsentry_gateway_verdict_unavailable_total')}, "
        f"readyz at the kill {status} {body}, red within {red_s:.2f} s"
    )
    assert len(answers) == 60
    assert checked_before >= 1
    assert released_unverified == []
    assert released_unchecked(gw) == 0
    assert {a.status for a in answers} <= {"checked", "unavailable"}, sorted({a.status for a in answers})
    assert len(refused) >= 60 - killed - 6, "the requests sent after the kill must all be refused"
    for answer in refused:
        assert_refused_unavailable(answer, timeout_s)
    for answer in answers:
        if answer.conv is MERGED:
            assert answer.content != MERGED.answer
    # Counted: every refusal is one unavailable verdict, and the broker outage once.
    assert sample(gw, "factsentry_gateway_verdict_unavailable_total") == len(refused)
    assert sample(gw, "factsentry_gateway_broker_down_total") == 1
    assert sample(gw, "factsentry_gateway_blocked_total", model="mock-lean") >= len(refused)
    ready_body = (await ready(gw))[1]
    assert ready_body["ready"] is False and ready_body["kafka"].startswith("error")


@pytest.mark.parametrize("timeout_s", [1.5, 30.0])
async def test_a_record_the_broker_never_acknowledges_is_unavailable_not_a_timeout(
    own_broker: embedded.ServerProcess, start_gateway: GatewayFactory, timeout_s: float
) -> None:
    """A frozen broker (``SIGSTOP``: the connection stays open, nothing is acknowledged). With a policy
    timeout shorter than the acknowledgement bound the wait ends at the timeout as ``unavailable``; with a
    longer one it ends at the bound (2 s here), never at the timeout, and is never released under open."""
    gw = await start_gateway(
        {"default": {**GUARDED, "timeout_s": timeout_s}},
        kafka_bootstrap=f"{own_broker.host}:{own_broker.port}",
        publish_ack_timeout_s=2.0,
        broker_check_timeout_s=20.0,  # the watch must not be what notices: the missing acknowledgement is
    )
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=120) as http:
        warm = await ask(http, FAITHFUL)  # the producer is connected and has the topic's metadata
        assert warm.status == "timeout" and warm.content == FAITHFUL.answer  # acknowledged, no worker: slow
        with frozen(own_broker):
            answers = await asyncio.gather(*(ask(http, c) for c in (MERGED, FAITHFUL, MERGED)))
    bound = min(timeout_s, 2.0)
    print(f"\nfrozen broker, timeout {timeout_s} s: {[(a.status, round(a.elapsed, 2)) for a in answers]}")
    for answer in answers:
        assert answer.status == "unavailable", answer
        assert_refused_unavailable(answer, max(timeout_s, 2 * bound + 4))
        assert bound - 0.2 <= answer.elapsed < bound + 4
    # The acknowledged one was a timeout, released under on_timeout: open and counted as such; nothing else.
    assert sample(gw, "factsentry_gateway_released_unchecked_total", model="mock-lean", reason="timeout") == 1
    assert released_unchecked(gw) == 1
    assert sample(gw, "factsentry_gateway_verdict_unavailable_total") == 3


async def test_pooled_redis_connections_recover_once_valkey_restarts(
    own_valkey: embedded.ServerProcess, start_stack: StartStack
) -> None:
    """``kill -9`` of valkey under load and a restart on the same port: during the outage answers are
    refused (unavailable) and ``/readyz`` is red; once it is green again the next 50 requests, 10 at a
    time on the pool the warm-up filled, all get their verdict: 0 unavailable."""
    url = f"redis://{own_valkey.host}:{own_valkey.port}/0"
    gw = await start_stack({"default": {**GUARDED, "timeout_s": 30}}, redis_url=url)
    warm: list[Answer] = []
    await load(gw, total=30, concurrency=10, answers=warm)
    assert [a.status for a in warm] == ["checked"] * 30
    pooled = len(gw.gateway.redis.connection_pool._available_connections)  # type: ignore[attr-defined]
    assert pooled >= 2, "the warm-up must leave several pooled connections to go stale"

    kill(own_valkey)
    red_s = await wait_ready(gw, 503, 10)
    during: list[Answer] = []
    await load(gw, total=4, concurrency=2, answers=during)
    assert [a.status for a in during] == ["unavailable"] * 4
    for answer in during:
        assert_refused_unavailable(answer, 30)

    restarted = time.monotonic()
    own_valkey.start()
    green_s = await wait_ready(gw, 200, 30)
    after: list[Answer] = []
    await load(gw, total=50, concurrency=10, answers=after)
    unavailable = sum(a.status == "unavailable" for a in after)
    print(
        f"\nvalkey kill -9: {pooled} pooled connections, readyz red {red_s:.2f} s after the kill, green "
        f"{green_s:.2f} s after the restart; next 50: {unavailable} unavailable, "
        f"{sum(a.status == 'checked' for a in after)} checked, all done {time.monotonic() - restarted:.1f} s "
        f"after the restart"
    )
    assert green_s < 10
    assert unavailable == 0
    assert [a.status for a in after] == ["checked"] * 50
    assert released_unchecked(gw) == 0
    for answer in after:
        if answer.conv is MERGED:
            assert answer.action == "block" and answer.content is None


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (KafkaConnectionError("connection refused"), "broker_unreachable"),
        (KafkaTimeoutError("batch expired"), "broker_unreachable"),
        (RequestTimedOutError(), "broker_unreachable"),
        (NotLeaderForPartitionError(), "broker_unreachable"),
        (MessageSizeTooLargeError(), "send_failed"),
        (InvalidTopicError(), "send_failed"),
    ],
)
def test_a_failed_send_is_unavailable_when_the_broker_is_at_fault(error: Exception, reason: str) -> None:
    """The broker unreachable, timing out or without a leader: the wait follows on_unavailable as
    ``unavailable``; a record the broker refuses is the record's failure (``failed``)."""
    assert _send_failure(error) == reason
    assert (reason in UNAVAILABLE_REASONS) is (reason == "broker_unreachable")


async def broker_seen_down(gw: RunningGateway, limit_s: float = 20) -> None:
    """Until the gateway's broker watch has noticed the outage (polled every 0.1 s, at most ``limit_s``)."""
    deadline = time.monotonic() + limit_s
    while gw.gateway.publisher.down is None:
        assert time.monotonic() < deadline, f"the gateway did not notice the broker down within {limit_s} s"
        await asyncio.sleep(0.1)


async def test_factcheck_while_the_broker_is_down_is_unavailable(
    own_broker: embedded.ServerProcess, start_gateway: GatewayFactory
) -> None:
    """``/v1/factcheck`` names a broker outage as chat completions do, ``unavailable`` (503, retry), whether the
    text was queued before the gateway noticed (it was then reported as the result store being down) or refused
    after (it was then 'the gateway is overloaded'); it never waits out the check's timeout."""
    gw = await start_gateway(
        kafka_bootstrap=f"{own_broker.host}:{own_broker.port}", publish_ack_timeout_s=2.0, broker_check_timeout_s=1.0
    )
    text = {"text": FAITHFUL.answer, "timeout_s": 60}
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=120) as http:
        up = await http.post("/v1/factcheck", json={**text, "timeout_s": 0})
        assert up.status_code == 202, up.text  # queued, nobody checks it here: pending
        await gw.gateway.publisher.flush()
        kill(own_broker)
        started = time.monotonic()
        at_once = await http.post("/v1/factcheck", json=text)
        at_once_s = time.monotonic() - started
        await broker_seen_down(gw)
        noticed = await http.post("/v1/factcheck", json=text)
    for response in (at_once, noticed):
        error = response.json()["error"]
        assert response.status_code == 503, response.text
        assert error["code"] == "unavailable" and error["type"] == "server_error"
        assert "result store" not in error["message"] and "overloaded" not in error["message"]
    assert "the broker is unreachable" in noticed.json()["error"]["message"]
    assert at_once_s < 20, f"waited {at_once_s:.1f} s of the 60 s timeout"
    counted = {"source": "factcheck", "model": "unspecified", "mode": "annotate", "outcome": "checker_error"}
    assert sample(gw, "factsentry_gateway_requests_total", **counted) == 2


async def test_a_reask_while_the_broker_is_down_is_unavailable(
    own_broker: embedded.ServerProcess, start_stack: StartStack
) -> None:
    """The first answer is checked while the broker is up (D-FActScore below the reask threshold); the broker is
    killed before its rewrite is published. The rewrite cannot be checked: ``unavailable`` (it was
    ``no_verdict``), counted so, and the first verdict stands. (The reask runs on the running gateway's own state
    and upstream: through HTTP the kill could not be placed between the first verdict and the rewrite.)"""
    policy = {"mode": "block", "threshold": 0.95, "timeout_s": 60}
    gw = await start_stack(
        {"default": policy},
        worker={"session_timeout_ms": 6000, "broker_check_s": 0.5},
        kafka_bootstrap=f"{own_broker.host}:{own_broker.port}",
    )
    request_id, _, headers = await ask_openai(gw, WRONG_DATE)
    assert headers["x-factsentry-status"] == "checked" and headers["x-factsentry-action"] == "block"
    first = await gw.gateway.results.get(request_id)
    assert first is not None and first.check.dfactscore is not None and first.check.dfactscore < 0.95
    kill(own_broker)
    await broker_seen_down(gw)

    messages = [{"role": "user", "content": WRONG_DATE.question}]
    spec = PolicySpec.model_validate({**policy, "reask": True})
    x = Exchange(source="proxy", request_id="fs-reask-test", model="mock-lean")
    upstream = gw.gateway.models.get("mock-lean")
    body = {"model": "mock-lean", "messages": messages}
    call = ChatCall("fs-reask-test", datetime.now(UTC), {}, x, upstream, spec, About(), body, messages)
    data = {"choices": [{"message": {"role": "assistant", "content": WRONG_DATE.answer}}], "usage": {}}
    started = time.monotonic()
    again = await reask(gw.gateway, call, Completion(orjson.dumps(data), data), first)
    assert (again.outcome, again.won, again.listed) == ("unavailable", None, 1)
    assert time.monotonic() - started < 30, "the 60 s timeout was waited out"
    assert sample(gw, "factsentry_gateway_reasks_total", model="mock-lean", outcome="unavailable") == 1
    assert sample(gw, "factsentry_gateway_reasks_total", model="mock-lean", outcome="no_verdict") == 0
