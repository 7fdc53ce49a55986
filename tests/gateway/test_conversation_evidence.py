"""What of a request's conversation is evidence for its answer (gateway/conversation.py), the policy that says so,
and its way to the worker: tool results by default, assistant turns and the system text when the policy enables
them, the user's words never by default; each document carries its tool message's ``tool_call_id``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gateway.conversation import CONVERSATION_SOURCE, ConversationEvidence, conversation_documents, readable
from gateway.errors import ConfigError
from gateway.policy import PolicySpec, PolicyTable
from gateway.request import About
from schemas.messages import Document, GenerationMessage
from workers.scoring_stage import grounding_of

SYSTEM = "The Fennel desk lamp costs 64.5 EUR."
USER = "My order A-4417 came to 90 EUR, right?"
EARLIER = "Your order A-4417 is being packed."
ORDER = '{"order_id": "A-4417", "total": 129.0, "items": [{"name": "lamp", "quantity": 2}], "gift": false}'
MESSAGES: list[dict[str, Any]] = [
    {"role": "system", "content": SYSTEM},
    {"role": "user", "content": USER},
    {"role": "assistant", "content": EARLIER},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_order", "arguments": "{}"}}],
    },
    {"role": "tool", "tool_call_id": "call_1", "content": ORDER},
    {"role": "function", "name": "get_rate", "content": "The rate is 1.0842."},
]


def ids(evidence: ConversationEvidence) -> list[str]:
    return [d.id for d in conversation_documents(MESSAGES, evidence, limit=32)]


@pytest.mark.parametrize(
    ("evidence", "expected"),
    [
        # by default: the tool results only (the legacy function output is named by its place)
        (ConversationEvidence(), ["call_1", "messages[5]"]),
        (ConversationEvidence(assistant=True), ["messages[2]", "call_1", "messages[5]"]),
        (ConversationEvidence(system=True), ["messages[0]", "call_1", "messages[5]"]),
        (ConversationEvidence(user=True), ["messages[1]", "call_1", "messages[5]"]),
        (ConversationEvidence(tools=False), []),
        (ConversationEvidence(tools=False, assistant=True, system=True), ["messages[0]", "messages[2]"]),
    ],
)
def test_the_policy_says_which_messages_are_evidence(evidence: ConversationEvidence, expected: list[str]) -> None:
    assert ids(evidence) == expected


def test_user_text_is_never_evidence_by_default() -> None:
    texts = [d.text for d in conversation_documents(MESSAGES, PolicySpec().conversation, limit=32)]
    assert texts and not any("90 EUR" in t for t in texts)
    assert not any(SYSTEM in t or EARLIER in t for t in texts)


def test_a_tool_message_is_a_document_named_by_its_call_and_function() -> None:
    tool, function = conversation_documents(MESSAGES, ConversationEvidence(), limit=32)
    assert tool == Document(
        title="get_order",
        text="The order id is A-4417. The total is 129.0. The items name is lamp. The items quantity is 2. "
        "The gift is no.",
        entity=CONVERSATION_SOURCE,
        id="call_1",
    )
    assert (function.title, function.text, function.id) == ("get_rate", "The rate is 1.0842.", "messages[5]")


@pytest.mark.parametrize(
    ("output", "text"),
    [
        # numbers exactly as the tool wrote them
        ('{"amount": 129.0, "rate": 1.0842, "count": 3}', "The amount is 129.0. The rate is 1.0842. The count is 3."),
        ('{"price": {"net_eur": 1250.5}}', "The price net eur is 1250.5."),
        ('[{"day": "2026-11-26"}, {"day": "2026-11-27"}]', "The 1 day is 2026-11-26. The 2 day is 2026-11-27."),
        ('{"note": null, "tags": []}', '{"note": null, "tags": []}'),
        ("Shipped on 20 November.", "Shipped on 20 November."),
        ("{not json", "{not json"),
    ],
)
def test_json_tool_output_becomes_sentences_with_its_numbers_intact(output: str, text: str) -> None:
    assert readable(output) == text


def test_text_parts_are_read_and_odd_ids_fall_back_to_the_place() -> None:
    messages: list[dict[str, Any]] = [
        {"role": "tool", "tool_call_id": "x" * 500, "content": [{"type": "text", "text": "The status is shipped."}]},
        {"role": "tool", "tool_call_id": 7, "content": "The carrier is Parcelia."},
        {"role": "tool", "tool_call_id": "call_empty", "content": "   "},
    ]
    documents = conversation_documents(messages, ConversationEvidence(), limit=32)
    assert [(d.id, d.title, d.text) for d in documents] == [
        ("messages[0]", "tool", "The status is shipped."),
        ("messages[1]", "tool", "The carrier is Parcelia."),
    ]


def test_only_the_latest_documents_within_the_limit_are_kept() -> None:
    messages = [{"role": "tool", "tool_call_id": f"call_{i}", "content": f"The value is {i}."} for i in range(5)]
    assert [d.id for d in conversation_documents(messages, ConversationEvidence(), limit=2)] == ["call_3", "call_4"]


@pytest.mark.parametrize(
    ("grounding", "conversation", "expected"),
    [
        # the store stays the fallback for what no tool message speaks to
        ("store", True, "documents_and_store"),
        ("documents_and_store", True, "documents_and_store"),
        # the operator's "documents": the request's own evidence alone
        ("documents", True, "documents"),
        ("documents", False, "documents"),
        ("documents_and_store", False, "documents_and_store"),
    ],
)
def test_conversation_evidence_keeps_the_store_as_fallback(grounding: str, conversation: bool, expected: str) -> None:
    docs = conversation_documents(MESSAGES, ConversationEvidence(), limit=32) if conversation else ()
    assert About(conversation=docs).grounding(PolicySpec.model_validate({"grounding": grounding})) == expected


def test_the_policy_file_takes_the_conversation_setting_and_refuses_unknown_roles(tmp_path: Path) -> None:
    path = tmp_path / "policies.yaml"
    path.write_text("default: {mode: block}\nmodels:\n  agent: {conversation: {assistant: true}}\n")
    table = PolicyTable.load(path)
    assert table.for_model("agent").conversation == ConversationEvidence(tools=True, assistant=True)
    assert table.for_model("other").conversation == ConversationEvidence()
    path.write_text("default: {conversation: {tool: true}}\n")
    with pytest.raises(ConfigError, match="conversation"):
        PolicyTable.load(path)


def test_the_tool_call_id_travels_in_the_generation_record_to_the_worker() -> None:
    """The record the gateway publishes to Kafka, as the worker reads it, hands the checker each tool message's id."""
    documents = conversation_documents(MESSAGES, ConversationEvidence(), limit=32)
    message = GenerationMessage(
        request_id="fs-1",
        model="agent",
        answer="Your order A-4417 came to 129.0 EUR.",
        created_at="2026-11-27T00:00:00Z",  # type: ignore[arg-type]
        completed_at="2026-11-27T00:00:01Z",  # type: ignore[arg-type]
        documents=list(documents),
        grounding="documents_and_store",
    )
    received = GenerationMessage.model_validate_json(json.dumps(json.loads(message.model_dump_json())))
    grounding = grounding_of(received)
    assert grounding is not None
    rows, with_store = grounding
    assert with_store is True
    assert [(title, entity, call) for title, _, entity, call in rows] == [
        ("get_order", CONVERSATION_SOURCE, "call_1"),
        ("get_rate", CONVERSATION_SOURCE, "messages[5]"),
    ]
