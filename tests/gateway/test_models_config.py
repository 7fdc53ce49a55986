"""The models file (litellm model_list) and which upstream path each model takes."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from gateway.errors import ConfigError, ModelNotFound
from gateway.upstream import HttpUpstream, LiteLLMUpstream, MatchedUpstream, ModelRegistry

LEAN = {
    "model_name": "a",
    "litellm_params": {"model": "openai/llama", "api_base": "http://x/v1", "api_key": "os.environ/K"},
}
VLLM = {"model_name": "b", "litellm_params": {"model": "hosted_vllm/qwen", "api_base": "http://y/v1"}}
MOCK = {"model_name": "c", "litellm_params": {"model": "openai/gpt-4o-mini", "mock_response": "hi", "api_key": "k"}}


async def test_openai_compatible_models_take_the_lean_path_and_others_litellm() -> None:
    registry = ModelRegistry.from_config({"model_list": [LEAN, VLLM, MOCK]}, env={"K": "secret"})
    a, b, c = registry.get("a"), registry.get("b"), registry.get("c")
    assert isinstance(a, HttpUpstream) and (a.model, a.api_key) == ("llama", "secret")
    assert isinstance(b, HttpUpstream) and (b.model, b.api_key) == ("qwen", None)
    assert isinstance(c, LiteLLMUpstream)
    assert [m["id"] for m in registry.list()] == ["a", "b", "c"]
    completion = await c.complete({"model": "c", "messages": [{"role": "user", "content": "x"}]})
    assert completion.text == "hi"
    await registry.aclose()


def test_unknown_model_lists_the_known_ones() -> None:
    registry = ModelRegistry.from_config({"model_list": [VLLM]}, env={})
    with pytest.raises(ModelNotFound, match=r"`gpt-5` does not exist .*known: b"):
        registry.get("gpt-5")


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({}, "non-empty `model_list`"),
        ({"model_list": [{"model_name": "x"}]}, r"model_list\[0\] needs"),
        ({"model_list": [{"model_name": "x", "litellm_params": {}}]}, "litellm_params.model is missing"),
        ({"model_list": [LEAN]}, "environment variable K, which is not set"),
    ],
)
def test_bad_model_lists_are_config_errors(config: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        ModelRegistry.from_config(config, env={})


def test_missing_models_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read models file"):
        ModelRegistry.load(tmp_path / "nope.yaml", env={})


async def test_wildcard_names_route_every_matching_model(upstream_url: str) -> None:
    config = {
        "model_list": [
            {"model_name": "local/*", "litellm_params": {"model": "openai/*", "api_base": upstream_url}},
            {"model_name": "mocked/*", "litellm_params": {"model": "openai/*", "mock_response": "hi", "api_key": "k"}},
            MOCK,
        ]
    }
    registry = ModelRegistry.from_config(config, env={})
    assert [m["id"] for m in registry.list()] == ["c", "local/*", "mocked/*"]
    llama, qwen = registry.get("local/llama-3"), registry.get("local/qwen")
    assert isinstance(llama, MatchedUpstream) and (llama.name, llama.model) == ("local/llama-3", "llama-3")
    assert isinstance(qwen, MatchedUpstream) and qwen.base is llama.base  # one HTTP session for the pattern
    ask = {"messages": [{"role": "user", "content": "x"}]}
    answered = await llama.complete(ask)
    assert answered.data["model"] == "llama-3" and answered.text  # the upstream saw the matched part
    streamed = [chunk async for chunk in qwen.stream(ask)]
    assert streamed and all(c["model"] == "qwen" for c in streamed if "model" in c)
    assert (await registry.get("mocked/gpt-4o").complete(ask)).text == "hi"
    assert registry.get("local/llama-3") is llama
    assert [m["id"] for m in registry.list()] == ["c", "local/*", "mocked/*"]  # matches are not listed
    with pytest.raises(ModelNotFound, match=r"known: c, local/\*, mocked/\*"):
        registry.get("gpt-5")
    await registry.aclose()


async def test_a_litellm_proxy_config_says_what_it_ignores_and_which_credentials_are_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    config = {
        "model_list": [
            MOCK,
            {"model_name": "claude", "litellm_params": {"model": "anthropic/claude-3-5-sonnet"}},
            {"model_name": "gpt", "litellm_params": {"model": "openai/gpt-4o", "api_key": "os.environ/OPENAI_KEY"}},
        ],
        "general_settings": {"master_key": "sk-1234"},
        "guardrails": [{"guardrail_name": "g"}],
    }
    config["model_list"].append(  # type: ignore[attr-defined]
        {"model_name": "mini", "litellm_params": {"model": "openai/gpt-4o-mini", "api_key": "os.environ/UNSET_KEY"}}
    )
    registry = ModelRegistry.from_config(config, env={"OPENAI_KEY": "sk-x"})
    first, *rest = registry.notes
    assert first.startswith("models file: model_list used; ignored: general_settings, guardrails (")
    assert "FACTSENTRY_KEYS_FILE" in first and "FACTSENTRY_POLICY_FILE" in first
    # What litellm judges (a provider's own key) is found when its Router is built, after the gateway listens.
    assert rest == ["model mini: no UNSET_KEY — its requests will fail until it is set"]
    await registry.warm_up()
    assert registry.notes[1:] == [
        "model mini: no UNSET_KEY — its requests will fail until it is set",
        "model claude: no ANTHROPIC_API_KEY — its requests will fail until it is set",
    ]
    assert set(registry.configured) == {"c", "claude", "gpt", "mini"}  # served all the same
    plain = ModelRegistry.from_config({"model_list": [MOCK]}, env={})
    assert plain.notes == []


async def test_warm_up_runs_litellm_once_without_calling_any_upstream() -> None:
    connections = 0

    async def count(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        writer.close()

    server = await asyncio.start_server(count, "127.0.0.1", 0)
    base = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}"
    remote = {  # a provider litellm calls over HTTP: the warm-up must not reach it
        "model_name": "remote",
        "litellm_params": {"model": "azure/gpt-4o", "api_base": base, "api_key": "k", "api_version": "2024-02-01"},
    }
    lean = {"model_name": "lean", "litellm_params": {"model": "openai/llama", "api_base": base + "/v1"}}
    try:
        registry = ModelRegistry.from_config({"model_list": [lean, remote, MOCK]}, env={})
        assert await registry.warm_up() == "remote"
        assert connections == 0
        completion = await registry.get("c").complete({"messages": [{"role": "user", "content": "x"}]})
        assert completion.text == "hi"
        await registry.aclose()
    finally:
        server.close()
        await server.wait_closed()


async def test_warm_up_has_nothing_to_do_without_litellm_models() -> None:
    registry = ModelRegistry.from_config({"model_list": [VLLM]}, env={})
    assert await registry.warm_up() is None
