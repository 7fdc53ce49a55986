"""``POST /v1/responses`` with the official ``openai`` client, under every policy, streamed and not: the text each
policy allows, the refusal as a ``refusal`` content part, the ``x-factsentry-*`` headers and the ``factsentry``
object, usage as the Responses API reports it, the exact event sequence, and no withheld byte under block.

The gateway, policies and worker are test_clients.py's (one model name per policy), the answer the merged
biography every guarded policy flags."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import openai
import orjson
import pytest

from gateway.auth import add_key
from tests.gateway.conftest import MERGED, RAG_ANSWERS, UPSTREAM_ANSWER, GatewayFactory, StartStack
from tests.gateway.test_clients import POLICIES, sentences
from tests.gateway.test_clients import base_url as base_url  # the module's gateway and worker
from tests.gateway.test_documents import BAD as BAD_RAG
from tests.gateway.test_documents import BLOCK as DOCUMENTS_BLOCK
from tests.gateway.test_documents import GOOD, L7_DOCUMENTS, check_of
from tests.gateway.test_upstream_faults import serve_faulty
from tests.gateway.test_withheld import assert_none_of, stored_revision

# how the client asks: responses.create(), responses.create(stream=True), responses.stream()
HOW = ("json", "events", "helper")
CASES = [pytest.param(policy, how, id=f"{policy}-{how}") for policy in POLICIES for how in HOW]


@dataclass
class Seen:
    """What the client saw of one response."""

    text: str = ""  # response.output_text (streamed: the text deltas joined)
    refusal: str = ""  # the refusal content parts (streamed: the refusal deltas joined)
    factsentry: dict[str, Any] | None = None
    headers: httpx.Headers | None = None
    status: str | None = None
    usage: tuple[int, int, int] | None = None  # input, output, total tokens
    types: list[str] = field(default_factory=list)  # streamed: the event types in order
    final: Any = None  # the final response object


def client(base_url: str) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(base_url=base_url + "/v1", api_key="unused", max_retries=0, timeout=180)


def request(policy: str) -> dict[str, Any]:
    return {
        "model": f"sdk-{policy}",
        "instructions": "You write short biographies.",
        "input": MERGED.question,
        "extra_headers": {"x-factsentry-name": MERGED.name},
    }


def of_response(seen: Seen, response: Any) -> Seen:
    """The final response object's text, refusal, verdict, status and usage."""
    seen.final = response
    seen.text = seen.text if seen.types else response.output_text
    refusals = [p.refusal for item in response.output for p in item.content if p.type == "refusal"]
    if not seen.types:
        seen.refusal = "".join(refusals)
    else:
        assert seen.refusal == "".join(refusals)  # the deltas add up to the final parts
        assert seen.text == response.output_text
    seen.factsentry = (response.model_extra or {}).get("factsentry")
    seen.status = response.status
    usage = response.usage
    seen.usage = (usage.input_tokens, usage.output_tokens, usage.total_tokens) if usage else None
    return seen


async def ask(base_url: str, policy: str, how: str) -> Seen:
    seen = Seen()
    async with client(base_url) as c:
        if how == "json":
            raw = await c.responses.with_raw_response.create(**request(policy))
            seen.headers = raw.headers
            return of_response(seen, raw.parse())
        if how == "events":
            raw = await c.responses.with_raw_response.create(**request(policy), stream=True)
            seen.headers = raw.headers
            final = None
            numbers = []
            async for event in raw.parse():
                seen.types.append(event.type)
                numbers.append(event.sequence_number)
                if event.type == "response.output_text.delta":
                    seen.text += event.delta
                elif event.type == "response.refusal.delta":
                    seen.refusal += event.delta
                elif event.type == "response.completed":
                    final = event.response
            assert numbers == list(range(len(numbers)))
            return of_response(seen, final)
        async with c.responses.stream(**request(policy)) as stream:
            async for event in stream:
                seen.types.append(event.type)
                if event.type == "response.output_text.delta":
                    seen.text += event.delta
                elif event.type == "response.refusal.delta":
                    seen.refusal += event.delta
            return of_response(seen, await stream.get_final_response())


