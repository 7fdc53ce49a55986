"""The models file (litellm model_list) and which upstream path each model takes."""

from __future__ import annotations

from pathlib import Path

import pytest

from gateway.errors import ConfigError, ModelNotFound
from gateway.upstream import HttpUpstream, LiteLLMUpstream, ModelRegistry

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
