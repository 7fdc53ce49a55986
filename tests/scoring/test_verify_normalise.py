"""How verification compares a fact's words with a page's before the stance model is asked (``no-shared-content``,
``key-terms-missing``, ``name-missing``): a true fact worded unlike the page must reach the model, a fact about
something the page never says must not."""

from __future__ import annotations

import pytest

from schemas.knowledge import Passage
from scoring.roles import contradicted_values
from scoring.verify import NUMBERS_AS_CONTENT, WORD_FORMS, _key_terms_found, _shares_content
from vocabulary.forms import word_keys

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


# Word forms (``word-forms``): a place and its people or adjective, a plural.
FORMS_NAME = "Ruth Okonjo"
FORMS_PAGE = (
    "Ruth Okonjo (born 1961 in Kisumu, Kenya) is a Kenyan former sprinter. Her mother was Norwegian. She won the "
    "200 metres at the East African Championships in 1985 and ran at the 1988 Summer Olympics. She later farmed "
    "in Uganda, keeping Italian immigrant workers."
)
FORMS_PASSAGES = [Passage(title=FORMS_NAME, text=FORMS_PAGE)]


@pytest.mark.parametrize(
    "fact",
    [
        "In 1985 nobody in East Africa could beat Ruth Okonjo.",
        "Ruth Okonjo later ran a Ugandan farm.",
        "Ruth Okonjo's mum came from Norway.",
    ],
)
def test_a_key_term_matches_its_forms(fact: str) -> None:
    assert _key_terms_found(fact, FORMS_NAME, FORMS_PASSAGES) == 1.0


@pytest.mark.parametrize(
    "fact",
    [
        "Nobody in East Asia could beat Ruth Okonjo.",  # Asia is no form of African
        "Ruth Okonjo's mum came from Nigeria.",
        "Ruth Okonjo ran for Austria.",  # not Australia's, not Uganda's
    ],
)
def test_a_key_term_unlike_any_page_word_is_missing(fact: str) -> None:
    assert _key_terms_found(fact, FORMS_NAME, FORMS_PASSAGES) == 0.0


def test_word_forms_can_be_switched_off() -> None:
    fact = "In 1985 nobody in East Africa could beat Ruth Okonjo."
    assert _key_terms_found(fact, FORMS_NAME, FORMS_PASSAGES, frozenset({WORD_FORMS})) == 0.5


@pytest.mark.parametrize(
    ("fact", "shared"),
    [
        ("Ruth Okonjo's mum hailed from Norway.", True),  # Norwegian
        ("Ruth Okonjo grew up near Kenya.", True),  # Kenyan
        ("Ruth Okonjo hired people from Italy.", True),  # Italian
        # look-alikes: a plural or another nationality shares nothing (the model must not judge "Irish" by it)
        ("Ruth Okonjo hired Irish immigrants.", False),
        ("Ruth Okonjo grew up near Sweden.", False),
        ("Ruth Okonjo hired Portuguese migrants.", False),
    ],
)
def test_no_shared_content_reads_a_places_forms_only(fact: str, shared: bool) -> None:
    assert _shares_content(fact, FORMS_NAME, FORMS_PASSAGES) is shared


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("africa", "african", True),
        ("italy", "italian", True),
        ("japan", "japanese", True),
        ("norway", "norwegian", True),
        ("glasgow", "glaswegian", True),
        ("olympic", "olympics", True),
        ("organ", "organist", True),
        ("austria", "australia", False),
        ("orange", "organ", False),
        ("second", "seconds", False),
        ("india", "indigo", False),
    ],
)
def test_word_keys(a: str, b: str, same: bool) -> None:
    assert bool(word_keys(a) & word_keys(b)) is same


@pytest.mark.parametrize(
    ("fact", "refuted"),
    [
        ("Ruth Okonjo spoke about labour shortages in Australia.", False),
        ("Ruth Okonjo wrote about farm wages in Norway.", False),
        # look-alike: a place in no form on the page, another beside the fact's words
        ("Ruth Okonjo spoke about labour shortages in Argentina.", True),
    ],
)
def test_contradicted_value_reads_a_places_forms(fact: str, refuted: bool) -> None:
    texts = [
        "Ruth Okonjo lives in Kisumu. She has spoken publicly about labour shortages in Australian agriculture.",
        "She wrote about farm wages in Norwegian newspapers in Kisumu.",
    ]
    assert bool(contradicted_values(fact, texts, (FORMS_NAME,))) is refuted
