"""``factsentry gateway`` starts without litellm and says so (issue 33, item 3).

Importing litellm's Router took 10–20 s on a busy machine before the gateway listened. Now a gateway whose
models all take the lean HTTP path never imports litellm, and one with litellm models listens first and
builds the Router in the background: a request for such a model that arrives before it is built waits
for it and is answered. Not a timed test: what is asserted is what was imported when the gateway listened,
and that the requests succeed; and that it imports nothing only another command needs.

The gateway runs as the real command in a fresh interpreter (this test process has imported litellm long
ago); a watcher thread in that interpreter waits for ``/healthz``, looks at ``sys.modules``, makes the
requests, writes what it saw to a JSON file and stops the server with SIGINT.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

import yaml

from factsentry.embedded import free_port
from tests.gateway.conftest import UPSTREAM_ANSWER, model_list

WATCHER = r"""
import json, os, signal, sys, threading, time, urllib.request

port, asks = sys.argv[1], json.loads(sys.argv[2])
base = f"http://127.0.0.1:{port}"

def chat(model):
    body = json.dumps({"model": model, "messages": [{"role": "user", "content": "hi"}]}).encode()
    headers = {"content-type": "application/json"}
    request = urllib.request.Request(base + "/v1/chat/completions", data=body, headers=headers)
    with urllib.request.urlopen(request, timeout=120) as response:
        return response.status, json.load(response)["choices"][0]["message"]["content"]

def watch():
    seen = {}
    try:
        while True:
            try:
                with urllib.request.urlopen(base + "/healthz", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                time.sleep(0.02)
        seen["litellm_when_listening"] = sorted(m for m in sys.modules if m.split(".")[0] == "litellm")[:3]
        seen["modules_when_listening"] = sorted(sys.modules)
        seen["answers"] = {model: chat(model) for model in asks}
        seen["litellm_after"] = "litellm" in sys.modules
    except Exception as e:
        seen["error"] = repr(e)
    with open(sys.argv[4], "w") as out:
        json.dump(seen, out)
    os.kill(os.getpid(), signal.SIGINT)

threading.Thread(target=watch, daemon=True).start()
from factsentry.cli import main
sys.exit(main(["gateway", "--port", port, "--models", sys.argv[3]]))
"""


async def run_gateway(
    tmp_path: Path, models: dict[str, Any], asks: list[str], kafka_bootstrap: str, redis_url: str
) -> tuple[dict[str, Any], str]:
    path = tmp_path / "models.yaml"
    path.write_text(yaml.safe_dump(models))
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("FACTSENTRY_")}
    env |= {
        "FACTSENTRY_KAFKA_BOOTSTRAP": kafka_bootstrap,
        "FACTSENTRY_REDIS_URL": redis_url,
        "FACTSENTRY_GENERATIONS_TOPIC": f"gen-startup-{port}",
        "PYTHONPATH": str(Path(__file__).parents[2]),
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        WATCHER,
        str(port),
        json.dumps(asks),
        str(path),
        str(tmp_path / "seen.json"),
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await asyncio.wait_for(process.communicate(), 300)
    # uvicorn re-raises the SIGINT it stopped on once shut down: the command exits 130, as on Ctrl-C
    assert process.returncode in (0, 130) and (tmp_path / "seen.json").is_file(), err.decode()[-2000:]
    return json.loads((tmp_path / "seen.json").read_text()), err.decode()


def lean_only(upstream_url: str) -> dict[str, Any]:
    return {"model_list": [m for m in model_list(upstream_url)["model_list"] if m["model_name"] == "mock-lean"]}


async def test_a_gateway_of_lean_models_never_imports_litellm_and_says_it_listens(
    tmp_path: Path, upstream_url: str, kafka_bootstrap: str, redis_url: str
) -> None:
    seen, err = await run_gateway(tmp_path, lean_only(upstream_url), ["mock-lean"], kafka_bootstrap, redis_url)
    assert "error" not in seen, seen
    assert seen["litellm_when_listening"] == [] and seen["litellm_after"] is False
    assert seen["answers"] == {"mock-lean": [200, UPSTREAM_ANSWER]}
    # Nor what only other commands need: their parsers (the benchmarks' clients, the engine names), the
    # worker package (for its /metrics listener), the checker, or a websockets implementation for uvicorn.
    loaded = {m.split(".")[0] for m in seen["modules_when_listening"]}
    assert not loaded & {"workers", "scoring", "knowledge", "httpx", "tqdm", "websockets"}, loaded
    assert [m for m in seen["modules_when_listening"] if m.startswith("factsentry.")] == [
        "factsentry.cli",
        "factsentry.commands",
        "factsentry.commands.gateway",
        "factsentry.embedded",
    ]
    [line] = [x for x in err.splitlines() if "listening on" in x]
    assert "http://127.0.0.1:" in line and "1 model(s): mock-lean ·" in line
    assert "via litellm" not in line and "policies: none (every model: observe)" in line and "API keys: off" in line


async def test_a_litellm_model_asked_before_litellm_is_loaded_waits_for_it(
    tmp_path: Path, upstream_url: str, kafka_bootstrap: str, redis_url: str
) -> None:
    """The first request, sent the moment the gateway answers /healthz, goes to a litellm model: it is
    answered (by litellm's mock_response) once the Router is built, not refused. A lean model's works too."""
    models = model_list(upstream_url)
    seen, err = await run_gateway(tmp_path, models, ["mock-litellm", "mock-lean"], kafka_bootstrap, redis_url)
    assert "error" not in seen, seen
    assert seen["answers"] == {"mock-litellm": [200, UPSTREAM_ANSWER], "mock-lean": [200, UPSTREAM_ANSWER]}
    assert seen["litellm_after"] is True
    [line] = [x for x in err.splitlines() if "listening on" in x]
    assert "4 model(s): fail-429, mock-lean, mock-litellm, mock-rate-limited;" in line
    assert "2 via litellm, loading in the background" in line
