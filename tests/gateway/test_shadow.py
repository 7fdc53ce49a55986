"""Shadow policies through the real stack (gateway, embedded broker, valkey, one worker): observe traffic is
released untouched, and every verdict records what the shadow policy would have done."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import openai
import orjson
from prometheus_client import CollectorRegistry

from schemas.messages import ResultMessage
from tests.gateway.conftest import FAITHFUL, MERGED, RunningGateway, StartStack, ask
from tests.gateway.test_end_to_end import results_on_topic
from tests.gateway.test_replay import iso, replay_cli

SHADOW_BLOCK = {"mode": "block", "threshold": 0.75}


async def stored(gw: RunningGateway, request_id: str) -> ResultMessage:
    """The verdict as ``/v1/results`` serves it, once the worker has written it."""
    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        for _ in range(1200):
            response = await http.get(f"/v1/results/{request_id}")
            if response.status_code == 200:
                return ResultMessage.model_validate_json(response.content)
            await asyncio.sleep(0.1)
    raise AssertionError(f"no verdict for {request_id}")


def would_count(registry: CollectorRegistry, action: str) -> float:
    labels = {"source": "proxy", "model": "mock-lean", "action": action}
    return registry.get_sample_value("factsentry_worker_would_total", labels) or 0.0


async def counted(registry: CollectorRegistry, expected: dict[str, float]) -> dict[str, float]:
    """The would counter by action once it reads ``expected`` (the worker counts a verdict just after it is
    stored), or as it reads after 30 s."""
    for _ in range(300):
        now = {action: would_count(registry, action) for action in ("pass", "revise", "block")}
        if now == expected:
            break
        await asyncio.sleep(0.1)
    return now


async def upstream_choices(upstream_url: str, question: str) -> bytes:
    """What the upstream itself answers, without the gateway."""
    async with httpx.AsyncClient() as http:
        response = await http.post(
            upstream_url + "/chat/completions",
            json={"model": "mock", "messages": [{"role": "user", "content": question}]},
        )
    return orjson.dumps(response.json()["choices"])


async def test_observe_with_a_shadow_block_records_would_and_releases_the_answer_untouched(
    start_stack: StartStack, upstream_url: str
) -> None:
    registry = CollectorRegistry()
    gw = await start_stack({"default": {"mode": "observe", "shadow": SHADOW_BLOCK}}, worker_registry=registry)
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=120) as http:
        merged = await http.post(
            "/v1/chat/completions",
            json={"model": "mock-lean", "messages": [{"role": "user", "content": MERGED.question}]},
            headers={"x-factsentry-name": MERGED.name},
        )
    assert merged.status_code == 200
    body = merged.json()
    # Observe: the upstream's answer, byte for byte in its choices, and nothing of factsentry's.
    assert orjson.dumps(body["choices"]) == await upstream_choices(upstream_url, MERGED.question)
    assert body["choices"][0]["message"]["content"] == MERGED.answer and "factsentry" not in body
    assert "x-factsentry-action" not in merged.headers
    merged_id = merged.headers["x-request-id"]

    verdict = await stored(gw, merged_id)
    assert verdict.check.dfactscore is not None and verdict.check.dfactscore < 0.75
    assert verdict.would is not None
    assert (verdict.would.action, verdict.would.mode, verdict.would.threshold) == ("block", "block", 0.75)
    assert verdict.would.reason == "conflated"  # the demo's merged biography merges two Dick Hanleys
    assert await counted(registry, {"pass": 0, "revise": 0, "block": 1}) == {"pass": 0, "revise": 0, "block": 1}

    faithful_id, completion, headers = await ask(gw, FAITHFUL)
    assert completion.choices[0].message.content == FAITHFUL.answer and "x-factsentry-action" not in headers
    faithful = await stored(gw, faithful_id)
    assert faithful.check.dfactscore is not None and faithful.check.dfactscore >= 0.75
    assert faithful.would is not None and (faithful.would.action, faithful.would.reason) == ("pass", "cleared")
    assert await counted(registry, {"pass": 1, "revise": 0, "block": 1}) == {"pass": 1, "revise": 0, "block": 1}
    # The gateway enforced nothing.
    assert gw.gateway.registry.get_sample_value("factsentry_gateway_blocked_total", {"model": "mock-lean"}) in (
        None,
        0.0,
    )


async def test_annotate_with_a_shadow_shows_would_beside_the_action_taken(start_stack: StartStack) -> None:
    gw = await start_stack({"default": {"mode": "annotate", "timeout_s": 120, "shadow": SHADOW_BLOCK}})
    request_id, completion, headers = await ask(gw, MERGED)
    assert completion.choices[0].message.content == MERGED.answer
    assert headers["x-factsentry-action"] == "pass"
    factsentry = (completion.model_extra or {})["factsentry"]
    assert factsentry["action"] == "pass"
    assert factsentry["would"] == {"action": "block", "reason": "conflated", "mode": "block", "threshold": 0.75}
    assert (await stored(gw, request_id)).would is not None


async def test_replay_counts_the_flips_the_shadow_counter_announced(start_stack: StartStack, tmp_path: Path) -> None:
    """A candidate that promotes the shadow (and itself carries one) flips exactly the answers ``would`` said."""
    from datetime import UTC, datetime, timedelta

    registry = CollectorRegistry()
    gw = await start_stack({"default": {"mode": "observe", "shadow": SHADOW_BLOCK}}, worker_registry=registry)
    start = datetime.now(UTC) - timedelta(seconds=1)
    ids = [(await ask(gw, conv))[0] for conv in (MERGED, FAITHFUL)]
    live = await results_on_topic(gw.settings.kafka_bootstrap, gw.settings.results_topic, set(ids))
    recorded = {r: live[r].would for r in ids}
    would_block = sorted(r for r, w in recorded.items() if w is not None and w.action == "block")
    assert would_block == [ids[0]]
    assert await counted(registry, {"pass": 1, "revise": 0, "block": 1}) == {"pass": 1, "revise": 0, "block": 1}
    await asyncio.sleep(1.5)
    end = datetime.now(UTC)
    current, candidate = tmp_path / "current.yaml", tmp_path / "candidate.yaml"
    current.write_text("default: {mode: observe, shadow: {mode: block, threshold: 0.75}}\n")
    candidate.write_text("default: {mode: block, threshold: 0.75, shadow: {mode: block, threshold: 0.9}}\n")
    report = await replay_cli(
        gw, "--from", iso(start), "--to", iso(end), "--policy", str(candidate), "--current", str(current)
    )
    flips = report["policy"]["flips"]
    assert sorted(f["request_id"] for f in flips if f["candidate"] == "block") == would_block
    assert len(flips) == would_count(registry, "block")
    assert {f["would"] for f in flips} == {"block"}
    assert report["policy"]["overall"]["would"] == {"pass": 1, "revise": 0, "block": 1}


async def test_a_streamed_observed_answer_passes_through_and_its_verdict_records_would(
    start_stack: StartStack,
) -> None:
    gw = await start_stack({"default": {"mode": "observe", "shadow": {"mode": "revise", "threshold": 0.75}}})
    client = openai.AsyncOpenAI(base_url=gw.base_url + "/v1", api_key="unused", max_retries=0, timeout=180)
    raw = await client.chat.completions.with_raw_response.create(
        model="mock-lean",
        messages=[{"role": "user", "content": MERGED.question}],
        extra_headers={"x-factsentry-name": MERGED.name},
        stream=True,
    )
    text = "".join([c.choices[0].delta.content or "" async for c in raw.parse() if c.choices])
    await client.close()
    assert text == MERGED.answer and "x-factsentry-action" not in raw.headers
    verdict = await stored(gw, raw.headers["x-request-id"])
    assert verdict.would is not None and verdict.would.mode == "revise"
    # Below 0.75, the shadow would revise when the check has a revision to offer, else it would refuse.
    revisable = verdict.check.revision is not None and bool(verdict.check.revision.text.strip())
    assert verdict.would.action == ("revise" if revisable else "block")
