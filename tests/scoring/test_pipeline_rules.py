"""Whole-pipeline rules on a made-up knowledge base: links need evidence, wrong values are dropped or fixed."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from scoring.pipeline import check

PAGES = [
    (
        "Ines Holloway (sculptor)",
        "Ines Holloway (12 March 1931 – 8 July 1999) was a Welsh sculptor. She was born in Pentrebach, a hamlet near "
        "Swansea, and died in Cardiff. In 1964 she carved the river gate of Monmouth. "
        "She taught sculpture at the Cardiff School of Art.",
        [],
    ),
    (
        "Ines Holloway (chemist)",
        "Ines Holloway (born 1958) is an English chemist. She was born in Leeds. In 1990 she joined the University "
        "of York, where she studies catalysts. She has two sons.",
        [],
    ),
]


@pytest.fixture(scope="module")
def kb() -> Store:
    store = Store.in_memory()
    store.add_pages(PAGES)
    return store


def test_a_group_without_evidence_takes_no_page(kb: Store) -> None:
    answer = (
        "Ines Holloway was a Welsh sculptor who carved the river gate of Monmouth in 1964. "
        "Another Ines Holloway was a deep-sea diver who won the Pacific Cup in 1977."
    )
    result = check(answer, kb=kb, name="Ines Holloway")
    assert [g.entity for g in result.groups] == ["Ines Holloway (sculptor)", None]


@pytest.mark.parametrize(
    ("answer", "wrong", "right"),
    [
        ("Ines Holloway was a Welsh sculptor. She was born in 1999.", "1999", "1931"),  # her death year
        # where she died; Swansea is only near her birthplace, so it is no replacement either
        ("Ines Holloway was a Welsh sculptor. She was born in Cardiff.", "Cardiff", None),
        ("Ines Holloway was a Welsh sculptor. She was born in Cardiff.", "Swansea", None),
        ("Ines Holloway is an English chemist. She joined the University of York in 1958.", "1958", "1990"),
    ],
)
def test_a_value_in_the_wrong_role_is_not_kept(kb: Store, answer: str, wrong: str, right: str | None) -> None:
    result = check(answer, kb=kb, name="Ines Holloway")
    assert result.revision is not None
    assert wrong not in result.revision.text
    if right is not None:
        assert right in result.revision.text


@pytest.mark.parametrize(
    ("answer", "absent"),
    [
        # a count is replaced only by a count of the same noun, never by a date
        ("Ines Holloway is an English chemist born in 1958. She has three sons.", ["three", "1958 sons", "1990 sons"]),
        # "one of" is a share, not a value
        ("Ines Holloway is an English chemist. She is one of the founders of the York Catalysis Club.", ["1990 of"]),
    ],
)
def test_replacements_keep_the_kind_of_value(kb: Store, answer: str, absent: list[str]) -> None:
    result = check(answer, kb=kb, name="Ines Holloway")
    assert result.revision is not None
    assert not [a for a in absent if a in result.revision.text]
    assert "English chemist" in result.revision.text


@pytest.mark.parametrize(
    ("fact", "found"),
    [
        ("The Ninth Window was released in 2013.", 1),
        ("A Keeper's Year was published in 1949.", 2),
        ("The Kehlbrücke footbridge was completed in 2008.", 3),
        ("The Ninth Window was released in 2014.", None),  # another year is no match
        ("She was born in 2013.", None),  # no work's year
    ],
)
def test_a_works_year_is_what_a_page_writes_in_parentheses_after_its_title(fact: str, found: int | None) -> None:
    from scoring.verify import work_year_in

    texts = [
        "She directed films.",
        "The Ninth Window (2013), a psychological thriller, won her an award.",
        "His book A Keeper's Year (1949) became a bestseller.",
        "She designed the Kehlbrücke footbridge (2008) over the Rhine.",
    ]
    assert work_year_in(fact, texts) == found


def test_the_work_year_rule_decides_and_switches_off() -> None:
    store = Store.in_memory()
    store.add_pages(
        [("Priya Rao", "Priya Rao is a film director. The Ninth Window (2013), a thriller, won an award.", [])]
    )
    answer = "Priya Rao is a film director whose best film is The Ninth Window (2013)."
    on = [f for g in check(answer, kb=store, name="Priya Rao").groups for f in g.facts if "2013" in f.text]
    assert on and on[0].verdict.value == "supported" and on[0].decided_by in ("work-year", "model"), on
    from scoring.pipeline import CheckConfig

    off = check(answer, kb=store, name="Priya Rao", config=CheckConfig().without(["work-year"]))
    assert all(f.decided_by != "work-year" for g in off.groups for f in g.facts)
