"""Added latency, throughput and CPU of the gateway in observe mode against a local upstream, beside the
LiteLLM proxy's.

In one run, the same local OpenAI-compatible upstream (its own process) is called directly, through
the gateway (its own process, publishing every generation to a real broker) and through the LiteLLM
proxy (``litellm --config``, its own process, same upstream, no guardrail, when the ``litellm`` CLI
is installed): first one request at a time, alternating rounds of 50 (added latency without
queueing), then at a fixed concurrency through each (throughput). CPU time per request is read
from each proxy's process (and its children). ``litellm_ratio`` is the gateway's added p50 over
LiteLLM's. ``start_ms`` is the median, over ``--starts`` gateways started one after another, of the time
from a gateway's process start to its first 200 from /healthz (its one model takes the lean path).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson
import psutil
import yaml

from factsentry import embedded
from factsentry.bench import at_least, quantile

RELIABLE_P99 = 500  # at least 5 samples above the 99th percentile
BODY = {"model": "bench", "messages": [{"role": "user", "content": "Tell me a bio of Marie Curie."}]}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--requests",
        type=at_least(20),
        default=600,
        help="sequential requests per side, direct and through the gateway (default 600; under 500 the p99"
        " rests on fewer than 5 samples and the output says p99_reliable: false)",
    )
    parser.add_argument(
        "--holdback-runs",
        type=at_least(0),
        default=8,
        help="streamed answers per side for the sentence hold-back figures, 20 tokens/s upstream (default 8; 0: skip)",
    )
    parser.add_argument(
        "--no-litellm",
        action="store_true",
        help="skip the LiteLLM proxy side (it is measured when the litellm CLI is installed: the dev extra)",
    )
    parser.add_argument(
        "--starts",
        type=at_least(1),
        default=5,
        help="gateway starts timed, one after another, for start_ms (their median; default 5)",
    )
    parser.add_argument(
        "--concurrency", type=at_least(1), default=50, help="clients at once in the throughput round (default 50)"
    )
    parser.add_argument(
        "--concurrent-requests",
        type=at_least(1),
        default=3000,
        help="requests of the throughput round, per side (default 3000)",
    )


class Client:
    """A minimal HTTP/1.1 keep-alive client, so the load generator costs little CPU."""

    def __init__(self, port: int, authorization: str = "") -> None:
        self.port = port
        self.extra = f"authorization: Bearer {authorization}\r\n" if authorization else ""
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: bytes) -> int:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        head = (
            f"POST {path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n{self.extra}"
            f"content-length: {len(body)}\r\n\r\n"
        )
        self.writer.write(head.encode() + body)
        status_line = await self.reader.readline()
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            key, _, value = line.decode("latin-1").partition(":")
            if key.lower() == "content-length":
                length = int(value)
        await self.reader.readexactly(length)
        return int(status_line.split()[1])

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def _sequential(clients: list[Client], n: int) -> list[list[float]]:
    """``n`` requests through each client, one at a time, in alternating rounds of 50; latencies in ms."""
    body = orjson.dumps(BODY)
    out: list[list[float]] = [[] for _ in clients]
    for _ in range(20):  # warm every path
        for client in clients:
            await client.post("/v1/chat/completions", body)
    rounds = max(1, n // 50)
    for _ in range(rounds):
        for client, sink in zip(clients, out, strict=True):
            for _ in range(50):
                t0 = time.perf_counter()
                status = await client.post("/v1/chat/completions", body)
                sink.append((time.perf_counter() - t0) * 1000)
                if status != 200:
                    raise RuntimeError(f"benchmark request failed with HTTP {status}")
    return out


def _cpu_s(proc: psutil.Process) -> float:
    """CPU seconds of a process and its children so far."""
    total = 0.0
    for p in [proc, *proc.children(recursive=True)]:
        try:
            t = p.cpu_times()
        except psutil.Error:
            continue
        total += t.user + t.system
    return total


LITELLM = Path(sys.executable).parent / "litellm"


def _start_litellm(work: Path, upstream_port: int, log: Any, master: str) -> tuple[subprocess.Popen[bytes], int]:
    """``litellm --config`` with the same upstream as model ``bench`` and master key ``master`` (LiteLLM
    refuses to start without one); returns the process and its port."""
    port = embedded.free_port()
    config = work / "litellm.yaml"
    entry = {
        "model_name": "bench",
        "litellm_params": {
            "model": "openai/bench",
            "api_base": f"http://127.0.0.1:{upstream_port}/v1",
            "api_key": "none",
        },
    }
    config.write_text(yaml.safe_dump({"model_list": [entry]}))
    env = {
        **os.environ,
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        "LITELLM_MODE": "PRODUCTION",
        "LITELLM_MASTER_KEY": master,
    }
    proc = subprocess.Popen(
        [str(LITELLM), "--config", str(config), "--host", "127.0.0.1", "--port", str(port)],
        cwd=work,
        env=env,
        stdout=log,
        stderr=log,
    )
    embedded.wait_until_ready(f"http://127.0.0.1:{port}/health/liveliness", proc)
    return proc, port


async def _concurrent(port: int, concurrency: int, total: int, authorization: str = "") -> float:
    body = orjson.dumps(BODY)
    remaining = total
    clients = [Client(port, authorization) for _ in range(concurrency)]

    async def loop(client: Client) -> None:
        nonlocal remaining
        while remaining > 0:
            remaining -= 1
            status = await client.post("/v1/chat/completions", body)
            if status != 200:
                raise RuntimeError(f"benchmark request failed with HTTP {status}")

    t0 = time.perf_counter()
    await asyncio.gather(*(loop(c) for c in clients))
    elapsed = time.perf_counter() - t0
    for c in clients:
        await c.close()
    return total / elapsed


def run(args: argparse.Namespace) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="factsentry-bench-"))
    broker = embedded.tansu().start()
    valkey = embedded.valkey().start()
    upstream_port, gateway_port = embedded.free_port(), embedded.free_port()
    models = work / "models.yaml"
    models.write_text(
        yaml.safe_dump(
            {
                "model_list": [
                    {
                        "model_name": "bench",
                        "litellm_params": {"model": "openai/bench", "api_base": f"http://127.0.0.1:{upstream_port}/v1"},
                    }
                ]
            }
        )
    )
    env = {
        **os.environ,
        "FACTSENTRY_KAFKA_BOOTSTRAP": f"127.0.0.1:{broker.port}",
        "FACTSENTRY_REDIS_URL": f"redis://127.0.0.1:{valkey.port}/0",
        "FACTSENTRY_MODELS_FILE": str(models),
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    }
    log = (work / "processes.log").open("wb")
    upstream = subprocess.Popen(
        [sys.executable, "-m", "factsentry.mock_upstream", "--port", str(upstream_port)], stdout=log, stderr=log
    )
    start_load = os.getloadavg()[0]
    started = time.perf_counter()
    gateway = _gateway(gateway_port, env, log)
    litellm: subprocess.Popen[bytes] | None = None
    try:
        starts = [_until_healthy(gateway_port, gateway, started)]
        starts += [_start_ms(env, log) for _ in range(args.starts - 1)]  # the first one idles meanwhile
        embedded.wait_for_port(upstream_port, proc=upstream)
        litellm_port = 0
        master = "sk-" + secrets.token_hex(16)
        if not args.no_litellm and LITELLM.exists():
            litellm, litellm_port = _start_litellm(work, upstream_port, log, master)

        async def measure() -> dict[str, Any]:
            ports = [upstream_port, gateway_port] + ([litellm_port] if litellm_port else [])
            clients = [Client(port, master if port == litellm_port else "") for port in ports]
            procs = [psutil.Process(gateway.pid)] + ([psutil.Process(litellm.pid)] if litellm else [])
            cpu0 = [_cpu_s(p) for p in procs]
            latencies = await _sequential(clients, args.requests)
            cpu = [_cpu_s(p) - c for p, c in zip(procs, cpu0, strict=True)]
            for client in clients:
                await client.close()
            direct_ms, gateway_ms = latencies[0], latencies[1]
            rps = await _concurrent(gateway_port, args.concurrency, args.concurrent_requests)
            direct_rps = await _concurrent(upstream_port, args.concurrency, args.concurrent_requests)
            added_p50 = statistics.median(gateway_ms) - statistics.median(direct_ms)
            figures: dict[str, Any] = {
                "requests_sequential": len(gateway_ms),
                "direct_p50_ms": round(statistics.median(direct_ms), 3),
                "gateway_p50_ms": round(statistics.median(gateway_ms), 3),
                "added_p50_ms": round(added_p50, 3),
                "added_p99_ms": round(quantile(gateway_ms, 0.99) - quantile(direct_ms, 0.99), 3),
                "p99_reliable": len(gateway_ms) >= RELIABLE_P99,
                "direct_p99_ms": round(quantile(direct_ms, 0.99), 3),
                "gateway_p99_ms": round(quantile(gateway_ms, 0.99), 3),
                "throughput_rps": round(rps, 1),
                "direct_throughput_rps": round(direct_rps, 1),
                "concurrency": args.concurrency,
                "gateway_cpu_ms_per_request": round(cpu[0] * 1000 / (len(gateway_ms) + 20), 3),
                # process start to the first 200 from /healthz (lean models only): the median of --starts
                # gateways started one after another, the fastest and slowest, and the 1-minute load before
                "start_ms": round(statistics.median(starts), 1),
                "start_ms_min": round(min(starts), 1),
                "start_ms_max": round(max(starts), 1),
                "start_runs": len(starts),
                "start_load_avg": round(start_load, 2),
            }
            if litellm_port:
                litellm_ms = latencies[2]
                litellm_added = statistics.median(litellm_ms) - statistics.median(direct_ms)
                litellm_rps = await _concurrent(litellm_port, args.concurrency, args.concurrent_requests, master)
                figures.update(
                    {
                        "litellm_p50_ms": round(statistics.median(litellm_ms), 3),
                        "litellm_added_p50_ms": round(litellm_added, 3),
                        "litellm_added_p99_ms": round(quantile(litellm_ms, 0.99) - quantile(direct_ms, 0.99), 3),
                        "litellm_throughput_rps": round(litellm_rps, 1),
                        "litellm_cpu_ms_per_request": round(cpu[1] * 1000 / (len(litellm_ms) + 20), 3),
                        # The gateway's added p50 over LiteLLM's, measured in the same alternating rounds.
                        "litellm_ratio": round(added_p50 / litellm_added, 3) if litellm_added > 0 else None,
                    }
                )
            return figures

        figures = asyncio.run(measure())
        if args.holdback_runs:
            figures.update(_holdback_figures(work, env, log, args.holdback_runs))
        return figures
    finally:
        for proc in [p for p in (litellm, gateway, upstream) if p is not None]:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        log.close()
        broker.stop()
        valkey.stop()


HOLDBACK_TOKENS_PER_S = 20.0


def _gateway(port: int, env: dict[str, str], log: Any) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "factsentry", "gateway", "--port", str(port)], stdout=log, stderr=log, env=env
    )


def _start_ms(env: dict[str, str], log: Any) -> float:
    """Milliseconds from a gateway's process start to its first 200 from ``/healthz``; then it is stopped."""
    port = embedded.free_port()
    started = time.perf_counter()
    gateway = _gateway(port, env, log)
    try:
        return _until_healthy(port, gateway, started)
    finally:
        gateway.terminate()
        gateway.wait(15)


