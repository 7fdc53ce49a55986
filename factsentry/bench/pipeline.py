"""Verdict delivery under block: what checking adds end to end, and how much of it is transport.

One embedded stack (broker, valkey, gateway, workers as processes; the demo's mocked models and store).
Requests go out at a fixed rate (open loop). Each demo question is asked once in observe mode (the
answer without a verdict: upstream plus proxy) and then under block (``x-factsentry-policy: block``),
and the verdict's own ``scoring_ms`` is read back from ``/v1/results/{id}``:

- ``block_added_ms`` = a block request's time − the observe p50 of the same question;
- ``delivery_overhead_ms`` = ``block_added_ms`` − its ``scoring_ms``: publishing, the broker, the
  worker's fetch and batching, the Redis hand-off and the wait's wake-up — everything but checking;
- ``first_request_ms``: the first block request after the stack reports ready (models load first, and
  each scoring thread runs one whole check before); its answer is new to the worker, so it is checked
  cold (``first_request_scoring_ms``), where the timed requests find their verdicts' parses cached.
  ``first_request_overhead_ms`` is its ``delivery_overhead_ms``, to set beside that of the demo's other
  answers, checked cold just after it (``new_answers_overhead_ms``, their mean), and the timed requests'. The
  client opens its connection first (``GET /healthz``): what its own HTTP library loads on first use is
  not the stack's time.

``gateway_ready_ms`` and ``worker_ready_ms`` (the slowest of ``--workers``) are each process's time from
being spawned to ready, the processes starting together: the gateway answers ``/healthz``, a worker says
``factsentry_worker_ready 1`` (spaCy and its models loaded, one whole check run per scoring thread to
warm up, partitions assigned).

The machine's 1-minute load average before the stack starts and after the last request is printed with
the figures (``load_before`` / ``load_after``): on a small shared machine the tail follows what else runs.

Each observe request is sent once the answer before it is checked, so the baseline is upstream plus proxy
with no check running beside it, and the timed requests meet no backlog of observe checks.

``--scale-out`` measures instead how checking throughput grows with worker processes: for 1 and then
2 workers (a stack each; topics have 4 partitions), new answers — AmbigBio dev answers, never seen
before by the stack, against one store of all their passages — go to ``POST /v1/factcheck`` from
``--concurrency`` clients at once; ``checks_per_s`` is answers checked per second of wall time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from factsentry.bench import at_least, demo_stack, quantile
from factsentry.bench.scoring import DEFAULT_DATA


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rate", type=float, default=20.0, help="block requests per second (default 20)")
    parser.add_argument("--requests", type=at_least(20), default=200, help="block requests timed (default 200)")
    parser.add_argument("--workers", type=at_least(1), default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--scale-out",
        action="store_true",
        help="measure checks/s of new answers with 1 and 2 worker processes instead (AmbigBio dev answers)",
    )
    parser.add_argument(
        "--answers", type=at_least(20), default=300, help="--scale-out: new answers checked per stack (default 300)"
    )
    parser.add_argument("--concurrency", type=at_least(1), default=32, help="--scale-out: clients at once (default 32)")
    parser.add_argument(
        "--data",
        type=Path,
        default=DEFAULT_DATA,
        help="--scale-out: AmbigBio generations JSONL (read, never copied)",
    )


async def _ask(http: httpx.AsyncClient, model: str, question: str, policy: str) -> tuple[float, str]:
    body = {"model": model, "messages": [{"role": "user", "content": question}]}
    t0 = time.perf_counter()
    response = await http.post("/v1/chat/completions", json=body, headers={"x-factsentry-policy": policy})
    elapsed = (time.perf_counter() - t0) * 1000
    if response.status_code != 200:
        raise RuntimeError(f"benchmark request failed: HTTP {response.status_code} {response.text[:200]}")
    return elapsed, response.headers["x-request-id"]


async def _checked(http: httpx.AsyncClient, request_ids: list[str], timeout_s: float = 120.0) -> float:
    """Wait until every one of ``request_ids`` has its verdict; the ms it took."""
    t0 = time.perf_counter()
    for request_id in request_ids:
        while (await http.get(f"/v1/results/{request_id}")).status_code != 200:
            if time.perf_counter() - t0 > timeout_s:
                raise RuntimeError(f"no verdict for observe request {request_id} within {timeout_s:g} s")
            await asyncio.sleep(0.02)
    return (time.perf_counter() - t0) * 1000


async def _measure(base_url: str, args: argparse.Namespace) -> dict[str, Any]:
    from factsentry.demo_data import CONVERSATIONS

    async with httpx.AsyncClient(base_url=base_url, timeout=120) as http:
        (await http.get("/healthz")).raise_for_status()
        first_ms, first_id = await _ask(http, CONVERSATIONS[0].model, CONVERSATIONS[0].question, "block")
        first_scoring_ms = float((await http.get(f"/v1/results/{first_id}")).json()["scoring_ms"])
        fresh: list[tuple[str, float, float]] = []  # the other answers, new to the worker too, after the first
        for c in CONVERSATIONS:  # each answer checked once: what follows is the steady state
            elapsed, request_id = await _ask(http, c.model, c.question, "block")
            if c is not CONVERSATIONS[0]:
                scoring_ms = float((await http.get(f"/v1/results/{request_id}")).json()["scoring_ms"])
                fresh.append((c.model, elapsed, scoring_ms))
        # Observe answers are checked too, after they return. Each is sent once the one before is checked: sent
        # back to back they would queue up faster than a worker checks them, and then be timed while checks run
        # beside them (a baseline too high by the CPU they take), and the first timed block requests would
        # measure that backlog (hundreds of ms) instead of the delivery of their own verdicts.
        observe: dict[str, list[float]] = {c.model: [] for c in CONVERSATIONS}
        for _ in range(10):
            for c in CONVERSATIONS:
                elapsed, request_id = await _ask(http, c.model, c.question, "observe")
                observe[c.model].append(elapsed)
                await _checked(http, [request_id])
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
        "first_request_scoring_ms": round(first_scoring_ms, 1),
        "first_request_overhead_ms": round(first_ms - baseline[CONVERSATIONS[0].model] - first_scoring_ms, 1),
        "new_answers_overhead_ms": round(statistics.mean(e - baseline[m] - s for m, e, s in fresh), 1),
        "observe_p50_ms": round(statistics.median(v for vs in observe.values() for v in vs), 1),
        "block_added_p50_ms": round(statistics.median(added), 1),
        "block_added_p99_ms": round(quantile(added, 0.99), 1),
        "delivery_overhead_p50_ms": round(statistics.median(overhead), 1),
        "delivery_overhead_p99_ms": round(quantile(overhead, 0.99), 1),
    }


def _answers(path: Path, n: int) -> list[dict[str, Any]]:
    from factsentry.cli import UserError

    if not path.is_file():
        raise UserError(f"AmbigBio data not found at {path}; pass --data")
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    with path.open(encoding="utf-8") as f:
        for line in f:
            row = json.loads(line) if line.strip() else None
            if row and row.get("output") and row["output"] not in seen:
                seen.add(row["output"])
                rows.append(row)
            if len(rows) >= n:
                break
    return rows


def _store(rows: list[dict[str, Any]], path: Path) -> Path:
    """One store of every answer's passages (grouped by page title), as a worker would hold."""
    from evaluation.ambigbio import group_passages
    from knowledge.store import Store

    pages: dict[str, list[str]] = {}
    for row in rows:
        for title, texts in group_passages((p["title"], p["text"]) for p in row.get("passages") or []):
            pages.setdefault(title, [])
            pages[title].extend(t for t in texts if t not in pages[title])
    with Store(path) as store:
        store.add_pages([(title, "\n\n".join(texts), []) for title, texts in pages.items()])
    return path


