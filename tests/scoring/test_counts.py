"""Counts checked against the page's counts: the same number of the same thing supports, another number of
it beside the fact's words refutes; years, lengths of time and measures are not counts."""

from __future__ import annotations

from typing import Any

import pytest

from knowledge.store import Store
from schemas.enums import Stance
from scoring.counts import count_contradicted, count_dated, count_stated, counts
from scoring.verifier import OfflineVerifier, StanceScore
from scoring.verify import CONTRADICTED_COUNT, STATED_COUNT, EvidenceVerifier, VerifyConfig

TITLE = "Tor Halvorsen"
TEXT = (
    "Tor Halvorsen (born 1979 in Molde) is a Norwegian footballer. He earned 41 caps for the Norway national team "
    "between 2001 and 2010, scoring 7 goals. His memoir was translated into eleven languages. In 2009 he made "
    "more than 300 league appearances for Molde, with best figures of 3 goals in one match."
)
NAME = ("Tor Halvorsen",)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("He won 23 caps and scored 4 goals.", [(23, "caps"), (4, "goals")]),
        ("341 league appearances in total", [(341, "appearances")]),
        ("more than 4,000 open-heart operations", [(4000, "operations")]),
        ("translated into nine languages", [(9, "languages")]),
        ("five previously unknown species of coral", [(5, "species")]),
        # a dozen is twelve; "dozens of" counts nothing exactly
        ("He painted two dozen dawn canvases.", [(24, "canvases")]),
        ("dozens of canvases", []),
        # years, lengths of time, measures and money are not counts of things
        ("born in 1979, he played for 12 years", []),
        ("a 214-metre core", []),
        ("it costs £4.99 a month", []),
    ],
)
def test_a_count_is_a_number_and_the_noun_it_counts(text: str, found: list[tuple[int, str]]) -> None:
    assert [(c.number, c.noun) for c in counts(text)] == found


@pytest.mark.parametrize(
    ("fact", "stated", "contradicted"),
    [
        ("Tor Halvorsen won 41 caps for Norway.", True, []),
        ("Tor Halvorsen's memoir was translated into 11 languages.", True, []),
        ("Tor Halvorsen won 32 caps for Norway.", False, ["caps"]),
        ("Tor Halvorsen's memoir was translated into fifteen languages.", False, ["languages"]),
        # the page has the fact's number in the sentence, counting something else: not refuted
        ("Tor Halvorsen scored 3 goals against Sweden.", False, []),
        # a name the sentence lacks: not stated
        ("Tor Halvorsen won 41 caps for Sweden.", False, []),
        # nothing on the page counts the noun: neither
        ("Tor Halvorsen has two sons.", False, []),
        # a fact that says nothing but the count: any sentence counting the noun otherwise contradicts it
        ("Tor Halvorsen had 32 caps.", False, ["caps"]),
        ("Tor Halvorsen has 9 goals.", False, ["goals"]),
        ("Tor Halvorsen had twelve languages.", False, ["languages"]),
        ("Tor Halvorsen had 41 caps.", True, []),
        ("Tor Halvorsen had 3 goals.", True, []),  # the page counts 3 goals (in one match): not contradicted
        ("Tor Halvorsen had 4 sons.", False, []),
    ],
)
def test_counts_are_stated_or_contradicted_by_the_page(fact: str, stated: bool, contradicted: list[str]) -> None:
    assert count_stated(fact, [TEXT], NAME) is stated
    assert [c.noun for c in count_contradicted(fact, [TEXT], NAME)] == contradicted


def test_the_verifier_refutes_a_miscount_by_the_rule(store: Store, verifier: OfflineVerifier) -> None:
    fact = "Tor Halvorsen won 32 caps for Norway."
    verdict = EvidenceVerifier(store, verifier).against(fact, TITLE, TITLE)
    assert (verdict.stance, verdict.decided_by) == (Stance.REFUTE, CONTRADICTED_COUNT)
    assert "41 caps" in verdict.evidence[0].text
    off = EvidenceVerifier(store, verifier, config=VerifyConfig(rules_off=frozenset({CONTRADICTED_COUNT})))
    assert off.against(fact, TITLE, TITLE).decided_by != CONTRADICTED_COUNT


class _Unsure:
    """A stance model that supports nothing: what the rule decides where the model does not read a count."""

    version = "unsure"

    def score(self, claim: str, passages: list[str]) -> list[StanceScore]:
        return [StanceScore(Stance.IRRELEVANT, 0.2, 0.1, 0.7) for _ in passages]


