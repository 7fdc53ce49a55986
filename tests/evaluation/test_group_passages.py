"""AmbigBio passages that run on into the next article are filed under that article's title."""

from __future__ import annotations

import pytest

from evaluation.ambigbio import group_passages

CASES = [
    ([("A (x)", "a1")], [("A (x)", ["a1"])]),
    ([("A (x)", "a1"), ("A (x)", "a1"), ("A (x)", "a2")], [("A (x)", ["a1", "a2"])]),
    ([("A (x)", "a1 end.\nTitle: B (y)\nb1 start")], [("A (x)", ["a1 end."]), ("B (y)", ["b1 start"])]),
    (
        [("A (x)", "a1\nTitle: B (y)\nb1\nTitle: C\nc1"), ("B (y)", "b2")],
        [("A (x)", ["a1"]), ("B (y)", ["b1", "b2"]), ("C", ["c1"])],
    ),
    ([("A (x)", "Title: B (y)\nb1")], [("B (y)", ["b1"])]),
]


@pytest.mark.parametrize(("passages", "pages"), CASES)
def test_group_passages(passages: list[tuple[str, str]], pages: list[tuple[str, list[str]]]) -> None:
    assert group_passages(passages) == pages
