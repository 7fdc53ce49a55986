"""The verify rule ``crossed-value``: a fact gives a person the value a namesake's page gives for a relation that
holds one value per person (birth year or place, death year or place, nationality, spouse, a named award's
year), where the person's own page gives another. Revision puts the page's own value in or drops the fact."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.enums import Stance
from scoring.crossed import corrections, crossed_values, fact_stated, negated, page_stated
from scoring.pipeline import check
from scoring.revise import _link_holds
from scoring.verifier import OfflineVerifier
from scoring.verify import CROSSED_VALUE, EntityVerdict, EvidenceVerifier, VerifyConfig

GLASS = "Tamsin Oduya (glassmaker)"
WATER = "Tamsin Oduya (hydrologist)"
GLASS_TEXT = (
    "Tamsin Oduya (born 1974 in Galway, Ireland) is an Irish glassmaker. She trained at the Corrib School of Design "
    "from 1992 to 1996 and opened her studio in Westport in 2001. She received the Marlow Medal in 2008. She is "
    "married to the boatbuilder Cathal Moran, and they live in Westport."
)
WATER_TEXT = (
    "Tamsin Oduya (1931 – 2004) was a Scottish hydrologist. Born in Perth, Scotland, she studied at the Tay "
    "Institute and joined the River Survey in 1974. She received the Marlow Medal in 1988. She married the "
    "surveyor Hugh Lennard in 1958. She died in Inverness in 2004."
)
# A page that gives a relation two values: a birthplace in dispute.
TWO_TEXT = (
    "Ewan Strachey (born 1950) is a Welsh harpist. He was born in Bangor, though some records say he was born in "
    "Conwy. He taught at the Menai Conservatoire from 1980 to 2012."
)
TWO_OTHER_TEXT = "Ewan Strachey (born 1962 in Conwy, Wales) is a British rugby referee. He refereed 40 Test matches."


@pytest.fixture(scope="module")
def kb() -> Store:
    return Store.in_memory(
        [
            (GLASS, GLASS_TEXT, []),
            (WATER, WATER_TEXT, []),
            ("Ewan Strachey (harpist)", TWO_TEXT, []),
            ("Ewan Strachey (referee)", TWO_OTHER_TEXT, []),
        ]
    )


def _verdict(
    kb: Store, verifier: OfflineVerifier, fact: str, title: str, off: frozenset[str] = frozenset()
) -> EntityVerdict:
    return EvidenceVerifier(kb, verifier, config=VerifyConfig(rules_off=off)).against(fact, title, "Tamsin Oduya")


@pytest.mark.parametrize(
    ("fact", "title"),
    [
        ("Tamsin Oduya was born in Perth.", GLASS),  # the hydrologist's birthplace given to the glassmaker
        ("Tamsin Oduya, the glassmaker, was born in 1931.", GLASS),
        ("Born in Perth, Scotland.", GLASS),  # a record's fragment, regions after the town
        ("Tamsin Oduya was born in Perth in 1974.", GLASS),  # a compound: the year right, the place crossed
        ("Tamsin Oduya is married to Hugh Lennard.", GLASS),
        ("Tamsin Oduya received the Marlow Medal in 1988.", GLASS),
        ("Tamsin Oduya is a Scottish glassmaker.", GLASS),
        ("Tamsin Oduya was born in Galway in 1931.", WATER),  # the glassmaker's birthplace given to the hydrologist
        ("Tamsin Oduya married the boatbuilder Cathal Moran.", WATER),
    ],
)
def test_a_value_crossed_from_the_namesake_is_refuted(
    kb: Store, verifier: OfflineVerifier, fact: str, title: str
) -> None:
    verdict = _verdict(kb, verifier, fact, title)
    assert (verdict.stance, verdict.decided_by) == (Stance.REFUTE, CROSSED_VALUE)


@pytest.mark.parametrize(
    ("fact", "title"),
    [
        # the namesake's fact said of the namesake: their own page gives it
        ("Tamsin Oduya was born in Perth.", WATER),
        ("Tamsin Oduya married the surveyor Hugh Lennard.", WATER),
        # negated or contrastive: no value is claimed
        ("Tamsin Oduya cannot be the hydrologist born in Perth.", GLASS),
        ("Tamsin Oduya is not the one born in 1931.", GLASS),
        ("Unlike the other, born in Perth, Tamsin Oduya works in glass.", GLASS),
        # a year that is the judged person's other event (and the namesake's birth year)
        ("Tamsin Oduya joined the River Survey in 1974.", WATER),
        # a relation the judged page does not give (the glassmaker's page says nothing of a death)
        ("Tamsin Oduya died in Inverness.", GLASS),
        # a wrong value no namesake gives: another rule's, not a crossed one
        ("Tamsin Oduya was born in Cork.", GLASS),
        # someone else's birth
        ("Tamsin Oduya's son was born in Perth.", GLASS),
    ],
)
def test_look_alikes_are_left_to_the_other_rules(kb: Store, verifier: OfflineVerifier, fact: str, title: str) -> None:
    assert _verdict(kb, verifier, fact, title).decided_by != CROSSED_VALUE


def test_a_page_that_gives_both_values_is_no_crossing(kb: Store, verifier: OfflineVerifier) -> None:
    # The harpist's page gives Bangor and, from some records, Conwy (the referee's birthplace): Conwy is not crossed.
    verdict = EvidenceVerifier(kb, verifier).against("Ewan Strachey was born in Conwy.", "Ewan Strachey (harpist)", "")
    assert verdict.decided_by != CROSSED_VALUE
    assert [s.text for s in crossed_values("Ewan Strachey was born in Conwy.", [TWO_TEXT], [[TWO_OTHER_TEXT]])] == []


def test_a_nationality_within_the_pages_is_no_crossing(kb: Store, verifier: OfflineVerifier) -> None:
    # The referee's page says British, the harpist's Welsh: a Welsh harpist is British too.
    fact = "Ewan Strachey is a British harpist."
    assert EvidenceVerifier(kb, verifier).against(fact, "Ewan Strachey (harpist)", "").decided_by != CROSSED_VALUE
    assert crossed_values(fact, [TWO_TEXT], [[TWO_OTHER_TEXT]], "Ewan Strachey") == []


def test_the_rule_can_be_switched_off(kb: Store, verifier: OfflineVerifier) -> None:
    fact = "Tamsin Oduya was born in Perth."
    assert _verdict(kb, verifier, fact, GLASS, frozenset({CROSSED_VALUE})).decided_by != CROSSED_VALUE


def test_the_crossed_value_leads_with_the_pages_own_value(kb: Store, verifier: OfflineVerifier) -> None:
    verdict = _verdict(kb, verifier, "Tamsin Oduya was born in Perth.", GLASS)
    assert "Galway" in verdict.evidence[0].text


def test_what_a_page_states_per_relation() -> None:
    stated = {(s.relation, s.written) for s in page_stated([WATER_TEXT], WATER)}
    assert stated == {
        ("born-year", "1931"),
        ("died-year", "2004"),
        ("nationality", "Scottish"),
        ("born-place", "Perth, Scotland"),
        ("award-year", "1988"),
        ("spouse", "Hugh Lennard"),
        ("died-place", "Inverness"),
    }


@pytest.mark.parametrize(
    "fact",
    [
        "Tamsin Oduya cannot be the diplomat born in 1961.",
        "She is not the one born in Leiden.",
        "Unlike the other, born in Leiden, she stayed.",
        "Whereas the other was born in Leiden, she was not.",
    ],
)
def test_negated_and_contrastive_facts_claim_nothing(fact: str) -> None:
    assert negated(fact)
    assert fact_stated(fact) == []


@pytest.mark.parametrize(
    ("fact", "swaps"),
    [
        ("Tamsin Oduya was born in Perth in 1974.", [("Perth", "Galway")]),
        ("Born in Perth, Scotland.", [("Perth, Scotland", "Galway, Ireland")]),
        ("Tamsin Oduya is married to Hugh Lennard.", [("Hugh Lennard", "Cathal Moran")]),
        ("Tamsin Oduya received the Marlow Medal in 1988.", [("1988", "2008")]),
        ("Tamsin Oduya was born in 1931.", [("1931", "1974")]),
    ],
)
def test_corrections_take_the_pages_value_of_the_same_relation(fact: str, swaps: list[tuple[str, str]]) -> None:
    assert corrections(fact, [GLASS_TEXT], "Tamsin Oduya") == swaps


def test_no_correction_where_the_page_gives_two_values() -> None:
    # Two birthplaces on the page: no single value to put in, so the fact goes instead of taking one of them.
    assert corrections("Ewan Strachey was born in Rhyl.", [TWO_TEXT], "Ewan Strachey") == []


def test_revision_replaces_the_crossed_value_and_keeps_the_namesakes_own(kb: Store, verifier: OfflineVerifier) -> None:
    answer = (
        "There are two people named Tamsin Oduya.\n\n"
        "Tamsin Oduya the hydrologist (1931 – 2004) was born in Perth and died in Inverness.\n\n"
        "Tamsin Oduya the glassmaker was born in Perth in 1974. She opened her studio in Westport in 2001."
    )
    result = check(answer, kb=kb, verifier=verifier, name="Tamsin Oduya")
    assert result.num_bios >= 2
    glassmaker = next(g for g in result.groups if g.entity == GLASS)
    assert [f.text for f in glassmaker.facts if f.decided_by == CROSSED_VALUE] == ["Tamsin Oduya was born in Perth."]
    assert result.revision is not None
    revised = result.revision.text
    # the hydrologist keeps Perth; the glassmaker's Perth is replaced by her page's Galway, not moved out to the
    # hydrologist a second time
    assert "hydrologist (1931 – 2004) was born in Perth and died in Inverness" in revised
    assert "glassmaker was born in Galway in 1974" in revised
    assert revised.count("Perth") == 1


@pytest.mark.parametrize(
    ("answer", "kept"),
    [
        (
            "Tamsin Oduya is an Irish glassmaker born in Galway in 1974. She cannot be the hydrologist born in Perth.",
            "born in Galway in 1974",
        ),
        ("Tamsin Oduya is an Irish glassmaker. She is not the one born in 1931; she was born in 1974.", "in 1974"),
        (
            "Tamsin Oduya is an Irish glassmaker. Unlike the other Tamsin Oduya, born in Perth, "
            "she was born in Galway.",
            "born in Galway",
        ),
        ("Tamsin Oduya is an Irish glassmaker. She was born in Galway, not in Perth like the hydrologist.", "Galway"),
    ],
)
def test_a_whole_answer_that_denies_the_namesakes_value_has_no_crossed_fact(
    kb: Store, verifier: OfflineVerifier, answer: str, kept: str
) -> None:
    result = check(answer, kb=kb, verifier=verifier, name="Tamsin Oduya")
    assert [f.text for g in result.groups for f in g.facts if f.decided_by == CROSSED_VALUE] == []
    assert result.revision is not None and kept in result.revision.text


def test_a_group_linked_to_the_namesake_by_mistake_is_not_corrected_from_that_page() -> None:
    """The crossed value is corrected from the group's page only where that page supports at least as many of the
    group's facts as the page that supports the value: otherwise the link is the doubtful part."""
    verdict = {True: EntityVerdict(GLASS, Stance.SUPPORT, 0.9, 0.0), False: EntityVerdict(GLASS, Stance.REFUTE, 0, 0.8)}
    fact = type("F", (), {"verdicts": {GLASS: verdict[False], WATER: verdict[True]}})()
    assert _link_holds(fact, GLASS, {GLASS: 5, WATER: 2})  # type: ignore[arg-type]
    assert _link_holds(fact, GLASS, {GLASS: 3, WATER: 3})  # type: ignore[arg-type]
    assert not _link_holds(fact, GLASS, {GLASS: 2, WATER: 7})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("fact", "crossed"),
    [
        ("Tamsin Oduya was Scottish.", ["Scottish"]),
        ("She was a Scottish glassmaker.", ["Scottish"]),
        # A record read with another subject ("Languages: English, Gaelic, Scottish …") claims no nationality of hers.
        ("English Gaelic, Irish was Scottish.", []),
        ("The workshop was Scottish.", []),
    ],
)
def test_a_nationality_is_crossed_only_in_a_fact_about_the_person(fact: str, crossed: list[str]) -> None:
    found = crossed_values(fact, [GLASS_TEXT], [[WATER_TEXT]], GLASS)
    assert [s.text for s in found] == crossed
