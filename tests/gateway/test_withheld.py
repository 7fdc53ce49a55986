"""Nothing withheld leaves: under block the client gets the refusal, the verdict's scores and ids, and no
byte of the withheld answer or of its suggested revision — in JSON, SSE, hold-back and the guardrail API —
unless the operator opts in to sending the suggestion. A refusal follows OpenAI's conventions (content
null, the text in ``refusal``) and says what happened; one vocabulary of actions in headers and body."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import httpx
import orjson
import pytest

from gateway.holdback import split_complete, withheld
from gateway.policy import PolicySpec, decide
from gateway.release import Decision, as_chunks, as_json, refusal_text, release
from gateway.settings import GatewaySettings
from schemas.check import CheckResult, FactGroup, FactResult, Revision
from schemas.enums import Policy, Stance, Verdict, Worthiness
from schemas.messages import ResultMessage
from tests.gateway.conftest import FAITHFUL, MERGED, RunningGateway, StartStack
from tests.gateway.test_holdback import WRONG_DATE

BLOCK = {"mode": "block", "threshold": 0.75, "timeout_s": 120}
GUARDRAIL = "/beta/litellm_basic_guardrail_api"


def sentences(text: str) -> list[str]:
    pieces, rest = split_complete(text)
    return [p.strip() for p in [*pieces, rest] if p.strip()]


async def stored_revision(http: httpx.AsyncClient, request_id: str) -> str:
    stored = await http.get(f"/v1/results/{request_id}")
    assert stored.status_code == 200, stored.text
    revision = stored.json()["check"]["revision"]
    assert revision and revision["text"], "the reviewer's copy keeps the suggested revision"
    return str(revision["text"])


def assert_none_of(body: bytes, withheld_texts: list[str]) -> None:
    """No withheld sentence (or any 6-word run of one) appears in the response bytes, JSON-escaped or not."""
    decoded = body.decode()
    for text in withheld_texts:
        words = text.split()
        for i in range(max(1, len(words) - 5)):
            run = " ".join(words[i : i + 6])
            assert run not in decoded, run
            assert orjson.dumps(run).decode()[1:-1] not in decoded, run


async def post(gw: RunningGateway, conv: Any, stream: bool = False) -> httpx.Response:
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=180) as http:
        body = {"model": "mock-lean", "messages": [{"role": "user", "content": conv.question}], "stream": stream}
        return await http.post("/v1/chat/completions", json=body, headers={"x-factsentry-name": conv.name})


def sse_objects(body: bytes) -> list[dict[str, Any]]:
    events = [line[6:] for line in body.decode().splitlines() if line.startswith("data: ")]
    assert events[-1] == "[DONE]"
    return [orjson.loads(e) for e in events[:-1]]


async def test_block_sends_no_byte_of_the_answer_or_its_revision_buffered(start_stack: StartStack) -> None:
    gw = await start_stack({"default": BLOCK})
    for stream in (False, True):
        response = await post(gw, MERGED, stream)
        assert response.status_code == 200 and response.headers["x-factsentry-action"] == "block"
        async with httpx.AsyncClient(base_url=gw.base_url, timeout=30) as http:
            revision = await stored_revision(http, response.headers["x-request-id"])
        assert revision != MERGED.answer
        # Every sentence of the answer and of the revision, except the very words the refusal is made of.
        assert_none_of(response.content, sentences(MERGED.answer) + sentences(revision))
        if stream:
            objects = sse_objects(response.content)
            verdict = next(o["factsentry"] for o in objects if "factsentry" in o)
        else:
            verdict = response.json()["factsentry"]
        assert verdict["revision"] is None and verdict["action"] == "block"
        assert verdict["dfactscore"] < 0.75 and verdict["conflated"] is True  # scores and ids still go


async def test_holdback_block_sends_no_withheld_sentence_nor_the_revision(start_stack: StartStack) -> None:
    gw = await start_stack({"default": {**BLOCK, "stream": "holdback"}})
    response = await post(gw, WRONG_DATE, stream=True)
    objects = sse_objects(response.content)
    verdict = next(o["factsentry"] for o in objects if "factsentry" in o)
    assert verdict["action"] == "block" and verdict["revision"] is None
    released = verdict["holdback"]["released_sentences"]
    parts = sentences(WRONG_DATE.answer)
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=30) as http:
        revision = await stored_revision(http, verdict["request_id"])
    rewritten = [s for s in sentences(revision) if s not in parts[:released]]
    assert rewritten, "the revision restates the withheld sentence"
    assert_none_of(response.content, parts[released:] + rewritten)
    assert "1982" not in response.text


async def test_guardrail_api_blocked_reply_carries_no_revision(start_stack: StartStack) -> None:
    gw = await start_stack({"default": BLOCK})
    call = {"input_type": "response", "texts": [MERGED.answer], "model": "gpt-4o-mini"}
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=180) as http:
        response = await http.post(GUARDRAIL, json=call)
        reply = response.json()
        assert reply["action"] == "BLOCKED" and "merges different people" in reply["blocked_reason"]
        revision = await stored_revision(http, reply["factsentry"][0]["request_id"])
    assert reply["factsentry"][0]["revision"] is None and reply["factsentry"][0]["dfactscore"] < 0.75
    assert_none_of(response.content, sentences(revision) + sentences(MERGED.answer))


async def test_the_operator_may_opt_in_to_sending_the_suggestion_and_the_refusal_as_content(
    start_stack: StartStack,
) -> None:
    gw = await start_stack({"default": BLOCK}, send_revision=True, refusal_in_content=True)
    response = await post(gw, MERGED)
    message = response.json()["choices"][0]["message"]
    assert message["content"] == message["refusal"] and "merges different people" in message["content"]
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=30) as http:
        revision = await stored_revision(http, response.headers["x-request-id"])
    assert response.json()["factsentry"]["revision"] == revision
    streamed = sse_objects((await post(gw, MERGED, stream=True)).content)
    deltas = [o["choices"][0]["delta"] for o in streamed if o.get("choices")]
    assert "".join(d.get("content") or "" for d in deltas) == "".join(d.get("refusal") or "" for d in deltas)


async def test_one_vocabulary_of_actions_in_headers_and_body_annotate_included(start_stack: StartStack) -> None:
    gw = await start_stack({"default": {**BLOCK, "mode": "annotate"}, "models": {}})
    annotated = await post(gw, MERGED)
    assert annotated.headers["x-factsentry-action"] == annotated.json()["factsentry"]["action"] == "pass"
    assert annotated.json()["choices"][0]["message"]["content"] == MERGED.answer
    # Annotate withholds nothing: the suggestion is the annotation.
    assert annotated.json()["factsentry"]["revision"]
    streamed = await post(gw, MERGED, stream=True)
    verdict = next(o["factsentry"] for o in sse_objects(streamed.content) if "factsentry" in o)
    assert streamed.headers["x-factsentry-action"] == verdict["action"] == "pass"
    passed = await post(gw, FAITHFUL)
    assert passed.headers["x-factsentry-action"] == passed.json()["factsentry"]["action"] == "pass"


def verdict(
    dfs: float | None,
    *,
    conflated: bool = False,
    unsupported: int = 0,
    partial: bool = False,
    unverifiable: bool = False,
) -> ResultMessage:
    facts = [
        FactResult(
            text=f"Statement {i}.", worthiness=Worthiness.FACTUAL, verdict=Verdict.NOT_SUPPORTED, stance=Stance.REFUTE
        )
        for i in range(unsupported)
    ]
    check = CheckResult(
        unverifiable=unverifiable,
        dfactscore=dfs,
        factscore=dfs,
        partial=partial,
        groups=[FactGroup(facts=facts, conflated=conflated)],
        revision=Revision(text="A rewritten answer."),
    )
    return ResultMessage(request_id="r", model="m", check=check, scored_at=datetime.now(UTC))


@pytest.mark.parametrize(
    ("result", "status", "says"),
    [
        (verdict(0.5, conflated=True, unsupported=2), "checked", "merges different people into one (D-FActScore 0.50"),
        (verdict(0.5, unsupported=1), "checked", "found 1 statement in it that its sources do not support"),
        (verdict(0.2, unsupported=3), "checked", "found 3 statements in it that its sources do not support"),
        (verdict(0.9, partial=True), "checked", "longer than the fact-checker reads"),
        (verdict(None, unverifiable=True), "checked", "could not be checked against the knowledge"),
        (None, "timeout", "could not be fact-checked in time"),
        (None, "failed", "(the check failed)"),
        (None, "unavailable", "(the fact-checker is unavailable)"),
    ],
)
def test_refusals_say_what_happened(result: ResultMessage | None, status: str, says: str) -> None:
    text = refusal_text(PolicySpec(mode=Policy.BLOCK, threshold=0.75), result, status)
    assert says in text and "A rewritten answer" not in text


@pytest.mark.parametrize(
    ("reason", "says"),
    [
        ("conflated", "merges different people"),
        ("unsupported", "facts its sources do not support"),
        ("timeout", "in time"),
        ("unknown-reason", "unavailable"),
    ],
)
def test_holdback_markers_say_what_happened(reason: str, says: str) -> None:
    assert says in withheld(reason) and withheld(reason).startswith(" [The rest of this answer was withheld")


TOOL_CALL = {"id": "call_1", "type": "function", "function": {"name": "get_order", "arguments": '{"id": 7}'}}


@pytest.mark.parametrize(
    ("mode", "result", "status"),
    [
        ("block", verdict(0.5, conflated=True, unsupported=2), "checked"),
        ("block", None, "unavailable"),
        ("revise", verdict(0.5, unsupported=1), "checked"),
    ],
)
def test_a_withheld_answer_takes_its_tool_calls_with_it(mode: str, result: ResultMessage | None, status: str) -> None:
    """An answer with text and a tool call that is blocked or revised: the client gets no call to run (JSON and a
    buffered stream alike), and the finish reason no longer says ``tool_calls``."""
    spec = PolicySpec(mode=Policy(mode), threshold=0.75)
    action = decide(spec, result, status)
    rel = release(Decision(spec, result, status, action, "fs-1"), GatewaySettings())
    message = {"role": "assistant", "content": MERGED.answer, "tool_calls": [TOOL_CALL]}
    completion = {"choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}]}
    body = orjson.loads(as_json(rel, completion, {}).body)
    choice = body["choices"][0]
    assert "tool_calls" not in choice["message"] and choice["finish_reason"] in ("stop", "content_filter")
    held = [
        {"id": "c", "choices": [{"index": 0, "delta": {"content": MERGED.answer}, "finish_reason": None}]},
        {"id": "c", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, **TOOL_CALL}]}}]},
        {"id": "c", "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
    ]
    chunks = as_chunks(rel, held, request_id="fs-1", model="m", created=0)
    assert not any("tool_calls" in (c.get("choices") or [{}])[0].get("delta", {}) for c in chunks)
    assert "get_order" not in orjson.dumps(body).decode() + orjson.dumps(chunks).decode()
