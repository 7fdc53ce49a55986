"""Connection settings both the gateway and the workers read (env prefix ``FACTSENTRY_``)."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class BusSettings(BaseSettings):
    """Where the broker and Redis are. Subclassed by each process's own settings class."""

    model_config = SettingsConfigDict(env_prefix="FACTSENTRY_", extra="ignore")

    kafka_bootstrap: str = Field(default="127.0.0.1:9092", description="Kafka bootstrap servers, comma-separated")
    kafka_client_id: str = "factsentry"
    generations_topic: str = "factsentry.generations.v1"
    results_topic: str = "factsentry.results.v1"
    redis_url: str = "redis://127.0.0.1:6379/0"
    redis_prefix: str = "factsentry"
    result_ttl_s: int = Field(default=86_400, gt=0)