def test_a_stated_count_is_supported_by_the_rule(store: Store, verifier: OfflineVerifier) -> None:
    """The stance model reads most counts itself (ours supports this one); where it does not, the page's count
    decides."""
    fact = "Tor Halvorsen played in more than 300 league appearances for Molde."
    assert EvidenceVerifier(store, verifier).against(fact, TITLE, TITLE).stance is Stance.SUPPORT
    unsure: Any = _Unsure()
    verdict = EvidenceVerifier(store, unsure).against(fact, TITLE, TITLE)
    assert (verdict.stance, verdict.decided_by) == (Stance.SUPPORT, STATED_COUNT)
    off = EvidenceVerifier(store, unsure, config=VerifyConfig(rules_off=frozenset({STATED_COUNT})))
    assert off.against(fact, TITLE, TITLE).stance is not Stance.SUPPORT


SERIES = (
    "Her first novel introduced the detective Inspector Nell Varga, who has since appeared in 14 novels. "
    "She has written three cookbooks."
)


@pytest.mark.parametrize(
    ("fact", "stated"),
    [
        # a page's particular kind counts the answer's general word: novels and cookbooks are books
        ("Her series detective has now carried fourteen books.", True),
        ("Inspector Nell Varga has appeared in 14 books.", True),
        ("She has written 3 books.", True),
        # not the other way round, and not another number
        ("She has written three novels.", False),
        ("Inspector Nell Varga has appeared in 15 books.", False),
        # a kind the page's word is not
        ("Inspector Nell Varga has appeared in 14 films.", False),
    ],
)
def test_a_count_of_a_general_word_is_stated_by_a_count_of_its_kind(fact: str, stated: bool) -> None:
    assert count_stated(fact, [SERIES], ("Oona Castelvecchi",)) is stated


@pytest.mark.parametrize(
    ("fact", "page", "stated"),
    [
        # the page's verb is the word the answer's counted noun is made from
        (
            "Her book has been published in nine translations.",
            "Her book The Quiet Marsh was translated into nine languages.",
            True,
        ),
        ("He made 48 appearances for Molde.", "He appeared in 48 league matches for Molde.", True),
        # another number, or a noun made from another word, is not stated
        ("Her book has been published in nine translations.", "Her book was translated into eleven languages.", False),
        ("He completed nine transfers.", "Her book was translated into nine languages.", False),
    ],
)
def test_a_count_of_what_the_pages_verb_names_is_stated(fact: str, page: str, stated: bool) -> None:
    assert count_stated(fact, [page]) is stated


CLUB = (
    "He played for IK Norrvik from 1990 to 1998, winning the Swedish championship with the club in 1994 and 1997. "
    "He represented Sweden at the 1994 Winter Olympics and again at the 1998 Winter Olympics."
)


@pytest.mark.parametrize(
    ("fact", "dated"),
    [
        # as many years listed, one each, as the fact counts, beside the fact's names
        ("Tallqvist won two Swedish titles with IK Norrvik.", True),
        # one year per mention of the thing itself
        ("Tallqvist is a two-time Olympian.", True),
        # another number, or a range rather than a list ("from 1990 to 1998" is no two of anything)
        ("Tallqvist won three Swedish titles with IK Norrvik.", False),
        ("Tallqvist is a three-time Olympian.", False),
        ("Tallqvist won two Finnish titles with IK Norrvik.", False),
    ],
)
def test_a_count_the_page_dates_one_year_each_is_stated(fact: str, dated: bool) -> None:
    assert count_dated(fact, [CLUB], ("Tallqvist",)) is dated


def test_the_verifier_states_a_dated_count_by_the_rule(verifier: OfflineVerifier) -> None:
    from scoring.verify import COUNTED_DATES

    kb = Store.in_memory()
    kb.add_pages([("Tallqvist", CLUB, [])])
    fact = "Tallqvist won two Swedish titles with IK Norrvik."
    verdict = EvidenceVerifier(kb, verifier).against(fact, "Tallqvist", "Tallqvist")
    assert (verdict.stance, verdict.decided_by) == (Stance.SUPPORT, COUNTED_DATES)
    off = VerifyConfig(rules_off=frozenset({COUNTED_DATES}))
    assert (
        EvidenceVerifier(kb, verifier, config=off).against(fact, "Tallqvist", "Tallqvist").decided_by != COUNTED_DATES
    )


