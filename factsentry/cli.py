"""The ``factsentry`` command line: one sub-command per module of ``factsentry.commands``.

Each command module exposes ``add_parser(subparsers) -> None`` and sets ``func`` on its parser;
``func(args) -> int`` is the exit code. Errors a user can fix print one line and exit 1.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path

# Import of litellm must never reach for the network (its price map download).
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

COMMANDS = ("up", "demo", "gateway", "keys", "worker", "kb", "check", "eval", "bench", "replay")


class UserError(Exception):
    """A mistake the user can fix; printed as one line, exit code 1."""


def build_parser(commands: Sequence[str] = COMMANDS) -> argparse.ArgumentParser:
    """The parser of ``commands`` (all by default; ``main`` builds only the one it runs)."""
    parser = argparse.ArgumentParser(prog="factsentry", description="Streaming fact-checking guardrail for LLM apps.")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more logging (-vv for debug)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in commands:
        importlib.import_module(f"factsentry.commands.{name}").add_parser(sub)
    return parser


def named_command(argv: Sequence[str]) -> str | None:
    """The command ``argv`` names: its first word that is not an option (``-v`` takes no value), if ours.

    Building every command's parser imports what each needs for its arguments (the benchmarks' clients,
    the engine names…): a third of a second and more that ``factsentry gateway`` would spend before it
    listens. Help and mistakes (no command, an unknown one) get the parser of every command.
    """
    first = next((word for word in argv if not word.startswith("-")), None)
    return first if first in COMMANDS else None


def configure_logging(verbosity: int) -> None:
    level = logging.WARNING if verbosity == 0 else logging.INFO if verbosity == 1 else logging.DEBUG
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    name = named_command(argv)
    parser = build_parser((name,) if name else COMMANDS)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    configure_logging(args.verbose)
    nli_dir = os.environ.get("FACTSENTRY_NLI_MODEL_DIR", "").strip()
    if nli_dir:  # the user's NLI model as the stance model of every check this command runs
        from scoring.pipeline import use_nli_model

        use_nli_model(Path(nli_dir))
    try:
        return int(args.func(args) or 0)
    except UserError as e:
        print(f"factsentry {args.command}: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
