"""The reask policy end to end (gateway → Kafka → worker → Redis, the official openai client): an answer that
does not clear is sent back to the upstream model once with the statements the check could not support, and
the better-scoring answer is decided on."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import httpx
import orjson
from prometheus_client import CollectorRegistry

from bus.results import Outcome
from factsentry.demo_data import CONVERSATIONS, Conversation
from gateway.access import Exchange
from gateway.metrics import build_metrics
from gateway.policy import PolicySpec
from gateway.reask import REASK_PROMPT, reask
from gateway.request import About, ChatCall
from gateway.upstream import Completion
from schemas.check import CheckResult, FactGroup, FactResult
from schemas.enums import Policy, Stance, Verdict
from schemas.messages import ResultMessage
from tests.gateway.conftest import (
    LONG_ANSWERS,
    MERGED,
    REASK_ANSWERS,
    RunningGateway,
    StartStack,
    ask,
    released_unchecked,
)

WRONG_DATE = next(c for c in CONVERSATIONS if c.model == "demo-wrong-date")
# The explorer's answer scores D-FActScore 0.91 (one wrong year of eleven facts): below 0.95 it does not clear.
POLICY = {"default": {"mode": "block", "threshold": 0.95, "timeout_s": 120, "reask": True}}


def reasks(gw: RunningGateway, outcome: str) -> float:
    value = gw.gateway.registry.get_sample_value(
        "factsentry_gateway_reasks_total", {"model": "mock-lean", "outcome": outcome}
    )
    return value or 0.0


async def test_a_corrected_rewrite_is_released_in_place_of_the_first_answer(start_stack: StartStack) -> None:
    gw = await start_stack(POLICY)
    request_id, completion, headers = await ask(gw, WRONG_DATE)
    assert headers["x-factsentry-reask"] == "improved"
    assert headers["x-factsentry-action"] == "pass"  # released: the rewrite clears the threshold
    text = completion.choices[0].message.content or ""
    assert text == REASK_ANSWERS[f"{WRONG_DATE.question}#2"]
    assert "1970" in text and "1982" not in text
    verdict = completion.model_extra["factsentry"]  # type: ignore[index]
    assert verdict["reask"]["outcome"] == "improved" and verdict["reask"]["statements_listed"] == 1
    assert verdict["dfactscore"] == 1.0
    # The rewrite's own verdict is stored under its own id, and the first answer's stays under the first.
    rewrite_id = headers["x-factsentry-reask-id"]
    assert verdict["request_id"] == rewrite_id != request_id
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=30) as http:
        first = (await http.get(f"/v1/results/{request_id}")).json()
        second = (await http.get(f"/v1/results/{rewrite_id}")).json()
    assert first["check"]["dfactscore"] < 0.95 <= second["check"]["dfactscore"]
    assert reasks(gw, "improved") == 1


async def test_a_rewrite_that_scores_no_better_leaves_the_first_verdict(start_stack: StartStack) -> None:
    gw = await start_stack(POLICY)
    _, completion, headers = await ask(gw, MERGED)
    assert headers["x-factsentry-reask"] == "kept"
    assert headers["x-factsentry-action"] == "block"
    assert completion.choices[0].finish_reason == "content_filter"
    verdict = completion.model_extra["factsentry"]  # type: ignore[index]
    assert verdict["reask"]["outcome"] == "kept" and verdict["reask"]["statements_listed"] >= 1
    assert reasks(gw, "kept") == 1 and released_unchecked(gw) == 0


async def test_an_upstream_error_on_the_reask_leaves_the_first_verdict(start_stack: StartStack) -> None:
    gw = await start_stack(POLICY)
    # the singer's true biography with three wrong facts after it: sent back, and the upstream refuses the rewrite
    question = "Tell me everything about the singer John Stewart."
    wrong_tail = Conversation("mock-lean", "John Stewart", question, LONG_ANSWERS[question], "")
    _, completion, headers = await ask(gw, wrong_tail)
    assert headers["x-factsentry-reask"] == "upstream_error"
    assert headers["x-factsentry-action"] == "block"  # fails closed as without the reask
    assert completion.choices[0].finish_reason == "content_filter"
    assert reasks(gw, "upstream_error") == 1 and released_unchecked(gw) == 0


async def test_an_answer_that_clears_is_not_sent_back(start_stack: StartStack) -> None:
    gw = await start_stack({"default": {"mode": "block", "threshold": 0.7, "timeout_s": 120, "reask": True}})
    _, completion, headers = await ask(gw, WRONG_DATE)
    assert "x-factsentry-reask" not in headers
    assert completion.choices[0].message.content == WRONG_DATE.answer
    assert reasks(gw, "improved") + reasks(gw, "kept") == 0


def test_the_prompt_lists_the_statements() -> None:
    prompt = REASK_PROMPT.format(facts="- The Conquest of the Incas was first published in 1982.")
    assert "- The Conquest of the Incas was first published in 1982." in prompt


async def test_a_rewrite_with_a_partial_verdict_never_replaces_the_first_answer() -> None:
    """A rewrite checked only in part cannot clear, even where the operator opens what has no verdict: the
    first answer's verdict stands (a path the end-to-end tests cannot reach with the demo answers; the
    gateway's publisher and verdict wait are stood in for, the reask logic is the gateway's own)."""

    def completion(text: str) -> Completion:
        data: dict[str, Any] = {"choices": [{"message": {"role": "assistant", "content": text}}], "usage": {}}
        return Completion(orjson.dumps(data), data)

    def verdict(dfs: float, partial: bool, facts: list[FactResult]) -> ResultMessage:
        check = CheckResult(dfactscore=dfs, factscore=dfs, partial=partial, groups=[FactGroup(facts=facts)])
        return ResultMessage(request_id="r", model="m", check=check, scored_at=datetime.now(UTC))

    wrong = FactResult(text="X won a prize.", verdict=Verdict.NOT_SUPPORTED, stance=Stance.IRRELEVANT)
    first = verdict(0.5, False, [wrong])

    class Upstream:
        async def complete(self, body: dict[str, Any]) -> Completion:
            return completion("A rewrite.")

    async def checked(request_id: str, timeout: float, published: bool) -> Outcome:
        return Outcome("checked", verdict(1.0, True, []))

    registry = CollectorRegistry()
    gw = SimpleNamespace(
        metrics=build_metrics(registry), publisher=SimpleNamespace(publish=lambda m: True), verdict=checked
    )
    spec = PolicySpec(mode=Policy.BLOCK, threshold=0.9, on_unavailable="open", on_timeout="open", reask=True)
    messages = [{"role": "user", "content": "Who is X?"}]
    x = Exchange(source="proxy", request_id="fs-1", model="m")
    call = ChatCall(
        "fs-1",
        datetime.now(UTC),
        {},
        x,
        Upstream(),  # type: ignore[arg-type]
        spec,
        About(),
        {"messages": messages},
        messages,
    )
    again = await reask(gw, call, completion("X won a prize."), first)  # type: ignore[arg-type]
    assert (again.outcome, again.won, again.listed) == ("no_verdict", None, 1)
    assert registry.get_sample_value("factsentry_gateway_reasks_total", {"model": "m", "outcome": "no_verdict"}) == 1
