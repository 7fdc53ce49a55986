"""``factsentry demo``: an ephemeral stack, the demo conversations through it, and their verdicts."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("demo", help="send the demo conversations through a fresh stack")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--timeout", type=float, default=180.0, help="seconds to wait for each verdict")
    p.set_defaults(func=run)


def progress(message: str) -> None:
    """One line on stderr per step, so the JSON on stdout stays clean."""
    print(f"factsentry demo: {message}", file=sys.stderr, flush=True)


def collect(base_url: str, timeout: float) -> list[dict[str, Any]]:
    """Send every demo conversation with the openai client and wait for each verdict."""
    import httpx
    import openai

    from factsentry.demo_data import CONVERSATIONS

    client = openai.OpenAI(base_url=base_url + "/v1", api_key="demo-no-key", max_retries=0, timeout=timeout + 30)
    sent = []
    for i, conv in enumerate(CONVERSATIONS, 1):
        progress(f"[{i}/{len(CONVERSATIONS)}] asking {conv.model} about {conv.name}")
        raw = client.chat.completions.with_raw_response.create(
            model=conv.model,
            messages=[{"role": "user", "content": conv.question}],
            extra_headers={"x-factsentry-name": conv.name},
        )
        completion = raw.parse()
        sent.append((conv, raw.headers["x-request-id"], completion.choices[0].message.content or ""))
    results = []
    with httpx.Client(base_url=base_url, timeout=10) as http:
        for conv, request_id, answer in sent:
            deadline = time.monotonic() + timeout
            body: dict[str, Any] | None = None
            while time.monotonic() < deadline:
                response = http.get(f"/v1/results/{request_id}")
                if response.status_code == 200:
                    body = response.json()
                    break
                time.sleep(0.25)
            check = (body or {}).get("check") or {}
            dfs = check.get("dfactscore")
            shown = "none (timed out)" if not body else "unverifiable" if dfs is None else f"D-FActScore {dfs:.2f}"
            progress(f"verdict for {conv.model}: {shown}")
            results.append(
                {
                    "request_id": request_id,
                    "model": conv.model,
                    "name": conv.name,
                    "note": conv.note,
                    "answer": answer,
                    "status": "done" if body else "timeout",
                    "abstained": check.get("abstained"),
                    "factscore": check.get("factscore"),
                    "dfactscore": check.get("dfactscore"),
                    "num_facts": check.get("num_facts"),
                    "num_bios": check.get("num_bios"),
                    "num_entities": check.get("num_entities"),
                    "conflated": any(g.get("conflated") for g in check.get("groups", [])),
                    "revision": (check.get("revision") or {}).get("text"),
                }
            )
    client.close()
    return results


def run(args: argparse.Namespace) -> int:
    from factsentry.cli import UserError
    from factsentry.commands.up import default_models_file
    from factsentry.embedded import EmbeddedServerError, free_port
    from factsentry.stack import Stack, StackSettings, build_demo_kb

    work = Path(tempfile.mkdtemp(prefix="factsentry-demo-"))
    started = time.monotonic()
    progress("building the demo knowledge store")
    kb = build_demo_kb(work / "demo-kb.sqlite3")
    progress("starting broker, valkey, gateway and a worker (the worker loads its models; ~10 s)")
    stack = Stack(kb, default_models_file(work), gateway_port=free_port(), workers=1, partitions=1, log_dir=work)
    try:
        stack.start(StackSettings())
    except EmbeddedServerError as e:
        raise UserError(str(e)) from e
    try:
        progress(f"stack ready in {time.monotonic() - started:.1f} s at {stack.gateway_url}")
        results = collect(stack.gateway_url, args.timeout)
    finally:
        progress("stopping the stack")
        stack.stop()
    if args.json:
        print(json.dumps({"results": results}, indent=2, ensure_ascii=False))
    else:
        for r in results:
            fs = "-" if r["factscore"] is None else f"{r['factscore']:.2f}"
            dfs = "-" if r["dfactscore"] is None else f"{r['dfactscore']:.2f}"
            print(
                f"{r['model']:18} {r['name']:16} FS {fs:>5}  D-FS {dfs:>5}  bios {r['num_bios']}  "
                f"entities {r['num_entities']}  {'CONFLATED ' if r['conflated'] else ''}({r['note']})"
            )
            if r["revision"] and r["revision"] != r["answer"]:
                print(f"{'':18} revision: {r['revision']}")
    missing = [r["model"] for r in results if r["status"] != "done"]
    if missing:
        print(f"factsentry demo: no verdict for {', '.join(missing)} (logs in {work})", file=sys.stderr)
        return 1
    return 0
