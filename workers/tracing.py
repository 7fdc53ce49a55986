"""The worker's spans, when tracing is on (bus/tracing.py): a consumer span per record (the runner's), and under
it the steps of its check, timed where the check runs.

A check runs in a scoring thread or process, where no span is made: each of the checker's steps (its
``decompose``, ``verify`` and ``revise`` protocols, scoring/checker.py) is timed by :class:`StepClock` there,
and the times come back with the verdict; the event loop then makes them spans under the record's consumer
span (a revision's re-check nests under ``revise``). Nothing here imports OpenTelemetry, and with tracing off
the checkers are not wrapped.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from bus.tracing import check_attributes

if TYPE_CHECKING:
    from opentelemetry.trace import Span

    from bus.spans import Tracing
    from schemas.messages import ResultMessage
    from scoring.checker import Checker

P = ParamSpec("P")
R = TypeVar("R")

# One step as it ran: its name, wall-clock start and end (ns) and how deep it ran in other steps (0: at the top).
StepTime = tuple[str, int, int, int]


@dataclass
class StepClock:
    """The step times of the check running in this thread or process (see :func:`timing`)."""

    steps: list[list[Any]] = field(default_factory=list)
    depth: int = 0

    def run(self, name: str, step: Callable[[], R]) -> R:
        entry = [name, time.time_ns(), 0, self.depth]
        self.steps.append(entry)
        self.depth += 1
        try:
            return step()
        finally:
            self.depth -= 1
            entry[2] = time.time_ns()

    def times(self) -> tuple[StepTime, ...]:
        return tuple((str(n), int(s), int(e), int(d)) for n, s, e, d in self.steps)


_clock: ContextVar[StepClock | None] = ContextVar("factsentry_step_clock", default=None)


@contextmanager
def timing() -> Iterator[StepClock]:
    """Time the steps of the timed checkers (:func:`timed`) called in this block."""
    clock = StepClock()
    token = _clock.set(clock)
    try:
        yield clock
    finally:
        _clock.reset(token)


def _timed(name: str, step: Callable[P, R]) -> Callable[P, R]:
    """``step``, reporting its time to the clock of the check it runs in (if any)."""

    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        clock = _clock.get()
        return step(*args, **kwargs) if clock is None else clock.run(name, functools.partial(step, *args, **kwargs))

    return run


def timed(checker: Checker) -> Checker:
    """``checker`` with its steps that are protocols of their own timed (the orchestration and results are the
    same)."""
    return replace(
        checker,
        decompose=_timed("decompose", checker.decompose),
        verify=_timed("verify", checker.verify),
        revise=_timed("revise", checker.revise),
    )


# The consumer span of each record of the batch being handled, by its decoded value's id (set by the runner
# around the stage's handler, so a stage finds the span of each of its inputs).
batch_spans: ContextVar[dict[int, Span] | None] = ContextVar("factsentry_batch_spans", default=None)


def span_of(value: object) -> Span | None:
    spans = batch_spans.get()
    return None if spans is None else spans.get(id(value))


def record_check(tracing: Tracing, span: Span, result: ResultMessage, steps: tuple[StepTime, ...]) -> None:
    """The verdict's attributes on the record's consumer span, and its steps as child spans."""
    check = result.check
    span.set_attributes(
        {
            "gen_ai.request.model": result.model,
            "factsentry.request_id": result.request_id,
            "factsentry.source": result.source,
            "factsentry.scoring_ms": result.scoring_ms,
            **check_attributes(check),
        }
    )
    if result.would is not None:
        span.set_attribute("factsentry.would.action", result.would.action)
    parents: list[Span] = [span]
    for name, start, end, depth in steps:
        del parents[depth + 1 :]
        parents.append(
            tracing.step(parents[depth], f"factsentry.{name}", start, end, {"factsentry.engine": check.engine})
        )
