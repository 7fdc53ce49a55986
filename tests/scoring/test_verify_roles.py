"""Verification against a made-up page: values in the wrong role refute, outright statements support."""

from __future__ import annotations

from typing import Any

import pytest

from knowledge.store import Store
from schemas.enums import Stance
from scoring.roles import contradicted_values, rebound_years
from scoring.verifier import OfflineVerifier, StanceScore
from scoring.verify import CONTRADICTED_VALUE, REBOUND_YEAR, SURNAME_READING, EvidenceVerifier, VerifyConfig

TITLE = "Hendrika Vos"
TEXT = (
    "Hendrika Vos (4 May 1902 – 30 January 1977) was a Dutch astronomer. She was born in Leiden and died in Utrecht. "
    "She discovered the comet 31P/Vos in 1931 and 1938. In 1946 she became director of the Sonnenborgh observatory."
)


@pytest.mark.parametrize(
    ("fact", "stance"),
    [
        ("Hendrika Vos was born in 1977.", Stance.REFUTE),  # her death year
        ("Hendrika Vos was born in Utrecht.", Stance.REFUTE),  # where she died
        ("Hendrika Vos died in 1902.", Stance.REFUTE),
        ("Hendrika Vos became director of the Sonnenborgh observatory in 1946.", Stance.SUPPORT),
        ("Hendrika Vos discovered the comet in 1938.", Stance.SUPPORT),  # "in 1931 and 1938"
    ],
)
def test_values_are_verified_in_their_role(store: Store, verifier: OfflineVerifier, fact: str, stance: Stance) -> None:
    assert EvidenceVerifier(store, verifier).against(fact, TITLE, TITLE).stance is stance


CAREER = "Mirela Dascalu"
CAREER_TEXT = (
    "Mirela Dascalu (born 1962 in Cluj) is a Romanian conductor. She was principal conductor of the Transylvania "
    "Philharmonic from 1994 to 2006. In 2007 she founded the Someș Youth Orchestra in Cluj. She announced her "
    "retirement from the podium in 2021, and in 2016 she won the Enescu Medal."
)


@pytest.mark.parametrize(
    ("fact", "contradicted"),
    [
        # The page dates or places the fact's own predicate with another value.
        ("Mirela Dascalu founded the Someș Youth Orchestra in 2016.", ["2016"]),
        ("Mirela Dascalu founded the Someș Youth Orchestra in Bucharest.", ["bucharest"]),
        ("Mirela Dascalu conducted the Transylvania Philharmonic from 1994 to 2007.", ["2007"]),
        ("Mirela Dascalu retired from the podium in 2007.", ["2007"]),
        # Not contradicted: the value stands by the fact's words, it is an origin, or nothing rivals it.
        ("Mirela Dascalu founded the Someș Youth Orchestra in 2007.", []),
        ("Mirela Dascalu conducted the Transylvania Philharmonic from 1994 to 2006.", []),
        ("Mirela Dascalu is a conductor from Bucharest.", []),
        ("Mirela Dascalu recorded Enescu's symphonies in 1999.", []),
        ("Mirela Dascalu was born in 1961.", []),  # a birth year is misplaced-value's, not this rule's
    ],
)
def test_a_value_the_page_gives_otherwise_for_the_same_predicate_is_contradicted(
    fact: str, contradicted: list[str]
) -> None:
    found = contradicted_values(fact, [CAREER_TEXT], (CAREER,))
    assert [v.text for v in found] == contradicted


def test_the_verifier_refutes_a_contradicted_value_by_the_rule(verifier: OfflineVerifier) -> None:
    kb = Store.in_memory()
    kb.add_pages([(CAREER, CAREER_TEXT, [])])
    fact = "Mirela Dascalu founded the Someș Youth Orchestra in 2016."
    verdict = EvidenceVerifier(kb, verifier).against(fact, CAREER, CAREER)
    assert (verdict.stance, verdict.decided_by) == (Stance.REFUTE, CONTRADICTED_VALUE)
    assert "2007" in verdict.evidence[0].text
    off = VerifyConfig(rules_off=frozenset({CONTRADICTED_VALUE}))
    assert EvidenceVerifier(kb, verifier, config=off).against(fact, CAREER, CAREER).decided_by != CONTRADICTED_VALUE
    right = EvidenceVerifier(kb, verifier).against(
        "Mirela Dascalu founded the Someș Youth Orchestra in 2007.", CAREER, CAREER
    )
    assert right.stance is Stance.SUPPORT


