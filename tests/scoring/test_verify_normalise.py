"""How verification compares a fact's words with a page's before the stance model is asked (``no-shared-content``,
``key-terms-missing``, ``name-missing``): a true fact worded unlike the page must reach the model, a fact about
something the page never says must not."""

from __future__ import annotations

import pytest

from schemas.knowledge import Passage
from scoring.verify import NUMBERS_AS_CONTENT, _shares_content

NAME = "Tomas Vellacott"
PAGE = (
    "Tomas Vellacott (born 1979 in Bergen) is a Norwegian former sprinter. He took up athletics at the age of 11. "
    "He set his personal best of 20.31 seconds in 2004, and became national champion at 18. He retired in 2012 with "
    "a record of 9 losses in finals. He ran for five clubs."
)
PASSAGES = [Passage(title=NAME, text=PAGE)]


@pytest.mark.parametrize(
    "fact",
    [
        # a number of two digits or fewer, in digits or spelled out, with no noun of its own
        "Tomas Vellacott picked up a bow at eleven.",
        "Tomas Vellacott was aged eighteen.",
        "Tomas Vellacott's quickest ever was 20.31.",
        "Tomas Vellacott's best was 20.31.",
        "Tomas Vellacott won at 18.",
    ],
)
def test_a_number_the_page_holds_is_shared_content(fact: str) -> None:
    assert _shares_content(fact, NAME, PASSAGES)


@pytest.mark.parametrize(
    "fact",
    [
        # the page's number counts something else ("9 losses", "age of 11")
        "Tomas Vellacott held the floor for nine hours.",
        "Tomas Vellacott owned eleven horses.",
        # a number the page does not hold
        "Tomas Vellacott was aged seventeen.",
        "Tomas Vellacott painted 47.",
    ],
)
def test_a_number_counting_something_else_is_no_shared_content(fact: str) -> None:
    assert not _shares_content(fact, NAME, PASSAGES)


def test_numbers_as_content_can_be_switched_off() -> None:
    fact = "Tomas Vellacott was aged eighteen."
    assert not _shares_content(fact, NAME, PASSAGES, frozenset({NUMBERS_AS_CONTENT}))


def test_a_number_of_the_name_is_not_the_facts() -> None:
    passages = [Passage(title="Apollo 11", text="Apollo 11 landed in 1969.")]
    assert not _shares_content("Apollo 11 carried a camera.", "Apollo 11", passages)
