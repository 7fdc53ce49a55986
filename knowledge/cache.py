"""The cache of retrievals and verdicts: Redis when configured, an in-process LRU otherwise.

Every key holds the knowledge store's version, so a re-import that changes content makes every
older entry unreachable (and Redis expires it with its TTL). If Redis goes down, calls fail soft:
``get`` misses, ``set`` is dropped, one warning is logged, ``factsentry_cache_errors_total`` counts
it, and the cache tries Redis again after ``retry_after_s`` until it answers.

>>> from knowledge.store import Store
>>> cache = Cache(LocalBackend())
>>> knowledge = CachedKnowledge(Store.in_memory([("Ada Lovelace", "She wrote the first program.")]), cache)
>>> [c.title for c in knowledge.candidates("ada lovelace")]
['Ada Lovelace']
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import orjson
import redis
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Gauge
from redis.backoff import NoBackoff
from redis.retry import Retry

from knowledge.errors import CacheUnavailableError
from schemas.knowledge import EntityRef, Passage
from vocabulary import fold_name as fold

log = logging.getLogger(__name__)

KEY_SCHEMA = "v1"
# Raised when the way a mention is matched to entities changes, so cached candidate lists are not reused.
CANDIDATES_VERSION = "names-3"  # 3: names transliterated (vocabulary.fold)
DEFAULT_TTL_S = 7 * 86_400


@dataclass(frozen=True)
class CacheMetrics:
    """Prometheus series of the cache; the label ``kind`` is what was cached (candidates, passages, verdict...)."""

    hits: Counter
    misses: Counter
    errors: Counter
    available: Gauge


# Held weakly: keyed by ``id(registry)``, a registry collected after a test freed its id for the next one, which
# then got the dead registry's counters (a test counted 0 hits against its own registry in CI).
_METRICS: weakref.WeakKeyDictionary[CollectorRegistry, CacheMetrics] = weakref.WeakKeyDictionary()
_METRICS_LOCK = threading.Lock()


def cache_metrics(registry: CollectorRegistry | None = None) -> CacheMetrics:
    """The cache's metrics in ``registry`` (default: the global one), created once per registry."""
    registry = REGISTRY if registry is None else registry
    with _METRICS_LOCK:
        found = _METRICS.get(registry)
        if found is None:
            found = CacheMetrics(
                hits=Counter(
                    "factsentry_cache_hits", "Cache look-ups that found an entry.", ["kind"], registry=registry
                ),
                misses=Counter(
                    "factsentry_cache_misses", "Cache look-ups that found nothing.", ["kind"], registry=registry
                ),
                errors=Counter(
                    "factsentry_cache_errors", "Cache calls that failed (Redis down).", ["kind"], registry=registry
                ),
                available=Gauge("factsentry_cache_up", "1 while the cache backend answers.", registry=registry),
            )
            found.available.set(1)
            _METRICS[registry] = found
        return found


class KnowledgeSource(Protocol):
    """What ``CachedKnowledge`` wraps; the same shape as ``scoring.protocols.KnowledgeSource``."""

    @property
    def version(self) -> str: ...

    def candidates(self, mention: str, limit: int = 20) -> list[EntityRef]: ...

    def passages(self, title: str, query: str, k: int = 5) -> list[Passage]: ...

    def search(self, query: str, k: int = 5) -> list[Passage]: ...


class Backend(Protocol):
    """Raw byte storage behind ``Cache``; raises ``CacheUnavailableError`` when it cannot answer."""

    def get(self, key: str) -> bytes | None: ...

    def set(self, key: str, value: bytes, ttl_s: int) -> None: ...

    def get_many(self, keys: Sequence[str]) -> list[bytes | None]: ...

    def set_many(self, items: Sequence[tuple[str, bytes]], ttl_s: int) -> None: ...


