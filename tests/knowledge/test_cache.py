"""The cache: LRU with TTL, hit/miss counting, invalidation on re-import, and a real Redis going away."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import pytest
from prometheus_client import CollectorRegistry

from factsentry import embedded
from knowledge.cache import (
    Cache,
    CachedKnowledge,
    LocalBackend,
    RedisBackend,
    VersionedVerdictCache,
    cache_key,
    cache_metrics,
    make_cache,
    verdict_key,
)
from knowledge.store import Store


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _count(registry: CollectorRegistry, name: str, kind: str) -> float:
    return registry.get_sample_value(name, {"kind": kind}) or 0.0


def test_local_backend_evicts_least_recently_used_and_expires() -> None:
    clock = Clock()
    backend = LocalBackend(maxsize=2, clock=clock)
    backend.set("a", b"1", ttl_s=10)
    backend.set("b", b"2", ttl_s=10)
    assert backend.get("a") == b"1"  # "a" is now the most recent
    backend.set("c", b"3", ttl_s=10)
    assert (backend.get("a"), backend.get("b"), backend.get("c")) == (b"1", None, b"3")
    clock.now += 11
    assert backend.get("a") is None and len(backend) == 1


def test_cache_counts_hits_and_misses_by_kind() -> None:
    registry = CollectorRegistry()
    cache = Cache(LocalBackend(), metrics=cache_metrics(registry))
    assert cache.get("k") is None
    cache.set("k", b"v")
    assert cache.get("k") == b"v"
    cache.kind_of("passages").get("k")
    assert _count(registry, "factsentry_cache_misses_total", "verdict") == 1
    assert _count(registry, "factsentry_cache_hits_total", "verdict") == 1
    assert _count(registry, "factsentry_cache_hits_total", "passages") == 1


def test_metrics_are_registered_once_per_registry() -> None:
    registry = CollectorRegistry()
    assert cache_metrics(registry) is cache_metrics(registry)
    assert cache_metrics() is cache_metrics()


SWIMMER = ("v1", "Dick Hanley (swimmer)", "He was born in 1936.", "e1")


@pytest.mark.parametrize(
    ("other", "same"),
    [
        (("v1", "Dick Hanley (swimmer)", "he was  born in 1936", "e1"), True),  # claims are normalised
        (("v2", "Dick Hanley (swimmer)", "He was born in 1936.", "e1"), False),  # store version
        (("v1", "Dick Hanley (American football)", "He was born in 1936.", "e1"), False),  # entity
        (("v1", "Dick Hanley (swimmer)", "He was born in 1936.", "e2"), False),  # engine version
        (("v1", "Dick Hanley (swimmer)", "He was born in 1937.", "e1"), False),  # claim
    ],
)
def test_verdict_key_parts(other: tuple[str, str, str, str], same: bool) -> None:
    assert (verdict_key(*SWIMMER) == verdict_key(*other)) is same
    assert verdict_key(*other).startswith(f"v1:verdict:{other[0]}:{other[3]}:")


def test_cached_knowledge_hits_and_is_invalidated_by_reimport(tmp_path: Path) -> None:
    registry = CollectorRegistry()
    cache = Cache(LocalBackend(), metrics=cache_metrics(registry))
    with Store(tmp_path / "kb.sqlite3") as store:
        store.add_pages([("Ada Lovelace", "She wrote the first program.")])
        knowledge = CachedKnowledge(store, cache)
        first = knowledge.passages("Ada Lovelace", "first program")
        assert knowledge.passages("Ada Lovelace", "First  program!") == first  # same normalised claim
        assert knowledge.candidates("Ada Lovelace") == store.candidates("Ada Lovelace")
        assert knowledge.candidates("ada lovelace") == store.candidates("Ada Lovelace")
        assert knowledge.search("program") == store.search("program")
        assert _count(registry, "factsentry_cache_hits_total", "passages") == 1
        assert _count(registry, "factsentry_cache_hits_total", "candidates") == 1

        verdicts = VersionedVerdictCache(cache, knowledge, engine_version="offline-1")
        verdicts.set("Ada Lovelace|She wrote the first program.", b"supported")
        assert verdicts.get("Ada Lovelace|She wrote the first program.") == b"supported"

        time.sleep(1.05)
        store.add_pages([("Ada Lovelace", "She worked with Charles Babbage.")])  # content changes: new version
        assert verdicts.get("Ada Lovelace|She wrote the first program.") is None
        again = knowledge.passages("Ada Lovelace", "first program")
        assert [p.text for p in again] == ["She worked with Charles Babbage."]
        assert _count(registry, "factsentry_cache_misses_total", "passages") == 2
        assert _count(registry, "factsentry_cache_misses_total", "verdict") == 1


def test_redis_cache_stopped_and_restarted(caplog: pytest.LogCaptureFixture, unique: str) -> None:
    registry = CollectorRegistry()
    server = embedded.valkey().start()
    try:
        backend = RedisBackend.from_url(f"redis://{server.host}:{server.port}/0", timeout_s=0.5, retry_after_s=0.2)
        cache = Cache(backend, ttl_s=60, metrics=cache_metrics(registry), prefix=f"test:{unique}:")
        knowledge = CachedKnowledge(Store.in_memory([("Ada Lovelace", "She wrote the first program.")]), cache)
        expected = knowledge.passages("Ada Lovelace", "program")
        assert knowledge.passages("Ada Lovelace", "program") == expected
        assert _count(registry, "factsentry_cache_hits_total", "passages") == 1
        assert (
            backend.client.ttl(
                f"test:{unique}:" + cache_key("passages", knowledge.version, "Ada Lovelace", "program", 5)
            )
            > 0
        )

        server.stop()
        with caplog.at_level(logging.WARNING, logger="knowledge.cache"):
            for _ in range(5):  # scoring goes on, uncached, with no exception
                assert knowledge.passages("Ada Lovelace", "program") == expected
        assert [r.getMessage().split(":")[0] for r in caplog.records] == [
            "cache unavailable, scoring continues uncached"
        ]
        assert _count(registry, "factsentry_cache_errors_total", "passages") == 10  # 5 gets, 5 sets
        assert registry.get_sample_value("factsentry_cache_up") == 0

        caplog.clear()
        server = embedded.valkey(port=server.port).start()  # an empty Redis comes back on the same port
        time.sleep(0.3)
        with caplog.at_level(logging.WARNING, logger="knowledge.cache"):
            assert knowledge.passages("Ada Lovelace", "program") == expected  # miss, then stored again
            assert knowledge.passages("Ada Lovelace", "program") == expected  # hit
        assert [r.getMessage() for r in caplog.records] == ["cache available again"]
        assert _count(registry, "factsentry_cache_hits_total", "passages") == 2
        assert registry.get_sample_value("factsentry_cache_up") == 1
    finally:
        server.stop()


def test_make_cache_picks_the_backend(redis_url: str, unique: str) -> None:
    assert isinstance(make_cache(None).backend, LocalBackend)
    cache = make_cache(redis_url, ttl_s=30)
    assert isinstance(cache.backend, RedisBackend)
    cache.set(f"{unique}:k", b"v")
    assert cache.get(f"{unique}:k") == b"v"


@pytest.mark.parametrize("backend_kind", ["local", "redis"])
def test_many_keys_are_read_and_written_together(backend_kind: str, redis_url: str, unique: str) -> None:
    registry = CollectorRegistry()
    backend = LocalBackend() if backend_kind == "local" else RedisBackend.from_url(redis_url)
    cache = Cache(backend, ttl_s=60, metrics=cache_metrics(registry), prefix=f"test:{unique}:")
    cache.set("a", b"1")
    assert cache.get_many(["a", "b", "c"]) == [b"1", None, None]
    cache.set_many([("b", b"2"), ("c", b"3")])
    assert cache.get_many(["c", "a", "b", "d"]) == [b"3", b"1", b"2", None]
    assert cache.get_many([]) == [] and cache.get("b") == b"2"
    assert _count(registry, "factsentry_cache_hits_total", "verdict") == 1 + 3 + 1
    assert _count(registry, "factsentry_cache_misses_total", "verdict") == 2 + 1
    if isinstance(backend, RedisBackend):
        assert 0 < backend.client.ttl(f"test:{unique}:c") <= 60  # written with the cache's TTL


def test_versioned_verdicts_read_together_are_those_written_one_by_one(tmp_path: Path) -> None:
    store = Store(tmp_path / "kb.sqlite3")
    store.add_pages([("Ada Lovelace", "She wrote the first program.")])
    verdicts = VersionedVerdictCache(Cache(LocalBackend()), store, engine_version="e1")
    verdicts.set("x", b"1")
    verdicts.set_many([("y", b"2")])
    assert verdicts.get_many(["x", "y", "z"]) == [b"1", b"2", None]
    assert verdicts.get("y") == b"2"
    store.add_pages([("Charles Babbage", "He designed the Analytical Engine.")])  # a re-import: a new version
    assert verdicts.get_many(["x", "y"]) == [None, None]
    store.close()


def test_redis_down_reads_many_as_missing_and_drops_writes(unique: str) -> None:
    registry = CollectorRegistry()
    server = embedded.valkey().start()
    backend = RedisBackend.from_url(f"redis://{server.host}:{server.port}/0", timeout_s=0.5, retry_after_s=0.2)
    cache = Cache(backend, ttl_s=60, metrics=cache_metrics(registry), prefix=f"test:{unique}:")
    cache.set_many([("a", b"1")])
    server.stop()
    assert cache.get_many(["a", "b"]) == [None, None]
    cache.set_many([("b", b"2")])  # no exception: scoring goes on uncached
    assert _count(registry, "factsentry_cache_errors_total", "verdict") == 2
    assert registry.get_sample_value("factsentry_cache_up") == 0


def test_the_metrics_of_a_collected_registry_are_not_kept() -> None:
    """The metrics were kept by ``id(registry)``: once a test's registry was collected, a new one could be given
    its id, and with it the dead registry's counters (its own then counted nothing: seen in CI as 0 hits).
    They are kept by the registry itself now, weakly: nothing is left of a registry that is gone."""
    import gc
    import weakref

    from knowledge import cache as cache_module

    registry = CollectorRegistry()
    cache = Cache(LocalBackend(), ttl_s=60, metrics=cache_metrics(registry))
    cache.set("a", b"1")
    assert cache.get("a") == b"1"
    assert _count(registry, "factsentry_cache_hits_total", "verdict") == 1
    freed, gone = id(registry), weakref.ref(registry)
    del cache, registry
    gc.collect()
    assert gone() is None
    # what the module still holds, by the id it was kept under (an int key was an id itself)
    held = {key if isinstance(key, int) else id(key) for key in list(cache_module._METRICS.keys())}
    assert freed not in held
    fresh = CollectorRegistry()
    cache_metrics(fresh).hits.labels("verdict").inc()
    assert _count(fresh, "factsentry_cache_hits_total", "verdict") == 1