def _until_healthy(port: int, proc: subprocess.Popen[bytes], started: float) -> float:
    """Milliseconds from ``started`` (the gateway's process start) to its first 200 from ``/healthz``."""
    embedded.wait_until_ready(f"http://127.0.0.1:{port}/healthz", proc)
    return (time.perf_counter() - started) * 1000


def _holdback_figures(work: Path, env: dict[str, str], log: Any, runs: int) -> dict[str, Any]:
    """Sentence hold-back against an upstream streaming 20 tokens/s: the time to first token and to the
    last one a client sees through the gateway (block, ``stream: holdback``, one worker checking with
    the offline engine against the demo store) minus the same straight from the upstream."""
    from factsentry.demo_data import CONVERSATIONS
    from factsentry.stack import build_demo_kb

    conv = next(c for c in CONVERSATIONS if c.model == "demo-single-bio")  # verified sentence by sentence
    upstream_port, gateway_port = embedded.free_port(), embedded.free_port()
    models, policies = work / "slow-models.yaml", work / "holdback-policies.yaml"
    models.write_text(
        yaml.safe_dump(
            {
                "model_list": [
                    {
                        "model_name": "slow",
                        "litellm_params": {"model": "openai/slow", "api_base": f"http://127.0.0.1:{upstream_port}/v1"},
                    }
                ]
            }
        )
    )
    policies.write_text(
        yaml.safe_dump({"default": {"mode": "block", "threshold": 0.75, "timeout_s": 60, "stream": "holdback"}})
    )
    kb = build_demo_kb(work / "demo-kb.sqlite3")
    slow_env = {**env, "FACTSENTRY_MODELS_FILE": str(models), "FACTSENTRY_POLICY_FILE": str(policies)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "factsentry.mock_upstream", "--port", str(upstream_port), "--answer", conv.answer,
             "--tokens-per-s", str(HOLDBACK_TOKENS_PER_S)],
            stdout=log, stderr=log,
        ),
        subprocess.Popen(
            [sys.executable, "-m", "factsentry", "gateway", "--port", str(gateway_port)],
            stdout=log, stderr=log, env=slow_env,
        ),
        subprocess.Popen(
            [sys.executable, "-m", "factsentry", "worker", "--kb", str(kb), "--metrics-port", "0",
             "--concurrency", "1"],
            stdout=log, stderr=log, env=slow_env,
        ),
    ]  # fmt: skip
    try:
        embedded.wait_for_port(upstream_port, proc=procs[0])
        embedded.wait_until_ready(f"http://127.0.0.1:{gateway_port}/healthz", procs[1])
        body = {"model": "slow", "stream": True, "messages": [{"role": "user", "content": conv.question}]}

        async def measure() -> dict[str, Any]:
            import httpx

            async with httpx.AsyncClient(timeout=120) as http:
                direct_url = f"http://127.0.0.1:{upstream_port}/v1/chat/completions"
                gateway_url = f"http://127.0.0.1:{gateway_port}/v1/chat/completions"
                # The worker warms up (spaCy, the stance model) before its first verdict: wait for one.
                await _streamed(http, gateway_url, body)
                ttft: dict[str, list[float]] = {"direct": [], "gateway": []}
                sentence: dict[str, list[float]] = {"direct": [], "gateway": []}
                total: dict[str, list[float]] = {"direct": [], "gateway": []}
                complete = 0
                for _ in range(runs):
                    for side, url in (("direct", direct_url), ("gateway", gateway_url)):
                        first, whole_sentence, last, text = await _streamed(http, url, body)
                        ttft[side].append(first)
                        sentence[side].append(whole_sentence)
                        total[side].append(last)
                        complete += side == "gateway" and text == conv.answer
            med = {
                k: {s: statistics.median(v) for s, v in d.items()}
                for k, d in (("ttft", ttft), ("sentence", sentence), ("total", total))
            }
            return {
                "holdback_tokens_per_s": HOLDBACK_TOKENS_PER_S,
                "holdback_runs": runs,
                "holdback_direct_ttft_ms": round(med["ttft"]["direct"], 1),
                "holdback_ttft_ms": round(med["ttft"]["gateway"], 1),
                "holdback_ttft_added_ms": round(med["ttft"]["gateway"] - med["ttft"]["direct"], 1),
                # The first token a client sees is its first verified sentence: the time it takes the model
                # to finish that sentence is not the checker's; what the check itself adds is this one.
                "holdback_direct_first_sentence_ms": round(med["sentence"]["direct"], 1),
                "holdback_first_sentence_added_ms": round(med["sentence"]["gateway"] - med["sentence"]["direct"], 1),
                "holdback_direct_total_ms": round(med["total"]["direct"], 1),
                "holdback_total_ms": round(med["total"]["gateway"], 1),
                "holdback_total_added_ms": round(med["total"]["gateway"] - med["total"]["direct"], 1),
                "holdback_answers_released_whole": f"{complete}/{runs}",
            }

        return asyncio.run(measure())
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()


async def _streamed(http: Any, url: str, body: dict[str, Any]) -> tuple[float, float, float, str]:
    """(ms to the first content, ms to the first complete sentence, ms to the end, the content) of one
    streamed chat completion."""
    from gateway.holdback import split_complete

    t0 = time.perf_counter()
    first: float | None = None
    sentence: float | None = None
    text: list[str] = []
    async with http.stream("POST", url, json=body) as response:
        response.raise_for_status()
        async for line in response.aiter_lines():
            if not line.startswith("data: ") or line == "data: [DONE]":
                continue
            chunk = orjson.loads(line[6:])
            for choice in chunk.get("choices") or []:
                piece = (choice.get("delta") or {}).get("content")
                if piece:
                    first = first if first is not None else (time.perf_counter() - t0) * 1000
                    text.append(piece)
                    if sentence is None and split_complete("".join(text))[0]:
                        sentence = (time.perf_counter() - t0) * 1000
    last = (time.perf_counter() - t0) * 1000
    first = first if first is not None else last
    return first, (sentence if sentence is not None else last), last, "".join(text)
