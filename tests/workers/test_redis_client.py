"""The worker's Redis client is built with the pool options of every Redis client of the project
(``BusSettings.redis_pool_options``, as the gateway's): health-checked and retrying, so its pooled
connections outlive a valkey restart."""

from __future__ import annotations

from factsentry import embedded
from tests.servers import kill
from tests.workers.conftest import MakeSettings
from workers.worker import redis_client


async def test_the_workers_client_is_health_checked_and_recovers_from_a_valkey_restart(
    make_settings: MakeSettings, own_valkey: embedded.ServerProcess
) -> None:
    url = f"redis://{own_valkey.host}:{own_valkey.port}/0"
    settings = make_settings(redis_url=url, redis_health_check_s=0.5, redis_retries=4)
    client = redis_client(settings)
    try:
        options = client.connection_pool.connection_kwargs
        assert options["health_check_interval"] == 0.5
        assert options["retry"].get_retries() == 4
        assert options["socket_keepalive"] is True
        assert options["socket_timeout"] == 10  # a hung Redis is a retriable error, not a stalled batch
        await client.set("before", "1")
        kill(own_valkey)  # the pooled connection goes stale
        own_valkey.start()
        # The first command after the restart succeeds on the client the worker already had.
        assert await client.set("after", "2") is True
        assert (await client.get("before"), await client.get("after")) == (None, b"2")  # a memory-only valkey
    finally:
        await client.aclose()
