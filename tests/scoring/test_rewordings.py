"""The verify rules ``first-reading`` and ``negation-reading``: a first said as a negation ("no woman had received it
before her") and a negation or refusal in other words ("never took a wife", "never set foot abroad", "said no
thank you") are read in the plain words a page writes; a positive fact against a negative page stays refuted."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.enums import Stance
from scoring.rewordings import (
    FIRST_READING,
    NEGATION_READING,
    RANK_COUNT_READING,
    first_reading,
    negation_reading,
    rank_count_reading,
    rank_placed,
)
from scoring.verifier import OfflineVerifier
from scoring.verify import EvidenceVerifier, VerifyConfig

TITLE = "Hester Quayle"
TEXT = (
    "Hester Quayle (1911 – 1990) was an English composer. Born in Ramsey, Isle of Man, she studied at the Royal "
    "Northern College of Music. In 1962 she became the first woman to receive the Elgar Medal of the Midland Music "
    "Society. Hester Quayle never married and never travelled outside Britain. She declined a damehood in 1975."
)


@pytest.mark.parametrize(
    ("fact", "reading"),
    [
        ("He never took a wife.", "He never married."),
        ("She did not take a husband.", "She did not marry."),
        ("She remained a spinster.", "She never married."),
        ("He never set foot abroad.", "He never travelled abroad."),
        ("He said no thank you.", "He declined."),
        ("She said no to a damehood.", "She declined a damehood."),
        ("She turned down a damehood.", "She declined a damehood."),
        # the polarity is kept
        ("He took a wife in 1950.", "He married in 1950."),
        ("She set foot outside Britain.", "She travelled outside Britain."),
        # look-alikes: left as written
        ("She took a train to Leeds.", "She took a train to Leeds."),
        ("He set foot on the stage in 1930.", "He set foot on the stage in 1930."),
        ("She said nothing of it.", "She said nothing of it."),
    ],
)
def test_negations_are_read_in_plain_words(fact: str, reading: str) -> None:
    assert negation_reading(fact) == reading


@pytest.mark.parametrize(
    ("fact", "reading"),
    [
        ("No woman had received it before her.", "She was the first woman to have received it."),
        ("Before him, no Nigerian had won the title.", "He was the first Nigerian to have won the title."),
        ("No other composer had been elected before her.", "She was the first composer to have been elected."),
        # look-alikes: no first said
        ("No woman had received it since her.", "No woman had received it since her."),
        ("A woman had received it before her.", "A woman had received it before her."),
        ("No one had asked her before.", "No one had asked her before."),
    ],
)
def test_a_first_said_as_a_negation_is_read_as_a_first(fact: str, reading: str) -> None:
    assert first_reading(fact) == reading


@pytest.mark.parametrize(
    ("fact", "stance", "decided_by"),
    [
        # phrasings: supported in the plain reading
        ("Hester Quayle never took a husband.", Stance.SUPPORT, NEGATION_READING),
        ("Hester Quayle never set foot outside Britain.", Stance.SUPPORT, NEGATION_READING),
        ("Hester Quayle turned down a damehood in 1975.", Stance.SUPPORT, NEGATION_READING),
        ("No woman had received the Elgar Medal before her.", Stance.SUPPORT, FIRST_READING),
        ("Before her, no woman had won the Elgar Medal of the Midland Music Society.", Stance.SUPPORT, FIRST_READING),
        # look-alikes: a positive fact against the page's negation stays refuted
        ("Hester Quayle took a husband.", Stance.REFUTE, NEGATION_READING),
        ("Hester Quayle set foot outside Britain.", Stance.REFUTE, NEGATION_READING),
    ],
)
def test_readings_decide(store: Store, verifier: OfflineVerifier, fact: str, stance: Stance, decided_by: str) -> None:
    verdict = EvidenceVerifier(store, verifier).against(fact, TITLE, TITLE)
    assert (verdict.stance, verdict.decided_by) == (stance, decided_by)


@pytest.mark.parametrize(
    "fact",
    [
        # a first of another kind than the page's: not read as a first, so not supported
        "No man had received the Elgar Medal before her.",
        # a first the page does not give
        "No woman had received the Newbury Prize before her.",
        # a positive claim of marriage told plainly: not this rule's
        "Hester Quayle married in 1940.",
    ],
)
def test_look_alikes_are_not_supported(store: Store, verifier: OfflineVerifier, fact: str) -> None:
    verdict = EvidenceVerifier(store, verifier).against(fact, TITLE, TITLE)
    assert verdict.stance is not Stance.SUPPORT
    assert verdict.decided_by not in (FIRST_READING, NEGATION_READING) or verdict.stance is Stance.REFUTE


def test_the_readings_can_be_switched_off(store: Store, verifier: OfflineVerifier) -> None:
    off = VerifyConfig(rules_off=frozenset({FIRST_READING, NEGATION_READING}))
    checker = EvidenceVerifier(store, verifier, config=off)
    assert checker.against("Hester Quayle never took a husband.", TITLE, TITLE).decided_by != NEGATION_READING
    assert checker.against("No woman had received the Elgar Medal before her.", TITLE, TITLE).decided_by != (
        FIRST_READING
    )


# --- rank-count-reading ------------------------------------------------------------------------------------------

RANKS_TITLE = "Tomasz Wielgus"
RANKS_TEXT = (
    "Tomasz Wielgus (born 1980 in Poznań) is a Polish former triple jumper. He made his debut at the 1999 European "
    "Championships, where he finished seventh. At the 2004 Olympic Games in Athens he finished fourth, and at the "
    "2008 Games in Beijing he was sixth. He won the silver medal at the 2006 European Championships in Gothenburg."
)


@pytest.mark.parametrize(
    ("fact", "reading"),
    [
        ("In Gothenburg only one jumper went further than him.", "In Gothenburg he finished second."),
        ("In 1999 six men finished ahead of him.", "In 1999 he finished seventh."),
        ("At Athens he was the first man outside the medals.", "At Athens he finished fourth."),
        ("Only one rider came home ahead of her.", "She finished second."),
        # look-alikes: no rank told
        ("Only one jumper went to the final with him.", "Only one jumper went to the final with him."),
        ("Six men travelled ahead of him to Athens.", "Six men travelled ahead of him to Athens."),
        ("He was the first man outside Poland to coach the team.", "He was the first man outside Poland to coach "
         "the team."),
    ],
)  # fmt: skip
def test_a_rank_told_by_those_ahead_is_read_as_a_rank(fact: str, reading: str) -> None:
    assert rank_count_reading(fact) == reading


@pytest.mark.parametrize(
    ("reading", "placed"),
    [
        ("At Athens he finished fourth.", True),
        ("At Beijing he finished sixth.", True),
        ("In Gothenburg he finished second.", True),
        # look-alikes: the rank of another event in the same sentence, or nothing to place it by
        ("At Beijing he finished fourth.", False),
        ("In 2008 he finished fourth.", False),
        ("He finished fourth.", False),
    ],
)
def test_a_rank_is_placed_by_the_names_nearest_it(reading: str, placed: bool) -> None:
    assert rank_placed(reading, [RANKS_TEXT], (RANKS_TITLE,)) is placed


@pytest.fixture(scope="module")
def ranks_store() -> Store:
    kb = Store.in_memory()
    kb.add_pages([(RANKS_TITLE, RANKS_TEXT, [])])
    return kb


@pytest.mark.parametrize(
    ("fact", "stance"),
    [
        ("At Athens three men finished ahead of him.", Stance.SUPPORT),
        ("At Athens he was the first man outside the medals.", Stance.SUPPORT),
        ("In 1999 six men finished ahead of him.", Stance.SUPPORT),
        # look-alikes: a wrong rank so told is not supported
        ("In 1999 five men finished ahead of him.", None),
        ("At Beijing he was the first man outside the medals.", None),
        ("In 2008 only one jumper went further than him.", None),
    ],
)
def test_ranks_told_by_those_ahead(
    ranks_store: Store, verifier: OfflineVerifier, fact: str, stance: Stance | None
) -> None:
    verdict = EvidenceVerifier(ranks_store, verifier).against(fact, RANKS_TITLE, RANKS_TITLE)
    if stance is None:
        assert verdict.stance is not Stance.SUPPORT
    else:
        assert (verdict.stance, verdict.decided_by) == (stance, RANK_COUNT_READING)
