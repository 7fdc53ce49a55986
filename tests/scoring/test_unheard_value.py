"""The verify rule ``unheard-value``: a fact gives a relation that holds one value per person (born or died in a
year or a place, a nationality, a spouse, a named award's year) a value the page never writes, while the page
gives that relation another value. No namesake is needed (that is ``crossed-value``); a value the page writes
anywhere is left to the model and the role rules."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.enums import Stance
from scoring.crossed import unheard_values
from scoring.verifier import OfflineVerifier
from scoring.verify import UNHEARD_VALUE, EntityVerdict, EvidenceVerifier, VerifyConfig

TITLE = "Liisa Harjula"
TEXT = (
    "Liisa Harjula (born 1953 in Kajaani, Finland) is a Finnish potter. She studied ceramics in Helsinki from 1972 "
    "to 1976 and opened a workshop in Kuopio in 1980. She received the Saima Medal in 1999. She is married to the "
    "glass artist Mikko Rautio. Her brother Pekka lives in Lahti."
)
# Two values of one relation: a birthplace in dispute.
TWO = "Olavi Kettula"
TWO_TEXT = (
    "Olavi Kettula (1921 – 1990) was a Finnish organist. He was born in Porvoo, though some records say he was born "
    "in Loviisa. He died in Turku in 1990."
)


@pytest.fixture(scope="module")
def kb() -> Store:
    return Store.in_memory([(TITLE, TEXT, []), (TWO, TWO_TEXT, [])])


def _verdict(
    kb: Store, verifier: OfflineVerifier, fact: str, title: str = TITLE, off: frozenset[str] = frozenset()
) -> EntityVerdict:
    return EvidenceVerifier(kb, verifier, config=VerifyConfig(rules_off=off)).against(fact, title, title)


@pytest.mark.parametrize(
    ("fact", "title"),
    [
        ("Liisa Harjula was born in Tampere, Finland.", TITLE),  # the region both share
        ("She was born in Vaasa, Finland, in 1953.", TITLE),  # the year right, the town not on the page
        ("Born in Oulu, Finland, in 1953.", TITLE),  # a record's fragment, no subject
    ],
)
def test_a_value_the_page_never_writes_is_refuted(kb: Store, verifier: OfflineVerifier, fact: str, title: str) -> None:
    verdict = _verdict(kb, verifier, fact, title)
    assert verdict.stance is Stance.REFUTE
    assert verdict.decided_by == UNHEARD_VALUE


@pytest.mark.parametrize(
    ("fact", "text", "title", "value"),
    [
        ("Liisa Harjula is married to the painter Jussi Koski.", TEXT, TITLE, "Jussi Koski"),
        ("Liisa Harjula is a Swedish potter.", TEXT, TITLE, "Swedish"),
        ("Liisa Harjula received the Saima Medal in 2003.", TEXT, TITLE, "2003"),
        ("Olavi Kettula was born in Helsinki.", TWO_TEXT, TWO, "Helsinki"),  # two values on the page, neither
        ("Olavi Kettula died in Tampere in 1990.", TWO_TEXT, TWO, "Tampere"),  # the year right, the place not
    ],
)
def test_every_relation_of_one_value_is_read(fact: str, text: str, title: str, value: str) -> None:
    # Where the pages lack the fact's names altogether, ``key-terms-missing`` decides first (not supported
    # either); the rule reads the relations all the same.
    assert [v.text for v in unheard_values(fact, [text], title)] == [value]


@pytest.mark.parametrize(
    ("fact", "title"),
    [
        ("Liisa Harjula was born in Kajaani, Finland.", TITLE),  # the page's value
        ("Liisa Harjula was born in Kuopio.", TITLE),  # a town the page writes (for her workshop): the model's
        ("Liisa Harjula is married to the glass artist Mikko Rautio.", TITLE),
        ("Liisa Harjula is a Finnish potter.", TITLE),
        ("Liisa Harjula lives in Lahti.", TITLE),  # no relation of one value per person
        ("Liisa Harjula was not born in Tampere.", TITLE),  # a denial claims no value
        ("Olavi Kettula was born in Loviisa.", TWO),  # the page gives the relation two values, this one among them
    ],
)
def test_look_alikes_are_left_to_the_model_and_other_rules(
    kb: Store, verifier: OfflineVerifier, fact: str, title: str
) -> None:
    assert _verdict(kb, verifier, fact, title).decided_by != UNHEARD_VALUE


def test_the_pages_own_value_leads_the_evidence(kb: Store, verifier: OfflineVerifier) -> None:
    verdict = _verdict(kb, verifier, "Liisa Harjula was born in Tampere, Finland.")
    assert "Kajaani" in verdict.evidence[0].text


def test_the_rule_can_be_switched_off(kb: Store, verifier: OfflineVerifier) -> None:
    fact = "Liisa Harjula was born in Tampere, Finland."
    assert _verdict(kb, verifier, fact, off=frozenset({UNHEARD_VALUE})).decided_by != UNHEARD_VALUE


def test_a_value_heard_elsewhere_on_the_page_is_not_the_rules() -> None:
    # Kuopio is on the page (the workshop), so another reading of the page might hold it: left to the model.
    assert unheard_values("Liisa Harjula was born in Kuopio.", [TEXT], TITLE) == []
    assert [v.text for v in unheard_values("Liisa Harjula was born in Tampere.", [TEXT], TITLE)] == ["Tampere"]
