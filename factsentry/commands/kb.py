"""``factsentry kb``: build and query the knowledge store.

factsentry kb import knowledge/demo --db var/demo-kb.sqlite3
factsentry kb import help-center/ --db var/help.sqlite3      # a folder of .md, .html and .txt documents
factsentry kb search "Dick Hanley" --db var/demo-kb.sqlite3 --json
factsentry kb stats --db var/demo-kb.sqlite3
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import orjson


def add_parser(sub: Any) -> None:
    """Register ``kb import``, ``kb search`` and ``kb stats``."""
    p: argparse.ArgumentParser = sub.add_parser("kb", help="build and query the knowledge store")
    kb = p.add_subparsers(dest="kb_command", metavar="KB_COMMAND", required=True)

    imp = kb.add_parser(
        "import", help="import pages from JSONL, FActScore SQLite, DPR TSV or markdown/HTML/text documents"
    )
    imp.add_argument(
        "path",
        type=Path,
        help="a source file, or a directory of .jsonl files and documents (.md, .html, .txt: one page per file)",
    )
    imp.add_argument("--db", type=Path, required=True, help="the store file (created if missing)")
    imp.add_argument(
        "--format", choices=("jsonl", "factscore", "dpr", "docs"), help="source format (guessed when omitted)"
    )
    imp.add_argument("--quiet", action="store_true", help="no progress bar and no summary line")
    imp.add_argument("--json", action="store_true", help="print the import report as JSON")
    imp.add_argument("--optimize", action="store_true", help="merge the search index afterwards (faster kb search)")
    imp.add_argument(
        "--max-line-mb",
        type=float,
        default=16.0,
        metavar="MB",
        help="longest JSONL/TSV line (one page or passage) read before the import stops (default 16)",
    )
    imp.set_defaults(func=run_import)

    search = kb.add_parser("search", help="every entity a name can refer to, with passages")
    search.add_argument("name", help='a name, e.g. "Dick Hanley"')
    search.add_argument("--db", type=Path, required=True, help="the store file")
    search.add_argument("--query", default="", help="rank each entity's passages for this claim")
    search.add_argument("--passages", type=int, default=3, help="passages per entity (default 3)")
    search.add_argument("--limit", type=int, default=20, help="most entities to list (default 20)")
    search.add_argument("--json", action="store_true", help="print JSON")
    search.set_defaults(func=run_search)

    stats = kb.add_parser("stats", help="entity and passage counts and the store version")
    stats.add_argument("--db", type=Path, required=True, help="the store file")
    stats.set_defaults(func=run_stats)


def _open(db: Path) -> Any:
    from factsentry.cli import UserError
    from knowledge.errors import StoreError
    from knowledge.store import Store

    try:
        return Store.open(db)
    except StoreError as e:
        raise UserError(str(e)) from e


def run_import(args: argparse.Namespace) -> int:
    """Import ``args.path`` into ``args.db``; exit 1 when nothing usable was imported."""
    from tqdm import tqdm

    from factsentry.cli import UserError
    from knowledge.errors import KnowledgeError
    from knowledge.importers import import_path
    from knowledge.store import Store

    if not 0 < args.max_line_mb <= 4096:
        raise UserError(f"--max-line-mb {args.max_line_mb:g}: must be above 0 and at most 4096")
    args.db.parent.mkdir(parents=True, exist_ok=True)
    shown = 0

    def on_problem(message: str) -> None:
        nonlocal shown
        shown += 1
        if shown <= 20:
            tqdm.write(f"skipped {message}", file=sys.stderr)

    try:
        with Store(args.db) as store:
            report = import_path(
                args.path,
                store,
                args.format,
                show_progress=not args.quiet,
                on_problem=on_problem,
                max_line_bytes=int(args.max_line_mb * 1024 * 1024),
            )
            if args.optimize and report.pages:
                store.optimize()
    except KnowledgeError as e:
        raise UserError(str(e)) from e
    if shown > 20:
        print(f"... and {shown - 20} more bad lines or files", file=sys.stderr)
    if args.json:
        sys.stdout.write(orjson.dumps(report.as_dict()).decode() + "\n")
    elif not args.quiet or report.bad_lines:
        print(
            f"imported {report.pages} pages ({report.passages} passages), {report.unchanged} unchanged, "
            f"{report.bad_lines} bad lines or files skipped, in {report.seconds:.1f}s; store version {report.version}",
            file=sys.stderr,
        )
    if report.usable == 0:
        print(f"factsentry kb import: nothing usable imported from {args.path}", file=sys.stderr)
        return 1
    return 0


def run_search(args: argparse.Namespace) -> int:
    """Print every candidate entity for ``args.name`` with its first (or best) passages."""
    store = _open(args.db)
    with store:
        out = []
        for c in store.candidates(args.name, limit=args.limit):
            passages = store.passages(c.title, args.query, args.passages) if args.passages > 0 else []
            out.append(
                {
                    "title": c.title,
                    "base_name": c.base_name,
                    "disambiguator": c.disambiguator,
                    "aliases": c.aliases,
                    "score": c.score,
                    "passages": [p.text for p in passages],
                }
            )
    if args.json:
        sys.stdout.write(orjson.dumps({"candidates": out}).decode() + "\n")
        return 0
    if not out:
        print(f"no entity named {args.name!r}")
    for c in out:
        print(f"{c['title']}  [{c['score']}]")
        for text in c["passages"]:
            print(f"    {text[:200]}")
    return 0


def run_stats(args: argparse.Namespace) -> int:
    """Print the store's counts and version as JSON."""
    with _open(args.db) as store:
        sys.stdout.write(orjson.dumps(store.stats()).decode() + "\n")
    return 0
