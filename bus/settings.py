"""Connection settings both the gateway and the workers read (env prefix ``FACTSENTRY_``).

Redis: a password and TLS go in the URL (``rediss://:password@host:6380/0``) or in the settings below;
``redis_options()`` gives the keyword arguments every Redis client of the project is built with.
Kafka: ``kafka_security_protocol`` with SASL credentials and TLS files; ``kafka_options()`` gives the
keyword arguments of every aiokafka producer, consumer and admin client.

Settings that cannot work together stop the process at startup: SASL without its credentials, a TLS
file that does not exist, a client certificate without its key, TLS files for a connection that does
not use TLS (they would be ignored and the connection would go out in clear text).
"""

from __future__ import annotations

import ssl
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

from aiokafka.helpers import create_ssl_context
from pydantic import Field, SecretStr, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

_TLS_FILES = (
    "kafka_ssl_cafile",
    "kafka_ssl_certfile",
    "kafka_ssl_keyfile",
    "redis_ssl_ca_certs",
    "redis_ssl_certfile",
    "redis_ssl_keyfile",
)


def redacted_url(url: str) -> str:
    """``url`` without its credentials, fit for a log line or an error message.

    >>> redacted_url("rediss://:s3cret@cache:6380/0")
    'rediss://cache:6380/0'
    """
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


