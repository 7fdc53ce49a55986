"""``factsentry worker``: run one worker of the pool until SIGTERM or Ctrl-C.

Every option can also come from the environment (``FACTSENTRY_CONCURRENCY``, ``FACTSENTRY_GROUP_ID``,
``FACTSENTRY_KB_PATH``, ...; see ``workers.settings.WorkerSettings``); flags win.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import threading
from pathlib import Path
from typing import Any

from factsentry.cli import UserError


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "worker",
        help="run a worker: score generations from Kafka, write results to Kafka and Redis",
        description="Consume factsentry.generations.v1 in a consumer group, score each generation, produce "
        "the verdict to factsentry.results.v1 and Redis, commit. Stops cleanly on SIGTERM or Ctrl-C.",
    )
    parser.add_argument("--concurrency", type=int, metavar="N", help="scoring threads or processes (default 2)")
    parser.add_argument("--group", metavar="G", help="consumer group id (default factsentry-workers)")
    parser.add_argument("--kb", type=Path, metavar="PATH", help="knowledge store (default var/demo-kb.sqlite3)")
    parser.add_argument("--stage", metavar="NAME", help="stage to run: scoring (default) or module:attr")
    parser.add_argument("--batch-size", type=int, metavar="N", help="records handled together (default 32)")
    parser.add_argument("--executor", choices=["thread", "process"], help="where scoring runs (default thread)")
    parser.add_argument("--metrics-port", type=int, metavar="PORT", help="Prometheus port (default 9464, 0 = off)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Build the settings, run the worker until it is stopped; exit code 0 after a clean drain."""
    from workers.errors import WorkerError
    from workers.settings import load_settings
    from workers.worker import run_worker

    if args.verbose == 0:
        # The startup line and the shutdown summary are the worker's INFO output.
        logging.getLogger("workers").setLevel(logging.INFO)
    try:
        settings = load_settings(
            concurrency=args.concurrency,
            group_id=args.group,
            kb_path=args.kb,
            stage=args.stage,
            batch_size=args.batch_size,
            executor=args.executor,
            metrics_port=args.metrics_port,
        )
        asyncio.run(run_worker(settings))
    except WorkerError as e:
        raise UserError(str(e)) from e
    exit_now_if_checks_are_stuck()
    return 0


def exit_now_if_checks_are_stuck() -> None:
    """After the drain, a check still running in a thread would hold the exit for as long as it runs
    (threads cannot be stopped, and Python joins them at exit): leave without them, as SIGTERM asked."""
    stuck = [t for t in threading.enumerate() if t is not threading.main_thread() and t.is_alive() and not t.daemon]
    if stuck:
        log = logging.getLogger("workers")
        log.warning("%d check thread(s) still running after the drain: exiting without waiting for them", len(stuck))
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
