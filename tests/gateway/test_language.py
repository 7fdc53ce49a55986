"""Biographies in French and German through the whole stack under block: ``unverifiable`` with reason
``language``, never a score, and released or refused as the operator's ``on_unverifiable`` says."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest
from prometheus_client import CollectorRegistry

from factsentry import mock_upstream
from factsentry.embedded import free_port
from tests.gateway.conftest import RunningGateway, StartStack, released_unchecked

ANSWERS = {
    "Qui était Clara Schumann ?": (
        "Clara Schumann était une pianiste et compositrice allemande. Elle est née à Leipzig en 1819 et a épousé "
        "le compositeur Robert Schumann en 1840. Elle est morte à Francfort en 1896."
    ),
    "Wer war Dick Hanley?": (
        "Dick Hanley war ein amerikanischer Footballtrainer. Er trainierte von 1927 bis 1934 die Mannschaft der "
        "Northwestern University und starb im Jahr 1970 in Kalifornien."
    ),
}


@pytest.fixture(scope="module")
async def upstream_url() -> AsyncIterator[str]:
    """This module's upstream answers in French and German (it stands in for the gateway fixtures' one)."""
    port = free_port()
    server = await mock_upstream.serve("127.0.0.1", port, ANSWERS, default="Dick Hanley was a football coach.")
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.close()
        await server.wait_closed()


async def _ask(gw: RunningGateway, model: str, question: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=180) as http:
        body = {"model": model, "messages": [{"role": "user", "content": question}]}
        return await http.post("/v1/chat/completions", json=body)


async def test_answers_in_other_languages_follow_on_unverifiable_under_block(start_stack: StartStack) -> None:
    registry = CollectorRegistry()
    gw = await start_stack(
        {"default": {"mode": "block", "threshold": 0.75, "timeout_s": 120, "on_unverifiable": "block"}},
        worker_registry=registry,
    )
    for question, code in zip(ANSWERS, ("fr", "de"), strict=True):
        response = await _ask(gw, "mock-lean", question)
        assert response.status_code == 200
        assert response.headers["x-factsentry-status"] == "unverifiable"
        assert response.headers["x-factsentry-action"] == "block"
        assert "x-factsentry-dfactscore" not in response.headers
        body = response.json()
        assert body["choices"][0]["message"]["content"] is None  # a refusal, as OpenAI gives one
        assert body["choices"][0]["message"]["refusal"]
        assert (body["factsentry"]["status"], body["factsentry"]["reason"]) == ("unverifiable", "language")
        assert body["factsentry"]["language"] == code
        assert body["factsentry"]["factscore"] is None and body["factsentry"]["dfactscore"] is None
        assert ANSWERS[question] not in response.text
        async with httpx.AsyncClient(base_url=gw.base_url, timeout=30) as http:
            stored = (await http.get(body["factsentry"]["result_url"])).json()
        check = stored["check"]
        assert (check["status"], check["reason"], check["language"]) == ("unverifiable", "language", code)
        assert check["groups"] == [] and check["num_facts"] == 0

    def counted(code: str) -> float | None:
        labels = {"source": "proxy", "model": "mock-lean", "language": code}
        return registry.get_sample_value("factsentry_worker_answer_languages_total", labels)

    for _ in range(100):  # the worker counts an answer once its verdict is out: the last one may lag a little
        if counted("de"):
            break
        await asyncio.sleep(0.05)
    assert (counted("fr"), counted("de"), counted("en")) == (1, 1, None)
    assert released_unchecked(gw) == 0


async def test_answers_in_other_languages_pass_where_the_operator_lets_unverifiable_pass(
    start_stack: StartStack,
) -> None:
    gw = await start_stack({"default": {"mode": "block", "threshold": 0.75, "timeout_s": 120}})
    question = "Wer war Dick Hanley?"  # Dick Hanley is in the demo store: in English he would be scored
    response = await _ask(gw, "mock-lean", question)
    assert response.headers["x-factsentry-status"] == "unverifiable"
    assert response.headers["x-factsentry-action"] == "pass"
    body = response.json()
    assert body["choices"][0]["message"]["content"] == ANSWERS[question]
    assert (body["factsentry"]["reason"], body["factsentry"]["language"]) == ("language", "de")
    assert body["factsentry"]["dfactscore"] is None
