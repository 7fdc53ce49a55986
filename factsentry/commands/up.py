"""``factsentry up``: the whole guardrail on embedded defaults, until Ctrl-C."""

from __future__ import annotations

import argparse
import os
import signal
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("up", help="start broker, valkey, gateway and workers")
    p.add_argument("--kb", type=Path, help="knowledge store (default: the demo knowledge base)")
    p.add_argument("--models", type=Path, help="litellm model_list YAML (default: the demo's mocked models)")
    p.add_argument("--policies", type=Path, help="policies YAML")
    p.add_argument(
        "--host", default=os.environ.get("FACTSENTRY_HOST", "127.0.0.1"), help="gateway address (FACTSENTRY_HOST)"
    )
    p.add_argument("--port", type=int, default=_env_port(), help="gateway port (FACTSENTRY_PORT, default 8080)")
    p.add_argument("--workers", type=int, default=2, help="worker processes")
    p.add_argument(
        "--data-dir",
        type=Path,
        default=Path("var"),
        help="where the embedded valkey keeps its append-only file, so verdicts survive a restart (default: var)",
    )
    p.set_defaults(func=run)


def _env_port() -> int:
    value = os.environ.get("FACTSENTRY_PORT", "8080")
    try:
        return int(value)
    except ValueError:
        return -1  # refused with the variable's name in run()


def default_models_file(directory: Path) -> Path:
    from factsentry.demo_data import model_list

    path = directory / "models.yaml"
    path.write_text(yaml.safe_dump(model_list()))
    return path


def run(args: argparse.Namespace) -> int:
    from factsentry.cli import UserError
    from factsentry.embedded import EmbeddedServerError
    from factsentry.stack import Stack, build_demo_kb

    if not 0 < args.port < 65536:
        shown = os.environ.get("FACTSENTRY_PORT", args.port)
        raise UserError(f"bad gateway port {shown!r} (--port or FACTSENTRY_PORT): a number from 1 to 65535")
    work = Path(tempfile.mkdtemp(prefix="factsentry-up-"))
    for option, path in (("--kb", args.kb), ("--models", args.models), ("--policies", args.policies)):
        if path is not None and not path.is_file():
            raise UserError(f"{option} {path}: no such file")
    kb = args.kb or build_demo_kb(work / "demo-kb.sqlite3")
    models = args.models or default_models_file(work)
    stack = Stack(
        kb,
        models,
        args.policies,
        host=args.host,
        gateway_port=args.port,
        workers=args.workers,
        log_dir=work,
        data_dir=args.data_dir,
    )

    def on_term(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    # Before the start: a SIGTERM while the stack starts stops what has started (Stack.start stops on any
    # exception), instead of killing this process and leaving its servers and workers running.
    signal.signal(signal.SIGTERM, on_term)
    try:
        stack.start()
    except EmbeddedServerError as e:
        raise UserError(str(e)) from e
    except KeyboardInterrupt:
        print("factsentry up: stopped before it was up", flush=True)
        return 130
    print(f"factsentry is up (logs in {work})")
    print(f"  gateway    {stack.gateway_url}/v1   (OpenAI-compatible; metrics {stack.gateway_url}/metrics)")
    print(f"  kafka      {stack.kafka_bootstrap}")
    print(f"  redis      {stack.redis_url}   (append-only file in {args.data_dir / 'valkey'})")
    for i, port in enumerate(stack.worker_metrics_ports):
        print(f"  worker-{i}   metrics http://{args.host}:{port}/metrics")
    print(f"  knowledge  {kb}")
    print(f"  models     {models}")
    print("Ctrl-C stops everything.", flush=True)
    stopping = False
    try:
        while not stopping:
            time.sleep(0.5)
            for line in stack.supervise():
                print(f"factsentry up: {line}", flush=True)
            if (dead := stack.check_children()) is not None:
                print(f"factsentry up: {dead}; stopping")
                return 1
    except KeyboardInterrupt:
        print("\nstopping…", flush=True)
    finally:
        stack.stop()
    return 0
