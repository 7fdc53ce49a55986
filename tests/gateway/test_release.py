"""One release gate: policy.decide's action is asked first, everywhere. A partial verdict (the worker read only
part of a long answer) never clears what it did not read — in hold-back, buffered and the guardrail API — and
whatever the operator's on_unavailable: open releases unchecked is counted."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import httpx
import orjson
import pytest

from factsentry.demo_data import CONVERSATIONS
from gateway.holdback import Holdback, split_complete, withheld
from gateway.policy import Action, PolicySpec, decide
from schemas.check import CheckResult, FactGroup, FactResult
from schemas.enums import Policy, Stance, Verdict
from schemas.messages import ResultMessage
from tests.gateway.conftest import LONG_ANSWERS, RunningGateway, StartStack, released_unchecked

WRONG_DATE = next(c for c in CONVERSATIONS if c.model == "demo-wrong-date")
LONG_QUESTION, LONG_ANSWER = next(iter(LONG_ANSWERS.items()))
SINGER = next(c for c in CONVERSATIONS if c.model == "demo-single-bio")
# (question, subject, answer, the worker's check limit): the limit falls just after the answer's true part, so
# the wrong facts are all in the tail the checker does not read.
LONG = [
    pytest.param(WRONG_DATE.question, WRONG_DATE.name, WRONG_DATE.answer, 190, id="one-wrong-year-in-the-tail"),
    pytest.param(LONG_QUESTION, SINGER.name, LONG_ANSWER, len(SINGER.answer) + 5, id="three-wrong-facts-in-the-tail"),
]
BLOCK = {"mode": "block", "threshold": 0.75, "timeout_s": 120}


def split(text: str) -> list[str]:
    pieces, rest = split_complete(text)
    return [*pieces, rest] if rest.strip() else pieces


def unread_tail(answer: str, limit: int) -> list[str]:
    """The sentences of ``answer`` that end past the worker's limit (what a partial verdict did not read)."""
    out, offset = [], 0
    for piece in split(answer):
        if offset + len(piece.rstrip()) > limit:
            out.append(piece.strip())
        offset += len(piece)
    assert out, "the limit must leave a tail unread"
    return out


async def chat(gw: RunningGateway, question: str, name: str, stream: bool) -> httpx.Response:
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=180) as http:
        body = {"model": "mock-lean", "messages": [{"role": "user", "content": question}], "stream": stream}
        return await http.post("/v1/chat/completions", json=body, headers={"x-factsentry-name": name})


def streamed(response: httpx.Response) -> tuple[str, str, dict[str, Any]]:
    """(content, refusal, factsentry) of an SSE response."""
    events = [line[6:] for line in response.text.splitlines() if line.startswith("data: ")]
    assert events[-1] == "[DONE]"
    chunks = [orjson.loads(e) for e in events[:-1]]
    deltas = [c["choices"][0]["delta"] for c in chunks if c.get("choices")]
    verdict = next(c["factsentry"] for c in chunks if "factsentry" in c)
    content = "".join(d.get("content") or "" for d in deltas)
    return content, "".join(d.get("refusal") or "" for d in deltas), verdict


@pytest.mark.parametrize(("question", "name", "answer", "limit"), LONG)
async def test_holdback_block_releases_nothing_the_checker_did_not_read(
    start_stack: StartStack, question: str, name: str, answer: str, limit: int
) -> None:
    """The fault of issue 31: a streamed answer longer than the check limit, a wrong fact in the unchecked tail."""
    gw = await start_stack({"default": {**BLOCK, "stream": "holdback"}}, worker={"max_answer_chars": limit})
    content, refusal, verdict = streamed(await chat(gw, question, name, stream=True))
    tail = unread_tail(answer, limit)
    for sentence in tail:
        assert sentence not in content
    assert content.strip() and answer.startswith(content)  # what the checker read and cleared did go out
    assert refusal == withheld("partial")
    assert verdict["action"] == "block" and verdict["partial"] is True
    assert verdict["holdback"]["released_unchecked"] == 0 and released_unchecked(gw) == 0
    assert verdict["holdback"]["withheld_sentences"] >= 1


