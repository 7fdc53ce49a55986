"""Bounded labels: the ``model`` a /v1/factcheck or guardrail caller names is free text; only the operator's names
become metric label values (and the ``model`` published to the workers, which label by it), any other is folded
into one value, ``other``."""

from __future__ import annotations

import asyncio

import httpx
from aiokafka import AIOKafkaConsumer

from gateway.request import UNSPECIFIED_MODEL
from schemas.messages import GenerationMessage
from tests.gateway.conftest import GatewayFactory, RunningGateway


def model_labels(gw: RunningGateway) -> set[str]:
    return {
        s.labels["model"] for metric in gw.gateway.registry.collect() for s in metric.samples if "model" in s.labels
    }


async def published_models(bootstrap: str, topic: str, count: int) -> list[str]:
    consumer = AIOKafkaConsumer(topic, bootstrap_servers=bootstrap, group_id=None, auto_offset_reset="earliest")
    await consumer.start()
    models: list[str] = []
    try:
        deadline = asyncio.get_running_loop().time() + 60
        while len(models) < count and asyncio.get_running_loop().time() < deadline:
            for records in (await consumer.getmany(timeout_ms=500)).values():
                models += [GenerationMessage.model_validate_json(r.value).model for r in records]
    finally:
        await consumer.stop()
    return models


async def test_a_thousand_made_up_model_names_add_at_most_one_label_value(start_gateway: GatewayFactory) -> None:
    gw = await start_gateway({"default": {"mode": "observe"}, "models": {"gpt-4o-mini": {"mode": "annotate"}}})
    limits = httpx.Limits(max_connections=32)
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=60, limits=limits) as http:
        # the operator's names keep their own label: a configured model and a model of the policy file
        for known in ("mock-lean", "gpt-4o-mini", None):
            body = {"text": "Paris is the capital of France.", "timeout_s": 0}
            answer = await http.post("/v1/factcheck", json=body if known is None else {**body, "model": known})
            assert answer.status_code == 202, answer.text
        before = model_labels(gw)
        assert {"mock-lean", "gpt-4o-mini", UNSPECIFIED_MODEL} <= before

        async def made_up(i: int) -> int:
            body = {
                "text": f"Paris is the capital of France ({i}).",
                "model": f"team-{i}/model-{i:04d}",
                "timeout_s": 0,
            }
            return (await http.post("/v1/factcheck", json=body)).status_code

        statuses = await asyncio.gather(*(made_up(i) for i in range(1000)))
    assert statuses == [202] * 1000
    after = model_labels(gw)
    assert after - before == {"other"}
    models = await published_models(gw.settings.kafka_bootstrap, gw.settings.generations_topic, 1003)
    assert len(models) == 1003
    assert set(models) == {"mock-lean", "gpt-4o-mini", UNSPECIFIED_MODEL, "other"}
    assert models.count("other") == 1000
