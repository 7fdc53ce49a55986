"""``generic-after-decline``: an answer that declines and then gives general advice abstains however long the
advice; one that declines and then states things of a person is checked."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from scoring.checker import names_nothing
from scoring.pipeline import CheckConfig, check

PAGES = [
    ("Ada Brook (cellist)", "Ada Brook (born 1950) is a Polish cellist. She taught at the Gdańsk Academy of Music."),
]

ADVICE = (
    "I couldn't find reliable information about Ada Brook, so I won't guess.\n\n"
    "A regional archive often keeps short profiles of local musicians. Concert programmes can list a player's "
    "teachers and earlier posts. A conservatory usually publishes a staff page with a short biography. "
    "Checking several independent sources is the surest way to avoid mixing people up. "
    "Old newspapers can be searched through a library's online catalogue. "
    "Professional associations tend to keep member directories that are kept up to date."
)


@pytest.mark.parametrize(
    "statement",
    [
        "A regional archive often keeps short profiles of local musicians.",
        "Checking several independent sources is the surest way to avoid mixing people up.",
        "I'd suggest that a conservatory staff page is a good place to start.",
    ],
)
def test_advice_names_nothing(statement: str) -> None:
    assert names_nothing(statement)


@pytest.mark.parametrize(
    "statement",
    [
        "He taught at a conservatory for twenty years and retired in 2010.",  # a digit and he
        "Ada Brook taught at the conservatory.",  # a name past the first word
        "The orchestra toured Japan.",  # a place
        "She keeps records of her own concerts.",  # she
    ],
)
def test_statements_that_name_someone_or_something_are_not_advice(statement: str) -> None:
    assert not names_nothing(statement)


def test_a_decline_followed_by_advice_abstains_however_long_the_advice() -> None:
    store = Store.in_memory(PAGES)
    result = check(ADVICE, kb=store, name="Ada Brook")
    assert result.status == "abstained" and result.abstained_by == "declined-without-evidence"
    off = check(ADVICE, kb=store, name="Ada Brook", config=CheckConfig().without(["generic-after-decline"]))
    assert off.status != "abstained"


def test_a_decline_followed_by_claims_about_the_person_is_checked() -> None:
    answer = (
        "I couldn't find reliable information about Ada Brook, so treat this with care. "
        "Ada Brook was born in 1950. She taught at the Gdańsk Academy of Music. She recorded the Bach suites in "
        "1984. She won the Sopot Prize in 1990. She retired to Kraków in 2012."
    )
    result = check(answer, kb=Store.in_memory(PAGES), name="Ada Brook")
    assert result.status == "checked"
    assert any(f.verdict.value == "supported" and "Gdańsk" in f.text for g in result.groups for f in g.facts)
