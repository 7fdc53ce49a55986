"""Dates an answer gives relative to its own last year (scoring/answer_dates.py, rule ``answer-relative-dates``):
"three years later" after "in 1925" is 1928, and the fact is checked on that year; an uncounted "later", a date
after a named event, one the answer dates itself and an age are left as written."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from scoring.answer_dates import ANSWER_RELATIVE_DATES, dated
from scoring.pipeline import check, default_config


@pytest.mark.parametrize(
    ("sentences", "fact", "read"),
    [
        (  # the year of the sentence before
            ["He signed on with the lighthouse service in 1925.", "Three years later he was put in charge."],
            "Three years later Edmund Larkspur was put in charge.",
            "In 1928 Edmund Larkspur was put in charge.",
        ),
        (  # earlier in the same sentence, the count at the end
            ["She won the Saga Prize in 2012 and had a solo show in Oslo three years after that."],
            "She had a solo show in Oslo three years after that.",
            "She had a solo show in Oslo in 2015.",
        ),
        (  # no count: the year after
            ["The 2005 entry, Cold Harbour Lane, picked up the Gilded Quill Award the following year."],
            "The 2005 entry picked up the Gilded Quill Award the following year.",
            "The 2005 entry picked up the Gilded Quill Award in 2006.",
        ),
        (  # "a year later" after a range: its end is the last year written
            ["From 2010 to 2013 he played for Kjellvik FK.", "He won the Norwegian Cup a year later."],
            "He won the Norwegian Cup a year later.",
            "He won the Norwegian Cup in 2014.",
        ),
        (  # a decade, and a year two sentences back
            ["She joined the institute in 1990.", "She liked it there.", "A decade later she became its director."],
            "A decade later she became its director.",
            "In 2000 she became its director.",
        ),
        (  # earlier: counted back
            ["He won the league in 1998.", "Two years earlier he had won the Cup."],
            "Two years earlier he had won the Cup.",
            "In 1996 he had won the Cup.",
        ),
        (  # the same year
            ["She graduated in 1999.", "That same year she took the Ballyconneely Harp Prize."],
            "That same year she took the Ballyconneely Harp Prize.",
            "In 1999 she took the Ballyconneely Harp Prize.",
        ),
        (  # "in the next year": one "in"
            ["He moved to Lyon in 1961.", "He married Anne in the next year."],
            "He married Anne in the next year.",
            "He married Anne in 1962.",
        ),
    ],
)
def test_a_date_relative_to_the_answers_last_year_is_that_year(sentences: list[str], fact: str, read: str) -> None:
    assert dated(fact, len(sentences) - 1, sentences) == read


@pytest.mark.parametrize(
    ("sentences", "fact"),
    [
        # no count: "later" alone and "a few years later" say no year
        (["He joined Ajax in 1990.", "He later moved to Milan."], "He later moved to Milan."),
        (["He joined Ajax in 1990.", "A few years later he moved to Milan."], "A few years later he moved to Milan."),
        # relative to an event the answer names: the page dates that event (relative-date, in verify)
        (
            ["She led a strike in 1919.", "Two years after the strike she founded the League."],
            "Two years after the strike she founded the League.",
        ),
        # the answer dates it itself
        (
            ["He graduated in 1955.", "Three years later, in 1958, he married Elena Rauch."],
            "Three years later he married Elena Rauch.",
        ),
        (
            ["She left Oslo in 1999.", "The following year, 2000, she returned to Catania."],
            "The following year she returned to Catania.",
        ),
        # an age needs a birth year, which is no year the answer wrote before
        (["He was born in Lyon in 1931.", "At 30 he moved to Milan."], "At 30 he moved to Milan."),
        # no year written before it, or only further back than it looks
        (["He joined Ajax.", "Three years later he moved to Milan."], "Three years later he moved to Milan."),
        (["Born in 1931.", "A.", "B.", "C.", "Two years later he left."], "Two years later he left."),
        # a possessive "next year's" names an edition, a number of 2,000 is no year
        (["He won in 1990.", "He skipped the next year's edition."], "He skipped the next year's edition."),
        (["He sent 2,000 specimens home.", "A year later he left."], "A year later he left."),
    ],
)
def test_what_is_no_date_relative_to_the_answers_last_year_stays(sentences: list[str], fact: str) -> None:
    assert dated(fact, len(sentences) - 1, sentences) is None


PAGES = [
    (
        "Edmund Larkspur",
        "Edmund Larkspur (1902 – 1984) was a Scottish lighthouse keeper. He joined the Northern Lighthouse Board in "
        "1925 and became principal keeper of the Gallow Head lighthouse in 1928, where he served until 1961. He "
        "married Agnes Tulloch in 1930.",
        [],
    )
]


def _facts(answer: str, rules_off: frozenset[str] = frozenset()) -> dict[str, str]:
    config = default_config().without(rules_off) if rules_off else default_config()
    result = check(answer, kb=Store.in_memory(PAGES), name="Edmund Larkspur", config=config)
    return {f.text: f.verdict.value for g in result.groups for f in g.facts}


def test_the_fact_is_checked_on_the_year_and_the_rule_switches_off() -> None:
    right = _facts(
        "Edmund Larkspur joined the lighthouse service in 1925. Three years later he took charge at Gallow Head."
    )
    assert any("In 1928" in t and "Gallow Head" in t for t in right), right
    assert not any("Three years later" in t for t in right)
    wrong = _facts(
        "Edmund Larkspur joined the lighthouse service in 1925. Six years later he took charge at Gallow Head."
    )
    assert any("In 1931" in t and "Gallow Head" in t and v != "supported" for t, v in wrong.items()), wrong
    off = _facts(
        "Edmund Larkspur joined the lighthouse service in 1925. Six years later he took charge at Gallow Head.",
        frozenset({ANSWER_RELATIVE_DATES}),
    )
    assert any("Six years later" in t for t in off) and not any("1931" in t for t in off), off