def test_a_long_subject_name_is_also_read_as_its_surname(verifier: OfflineVerifier) -> None:
    """The stance model reads a long name as words the page must hold; the surname reading decides."""
    title = "Hiroshi Tanabe-Whitlock"
    text = (
        "Hiroshi Tanabe-Whitlock (born 1974 in Osaka, Japan) is a Japanese-Australian robotics engineer and "
        "entrepreneur. The son of a Japanese father and an Australian mother, he studied mechanical engineering at "
        "the Kansai Institute of Technology from 1992 to 1996 and received his PhD from the Southern Cross "
        "University of Technology in 2001. In 2006 he co-founded Gripwell Robotics in Sydney and served as its "
        "chief executive until 2019. His team developed Petal, a soft robotic gripper introduced in 2010 and widely "
        "used for picking fruit. He holds 19 patents and received the Bradfield Engineering Award in 2016. Since "
        "2020 he has been an adjunct professor at the Southern Cross University of Technology. He lives in Sydney. "
        "He has spoken publicly about labour shortages in Australian agriculture."
    )
    kb = Store.in_memory()
    kb.add_pages([(title, text, [])])
    fact = "Hiroshi Tanabe-Whitlock won Bradfield Engineering Award in 2016."
    on = EvidenceVerifier(kb, verifier).against(fact, title, title)
    off = EvidenceVerifier(kb, verifier, config=VerifyConfig(rules_off=frozenset({SURNAME_READING})))
    plain = off.against(fact, title, title)
    assert (on.stance, on.decided_by) == (Stance.SUPPORT, SURNAME_READING)
    # Ours now supports the plain reading too (a page's "he" sentences are read as about the subject); a model
    # that hears the surname alone is where the reading decides.
    assert plain.support <= on.support
    surname_only: Any = _HearsSurnameOnly()
    assert EvidenceVerifier(kb, surname_only).against(fact, title, title).stance is Stance.SUPPORT
    off_only = EvidenceVerifier(kb, surname_only, config=VerifyConfig(rules_off=frozenset({SURNAME_READING})))
    assert off_only.against(fact, title, title).stance is not Stance.SUPPORT


class _HearsSurnameOnly:
    """A stance model that supports a claim opening with the surname and nothing else."""

    version = "surname-only"

    def score(self, claim: str, passages: list[str]) -> list[StanceScore]:
        ok = claim.startswith("Tanabe-Whitlock ")
        return [
            StanceScore(Stance.SUPPORT if ok else Stance.IRRELEVANT, 0.9 if ok else 0.1, 0.05, 0.05) for _ in passages
        ]


RACES = "Tomasz Orlik"
RACES_TEXT = (
    "Tomasz Orlik (born 1980 in Gdynia) is a Polish sailor. He competed in the Baltic Cup in 2009, finishing third, "
    "and won it in 2012. He won the Polish championship twice, in 2010 and 2014, and took the overall title at the "
    "Hel Regatta in 2016. In 2011 he joined the Gdynia Yacht Club, which he left in 2019."
)


@pytest.mark.parametrize(
    ("fact", "rebound"),
    [
        # the sentence gives the fact's year to another predicate and the fact's predicate another year
        ("Tomasz Orlik won the Baltic Cup in 2009.", ["2009"]),
        ("Tomasz Orlik left the Gdynia Yacht Club in 2011.", ["2011"]),
        # the page binds them as the fact does
        ("Tomasz Orlik won the Baltic Cup in 2012.", []),
        ("Tomasz Orlik competed in the Baltic Cup in 2009.", []),
        ("Tomasz Orlik joined the Gdynia Yacht Club in 2011.", []),
        # another predicate of another thing ("won the Polish championship …, and took the title at the Hel
        # Regatta"): a paraphrase, not a rebinding
        ("Tomasz Orlik won the Hel Regatta in 2016.", []),
    ],
)
def test_a_year_the_page_gives_to_another_predicate_is_rebound(fact: str, rebound: list[str]) -> None:
    assert [v.text for v in rebound_years(fact, [RACES_TEXT], (RACES,))] == rebound


def test_the_verifier_refutes_a_rebound_year_by_the_rule(verifier: OfflineVerifier) -> None:
    kb = Store.in_memory()
    kb.add_pages([(RACES, RACES_TEXT, [])])
    fact = "Tomasz Orlik won the Baltic Cup in 2009."
    verdict = EvidenceVerifier(kb, verifier).against(fact, RACES, RACES)
    assert (verdict.stance, verdict.decided_by) == (Stance.REFUTE, REBOUND_YEAR)
    off = VerifyConfig(rules_off=frozenset({REBOUND_YEAR}))
    assert EvidenceVerifier(kb, verifier, config=off).against(fact, RACES, RACES).decided_by != REBOUND_YEAR
