"""Gateway settings: one class, env prefix ``FACTSENTRY_``, built once at startup."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator

from bus.settings import BusSettings
from schemas.enums import ENGINE_NAMES


class GatewaySettings(BusSettings):
    host: str = "127.0.0.1"
    port: int = Field(default=8080, ge=0, le=65535)
    models_file: Path | None = Field(default=None, description="litellm model_list YAML")
    policy_file: Path | None = Field(default=None, description="policies per model YAML")
    max_body_bytes: int = Field(default=2 * 1024 * 1024, gt=0)
    upstream_timeout_s: float = Field(
        default=60.0, gt=0, description="longest silence of an upstream (per read) before a 504"
    )
    publish_queue_max: int = Field(default=10_000, gt=0)
    block_style: Literal["refusal", "error"] = "refusal"
    refusal_in_content: bool = Field(
        default=False,
        description="a refusal's text also in message.content / delta.content (OpenAI leaves content null)",
    )
    send_revision: bool = Field(
        default=False,
        description="under block, also send the verdict's suggested revision (factsentry.revision) to the client",
    )
    policy_override: Literal["any", "stricter", "none"] = Field(
        default="stricter", description="what x-factsentry-policy/threshold/timeout headers may change"
    )
    publish_queue_max_bytes: int = Field(default=256 * 1024 * 1024, gt=0, description="bytes held for Kafka at most")
    redis_max_connections: int = Field(default=64, ge=2, description="Redis connections per gateway process")
    redis_pool_timeout_s: float = Field(default=5.0, gt=0, description="longest wait for a free Redis connection")
    header_timeout_s: float = Field(
        default=10.0, gt=0, le=3600, description="longest a request's headers may take to arrive (then a 408)"
    )
    body_timeout_s: float = Field(
        default=30.0, gt=0, le=3600, description="longest a request body may take to arrive (then a 408)"
    )
    max_json_depth: int = Field(default=32, ge=4, le=200, description="deepest nesting accepted in a request body")
    max_record_bytes: int = Field(default=4 * 1024 * 1024, gt=0, description="largest Kafka record the broker takes")
    topic_partitions: int = Field(default=4, ge=1, description="partitions of the generations topic if re-created")
    keys_file: Path | None = Field(
        default=None, description="hashed API keys YAML (factsentry keys new); none: no auth"
    )
    allow_unauthenticated: bool = Field(
        default=False, description="serve beyond loopback without API keys (a network boundary guards it)"
    )
    metrics_token: SecretStr | None = Field(default=None, description="bearer token /metrics requires on the main port")
    metrics_port: int = Field(default=0, ge=0, le=65535, description="a separate /metrics listener (0: none)")
    factcheck_engines: str = Field(
        default="offline",
        description="engines a /v1/factcheck caller may ask for by its 'engine' field (comma-separated)",
    )
    max_documents: int = Field(
        default=32, ge=1, le=1000, description="documents a request may carry to be checked against"
    )
    metrics_host: str = Field(default="127.0.0.1", description="bind address of the separate /metrics listener")
    review_keep_question: bool = Field(
        default=False,
        description="keep the user's question with each decision for the review page and /v1/results (privacy: off)",
    )
    log_level: str = "warning"
    access_log: bool = Field(
        default=True, description="one JSON line per API request on stdout (ids, model, policy, verdict; no text)"
    )

    @field_validator("factcheck_engines")
    @classmethod
    def _known_engines(cls, value: str) -> str:
        names = [n.strip() for n in value.split(",") if n.strip()]
        unknown = [n for n in names if n not in ENGINE_NAMES]
        if unknown:
            raise ValueError(f"unknown engine(s) {', '.join(unknown)}; engines: {', '.join(ENGINE_NAMES)}")
        return ",".join(names)

    @property
    def allowed_factcheck_engines(self) -> frozenset[str]:
        return frozenset(n for n in self.factcheck_engines.split(",") if n)