async def test_holdback_releases_the_unread_tail_only_where_the_operator_opened_it_and_counts_it(
    start_stack: StartStack,
) -> None:
    policy = {**BLOCK, "stream": "holdback", "on_unavailable": "open"}
    gw = await start_stack({"default": policy}, worker={"max_answer_chars": 190})
    content, refusal, verdict = streamed(await chat(gw, WRONG_DATE.question, WRONG_DATE.name, stream=True))
    assert (content, refusal) == (WRONG_DATE.answer, "")
    assert verdict["partial"] is True and verdict["holdback"]["released_unchecked"] >= 1
    assert released_unchecked(gw) >= 1


@pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])
async def test_buffered_partial_verdicts_block_or_are_counted_when_open(start_stack: StartStack, stream: bool) -> None:
    closed = await start_stack({"default": BLOCK}, worker={"max_answer_chars": 190})
    response = await chat(closed, WRONG_DATE.question, WRONG_DATE.name, stream)
    assert response.headers["x-factsentry-action"] == "block" and "1982" not in response.text
    refusal = streamed(response)[1] if stream else response.json()["choices"][0]["message"]["refusal"]
    assert "longer than the fact-checker reads" in refusal
    assert released_unchecked(closed) == 0

    opened = await start_stack({"default": {**BLOCK, "on_unavailable": "open"}}, worker={"max_answer_chars": 190})
    response = await chat(opened, WRONG_DATE.question, WRONG_DATE.name, stream)
    assert response.headers["x-factsentry-action"] == "pass"
    verdict = streamed(response)[2] if stream else response.json()["factsentry"]
    assert verdict["partial"] is True
    assert sample(opened, "factsentry_gateway_released_unchecked_total", reason="partial") == 1
    assert sample(opened, "factsentry_gateway_requests_total", outcome="partial") == 1


async def test_guardrail_partial_verdicts_block_or_are_counted_when_open(start_stack: StartStack) -> None:
    call = {"input_type": "response", "texts": [WRONG_DATE.answer], "model": "gpt-4o-mini"}
    for on_unavailable, action, counted in (("closed", "BLOCKED", 0), ("open", "NONE", 1)):
        gw = await start_stack(
            {"default": {**BLOCK, "on_unavailable": on_unavailable}}, worker={"max_answer_chars": 190}
        )
        async with httpx.AsyncClient(base_url=gw.base_url, timeout=180) as http:
            reply = (await http.post("/beta/litellm_basic_guardrail_api", json=call)).json()
        assert reply["action"] == action and reply["factsentry"][0]["partial"] is True
        assert sample(gw, "factsentry_gateway_released_unchecked_total", reason="partial") == counted


def sample(gw: RunningGateway, name: str, **labels: str) -> float:
    """The sum of ``name`` over the samples whose labels include ``labels``."""
    return sum(
        s.value
        for metric in gw.gateway.registry.collect()
        for s in metric.samples
        if s.name == name and all(s.labels.get(k) == v for k, v in labels.items())
    )


# --- Holdback on its own: the verdicts are built here, the decisions are the gateway's own ---

SENTENCES = ["Ann Lee was born in 1950. ", "She won the Pell Prize. ", "She lived in Oslo. "]


