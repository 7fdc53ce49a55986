"""`factsentry up` and `factsentry demo` as a user runs them: real child processes, real servers."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import openai
import psutil

from factsentry.embedded import READY_TIMEOUT_S, free_port

ENV = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
ENV.pop("FACTSENTRY_KAFKA_BOOTSTRAP", None)
ENV.pop("FACTSENTRY_REDIS_URL", None)


def test_demo_prints_a_verdict_for_every_conversation() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "factsentry", "demo", "--json"], capture_output=True, text=True, timeout=400, env=ENV
    )
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads(done.stdout)["results"]
    assert len(results) == 4
    # progress on stderr, one line a step, so the wait is never silent and stdout stays JSON
    steps = [line for line in done.stderr.splitlines() if line.startswith("factsentry demo: ")]
    assert steps[0] == "factsentry demo: building the demo knowledge store"
    assert any(line.startswith("factsentry demo: stack ready in ") for line in steps)
    assert sum(" verdict for " in line for line in steps) == 4
    assert steps[-1] == "factsentry demo: stopping the stack"
    for r in results:
        assert r["status"] == "done"
        assert r["request_id"]
        assert 0.0 <= r["factscore"] <= 1.0
        assert 0.0 <= r["dfactscore"] <= r["factscore"]
        assert r["num_bios"] >= 1
    merged = next(r for r in results if r["model"] == "demo-merged-bio")
    assert merged["num_entities"] == 2
    assert merged["conflated"] is True
    assert merged["dfactscore"] < merged["factscore"]
    two = next(r for r in results if r["model"] == "demo-two-bios")
    assert two["num_bios"] == 2


def start_up(port: int, data_dir: Path) -> subprocess.Popen[str]:
    """``factsentry up`` with one worker on ``port``, its output read as text."""
    return subprocess.Popen(
        [sys.executable, "-m", "factsentry", "up", "--port", str(port), "--workers", "1", "--data-dir", str(data_dir)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=ENV,
    )


def test_up_serves_the_openai_api_and_ctrl_c_stops_every_child(tmp_path: Path) -> None:
    port = free_port()
    proc = start_up(port, tmp_path)
    try:
        lines = []
        assert proc.stdout is not None
        deadline = time.monotonic() + READY_TIMEOUT_S + 60  # what `up` waits for its children, and its servers
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            lines.append(line)
            if "Ctrl-C stops everything" in line or not line:
                break
        output = "".join(lines)
        assert f"http://127.0.0.1:{port}/v1" in output, output
        assert "kafka" in output and "redis" in output and "worker-0" in output
        children = psutil.Process(proc.pid).children(recursive=True)
        assert len(children) >= 4  # broker, valkey, gateway, worker
        client = openai.OpenAI(base_url=f"http://127.0.0.1:{port}/v1", api_key="unused")
        completion = client.chat.completions.create(
            model="demo-single-bio", messages=[{"role": "user", "content": "Who was John Stewart?"}]
        )
        assert "Kingston Trio" in (completion.choices[0].message.content or "")
        # `up` supervises its servers: kill both, and it restarts them on the same ports and says so.
        servers = [c for c in children if any(n in c.name() for n in ("tansu", "valkey"))]
        assert len(servers) == 2, [c.name() for c in children]
        for server in servers:
            server.kill()
        # The two restarts, among what else `up` says meanwhile: its rotator and the workers log every failed fetch
        # and reconnect to the killed broker, a dozen lines or more on a busy machine.
        said: list[str] = []
        while len(said) < 400 and sum(("restarted" in line or "append-only" in line) for line in said) < 2:
            said.append(proc.stdout.readline())
        assert any("tansu" in line and "restarted empty" in line for line in said), said
        assert any("valkey" in line and "append-only file" in line for line in said), said
        assert (tmp_path / "valkey").is_dir()
        completion = client.chat.completions.create(
            model="demo-single-bio", messages=[{"role": "user", "content": "Who was John Stewart?"}]
        )
        assert "Kingston Trio" in (completion.choices[0].message.content or "")
        client.close()
        children = psutil.Process(proc.pid).children(recursive=True)
        proc.send_signal(signal.SIGINT)
        # Read what `up` says to the end (it also drains the pipe): a failure shows why it stopped as it did. A fresh-
        # clone CI run on 7faaca4 saw exit code 1 here once, with nothing to tell a dead child from a traceback.
        rest, _ = proc.communicate(timeout=60)
        assert proc.returncode == 0, rest[-4000:]
        time.sleep(0.5)
        assert not [c for c in children if c.is_running() and c.status() != psutil.STATUS_ZOMBIE]
    finally:
        if proc.poll() is None:
            proc.kill()


def test_up_terminated_while_it_starts_stops_every_child(tmp_path: Path) -> None:
    """A SIGTERM before the stack is up (an orchestrator or ``make`` giving up) stops what has started: no
    server or worker is left running without its parent."""
    port = free_port()
    proc = start_up(port, tmp_path)
    try:
        deadline = time.monotonic() + 60
        children: list[psutil.Process] = []
        while time.monotonic() < deadline and not any("factsentry" in " ".join(c.cmdline()) for c in children):
            time.sleep(0.05)  # until the gateway or a worker has been spawned
            children = psutil.Process(proc.pid).children(recursive=True)
        assert children, "up spawned nothing"
        proc.send_signal(signal.SIGTERM)
        output, _ = proc.communicate(timeout=60)
        assert proc.returncode == 130, output
        assert "stopped before it was up" in output and "factsentry is up" not in output
        time.sleep(0.5)
        assert not [c for c in children if c.is_running() and c.status() != psutil.STATUS_ZOMBIE]
    finally:
        if proc.poll() is None:
            proc.kill()


def test_up_on_a_taken_port_says_so_in_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "factsentry", "up", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=120,
            env=ENV,
        )
    assert done.returncode == 1
    assert done.stderr.strip() == f"factsentry up: gateway port 127.0.0.1:{port} is already in use"
