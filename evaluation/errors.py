"""Errors of the evaluation package.

EvaluationError        base; retriable = False
├── DataError          an evaluation file is missing or malformed
└── UnknownMetricError a metric name that is not registered (the message suggests the closest)
"""

from __future__ import annotations

from typing import ClassVar


class EvaluationError(Exception):
    """Base class of the evaluation package's errors."""

    retriable: ClassVar[bool] = False


class DataError(EvaluationError):
    """An evaluation file is missing, or a row lacks a field the evaluation needs."""


class UnknownMetricError(EvaluationError, KeyError):
    """No metric is registered under the requested name."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""
