"""Memory of every process of the embedded stack under a steady load for N minutes, with latency and errors.

One embedded stack (broker, valkey, gateway, workers as processes, loopback only) on the demo store plus the
passages of AmbigBio dev answers. Requests go out at ``--rate`` per second (open loop, a bounded number:
``rate × minutes × 60``) for ``--minutes``: chat completions of the demo's mocked models under block (the
client waits for each verdict), and every ``--factcheck-every``-th request a ``POST /v1/factcheck`` of an
AmbigBio dev answer (new words for the workers' parser: the demo answers alone repeat, and their parses are
cached). Resident memory (RSS) of each process is read at the start (stack ready), at the end of
``--warmup-minutes``, every ``--sample-minutes`` (``rss_mb_timeline``) and at the end;
``growth_after_warmup_pct`` is end over after-warm-up. valkey's own ``used_memory``, evicted keys and key
count are read too, and at the end its keys by kind (count, MB, how many have no TTL): what holds its memory.
Results live ``--result-ttl-s`` (by default as long as the warm-up: valkey is flat from then on only if what
comes in also goes), and the broker's topics rotate (the embedded stack's default): how many generations the
rotator deleted and how many came back after their deletion (none should) are printed.

Latency ``p50_ms``/``p99_ms`` are of the requests sent after warm-up; ``errors`` counts every request of
the run that got no HTTP 200 (or no answer within 120 s). The 1-minute load average before and after is
printed: on a shared machine latency follows what else runs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import psutil

from factsentry.bench import at_least, demo_stack, quantile
from factsentry.bench.scoring import DEFAULT_DATA


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rate", type=float, default=5.0, help="requests per second (default 5)")
    parser.add_argument("--minutes", type=float, default=10.0, help="length of the run (default 10)")
    parser.add_argument(
        "--warmup-minutes", type=float, default=2.0, help="memory after this is the baseline of growth (default 2)"
    )
    parser.add_argument("--workers", type=at_least(1), default=2, help="worker processes (default 2)")
    parser.add_argument(
        "--factcheck-every",
        type=at_least(0),
        default=5,
        help="every Nth request checks an AmbigBio answer through /v1/factcheck (0: none; default 5)",
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="AmbigBio generations JSONL (read only)")
    parser.add_argument(
        "--sample-minutes", type=float, default=1.0, help="each process's memory is read this often (default 1)"
    )
    parser.add_argument(
        "--result-ttl-s",
        type=at_least(1),
        default=None,
        help="FACTSENTRY_RESULT_TTL_S of the stack (default: the warm-up's length, so that results expire as fast"
        " as they come before the baseline is read; the product's default is a day)",
    )


def _rss_mb(proc: psutil.Process) -> float:
    try:
        return round(float(proc.memory_info().rss) / 2**20, 1)
    except psutil.Error:
        return float("nan")


def _processes(stack: Any) -> dict[str, psutil.Process]:
    found = {server.name: psutil.Process(server.proc.pid) for server in stack._servers if server.proc is not None}
    for name, proc in stack._children:
        found[name] = psutil.Process(proc.pid)
    return found


# The part of a key after its kind: a request id or a hash (8 hex digits or more) and whatever follows.
_KEY_ID = re.compile(rb"[0-9a-f]{8,}.*$")


async def _valkey_figures(url: str, by_kind: bool = False) -> dict[str, Any]:
    """valkey's used memory, limit, evictions and key count; with ``by_kind`` also, per kind of key (the key
    without its id), how many there are, about how many MB they take (``MEMORY USAGE`` of up to 200 of each)
    and how many have no TTL (never expire, never evicted by a ``volatile-*`` policy)."""
    import redis.asyncio as aioredis

    client = aioredis.from_url(url)
    try:
        memory = await client.info("memory")
        stats = await client.info("stats")
        keys = await client.dbsize()
        kinds: dict[str, dict[str, float]] = {}
        if by_kind:
            async for key in client.scan_iter(count=1000):
                kind = kinds.setdefault(_KEY_ID.sub(b"*", key).decode(errors="replace"), {"keys": 0, "sampled": 0})
                kind["keys"] += 1
                if kind["sampled"] < 200:
                    kind["sampled"] += 1
                    kind["bytes"] = kind.get("bytes", 0) + (await client.memory_usage(key) or 0)
                if await client.ttl(key) == -1:
                    kind["no_ttl"] = kind.get("no_ttl", 0) + 1
    finally:
        await client.aclose()
    figures: dict[str, Any] = {
        "used_mb": round(int(memory["used_memory"]) / 2**20, 1),
        "maxmemory_mb": round(int(memory["maxmemory"]) / 2**20, 1),
        "evicted_keys": int(stats["evicted_keys"]),
        "keys": int(keys),
    }
    if by_kind:
        figures["by_kind"] = {
            name: {
                "keys": int(k["keys"]),
                "mb": round(k["keys"] * k.get("bytes", 0) / k["sampled"] / 2**20, 1),
                "no_ttl": int(k.get("no_ttl", 0)),
            }
            for name, k in sorted(kinds.items(), key=lambda item: -item[1]["keys"])
        }
    return figures


async def _soak(stack: Any, rows: list[dict[str, Any]], args: argparse.Namespace) -> dict[str, Any]:
    from factsentry.demo_data import CONVERSATIONS

    procs = _processes(stack)
    memory: dict[str, dict[str, float]] = {name: {"start": _rss_mb(p)} for name, p in procs.items()}
    total = int(args.rate * args.minutes * 60)
    warmup_s = args.warmup_minutes * 60
    latencies: list[float] = []
    errors: dict[str, int] = {}
    sent_after_warmup = 0
    timeline: list[dict[str, float]] = []  # every --sample-minutes: minute and each process's RSS (MB)

    async def one(http: httpx.AsyncClient, i: int, timed: bool) -> None:
        if args.factcheck_every and rows and i % args.factcheck_every == 0:
            row = rows[(i // args.factcheck_every) % len(rows)]
            path, body, headers = "/v1/factcheck", {"text": row["output"], "name": row["name"], "timeout_s": 60}, {}
        else:
            c = CONVERSATIONS[i % len(CONVERSATIONS)]
            body = {"model": c.model, "messages": [{"role": "user", "content": c.question}]}
            path, headers = "/v1/chat/completions", {"x-factsentry-policy": "block"}
        t0 = time.perf_counter()
        try:
            response = await http.post(path, json=body, headers=headers)
            status = str(response.status_code)
        except httpx.HTTPError as e:
            status = type(e).__name__
        if status != "200":
            errors[f"{path} {status}"] = errors.get(f"{path} {status}", 0) + 1
        elif timed:
            latencies.append((time.perf_counter() - t0) * 1000)

    limits = httpx.Limits(max_connections=256, max_keepalive_connections=64)
    async with httpx.AsyncClient(base_url=stack.gateway_url, timeout=120, limits=limits) as http:
        (await http.get("/healthz")).raise_for_status()
        tasks = []
        started = time.perf_counter()
        warm = False
        sampled = -1
        for i in range(total):  # open loop: one request every 1/rate s, whatever the answers do
            await asyncio.sleep(max(0.0, started + i / args.rate - time.perf_counter()))
            now = time.perf_counter() - started
            if args.sample_minutes > 0 and int(now // (args.sample_minutes * 60)) > sampled:
                sampled = int(now // (args.sample_minutes * 60))
                timeline.append({"minute": round(now / 60, 1)} | {name: _rss_mb(p) for name, p in procs.items()})
            if not warm and now >= warmup_s:
                warm = True
                for name, p in procs.items():
                    memory[name]["after_warmup"] = _rss_mb(p)
                valkey_warm = await _valkey_figures(stack.redis_url) if "valkey" in procs else {}
            sent_after_warmup += warm
            tasks.append(asyncio.create_task(one(http, i, warm)))
            if len(tasks) >= 512:  # keep the list short; finished requests only
                tasks = [t for t in tasks if not t.done()]
        await asyncio.gather(*tasks)
        elapsed_s = time.perf_counter() - started
    if not warm:
        raise RuntimeError("the run ended before warm-up did: give --minutes more than --warmup-minutes")
    for name, p in procs.items():
        memory[name]["end"] = _rss_mb(p)
        base = memory[name]["after_warmup"]
        memory[name]["growth_after_warmup_pct"] = round(100 * (memory[name]["end"] - base) / base, 1) if base else 0.0
    figures: dict[str, Any] = {
        "rate_rps": args.rate,
        "achieved_rps": round(total / elapsed_s, 2),
        "minutes": round(elapsed_s / 60, 1),
        "requests": total,
        "timed_after_warmup": sent_after_warmup,
        "p50_ms": round(statistics.median(latencies), 1) if latencies else None,
        "p99_ms": round(quantile(latencies, 0.99), 1) if latencies else None,
        "errors": sum(errors.values()),
        "errors_by_kind": errors,
    }
    for name, values in memory.items():
        figures[f"rss_mb_{name}"] = values
    rotator = stack.rotator
    figures["broker_rotation"] = (
        {"generations_deleted": len(rotator.deleted), "recreated": sorted(rotator.recreated)} if rotator else None
    )
    if "valkey" in procs:
        figures["valkey_after_warmup"] = valkey_warm
        figures["valkey_end"] = await _valkey_figures(stack.redis_url, by_kind=True)
    end = {"minute": round(elapsed_s / 60, 1)} | {name: values["end"] for name, values in memory.items()}
    figures["rss_mb_timeline"] = [*timeline, end]
    for name, values in memory.items():  # a rotating broker's memory is a saw: its peak says more than its end
        after = [point[name] for point in figures["rss_mb_timeline"] if point["minute"] >= args.warmup_minutes]
        values["max_after_warmup"] = max([values["after_warmup"], *after])
    return figures


def run(args: argparse.Namespace) -> dict[str, Any]:
    from factsentry.bench.pipeline import _answers, _store
    from factsentry.cli import UserError
    from factsentry.demo_data import model_list
    from factsentry.stack import build_demo_kb

    if args.rate <= 0 or args.minutes <= 0 or args.warmup_minutes < 0:
        raise UserError("--rate and --minutes must be positive, --warmup-minutes not negative")
    if args.warmup_minutes >= args.minutes:
        raise UserError(
            f"--warmup-minutes {args.warmup_minutes:g} leaves nothing of --minutes {args.minutes:g} to measure"
        )
    work = Path(tempfile.mkdtemp(prefix="factsentry-bench-soak-"))
    rows = _answers(args.data, 1000) if args.factcheck_every else []
    kb = build_demo_kb(work / "kb.sqlite3")
    if rows:
        _store(rows, kb)
    policy = {"default": {"mode": "block", "threshold": 0.75, "timeout_s": 60}}
    ttl_s = args.result_ttl_s or max(1, round(args.warmup_minutes * 60))
    load_before = round(os.getloadavg()[0], 2)
    stack = demo_stack(work, model_list(), policy, args.workers, kb=kb, env={"FACTSENTRY_RESULT_TTL_S": str(ttl_s)})
    try:
        figures = asyncio.run(_soak(stack, rows, args))
        load_after = round(os.getloadavg()[0], 2)
    finally:
        stack.stop()
    return {**figures, "result_ttl_s": ttl_s, "load_before": load_before, "load_after": load_after, "logs": str(work)}