async def _throughput(base_url: str, rows: list[dict[str, Any]], concurrency: int) -> tuple[float, int]:
    """Answers checked per second through /v1/factcheck, ``concurrency`` at once; and how many failed."""
    queue = list(rows)
    failed = 0

    async def client(http: httpx.AsyncClient) -> None:
        nonlocal failed
        while queue:
            row = queue.pop()
            body = {"text": row["output"], "name": row["name"], "timeout_s": 300}
            response = await http.post("/v1/factcheck", json=body)
            failed += response.status_code != 200

    async with httpx.AsyncClient(base_url=base_url, timeout=600) as http:
        started = time.perf_counter()
        await asyncio.gather(*(client(http) for _ in range(concurrency)))
        return len(rows) / (time.perf_counter() - started), failed


def _scale_out(args: argparse.Namespace) -> dict[str, Any]:
    import os

    from factsentry.demo_data import model_list

    rows = _answers(args.data, 2 * args.answers)
    if len(rows) < 2 * args.answers:
        raise RuntimeError(f"--answers {args.answers}: the data has only {len(rows)} distinct answers for two stacks")
    figures: dict[str, Any] = {"answers": args.answers, "concurrency": args.concurrency, "cores": os.cpu_count()}
    policy = {"default": {"mode": "observe", "threshold": 0.75, "timeout_s": 60}}
    for workers, batch in ((1, rows[: args.answers]), (2, rows[args.answers :])):
        work = Path(tempfile.mkdtemp(prefix=f"factsentry-bench-scale{workers}-"))
        stack = demo_stack(work, model_list(), policy, workers, kb=_store(rows, work / "kb.sqlite3"))
        try:
            rate, failed = asyncio.run(_throughput(stack.gateway_url, batch, args.concurrency))
        finally:
            stack.stop()
        figures[f"workers_{workers}_checks_per_s"] = round(rate, 2)
        figures[f"workers_{workers}_failed"] = failed
    figures["scale_out_ratio"] = round(figures["workers_2_checks_per_s"] / figures["workers_1_checks_per_s"], 2)
    return figures


def run(args: argparse.Namespace) -> dict[str, Any]:
    from factsentry.demo_data import model_list

    if args.scale_out:
        return _scale_out(args)
    work = Path(tempfile.mkdtemp(prefix="factsentry-bench-pipeline-"))
    policy = {"default": {"mode": "observe", "threshold": 0.75, "timeout_s": 60}}
    load_before = _load()
    stack = demo_stack(work, model_list(), policy, args.workers)
    ready = {
        "gateway_ready_ms": round(stack.ready_ms["gateway"], 1),
        "worker_ready_ms": round(max(ms for name, ms in stack.ready_ms.items() if name.startswith("worker-")), 1),
    }
    try:
        figures = asyncio.run(_measure(stack.gateway_url, args))
        load_after = _load()
    finally:
        stack.stop()
    return {**figures, **ready, "load_before": load_before, "load_after": load_after, "logs": str(work)}


def _load() -> float:
    """The 1-minute load average (runnable processes, this one's included)."""
    import os

    return round(os.getloadavg()[0], 2)
