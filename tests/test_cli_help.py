"""`--help` is complete and plain for every command: each option says what it does, no raw markup."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from factsentry.cli import build_parser


def commands(parser: argparse.ArgumentParser, path: str = "factsentry") -> list[tuple[str, argparse.ArgumentParser]]:
    found = [(path, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += commands(sub, f"{path} {name}")
    return found


ALL = commands(build_parser())


def test_every_command_is_walked() -> None:
    names = {path for path, _ in ALL}
    assert {"factsentry bench gateway", "factsentry bench kb", "factsentry check", "factsentry up"} <= names


@pytest.mark.parametrize(("path", "parser"), ALL, ids=[path for path, _ in ALL])
def test_every_option_has_plain_help(path: str, parser: argparse.ArgumentParser) -> None:
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
            continue
        assert action.help, f"{path} {'/'.join(action.option_strings) or action.dest} has no help text"
    text = parser.format_help()
    assert "``" not in text, f"{path} --help shows raw markup"


def test_bench_minimums_are_enforced_in_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "factsentry", "bench", "gateway", "--requests", "5"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == (
        "factsentry bench gateway: error: argument --requests: 5 is below the minimum of 20"
    )
