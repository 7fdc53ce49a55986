"""``factsentry bench TARGET``: benchmarks that print their figures (``--json`` for one object).

Each target is a module ``factsentry.bench.<target>`` with ``add_arguments(parser)`` and
``run(args) -> dict``.
"""

from __future__ import annotations

import argparse
import importlib
import json
from typing import Any

TARGETS = ("gateway", "pipeline", "kb", "scoring", "failsafe", "soak")


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("bench", help="run a benchmark and print its figures")
    targets = p.add_subparsers(dest="target", metavar="TARGET", required=True)
    for name in TARGETS:
        module = importlib.import_module(f"factsentry.bench.{name}")
        doc = (module.__doc__ or name).replace("``", "").strip()
        tp = targets.add_parser(
            name,
            help=doc.splitlines()[0],
            description=doc,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        tp.add_argument("--json", action="store_true", help="print one JSON object")
        module.add_arguments(tp)
        tp.set_defaults(func=run, bench_module=module)


def run(args: argparse.Namespace) -> int:
    figures: dict[str, Any] = args.bench_module.run(args)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        width = max(len(k) for k in figures)
        for key, value in figures.items():
            print(f"{key:<{width}}  {value}")
    return 0
