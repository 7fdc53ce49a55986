"""Verify rules that hear meaning: negation on either side, ranks and ordinals, awards a page does not list,
(corrections: test_corrections.py). Each is tested on several phrasings and on look-alikes it must
leave alone, and switches off by name."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.enums import Stance
from scoring.meaning import negated_value_stated, negation_conflict, rank_conflict, ranks, unlisted_awards
from scoring.verifier import OfflineVerifier
from scoring.verify import (
    NEGATED_VALUE,
    NEGATION_MISMATCH,
    RANK_MISMATCH,
    UNLISTED_AWARD,
    EvidenceVerifier,
    VerifyConfig,
)

NAME = "Ingrid Solberg"
PAGE = (
    "Ingrid Solberg (born 12 March 1961 in Oslo) is a Norwegian cellist. She studied at the Norwegian Academy of "
    "Music and won second prize at the Vestfold International Cello Competition in 1985. She has been married to "
    "the conductor Arne Vik since 1990. She received the Lindeman Prize in 1999 and the Spellemann Award in 2004. "
    "At the 1988 Nordic Chamber Games her trio took the silver medal. Her Suite No. 1 premiered in Bergen in 1995."
)
HUB = "The Corvane Hub H2 supports Zigbee and Thread. It does not support Z-Wave. It has no battery backup."
EXCLUDE = (NAME, NAME)


@pytest.mark.parametrize(
    ("fact", "conflict"),
    [
        # The fact negates what the page says.
        ("Ingrid Solberg has never married.", True),
        ("Ingrid Solberg remained unmarried.", True),
        ("Ingrid Solberg was not born in Oslo.", True),
        ("Ingrid Solberg never studied at the Norwegian Academy of Music.", True),
        ("Ingrid Solberg is no longer married.", True),
        # Look-alikes: the same polarity, another predicate, another value, "No. 1" that negates nothing.
        ("Ingrid Solberg is married to Arne Vik.", False),
        ("Ingrid Solberg was born in Oslo.", False),
        ("Ingrid Solberg never studied in Vienna.", False),
        ("Ingrid Solberg was not born in 1970.", False),
        ("Suite No. 1 premiered in Bergen in 1995.", False),
        ("Ingrid Solberg never played the violin.", False),
    ],
)
def test_a_negated_fact_against_a_page_that_says_it(fact: str, conflict: bool) -> None:
    assert (negation_conflict(fact, [PAGE], EXCLUDE) is not None) is conflict


@pytest.mark.parametrize(
    ("fact", "conflict"),
    [
        # The page negates what the fact says.
        ("The Corvane Hub H2 supports Z-Wave natively.", True),
        ("The Corvane Hub H2 works with Z-Wave.", False),  # another verb: the model's to judge
        ("The Corvane Hub H2 has a battery backup.", True),
        ("The Corvane Hub H2 supports Zigbee.", False),
        ("The Corvane Hub H2 supports Thread.", False),
        ("The Corvane Hub H2 does not support Z-Wave.", False),
    ],
)
def test_a_fact_against_a_page_that_negates_it(fact: str, conflict: bool) -> None:
    assert (negation_conflict(fact, [HUB], ("The Corvane Hub H2", "Corvane Hub H2")) is not None) is conflict


@pytest.mark.parametrize(
    ("fact", "stated"),
    [
        # The page gives the negated predicate another value: the negated fact holds.
        ("Ingrid Solberg was not born in Bergen.", True),
        ("Ingrid Solberg was born not in Bergen.", True),
        ("Ingrid Solberg wasn't born in 1970.", True),
        ("Ingrid Solberg did not receive the Lindeman Prize in 2001.", True),
        # Look-alikes: the page's own value, no negation, another prize, a relation with many values.
        ("Ingrid Solberg was not born in Oslo.", False),
        ("Ingrid Solberg did not receive the Lindeman Prize in 1999.", False),
        ("Ingrid Solberg was born in Bergen.", False),
        ("Ingrid Solberg did not receive the Grieg Prize in 2001.", False),
        ("Ingrid Solberg never studied in Vienna.", False),
    ],
)
def test_a_negated_value_the_page_gives_otherwise(fact: str, stated: bool) -> None:
    assert (negated_value_stated(fact, [PAGE], EXCLUDE) is not None) is stated


@pytest.mark.parametrize(
    ("text", "levels"),
    [
        ("won first prize", {1}),
        ("took the silver medal", {2}),
        ("finished third in the final", {3}),
        ("was runner-up at the Open", {2}),
        ("was the 1990 champion", {1}),
        ("lost the final", {2}),
        ("reached the 200 m semi-finals", set()),  # a round reached, no rank
        ("was a 200 m semi-finalist", set()),
        ("was a quarter-finalist at Wimbledon", set()),
        ("was a finalist at Wimbledon", {2}),
        ("her first album", set()),  # an order, no rank
        ("the second edition", set()),
        ("entered the Meridian Ocean Race in 2018 and won it", set()),  # a fact's "won": the stance model's
        ("was a beaten finalist in 2009", {2}),
        # Look-alikes: a round reached is no rank; "won" alone names what was won, not a place.
        ("200 m semi-finalist at the 2004 Summer Olympics", set()),
        ("reached the semi finalist stage", set()),
        ("a quarter-finalist at Wimbledon", set()),
        ("won the Lindeman Prize", set()),
    ],
)
def test_ranks(text: str, levels: set[int]) -> None:
    assert ranks(text) == levels


@pytest.mark.parametrize(
    ("text", "levels"),
    [
        ("He competed in the Meridian Ocean Race in 2014, finishing fourth, and won it in 2018.", {1, 4}),
        ("She won the Vestfold Competition in 1985.", {1}),
        ("They won the Nordic Cup twice.", {1}),
        # Look-alikes: what "won" is followed by gives the rank, or there is no "won".
        ("She won second prize at the Vestfold Competition.", {2}),
        ("He won the silver medal at the 1988 Games.", {2}),
        ("She won a bronze in the relay.", {3}),
        ("He finished fourth in the Meridian Ocean Race.", {4}),
    ],
)
def test_a_pages_won_is_first_place(text: str, levels: set[int]) -> None:
    assert ranks(text, won=True) == levels


def test_a_facts_won_gives_no_rank() -> None:
    # a fact's "won" is read by the stance model: "won the Meridian Ocean Race" ranks nothing to compare
    assert ranks("Declan Fairweather won the Meridian Ocean Race in 2018.") == frozenset()


def test_a_winner_the_page_says_won_it_is_no_rank_conflict() -> None:
    page = "He competed in the Meridian Ocean Race in 2014, finishing fourth, and won it in 2018."
    assert (
        rank_conflict("Declan Fairweather was Meridian Ocean Race winner in 2018.", [page], ["Declan Fairweather"])
        is None
    )
    assert (
        rank_conflict("Declan Fairweather was Meridian Ocean Race runner-up in 2018.", [page], ["Declan Fairweather"])
        == 0
    )


@pytest.mark.parametrize(
    ("fact", "conflict"),
    [
        ("Ingrid Solberg won first prize at the Vestfold International Cello Competition.", True),
        ("Ingrid Solberg won third prize at the Vestfold competition in 1985.", True),
        ("Ingrid Solberg's trio took gold at the 1988 Nordic Chamber Games.", True),
        ("Ingrid Solberg was the winner of the Vestfold International Cello Competition.", True),
        # Look-alikes: the page's rank, no rank, a rank of something the page does not rank.
        ("Ingrid Solberg won second prize at the Vestfold International Cello Competition.", False),
        ("Ingrid Solberg's trio took the silver medal at the 1988 Nordic Chamber Games.", False),
        ("Ingrid Solberg competed at the Vestfold International Cello Competition.", False),
        ("Ingrid Solberg won first prize at the Bergen Festival.", False),
        ("Ingrid Solberg's first recording appeared in 1985.", False),
    ],
)
def test_a_rank_the_page_gives_otherwise(fact: str, conflict: bool) -> None:
    assert (rank_conflict(fact, [PAGE], EXCLUDE) is not None) is conflict


RACE = "He competed in the Meridian Ocean Race in 2014, finishing fourth, and won it in 2018."


@pytest.mark.parametrize(
    ("fact", "conflict"),
    [
        ("Declan Fairweather was Meridian Ocean Race winner in 2018.", False),  # "won it" is the win
        ("Declan Fairweather was the Meridian Ocean Race champion.", False),
        ("Declan Fairweather was runner-up in the Meridian Ocean Race in 2018.", True),
        ("Declan Fairweather finished second in the Meridian Ocean Race.", True),
    ],
)
def test_winning_what_the_clause_names_is_a_first_place(fact: str, conflict: bool) -> None:
    assert (rank_conflict(fact, [RACE], ("Declan Fairweather",)) is not None) is conflict


@pytest.mark.parametrize(
    ("fact", "unlisted"),
    [
        ("Ingrid Solberg won the PSA Player of the Year award.", ("PSA Player of the Year",)),
        ("Ingrid Solberg received the Grieg Medal of Honour.", ("Grieg Medal of Honour",)),
        ("Ingrid Solberg was named Norwegian Musician of the Year.", ("Norwegian Musician of the Year",)),
        ("Ingrid Solberg won the Presidential Award at the Game Awards.", ("Presidential Award", "Game Awards")),
        # Look-alikes: awards the page lists, no award, an award word that is no name.
        ("Ingrid Solberg won the Lindeman Prize in 1999.", ()),
        ("Ingrid Solberg received the Spellemann Award.", ()),
        ("Ingrid Solberg won an award in 1999.", ()),
        ("Ingrid Solberg studied at the Norwegian Academy of Music.", ()),
    ],
)
def test_an_award_a_page_that_lists_awards_does_not_name(fact: str, unlisted: tuple[str, ...]) -> None:
    assert unlisted_awards(fact, [PAGE], EXCLUDE) == unlisted


def test_an_award_is_judged_only_against_a_page_that_lists_awards() -> None:
    quiet = "Ingrid Solberg (born 1961) is a Norwegian cellist who studied in Oslo."
    assert unlisted_awards("Ingrid Solberg won the Grieg Medal of Honour.", [quiet], EXCLUDE) == ()
    # An acronym the page's name has the initials of is that name.
    listed = "She was Player of the Year of the Professional Squash Association in 2001, among other awards."
    acronyms = frozenset({"psa"})
    assert unlisted_awards("Ingrid Solberg won the PSA Player of the Year award.", [listed], EXCLUDE, acronyms) == ()


@pytest.fixture
def kb() -> Store:
    return Store.in_memory([(NAME, PAGE, []), ("Corvane Hub H2", HUB, [])])


@pytest.mark.parametrize(
    ("fact", "entity", "rule", "stance"),
    [
        ("Ingrid Solberg has never married.", NAME, NEGATION_MISMATCH, Stance.REFUTE),
        ("Ingrid Solberg was not born in Oslo.", NAME, NEGATION_MISMATCH, Stance.REFUTE),
        ("The Corvane Hub H2 supports Z-Wave natively.", "Corvane Hub H2", NEGATION_MISMATCH, Stance.REFUTE),
        (
            "Ingrid Solberg won first prize at the Vestfold International Cello Competition.",
            NAME,
            RANK_MISMATCH,
            Stance.REFUTE,
        ),
        ("Ingrid Solberg's trio took gold at the 1988 Nordic Chamber Games.", NAME, RANK_MISMATCH, Stance.REFUTE),
        ("Ingrid Solberg won the Oslo Cello Prize.", NAME, UNLISTED_AWARD, Stance.IRRELEVANT),
        ("Ingrid Solberg was not born in Bergen.", NAME, NEGATED_VALUE, Stance.SUPPORT),
        ("Ingrid Solberg was not born in 1970.", NAME, NEGATED_VALUE, Stance.SUPPORT),
    ],
)
def test_the_rules_decide_verdicts_and_step_aside_when_off(
    kb: Store, verifier: OfflineVerifier, fact: str, entity: str, rule: str, stance: Stance
) -> None:
    subject = NAME if entity == NAME else "The Corvane Hub H2"
    on = EvidenceVerifier(kb, verifier).against(fact, entity, subject)
    assert (on.stance, on.decided_by) == (stance, rule)
    assert on.evidence and (stance is Stance.IRRELEVANT or on.evidence[0].stance is stance)
    off = EvidenceVerifier(kb, verifier, config=VerifyConfig(rules_off=frozenset({rule}))).against(
        fact, entity, subject
    )
    assert off.decided_by != rule


@pytest.mark.parametrize(
    ("fact", "page"),
    [
        # A negation bears on the words right after it, not on the clause's other predicate.
        ("Richard Ingle first arrived in England.", "When he arrived in England, he was not young."),
        ("Hilary Kent ascended to the position of bishop.", "Not only was he the first native to ascend to it."),
        ("Neville Carr was a painter.", "After a series of strokes Neville Carr was no longer able to paint."),
        (
            "Carl Fenn began creating his own arrangements.",
            "Since they didn't exist, Carl Fenn began creating arrangements.",
        ),
        # An "un-" word in parentheses is an aside.
        (
            "John Fyfe was known as a teaching physician.",
            "John Fyfe (date of death unknown) was known as a teaching physician.",
        ),
        ("The exact date of his death is unknown.", "John Fyfe (born 1839, date of death unknown) was a physician."),
        # "not … until" says when, not whether.
        ("It was not until the reign of Queen Victoria.", "She was not re-interred until the reign of Queen Victoria."),
    ],
)
def test_a_negation_elsewhere_in_the_clause_is_no_conflict(fact: str, page: str) -> None:
    subject = " ".join(fact.split()[:2])
    assert negation_conflict(fact, [page], (subject, subject)) is None


@pytest.mark.parametrize(
    ("fact", "page"),
    [
        ("Michael Hale effected stumpings in both matches.", "In neither match did Michael Hale effect any stumpings."),
        ("Carl Fenn received formal music training.", "Carl Fenn did not receive formal music training."),
        ("Neville Carr was able to paint after 1947.", "After 1947 Neville Carr was no longer able to paint."),
    ],
)
def test_a_negation_right_before_the_predicate_conflicts(fact: str, page: str) -> None:
    subject = " ".join(fact.split()[:2])
    assert negation_conflict(fact, [page], (subject, subject)) == 0