def expected_types(text: bool, refusal: bool) -> list[str]:
    """The event sequence of one message (consecutive deltas counted once): its text part, then its refusal part."""
    parts = [kind for kind, on in (("output_text", text), ("refusal", refusal)) if on] or ["output_text"]
    added = [t for kind in parts for t in ("response.content_part.added", f"response.{kind}.delta")]
    if parts == ["output_text"] and not text:
        added = ["response.content_part.added"]
    done = [t for kind in parts for t in (f"response.{kind}.done", "response.content_part.done")]
    return [
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        *added,
        *done,
        "response.output_item.done",
        "response.completed",
    ]


def squeezed(types: list[str]) -> list[str]:
    return [t for i, t in enumerate(types) if i == 0 or t != types[i - 1]]


def assert_allowed(seen: Seen, policy: str, how: str) -> None:
    """The text the policy allows, its verdict, headers, usage and (streamed) event sequence."""
    streamed = how != "json"
    verdict = seen.factsentry
    holdback = streamed and policy.endswith("-holdback")
    if policy == "observe":
        assert verdict is None and seen.text == MERGED.answer and seen.refusal == ""
    else:
        assert verdict is not None and verdict["dfactscore"] < 0.75 and verdict["flagged"] is True
        assert verdict["result_url"] == f"/v1/results/{verdict['request_id']}"
    if policy == "annotate":
        assert seen.text == MERGED.answer and verdict and verdict["action"] == "pass" and seen.refusal == ""
    if policy == "block" or (policy == "block-holdback" and not streamed):
        assert seen.text == "" and "merges different people" in seen.refusal
        assert verdict and verdict["action"] == "block" and verdict["revision"] is None
    if policy == "revise" or (policy == "revise-holdback" and not streamed):
        assert verdict and verdict["action"] == "revise" and seen.text == verdict["revision"] != MERGED.answer
        assert seen.refusal == ""
    if policy == "block-holdback" and streamed:
        assert verdict and verdict["action"] == "block"
        released = verdict["holdback"]["released_sentences"]
        assert seen.text == "".join(sentences(MERGED.answer)[:released]) and seen.refusal.startswith(" [The rest")
    if policy == "revise-holdback" and streamed:
        assert verdict and verdict["action"] == "revise" and seen.text != MERGED.answer and seen.refusal == ""
        assert all(s in sentences(MERGED.answer) for s in sentences(seen.text))
    assert seen.status == "completed"
    assert seen.usage is not None and seen.usage[0] > 0 and seen.usage[1] > 0 and seen.usage[2] == sum(seen.usage[:2])
    if streamed:
        assert squeezed(seen.types) == expected_types(bool(seen.text), bool(seen.refusal))
    if seen.headers is not None:
        if verdict is not None:
            assert seen.headers["x-request-id"] == verdict["request_id"]
        if policy == "observe":
            assert "x-factsentry-action" not in seen.headers
        elif holdback:
            assert seen.headers["x-factsentry-stream"] == "holdback"  # the verdict comes at the end, in the body
        else:
            assert verdict and seen.headers["x-factsentry-action"] == verdict["action"]
            assert float(seen.headers["x-factsentry-dfactscore"]) == pytest.approx(verdict["dfactscore"], abs=1e-4)
            assert seen.headers["x-factsentry-status"] == "checked"


@pytest.mark.parametrize(("policy", "how"), CASES)
async def test_responses_under_every_policy(base_url: str, policy: str, how: str) -> None:
    seen = await ask(base_url, policy, how)
    assert_allowed(seen, policy, how)
    assert seen.final.id.startswith("resp_") and seen.final.model == f"sdk-{policy}"
    assert seen.final.instructions == "You write short biographies."


