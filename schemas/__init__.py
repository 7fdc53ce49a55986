"""Pydantic v2 models shared by every factsentry process: Kafka messages, HTTP bodies, verdicts.

No I/O lives here. Every Kafka message carries a ``schema_version`` so consumers can reject
records they do not understand.
"""

from __future__ import annotations

from schemas.check import CheckResult, Edit, Evidence, FactGroup, FactResult, Revision
from schemas.enums import Policy, Stance, Verdict, Worthiness
from schemas.knowledge import EntityRef, Passage
from schemas.messages import SCHEMA_VERSION, ChatMessage, DLQRecord, GenerationMessage, ResultMessage, Usage

__all__ = [
    "SCHEMA_VERSION",
    "ChatMessage",
    "CheckResult",
    "DLQRecord",
    "Edit",
    "EntityRef",
    "Evidence",
    "FactGroup",
    "FactResult",
    "GenerationMessage",
    "Passage",
    "Policy",
    "ResultMessage",
    "Revision",
    "Stance",
    "Usage",
    "Verdict",
    "Worthiness",
]