class LocalBackend:
    """A thread-safe in-process LRU with a TTL per entry."""

    def __init__(self, maxsize: int = 100_000, clock: Callable[[], float] = time.monotonic) -> None:
        self.maxsize = maxsize
        self._clock = clock
        self._data: OrderedDict[str, tuple[float, bytes]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> bytes | None:
        with self._lock:
            item = self._data.get(key)
            if item is None:
                return None
            if item[0] < self._clock():
                del self._data[key]
                return None
            self._data.move_to_end(key)
            return item[1]

    def set(self, key: str, value: bytes, ttl_s: int) -> None:
        with self._lock:
            self._data[key] = (self._clock() + ttl_s, value)
            self._data.move_to_end(key)
            while len(self._data) > self.maxsize:
                self._data.popitem(last=False)

    def get_many(self, keys: Sequence[str]) -> list[bytes | None]:
        return [self.get(key) for key in keys]

    def set_many(self, items: Sequence[tuple[str, bytes]], ttl_s: int) -> None:
        for key, value in items:
            self.set(key, value, ttl_s)

    def __len__(self) -> int:
        return len(self._data)


class RedisBackend:
    """Redis through the synchronous client (scoring runs in worker threads), with short timeouts.

    After a failure it stays silent for ``retry_after_s`` (calls raise at once, costing nothing),
    then tries Redis again.
    """

    def __init__(self, client: redis.Redis, retry_after_s: float = 2.0) -> None:
        self.client = client
        self.retry_after_s = retry_after_s
        self._down_until = 0.0

    @classmethod
    def from_url(cls, url: str, timeout_s: float = 0.5, retry_after_s: float = 2.0, **options: Any) -> RedisBackend:
        """A backend for ``redis://host:port/db`` (``rediss://`` for TLS); a call never waits longer than ``timeout_s``.

        ``options``: more client arguments (password, TLS files: ``BusSettings.redis_options()``).
        """
        client = redis.Redis.from_url(
            url, socket_timeout=timeout_s, socket_connect_timeout=timeout_s, retry=Retry(NoBackoff(), 0), **options
        )
        return cls(client, retry_after_s)

    def _call(self, op: Callable[[], Any]) -> Any:
        if self._down_until and time.monotonic() < self._down_until:
            raise CacheUnavailableError("redis is down; waiting before the next attempt")
        try:
            result = op()
        except (redis.RedisError, OSError) as e:
            self._down_until = time.monotonic() + self.retry_after_s
            raise CacheUnavailableError(f"redis call failed: {e}") from e
        self._down_until = 0.0
        return result

    def get(self, key: str) -> bytes | None:
        value = self._call(lambda: self.client.get(key))
        return None if value is None else bytes(value)

    def set(self, key: str, value: bytes, ttl_s: int) -> None:
        self._call(lambda: self.client.set(key, value, ex=ttl_s))

    def get_many(self, keys: Sequence[str]) -> list[bytes | None]:
        """One ``MGET``: one round trip for all ``keys``."""
        if not keys:
            return []
        values = self._call(lambda: self.client.mget(list(keys)))
        return [None if v is None else bytes(v) for v in values]

    def set_many(self, items: Sequence[tuple[str, bytes]], ttl_s: int) -> None:
        """Every ``SET`` in one pipelined round trip (not a transaction: each key stands alone)."""
        if not items:
            return

        def send() -> None:
            pipe = self.client.pipeline(transaction=False)
            for key, value in items:
                pipe.set(key, value, ex=ttl_s)
            pipe.execute()

        self._call(send)


class Cache:
    """Bytes by key with a TTL, counted in Prometheus, never raising; satisfies ``scoring.protocols.VerdictCache``.

    ``kind`` labels the metrics; ``cache.kind_of("passages")`` is a view that shares the backend.
    """

    def __init__(
        self,
        backend: Backend,
        ttl_s: int = DEFAULT_TTL_S,
        kind: str = "verdict",
        metrics: CacheMetrics | None = None,
        prefix: str = "factsentry:cache:",
        _state: dict[str, bool] | None = None,
    ) -> None:
        self.backend = backend
        self.ttl_s = ttl_s
        self.kind = kind
        self.metrics = metrics or cache_metrics()
        self.prefix = prefix
        self._state = {"up": True} if _state is None else _state

    def kind_of(self, kind: str) -> Cache:
        """The same cache counting under another ``kind`` label."""
        return Cache(self.backend, self.ttl_s, kind, self.metrics, self.prefix, self._state)

    def _failed(self, e: CacheUnavailableError) -> None:
        self.metrics.errors.labels(self.kind).inc()
        if self._state["up"]:
            self._state["up"] = False
            self.metrics.available.set(0)
            log.warning("cache unavailable, scoring continues uncached: %s", e)

    def _ok(self) -> None:
        if not self._state["up"]:
            self._state["up"] = True
            self.metrics.available.set(1)
            log.warning("cache available again")

    def get(self, key: str) -> bytes | None:
        """The value under ``key``, or ``None`` (missing, expired, or backend down)."""
        try:
            value = self.backend.get(self.prefix + key)
        except CacheUnavailableError as e:
            self._failed(e)
            return None
        self._ok()
        (self.metrics.misses if value is None else self.metrics.hits).labels(self.kind).inc()
        return value

    def set(self, key: str, value: bytes) -> None:
        """Store ``value`` under ``key`` for ``ttl_s`` seconds; dropped silently when the backend is down."""
        try:
            self.backend.set(self.prefix + key, value, self.ttl_s)
        except CacheUnavailableError as e:
            self._failed(e)
            return
        self._ok()

    def get_many(self, keys: Sequence[str]) -> list[bytes | None]:
        """The values under ``keys`` (``None`` for each missing one), read together; all ``None`` when the
        backend is down."""
        try:
            values = self.backend.get_many([self.prefix + key for key in keys])
        except CacheUnavailableError as e:
            self._failed(e)
            return [None] * len(keys)
        self._ok()
        hits = sum(v is not None for v in values)
        if hits:
            self.metrics.hits.labels(self.kind).inc(hits)
        if len(values) > hits:
            self.metrics.misses.labels(self.kind).inc(len(values) - hits)
        return values

    def set_many(self, items: Sequence[tuple[str, bytes]]) -> None:
        """Store every (key, value) for ``ttl_s`` seconds, written together; dropped when the backend is down."""
        try:
            self.backend.set_many([(self.prefix + key, value) for key, value in items], self.ttl_s)
        except CacheUnavailableError as e:
            self._failed(e)
            return
        self._ok()


def make_cache(
    redis_url: str | None = None, ttl_s: int = DEFAULT_TTL_S, maxsize: int = 100_000, **redis_options: Any
) -> Cache:
    """Redis at ``redis_url`` when given, else an in-process LRU of ``maxsize`` entries.

    ``redis_options``: the Redis client's password and TLS arguments (``BusSettings.redis_options()``).
    """
    backend: Backend = RedisBackend.from_url(redis_url, **redis_options) if redis_url else LocalBackend(maxsize)
    return Cache(backend, ttl_s)


def normalise_claim(claim: str) -> str:
    """A claim as cache keys see it: folded case, diacritics, punctuation and spacing."""
    return fold(claim)


def cache_key(kind: str, store_version: str, *parts: object, engine_version: str = "") -> str:
    """``<schema>:<kind>:<store version>:<engine version>:<digest of parts>``."""
    digest = hashlib.blake2b("\x1f".join(map(str, parts)).encode(), digest_size=16).hexdigest()
    return f"{KEY_SCHEMA}:{kind}:{store_version}:{engine_version}:{digest}"


def verdict_key(store_version: str, entity: str, claim: str, engine_version: str) -> str:
    """The cache key of one verdict: (store version, entity, normalised claim, engine version)."""
    return cache_key("verdict", store_version, entity, normalise_claim(claim), engine_version=engine_version)


class VersionedVerdictCache:
    """A ``VerdictCache`` whose keys are namespaced by the store's current version and the engine version.

    Scoring may key verdicts however it likes (e.g. ``f"{entity}\\x1f{claim}"``); entries from before a
    re-import are never returned.
    """

    def __init__(self, cache: Cache, source: KnowledgeSource, engine_version: str = "") -> None:
        self.cache = cache.kind_of("verdict")
        self.source = source
        self.engine_version = engine_version

    def _key(self, key: str, version: str | None = None) -> str:
        version = self.source.version if version is None else version
        return cache_key("verdict", version, key, engine_version=self.engine_version)

    def get(self, key: str) -> bytes | None:
        return self.cache.get(self._key(key))

    def set(self, key: str, value: bytes) -> None:
        self.cache.set(self._key(key), value)

    def get_many(self, keys: Sequence[str]) -> list[bytes | None]:
        version = self.source.version  # once for all the keys
        return self.cache.get_many([self._key(k, version) for k in keys])

    def set_many(self, items: Sequence[tuple[str, bytes]]) -> None:
        version = self.source.version
        self.cache.set_many([(self._key(k, version), v) for k, v in items])


class CachedKnowledge:
    """A ``KnowledgeSource`` that answers from ``cache`` first and asks ``source`` on a miss."""

    def __init__(self, source: KnowledgeSource, cache: Cache) -> None:
        self.source = source
        self._candidates = cache.kind_of("candidates")
        self._passages = cache.kind_of("passages")
        self._search = cache.kind_of("search")

    @property
    def version(self) -> str:
        return self.source.version

    def candidates(self, mention: str, limit: int = 20) -> list[EntityRef]:
        key = cache_key("candidates", self.version, fold(mention), limit, engine_version=CANDIDATES_VERSION)
        raw = self._candidates.get(key)
        if raw is not None:
            return [EntityRef.model_validate(d) for d in orjson.loads(raw)]
        found = self.source.candidates(mention, limit)
        self._candidates.set(key, orjson.dumps([c.model_dump() for c in found]))
        return found

    def passages(self, title: str, query: str, k: int = 5) -> list[Passage]:
        key = cache_key("passages", self.version, title, normalise_claim(query), k)
        return self._cached_passages(self._passages, key, lambda: self.source.passages(title, query, k))

    def search(self, query: str, k: int = 5) -> list[Passage]:
        key = cache_key("search", self.version, normalise_claim(query), k)
        return self._cached_passages(self._search, key, lambda: self.source.search(query, k))

    @staticmethod
    def _cached_passages(cache: Cache, key: str, compute: Callable[[], list[Passage]]) -> list[Passage]:
        raw = cache.get(key)
        if raw is not None:
            return [Passage.model_validate(d) for d in orjson.loads(raw)]
        found = compute()
        cache.set(key, orjson.dumps([p.model_dump() for p in found]))
        return found