@pytest.mark.parametrize("stream", [False, True], ids=["json", "events"])
async def test_block_sends_no_byte_of_the_answer_or_its_revision(base_url: str, stream: bool) -> None:
    body = {"model": "sdk-block", "input": [{"role": "user", "content": MERGED.question}], "stream": stream}
    async with httpx.AsyncClient(base_url=base_url, timeout=180) as http:
        response = await http.post("/v1/responses", json=body, headers={"x-factsentry-name": MERGED.name})
        assert response.status_code == 200 and response.headers["x-factsentry-action"] == "block"
        revision = await stored_revision(http, response.headers["x-request-id"])
    assert revision != MERGED.answer
    assert_none_of(response.content, sentences(MERGED.answer) + sentences(revision))
    if stream:
        lines = [line[6:] for line in response.text.splitlines() if line.startswith("data: ")]
        assert "[DONE]" not in lines  # the Responses API ends with response.completed
        final = orjson.loads(lines[-1])["response"]
    else:
        final = response.json()
    assert final["output"][0]["content"] == [
        {"type": "refusal", "refusal": final["output"][0]["content"][0]["refusal"]}
    ]


BAD = [
    pytest.param({"model": "mock-lean"}, 400, "input", "invalid_input", id="no-input"),
    pytest.param({"model": "mock-lean", "input": ""}, 400, "input", "invalid_input", id="empty-input"),
    pytest.param({"input": "hi"}, 400, "model", "missing_model", id="no-model"),
    pytest.param(
        {"model": "mock-lean", "input": [{"type": "reasoning", "id": "rs_1", "summary": []}]},
        400,
        "input[0].type",
        "unsupported_value",
        id="reasoning-item",
    ),
    pytest.param(
        {"model": "mock-lean", "input": [{"role": "robot", "content": "hi"}]},
        400,
        "input[0].role",
        "invalid_input",
        id="bad-role",
    ),
    pytest.param(
        {"model": "mock-lean", "input": [{"role": "user", "content": [{"type": "input_text"}]}]},
        400,
        "input[0].content[0].text",
        "invalid_type",
        id="text-part-without-text",
    ),
    pytest.param(
        {"model": "mock-lean", "input": "hi", "previous_response_id": "resp_1"},
        400,
        "previous_response_id",
        "unsupported_parameter",
        id="previous-response",
    ),
    pytest.param(
        {"model": "mock-lean", "input": "hi", "tools": [{"type": "function", "name": "f"}, {"type": "web_search"}]},
        400,
        "tools[1].type",
        "unsupported_value",
        id="hosted-tool",
    ),
    pytest.param(
        {"model": "mock-lean", "input": "hi", "tool_choice": {"type": "file_search"}},
        400,
        "tool_choice",
        "unsupported_value",
        id="hosted-tool-choice",
    ),
    pytest.param(
        {"model": "mock-lean", "input": [{"type": "function_call_output", "output": "42"}]},
        400,
        "input[0].call_id",
        "invalid_type",
        id="output-without-call",
    ),
    pytest.param(
        {"model": "mock-lean", "input": "hi", "frobnicate": 1}, 400, "frobnicate", "unknown_parameter", id="unknown"
    ),
    pytest.param(
        {"model": "mock-lean", "input": "hi", "max_output_tokens": "ten"},
        400,
        "max_output_tokens",
        "invalid_type",
        id="max-output-tokens",
    ),
    pytest.param({"model": "mock-lean", "input": "hi", "stream": "yes"}, 400, "stream", "invalid_type", id="stream"),
    pytest.param(
        {"model": "mock-lean", "input": "hi", "instructions": 3}, 400, "instructions", "invalid_type", id="instr"
    ),
    pytest.param({"model": "no-such-model", "input": "hi"}, 404, "model", "model_not_found", id="unknown-model"),
]


