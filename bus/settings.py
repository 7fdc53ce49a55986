"""Connection settings both the gateway and the workers read (env prefix ``FACTSENTRY_``).

Redis: a password and TLS go in the URL (``rediss://:password@host:6380/0``) or in the settings below;
``redis_options()`` gives the keyword arguments every Redis client of the project is built with.
Kafka: ``kafka_security_protocol`` with SASL credentials and TLS files; ``kafka_options()`` gives the
keyword arguments of every aiokafka producer, consumer and admin client.
"""

from __future__ import annotations

import ssl
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlparse

from pydantic import Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class BusSettings(BaseSettings):
    """Where the broker and Redis are. Subclassed by each process's own settings class."""

    model_config = SettingsConfigDict(env_prefix="FACTSENTRY_", extra="ignore")

    kafka_bootstrap: str = Field(default="127.0.0.1:9092", description="Kafka bootstrap servers, comma-separated")
    kafka_client_id: str = "factsentry"
    kafka_security_protocol: Literal["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"] = "PLAINTEXT"
    kafka_sasl_mechanism: Literal["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"] = "PLAIN"
    kafka_sasl_username: str | None = None
    kafka_sasl_password: SecretStr | None = None
    kafka_ssl_cafile: Path | None = Field(default=None, description="CA bundle that signed the brokers' certificates")
    kafka_ssl_certfile: Path | None = Field(default=None, description="client certificate (mutual TLS)")
    kafka_ssl_keyfile: Path | None = Field(default=None, description="client key (mutual TLS)")
    generations_topic: str = "factsentry.generations.v1"
    results_topic: str = "factsentry.results.v1"
    redis_url: str = Field(default="redis://127.0.0.1:6379/0", description="redis:// or rediss:// (TLS)")
    redis_password: SecretStr | None = Field(default=None, description="used when the URL carries none")
    redis_ssl_ca_certs: Path | None = Field(default=None, description="CA bundle for a rediss:// server")
    redis_ssl_certfile: Path | None = Field(default=None, description="client certificate (mutual TLS)")
    redis_ssl_keyfile: Path | None = Field(default=None, description="client key (mutual TLS)")
    redis_ssl_check_hostname: bool = True
    redis_prefix: str = "factsentry"
    result_ttl_s: int = Field(default=86_400, gt=0)

    @model_validator(mode="after")
    def _security_is_complete(self) -> BusSettings:
        if self.kafka_security_protocol.startswith("SASL") and not (
            self.kafka_sasl_username and self.kafka_sasl_password
        ):
            raise ValueError(
                f"kafka_security_protocol {self.kafka_security_protocol} needs FACTSENTRY_KAFKA_SASL_USERNAME "
                "and FACTSENTRY_KAFKA_SASL_PASSWORD"
            )
        for name in (
            "kafka_ssl_cafile",
            "kafka_ssl_certfile",
            "kafka_ssl_keyfile",
            "redis_ssl_ca_certs",
            "redis_ssl_certfile",
            "redis_ssl_keyfile",
        ):
            path = getattr(self, name)
            if path is not None and not Path(path).is_file():
                raise ValueError(f"{name}: no such file {path}")
        if (self.kafka_ssl_certfile is None) != (self.kafka_ssl_keyfile is None):
            raise ValueError("kafka_ssl_certfile and kafka_ssl_keyfile go together")
        if (self.redis_ssl_certfile is None) != (self.redis_ssl_keyfile is None):
            raise ValueError("redis_ssl_certfile and redis_ssl_keyfile go together")
        return self

    def redis_options(self) -> dict[str, Any]:
        """Keyword arguments for ``Redis.from_url(self.redis_url, ...)`` (sync or asyncio) and pools."""
        options: dict[str, Any] = {}
        url = urlparse(self.redis_url)
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
        context = ssl.create_default_context(cafile=str(self.kafka_ssl_cafile) if self.kafka_ssl_cafile else None)
        if self.kafka_ssl_certfile is not None:
            context.load_cert_chain(str(self.kafka_ssl_certfile), str(self.kafka_ssl_keyfile))
        return context
