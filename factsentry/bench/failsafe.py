"""Fail-safe probes of the guardrail under block: what is released unchecked, lost or left uncounted.

One embedded stack (broker, valkey with a data dir, gateway, workers as processes), the demo's mocked
models, policy ``block`` with ``on_timeout: open`` (the setting under which a fault used to release
answers) and ``on_unavailable: closed``. The probes, in order:

- ``load``: merged and faithful biographies at a high concurrency; every answer must be checked.
- ``client_timeout``: ``x-factsentry-timeout: 0.01`` on merged biographies (the header used to open them).
- ``deep_body``: a junk field nested 200 deep (used to make the record unparseable downstream).
- ``oversized``: an answer over the broker's record limit (used to wait out the timeout, then pass).
- ``broker_restart``: ``kill -9`` of the broker during load, then restarted empty by the supervisor.
- ``redis_restart``: ``kill -9`` of valkey after the load; how many verdicts ``/v1/results`` still has.

"Released unchecked" is an answer returned as the model wrote it without a ``checked`` or
``abstained`` verdict; every such release must also be counted by the gateway.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from factsentry.bench import at_least, demo_stack

HUGE_MODEL = "bench-oversized"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--requests", type=at_least(1), default=1000, help="requests of the load probe")
    parser.add_argument("--concurrency", type=at_least(1), default=256, help="concurrent requests of the load probe")
    parser.add_argument("--workers", type=at_least(1), default=2, help="worker processes")
    parser.add_argument("--probe-requests", type=at_least(1), default=50, help="requests of each smaller probe")


def _metric(text: str, name: str) -> float:
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name) and (len(line) == len(name) or line[len(name)] in " {"):
            total += float(line.rsplit(" ", 1)[1])
    return total


class Probe:
    def __init__(self, http: httpx.AsyncClient, answers: dict[str, str]) -> None:
        self.http = http
        self.answers = answers  # model → the answer it writes

    async def ask(
        self, model: str, question: str, name: str, headers: dict[str, str] | None = None, **extra: Any
    ) -> dict[str, Any]:
        started = time.perf_counter()
        body = {"model": model, "messages": [{"role": "user", "content": question}], **extra}
        try:
            r = await self.http.post(
                "/v1/chat/completions", json=body, headers={"x-factsentry-name": name, **(headers or {})}
            )
        except httpx.HTTPError as e:
            return {"http": 0, "status": f"client error {type(e).__name__}", "released": False, "id": None}
        content = None
        if r.status_code == 200:
            content = r.json()["choices"][0]["message"]["content"]
        status = r.headers.get("x-factsentry-status", "")
        return {
            "http": r.status_code,
            "status": status,
            "action": r.headers.get("x-factsentry-action", "pass"),
            "id": r.headers.get("x-request-id"),
            "seconds": time.perf_counter() - started,
            "released_unchecked": content is not None
            and content == self.answers.get(model)
            and status not in ("checked", "abstained"),
        }


async def _gather(n: int, concurrency: int, make: Any) -> list[dict[str, Any]]:
    gate = asyncio.Semaphore(concurrency)

    async def one(i: int) -> dict[str, Any]:
        async with gate:
            result: dict[str, Any] = await make(i)
            return result

    return list(await asyncio.gather(*(one(i) for i in range(n))))


def _summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    seconds = sorted(r["seconds"] for r in results if "seconds" in r)
    statuses: dict[str, int] = {}
    for r in results:
        key = r["status"] or f"http {r['http']}"
        statuses[key] = statuses.get(key, 0) + 1
    return {
        "requests": len(results),
        "released_unchecked": sum(r.get("released_unchecked", False) for r in results),
        "verdicts": sum(r["status"] in ("checked", "abstained") for r in results),
        "statuses": statuses,
        "p50_s": round(statistics.median(seconds), 3) if seconds else None,
        "max_s": round(seconds[-1], 3) if seconds else None,
    }


async def _probes(base_url: str, stack: Any, args: argparse.Namespace, answers: dict[str, str]) -> dict[str, Any]:
    from factsentry.demo_data import CONVERSATIONS

    merged = next(c for c in CONVERSATIONS if c.model == "demo-merged-bio")
    faithful = next(c for c in CONVERSATIONS if c.model == "demo-single-bio")
    figures: dict[str, Any] = {}
    limits = httpx.Limits(max_connections=args.concurrency + 8, max_keepalive_connections=args.concurrency + 8)
    async with httpx.AsyncClient(base_url=base_url, timeout=300, limits=limits) as http:
        probe = Probe(http, answers)
        warm = await probe.ask(faithful.model, faithful.question, faithful.name)  # models load on first use
        figures["first_request_s"] = round(warm["seconds"], 3)

        def conv(i: int) -> Any:
            return merged if i % 2 else faithful

        started = time.perf_counter()
        load = await _gather(
            args.requests,
            args.concurrency,
            lambda i: probe.ask(conv(i).model, conv(i).question, conv(i).name),
        )
        wall = time.perf_counter() - started
        figures["load"] = _summary(load) | {
            "concurrency": args.concurrency,
            "merged_blocked": sum(r["action"] == "block" for i, r in enumerate(load) if i % 2),
            "faithful_passed": sum(r["action"] == "pass" for i, r in enumerate(load) if not i % 2),
            "requests_per_s": round(len(load) / wall, 1),
        }
        n = args.probe_requests
        header = await _gather(
            n, 16, lambda i: probe.ask(merged.model, merged.question, merged.name, {"x-factsentry-timeout": "0.01"})
        )
        figures["client_timeout"] = _summary(header) | {"refused_400": sum(r["http"] == 400 for r in header)}
        deep: Any = "x"
        for _ in range(200):
            deep = {"a": deep}
        junk = await _gather(n, 16, lambda i: probe.ask(merged.model, merged.question, merged.name, junk=deep))
        figures["deep_body"] = _summary(junk) | {"refused_400": sum(r["http"] == 400 for r in junk)}
        huge = await _gather(5, 5, lambda i: probe.ask(HUGE_MODEL, "Tell me everything.", "Nobody"))
        figures["oversized"] = _summary(huge) | {"blocked": sum(r["action"] == "block" for r in huge)}

        # Broker: kill -9 a third of the way into a load, let the supervisor restart it empty.
        async def killer() -> None:
            await asyncio.sleep(1.0)
            broker = stack.server("tansu")
            broker.proc.kill()
            broker.proc.wait()
            await asyncio.sleep(1.0)
            await asyncio.to_thread(stack.supervise)

        m = max(200, n * 4)
        kill = asyncio.create_task(killer())
        during = await _gather(m, 32, lambda i: probe.ask(conv(i).model, conv(i).question, conv(i).name))
        await kill
        await asyncio.sleep(5)  # gateway and workers notice the reset and re-join
        after = await _gather(20, 4, lambda i: probe.ask(conv(i).model, conv(i).question, conv(i).name))
        metrics = (await http.get("/metrics")).text
        figures["broker_restart"] = {
            "during": _summary(during),
            "after": _summary(after),
            "publish_lost_counted": _metric(metrics, "factsentry_gateway_publish_lost_total"),
            "broker_resets_counted": _metric(metrics, "factsentry_gateway_broker_resets_total"),
        }
        figures["released_unchecked_counted"] = _metric(metrics, "factsentry_gateway_released_unchecked_total")

        # Redis: every verdict of the load probe, before and after kill -9 of valkey.
        ids = [r["id"] for r in load if r["status"] == "checked" and r["id"]]
        await asyncio.sleep(1.5)  # the append-only file is synced every second
        before = await _readable(http, ids)
        valkey = stack.server("valkey")
        valkey.proc.kill()
        valkey.proc.wait()
        await asyncio.to_thread(stack.supervise)
        figures["redis_restart"] = {"verdicts_before": before, "verdicts_after": await _readable(http, ids)}
    return figures


async def _readable(http: httpx.AsyncClient, ids: list[str]) -> int:
    gate = asyncio.Semaphore(32)

    async def one(request_id: str) -> bool:
        async with gate:
            for _ in range(50):
                r = await http.get(f"/v1/results/{request_id}")
                if r.status_code != 503:  # valkey still coming back
                    return r.status_code == 200
                await asyncio.sleep(0.2)
            return False

    return sum(await asyncio.gather(*(one(i) for i in ids)))


def run(args: argparse.Namespace) -> dict[str, Any]:
    from factsentry.demo_data import CONVERSATIONS, model_list

    work = Path(tempfile.mkdtemp(prefix="factsentry-bench-failsafe-"))
    huge = "Nobody was a person. " * (5 * 1024 * 1024 // 21 + 1)  # over the 4 MB record limit
    models = model_list()
    models["model_list"].append(
        {
            "model_name": HUGE_MODEL,
            "litellm_params": {"model": "openai/gpt-4o-mini", "api_key": "none", "mock_response": huge},
        }
    )
    policy = {"default": {"mode": "block", "threshold": 0.75, "timeout_s": 120, "on_timeout": "open"}}
    answers = {c.model: c.answer for c in CONVERSATIONS} | {HUGE_MODEL: huge}
    stack = demo_stack(work, models, policy, args.workers, data_dir=work / "data")  # kill -9 needs its own servers
    try:
        figures = asyncio.run(_probes(stack.gateway_url, stack, args, answers))
    finally:
        stack.stop()
    return {"policy": policy["default"], "workers": args.workers, **figures, "logs": str(work)}
