"""Measures checked against the page's measures: the same number in the same unit supports, another number in
that unit beside the fact's words refutes; decades, years and amounts of money are not measures."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.enums import Stance
from scoring.measures import measure_contradicted, measure_stated, measures
from scoring.verify import CONTRADICTED_MEASURE, STATED_MEASURE, EvidenceVerifier, VerifyConfig
from tests.scoring.stance_stand_in import fixed

TITLE = "Ingrid Solvang"
TEXT = (
    "Ingrid Solvang (born 1971 in Tromsø) is a Norwegian glaciologist and distance runner. From 1996 to 1999 she "
    "led the drilling campaign on the Holtbreen glacier, which recovered a core 412 metres long. She ran the "
    "marathon in 2 hours 31 minutes in 2004. In 2010 she skied across the Hardangervidda in 9 days. The Holtbreen "
    "campaign site covered 600 square metres."
)
NAME = (TITLE,)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("a 214-metre core", [(214.0, "m")]),
        # a time in two units is one time, in the smaller unit
        ("in 2 hours 31 minutes", [(151.0, "min")]),
        ("in 9 hours and 47 minutes", [(587.0, "min")]),
        ("1 minute, 5 seconds", [(65.0, "s")]),
        ("hold it for 30 seconds", [(30.0, "s")]),
        ("up to 3,200 Mbps", [(3200.0, "mbps")]),
        ("the 200 m in 20.31 s", [(200.0, "m"), (20.31, "s")]),
        # decades, years, money and a preposition after a number are no measures
        ("famous in the 1970s and the 80s", []),
        ("for 33 years", []),
        ("it costs £4.99 a month", []),
        ("he scored 11 in 2009", []),
        # areas, in signs and in words, one unit however written
        ("Maximum lawn area: 900 m²", [(900.0, "m2")]),
        ("lawns of up to 450 square metres", [(450.0, "m2")]),
        ("a 12-hectare estate of 3,000 sq ft", [(12.0, "ha"), (3000.0, "ft2")]),
        ("a park of 14 square kilometres, 14 km²", [(14.0, "km2"), (14.0, "km2")]),
        # look-alikes: a length is no area, "m" before a word no unit
        ("he was 2 m tall", [(2.0, "m")]),
        ("the M2 motorway and the A1", []),
        ("in the 1970s, 2 had", []),
    ],
)
def test_a_measure_is_a_number_and_its_unit(text: str, found: list[tuple[float, str]]) -> None:
    assert [(m.number, m.unit) for m in measures(text)] == found


@pytest.mark.parametrize(
    ("fact", "stated", "contradicted"),
    [
        ("The campaign recovered a 412-metre core.", True, []),
        ("The campaign recovered a 214-metre core.", False, ["m"]),
        ("Ingrid Solvang ran the marathon in 2 hours 31 minutes.", True, []),
        ("Ingrid Solvang ran the marathon in 2 hours 41 minutes.", False, ["min"]),
        ("Ingrid Solvang skied across the Hardangervidda in nine days.", True, []),
        # another unit, or nothing of the fact beside the rival: neither
        ("Ingrid Solvang lifted 90 kilograms.", False, []),
        ("Ingrid Solvang painted for 300 days.", False, []),
        # an area in signs against the page's in words
        ("The Holtbreen campaign site covered 600 m².", True, []),
        ("The Holtbreen campaign site covered 900 square metres.", False, ["m2"]),
        ("The Holtbreen campaign site covered 900 acres.", False, []),  # a unit the page gives nothing in
    ],
)
def test_measures_are_stated_or_contradicted_by_the_page(fact: str, stated: bool, contradicted: list[str]) -> None:
    assert measure_stated(fact, [TEXT], NAME) is stated
    assert [m.unit for m in measure_contradicted(fact, [TEXT], NAME)] == contradicted


def test_the_verifier_decides_measures_by_the_rules() -> None:
    # A stand-in model that leaves every fact unsupported (P(support) 0.3): what decides is the rules, whatever
    # the packaged weights say of these facts.
    verifier = fixed(0.3)
    kb = Store.in_memory()
    kb.add_pages([(TITLE, TEXT, [])])
    wrong = "The Holtbreen campaign of Ingrid Solvang recovered a 214-metre core."
    verdict = EvidenceVerifier(kb, verifier).against(wrong, TITLE, TITLE)
    assert (verdict.stance, verdict.decided_by) == (Stance.REFUTE, CONTRADICTED_MEASURE)
    off = VerifyConfig(rules_off=frozenset({CONTRADICTED_MEASURE}))
    assert EvidenceVerifier(kb, verifier, config=off).against(wrong, TITLE, TITLE).decided_by != CONTRADICTED_MEASURE
    # the model alone does not support this one; the page's "in 9 days" beside the Hardangervidda does
    right = "Her longest trip, on the Hardangervidda, lasted 9 days."
    verdict = EvidenceVerifier(kb, verifier).against(right, TITLE, TITLE)
    assert (verdict.stance, verdict.decided_by) == (Stance.SUPPORT, STATED_MEASURE)
    off = VerifyConfig(rules_off=frozenset({STATED_MEASURE}))
    assert EvidenceVerifier(kb, verifier, config=off).against(right, TITLE, TITLE).stance is not Stance.SUPPORT


@pytest.mark.parametrize(
    ("fact", "stated"),
    [
        # a part of a compound time is no time of its own: 31 minutes is not 2 hours 31 minutes
        ("Ingrid Solvang ran the marathon in 31 minutes.", False),
        ("Ingrid Solvang ran the marathon in 151 minutes.", True),
        # a qualified measure admits a bounded range about its number, no more
        ("Ingrid Solvang ran the marathon in a little over 140 minutes.", True),
        ("Ingrid Solvang ran the marathon in a little over 2 hours.", False),  # 2 h 31 is more than a little
        ("Ingrid Solvang ran the marathon in well under three hours.", True),
        ("Ingrid Solvang ran the marathon in about 150 minutes.", True),
        ("Ingrid Solvang ran the marathon in under two hours.", False),
        ("Ingrid Solvang ran the marathon in a little over 3 hours.", False),
        ("The campaign recovered a core of around 400 metres.", True),
        ("The campaign recovered a core of around 480 metres.", False),
        ("The campaign recovered a core of almost 500 metres.", False),
        ("The campaign recovered a core of nearly 420 metres.", True),
    ],
)
def test_compound_times_and_bounded_approximations(fact: str, stated: bool) -> None:
    assert measure_stated(fact, [TEXT], NAME) is stated


def test_a_wrong_part_of_a_compound_time_is_contradicted() -> None:
    assert [
        m.unit for m in measure_contradicted("Ingrid Solvang ran the marathon in 3 hours 31 minutes.", [TEXT], NAME)
    ] == ["min"]
