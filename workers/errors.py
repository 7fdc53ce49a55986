"""Errors of the worker runtime. Retry policy is data on the class (``retriable``), as in aiokafka.

    WorkerError                     base; not retriable
    ├── SettingsError               a bad setting, raised at startup naming the key and the value
    ├── StageNotFound               ``--stage`` names no built-in stage and no importable ``module:attr``
    ├── StageContractError          a handler broke its contract (wrong number of outputs, wrong type)
    ├── ScoringUnavailable          the scoring pipeline or the knowledge store cannot be loaded
    ├── EngineUnavailable           a record asks for an engine this worker cannot run (no LLM judge)
    ├── OverBudget                  a check ran past ``max_check_seconds``; dead-lettered, never retried
    └── RetriableError              retriable: a transient failure worth another attempt

Besides these, the runner retries every exception whose class says ``retriable = True`` (aiokafka's
``KafkaError`` family, other packages' errors) and the connection and timeout errors of Redis
and of the standard library; see :func:`is_retriable`.
"""

from __future__ import annotations

from typing import ClassVar

import redis.exceptions
from aiokafka.errors import KafkaTimeoutError, UnknownError


class WorkerError(Exception):
    """Base class of the errors the worker runtime raises."""

    retriable: ClassVar[bool] = False


class SettingsError(WorkerError):
    """A setting has a value the worker cannot run with."""


class StageNotFound(WorkerError):
    """The stage name is neither built in nor an importable ``module:attr``."""


class StageContractError(WorkerError):
    """A stage's handler returned something other than one output (or None) per input."""


class ScoringUnavailable(WorkerError):
    """The scoring pipeline or the knowledge store could not be loaded."""


class EngineUnavailable(WorkerError):
    """A record asks for an engine this worker cannot run (llm or hybrid without an LLM judge): dead-lettered."""


class OverBudget(WorkerError):
    """A check ran past its time budget: retrying would stall the partition again."""


class RetriableError(WorkerError):
    """A transient failure; the runner tries the record again after a backoff."""

    retriable = True


_TRANSIENT: tuple[type[BaseException], ...] = (
    KafkaTimeoutError,  # a send that found no broker in time; aiokafka does not flag it retriable
    UnknownError,  # "unexpected server error" (-1): what a broker answers a send while it restarts empty
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    ConnectionError,
    TimeoutError,
)


def is_retriable(exc: BaseException) -> bool:
    """Whether the runner should try again after ``exc``.

    True when the exception says ``retriable = True`` (ours, aiokafka's, other packages'; a class
    attribute, or a property where the error's kind decides, as for an LLM call) or it is a Kafka,
    Redis or OS-level connection or timeout error.
    """
    if getattr(exc, "retriable", False) is True:
        return True
    return isinstance(exc, _TRANSIENT)
