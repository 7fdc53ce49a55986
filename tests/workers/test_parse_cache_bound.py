"""A worker bounds its parse cache (``FACTSENTRY_PARSE_CACHE_SIZE``): each cached parse holds ~40 KB."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pydantic import ValidationError

from scoring import nlp
from workers.scoring_stage import EngineOptions, bound_parse_cache
from workers.settings import WorkerSettings


@pytest.fixture
def restore_cache_size() -> Iterator[None]:
    before = nlp.CACHE_SIZE
    yield
    nlp.CACHE_SIZE = before


def test_the_setting_reaches_the_engine_options(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FACTSENTRY_PARSE_CACHE_SIZE", raising=False)
    assert EngineOptions.of(WorkerSettings()).parse_cache_size == 4_000
    monkeypatch.setenv("FACTSENTRY_PARSE_CACHE_SIZE", "123")
    assert EngineOptions.of(WorkerSettings()).parse_cache_size == 123


@pytest.mark.parametrize("value", ["0", "-1", "many"])
def test_a_bad_size_stops_the_worker(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("FACTSENTRY_PARSE_CACHE_SIZE", value)
    with pytest.raises(ValidationError):
        WorkerSettings()


@pytest.mark.usefixtures("restore_cache_size")
def test_the_cache_keeps_only_the_newest_parses() -> None:
    nlp.clear_cache()
    bound_parse_cache(5)
    people = ["Ada Lovelace", "Dick Hanley", "John Stewart", "Marie Curie", "Orla Fenwick", "Alan Turing", "Ida Wells"]
    sentences = [f"{who} was born in {1900 + i} and worked in London." for i, who in enumerate(people)]
    for sentence in sentences:
        nlp.parse([sentence])
    assert list(nlp._docs) == sentences[-5:]
    again = nlp.parse(sentences[-2:])  # cached parses come back as they were
    assert [d.text for d in again] == sentences[-2:]
    assert len(nlp._docs) == 5
    nlp.clear_cache()
