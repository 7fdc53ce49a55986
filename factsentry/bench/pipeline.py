"""Verdict delivery under block: what checking adds end to end, and how much of it is transport.

One embedded stack (broker, valkey, gateway, workers as processes; the demo's mocked models and store).
Requests go out at a fixed rate (open loop). Each demo question is asked once in observe mode (the
answer without a verdict: upstream plus proxy) and then under block (``x-factsentry-policy: block``),
and the verdict's own ``scoring_ms`` is read back from ``/v1/results/{id}``:

- ``block_added_ms`` = a block request's time − the observe p50 of the same question;
- ``delivery_overhead_ms`` = ``block_added_ms`` − its ``scoring_ms``: publishing, the broker, the
  worker's fetch and batching, the Redis hand-off and the wait's wake-up — everything but checking;
- ``first_request_ms``: the first block request after the stack reports ready (models load first).
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

from factsentry.bench import at_least, demo_stack, quantile


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rate", type=float, default=20.0, help="block requests per second (default 20)")
    parser.add_argument("--requests", type=at_least(20), default=200, help="block requests timed (default 200)")
    parser.add_argument("--workers", type=at_least(1), default=1, help="worker processes (default 1)")


async def _ask(http: httpx.AsyncClient, model: str, question: str, policy: str) -> tuple[float, str]:
    body = {"model": model, "messages": [{"role": "user", "content": question}]}
    t0 = time.perf_counter()
    response = await http.post("/v1/chat/completions", json=body, headers={"x-factsentry-policy": policy})
    elapsed = (time.perf_counter() - t0) * 1000
    if response.status_code != 200:
        raise RuntimeError(f"benchmark request failed: HTTP {response.status_code} {response.text[:200]}")
    return elapsed, response.headers["x-request-id"]


async def _measure(base_url: str, args: argparse.Namespace) -> dict[str, Any]:
    from factsentry.demo_data import CONVERSATIONS

    async with httpx.AsyncClient(base_url=base_url, timeout=120) as http:
        first_ms, _ = await _ask(http, CONVERSATIONS[0].model, CONVERSATIONS[0].question, "block")
        for c in CONVERSATIONS:  # each answer checked once: what follows is the steady state
            await _ask(http, c.model, c.question, "block")
        observe: dict[str, list[float]] = {c.model: [] for c in CONVERSATIONS}
        for _ in range(10):
            for c in CONVERSATIONS:
                observe[c.model].append((await _ask(http, c.model, c.question, "observe"))[0])
        baseline = {model: statistics.median(v) for model, v in observe.items()}

        async def one(i: int) -> tuple[float, float]:
            c = CONVERSATIONS[i % len(CONVERSATIONS)]
            elapsed, request_id = await _ask(http, c.model, c.question, "block")
            result = (await http.get(f"/v1/results/{request_id}")).json()
            added = elapsed - baseline[c.model]
            return added, added - float(result["scoring_ms"])

        tasks = []
        started = time.perf_counter()
        for i in range(args.requests):  # open loop: one request every 1/rate s, whatever the answers do
            await asyncio.sleep(max(0.0, started + i / args.rate - time.perf_counter()))
            tasks.append(asyncio.create_task(one(i)))
        timed = await asyncio.gather(*tasks)
        elapsed_s = time.perf_counter() - started
    added = [a for a, _ in timed]
    overhead = [o for _, o in timed]
    return {
        "rate_rps": args.rate,
        "achieved_rps": round(args.requests / elapsed_s, 1),
        "requests": args.requests,
        "workers": args.workers,
        "first_request_ms": round(first_ms, 1),
        "observe_p50_ms": round(statistics.median(v for vs in observe.values() for v in vs), 1),
        "block_added_p50_ms": round(statistics.median(added), 1),
        "block_added_p99_ms": round(quantile(added, 0.99), 1),
        "delivery_overhead_p50_ms": round(statistics.median(overhead), 1),
        "delivery_overhead_p99_ms": round(quantile(overhead, 0.99), 1),
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    from factsentry.demo_data import model_list

    work = Path(tempfile.mkdtemp(prefix="factsentry-bench-pipeline-"))
    policy = {"default": {"mode": "observe", "threshold": 0.75, "timeout_s": 60}}
    stack = demo_stack(work, model_list(), policy, args.workers)
    try:
        figures = asyncio.run(_measure(stack.gateway_url, args))
    finally:
        stack.stop()
    return {**figures, "logs": str(work)}
