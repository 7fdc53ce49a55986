"""``factsentry replay``: re-score the generations of a time window and compare with their live verdicts."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any


def add_parser(sub: Any) -> None:
    from factsentry.engine_args import add_engine_arguments

    p: argparse.ArgumentParser = sub.add_parser(
        "replay",
        help="re-score past generations (after a store or checker change) beside their live verdicts",
        description="Read the generations published between --from and --to from the generations topic, "
        "check each again with --kb and --engine, produce the verdicts (with run=NAME) to a results topic of "
        "their own, and compare them with the live verdicts of the same requests, per model. Live verdicts, "
        "Redis and the live results topic are left alone. Broker settings come from FACTSENTRY_* variables. "
        "With --policy FILE: what that candidate policy would have done to the window's verdicts beside the policy "
        "in force (--current), per model, and the requests whose action flips; stored verdicts are decided as they "
        "are (nothing re-scored) unless --kb or --engine asks for fresh ones.",
    )
    p.add_argument("--from", dest="start", required=True, help="window start: ISO 8601, 'now' or an age (2h, 30m)")
    p.add_argument("--to", dest="end", default="now", help="window end (default now)")
    p.add_argument("--run", help="name of this run, on every verdict it produces (default replay-<start time>)")
    p.add_argument("--kb", type=Path, help="knowledge store to check against (default FACTSENTRY_KB_PATH)")
    add_engine_arguments(p)
    p.set_defaults(engine=None)  # given or not decides whether --policy re-scores
    p.add_argument(
        "--policy", type=Path, metavar="FILE", help="a candidate policy YAML to compare with the policy in force"
    )
    p.add_argument(
        "--current",
        type=Path,
        metavar="FILE",
        help="with --policy: the policy in force (default FACTSENTRY_POLICY_FILE; without it the built-in observe)",
    )
    p.add_argument("--results-topic", help="where the verdicts go (default factsentry.results.replay.v1)")
    p.add_argument("--limit", type=int, help="re-score at most this many generations (oldest first)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--metrics-port", type=int, default=0, help="serve the run's figures to Prometheus on this port (default off)"
    )
    p.add_argument(
        "--linger", type=float, default=0.0, help="with --metrics-port: keep serving this many seconds after the run"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import time
    from datetime import UTC, datetime

    from prometheus_client import CollectorRegistry
    from pydantic import ValidationError

    from bus.exporter import MetricsServer
    from factsentry.cli import UserError
    from factsentry.commands.check import _open_store
    from factsentry.replay import REPLAY_TOPIC, parse_time, replay
    from schemas.messages import GenerationMessage
    from workers.kb import resolve_kb_path
    from workers.scoring_stage import question_of
    from workers.settings import load_settings

    try:
        start, end = parse_time(args.start), parse_time(args.end)
    except ValueError as e:
        raise UserError(str(e)) from e
    if end <= start:
        raise UserError(f"--to ({end.isoformat()}) must be after --from ({start.isoformat()})")
    try:
        settings = load_settings()
    except ValidationError as e:
        first = e.errors()[0]
        raise UserError(f"bad setting FACTSENTRY_{str(first['loc'][0]).upper()}: {first['msg']}") from e
    name = args.run or "replay-" + datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    policies = _policies(args) if args.policy else None
    if policies is not None and args.kb is None and args.engine is None:
        return _what_if_stored(args, settings, start, end, name, *policies)
    args.engine = args.engine or "offline"
    kb = args.kb or resolve_kb_path(settings.kb_path)
    if kb is None:
        raise UserError("no knowledge store: give --kb or set FACTSENTRY_KB_PATH")
    store = _open_store(kb)

    from factsentry.engine_args import build_from_args
    from scoring.errors import ScoringError
    from scoring.pipeline import default_config

    # The workers' own settings (revision mode included), so only the store or the engine differs; one
    # checker (and one judge) for the whole replay.
    checker = build_from_args(args, default_config())

    def check(message: GenerationMessage) -> Any:
        try:
            return checker.check(message.answer, kb=store, name=message.name, question=question_of(message))
        except ScoringError as e:
            raise UserError(str(e)) from e

    registry = CollectorRegistry()
    pairs: list[Any] | None = [] if policies is not None else None
    server = MetricsServer(registry, args.metrics_port, "127.0.0.1")
    try:
        server.start()
    except OSError as e:
        raise UserError(f"cannot serve metrics on port {args.metrics_port}: {e.strerror}") from e
    try:
        report = asyncio.run(
            replay(
                settings,
                check,
                start,
                end,
                name,
                results_topic=args.results_topic or REPLAY_TOPIC,
                registry=registry,
                progress=lambda line: print(f"factsentry replay: {line}", file=sys.stderr, flush=True),
                limit=args.limit,
                pairs=pairs,
            )
        )
        if policies is not None and pairs is not None:
            from factsentry.whatif import compare_policies, governed

            current, candidate, labels = policies
            report["policy"] = {
                **labels,
                "rescored": True,
                **compare_policies([p for p in pairs if governed(p[0])], current, candidate),
            }
        if args.json:
            print(json.dumps(report, indent=2))
        else:
            _render(report)
            if "policy" in report:
                _render_policy(report["policy"])
        if args.metrics_port and args.linger > 0:
            time.sleep(args.linger)
    except (OSError, ConnectionError) as e:
        raise UserError(f"replay failed: {e}") from e
    finally:
        server.stop()
        store.close()
    return 0


def _render(report: dict[str, Any]) -> None:
    print(
        f"run {report['run']}: {report['generations']} generations from {report['from']} to {report['to']}, "
        f"verdicts to {report['results_topic']} ({report['seconds']} s)"
    )
    rows = [("model", "answers", "compared", "live D-FS", "replay D-FS", "delta", "changed")]
    for model, m in [*report["models"].items(), ("(all)", report["overall"])]:
        rows.append(
            (
                model,
                str(m["answers"]),
                str(m["compared"]),
                _num(m["live_dfactscore"]),
                _num(m["replay_dfactscore"]),
                _num(m["delta"], signed=True),
                str(m["score_changed"]),
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)))


def _num(value: float | None, signed: bool = False) -> str:
    return "-" if value is None else (f"{value:+.3f}" if signed else f"{value:.3f}")


def _policies(args: argparse.Namespace) -> tuple[Any, Any, dict[str, str]]:
    """(policy in force, candidate policy, how each was found) for --policy, or a one-line UserError."""
    from pydantic import ValidationError

    from factsentry.cli import UserError
    from gateway.errors import ConfigError
    from gateway.policy import PolicyTable
    from gateway.settings import GatewaySettings

    current_path = args.current
    if current_path is None:
        try:
            current_path = GatewaySettings().policy_file
        except ValidationError as e:
            first = e.errors()[0]
            raise UserError(f"bad setting FACTSENTRY_{str(first['loc'][0]).upper()}: {first['msg']}") from e
    try:
        current, candidate = PolicyTable.load(current_path), PolicyTable.load(args.policy)
    except ConfigError as e:
        raise UserError(str(e).splitlines()[0]) from e
    labels = {
        "current": str(current_path) if current_path else "built-in default (observe)",
        "candidate": str(args.policy),
    }
    return current, candidate, labels


def _what_if_stored(
    args: argparse.Namespace, settings: Any, start: Any, end: Any, name: str, current: Any, candidate: Any,
    labels: dict[str, str],
) -> int:  # fmt: skip
    """--policy without re-scoring: the stored verdicts of the window, decided under both policies."""
    from factsentry.cli import UserError
    from factsentry.replay import stored_verdicts
    from factsentry.whatif import compare_policies, latest_governed

    start_ms, end_ms = int(start.timestamp() * 1000), int(end.timestamp() * 1000)
    try:
        verdicts = latest_governed(asyncio.run(stored_verdicts(settings, start_ms, end_ms)))
    except (OSError, ConnectionError) as e:
        raise UserError(f"replay failed: {e}") from e
    if args.limit:
        verdicts = verdicts[: args.limit]
    report = {
        "run": name,
        "from": start.isoformat(),
        "to": end.isoformat(),
        "verdicts": len(verdicts),
        "policy": {**labels, "rescored": False, **compare_policies([(v, v) for v in verdicts], current, candidate)},
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"{report['verdicts']} stored verdicts from {report['from']} to {report['to']}")
        _render_policy(report["policy"])
    return 0


def _render_policy(policy: dict[str, Any], shown: int = 20) -> None:
    print(f"policy in force: {policy['current']}; candidate: {policy['candidate']}")
    rows = [("model", "answers", "now pass/revise/block", "candidate pass/revise/block", "flips")]
    for model, m in [*policy["models"].items(), ("(all)", policy["overall"])]:
        rows.append((model, str(m["answers"]), _rates(m["now_rate"]), _rates(m["candidate_rate"]), str(m["flips"])))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)))
    recorded = policy["overall"].get("would", {})
    if any(recorded.values()):
        counts = " / ".join(str(recorded[a]) for a in ("pass", "revise", "block"))
        print(f"shadow recorded on the live verdicts, pass/revise/block: {counts}")
    flips = policy["flips"]
    for f in flips[:shown]:
        score = "-" if f["dfactscore"] is None else f"{f['dfactscore']:.3f}"
        print(f"  {f['request_id']}  {f['model']}: {f['now']} -> {f['candidate']} ({f['status']}, D-FS {score})")
    if len(flips) > shown:
        print(f"  ... {len(flips) - shown} more flips (--json lists all)")


def _rates(rates: dict[str, float]) -> str:
    return " / ".join(f"{100 * rates[a]:.0f}%" for a in ("pass", "revise", "block"))
