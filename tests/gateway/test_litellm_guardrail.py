"""factsentry as a guardrail of a real LiteLLM proxy (``litellm --config``, the ``litellm[proxy]`` extra),
through LiteLLM's Generic Guardrail API, driven with the official ``openai`` client.

The LiteLLM proxy's upstream is the mock model (the edge we don't own); factsentry runs as a gateway
plus one worker on the embedded broker and valkey.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
import yaml

from factsentry.embedded import free_port
from tests.gateway.conftest import FAITHFUL, MERGED, StartStack

LITELLM = Path(sys.executable).parent / "litellm"
# The provider models LiteLLM names are the operator's: in the policy file, so they are label values of their
# own (a name the operator never configured is counted as "other", tests/gateway/test_labels.py).
POLICIES = {
    "default": {"mode": "block", "threshold": 0.75, "timeout_s": 120},
    "models": {"mock-block": {"mode": "block"}, "mock-revise": {"mode": "revise"}},
}


def litellm_config(upstream_url: str, factsentry_url: str, dead_url: str) -> dict[str, Any]:
    def model(name: str, upstream_model: str) -> dict[str, Any]:
        return {
            "model_name": name,
            "litellm_params": {"model": f"openai/{upstream_model}", "api_base": upstream_url, "api_key": "k"},
        }

    def guardrail(name: str, api_base: str, **extra: Any) -> dict[str, Any]:
        params = {
            "guardrail": "generic_guardrail_api",
            "mode": "post_call",
            "api_base": api_base,
            "streaming_transform_mode": "incremental_diff",
            "streaming_end_of_stream_only": True,
            "timeout": 120,
            **extra,
        }
        return {"guardrail_name": name, "litellm_params": params}

    return {
        "model_list": [model("bio", "mock-block"), model("bio-revise", "mock-revise")],
        "guardrails": [
            guardrail("factsentry", factsentry_url, default_on=True),
            # factsentry unreachable: once configured to fail open, once left at LiteLLM's fail-closed default
            guardrail("down-open", dead_url, default_on=False, unreachable_fallback="fail_open"),
            guardrail("down-closed", dead_url, default_on=False),
        ],
    }


def asker(client: openai.AsyncOpenAI) -> Any:
    """``ask(conversation, model="bio", **extra)``: one chat completion through the LiteLLM proxy."""

    def ask(conv: Any, model: str = "bio", **extra: Any) -> Any:
        return client.chat.completions.create(
            model=model, messages=[{"role": "user", "content": conv.question}], **extra
        )

    return ask


@contextlib.asynccontextmanager
async def litellm_proxy(config: dict[str, Any], workdir: Path) -> AsyncIterator[openai.AsyncOpenAI]:
    """``litellm --config`` on a free port until the block ends; an OpenAI client for it."""
    assert LITELLM.exists(), "the litellm CLI comes with the dev extra (litellm[proxy])"
    port, master = free_port(), "sk-" + secrets.token_hex(16)
    path = workdir / "litellm.yaml"
    path.write_text(yaml.safe_dump(config))
    env = {
        **os.environ,
        "LITELLM_MASTER_KEY": master,
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",  # no download of the price map
        "LITELLM_MODE": "PRODUCTION",  # no .env loading
    }
    log = (workdir / "litellm.log").open("wb")
    process = await asyncio.create_subprocess_exec(
        str(LITELLM), "--config", str(path), "--host", "127.0.0.1", "--port", str(port),
        cwd=workdir, env=env, stdout=log, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(timeout=2) as http:
            for _ in range(1200):
                if process.returncode is not None:
                    pytest.fail(f"litellm exited: {(workdir / 'litellm.log').read_text()[-2000:]}")
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get(base + "/health/liveliness")).status_code == 200:
                        break
                await asyncio.sleep(0.1)
            else:
                pytest.fail("litellm did not start within 120 s")
        client = openai.AsyncOpenAI(base_url=base, api_key=master, max_retries=0, timeout=180)
        yield client
        await client.close()
    finally:
        process.terminate()
        try:
            await asyncio.wait_for(process.wait(), 15)
        except TimeoutError:
            process.kill()
            await process.wait()
        log.close()


async def test_litellm_proxy_blocks_revises_and_passes_by_the_factsentry_policy(
    start_stack: StartStack, upstream_url: str, tmp_path: Path
) -> None:
    gw = await start_stack(POLICIES)
    # What factsentry itself makes of the merged biography: the revision LiteLLM must deliver.
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=180) as http:
        direct = (await http.post("/v1/factcheck", json={"text": MERGED.answer})).json()
    assert direct["dfactscore"] < 0.75 and direct["revision"]["text"]
    config = litellm_config(upstream_url, gw.base_url, f"http://127.0.0.1:{free_port()}")

    async with litellm_proxy(config, tmp_path) as client:
        ask = asker(client)

        # block: the merged biography is refused by LiteLLM with factsentry's reason; the faithful one passes
        with pytest.raises(openai.BadRequestError) as blocked:
            await ask(MERGED)
        assert "fact-check" in str(blocked.value) and "D-FActScore" in str(blocked.value)
        passed = await ask(FAITHFUL)
        assert passed.choices[0].message.content == FAITHFUL.answer

        # streaming: everything is held until the one end-of-stream check; blocked means nothing arrives
        with pytest.raises(openai.BadRequestError):
            stream = await ask(MERGED, stream=True)
            async for _ in stream:
                pytest.fail("a blocked answer must not stream any text")
        stream = await ask(FAITHFUL, stream=True)
        pieces = [chunk.choices[0].delta.content or "" async for chunk in stream if chunk.choices]
        assert "".join(pieces) == FAITHFUL.answer

        # revise (the policy of the upstream model mock-revise): LiteLLM delivers factsentry's revision
        revised = await ask(MERGED, model="bio-revise")
        assert revised.choices[0].message.content == direct["revision"]["text"]
        assert revised.choices[0].message.content != MERGED.answer

        # factsentry unreachable: the LiteLLM guardrail's own setting decides
        opened = await ask(FAITHFUL, extra_body={"guardrails": ["down-open"]})
        assert opened.choices[0].message.content == FAITHFUL.answer
        with pytest.raises(openai.InternalServerError) as closed:
            await ask(FAITHFUL, extra_body={"guardrails": ["down-closed"]})
        assert "Guardrail" in str(closed.value)

    # every guardrail call is on factsentry's books under its own source
    counted = {
        (s.labels["outcome"], s.labels["model"]): s.value
        for m in gw.gateway.registry.collect()
        if m.name == "factsentry_gateway_requests"
        for s in m.samples
        if s.name.endswith("_total") and s.labels["source"] == "guardrail_api"
    }
    assert counted[("block", "mock-block")] == 2
    assert counted[("pass", "mock-block")] >= 2
    assert counted[("revise", "mock-revise")] == 1


async def test_the_python_guardrail_class_applies_the_same_policy(
    start_stack: StartStack, upstream_url: str, tmp_path: Path
) -> None:
    gw = await start_stack(POLICIES)
    config = litellm_config(upstream_url, gw.base_url, f"http://127.0.0.1:{free_port()}")
    for guardrail in config["guardrails"]:  # the same three guardrails, loaded as the package's class
        params = guardrail["litellm_params"]
        params["guardrail"] = "factsentry.litellm_guardrail.FactSentryGuardrail"
        del params["streaming_transform_mode"], params["streaming_end_of_stream_only"]  # the class holds streams

    async with litellm_proxy(config, tmp_path) as client:
        ask = asker(client)

        with pytest.raises(openai.BadRequestError) as blocked:
            await ask(MERGED)
        assert "D-FActScore" in str(blocked.value)
        assert (await ask(FAITHFUL)).choices[0].message.content == FAITHFUL.answer
        with pytest.raises(openai.BadRequestError):
            stream = await ask(MERGED, stream=True)
            async for _ in stream:
                pytest.fail("a blocked answer must not stream any text")
        revised = await ask(MERGED, model="bio-revise")
        assert revised.choices[0].message.content not in (None, "", MERGED.answer)
        opened = await ask(FAITHFUL, extra_body={"guardrails": ["down-open"]})
        assert opened.choices[0].message.content == FAITHFUL.answer
        with pytest.raises(openai.APIStatusError) as closed:
            await ask(FAITHFUL, extra_body={"guardrails": ["down-closed"]})
        assert closed.value.status_code == 503 and "unreachable" in str(closed.value)


# LiteLLM aliases (issue 31 item 7): a team's model_name in LiteLLM, not the provider model, keys the policy.
ALIAS_POLICIES = {
    "default": {"mode": "observe"},
    "models": {
        "support-bot": {"mode": "block", "threshold": 0.75, "timeout_s": 120},
        "gpt-4o-mini": {"mode": "observe"},  # the provider model: what keyed every alias before
    },
}


def alias_config(upstream_url: str, factsentry_url: str) -> dict[str, Any]:
    """Two aliases of one provider model, ``gpt-4o-mini``: ``support-bot`` has a factsentry policy of its own and
    is served by the fake upstream (it answers each question with its conversation's answer), ``faq-bot`` has none
    (so the provider model's applies) and answers with LiteLLM's mock_response, the merged biography."""

    def alias(name: str, **served_by: str) -> dict[str, Any]:
        return {"model_name": name, "litellm_params": {"model": "openai/gpt-4o-mini", "api_key": "k", **served_by}}

    guardrail = {
        "guardrail": "factsentry.litellm_guardrail.FactSentryGuardrail",
        "mode": "post_call",
        "default_on": True,
        "api_base": factsentry_url,
        "timeout": 120,
    }
    return {
        "model_list": [alias("support-bot", api_base=upstream_url), alias("faq-bot", mock_response=MERGED.answer)],
        "guardrails": [{"guardrail_name": "factsentry", "litellm_params": guardrail}],
    }


async def test_the_litellm_alias_keys_the_policy_and_the_client_gets_the_verdict(
    start_stack: StartStack, upstream_url: str, tmp_path: Path
) -> None:
    gw = await start_stack(ALIAS_POLICIES)
    async with litellm_proxy(alias_config(upstream_url, gw.base_url), tmp_path) as client:

        async def ask(model: str, conv: Any) -> Any:
            question = [{"role": "user", "content": conv.question}]
            return await client.chat.completions.with_raw_response.create(model=model, messages=question)

        # support-bot's own policy (block) decides, not gpt-4o-mini's (observe): the merged biography is refused
        with pytest.raises(openai.BadRequestError) as refused:
            await ask("support-bot", MERGED)
        passed = await ask("support-bot", FAITHFUL)
        fallback = await ask("faq-bot", MERGED)  # no policy of its own: gpt-4o-mini's observe

    # The client of LiteLLM gets the verdict: its request id, scores, status and action, blocked or not.
    blocked = refused.value.response.headers
    assert blocked["x-factsentry-action"] == "block" and blocked["x-factsentry-status"] == "checked"
    assert float(blocked["x-factsentry-dfactscore"]) < 0.75
    assert passed.parse().choices[0].message.content == FAITHFUL.answer
    assert passed.headers["x-factsentry-action"] == "pass"
    assert float(passed.headers["x-factsentry-dfactscore"]) >= 0.75
    assert fallback.parse().choices[0].message.content == MERGED.answer
    assert fallback.headers["x-factsentry-request-id"].startswith("fs-")
    assert "x-factsentry-dfactscore" not in fallback.headers  # observe: nothing waits for the verdict

    # The ids are the verdicts' own: stored under the alias, with the scores the client was given.
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=30) as http:
        for headers in (blocked, passed.headers):
            stored = (await http.get(f"/v1/results/{headers['x-factsentry-request-id']}")).json()
            assert stored["model"] == "support-bot"
            assert f"{stored['check']['dfactscore']:.4f}" == headers["x-factsentry-dfactscore"]
            assert stored["decision"]["action"] == headers["x-factsentry-action"]

    counted = {
        (s.labels["model"], s.labels["mode"], s.labels["outcome"]): s.value
        for m in gw.gateway.registry.collect()
        if m.name == "factsentry_gateway_requests"
        for s in m.samples
        if s.name.endswith("_total") and s.labels["source"] == "guardrail_api"
    }
    assert counted == {
        ("support-bot", "block", "block"): 1,
        ("support-bot", "block", "pass"): 1,
        ("gpt-4o-mini", "observe", "ok"): 1,
    }
    assert gw.gateway.registry.get_sample_value("factsentry_gateway_blocked_total", {"model": "support-bot"}) == 1
