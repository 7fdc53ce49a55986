"""``longer-fact-elsewhere``: a short fact whose longer facts (its words and more, same sentence) are all another
page's does not count for the linked page, whatever word it shares with it; ``supported-better-elsewhere``: nor does
a fact another page supports by more than the attribution margin."""

from __future__ import annotations

import pytest

from schemas.enums import Stance, Worthiness
from schemas.knowledge import EntityRef
from scoring.config import CheckConfig
from scoring.decompose import AtomicFact
from scoring.grouping import PerceivedGroup
from scoring.plan import PlannedFact, PlannedGroup
from scoring.score import LONGER_FACT_ELSEWHERE, SUPPORTED_BETTER_ELSEWHERE, score_groups
from scoring.verify import EntityVerdict

PAINTER, AVIATOR = "Harlan Beckwith (painter)", "Harlan Beckwith (aviator)"
CANDIDATES = [
    EntityRef(title=PAINTER, base_name="Harlan Beckwith", disambiguator="painter"),
    EntityRef(title=AVIATOR, base_name="Harlan Beckwith", disambiguator="aviator"),
]


def _fact(
    text: str, sentence: int, tokens: range | list[int], supported_by: set[str] | dict[str, float]
) -> PlannedFact:
    """A fact with its verdicts: supported (0.9, or the support given) by the pages named, not by the other."""
    fact = PlannedFact(AtomicFact(text, sentence, tokens=frozenset(tokens)), text, Worthiness.FACTUAL)
    support = supported_by if isinstance(supported_by, dict) else dict.fromkeys(supported_by, 0.9)
    for title in (PAINTER, AVIATOR):
        yes = title in support
        fact.verdicts[title] = EntityVerdict(
            title, Stance.SUPPORT if yes else Stance.IRRELEVANT, support.get(title, 0.2), 0.0
        )
    fact.attribute(0.1)
    return fact


def _painter_facts() -> list[PlannedFact]:
    """Four of the painter's facts, each its own sentence: what links the group to the painter's page."""
    return [_fact(f"painter fact {i}", 10 + i, [0, 1], {PAINTER}) for i in range(4)]


def _dfactscore(facts: list[PlannedFact], config: CheckConfig | None = None) -> float | None:
    group = PlannedGroup(PerceivedGroup("Harlan Beckwith", sentences=[0]), [*_painter_facts(), *facts])
    result = score_groups([group], CANDIDATES, config or CheckConfig())
    assert result.groups[0].entity == PAINTER
    return result.dfactscore


@pytest.mark.parametrize(
    ("short", "longer"),
    [
        # "set" on the painter's page ("a set of 24 canvases"); the record of 1932 is the aviator's
        ("Earlier Harlan Beckwith set a record.", ["Earlier Harlan Beckwith set a record in 1932."]),
        # "trophy" shared with some painter's prize; the Aero League Trophy of 1933 is the aviator's
        ("Harlan Beckwith won a trophy.", ["Harlan Beckwith won the Aero League Trophy in 1933."]),
        # two longer facts of the sentence, both the aviator's
        (
            "Harlan Beckwith flew.",
            ["Harlan Beckwith flew to Mexico City.", "Harlan Beckwith flew the Blue Heron non-stop."],
        ),
    ],
)
def test_a_short_fact_whose_longer_facts_are_another_pages_is_not_the_linked_pages(
    short: str, longer: list[str]
) -> None:
    facts = [
        _fact(short, 0, [0, 1, 2], {PAINTER, AVIATOR}),
        *(_fact(text, 0, range(3 + i + 1), {AVIATOR}) for i, text in enumerate(longer)),
    ]
    # the painter's four facts and the short one are the painter's without the rule; with it, only the four
    n = 4 + 1 + len(longer)
    off = CheckConfig().without([LONGER_FACT_ELSEWHERE, SUPPORTED_BETTER_ELSEWHERE])
    assert _dfactscore(facts, off) == pytest.approx(5 / n)
    assert _dfactscore(facts) == pytest.approx(4 / n)


@pytest.mark.parametrize(
    ("longer_supported_by", "why"),
    [
        ([{PAINTER, AVIATOR}], "the longer fact is the linked page's too"),
        ([set()], "the longer fact is no page's (a wrong value): the short one keeps its support"),
        ([{AVIATOR}, {PAINTER}], "one longer fact of two is the linked page's"),
        ([], "no fact says more"),
    ],
)
def test_look_alikes_keep_the_short_facts_support(longer_supported_by: list[set[str]], why: str) -> None:
    facts = [
        _fact("Harlan Beckwith set a record.", 0, [0, 1, 2], {PAINTER, AVIATOR}),
        *(_fact(f"longer {i}", 0, range(3 + i + 1), titles) for i, titles in enumerate(longer_supported_by)),
    ]
    own = 4 + 1 + sum(PAINTER in titles for titles in longer_supported_by)
    assert _dfactscore(facts) == pytest.approx(own / (5 + len(longer_supported_by))), why


def test_a_longer_fact_of_another_sentence_does_not_count() -> None:
    facts = [
        _fact("Harlan Beckwith set a record.", 0, [0, 1, 2], {PAINTER, AVIATOR}),
        _fact("Harlan Beckwith set a record in 1932.", 1, range(5), {AVIATOR}),
    ]
    assert _dfactscore(facts) == pytest.approx(5 / 6)


@pytest.mark.parametrize(
    ("text", "painter", "aviator"),
    [
        ("Harlan Beckwith's team won the silver medal.", 0.71, 0.97),  # "team" and "won" on the painter's page
        ("Harlan Beckwith flew for the United States.", 0.65, 0.9),  # "United States" in the painter's Navy years
        ("Harlan Beckwith set a record.", 0.62, 0.75),  # just past the margin of 0.1
    ],
)
def test_a_fact_another_page_supports_by_more_than_the_margin_is_not_the_linked_pages(
    text: str, painter: float, aviator: float
) -> None:
    facts = [_fact(text, 0, [0, 1], {PAINTER: painter, AVIATOR: aviator})]
    assert _dfactscore(facts) == pytest.approx(4 / 5)
    assert _dfactscore(facts, CheckConfig().without([SUPPORTED_BETTER_ELSEWHERE])) == pytest.approx(5 / 5)


@pytest.mark.parametrize(
    ("painter", "aviator"),
    [
        (0.9, 0.95),  # both within the margin: the fact is both pages', the linked one's too
        (0.97, 0.7),  # the linked page supports it better
        (0.8, 0.5),  # only the linked page supports it
    ],
)
def test_look_alikes_within_the_margin_stay_the_linked_pages(painter: float, aviator: float) -> None:
    supported = {PAINTER: painter} | ({AVIATOR: aviator} if aviator >= 0.6 else {})
    facts = [_fact("Harlan Beckwith served in the Navy.", 0, [0, 1], supported)]
    assert _dfactscore(facts) == pytest.approx(5 / 5)
