"""Helpers of the offline engine's steps."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.offline import _nearest


@pytest.mark.parametrize(
    ("positions", "x", "index"),
    [
        ([0, 10], 4, 0),
        ([0, 10], 6, 1),
        ([0, 10], 5, 0),  # as close to both: the first in the list
        ([10, 0], 5, 0),
        ([7, 3, 12], 100, 2),
        ([7, 3, 12], -5, 1),
        ([4], 9, 0),
        ([5, 5, 1], 5, 0),
    ],
)
def test_nearest_position(positions: list[int], x: int, index: int) -> None:
    assert _nearest(positions)(x) == index


@given(st.lists(st.integers(-50, 50), min_size=1, max_size=30), st.integers(-60, 60))
def test_nearest_is_what_min_over_the_list_chooses(positions: list[int], x: int) -> None:
    expected = min(range(len(positions)), key=lambda k: abs(positions[k] - x))
    assert _nearest(positions)(x) == expected
