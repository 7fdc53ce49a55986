"""True facts worded otherwise than the page: a negation the page says too (``negation-stated``), a negation said
first ("Not once did he …", ``inverted-negation``), an occupation in plain words (``occupation-reading``) and ranks
in words ("was runner-up", "just off the podium", ``rank-reading``). Each reading supports only what the page says;
a wrong rank, a wrong occupation or a negation the page contradicts is not supported."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.enums import Stance
from scoring.idioms import plain_reading
from scoring.meaning import negation_stated
from scoring.rewordings import (
    INVERTED_NEGATION,
    OCCUPATION_READING,
    TENURE_READING,
    occupation_reading,
    tenure_reading,
    uninverted,
)
from scoring.verifier import OfflineVerifier
from scoring.verify import NEGATION_STATED, RANK_READING, EvidenceVerifier, VerifyConfig, rank_readings

TITLE = "Orla Brennagh"
TEXT = (
    "Orla Brennagh (1921 – 1998) was an Irish palaeontologist and cross-country skier. Born in Sligo, she studied "
    "geology at Trinity College Dublin. She never married and never gave a radio or television interview, and she "
    "never travelled outside Europe. At the 1952 Winter Olympics in Oslo she finished fourth in the 10 "
    "kilometres. In 1950 she won second prize at the Kerrigan Skiing Trophy in Galway. She won the Connacht "
    "Championship in 1954. She never won an Olympic or world title."
)
NAMES = (TITLE, "Brennagh")


@pytest.mark.parametrize(
    ("fact", "stated"),
    [
        # phrasings: the page negates every predicate word, about her
        ("Orla Brennagh never married.", True),
        ("Brennagh remained unmarried.", True),
        ("Brennagh did not travel outside Europe.", True),
        ("Brennagh never gave a television interview.", True),
        ("Brennagh never won a world title.", True),
        # look-alikes: wider than the page's negation, another value, or not negated
        ("Brennagh never gave an interview.", False),
        ("Brennagh never travelled.", False),
        ("Brennagh never travelled outside Ireland.", False),
        ("Brennagh never won a title.", False),
        ("Brennagh married.", False),
    ],
)
def test_a_negation_the_page_says_too(fact: str, stated: bool) -> None:
    assert (negation_stated(fact, [TEXT], NAMES) is not None) is stated


@pytest.mark.parametrize(
    "page",
    [
        "She did not marry until 1960.",  # a negation timed: when, not whether
        "She married Tom Hale in 1950. She never married again.",
        "Her brother never married.",  # about another person
    ],
)
def test_a_negation_timed_or_of_another_is_not_stated(page: str) -> None:
    assert negation_stated("Orla Brennagh never married.", [page], NAMES) is None


@pytest.mark.parametrize(
    ("fact", "reading"),
    [
        ("Not once did Brennagh take a world title.", "Brennagh never took a world title."),
        ("At no point was she a member of the party.", "She was never a member of the party."),
        ("Nor did she ever get behind a wheel.", "She never got behind a wheel."),
        ("Never once does he mention it.", "He never mentions it."),
        ("Not once had Orla Brennagh skied in Norway.", "Orla Brennagh had never skied in Norway."),
        # look-alikes: no inverted negation
        ("Not only did she win the race.", "Not only did she win the race."),
        ("Never mind, he won.", "Never mind, he won."),
        ("Not once in her life did she lose.", "Not once in her life did she lose."),
        ("She did not once lose.", "She did not once lose."),
    ],
)
def test_an_inverted_negation_is_read_after_its_subject(fact: str, reading: str) -> None:
    assert uninverted(fact) == reading


@pytest.mark.parametrize(
    ("fact", "texts", "reading"),
    [
        ("She is a fossil hunter.", ["an Irish palaeontologist"], "She is a palaeontologist."),
        ("He is an old-school piano player.", [], "He is an old-school pianist."),
        ("A Bilbao-born mapmaker, he moved to Chile.", ["a Chilean cartographer"], "A Bilbao-born cartographer, he "
         "moved to Chile."),
        ("She is a volcano scientist.", ["a volcanologist"], "She is a volcanologist."),
        # look-alikes: no occupation in plain words, or none the page holds
        ("He was a bird hunter.", [], "He was a bird hunter."),
        ("She played piano in a bar.", [], "She played piano in a bar."),
        ("The piano players' union met.", [], "The piano players' union met."),
        ("She is a fossil hunter.", ["a volcanologist"], "She is a fossil hunter."),
    ],
)  # fmt: skip
def test_an_occupation_in_plain_words_is_read_as_the_page_names_it(fact: str, texts: list[str], reading: str) -> None:
    assert occupation_reading(fact, texts) == reading


@pytest.mark.parametrize(
    ("fact", "first"),
    [
        ("She was runner-up at the Kerrigan Skiing Trophy.", "She finished second at the Kerrigan Skiing Trophy."),
        ("She finished as runner-up in 1950.", "She finished second in 1950."),
        ("She finished just off the podium in Oslo.", "She finished fourth in Oslo."),
        ("She stood on the podium's bottom step.", "She finished third."),
        # look-alikes: no one rank said
        ("She finished outside the medals.", None),
        ("She stood on the podium.", None),
        ("He was a runner-up", None),
    ],
)
def test_ranks_in_words_are_read_as_ranks(fact: str, first: str | None) -> None:
    readings = rank_readings(fact)
    assert (readings[0] if readings else None) == first


@pytest.mark.parametrize(
    ("fact", "stance", "decided_by"),
    [
        # phrasings: supported by the reading
        ("Orla Brennagh remained single.", Stance.SUPPORT, None),
        ("Orla Brennagh never married.", Stance.SUPPORT, NEGATION_STATED),
        ("Not once did Orla Brennagh travel outside Europe.", Stance.SUPPORT, INVERTED_NEGATION),
        ("Not once did Orla Brennagh take a wife.", Stance.SUPPORT, INVERTED_NEGATION),
        ("Orla Brennagh was a fossil hunter.", Stance.SUPPORT, OCCUPATION_READING),
        ("In 1950 Orla Brennagh was runner-up at the Kerrigan Skiing Trophy.", Stance.SUPPORT, RANK_READING),
        ("In 1952 Orla Brennagh finished just off the podium in Oslo.", Stance.SUPPORT, RANK_READING),
    ],
)
def test_readings_support(
    store: Store, verifier: OfflineVerifier, fact: str, stance: Stance, decided_by: str | None
) -> None:
    verdict = EvidenceVerifier(store, verifier).against(fact, TITLE, TITLE)
    assert verdict.stance is stance
    assert decided_by is None or verdict.decided_by == decided_by


@pytest.mark.parametrize(
    "fact",
    [
        # a rank word never supports another rank
        "In 1950 Orla Brennagh was runner-up at the Connacht Championship.",
        "In 1954 Orla Brennagh was runner-up at the Connacht Championship.",
        "In 1952 Orla Brennagh was runner-up in Oslo.",
        "In 1950 Orla Brennagh finished just off the podium at the Kerrigan Skiing Trophy.",
        # a negation the page contradicts or does not say
        "Not once did Orla Brennagh study geology.",
        "Not once did Orla Brennagh win the Connacht Championship.",
        # an occupation the page does not give
        "Orla Brennagh was a volcano scientist.",
        "Orla Brennagh was a piano player.",
    ],
)
def test_look_alikes_are_not_supported(store: Store, verifier: OfflineVerifier, fact: str) -> None:
    assert EvidenceVerifier(store, verifier).against(fact, TITLE, TITLE).stance is not Stance.SUPPORT


@pytest.mark.parametrize(
    "fact",
    [
        "In 1950 Orla Brennagh was runner-up at the Connacht Championship.",
        "In 1954 Orla Brennagh was runner-up at the Connacht Championship.",
        "Not once did Orla Brennagh study geology at Trinity College Dublin.",
    ],
)
def test_wrong_ranks_and_negations_are_refuted(store: Store, verifier: OfflineVerifier, fact: str) -> None:
    assert EvidenceVerifier(store, verifier).against(fact, TITLE, TITLE).stance is Stance.REFUTE


def test_the_rules_can_be_switched_off(store: Store, verifier: OfflineVerifier) -> None:
    off = VerifyConfig(rules_off=frozenset({NEGATION_STATED, INVERTED_NEGATION, OCCUPATION_READING}))
    checker = EvidenceVerifier(store, verifier, config=off)
    for fact in (
        "Orla Brennagh never married.",
        "Not once did Orla Brennagh travel outside Europe.",
        "Orla Brennagh was a fossil hunter.",
    ):
        assert checker.against(fact, TITLE, TITLE).decided_by not in (
            NEGATION_STATED,
            INVERTED_NEGATION,
            OCCUPATION_READING,
        )


@pytest.mark.parametrize(
    ("fact", "reading"),
    [
        ("Orla Brennagh left with her diploma in hand.", "Orla Brennagh graduated."),
        ("In 2012 she came away with a degree.", "In 2012 she graduated."),
        ("Brennagh first lined up in 1948.", "Brennagh made a debut in 1948."),
        ("He stepped down as chairman in 2010.", "He resigned as chairman in 2010."),
        # look-alikes: no event told
        ("She left her diploma in the car.", "She left her diploma in the car."),
        ("He first lined up the shot.", "He first lined up the shot."),
        ("The board stepped down as a whole.", "The board stepped down as a whole."),
    ],
)
def test_life_idioms_of_degrees_debuts_and_offices(fact: str, reading: str) -> None:
    assert plain_reading(fact, (TITLE, "Brennagh")) == reading


@pytest.mark.parametrize(
    ("fact", "reading"),
    [
        ("He put in six years shipping code at Kestrelsoft.", "He worked for six years at Kestrelsoft."),
        ("He clocked up a decade of coaching with the Lions.", "He worked for a decade with the Lions."),
        ("She logged twelve years at the Met Office.", "She worked for twelve years at the Met Office."),
        # look-alikes: no time served
        ("He put in a good word for her.", "He put in a good word for her."),
        ("She logged 300 flights.", "She logged 300 flights."),
        ("She clocked up 5,000 miles in Norway.", "She clocked up 5,000 miles in Norway."),
    ],
)
def test_a_time_served_is_read_as_work(fact: str, reading: str) -> None:
    assert tenure_reading(fact) == reading


@pytest.mark.parametrize(
    ("fact", "stance"),
    [
        ("Orla Brennagh put in six years teaching at Trinity College Dublin.", Stance.SUPPORT),
        # look-alikes: a length the page's range does not give, a place it does not date
        ("Orla Brennagh put in twenty years teaching at Trinity College Dublin.", None),
        ("Orla Brennagh put in six years teaching at Galway University.", None),
    ],
)
def test_a_time_served_counts_where_the_page_dates_it(
    tenure_store: Store, verifier: OfflineVerifier, fact: str, stance: Stance | None
) -> None:
    verdict = EvidenceVerifier(tenure_store, verifier).against(fact, TITLE, TITLE)
    if stance is None:
        assert verdict.stance is not Stance.SUPPORT
    else:
        assert (verdict.stance, verdict.decided_by) == (stance, TENURE_READING)


@pytest.fixture(scope="module")
def tenure_store() -> Store:
    kb = Store.in_memory()
    kb.add_pages([(TITLE, TEXT + " From 1955 to 1961 she taught geology at Trinity College Dublin.", [])])
    return kb