@pytest.mark.parametrize(
    ("fact", "stated", "contradicted"),
    [
        # a qualified count admits a bounded range about its number, no further
        ("Her atlas had around 220 map sheets.", True, []),
        ("Her atlas had roughly 200 map sheets.", True, []),
        ("Her atlas had nearly 230 map sheets.", True, []),
        ("Her atlas had somewhere around 250 map sheets.", False, [250]),
        ("Her atlas had almost 300 map sheets.", False, [300]),
        ("Her atlas had 220 map sheets.", False, [220]),  # unqualified: exact
    ],
)
def test_an_approximate_count_is_bounded(fact: str, stated: bool, contradicted: list[int]) -> None:
    page = ["Her Atlas of the Northern Fells (1978) contained 212 map sheets."]
    assert count_stated(fact, page) is stated
    assert [c.number for c in count_contradicted(fact, page)] == contradicted


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # a run of number words is one number: "forty thousand stars" counts 40,000 stars, not forty "thousand"s
        ("the repo has blown past forty thousand GitHub stars", [(40000, "stars")]),
        ("upwards of five thousand people sat across the desk", [(5000, "people")]),
        ("she named twenty-seven solitary bees", [(27, "bees")]),
        ("one hundred and five caps", [(105, "caps")]),
        # a verb's particle or a verb after the plural noun is no part of it
        ("he has 13 albums out as leader", [(13, "albums")]),
        ("she has three books out now", [(3, "books")]),
        ("5,000 guests came", [(5000, "guests")]),
        # look-alikes: no one number, a singular noun runs on as before
        ("he counted two three bees", []),
        ("one local council member", [(1, "member")]),
    ],
)
def test_spelled_runs_and_the_noun_of_a_count(text: str, found: list[tuple[int, str]]) -> None:
    assert [(c.number, c.noun) for c in counts(text)] == found


PRESENTER = (
    "From 1968 to 1994 she presented its morning programme, for which she interviewed more than 5,000 guests. "
    "He has recorded 11 albums as a leader. Ferrule had more than 40,000 stars on GitHub by 2023."
)


@pytest.mark.parametrize(
    ("fact", "stated", "contradicted"),
    [
        # "upwards of", "in excess of" qualify as "more than" does; guests, listeners, pupils are people
        ("Upwards of 5,000 people sat across the desk from her.", True, []),
        ("She interviewed in excess of five thousand people.", True, []),
        ("She interviewed upwards of five thousand guests.", True, []),
        ("The repo has blown past forty thousand GitHub stars.", True, []),
        # look-alikes: another number, or a count the page gives otherwise
        ("She interviewed upwards of nine thousand guests.", False, ["guests"]),
        ("The repo has blown past thirty thousand GitHub stars.", False, ["stars"]),
        ("He's got 13 albums out as leader.", False, ["albums"]),
        # a kind is no general word: "people" do not say "guests"
        ("She interviewed more than 5,000 callers.", False, []),
    ],
)
def test_qualified_spelled_counts_of_people(fact: str, stated: bool, contradicted: list[str]) -> None:
    assert count_stated(fact, [PRESENTER]) is stated
    assert [c.noun for c in count_contradicted(fact, [PRESENTER])] == contradicted


_SYMPHONIES = [
    'His Symphony No. 1, "Polar Night" (1941), made his name, and he later wrote two further symphonies, the opera '
    "The Salt Wife (1953) and a Violin Concerto (1960)."
]


@pytest.mark.parametrize(
    "fact",
    [
        "Søren Ødegaard wrote three symphonies.",
        "He wrote three symphonies.",
        "Søren Ødegaard composed four symphonies.",
    ],
)
def test_a_count_of_further_ones_is_no_total_to_contradict(fact: str) -> None:
    assert count_contradicted(fact, _SYMPHONIES, ["Søren", "Ødegaard"]) == []


@pytest.mark.parametrize(
    ("page", "fact"),
    [
        (["She recorded eleven albums as a leader."], "She recorded 13 albums as a leader."),
        (["He won 23 caps for Norway."], "He won 31 caps for Norway."),
        (["The book was translated into eleven languages."], "The book was translated into 15 languages."),
    ],
)
def test_look_alikes_a_total_still_contradicts(page: list[str], fact: str) -> None:
    assert count_contradicted(fact, page) != []


def test_a_partial_count_is_marked() -> None:
    assert [c.partial for c in counts("he wrote two further symphonies and three operas")] == [True, False]
