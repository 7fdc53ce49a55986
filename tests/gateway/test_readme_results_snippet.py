"""The README's shell snippet that fetches a verdict by the response's ``x-request-id``, run with bash and
curl against a real gateway and worker (only the address and the model name are the test's)."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
from pathlib import Path

import httpx

from tests.gateway.conftest import FAITHFUL, MERGED, StartStack, ask

README = Path(__file__).resolve().parents[2] / "README.md"
MARKER = "<!-- results-snippet: run by tests/gateway/test_readme_results_snippet.py -->"


def snippet() -> str:
    """The ```sh block right after the marker in the README."""
    text = README.read_text()
    after = text[text.index(MARKER) + len(MARKER) :]
    found = re.match(r"\s*```sh\n(.*?)\n```", after, re.S)
    assert found is not None, "the marker must be followed by a ```sh block"
    return found.group(1)


def test_the_snippet_sets_request_id_before_it_uses_it() -> None:
    lines = snippet().splitlines()
    first_use = next(i for i, line in enumerate(lines) if "$REQUEST_ID" in line)
    assert any(line.startswith("REQUEST_ID=") for line in lines[:first_use])


async def test_the_snippet_prints_the_verdict_of_the_request_it_made(start_stack: StartStack) -> None:
    gw = await start_stack()
    # A first answer warms the worker (models load on its first check), as on a stack that has run a while.
    warm_id, _, _ = await ask(gw, FAITHFUL)
    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        for _ in range(600):
            if (await http.get(f"/v1/results/{warm_id}")).status_code == 200:
                break
            await asyncio.sleep(0.2)
    script = snippet().replace("http://127.0.0.1:8080", gw.base_url).replace('"demo-merged-bio"', '"mock-lean"')
    assert MERGED.question in script and MERGED.name in script
    done = await asyncio.to_thread(
        subprocess.run, ["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True, timeout=180
    )
    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    assert body["request_id"] and body["model"] == "mock-lean"
    # annotate waits for the verdict, so the result is there when the snippet asks for it
    check = body["check"]
    assert (check["num_entities"], check["factscore"] >= 0.9, check["dfactscore"] <= 0.7) == (2, True, True)
