"""Grounding in the conversation: what a request's own messages give as evidence for the answer that follows them.

An agent's tool results (``role: "tool"`` messages, and the legacy ``role: "function"`` outputs) are evidence by
default: the answer is checked against what its tools returned, each tool message a document whose ``id`` is its
``tool_call_id`` (the evidence it gives names it). Earlier assistant turns and the system text are evidence only
where the model's policy says so (``conversation: {assistant: true}``, ``{system: true}``); what the user wrote
never is unless the operator turns it on (``{user: true}``): a user's say-so does not make a claim true.

A JSON tool output becomes sentences, "The key is value." (nested keys joined, the items of a longer list numbered),
so that the checker reads it as text; every number, date and string is written as the tool wrote it.

>>> print(readable('{"order": {"id": "A-4417", "total": 129.0}, "items": [{"qty": 2}]}'))
The order id is A-4417. The order total is 129.0. The items qty is 2.
>>> tool_document("call_9", "get_order", '{"status": "shipped"}').model_dump()
{'title': 'get_order', 'text': 'The status is shipped.', 'entity': 'Conversation', 'id': 'call_9'}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson
from pydantic import BaseModel, ConfigDict

from schemas.messages import DOCUMENT_ID_CHARS, DOCUMENT_TITLE_CHARS, Document

# The source all of a conversation's evidence belongs to: one candidate entity, so that an answer drawing on
# several tool calls about one order is linked to them together (knowledge.documents).
CONVERSATION_SOURCE = "Conversation"


class ConversationEvidence(BaseModel):
    """Which of a request's messages are evidence for its answer (a policy's ``conversation:``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tools: bool = True
    assistant: bool = False
    system: bool = False
    user: bool = False


def readable(output: str) -> str:
    """A tool's output as evidence text: a JSON object or array as "The key is value." sentences, anything else as
    is."""
    stripped = output.strip()
    if not stripped.startswith(("{", "[")):
        return stripped
    try:
        data = orjson.loads(stripped)
    except orjson.JSONDecodeError:
        return stripped
    # An empty object or list says nothing, but is what the tool returned: kept as written.
    return " ".join(f"The {key} is {value}." if key else f"{value}." for key, value in _leaves(data, "")) or stripped


def _leaves(value: Any, key: str) -> Iterator[tuple[str, str]]:
    """(joined key, value as written) of every scalar in ``value``; keys' underscores read as spaces."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, f"{key} {str(k).replace('_', ' ')}".strip())
    elif isinstance(value, list):
        for i, v in enumerate(value, 1):
            yield from _leaves(v, f"{key} {i}".strip() if len(value) > 1 else key)
    elif value is None:
        return
    elif isinstance(value, bool):
        yield key, "yes" if value else "no"
    elif isinstance(value, str):
        if value.strip():
            yield key, " ".join(value.split())
    else:
        yield key, orjson.dumps(value).decode()  # the number exactly as the tool wrote it: 129.0 stays 129.0


def tool_document(call_id: str, name: str | None, output: str) -> Document:
    """One tool result as a document: titled by the tool's function name, its ``id`` the ``tool_call_id``."""
    return Document(title=name or "tool", text=readable(output), entity=CONVERSATION_SOURCE, id=call_id)


def message_text(content: object) -> str:
    """A message's text: its string content, or its text parts joined."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


def tool_names(messages: list[dict[str, Any]]) -> dict[str, str]:
    """The function name of each ``tool_call_id`` the assistant turns called."""
    names: dict[str, str] = {}
    for m in messages:
        calls = m.get("tool_calls") if m.get("role") == "assistant" else None
        for call in calls if isinstance(calls, list) else []:
            function = call.get("function") if isinstance(call, dict) else None
            name = _fitting(function.get("name"), DOCUMENT_TITLE_CHARS) if isinstance(function, dict) else None
            if name is not None and isinstance(call.get("id"), str):
                names[call["id"]] = name
    return names


def conversation_documents(
    messages: list[dict[str, Any]], evidence: ConversationEvidence, limit: int
) -> tuple[Document, ...]:
    """The documents the policy takes from ``messages`` (the latest ``limit`` of them), in conversation order.

    A tool message's id is its ``tool_call_id``; any other message's is its place, ``messages[i]``."""
    names = tool_names(messages)
    documents: list[Document] = []
    for i, m in enumerate(messages):
        role, text = m.get("role"), message_text(m.get("content")).strip()
        if not text:
            continue
        if role == "tool" and evidence.tools:
            call = _fitting(m.get("tool_call_id"), DOCUMENT_ID_CHARS) or f"messages[{i}]"
            documents.append(tool_document(call, names.get(call), text))
        elif role == "function" and evidence.tools:
            documents.append(tool_document(f"messages[{i}]", _fitting(m.get("name"), DOCUMENT_TITLE_CHARS), text))
        elif role in ("assistant", "system", "developer", "user") and _taken(role, evidence):
            turn = Document(title=f"{role} message", text=text, entity=CONVERSATION_SOURCE, id=f"messages[{i}]")
            documents.append(turn)
    return tuple(documents[-limit:])


def _fitting(value: object, limit: int) -> str | None:
    """``value`` when it is a non-empty string a document's field holds (a client's odd one is not refused: its
    message is still evidence, under its place in the conversation)."""
    return value if isinstance(value, str) and 0 < len(value) <= limit else None


def _taken(role: str, evidence: ConversationEvidence) -> bool:
    if role == "assistant":
        return evidence.assistant
    if role in ("system", "developer"):  # ``developer`` is the newer models' name for the system message
        return evidence.system
    return evidence.user
