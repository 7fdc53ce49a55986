"""A stage is data plus one async handler, in the shape of arq's ``WorkerSettings``.

The generic runner (:mod:`workers.runner`) consumes ``input_topic``, validates each record as
``input_model``, calls ``handle(batch, ctx)``, produces the outputs to ``output_topic``, calls
``deliver`` (a second destination, e.g. Redis) and only then commits.

Contract of ``handle``: it returns one entry per input, in order. An entry is the output model,
``None`` (handled, nothing to produce), or an exception instance (this record failed; retried
if the exception is retriable, else dead-lettered). Raising fails every record of the call.

Example, a stage that counts the words of each generation::

    async def count(batch: list[GenerationMessage], ctx: Context) -> list[Count | BaseException | None]:
        return [Count(request_id=m.request_id, words=len(m.answer.split())) for m in batch]

    stage = Stage(name="words", input_topic="in", output_topic="out", input_model=GenerationMessage,
                  output_model=Count, handle=count, key=lambda c: c.request_id)

``--stage`` accepts a built-in name (``scoring``) or ``module:attr``, where ``attr`` is a
``Stage`` or a function ``(WorkerSettings) -> Stage``.
"""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import redis.asyncio as aioredis
from pydantic import BaseModel

from workers.errors import StageNotFound
from workers.metrics import Outcome, WorkerMetrics

if TYPE_CHECKING:
    from bus.spans import Tracing
    from workers.settings import WorkerSettings

In = TypeVar("In", bound=BaseModel)
Out = TypeVar("Out", bound=BaseModel)


@dataclass
class Context:
    """What a stage is handed: settings, a Redis client, the metrics and a place for its own state.

    ``state`` is filled by ``on_startup`` (an executor, an open knowledge store) and emptied by
    ``on_shutdown``. ``tracing`` is the process's (None: off; bus/tracing.py).
    """

    settings: WorkerSettings
    redis: aioredis.Redis
    metrics: WorkerMetrics
    state: dict[str, Any] = field(default_factory=dict)
    tracing: Tracing | None = None


Handler = Callable[[list[In], Context], Awaitable[list[Out | BaseException | None]]]
Hook = Callable[[Context], Awaitable[None]]


def _no_key(output: BaseModel) -> str | None:
    return None


def _scored(output: BaseModel) -> Outcome:
    return "scored"


@dataclass(frozen=True)
class Stage(Generic[In, Out]):
    """One consume → handle → produce → commit step.

    ``key`` gives each output's Kafka key; ``outcome`` its metric outcome (``scored`` or
    ``abstained``); ``observe`` records stage-specific metrics once the batch is committed;
    ``deliver`` writes the batch's outputs somewhere besides Kafka before the commit;
    ``on_dead_letter`` is told of every record sent to the DLQ (its key and the error), before
    the commit, so whoever waits for that record's output can stop waiting.
    """

    name: str
    input_topic: str
    output_topic: str | None
    input_model: type[In]
    output_model: type[Out]
    handle: Handler[In, Out]
    key: Callable[[Out], str | None] = _no_key
    outcome: Callable[[Out], Outcome] = _scored
    observe: Callable[[Out, WorkerMetrics], None] | None = None
    deliver: Callable[[list[Out], Context], Awaitable[None]] | None = None
    on_dead_letter: Callable[[list[tuple[str | None, str]], Context], Awaitable[None]] | None = None
    on_startup: Hook | None = None
    on_shutdown: Hook | None = None


StageFactory = Callable[["WorkerSettings"], Stage[Any, Any]]

BUILTIN_STAGES: dict[str, str] = {
    "scoring": "workers.scoring_stage:scoring_stage",
}


def load_stage(spec: str, settings: WorkerSettings) -> Stage[Any, Any]:
    """The stage named ``spec``: a key of :data:`BUILTIN_STAGES` or ``module:attr``.

    ``attr`` may be a :class:`Stage` or a factory taking the settings. Raises :class:`StageNotFound`.
    """
    target = BUILTIN_STAGES.get(spec, spec)
    module_name, sep, attr = target.partition(":")
    if not sep or not module_name or not attr:
        known = ", ".join(sorted(BUILTIN_STAGES))
        raise StageNotFound(f"unknown stage {spec!r}: use one of {known} or module:attr")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise StageNotFound(f"stage {spec!r}: cannot import {module_name!r} ({e})") from e
    try:
        obj = getattr(module, attr)
    except AttributeError as e:
        raise StageNotFound(f"stage {spec!r}: module {module_name!r} has no attribute {attr!r}") from e
    if isinstance(obj, Stage):
        return obj
    stage = obj(settings) if callable(obj) and not isinstance(obj, type) else None
    if not isinstance(stage, Stage):
        raise StageNotFound(f"stage {spec!r}: {attr!r} is neither a Stage nor a function returning one")
    return stage