class BusSettings(BaseSettings):
    """Where the broker and Redis are, and how to authenticate to them. Subclassed by each process's settings."""

    model_config = SettingsConfigDict(env_prefix="FACTSENTRY_", extra="ignore")

    kafka_bootstrap: str = Field(default="127.0.0.1:9092", description="Kafka bootstrap servers, comma-separated")
    kafka_client_id: str = "factsentry"
    kafka_compression: Literal["none", "gzip"] = Field(
        default="none",
        description="producers' compression (the embedded stack sets gzip: its broker keeps every record)",
    )
    kafka_rotate: bool = Field(
        default=False,
        description="write and read topics as generations T.g1, T.g2, … (bus/rotation.py): the embedded stack sets it"
        " for its own broker, which keeps every record; a real Kafka keeps its own retention",
    )
    kafka_security_protocol: Literal["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"] = Field(
        default="PLAINTEXT", description="SSL and SASL_SSL encrypt; SASL_* authenticate with a username and password"
    )
    kafka_sasl_mechanism: Literal["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"] = Field(
        default="PLAIN", description="how SASL_* sends the credentials"
    )
    kafka_sasl_password: SecretStr | None = Field(default=None, description="SASL password (required by SASL_*)")
    kafka_sasl_username: str | None = Field(
        default=None, validate_default=True, description="SASL user (required by SASL_*)"
    )
    kafka_ssl_cafile: Path | None = Field(
        default=None, description="CA bundle that signed the brokers' certificates; the system's CAs if unset"
    )
    kafka_ssl_certfile: Path | None = Field(default=None, description="client certificate (mutual TLS)")
    kafka_ssl_keyfile: Path | None = Field(default=None, validate_default=True, description="client key (mutual TLS)")
    generations_topic: str = "factsentry.generations.v1"
    results_topic: str = "factsentry.results.v1"
    redis_url: str = Field(default="redis://127.0.0.1:6379/0", description="redis:// or rediss:// (TLS)")
    redis_password: SecretStr | None = Field(default=None, description="used when the URL carries none")
    redis_ssl_ca_certs: Path | None = Field(
        default=None, description="CA bundle that signed a rediss:// server's certificate; the system's CAs if unset"
    )
    redis_ssl_certfile: Path | None = Field(default=None, description="client certificate (mutual TLS)")
    redis_ssl_keyfile: Path | None = Field(default=None, validate_default=True, description="client key (mutual TLS)")
    redis_ssl_check_hostname: bool = Field(
        default=True, description="the server's certificate must name the URL's host"
    )
    redis_prefix: str = "factsentry"
    redis_health_check_s: float = Field(
        default=2.0, ge=0, description="a pooled Redis connection idle this long is pinged before use (0: never)"
    )
    redis_retries: int = Field(
        default=3, ge=0, le=20, description="reconnect-and-retry attempts of a Redis command after a connection error"
    )
    result_ttl_s: int = Field(
        default=86_400, gt=0, description="how long a verdict stays readable (/v1/results, the review page)"
    )
    result_compression: bool = Field(
        default=True,
        description="store verdicts zlib-compressed (bus/results.py); false while gateways from before compression"
        " still read them (a rolling upgrade that starts with the workers)",
    )

    # Each check sits on a field, not on the model, so that an error message quotes that field's value and
    # never the whole input (which holds the passwords). A field sees only the fields declared before it.

    @field_validator(*_TLS_FILES)
    @classmethod
    def _tls_file(cls, value: Path | None, info: ValidationInfo) -> Path | None:
        if value is None:
            return value
        if not value.is_file():
            raise ValueError(f"no such file {value}")
        if info.field_name and info.field_name.startswith("kafka"):
            protocol = info.data.get("kafka_security_protocol")
            if protocol is not None and protocol not in ("SSL", "SASL_SSL"):
                raise ValueError(
                    f"FACTSENTRY_KAFKA_SECURITY_PROTOCOL={protocol} does not use TLS, so this file would be"
                    " ignored: choose SSL or SASL_SSL"
                )
        elif "redis_url" in info.data and urlsplit(info.data["redis_url"]).scheme != "rediss":
            raise ValueError(
                f"FACTSENTRY_REDIS_URL={redacted_url(info.data['redis_url'])} does not use TLS, so this file"
                " would be ignored: write rediss://"
            )
        return value

    @field_validator("kafka_ssl_keyfile", "redis_ssl_keyfile")
    @classmethod
    def _key_with_certificate(cls, value: Path | None, info: ValidationInfo) -> Path | None:
        certfile = str(info.field_name).replace("keyfile", "certfile")
        if certfile in info.data and (info.data[certfile] is None) != (value is None):
            raise ValueError(f"FACTSENTRY_{certfile.upper()} and FACTSENTRY_{str(info.field_name).upper()} go together")
        return value

    @field_validator("kafka_sasl_username")
    @classmethod
    def _sasl_credentials(cls, value: str | None, info: ValidationInfo) -> str | None:
        protocol = info.data.get("kafka_security_protocol")
        if protocol and protocol.startswith("SASL") and not (value and info.data.get("kafka_sasl_password")):
            raise ValueError(
                f"FACTSENTRY_KAFKA_SECURITY_PROTOCOL={protocol} needs FACTSENTRY_KAFKA_SASL_USERNAME "
                "and FACTSENTRY_KAFKA_SASL_PASSWORD"
            )
        return value

    def redis_options(self) -> dict[str, Any]:
        """Keyword arguments for ``Redis.from_url(self.redis_url, ...)`` (sync or asyncio) and its pools.

        A password in the URL wins over ``redis_password``; the TLS options go only with ``rediss://``.

        Example::

            pool = redis.asyncio.BlockingConnectionPool.from_url(settings.redis_url, **settings.redis_options())
        """
        options: dict[str, Any] = {}
        url = urlsplit(self.redis_url)
        if self.redis_password is not None and not url.password:
            options["password"] = self.redis_password.get_secret_value()
        if url.scheme == "rediss":
            options["ssl_check_hostname"] = self.redis_ssl_check_hostname
            if self.redis_ssl_ca_certs is not None:
                options["ssl_ca_certs"] = str(self.redis_ssl_ca_certs)
            if self.redis_ssl_certfile is not None:
                options["ssl_certfile"] = str(self.redis_ssl_certfile)
                options["ssl_keyfile"] = str(self.redis_ssl_keyfile)
        return options

    def redis_pool_options(self, *, retries: int | None = None) -> dict[str, Any]:
        """Keyword arguments of every asyncio Redis pool of the project (the gateway's and the workers'):
        ``redis_options()`` (password, TLS) and what makes a pool recover from a server restart within seconds:
        an idle connection is pinged before use (``redis_health_check_s``) and a command that meets a closed or
        stale connection reconnects and is retried (``retries``, by default ``redis_retries``, with a jittered
        backoff capped at 0.5 s). ``retries=0`` for a connection that must notice an outage itself (the verdict
        listener's subscription: a silent reconnect would hide the notifications lost in between).

        Example::

            redis = redis.asyncio.Redis.from_url(settings.redis_url, **settings.redis_pool_options())
        """
        from redis.asyncio.retry import Retry
        from redis.backoff import ExponentialWithJitterBackoff, NoBackoff
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import TimeoutError as RedisTimeoutError

        count = self.redis_retries if retries is None else retries
        backoff = ExponentialWithJitterBackoff(base=0.05, cap=0.5) if count else NoBackoff()
        return {
            **self.redis_options(),
            "health_check_interval": self.redis_health_check_s,
            "retry": Retry(backoff, count, supported_errors=(RedisConnectionError, RedisTimeoutError)),
            "socket_keepalive": True,
        }

    def kafka_options(self) -> dict[str, Any]:
        """Keyword arguments of every aiokafka client: the security protocol, SASL and TLS."""
        protocol = self.kafka_security_protocol
        options: dict[str, Any] = {"security_protocol": protocol}
        if protocol.startswith("SASL"):
            options["sasl_mechanism"] = self.kafka_sasl_mechanism
            options["sasl_plain_username"] = self.kafka_sasl_username
            options["sasl_plain_password"] = (
                self.kafka_sasl_password.get_secret_value() if self.kafka_sasl_password else None
            )
        if protocol in ("SSL", "SASL_SSL"):
            options["ssl_context"] = self.kafka_ssl_context()
        return options

    def kafka_ssl_context(self) -> ssl.SSLContext:
        """A client context that verifies the brokers against ``kafka_ssl_cafile`` (or the system's CAs)."""
        context: ssl.SSLContext = create_ssl_context(
            cafile=self.kafka_ssl_cafile, certfile=self.kafka_ssl_certfile, keyfile=self.kafka_ssl_keyfile
        )
        return context
