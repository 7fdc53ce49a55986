"""API keys: the official ``openai`` client against a real gateway with a keys file — who gets in, which
models and headers a tenant may use, whose verdicts it may read, and where ``/metrics`` is served."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import openai
import pytest
import yaml

from factsentry.embedded import free_port, wait_until_ready
from gateway import auth
from gateway.auth import ApiKey, KeyRing, add_key, check_exposure, hash_key, is_loopback, load_keys
from gateway.errors import ConfigError, Unauthorized
from tests.gateway.conftest import FAITHFUL, GatewayFactory, StartStack, model_list

GATEWAY = [sys.executable, "-m", "factsentry", "gateway"]


@pytest.fixture
def keys(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A keys file with three tenants: ``acme`` (every model), ``beta`` (only mock-l*, no factcheck,
    headers ignored) and ``gamma`` (mock-lean, may loosen the policy)."""
    path = tmp_path / "keys.yaml"
    made = {
        "acme": add_key(path, "acme", name="prod")[0],
        "beta": add_key(path, "beta", models=["mock-l*"], policy_override="none", factcheck=False)[0],
        "gamma": add_key(path, "gamma", models=["mock-lean"], policy_override="any")[0],
    }
    return path, made


def client(base_url: str, key: str) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(base_url=base_url + "/v1", api_key=key, max_retries=0, timeout=120)


def hi(model: str = "mock-lean") -> dict[str, object]:
    return {"model": model, "messages": [{"role": "user", "content": "hi"}]}


def test_the_keys_file_keeps_hashes_only_readable_by_its_owner(keys: tuple[Path, dict[str, str]]) -> None:
    path, made = keys
    text = path.read_text()
    assert all(key not in text for key in made.values())
    assert all(hash_key(key) in text for key in made.values())
    assert path.stat().st_mode & 0o777 == 0o600
    loaded = load_keys(path)
    beta = loaded[hash_key(made["beta"])]
    assert (beta.tenant, beta.models, beta.policy_override, beta.factcheck) == ("beta", ("mock-l*",), "none", False)
    assert made["acme"].startswith("fsk-") and len(made["acme"]) > 40
    with pytest.raises(ConfigError, match="already has a key named 'prod'"):
        add_key(path, "acme", name="prod")


def test_bad_keys_files_are_refused_with_the_reason(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump({"keys": [{"tenant": "a", "sha256": "not-a-hash"}]}))
    with pytest.raises(ConfigError, match=r"invalid keys file .*: keys\.0\.sha256: String should match"):
        load_keys(bad)
    bad.write_text(yaml.safe_dump({"keys": [{"tenant": "a", "sha256": "0" * 64, "models": []}]}))
    with pytest.raises(ConfigError, match="omit 'models' to allow every model"):
        load_keys(bad)
    twice = {"tenant": "a", "sha256": "1" * 64}
    bad.write_text(yaml.safe_dump({"keys": [twice, twice]}))
    with pytest.raises(ConfigError, match="listed twice"):
        load_keys(bad)
    with pytest.raises(ConfigError, match="cannot read keys file"):
        load_keys(tmp_path / "missing.yaml")


def test_headers_are_checked_before_anything_else(keys: tuple[Path, dict[str, str]]) -> None:
    path, made = keys
    ring = KeyRing(path)
    assert ring.enabled and len(ring) == 3
    for headers, code in (
        ({}, "missing_api_key"),
        ({"authorization": made["acme"]}, "missing_api_key"),  # no scheme
        ({"authorization": "Basic " + made["acme"]}, "missing_api_key"),
        ({"authorization": "Bearer "}, "missing_api_key"),
        ({"authorization": "Bearer " + made["acme"] + "x"}, "invalid_api_key"),
    ):
        with pytest.raises(Unauthorized) as caught:
            ring.authenticate(headers)
        assert caught.value.code == code
    key = ring.authenticate({"authorization": "bearer  " + made["acme"]})
    assert key is not None and key.label == "acme/prod"
    assert KeyRing(None).authenticate({}) is None  # keys off: everyone is let in


def test_listening_beyond_loopback_needs_keys_or_an_explicit_opt_out(tmp_path: Path) -> None:
    assert all(is_loopback(h) for h in ("127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"))
    assert not any(is_loopback(h) for h in ("0.0.0.0", "::", "10.0.0.5", "gateway.internal"))
    check_exposure("127.0.0.1", None, False)
    check_exposure("0.0.0.0", tmp_path / "keys.yaml", False)
    check_exposure("0.0.0.0", None, True)
    with pytest.raises(ConfigError, match=r"refusing to listen on 0\.0\.0\.0 without API keys"):
        check_exposure("0.0.0.0", None, False)


