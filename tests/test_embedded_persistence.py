"""The embedded valkey of `factsentry up` keeps verdicts across a restart (append-only file).

Under its memory limit nothing is evicted; at the limit the least recently used keys with a TTL go
(``tests/test_embedded_memory.py``)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from bus.results import ResultStore
from factsentry import embedded
from schemas.check import CheckResult
from schemas.messages import ResultMessage


def verdict(i: int) -> ResultMessage:
    return ResultMessage(
        request_id=f"fs-{i}",
        model="m",
        check=CheckResult(factscore=i / 100, dfactscore=i / 200, num_facts=i),
        scored_at=datetime.now(UTC),
    )


@pytest.mark.parametrize("how", ["terminate", "kill"])
async def test_verdicts_survive_a_valkey_restart(tmp_path: Path, how: str) -> None:
    server = embedded.valkey(data_dir=tmp_path).start()
    url = f"redis://{server.host}:{server.port}/0"
    try:
        client = aioredis.from_url(url)
        store = ResultStore(client, "fs", ttl_s=3600)
        for i in range(50):
            await store.put(verdict(i))
        config = await client.config_get("maxmemory-policy")
        assert {str(k, "utf-8") if isinstance(k, bytes) else k: v for k, v in config.items()}["maxmemory-policy"] in (
            b"volatile-lru",
            "volatile-lru",
        )
        await client.aclose()
        assert server.proc is not None
        if how == "kill":
            await asyncio.sleep(1.5)  # appendfsync everysec: a crash loses at most the last second
            server.proc.kill()
        else:
            server.proc.terminate()
        server.proc.wait(10)
        server.start()
        client = aioredis.from_url(url)
        store = ResultStore(client, "fs", ttl_s=3600)
        back = [await store.get(f"fs-{i}") for i in range(50)]
        ttl = await client.ttl("fs:result:fs-7")
        await client.aclose()
    finally:
        server.stop()
    assert [b.check if b else None for b in back] == [verdict(i).check for i in range(50)]
    assert 0 < ttl <= 3600


async def test_without_a_data_dir_valkey_keeps_nothing(tmp_path: Path) -> None:
    server = embedded.valkey().start()
    url = f"redis://{server.host}:{server.port}/0"
    try:
        client = aioredis.from_url(url)
        await ResultStore(client, "fs").put(verdict(1))
        await client.aclose()
        server.stop()
        server.start()
        client = aioredis.from_url(url)
        assert await ResultStore(client, "fs").get("fs-1") is None
        await client.aclose()
    finally:
        server.stop()
