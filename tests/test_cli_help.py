"""`--help` is complete and plain for every command: each option says what it does, no raw markup."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from factsentry.cli import COMMANDS, build_parser, named_command


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


@pytest.mark.parametrize(
    ("argv", "name"),
    [
        (["gateway", "--port", "9000"], "gateway"),
        (["-v", "worker", "--kb", "kb.sqlite3"], "worker"),
        (["-vv", "bench", "gateway", "--json"], "bench"),
        (["--verbose", "check", "--engine", "offline"], "check"),
        ([], None),
        (["--help"], None),
        (["-v"], None),
        (["gatway"], None),  # a typo: argparse answers with every command to choose from
    ],
)
def test_the_command_run_is_the_first_word_that_is_not_an_option(argv: list[str], name: str | None) -> None:
    assert named_command(argv) == name


def test_an_unknown_command_is_answered_with_every_command() -> None:
    done = subprocess.run([sys.executable, "-m", "factsentry", "gatway"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("factsentry: error: argument COMMAND: invalid choice: 'gatway' (choose from ")
    assert all(f"'{name}'" in last for name in COMMANDS)
