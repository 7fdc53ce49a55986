"""The LLM judge client against a local OpenAI-compatible server: configuration from the operator's model
list, each failure kind, and the retries of ``ask`` (counted)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from schemas.enums import ENGINE_NAMES
from scoring.checker import Usage
from scoring.engines import engine_names
from scoring.errors import LLMCallError
from scoring.llm.client import JudgeConfigError, LiteLLMJudge
from scoring.llm.decompose import build_decompose_request, parse_decompose
from scoring.llm.steps import LLMConfig, ask
from tests.judge_server import JudgeServer

MESSAGES = build_decompose_request("Ada Lovelace was born in 1815. She died in 1852.", "Ada Lovelace")


@pytest.fixture
async def judge_server() -> AsyncIterator[JudgeServer]:
    server = await JudgeServer().start()
    yield server
    await server.stop()


def test_the_gateway_knows_every_registered_engine() -> None:
    assert sorted(ENGINE_NAMES) == engine_names()


def test_judge_comes_from_the_model_list_with_its_secrets_resolved() -> None:
    config = {
        "model_list": [
            {"model_name": "judge", "litellm_params": {"model": "openai/x", "api_key": "os.environ/JUDGE_KEY"}},
            {"model_name": "gpt-4o", "litellm_params": {"model": "openai/gpt-4o"}},
        ]
    }
    judge = LiteLLMJudge.from_model_list(config, "judge", env={"JUDGE_KEY": "sk-1"})
    assert judge.params == {"model": "openai/x", "api_key": "sk-1"} and judge.name == "judge"
    with pytest.raises(JudgeConfigError, match="JUDGE_KEY, which is not set"):
        LiteLLMJudge.from_model_list(config, "judge", env={})
    with pytest.raises(JudgeConfigError, match="did you mean 'judge'"):
        LiteLLMJudge.from_model_list(config, "juge", env={})


async def test_a_reply_and_its_tokens(judge_server: JudgeServer) -> None:
    judge = LiteLLMJudge.from_model_list(judge_server.model_list(), "judge")
    reply = await asyncio.to_thread(judge, MESSAGES)
    facts = parse_decompose(reply.text, "Ada Lovelace")
    assert [f for g in facts for f in g.facts] == ["Ada Lovelace was born in 1815.", "Ada Lovelace died in 1852."]
    assert reply.prompt_tokens > 50 and reply.completion_tokens > 5 and judge_server.kinds() == ["decompose"]
    assert reply.cost_usd is None  # a local model: not in litellm's cost map


@pytest.mark.parametrize(
    ("behaviour", "kind", "transient"),
    [
        ("429", "rate_limit", True),
        ("500", "server", True),
        ("truncated", "truncated", False),
        ("content-filter", "refused", False),
        ("slow", "timeout", True),
    ],
)
async def test_each_failure_has_its_kind(judge_server: JudgeServer, behaviour: str, kind: str, transient: bool) -> None:
    judge_server.default, judge_server.slow_s = behaviour, 2.0
    judge = LiteLLMJudge.from_model_list(judge_server.model_list(), "judge", timeout_s=0.5)
    with pytest.raises(LLMCallError) as e:
        await asyncio.to_thread(judge, MESSAGES)
    assert e.value.kind == kind and e.value.transient is transient and e.value.retriable is transient


async def test_a_wrong_key_is_an_auth_failure(judge_server: JudgeServer) -> None:
    config = judge_server.model_list()
    config["model_list"][0]["litellm_params"]["api_key"] = "sk-wrong"
    judge = LiteLLMJudge.from_model_list(config, "judge")
    with pytest.raises(LLMCallError) as e:
        await asyncio.to_thread(judge, MESSAGES)
    assert e.value.kind == "auth" and not e.value.transient


async def test_ask_retries_transient_failures_and_counts_them(judge_server: JudgeServer) -> None:
    judge_server.script = ["429", "500", "malformed"]
    judge = LiteLLMJudge.from_model_list(judge_server.model_list(), "judge")
    usage = Usage()
    config = LLMConfig(call_retries=2, backoff_s=0.01)
    groups = await asyncio.to_thread(
        ask, judge, MESSAGES, usage, 1, lambda raw: parse_decompose(raw, "Ada Lovelace"), config
    )
    assert len(groups[0].facts) == 2
    assert (usage.calls, usage.errors) == (4, 3) and len(judge_server.requests) == 4


async def test_ask_gives_up_after_its_retries_and_at_once_on_a_lasting_failure(judge_server: JudgeServer) -> None:
    judge = LiteLLMJudge.from_model_list(judge_server.model_list(), "judge")
    parse = lambda raw: parse_decompose(raw, "Ada Lovelace")  # noqa: E731
    judge_server.default = "429"
    usage = Usage()
    with pytest.raises(LLMCallError, match="rate_limit"):
        await asyncio.to_thread(ask, judge, MESSAGES, usage, 2, parse, LLMConfig(call_retries=2, backoff_s=0.01))
    assert usage.errors == 3 and len(judge_server.requests) == 3
    judge_server.default = "truncated"
    usage = Usage()
    with pytest.raises(LLMCallError, match="truncated"):
        await asyncio.to_thread(ask, judge, MESSAGES, usage, 2, parse, LLMConfig(call_retries=2, backoff_s=0.01))
    assert usage.errors == 1 and len(judge_server.requests) == 4
