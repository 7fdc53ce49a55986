"""A broker that restarts empty (the embedded tansu keeps everything in memory) must not kill the
pipeline: gateway and workers re-create the topics, re-join, and every request after the restart
gets a verdict; what was lost in between is counted, never released unchecked."""

from __future__ import annotations

import asyncio
import time

import httpx

from factsentry import embedded
from tests.gateway.conftest import FAITHFUL, MERGED, GatewayFactory, RunningGateway, StartStack, released_unchecked
from tests.servers import kill

BLOCK = {"default": {"mode": "block", "threshold": 0.75, "timeout_s": 30}}


async def ask(gw: RunningGateway, conv: object) -> httpx.Response:
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=120) as http:
        return await http.post(
            "/v1/chat/completions",
            json={"model": "mock-lean", "messages": [{"role": "user", "content": conv.question}]},  # type: ignore[attr-defined]
            headers={"x-factsentry-name": conv.name},  # type: ignore[attr-defined]
        )


async def test_pipeline_recovers_after_the_broker_restarts_empty(
    own_broker: embedded.ServerProcess, start_stack: StartStack
) -> None:
    bootstrap = f"{own_broker.host}:{own_broker.port}"
    worker = {"session_timeout_ms": 6000, "broker_check_s": 0.5}
    gw = await start_stack(BLOCK, worker=worker, kafka_bootstrap=bootstrap)
    before = await asyncio.gather(*(ask(gw, c) for c in (MERGED, FAITHFUL)))
    assert [r.headers["x-factsentry-status"] for r in before] == ["checked", "checked"]

    kill(own_broker)
    own_broker.start()

    # Until the pipeline is back, answers are blocked (the policy fails closed), never released.
    deadline = time.monotonic() + 120
    statuses: list[str] = []
    while time.monotonic() < deadline:
        response = await ask(gw, MERGED)
        statuses.append(response.headers["x-factsentry-status"])
        assert response.json()["choices"][0]["message"]["content"] != MERGED.answer
        if statuses[-1] == "checked":
            break
        await asyncio.sleep(1)
    assert statuses[-1] == "checked", f"no verdict within 120 s after the restart: {statuses}"
    after = await asyncio.gather(*(ask(gw, c) for c in [MERGED, FAITHFUL] * 5))
    assert [r.headers["x-factsentry-status"] for r in after] == ["checked"] * 10
    assert released_unchecked(gw) == 0
    assert gw.gateway.registry.get_sample_value("factsentry_gateway_broker_resets_total") == 1


async def test_requests_waiting_when_the_broker_lost_its_log_follow_on_unavailable_at_once(
    own_broker: embedded.ServerProcess, start_gateway: GatewayFactory
) -> None:
    """Their generations were acknowledged by the broker that died: no verdict can come. Under
    ``on_timeout: open`` they used to wait out the timeout and pass unchecked, uncounted as lost."""
    policy = {"default": {"mode": "block", "threshold": 0.75, "timeout_s": 120, "on_timeout": "open"}}
    gw = await start_gateway(policy, kafka_bootstrap=f"{own_broker.host}:{own_broker.port}")  # no worker
    waits = [asyncio.create_task(ask(gw, c)) for c in (MERGED, FAITHFUL, MERGED)]
    while gw.gateway.listener.waiting < 3:
        await asyncio.sleep(0.05)
    await gw.gateway.publisher.flush()
    kill(own_broker)
    started = time.monotonic()
    own_broker.start()
    responses = await asyncio.gather(*waits)
    assert time.monotonic() - started < 30  # the reset was noticed, not the 120 s timeout
    # A broker outage: unavailable, whether the watch saw it down or only came back to an empty log.
    assert [r.headers["x-factsentry-status"] for r in responses] == ["unavailable"] * 3
    assert [r.headers["x-factsentry-action"] for r in responses] == ["block"] * 3
    assert released_unchecked(gw) == 0
    lost = sum(
        gw.gateway.registry.get_sample_value("factsentry_gateway_publish_lost_total", {"reason": reason}) or 0
        for reason in ("broker_reset", "broker_down")
    )
    assert lost == 3


async def test_after_a_reset_only_requests_missing_from_the_new_log_are_failed(start_gateway: GatewayFactory) -> None:
    """A request published to the broker after it came back (before the gateway noticed the reset) is in
    the new log and keeps waiting for its verdict; one the old broker took with it is failed at once."""
    gw = await start_gateway({"default": {"mode": "block", "threshold": 0.75, "timeout_s": 120}})  # no worker
    waits = [asyncio.create_task(ask(gw, c)) for c in (MERGED, FAITHFUL)]
    publisher, listener = gw.gateway.publisher, gw.gateway.listener
    while listener.waiting < 2 or len(publisher.acknowledged_waiting()) < 2:
        await asyncio.sleep(0.05)
    in_log = await publisher.keys_in_log()
    acknowledged = publisher.acknowledged_waiting()
    assert len(acknowledged) == 2 and acknowledged <= in_log
    lost_before = gw.gateway.registry.get_sample_value(
        "factsentry_gateway_publish_lost_total", {"reason": "broker_reset"}
    )
    # An id acknowledged, then gone with the old log, that nobody waits for any more.
    gw.gateway._on_broker_reset(acknowledged - in_log | {"fs-lost-with-the-old-broker"})
    assert listener.waiting == 2  # the two real requests are in the log: still waiting
    lost = gw.gateway.registry.get_sample_value("factsentry_gateway_publish_lost_total", {"reason": "broker_reset"})
    assert (lost_before or 0) == (lost or 0)  # nobody was waiting on the lost id
    gw.gateway._on_broker_reset(acknowledged)  # as if the new log held neither
    responses = await asyncio.gather(*waits)
    assert [r.headers["x-factsentry-status"] for r in responses] == ["unavailable", "unavailable"]
    assert released_unchecked(gw) == 0
