"""What a runner is handed and returns: a progress wrapper (tqdm in the CLI, :func:`silent` in tests), an outcome."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Outcome:
    """What a runner measured: ``result`` is the ``--json`` object; ``counts`` says how much was measured."""

    result: dict[str, Any]
    counts: dict[str, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()  # printed under the table (e.g. that a figure is in-sample)


class Progress(Protocol):
    """Wrap an iterable so that each item taken advances a progress display."""

    def __call__(self, items: Iterable[T], *, total: int, desc: str) -> Iterator[T]: ...


def silent(items: Iterable[T], *, total: int, desc: str) -> Iterator[T]:
    """No display: yield the items unchanged."""
    yield from items


def limited(items: list[T], limit: int | None) -> list[T]:
    """The first ``limit`` items (all of them when ``limit`` is None)."""
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be positive, got {limit}")
    return items if limit is None else items[:limit]
