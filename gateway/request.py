"""Reading a request: its body, its parameters, and the context one chat call carries through the gateway.

The chat route parses a request once into a :class:`ChatCall` (who asked, which policy, what the answer is
about, what goes upstream); everything after — the upstream call, the check, the release — is handed that
one object instead of ten arguments.
"""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

import orjson
from pydantic import ValidationError
from starlette.requests import ClientDisconnect, Request

from gateway.access import Exchange
from gateway.errors import BodyTimeout, BodyTooLarge, ClientClosed, InvalidRequest
from gateway.policy import PolicySpec
from gateway.upstream import Upstream, json_depth_over
from schemas.enums import Policy
from schemas.messages import ChatMessage, Document, GenerationMessage, Usage

# /v1/factcheck and the guardrail API: the model the checked text came from, when the caller says.
MODEL_NAME = re.compile(r"[\w.:/@-]{1,100}")
UNSPECIFIED_MODEL = "unspecified"


async def read_json(
    request: Request, limit: int, max_depth: int = 32, timeout_s: float | None = None
) -> dict[str, Any]:
    """The request's JSON object body: at most ``limit`` bytes, ``max_depth`` levels, arrived within
    ``timeout_s`` (a 408 after: a client trickling its body holds no connection for long). A client that hangs
    up meanwhile is :class:`ClientClosed` (a 499, no traceback)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise BodyTooLarge(
            f"request body of {declared} bytes is over the limit of {limit} bytes", code="body_too_large"
        )
    body = bytearray()
    try:
        async with asyncio.timeout(timeout_s):
            async for part in request.stream():
                body += part
                if len(body) > limit:
                    raise BodyTooLarge(f"request body is over the limit of {limit} bytes", code="body_too_large")
    except ClientDisconnect as e:
        raise ClientClosed("the client hung up before its request body was read", code="client_closed") from e
    except TimeoutError as e:
        raise BodyTimeout(
            f"the request body did not arrive within {timeout_s:g} s (FACTSENTRY_BODY_TIMEOUT_S)", code="body_timeout"
        ) from e
    if not body:
        raise InvalidRequest("request body is empty: send a JSON object", code="invalid_json")
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError as e:
        raise InvalidRequest(f"request body is not valid JSON: {e}", code="invalid_json") from e
    if not isinstance(data, dict):
        raise InvalidRequest("request body must be a JSON object", code="invalid_json")
    # Every parser downstream (orjson when forwarding, pydantic, the workers) must accept what passes here.
    if json_depth_over(data, max_depth):
        raise InvalidRequest(f"request body nests deeper than {max_depth} levels", code="invalid_json")
    return data


def validate_chat(body: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    model = body.get("model")
    if not isinstance(model, str) or not model:
        raise InvalidRequest(
            "you must provide a model parameter (a non-empty string)", param="model", code="missing_model"
        )
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise InvalidRequest("'messages' must be a non-empty array", param="messages", code="invalid_messages")
    for i, m in enumerate(messages):
        if not isinstance(m, dict) or not isinstance(m.get("role"), str):
            raise InvalidRequest(
                f"messages[{i}] must be an object with a 'role'", param=f"messages[{i}]", code="invalid_messages"
            )
        content = m.get("content")
        if content is not None and not isinstance(content, str | list):
            raise InvalidRequest(
                f"messages[{i}].content must be a string, an array of content parts or null",
                param=f"messages[{i}].content",
                code="invalid_messages",
            )
        for k, part in enumerate(content if isinstance(content, list) else []):
            # A part without a type ({}) or a text part without its text reaches no upstream as OpenAI reads it.
            if (
                not isinstance(part, dict)
                or not isinstance(part.get("type"), str)
                or (part["type"] == "text" and not isinstance(part.get("text"), str))
            ):
                raise InvalidRequest(
                    f"messages[{i}].content[{k}] must be a content part object with a 'type' (and 'text' for text)",
                    param=f"messages[{i}].content[{k}]",
                    code="invalid_messages",
                )
    if "stream" in body and not isinstance(body["stream"], bool):
        raise InvalidRequest("'stream' must be a boolean", param="stream", code="invalid_type")
    return model, messages


def new_request_id() -> str:
    """A fresh id for every request. A client's own ``x-request-id`` is never used as the key of
    a verdict: retries and proxies reuse it, and a stored verdict would then pass an unchecked answer."""
    return "fs-" + uuid.uuid4().hex


def id_headers(request: Request, request_id: str) -> dict[str, str]:
    headers = {"x-request-id": request_id}
    given = request.headers.get("x-request-id", "")
    if given and len(given) <= 200 and given.isprintable():
        headers["x-client-request-id"] = given
    return headers


def check_choices(body: dict[str, Any], spec: PolicySpec) -> None:
    """Only one choice can be checked and acted on: ``n > 1`` is refused outside observe mode."""
    n = body.get("n", 1)
    if n is None:
        return
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise InvalidRequest("'n' must be a positive integer", param="n", code="invalid_type")
    if n > 1 and spec.mode is not Policy.OBSERVE:
        raise InvalidRequest(
            f"'n' = {n} is not supported under the {spec.mode.value} policy: only one choice can be fact-checked",
            param="n",
            code="unsupported_parameter",
        )


def subject_name(request: Request, body: dict[str, Any]) -> str | None:
    name = request.headers.get("x-factsentry-name")
    metadata = body.get("metadata")
    if not name and isinstance(metadata, dict):
        value = metadata.get("factsentry_name") or metadata.get("name")
        name = value if isinstance(value, str) else None
    return name.strip() or None if name else None


@dataclass(frozen=True)
class About:
    """What a request tells the checker about its answer: whom it is about, the documents it is grounded in
    (retrieval-augmented generation), and what of its conversation is evidence (an agent's tool results)."""

    name: str | None = None
    documents: tuple[Document, ...] = ()
    conversation: tuple[Document, ...] = ()

    def grounding(self, spec: PolicySpec) -> Literal["documents", "documents_and_store"]:
        """How the answer's documents are checked against: with the store too under ``documents_and_store``, and
        for a conversation's evidence (the store its fallback) unless the policy says ``documents`` alone."""
        if spec.grounding == "documents_and_store" or (self.conversation and spec.grounding == "store"):
            return "documents_and_store"
        return "documents"


def request_documents(body: dict[str, Any], limit: int) -> tuple[Document, ...]:
    """The documents of ``metadata.factsentry.documents`` (none when absent); a malformed list is refused."""
    metadata = body.get("metadata")
    if not isinstance(metadata, dict) or metadata.get("factsentry") is None:
        return ()
    ours = metadata["factsentry"]
    if not isinstance(ours, dict):
        raise InvalidRequest(
            "'metadata.factsentry' must be an object", param="metadata.factsentry", code="invalid_type"
        )
    return parse_documents(ours.get("documents"), "metadata.factsentry.documents", limit)


def allowed_documents(documents: tuple[Document, ...], spec: PolicySpec, where: str) -> tuple[Document, ...]:
    """``documents`` when the model's policy lets a request bring them (``grounding``), else a 400: a client
    must not bring the evidence its answer is judged by unless the operator allows it."""
    if documents and spec.grounding == "store":
        param = f"{where}.documents" if where else "documents"
        raise InvalidRequest(
            "this model's policy checks answers against the knowledge store only, so a request may not bring "
            "documents (the operator allows them with the policy's grounding: documents or documents_and_store)",
            param=param,
            code="documents_not_allowed",
        )
    return documents


def parse_documents(value: object, param: str, limit: int) -> tuple[Document, ...]:
    """A list of ``{"title", "text"[, "entity"]}`` objects, at most ``limit`` of them."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise InvalidRequest(f"'{param}' must be a list of documents", param=param, code="invalid_type")
    if len(value) > limit:
        raise InvalidRequest(
            f"'{param}' holds {len(value)} documents; this gateway checks at most {limit} (FACTSENTRY_MAX_DOCUMENTS)",
            param=param,
            code="too_many_documents",
        )
    documents: list[Document] = []
    for i, item in enumerate(value):
        try:
            documents.append(Document.model_validate(item))
        except ValidationError as e:
            first = e.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            detail = f"'{where}': {first['msg']}" if where else first["msg"]
            raise InvalidRequest(
                f'\'{param}[{i}]\' is not a document ({{"title", "text"}}): {detail}',
                param=f"{param}[{i}]",
                code="invalid_document",
            ) from e
    return tuple(documents)


# What ``metadata`` holds for the gateway alone: never sent upstream (OpenAI takes string values only).
OUR_METADATA = ("factsentry", "factsentry_name")


def for_upstream(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` without the gateway's own ``metadata`` keys (and without ``metadata`` if nothing else is left)."""
    metadata = body.get("metadata")
    if not isinstance(metadata, dict) or not any(k in metadata for k in OUR_METADATA):
        return body
    rest = {k: v for k, v in metadata.items() if k not in OUR_METADATA}
    trimmed = {k: v for k, v in body.items() if k != "metadata"}
    if rest:
        trimmed["metadata"] = rest
    return trimmed


def last_user_text(messages: list[dict[str, Any]]) -> str | None:
    for m in reversed(messages):
        if m.get("role") == "user" and isinstance(m.get("content"), str):
            return str(m["content"])
    return None


def published_message(message: dict[str, Any]) -> ChatMessage:
    """What the pipeline needs of a chat message: its role and its text (other fields stay in the gateway)."""
    content = message.get("content")
    if isinstance(content, list):
        texts = [p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)]
        content = [{"type": "text", "text": t} for t in texts]
    return ChatMessage(role=str(message.get("role", "")), content=content if isinstance(content, str | list) else None)


