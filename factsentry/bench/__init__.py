"""Benchmarks: each module has ``add_arguments(parser)`` and ``run(args) -> figures``."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from factsentry.stack import Stack


def at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number no smaller than ``minimum`` (else a one-line usage error)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is below the minimum of {minimum}")
        return value

    return parse


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def demo_stack(
    work: Path,
    models: dict[str, Any],
    policy: dict[str, Any],
    workers: int,
    data_dir: Path | None = None,
    kb: Path | None = None,
    env: dict[str, str] | None = None,
) -> Stack:
    """An embedded stack of its own (broker, valkey, gateway, ``workers`` processes) on the demo store (or
    ``kb``), with ``models`` and ``policy`` written into ``work`` and ``env`` in its children's environment;
    started, not yet stopped."""
    import yaml

    from factsentry.embedded import free_port
    from factsentry.stack import Stack, StackSettings, build_demo_kb

    (work / "models.yaml").write_text(yaml.safe_dump(models))
    (work / "policies.yaml").write_text(yaml.safe_dump(policy))
    stack = Stack(
        kb or build_demo_kb(work / "kb.sqlite3"),
        work / "models.yaml",
        work / "policies.yaml",
        gateway_port=free_port(),
        workers=workers,
        data_dir=data_dir,
        log_dir=work,
        child_env=env or {},
    )
    return stack.start(StackSettings(kafka_bootstrap=None, redis_url=None))  # servers of its own
