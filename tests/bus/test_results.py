"""Verdicts stored in Redis (bus/results.py) against a real valkey: compressed, with their TTL, read back whole."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest
import redis.asyncio as aioredis
from pydantic import ValidationError

from bus.results import ResultStore, pack, unpack
from bus.topics import result_key
from schemas.check import CheckResult
from schemas.messages import ResultMessage

SENTENCES = [
    f"Person {i} was born in {1900 + i} in Town {i % 7} and studied law at the University of Place {i % 5}."
    for i in range(120)
]


def a_verdict(request_id: str) -> ResultMessage:
    check = CheckResult(sentences=SENTENCES, num_facts=len(SENTENCES), factscore=0.5)
    return ResultMessage(request_id=request_id, model="m", check=check, scored_at=datetime.now(UTC))


def test_pack_and_unpack() -> None:
    payload = a_verdict("fs-1").model_dump_json()
    packed = pack(payload)
    assert packed[:1] == b"\x78" and len(packed) < len(payload) / 4
    assert unpack(packed) == payload.encode()
    assert unpack(payload.encode()) == payload.encode()  # plain JSON (stored before compression) as it is
    assert unpack("{}") == "{}"


async def test_a_stored_verdict_is_compressed_has_its_ttl_and_reads_back(redis_url: str) -> None:
    client = aioredis.from_url(redis_url)
    prefix = f"store-{uuid.uuid4().hex[:8]}"
    store = ResultStore(client, prefix, ttl_s=600)
    try:
        verdict = a_verdict("fs-big")
        await store.put(verdict)
        raw = await client.get(result_key(prefix, "fs-big"))
        assert raw is not None and raw[:1] == b"\x78"
        assert len(raw) < len(verdict.model_dump_json()) / 4
        assert 590 <= await client.ttl(result_key(prefix, "fs-big")) <= 600
        assert await store.get("fs-big") == verdict
        found = await store.lookup("fs-big")
        assert found is not None and found.status == "checked" and found.result == verdict
        # a verdict stored as plain JSON (by a worker of the version before) is still read
        older = a_verdict("fs-old")
        await client.set(result_key(prefix, "fs-old"), older.model_dump_json(), ex=600)
        assert await store.get("fs-old") == older
        old_found = await store.lookup("fs-old")
        assert old_found is not None and old_found.result == older
    finally:
        await client.aclose()


async def test_without_compression_a_gateway_from_before_compression_reads_the_verdict(redis_url: str) -> None:
    """A gateway from before compression parsed the stored bytes as JSON (``model_validate_json``): it fails on a
    compressed verdict and reads one stored with ``compress=False`` (FACTSENTRY_RESULT_COMPRESSION=false), which
    this version reads too."""
    client = aioredis.from_url(redis_url)
    prefix = f"store-{uuid.uuid4().hex[:8]}"
    try:
        verdict = a_verdict("fs-plain")
        await ResultStore(client, prefix, ttl_s=600).put(verdict)
        with pytest.raises(ValidationError):
            ResultMessage.model_validate_json(await client.get(result_key(prefix, "fs-plain")))
        plain = ResultStore(client, prefix, ttl_s=600, compress=False)
        await plain.put(verdict)
        raw = await client.get(result_key(prefix, "fs-plain"))
        assert ResultMessage.model_validate_json(raw) == verdict  # what the older gateway does
        assert await plain.get("fs-plain") == verdict and await ResultStore(client, prefix).get("fs-plain") == verdict
        assert 590 <= await client.ttl(result_key(prefix, "fs-plain")) <= 600
    finally:
        await client.aclose()
