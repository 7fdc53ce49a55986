"""Answers that keep two namesakes apart point at them without names ("The one who …", "The elder"), compare them
("… is twenty years younger", "same name, different fields") and cite retrieved passages ("Passage 1 is …"):
``namesake-referent`` reads such a subject with its group's name, ``namesake-comparison`` and ``source-label`` take
the comparisons and the passage labels for no claim of one page. A crossed fact stays caught."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.enums import Worthiness
from scoring.decontext import NAMESAKE_REFERENT, decontextualize
from scoring.pipeline import CheckConfig, check
from scoring.worthiness import NAMESAKE_COMPARISON, SOURCE_LABEL, classify_by_rule


@pytest.mark.parametrize(
    ("fact", "subject", "named"),
    [
        ("The one founded Quayline.", "The one", "Ada Brook founded Quayline."),
        ("The elder trained at the Vienna Conservatory.", "The elder", "Ada Brook trained at the Vienna Conservatory."),
        ("The latter won the Ashes in 2001.", "The latter", "Ada Brook won the Ashes in 2001."),
        ("The younger kept wicket for Victoria.", "The younger", "Ada Brook kept wicket for Victoria."),
    ],
)
def test_a_subject_that_points_at_one_namesake_is_read_with_its_name(fact: str, subject: str, named: str) -> None:
    assert decontextualize(fact, subject, "Ada Brook", namesakes=True) == named
    off = frozenset({NAMESAKE_REFERENT})
    assert decontextualize(fact, subject, "Ada Brook", namesakes=True, rules_off=off) == fact


@pytest.mark.parametrize(
    ("fact", "subject"),
    [
        ("The one is the software engineer.", "The one"),  # an answer about one person: "the one" is no namesake
        ("The elder son farmed in Kent.", "The elder son"),
        ("The one-time mayor retired in 1990.", "The one-time mayor"),
    ],
)
def test_look_alikes_of_a_pointing_subject_are_left_as_written(fact: str, subject: str) -> None:
    namesakes = subject == "The elder son" or subject == "The one-time mayor"
    assert decontextualize(fact, subject, "Ada Brook", namesakes=namesakes) == fact


@pytest.mark.parametrize(
    "fact",
    [
        "Ada Brook is more than twenty years younger.",
        "Ada Brook by contrast is a decade older.",
        "Ada Brook is the younger man.",
        "In short Ada Brook was same name.",
        "Ada Brook was entirely different fields.",
        "Only one of them writes about food.",
    ],
)
def test_a_comparison_of_namesakes_is_no_claim_of_one_page(fact: str) -> None:
    assert classify_by_rule(fact, fact) == (Worthiness.OTHER, NAMESAKE_COMPARISON)
    assert classify_by_rule(fact, fact, frozenset({NAMESAKE_COMPARISON}))[1] != NAMESAKE_COMPARISON


@pytest.mark.parametrize(
    "fact",
    [
        "Ada Brook is younger than his brother Tom.",
        "Ada Brook is the younger brother of Tom Brook.",
        "Ada Brook was in different bands.",
        "Ada Brook played for different clubs.",
        "Ada Brook was a different person after the war.",
        "Ada Brook was the elder statesman of the party.",
        "One of them won the Ferrier Prize in 2018.",
    ],
)
def test_look_alikes_of_a_comparison_stay_claims(fact: str) -> None:
    assert classify_by_rule(fact, fact)[0] is Worthiness.FACTUAL


@pytest.mark.parametrize(
    "fact",
    [
        "Passage 1 is a Welsh software engineer.",
        "[Source 2] describes an organist.",
        "Document 3 says he was born in 1921.",
    ],
)
def test_a_statement_on_a_numbered_source_is_about_the_sources(fact: str) -> None:
    assert classify_by_rule(fact, fact) == (Worthiness.OTHER, SOURCE_LABEL)


@pytest.mark.parametrize(
    "fact", ["Route 66 is a highway.", "Apollo 11 landed on the Moon in 1969.", "Passage 1 of the report is long."]
)
def test_look_alikes_of_a_source_label_stay_claims(fact: str) -> None:
    assert classify_by_rule(fact, fact)[0] is Worthiness.FACTUAL


PAGES = [
    (
        "Ada Brook (cellist)",
        "Ada Brook (born 1950) is a Polish cellist. She taught at the Gdańsk Academy of Music. She recorded the Bach "
        "cello suites in 1984.",
    ),
    (
        "Ada Brook (ecologist)",
        "Ada Brook (born 1975) is a Polish ecologist. She studied peat bogs in Biebrza. She founded the Wetland Pulse "
        "project in 2015.",
    ),
]
ANSWER = (
    "There are two people named Ada Brook. The one who taught at the Gdańsk Academy of Music is the cellist, born in "
    "1950. The one recorded the Bach cello suites in {year}.\n\n"
    "The other Ada Brook, an ecologist born in 1975, studied peat bogs in Biebrza and founded the Wetland Pulse "
    "project in 2015."
)


def _said(result: object, words: str) -> list[object]:
    return [f for g in result.groups for f in g.facts if words in f.text]  # type: ignore[attr-defined]


def test_a_pointing_subject_is_checked_with_its_namesakes_name_and_a_wrong_value_stays_refuted() -> None:
    store = Store.in_memory(PAGES)
    right = check(ANSWER.format(year=1984), kb=store, name="Ada Brook")
    said = _said(right, "Ada Brook recorded the Bach cello suites in 1984")
    assert said and all(f.verdict_linked is not None and f.verdict_linked.value == "supported" for f in said)
    wrong = check(ANSWER.format(year=1991), kb=store, name="Ada Brook")
    said = _said(wrong, "in 1991")
    assert said and all(f.verdict_linked is not None and f.verdict_linked.value == "not_supported" for f in said)
    off = check(ANSWER.format(year=1984), kb=store, name="Ada Brook", config=CheckConfig().without([NAMESAKE_REFERENT]))
    assert not _said(off, "Ada Brook recorded the Bach cello suites")