@pytest.mark.parametrize(("body", "status", "param", "code"), BAD)
async def test_bad_requests_get_openai_errors(
    start_gateway: GatewayFactory, body: dict[str, Any], status: int, param: str, code: str
) -> None:
    gw = await start_gateway({"default": {"mode": "block"}})
    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        response = await http.post("/v1/responses", json=body)
        not_json = await http.post("/v1/responses", content=b"{", headers={"content-type": "application/json"})
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["type"] == "invalid_request_error" and error["param"] == param and error["code"] == code
    assert error["message"] and response.headers["x-request-id"].startswith("fs-")
    assert not_json.status_code == 400 and not_json.json()["error"]["code"] == "invalid_json"


async def test_the_official_client_raises_the_gateways_errors(start_gateway: GatewayFactory, tmp_path: Path) -> None:
    """Keys and models behave as on chat completions: no key 401, a model the key may not use 403 before its
    existence is told, an unknown model 404, a refused parameter 400 — each the SDK's own exception."""
    keys = tmp_path / "keys.yaml"
    acme = add_key(keys, "acme")[0]
    beta = add_key(keys, "beta", models=["mock-l*"])[0]
    gw = await start_gateway({"default": {"mode": "annotate", "timeout_s": 0.05}}, keys_file=keys)

    def as_key(key: str) -> openai.AsyncOpenAI:
        return openai.AsyncOpenAI(base_url=gw.base_url + "/v1", api_key=key, max_retries=0, timeout=60)

    with pytest.raises(openai.AuthenticationError) as wrong:
        await as_key("fsk-guessed").responses.create(model="mock-lean", input="hi")
    assert wrong.value.code == "invalid_api_key"
    with pytest.raises(openai.PermissionDeniedError) as denied:
        await as_key(beta).responses.create(model="no-such-model", input="hi")
    assert denied.value.code == "model_not_allowed"
    with pytest.raises(openai.NotFoundError):
        await as_key(acme).responses.create(model="no-such-model", input="hi")
    with pytest.raises(openai.BadRequestError) as refused:
        await as_key(acme).responses.create(model="mock-lean", input="hi", previous_response_id="resp_1")
    assert refused.value.code == "unsupported_parameter"
    annotated = await as_key(beta).responses.with_raw_response.create(model="mock-lean", input="hi")
    assert annotated.headers["x-factsentry-status"] == "timeout"  # annotate, no worker: released, said so
    assert annotated.parse().output_text and annotated.parse().model_extra["factsentry"]["status"] == "timeout"  # type: ignore[index]


@pytest.mark.parametrize(
    "policy", [None, {"mode": "block", "stream": "holdback", "timeout_s": 1}], ids=["observe", "holdback"]
)
async def test_a_stream_that_goes_bad_ends_with_an_error_and_response_failed(
    kafka_bootstrap: str, redis_url: str, unique: str, tmp_path: Path, policy: dict[str, Any] | None
) -> None:
    """Past the status line, an upstream failure is an ``error`` event, then ``response.failed`` with the error."""
    policies = {"models": {"stream-choices-string": policy}} if policy else None
    body = {"model": "stream-choices-string", "input": "hi", "stream": True}
    async with serve_faulty(kafka_bootstrap, redis_url, unique, policies, tmp_path) as url:
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            response = await http.post("/v1/responses", json=body)
    assert response.status_code == 200
    events = [orjson.loads(line[6:]) for line in response.text.splitlines() if line.startswith("data: ")]
    error, failed = events[-2:]
    assert error["type"] == "error" and "wrong shape" in error["message"]
    assert failed["type"] == "response.failed" and failed["response"]["status"] == "failed"
    assert failed["response"]["error"]["message"] == error["message"]
    assert [e["sequence_number"] for e in events] == list(range(len(events)))
    deltas = "".join(e["delta"] for e in events if e["type"] == "response.output_text.delta")
    assert deltas == ("Fine so far. " if policy is None else "")  # observe passes it; hold-back had no verdict


