"""``factsentry eval SET``: measure factsentry against the papers' labelled data, beside the published numbers.

factsentry eval factcheck-bench                    # ../shared/data beside the project root
factsentry eval ambigbio --data /data --limit 20 --json
factsentry eval styles --layout json,yaml --kind merged   # our own style × kind matrix (evaluation/styles.py)
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from tqdm import tqdm

from factsentry.cli import UserError

T = TypeVar("T")
SETS = ("factcheck-bench", "wice", "ambigbio", "factscore", "corpus", "styles")
DEFAULT_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def add_parser(sub: Any) -> None:
    from factsentry.engine_args import add_engine_arguments

    p: argparse.ArgumentParser = sub.add_parser(
        "eval", help="measure against Factcheck-Bench, WiCE, AmbigBio, FActScore data or our own corpus"
    )
    p.add_argument("set", choices=SETS, metavar="SET", help=f"one of: {', '.join(SETS)}")
    p.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of the data sets (default: %(default)s)")
    p.add_argument(
        "--corpus",
        type=Path,
        default=None,
        help="folder of our own corpus (kb/*.jsonl, answers.jsonl) for SET corpus and styles (default: tests/corpus)",
    )
    add_engine_arguments(p, default_model=None)
    p.add_argument(
        "--limit", type=int, default=None, help="only the first N items (per run for ambigbio, per cell for styles)"
    )
    p.add_argument("--layout", metavar="LAYOUT[,LAYOUT]", help="styles: only these layouts (default: all)")
    p.add_argument("--kind", metavar="KIND[,KIND]", help="styles: only these kinds of answer (default: all)")
    p.add_argument(
        "--ablate",
        metavar="RULE[,RULE]",
        help="run again with these rules switched off and print the difference (see scoring/RULES.md)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    p.set_defaults(func=run)


def _bar(items: Iterable[T], *, total: int, desc: str) -> Iterator[T]:
    yield from tqdm(items, total=total, desc=desc, file=sys.stderr, leave=False, dynamic_ncols=True)


def _clean(value: Any) -> Any:
    """JSON has no NaN: undefined figures become null."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    return value


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from evaluation import report
    from evaluation.engines import WHOLE_ANSWER_SETS, engine
    from evaluation.errors import EvaluationError
    from factsentry.engine_args import judge_from_args
    from scoring.rulebook import rule_names
    from scoring.rules import UnknownRule

    if args.limit is not None and args.limit < 1:
        raise UserError(f"--limit must be at least 1, got {args.limit}")
    root = args.data
    options: dict[str, Any] = {}
    if (args.layout or args.kind) and args.set != "styles":
        raise UserError("--layout and --kind choose cells of SET styles only")
    if args.set in ("corpus", "styles"):
        from evaluation.corpus import DEFAULT_CORPUS

        root = args.corpus or DEFAULT_CORPUS
    if args.set == "styles":
        from evaluation import styles

        try:
            options["layouts"] = styles.parse_names(args.layout, styles.LAYOUTS, "layout")
            options["kinds"] = styles.parse_names(args.kind, styles.KINDS, "kind")
        except EvaluationError as e:
            raise UserError(str(e)) from e
    elif args.set != "corpus" and not args.data.is_dir():
        raise UserError(f"no data folder at {args.data}; pass --data with the folder that holds the sets")
    try:
        ablate = sorted(rule_names([args.ablate])) if args.ablate else []
    except UnknownRule as e:
        raise UserError(str(e)) from e
    try:
        if args.engine != "offline" and args.set not in WHOLE_ANSWER_SETS:
            raise UserError(
                f"--engine {args.engine}: {args.set} evaluates the offline stance model or decomposer on its own; "
                f"other engines run on {', '.join(WHOLE_ANSWER_SETS)}"
            )
        judge = judge_from_args(args)
        base = engine(args.engine, judge, judge.name if judge else None)
        outcome = report.run(args.set, root, base, limit=args.limit, progress=_bar, **options)
        if ablate:
            without = replace(base, rules_off=frozenset(ablate))
            ablated = report.run(args.set, root, without, limit=args.limit, progress=_bar, **options)
    except EvaluationError as e:
        raise UserError(str(e)) from e
    if ablate:
        if args.json:
            doc = {
                "set": args.set,
                "ablate": ablate,
                "with": outcome.result,
                "without": ablated.result,
                "difference": report.difference(outcome.result, ablated.result),
            }
            print(json.dumps(_clean(doc), indent=2))
        else:
            from rich.console import Console

            Console().print(report.ablation_table(args.set, ablate, outcome, ablated))
        return 0
    if args.json:
        print(json.dumps(_clean(outcome.result), indent=2))
    elif args.set == "styles":
        from evaluation import styles

        styles.print_report(outcome, engine=args.engine)
    else:
        report.print_table(args.set, outcome, engine=args.engine)
    return 0
