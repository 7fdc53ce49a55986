"""The lexicon of a life's events told in idioms (vocabulary/life_events.py) and its two readers: the value roles
(``idiom-role``: "passed in 1971" takes the page's death year) and the verify rule ``idiom-reading`` (the fact
checked again in the plain words a page writes). The same idiom with a wrong year or place stays refuted."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.enums import Stance
from scoring.idioms import plain_reading
from scoring.roles import IDIOM_ROLE, misplaced_values
from scoring.verifier import OfflineVerifier
from scoring.verify import IDIOM_READING, MISPLACED_VALUE, EvidenceVerifier, VerifyConfig

TITLE = "Orla Penwarden"
TEXT = (
    "Orla Penwarden (1938 – 2011) was a Cornish boxer and trainer. She was born in Truro in 1938. She won the "
    "national lightweight title in 1961 and retired in 1972. She married the referee Tom Hale in 1965. In 1975 "
    "she founded her own gym in Bristol. She received a doctorate in sports science in 1984. She moved to "
    "Cardiff in 1990 and died in Cardiff in 2011."
)
NAMES = (TITLE,)


@pytest.mark.parametrize(
    ("fact", "plain"),
    [
        # born
        ("Orla Penwarden's journey began in Truro.", "Orla Penwarden was born in Truro."),
        ("Her story starts in Truro, Cornwall.", "She was born in Truro, Cornwall."),
        ("Penwarden first saw the light of day in 1938.", "Penwarden was born in 1938."),
        ("Orla Penwarden having first seen the light of day at Truro.", "Orla Penwarden was born at Truro."),
        ("She came into the world in 1938.", "She was born in 1938."),
        # died
        ("Orla Penwarden passed in 2011.", "Orla Penwarden died in 2011."),
        ("She passed on in Cardiff.", "She died in Cardiff."),
        ("She left us in 2011.", "She died in 2011."),
        ("Life ended in 2011.", "Died in 2011."),
        ("Her life came to an end in Cardiff.", "She died in Cardiff."),
        # retired
        ("Penwarden called it a day in 1972.", "Penwarden retired in 1972."),
        ("She hung up the gloves in 1972.", "She retired in 1972."),
        ("She stepped away from competition in 1972.", "She retired in 1972."),
        # married, doctorate, founded, moved, debut, won
        ("She tied the knot with Tom Hale.", "She married Tom Hale."),
        ("She earned a PhD in 1984.", "She received a doctorate in 1984."),
        ("She set up her own gym in Bristol.", "She founded her own gym in Bristol."),
        ("She upped sticks to Cardiff in 1990.", "She moved to Cardiff in 1990."),
        ("Her first long player was Slow Tide.", "Her debut album was Slow Tide."),
        ("She took the national title in 1961.", "She won the national title in 1961."),
    ],
)
def test_idioms_read_in_plain_words(fact: str, plain: str) -> None:
    assert plain_reading(fact, NAMES) == plain


@pytest.mark.parametrize(
    "fact",
    [
        "She passed the bar in 1990.",
        "The law passed in 1971.",
        "She began her journey to Truro in 1990.",
        "Her journey began in earnest in 1990.",
        "The company's story began in 1990.",
        "Her political life ended in 1990.",
        "Life ended for her career in boxing.",
        "The manuscript first saw the light of day in 1990.",
        "She left us in the lurch.",
        "She passed on the title in 1990.",
        "She set up a meeting with the board.",
        "She took the train to Cardiff in 1990.",
    ],
)
def test_look_alikes_are_left_as_written(fact: str) -> None:
    assert plain_reading(fact, NAMES) == fact


def test_the_page_s_own_wording_is_chosen() -> None:
    # "completed her PhD" is read as the page says it: "obtained a doctorate", not the default "received".
    page = ("She obtained a doctorate from Leeds in 1984.",)
    assert plain_reading("She completed her PhD in 1984.", NAMES, page) == "She obtained a doctorate in 1984."
    # the page's own idiom is left as written
    assert plain_reading("She called it a day in 1972.", NAMES, ("She called it a day in 1972.",)) == (
        "She called it a day in 1972."
    )


@pytest.mark.parametrize(
    "fact",
    [
        "Orla Penwarden passed in 2011.",
        "Orla Penwarden's journey began in Truro.",
        "Orla Penwarden first saw the light of day in 1938.",
    ],
)
def test_the_value_takes_the_idiom_s_role(fact: str) -> None:
    assert misplaced_values(fact, [TEXT], NAMES) == []
    # without the idiom's role the value is found only in the birth or death role
    assert misplaced_values(fact, [TEXT], NAMES, idioms=False) != []


@pytest.mark.parametrize(
    "fact",
    [
        # the birth year read as a death, the death place as a birthplace: still misplaced
        "Orla Penwarden passed in 1938.",
        "Orla Penwarden's journey began in Cardiff.",
        "Orla Penwarden first saw the light of day in 2011.",
    ],
)
def test_an_idiom_with_the_other_life_value_stays_misplaced(fact: str) -> None:
    assert misplaced_values(fact, [TEXT], NAMES) != []


@pytest.mark.parametrize(
    "fact",
    [
        "Orla Penwarden passed in 2011.",
        "Orla Penwarden's journey began in Truro.",
        "Orla Penwarden called it a day in 1972.",
    ],
)
def test_an_idiom_is_supported(store: Store, verifier: OfflineVerifier, fact: str) -> None:
    verdict = EvidenceVerifier(store, verifier).against(fact, TITLE, TITLE)
    assert verdict.stance is Stance.SUPPORT


@pytest.mark.parametrize(
    "fact",
    [
        # the same idioms with a wrong year or place: refuted (the plain reading's year or place stands beside no
        # word of the event, and another one does)
        "Orla Penwarden passed in 1938.",
        "Orla Penwarden passed in 2014.",
        "Orla Penwarden passed in Truro.",
        "Orla Penwarden's journey began in Cardiff.",
        "Orla Penwarden called it a day in 1961.",
        "Orla Penwarden upped sticks to Truro in 1990.",
        "Orla Penwarden tied the knot with Tom Hale in 1975.",
        "Orla Penwarden earned a PhD in 1975.",
        "Orla Penwarden set up her own gym in Truro.",
        "Orla Penwarden took the national title in 1972.",
    ],
)
def test_the_idiom_with_a_wrong_value_stays_refuted(store: Store, verifier: OfflineVerifier, fact: str) -> None:
    verdict = EvidenceVerifier(store, verifier).against(fact, TITLE, TITLE)
    assert verdict.stance is Stance.REFUTE


def test_the_role_reading_can_be_switched_off(store: Store, verifier: OfflineVerifier) -> None:
    fact = "Orla Penwarden passed in 2011."
    off = VerifyConfig(rules_off=frozenset({IDIOM_ROLE, IDIOM_READING}))
    verdict = EvidenceVerifier(store, verifier, config=off).against(fact, TITLE, TITLE)
    assert (verdict.stance, verdict.decided_by) == (Stance.REFUTE, MISPLACED_VALUE)