@dataclass
class ChatCall:
    """One chat completion request as the gateway handles it, parsed once.

    ``body`` is what goes upstream (the gateway's own metadata taken out); ``messages`` the conversation;
    ``x`` the access-log record that also holds the model label, the tenant and the timings."""

    request_id: str
    created: datetime
    headers: dict[str, str]
    x: Exchange
    upstream: Upstream
    spec: PolicySpec
    about: About
    body: dict[str, Any]
    messages: list[dict[str, Any]]

    @property
    def model(self) -> str:
        return self.x.model

    @property
    def tenant(self) -> str | None:
        return self.x.tenant

    @property
    def question(self) -> str | None:
        """The user's last question (what the review page shows when the operator keeps it)."""
        return last_user_text(self.messages)

    @property
    def usage_requested(self) -> bool:
        """Whether the client asked for the usage chunk at the end of a stream (``stream_options.include_usage``)."""
        options = self.body.get("stream_options")
        return isinstance(options, dict) and options.get("include_usage") is True

    def generation(
        self,
        answer: str,
        usage: Mapping[str, Any],
        *,
        stream: bool,
        request_id: str | None = None,
        messages: list[dict[str, Any]] | None = None,
    ) -> GenerationMessage:
        """The generation message to publish for ``answer`` (another ``request_id`` and ``messages`` for a
        reask's rewrite or a hold-back check); the question is always the user's own last one."""
        turns = self.messages if messages is None else messages
        return GenerationMessage(
            request_id=request_id or self.request_id,
            model=self.model,
            messages=[published_message(m) for m in turns],
            answer=answer,
            usage=Usage.model_validate(
                {k: v for k, v in usage.items() if k in Usage.model_fields and isinstance(v, int)}
            ),
            created_at=self.created,
            completed_at=datetime.now(UTC),
            policy=self.spec.mode,
            name=self.about.name,
            question=last_user_text(self.messages),
            stream=stream,
            tenant=self.tenant,
            engine=self.spec.engine,
            documents=[*self.about.documents, *self.about.conversation],
            grounding=self.about.grounding(self.spec),
            shadow=self.spec.shadow_policy(),
        )
