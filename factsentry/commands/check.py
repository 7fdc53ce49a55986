"""``factsentry check``: fact-check one answer against a knowledge store and print the verdicts.

factsentry check --kb var/demo-kb.sqlite3 --name "Dick Hanley" --text answer.txt
echo "Dick Hanley was born in 1936. He died in 1970." | factsentry check --kb var/demo-kb.sqlite3 --text - --json
factsentry check --kb var/demo-kb.sqlite3 --engine llm --model gpt-4o-mini --text answer.txt
factsentry check --kb var/demo-kb.sqlite3 --engine hybrid --models models.yaml --model judge --text answer.txt
factsentry check --documents retrieved.jsonl --text answer.txt     # a RAG answer against its own documents

``--fail-under X`` exits 1 when D-FActScore is below X and says why on stderr either way; an
unverifiable answer has no D-FActScore and fails it unless ``--allow-unverifiable``; an abstaining one
passes.

``--json`` prints the :class:`schemas.CheckResult` (abstained, factscore, dfactscore, num_bios,
num_entities, groups with their facts, verdicts, stances, supporting entities and evidence, and the
revision with its edits). Without it, a table per group and fact with coloured verdicts, then the
revision.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any


def add_parser(sub: Any) -> None:
    from factsentry.engine_args import add_engine_arguments

    p: argparse.ArgumentParser = sub.add_parser("check", help="fact-check one answer (FActScore, D-FActScore)")
    p.add_argument("--kb", type=Path, help="the knowledge store file (factsentry kb import)")
    p.add_argument(
        "--documents",
        type=Path,
        help="check against these documents instead: a JSON list or JSON lines of {title, text[, entity]} "
        "(with --kb too, against both)",
    )
    p.add_argument("--text", required=True, help="a file holding the answer, or - for standard input")
    p.add_argument("--name", help="whom the answer is about (default: taken from the question or the text)")
    p.add_argument("--question", help="the question the answer replies to")
    add_engine_arguments(p)
    p.add_argument("--mode", choices=("separate", "drop"), default="separate", help="revision of merged people")
    p.add_argument("--no-revise", action="store_true", help="skip the suggested revision")
    p.add_argument(
        "--rules-off", metavar="RULE[,RULE]", help="switch these rules off (scoring/RULES.md; FACTSENTRY_RULES_OFF)"
    )
    p.add_argument(
        "--fail-under",
        type=float,
        metavar="SCORE",
        help="exit 1 when D-FActScore is below SCORE (0..1), for CI jobs that gate prompts or models on factuality;"
        " an unverifiable answer (no D-FActScore) fails too unless --allow-unverifiable",
    )
    p.add_argument(
        "--allow-unverifiable",
        action="store_true",
        help="with --fail-under: let an unverifiable answer pass (the store has no page about what it describes)",
    )
    p.add_argument("--json", action="store_true", help="print the CheckResult as JSON")
    p.set_defaults(func=run)


def _read_text(source: str) -> str:
    """The answer of ``--text``; a :class:`UserError` for a missing, unreadable, binary or non-UTF-8 source."""
    from factsentry.cli import UserError

    if source == "-":
        raw = getattr(sys.stdin, "buffer", None)  # a replaced sys.stdin (tests, embedding) may be text only
        text = _decode(raw.read(), source) if raw is not None else sys.stdin.read()
    else:
        path = Path(source)
        if not path.is_file():
            raise UserError(f"--text {source}: no such file (use - to read standard input)")
        try:
            data = path.read_bytes()
        except OSError as e:
            raise UserError(f"--text {source}: cannot read it: {e.strerror}") from e
        text = _decode(data, source)
    nul = text.find("\x00")
    if nul >= 0:
        raise UserError(f"--text {source}: binary input (a NUL character at offset {nul}); give UTF-8 text")
    if not text.strip():
        raise UserError(f"--text {source}: the answer is empty")
    return text


def _decode(data: bytes, source: str) -> str:
    from factsentry.cli import UserError

    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise UserError(
            f"--text {source}: not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start}); "
            "convert it first, e.g. iconv -t UTF-8"
        ) from e


def _open_store(path: Path) -> Any:
    from factsentry.cli import UserError
    from knowledge.errors import StoreError
    from knowledge.store import Store

    if not path.is_file():
        raise UserError(f"--kb {path}: no such store; build one with `factsentry kb import knowledge/demo --db {path}`")
    try:
        return Store.open(path)
    except StoreError as e:
        raise UserError(f"--kb {path}: {e}") from e


def _read_documents(path: Path) -> list[tuple[str, str, str]]:
    """``--documents``: a JSON list, or one JSON object a line, each a document as a request carries it."""
    import orjson
    from pydantic import ValidationError

    from factsentry.cli import UserError
    from schemas.messages import Document

    try:
        raw = path.read_bytes()
    except OSError as e:
        raise UserError(f"--documents {path}: cannot read it: {e.strerror}") from e
    try:
        stripped = raw.lstrip()
        if stripped.startswith(b"["):
            items = orjson.loads(stripped)
        else:
            items = [orjson.loads(line) for line in raw.splitlines() if line.strip()]
    except orjson.JSONDecodeError as e:
        raise UserError(f"--documents {path}: not JSON or JSON lines ({e})") from e
    if not isinstance(items, list) or not items:
        raise UserError(f"--documents {path}: no documents (give a list of {{title, text}} objects)")
    documents: list[tuple[str, str, str]] = []
    for i, item in enumerate(items):
        try:
            d = Document.model_validate(item)
        except ValidationError as e:
            first = e.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "document"
            raise UserError(f"--documents {path}: document {i + 1}: {where}: {first['msg']}") from e
        documents.append((d.title, d.text, d.entity))
    return documents


def check_answer(args: argparse.Namespace, text: str, store: Any) -> Any:
    """Run the chosen engine on ``text``; returns the CheckResult."""
    from dataclasses import replace

    from factsentry.cli import UserError
    from factsentry.engine_args import build_from_args
    from scoring.errors import ScoringError
    from scoring.pipeline import default_config
    from scoring.rules import UnknownRule

    try:
        # The environment's rules off and the command line's, both passed to the checker as its config.
        off = [os.environ.get("FACTSENTRY_RULES_OFF", ""), args.rules_off or ""]
        config = replace(default_config(off), revise=not args.no_revise, revise_mode=args.mode)
    except UnknownRule as e:
        raise UserError(str(e)) from e
    checker = build_from_args(args, config)
    try:
        return checker.check(text, kb=store, name=args.name, question=args.question)
    except ScoringError as e:
        raise UserError(str(e)) from e


def run(args: argparse.Namespace) -> int:
    from factsentry.cli import UserError

    if args.fail_under is not None and not 0.0 <= args.fail_under <= 1.0:
        raise UserError(f"--fail-under must be between 0 and 1, got {args.fail_under}")
    if args.allow_unverifiable and args.fail_under is None:
        raise UserError("--allow-unverifiable goes with --fail-under (it says whether an unverifiable answer passes)")
    if args.kb is None and args.documents is None:
        raise UserError("give --kb (a knowledge store), --documents (the answer's own documents), or both")
    documents = _read_documents(args.documents) if args.documents is not None else None
    store = _open_store(args.kb) if args.kb is not None else None
    grounded = None
    try:
        if documents is not None:
            from knowledge.documents import DocumentSource

            grounded = DocumentSource.of(documents, store)
        result = check_answer(args, _read_text(args.text), grounded or store)
    finally:
        for opened in (grounded, store):
            if opened is not None:
                opened.close()
    if args.json:
        sys.stdout.write(result.model_dump_json(indent=2) + "\n")
    else:
        render(result)
    if args.fail_under is not None:
        passed, why = gate(result, args.fail_under, args.allow_unverifiable)
        print(f"factsentry check: {why}", file=sys.stderr)
        return 0 if passed else 1
    return 0


def gate(result: Any, fail_under: float, allow_unverifiable: bool = False) -> tuple[bool, str]:
    """Whether ``result`` passes ``--fail-under``, and why, in one line.

    An abstained answer (it declines to answer) states nothing to check and passes. An unverifiable
    one has no D-FActScore: nothing says it is right, so it fails unless ``allow_unverifiable``.
    """
    bound = f"--fail-under {fail_under:g}"
    if result.abstained:
        return True, f"the answer abstains (declines to answer): nothing to score; it passes {bound}"
    if result.unverifiable or result.dfactscore is None:
        coverage = "" if result.coverage is None else f" (coverage {_pct(result.coverage)})"
        what = f"the answer is unverifiable{coverage}, so it has no D-FActScore"
        if allow_unverifiable:
            return True, f"{what}; it passes {bound} because of --allow-unverifiable"
        return False, f"{what} to compare with {bound}; it fails (--allow-unverifiable lets such answers pass)"
    if result.dfactscore < fail_under:
        return False, f"D-FActScore {result.dfactscore:.3f} is below {bound}"
    return True, f"D-FActScore {result.dfactscore:.3f} is at or above {bound}: passes"


_COLOURS = {"supported": "green", "not_supported": "red", "irrelevant": "dim"}


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:.1f}%"


def render(result: Any) -> None:
    """Print a result as rich tables: scores, one table per group, then the revision."""
    from rich.console import Console
    from rich.panel import Panel
    from rich.table import Table

    console = Console()
    if result.abstained:
        console.print("[yellow]abstained[/]: the answer declines to answer; it is counted, not scored.")
        return
    if result.reason == "language":
        console.print(
            f"[yellow]unverifiable[/]: the answer is written in {result.language!r}, which the {result.engine} "
            "engine does not read; it is not scored (the llm engine reads every language: --engine llm)."
        )
        return
    status = {"checked": "green", "unverifiable": "yellow"}.get(result.status, "white")
    console.print(
        f"[{status}]{result.status}[/]   "
        f"FActScore [bold]{_pct(result.factscore)}[/]   D-FActScore [bold]{_pct(result.dfactscore)}[/]   "
        f"coverage [bold]{_pct(result.coverage)}[/]   "
        f"facts {result.num_facts}   bios {result.num_bios}   entities {result.num_entities}   "
        f"engine {result.engine}   against {result.grounding.replace('_', ' + ')}"
        + (f"   llm calls {result.llm_calls}" if result.llm_calls else "")
    )
    if result.unverifiable:
        console.print(
            f"[yellow]unverifiable[/]: no page speaks to what the answer describes (coverage {_pct(result.coverage)}"
            " of its check-worthy facts), so it is not scored: FActScore and D-FActScore are empty, not 0."
            " A gateway policy follows its on_unverifiable (pass by default)."
        )
    for i, group in enumerate(result.groups, 1):
        title = f"bio {i}: {group.mention or '?'} → {group.entity or 'no entity'}"
        if group.conflated:
            title += "  [bold red]CONFLATED[/]"
        table = Table(title=title, title_justify="left", show_lines=False, expand=True)
        table.add_column("any page", no_wrap=True)
        table.add_column("linked", no_wrap=True)
        table.add_column("fact", ratio=3)
        table.add_column("supported by", ratio=2)
        for fact in group.facts:
            verdict = fact.verdict.value
            linked = fact.verdict_linked.value if fact.verdict_linked is not None else "—"
            table.add_row(
                f"[{_COLOURS.get(verdict, 'white')}]{verdict}[/]",
                f"[{_COLOURS.get(linked, 'white')}]{linked}[/]",
                fact.text if fact.worthiness.value == "factual" else f"[dim]{fact.text} ({fact.worthiness.value})[/]",
                ", ".join(fact.entity_supporting) or "—",
            )
        console.print(table)
    if result.revision is not None:
        console.print(Panel(result.revision.text or "(nothing left)", title="suggested revision", title_align="left"))
        for edit in result.revision.edits:
            arrow = f" → {edit.replacement}" if edit.replacement else ""
            console.print(f"  [cyan]{edit.kind}[/] {edit.original}{arrow}")