def result(supported: list[bool], *, partial_after: int | None = None, conflated: bool = False) -> ResultMessage:
    """A verdict on the first ``len(supported)`` sentences, one fact each; ``partial_after``: the checker read
    only that many sentences (``checked_chars`` ends there)."""
    read = len(supported) if partial_after is None else partial_after
    facts = [
        FactResult(
            text=SENTENCES[i].strip(),
            sentence_index=i,
            verdict=Verdict.SUPPORTED if ok else Verdict.NOT_SUPPORTED,
            stance=Stance.SUPPORT if ok else Stance.REFUTE,
        )
        for i, ok in enumerate(supported[:read])
    ]
    score = sum(supported[:read]) / read if read else None
    check = CheckResult(
        dfactscore=score,
        factscore=score,
        num_facts=len(facts),
        groups=[FactGroup(facts=facts, conflated=conflated)],
        sentences=[s.strip() for s in SENTENCES[:read]],
        partial=partial_after is not None,
        checked_chars=len("".join(SENTENCES[:read]).rstrip()) if partial_after is not None else None,
    )
    return ResultMessage(request_id="r", model="m", check=check, scored_at=datetime.now(UTC))


@pytest.mark.parametrize(
    ("spec", "verdict", "status", "released", "reason", "unchecked"),
    [
        # the fault: a partial verdict on three sentences that read two must not clear the third
        (PolicySpec(mode=Policy.BLOCK), result([True, True, True], partial_after=2), "checked", 2, "partial", 0),
        (
            PolicySpec(mode=Policy.BLOCK, on_unavailable="open"),
            result([True, True, True], partial_after=2),
            "checked",
            3,
            "",
            1,
        ),
        (PolicySpec(mode=Policy.REVISE), result([True, True, True], partial_after=1), "checked", 1, "partial", 0),
        # what it read and found wrong is withheld whatever the open setting
        (
            PolicySpec(mode=Policy.BLOCK, on_unavailable="open"),
            result([True, False, True], partial_after=2),
            "checked",
            1,
            "unsupported",
            0,
        ),
        (PolicySpec(mode=Policy.BLOCK), result([True, False, True]), "checked", 1, "unsupported", 0),
        (PolicySpec(mode=Policy.BLOCK), result([True, True, True]), "checked", 3, "", 0),
        (PolicySpec(mode=Policy.BLOCK), None, "timeout", 0, "timeout", 0),
        (PolicySpec(mode=Policy.BLOCK), None, "unavailable", 0, "unavailable", 0),
        (PolicySpec(mode=Policy.BLOCK, on_timeout="open"), None, "timeout", 3, "", 3),
        (PolicySpec(mode=Policy.BLOCK, on_timeout="open"), None, "unavailable", 0, "unavailable", 0),
    ],
)
async def test_holdback_asks_the_policy_first_then_which_sentences_go(
    spec: PolicySpec, verdict: ResultMessage | None, status: str, released: int, reason: str, unchecked: int
) -> None:
    async def judge(text: str, rid: str, final: bool) -> tuple[ResultMessage | None, str, Action]:
        assert text == "".join(SENTENCES)
        return verdict, status, decide(spec, verdict, status)

    checker = Holdback(spec.model_copy(update={"threshold": 0.75}), "fs-1", judge)
    out = await checker.check(list(SENTENCES), final=True)
    assert out == SENTENCES[:released]
    assert checker.decided.reason == reason
    assert checker.decided.unchecked == unchecked


async def test_holdback_block_stops_when_the_answer_so_far_no_longer_clears() -> None:
    """No new sentence fails on its own, but the answer so far does (a sentence already out was moved to
    another person): block releases nothing more."""
    spec = PolicySpec(mode=Policy.BLOCK, threshold=0.75)
    first, relinked = result([True]), result([False, True], conflated=True)
    verdicts = iter([first, relinked])

    async def judge(text: str, rid: str, final: bool) -> tuple[ResultMessage | None, str, Action]:
        verdict = next(verdicts)
        return verdict, "checked", decide(spec, verdict, "checked")

    checker = Holdback(spec, "fs-1", judge)
    assert await checker.check([SENTENCES[0]], final=False) == [SENTENCES[0]]
    assert await checker.check([SENTENCES[1]], final=True) == []
    assert checker.decided.stopped and checker.decided.reason == "conflated"
