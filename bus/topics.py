"""Topic names and Redis key layout shared by the gateway and the workers."""

from __future__ import annotations

GENERATIONS = "factsentry.generations.v1"
RESULTS = "factsentry.results.v1"
GENERATIONS_DLQ = GENERATIONS + ".dlq"


def dlq_topic(topic: str) -> str:
    """The dead-letter topic of ``topic``."""
    return topic + ".dlq"


def result_key(prefix: str, request_id: str) -> str:
    """Redis key holding the JSON ``ResultMessage`` of one request."""
    return f"{prefix}:result:{request_id}"


def result_channel(prefix: str, request_id: str) -> str:
    """Redis pub/sub channel notified when the result of one request is written."""
    return f"{prefix}:done:{request_id}"


def failure_key(prefix: str, request_id: str) -> str:
    """Redis key marking that one request will get no verdict (dead-lettered, over budget), with why."""
    return f"{prefix}:failed:{request_id}"
