"""The Generic Guardrail API endpoint on its own: its contract, its keys and its fail-safe paths."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from gateway.auth import add_key
from tests.gateway.conftest import FAITHFUL, MERGED, GatewayFactory, StartStack, released_unchecked

PATH = "/beta/litellm_basic_guardrail_api"


def call(texts: list[str] | None, input_type: str = "response", **extra: Any) -> dict[str, Any]:
    """What LiteLLM sends (the fields its generic_guardrail_api hook fills in)."""
    return {
        "input_type": input_type,
        "texts": texts,
        "model": "gpt-4o-mini",
        "litellm_call_id": "call-1",
        "structured_messages": None,
        "request_data": {"user_api_key_hash": "x"},
        **extra,
    }


async def test_prompts_and_observe_pass_at_once_and_bad_calls_get_openai_errors(
    start_gateway: GatewayFactory,
) -> None:
    gw = await start_gateway({"default": {"mode": "observe"}})
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=30) as http:
        prompt = await http.post(PATH, json=call(["Who was Dick Hanley?"], input_type="request"))
        observed = await http.post(PATH, json=call([MERGED.answer]))
        blank = await http.post(PATH, json=call(["  "]))
        not_list = await http.post(PATH, json={**call(None), "texts": "one text"})
        too_many = await http.post(PATH, json=call(["a"] * 17))
        bad_params = await http.post(PATH, json=call(["a"], additional_provider_specific_params=[1]))
        # a call that does not say what it carries is refused, never passed unchecked (it was 'NONE')
        no_type = await http.post(PATH, json={k: v for k, v in call([MERGED.answer]).items() if k != "input_type"})
        odd_type = await http.post(PATH, json=call([MERGED.answer], input_type="answer"))
    assert prompt.json() == {"action": "NONE"}
    assert blank.json() == {"action": "NONE"}
    assert observed.json()["action"] == "NONE"
    (request_id,) = observed.json()["factsentry"]["request_ids"]
    assert request_id == observed.headers["x-request-id"]  # published: its verdict will be under this id
    for bad, code in ((not_list, "invalid_type"), (too_many, "too_many_texts")):
        assert bad.status_code == 400 and bad.json()["error"]["code"] == code
    assert bad_params.status_code == 400
    assert bad_params.json()["error"]["param"] == "additional_provider_specific_params"
    for refused in (no_type, odd_type):
        assert refused.status_code == 400 and refused.json()["error"]["code"] == "invalid_input_type"
        assert refused.json()["error"]["param"] == "input_type"


async def test_no_verdict_blocks_unless_the_operator_opened_it(start_gateway: GatewayFactory) -> None:
    """No worker runs: every wait times out, and the policy's on_timeout decides."""
    closed = await start_gateway({"default": {"mode": "block", "timeout_s": 0.3}})
    opened = await start_gateway({"default": {"mode": "block", "timeout_s": 0.3, "on_timeout": "open"}})
    async with httpx.AsyncClient(timeout=30) as http:
        refused = (await http.post(closed.base_url + PATH, json=call([FAITHFUL.answer]))).json()
        released = (await http.post(opened.base_url + PATH, json=call([FAITHFUL.answer]))).json()
    assert refused["action"] == "BLOCKED" and "could not be fact-checked" in refused["blocked_reason"]
    assert refused["factsentry"][0]["status"] == "timeout"
    assert released["action"] == "NONE"
    assert (released_unchecked(closed), released_unchecked(opened)) == (0, 1)


async def test_keys_by_x_api_key_and_stricter_params_only(start_stack: StartStack, tmp_path: Path) -> None:
    path = tmp_path / "keys.yaml"
    key = add_key(path, "acme")[0]
    no_check = add_key(path, "beta", factcheck=False)[0]
    gw = await start_stack({"default": {"mode": "annotate", "threshold": 0.75, "timeout_s": 120}}, keys_file=path)
    block = {"additional_provider_specific_params": {"policy": "block"}}
    observe = {"additional_provider_specific_params": {"policy": "observe"}}
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=180) as http:
        anonymous = await http.post(PATH, json=call([MERGED.answer]))
        forbidden = await http.post(PATH, json=call([MERGED.answer]), headers={"x-api-key": no_check})
        looser = await http.post(PATH, json=call([MERGED.answer], **observe), headers={"x-api-key": key})
        both = call([MERGED.answer, FAITHFUL.answer], **block)
        two = await http.post(PATH, json=both, headers={"x-api-key": key})
    assert anonymous.status_code == 401
    assert forbidden.status_code == 403 and forbidden.json()["error"]["code"] == "factcheck_not_allowed"
    assert looser.status_code == 400 and looser.json()["error"]["code"] == "policy_override_not_allowed"
    assert looser.json()["error"]["param"] == "additional_provider_specific_params.policy"
    assert "x-factsentry" not in looser.json()["error"]["message"]
    # two choices, one merged: the answer is blocked as a whole, each choice has its verdict
    verdict = two.json()
    assert verdict["action"] == "BLOCKED"
    first, second = verdict["factsentry"]
    assert first["flagged"] is True and second["flagged"] is False
    assert first["request_id"].endswith(".0") and second["request_id"].endswith(".1")
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=30) as http:
        stored = await http.get(first["result_url"], headers={"authorization": f"Bearer {key}"})
    assert stored.status_code == 200 and stored.json()["source"] == "guardrail_api"
    assert stored.json()["tenant"] == "acme"


async def test_the_litellm_alias_decides_when_the_operator_names_it(start_gateway: GatewayFactory) -> None:
    """``model_group`` (LiteLLM's alias, sent by factsentry.litellm_guardrail) keys the policy and the labels when
    the policy file names it; an alias it does not name falls back to the provider model (``model``)."""
    policies = {"default": {"mode": "observe"}, "models": {"support-bot": {"mode": "block", "timeout_s": 0.3}}}
    gw = await start_gateway(policies)  # no worker: a block waits out its timeout and refuses
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=30) as http:
        aliased = (await http.post(PATH, json=call([FAITHFUL.answer], model_group="support-bot"))).json()
        unknown = (await http.post(PATH, json=call([FAITHFUL.answer], model_group="team-x"))).json()
        bad = await http.post(PATH, json=call([FAITHFUL.answer], model_group=["support-bot"]))
    assert aliased["action"] == "BLOCKED"
    assert aliased["headers"] == {
        "x-factsentry-status": "timeout",
        "x-factsentry-action": "block",
        "x-factsentry-request-id": aliased["factsentry"][0]["request_id"],
    }
    assert unknown["action"] == "NONE"  # gpt-4o-mini: the default policy, observe
    assert unknown["headers"] == {"x-factsentry-request-id": unknown["factsentry"]["request_ids"][0]}
    assert bad.status_code == 400 and bad.json()["error"]["param"] == "model_group"
    requests = "factsentry_gateway_requests_total"
    labels = {"source": "guardrail_api", "model": "support-bot", "mode": "block", "outcome": "timeout"}
    assert gw.gateway.registry.get_sample_value(requests, labels) == 1
    labels = {"source": "guardrail_api", "model": "other", "mode": "observe", "outcome": "ok"}
    assert gw.gateway.registry.get_sample_value(requests, labels) == 1
