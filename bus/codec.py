"""Serialisation of Kafka messages: JSON (orjson) of the pydantic models in ``schemas``."""

from __future__ import annotations

from typing import TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)


def encode(message: BaseModel) -> bytes:
    """JSON bytes of ``message`` (what goes on the wire and into Redis)."""
    return message.model_dump_json().encode()


def decode(model: type[M], value: bytes | str | None) -> M:
    """Parse ``value`` as ``model``; raises ``pydantic.ValidationError`` (or ``ValueError`` for None)."""
    if value is None:
        raise ValueError("record has no value (tombstone)")
    return model.model_validate_json(value)