async def test_a_block_answered_as_an_error_is_a_422(start_gateway: GatewayFactory) -> None:
    """FACTSENTRY_BLOCK_STYLE=error: a blocked response is OpenAI's error, JSON and streamed alike."""
    gw = await start_gateway({"default": {"mode": "block", "timeout_s": 0.05}}, block_style="error")
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=30) as http:
        for stream in (False, True):
            response = await http.post("/v1/responses", json={"model": "mock-lean", "input": "hi", "stream": stream})
            assert response.status_code == 422 and response.json()["error"]["type"] == "factuality_error"
            assert response.headers["x-factsentry-action"] == "block" and "Marie Curie" not in response.text


async def test_a_litellm_model_answers_on_responses(start_gateway: GatewayFactory) -> None:
    """A model on litellm's path (mock_response here) is served the same way, streamed and not, with its usage."""
    gw = await start_gateway()
    async with client(gw.base_url) as c:
        response = await c.responses.create(model="mock-litellm", input="Who was Marie Curie?", max_output_tokens=200)
        async with c.responses.stream(model="mock-litellm", input="Who was Marie Curie?") as stream:
            deltas = [e.delta async for e in stream if e.type == "response.output_text.delta"]
            streamed = await stream.get_final_response()
    assert response.output_text == streamed.output_text == "".join(deltas) == UPSTREAM_ANSWER
    assert response.max_output_tokens == 200
    for r in (response, streamed):
        assert r.usage is not None and r.usage.total_tokens == r.usage.input_tokens + r.usage.output_tokens > 0


README = Path(__file__).resolve().parents[2] / "README.md"
MARKER = "<!-- responses-snippet: run by tests/gateway/test_responses.py -->"


async def test_the_readme_snippet_prints_the_refusal_and_the_action(start_stack: StartStack) -> None:
    """The README's Responses example, run as written against a gateway and worker (only the address and the model
    name are the test's, and a wait long enough for a cold worker's first check, as the README says)."""
    gw = await start_stack({"default": {"mode": "observe", "timeout_s": 120}})
    text = README.read_text()
    found = re.match(r"\s*```python\n(.*?)\n```", text[text.index(MARKER) + len(MARKER) :], re.S)
    assert found is not None, "the marker must be followed by a ```python block"
    script = found.group(1).replace("http://127.0.0.1:8080", gw.base_url).replace('"demo-merged-bio"', '"mock-lean"')
    assert MERGED.question in script and MERGED.name in script
    done = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert "merges different people into one" in done.stdout and done.stdout.rstrip().endswith(" block")


async def test_an_answer_is_judged_against_the_documents_its_request_carried(start_stack: StartStack) -> None:
    """Grounding as on chat completions: ``metadata.factsentry.documents`` is read by the gateway (never sent
    upstream, nor repeated in the response's metadata); the wrong RAG answer is refused, the right one passes."""
    gw = await start_stack({"default": DOCUMENTS_BLOCK})
    async with client(gw.base_url) as c:
        seen = {}
        for question in (GOOD, BAD_RAG):
            metadata = {"factsentry": {"documents": L7_DOCUMENTS}, "team": "docs"}
            raw = await c.responses.with_raw_response.create(
                model="mock-lean", input=question, extra_body={"metadata": metadata}
            )
            seen[question] = (raw.headers, raw.parse())
    headers, good = seen[GOOD]
    assert headers["x-factsentry-action"] == "pass", dict(headers)
    assert good.output_text == RAG_ANSWERS[GOOD]
    assert good.metadata == {"team": "docs"}
    headers, bad = seen[BAD_RAG]
    assert headers["x-factsentry-action"] == "block" and bad.output_text == ""
    check = await check_of(gw, headers["x-request-id"])
    assert check["grounding"] == "documents" and check["dfactscore"] < 0.5