def test_the_gateway_command_refuses_an_open_public_listener(tmp_path: Path) -> None:
    models = tmp_path / "models.yaml"
    models.write_text(yaml.safe_dump(model_list("http://127.0.0.1:9/v1")))
    env = {k: v for k, v in os.environ.items() if not k.startswith("FACTSENTRY_")}
    done = subprocess.run(
        [*GATEWAY, "--host", "0.0.0.0", "--port", str(free_port()), "--models", str(models)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "refusing to listen on 0.0.0.0 without API keys" in lines[0], done.stderr


async def test_keys_tenants_models_and_policy_limits(
    start_gateway: GatewayFactory, keys: tuple[Path, dict[str, str]]
) -> None:
    path, made = keys
    gw = await start_gateway({"default": {"mode": "annotate", "timeout_s": 0.05}}, keys_file=path)
    acme, beta, gamma = (client(gw.base_url, made[t]) for t in ("acme", "beta", "gamma"))

    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        no_key = await http.post("/v1/chat/completions", json=hi())
    assert no_key.status_code == 401 and no_key.json()["error"]["code"] == "missing_api_key"
    with pytest.raises(openai.AuthenticationError) as wrong:
        await client(gw.base_url, "fsk-guessed").chat.completions.create(**hi())  # type: ignore[call-overload]
    assert wrong.value.code == "invalid_api_key"

    ok = await acme.chat.completions.create(**hi())  # type: ignore[call-overload]
    assert ok.choices[0].message.content
    # beta may use mock-l* only: another model is refused before its existence is revealed.
    with pytest.raises(openai.PermissionDeniedError) as denied:
        await beta.chat.completions.create(**hi("fail-429"))  # type: ignore[call-overload]
    assert denied.value.code == "model_not_allowed"
    with pytest.raises(openai.PermissionDeniedError):
        await beta.chat.completions.create(**hi("no-such-model"))  # type: ignore[call-overload]
    with pytest.raises(openai.NotFoundError):
        await acme.chat.completions.create(**hi("no-such-model"))  # type: ignore[call-overload]
    assert {m.id for m in (await beta.models.list()).data} == {"mock-lean", "mock-litellm"} & {
        m.id for m in (await acme.models.list()).data
    }
    assert len((await acme.models.list()).data) > 2

    # Header limits per tenant: beta's headers are ignored, gamma may loosen, acme only tighten.
    raw = await beta.chat.completions.with_raw_response.create(**hi(), extra_headers={"x-factsentry-policy": "observe"})  # type: ignore[call-overload]
    assert raw.headers.get("x-factsentry-status") == "timeout"  # still annotated: the header was ignored
    raw = await gamma.chat.completions.with_raw_response.create(
        **hi(), extra_headers={"x-factsentry-policy": "observe"}
    )  # type: ignore[call-overload]
    assert "x-factsentry-status" not in raw.headers  # observe: no wait, no verdict headers
    with pytest.raises(openai.BadRequestError) as looser:
        await acme.chat.completions.create(**hi(), extra_headers={"x-factsentry-policy": "observe"})  # type: ignore[call-overload]
    assert looser.value.code == "policy_override_not_allowed"

    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        refused = await http.post(
            "/v1/factcheck", json={"text": "x"}, headers={"authorization": f"Bearer {made['beta']}"}
        )
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "factcheck_not_allowed"
        anonymous = await http.get("/v1/models")
        assert anonymous.status_code == 401 and anonymous.json()["error"]["type"] == "invalid_request_error"
        assert anonymous.headers["x-request-id"]
        assert (await http.get("/healthz")).status_code == 200  # probes need no key
    for c in (acme, beta, gamma):
        await c.close()


async def test_a_verdict_is_readable_by_its_own_tenant_only(
    start_stack: StartStack, keys: tuple[Path, dict[str, str]]
) -> None:
    path, made = keys
    gw = await start_stack({"default": {"mode": "annotate", "timeout_s": 120}}, keys_file=path)
    acme = client(gw.base_url, made["acme"])
    raw = await acme.chat.completions.with_raw_response.create(
        model="mock-lean",
        messages=[{"role": "user", "content": FAITHFUL.question}],
        extra_headers={"x-factsentry-name": FAITHFUL.name},
    )
    request_id = raw.headers["x-request-id"]
    assert raw.headers["x-factsentry-status"] == "checked"
    await acme.close()
    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        own = await http.get(f"/v1/results/{request_id}", headers={"authorization": f"Bearer {made['acme']}"})
        assert own.status_code == 200 and own.json()["tenant"] == "acme"
        other = await http.get(f"/v1/results/{request_id}", headers={"authorization": f"Bearer {made['gamma']}"})
        assert other.status_code == 404 and other.json()["error"]["code"] == "result_not_found"
        unknown = await http.get("/v1/results/fs-nothing", headers={"authorization": f"Bearer {made['gamma']}"})
        assert unknown.json() == other.json() | {"error": unknown.json()["error"]}  # same shape either way
        assert (await http.get(f"/v1/results/{request_id}")).status_code == 401
        checked = await http.post(
            "/v1/factcheck",
            json={"text": FAITHFUL.answer, "name": FAITHFUL.name, "timeout_s": 120},
            headers={"authorization": f"Bearer {made['gamma']}"},
        )
        assert checked.status_code == 200, checked.text
        stored = await gw.gateway.results.get(checked.json()["request_id"])
        assert stored is not None and stored.tenant == "gamma"


async def test_metrics_need_the_token_when_keys_are_on(
    start_gateway: GatewayFactory, keys: tuple[Path, dict[str, str]]
) -> None:
    path, made = keys
    no_token = await start_gateway(None, keys_file=path)
    with_token = await start_gateway(None, keys_file=path, metrics_token="scrape-secret")
    async with httpx.AsyncClient() as http:
        refused = await http.get(no_token.base_url + "/metrics", headers={"authorization": f"Bearer {made['acme']}"})
        assert refused.status_code == 401 and refused.json()["error"]["code"] == "metrics_not_here"
        assert (await http.get(with_token.base_url + "/metrics")).status_code == 401
        wrong = await http.get(with_token.base_url + "/metrics", headers={"authorization": f"Bearer {made['acme']}"})
        assert wrong.status_code == 401
        ok = await http.get(with_token.base_url + "/metrics", headers={"authorization": "Bearer scrape-secret"})
        assert ok.status_code == 200 and "factsentry_gateway_requests_total" in ok.text


async def test_keys_are_added_and_revoked_without_a_restart(
    start_gateway: GatewayFactory, keys: tuple[Path, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(auth, "RELOAD_EVERY_S", 0.05)
    path, made = keys
    gw = await start_gateway(None, keys_file=path)
    late, _ = add_key(path, "delta")

    async def status(key: str) -> int:
        async with httpx.AsyncClient(base_url=gw.base_url) as http:
            return (await http.get("/v1/models", headers={"authorization": f"Bearer {key}"})).status_code

    await asyncio.sleep(0.1)
    os.utime(path, (time.time() + 5, time.time() + 5))  # a new mtime even on a coarse clock
    assert await status(late) == 200
    kept = [k for k in load_keys(path).values() if k.tenant != "acme"]
    auth.write_keys(path, kept)
    os.utime(path, (time.time() + 10, time.time() + 10))
    await asyncio.sleep(0.1)
    assert await status(made["acme"]) == 401
    # A broken edit keeps the keys in force rather than locking everyone out (or letting everyone in).
    path.write_text("keys: [ {tenant: ")
    os.utime(path, (time.time() + 15, time.time() + 15))
    await asyncio.sleep(0.1)
    assert await status(late) == 200
    assert await status(made["acme"]) == 401
    assert await status("fsk-nobody") == 401


async def test_a_separate_metrics_listener_serves_what_the_api_port_refuses(
    tmp_path: Path, keys: tuple[Path, dict[str, str]], kafka_bootstrap: str, redis_url: str, upstream_url: str
) -> None:
    path, made = keys
    models = tmp_path / "models.yaml"
    models.write_text(yaml.safe_dump(model_list(upstream_url)))
    port, metrics_port = free_port(), free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("FACTSENTRY_")}
    env |= {
        "FACTSENTRY_KAFKA_BOOTSTRAP": kafka_bootstrap,
        "FACTSENTRY_REDIS_URL": redis_url,
        "FACTSENTRY_METRICS_PORT": str(metrics_port),
        "FACTSENTRY_GENERATIONS_TOPIC": f"gen-metrics-{port}",
    }
    proc = subprocess.Popen(  # noqa: ASYNC220 - starting it does not block; reading it is done in a thread
        [*GATEWAY, "--host", "0.0.0.0", "--port", str(port), "--models", str(models), "--keys", str(path)],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        # the gateway's own /metrics listener starts before it listens on its API port
        await asyncio.to_thread(wait_until_ready, f"http://127.0.0.1:{port}/healthz", proc)
        async with httpx.AsyncClient() as http:  # the mock upstream runs on this test's event loop
            api = await http.get(f"http://127.0.0.1:{port}/metrics")
            assert api.status_code == 401 and f"port {metrics_port}" in api.json()["error"]["message"]
            scraped = await http.get(f"http://127.0.0.1:{metrics_port}/metrics")
            assert scraped.status_code == 200 and "factsentry_gateway_requests_total" in scraped.text
            answer = await http.post(
                f"http://127.0.0.1:{port}/v1/chat/completions",
                json=hi(),
                headers={"authorization": f"Bearer {made['acme']}"},
                timeout=60,
            )
            assert answer.status_code == 200, answer.text
    finally:
        proc.terminate()
        _, err = await asyncio.to_thread(proc.communicate, timeout=30)
    assert "API keys: on (3 key(s) from" in err  # the startup line (factsentry gateway)


def test_api_key_model_is_strict() -> None:
    key = ApiKey(tenant="t", sha256="a" * 64, models=("gpt-4o*",))
    assert key.allows("gpt-4o-mini") and not key.allows("claude")
    with pytest.raises(ValueError):
        ApiKey(tenant="has space", sha256="a" * 64)
