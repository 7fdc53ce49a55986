"""A person not in the store who shares a name with a stored person is not linked to them: the corpus's two
out-of-store answers about namesakes of the blind store's people stay unverifiable against that store (they
were linked, by surname and by name, when p5's pages joined it), while the stored people are still checked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaluation.corpus import load
from evaluation.engines import Engine

ROOT = Path(__file__).resolve().parents[2] / "tests"


def _answer(answer_id: str) -> dict[str, str]:
    for line in (ROOT / "corpus" / "answers.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["id"] == answer_id:
            return record  # type: ignore[no-any-return]
    raise AssertionError(f"no answer {answer_id!r} in the corpus")


@pytest.fixture(scope="module")
def blind_pages() -> list[tuple[object, ...]]:
    pages, _ = load(ROOT / "corpus-blind")
    return list(pages)


@pytest.mark.parametrize("answer_id", ["oos-rautenbach-list", "oos-rennick-numbered"])
def test_a_namesake_not_in_the_store_is_unverifiable(blind_pages: list[tuple[object, ...]], answer_id: str) -> None:
    a = _answer(answer_id)
    result = Engine().check(a["answer"], pages=blind_pages, name=a["name"], question=a["question"])
    assert result.unverifiable and all(g.entity is None for g in result.groups)


def test_the_stored_namesake_is_still_linked(blind_pages: list[tuple[object, ...]]) -> None:
    answer = (
        "Callum Rennick is a British former rower. He won a bronze medal in the men's coxless four at the 2020 "
        "Summer Olympics in Tokyo."
    )
    result = Engine().check(answer, pages=blind_pages, name="Callum Rennick")
    assert not result.unverifiable and result.groups[0].entity == "Callum Rennick (rower)"
