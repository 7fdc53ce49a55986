"""Kafka messages. Each carries ``schema_version``; consumers reject versions they do not know."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from schemas.check import CheckResult
from schemas.enums import Policy
from schemas.policy import DecisionSpec, Would

SCHEMA_VERSION: Literal[1] = 1


class ChatMessage(BaseModel):
    """A chat message as published: its role and text only (the gateway drops every other field)."""

    model_config = ConfigDict(extra="ignore")

    role: str
    content: str | list[Any] | None = None


class Usage(BaseModel):
    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0


# Where a text to check came from: a proxied chat completion, ``POST /v1/factcheck``, or LiteLLM's
# guardrail call (``/beta/litellm_basic_guardrail_api``). A label on the workers' metrics.
Source = Literal["proxy", "factcheck", "guardrail_api"]


# The longest title and id a document may have.
DOCUMENT_TITLE_CHARS = 300
DOCUMENT_ID_CHARS = 200


class Document(BaseModel):
    """A document the application gave its model (retrieval-augmented generation): the answer is checked
    against it. Documents of the same ``entity`` (else the same title) are one source, a candidate
    entity of D-FActScore; untitled documents are one source together (``knowledge.documents``)."""

    model_config = ConfigDict(extra="forbid")

    title: str = Field(default="", max_length=DOCUMENT_TITLE_CHARS)
    text: str = Field(min_length=1)
    entity: str = Field(default="", max_length=300, description="what the document is about, when not its title")
    # Named in the evidence the document gives (``Evidence.document``): a tool message's ``tool_call_id``.
    id: str = Field(default="", max_length=DOCUMENT_ID_CHARS, description="the document's id, named by its evidence")


class GenerationMessage(BaseModel):
    """One finished generation, published by the gateway to ``factsentry.generations.v1``."""

    schema_version: Literal[1] = SCHEMA_VERSION
    request_id: str = Field(min_length=1, max_length=200)
    model: str = Field(min_length=1)
    messages: list[ChatMessage] = []
    answer: str
    usage: Usage = Usage()
    created_at: datetime
    completed_at: datetime
    policy: Policy = Policy.OBSERVE
    name: str | None = None
    question: str | None = None
    stream: bool = False
    # The stream ended early (client went away, upstream failed): ``answer`` is what was sent.
    truncated: bool = False
    # The API key's tenant (``None`` when the gateway runs without keys); its result is readable by it only.
    tenant: str | None = Field(default=None, max_length=100)
    source: Source = "proxy"
    # A hold-back check of the answer so far (sentence hold-back streaming): the request it is part of.
    # Its verdict decides which sentences are released; it is not counted as an answer of its own.
    partial_of: str | None = None
    # The scoring engine the model's policy (or a /v1/factcheck caller, within what the operator allows)
    # chose; None: the worker's default (FACTSENTRY_ENGINE).
    engine: str | None = Field(default=None, max_length=40)
    # The request's own documents (``metadata.factsentry.documents``, or /v1/factcheck's ``documents``):
    # when given, the answer is checked against them, and against the store as well under the model
    # policy's ``grounding: documents_and_store``.
    documents: list[Document] = []
    grounding: Literal["documents", "documents_and_store"] = "documents"
    # The model's shadow policy (``shadow:`` in the policy file; schemas/policy.py), whole: the worker decides
    # what it would have done with the verdict and records it as ``ResultMessage.would``. Never enforced.
    shadow: DecisionSpec | None = None


class ResultMessage(BaseModel):
    """The verdict on one generation, produced to ``factsentry.results.v1`` and stored in Redis."""

    schema_version: Literal[1] = SCHEMA_VERSION
    request_id: str
    model: str
    check: CheckResult
    scored_at: datetime
    worker: str = ""
    scoring_ms: float = 0.0
    tenant: str | None = None
    source: Source = "proxy"
    # Set on verdicts of ``factsentry replay`` (the run's name); live verdicts have none.
    run: str | None = None
    partial_of: str | None = None
    # What the generation's shadow policy would have done with this verdict (``GenerationMessage.shadow``);
    # None without a shadow policy, and on hold-back checks of part of an answer.
    would: Would | None = None


class DLQRecord(BaseModel):
    """A record that could not be processed, with the error, published to ``<topic>.dlq``."""

    schema_version: Literal[1] = SCHEMA_VERSION
    topic: str
    partition: int
    offset: int
    key: str | None = None
    value: str = Field(description="the original value, decoded as UTF-8 with replacement")
    error: str
    error_type: str
    failed_at: datetime
    attempts: int = 1


__all__ = [
    "DOCUMENT_ID_CHARS",
    "DOCUMENT_TITLE_CHARS",
    "SCHEMA_VERSION",
    "ChatMessage",
    "DLQRecord",
    "Document",
    "GenerationMessage",
    "ResultMessage",
    "Source",
    "Usage",
    "Would",
]
