"""An answer's verdicts are read from the cache in one round trip and written in one, with the same results
as one read and one write per fact."""

from __future__ import annotations

import dataclasses

import pytest

from factsentry.demo_data import CONVERSATIONS
from knowledge.store import Store
from scoring.engines import build_checker
from scoring.verifier import OfflineVerifier

# Two namesakes merged into one answer: facts checked against two pages, some verdicts read again by the revision.
ANSWER = next(c.answer for c in CONVERSATIONS if c.model == "demo-merged-bio")


class OneByOne:
    """A cache read and written one key at a time, counting its calls."""

    def __init__(self) -> None:
        self.data: dict[str, bytes] = {}
        self.calls: dict[str, int] = {"get": 0, "set": 0, "get_many": 0, "set_many": 0}

    def get(self, key: str) -> bytes | None:
        self.calls["get"] += 1
        return self.data.get(key)

    def set(self, key: str, value: bytes) -> None:
        self.calls["set"] += 1
        self.data[key] = value


class Together(OneByOne):
    """The same, with reads and writes of many keys at once (as ``knowledge.cache.Cache``)."""

    def get_many(self, keys: list[str]) -> list[bytes | None]:
        self.calls["get_many"] += 1
        return [self.data.get(k) for k in keys]

    def set_many(self, items: list[tuple[str, bytes]]) -> None:
        self.calls["set_many"] += 1
        self.data.update(items)


def _check(demo_kb: Store, verifier: OfflineVerifier, cache: OneByOne | None) -> str:
    result = build_checker("offline", stance_model=verifier).check(ANSWER, kb=demo_kb, cache=cache)
    return result.model_dump_json()


def test_verdicts_go_to_the_cache_in_one_write_and_come_back_in_one_read(
    demo_kb: Store, verifier: OfflineVerifier
) -> None:
    uncached = _check(demo_kb, verifier, None)
    one_by_one, together = OneByOne(), Together()
    assert _check(demo_kb, verifier, one_by_one) == uncached
    assert _check(demo_kb, verifier, together) == uncached
    assert together.data == one_by_one.data and len(together.data) >= 5  # the same verdicts under the same keys
    assert one_by_one.calls["set"] == len(one_by_one.data) and one_by_one.calls["get"] >= len(one_by_one.data)
    # one read and one write for the answer, one read for the re-check of its revision (scoring.recheck) and one
    # write for the verdicts of the facts its rewritten sentences say anew ("…in Melbourne, where he won a silver
    # medal" is read with its place in the answer, without it in the revision's sentence)
    assert together.calls == {"get": 0, "set": 0, "get_many": 2, "set_many": 2}

    together.calls = dict.fromkeys(together.calls, 0)
    assert _check(demo_kb, verifier, together) == uncached  # again: every verdict from the reads
    assert together.calls == {"get": 0, "set": 0, "get_many": 2, "set_many": 0}


def test_verdicts_reach_the_cache_when_a_later_step_fails(demo_kb: Store, verifier: OfflineVerifier) -> None:
    def revise_fails(*args: object) -> None:
        raise RuntimeError("the judge is out of reach")

    checker = dataclasses.replace(build_checker("offline", stance_model=verifier), revise=revise_fails)
    cache = Together()
    with pytest.raises(RuntimeError, match="out of reach"):
        checker.check(ANSWER, kb=demo_kb, cache=cache)
    assert cache.calls["set_many"] == 1 and len(cache.data) >= 5  # computed before the failure, kept for a retry

    again = Together()
    _check(demo_kb, verifier, again)
    # the same verdicts a whole check writes for the answer (it also writes those of its revision's re-check)
    assert {k: again.data[k] for k in cache.data} == cache.data and len(again.data) > len(cache.data)
