"""Meaning rules written for the answers of blind set p9 (branch p9m): a rank said in other words
(``rank-reading``), a rank measured against the winner ("behind the winner") and a page sentence that ranks two
things (``rank-mismatch``), an award named after its giver's possessive (``unlisted-award``) and a second object
whose verb is left out (``gapped-object``)."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.enums import Stance
from scoring import nlp
from scoring.decompose import PART_READINGS, decompose_doc
from scoring.hedges import HEARSAY_HEDGES, strip_hedges
from scoring.meaning import rank_conflict, ranks, unlisted_awards
from scoring.roles import misplaced_values
from scoring.rulebook import rule_names
from scoring.sentences import MEDAL_CELLS, medal_words, split_sentences
from scoring.verifier import OfflineVerifier
from scoring.verify import RANK_READING, EvidenceVerifier, VerifyConfig, rank_readings

TITLE = "Marit Saltvedt"
TEXT = (
    "Marit Saltvedt (born 1984 in Lillehammer, Norway) is a Norwegian former biathlete. At the 2010 Winter Olympics "
    "she won the bronze medal in the 15 km individual race. At the 2013 World Championships in Nové Město she was "
    "runner-up in the sprint, behind Sweden's Anna Berglund. At the 2015 World Championships in Kontiolahti she "
    "reached the semi-finals of the mass start qualifier. She won the Holmenkollen mass start in 2016."
)


def _facts(text: str, off: frozenset[str] = frozenset()) -> list[str]:
    return [f.text for f in decompose_doc(nlp.parse_one(text), 0, off)]


# --- rank-reading -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fact", "reading"),
    [
        ("She finished behind only one skier.", "She finished second."),
        ("She came in just behind the winner at the Awards in 2020.", "She finished second at the Awards in 2020."),
        ("He finished right behind the eventual champion in 2013.", "He finished second in 2013."),
        ("She collected the second-best result in the team sprint.", "She finished second in the team sprint."),
        ("She ended the season as the next-best sprinter after the overall winner.", "She ended the season in "
         "second place."),
        ("She stood on the lowest step of the podium in the 15 km.", "She finished third in the 15 km."),
        ("He climbed onto the bottom step of the podium.", "He finished third."),
        ("She stood on the top step of the podium in 2016.", "She won the gold medal in 2016."),
        ("He fell one round short of the final in 2004.", "He reached the semi-finals in 2004."),
        ("He was knocked out in the semi-finals.", "He reached the semi-finals."),
    ],
)  # fmt: skip
def test_a_rank_in_other_words_is_read_in_plain_words(fact: str, reading: str) -> None:
    assert rank_readings(fact)[0] == reading


@pytest.mark.parametrize(
    "fact",
    [
        "She finished behind her sister in the vote.",  # behind someone, not one of a field
        "He stood behind the bar for twenty years.",
        "He was one of the winners.",
        "She reached the podium twice.",
        "He was eliminated in the first round.",
    ],
)
def test_look_alikes_of_a_rank_in_other_words_are_read_as_written(fact: str) -> None:
    assert rank_readings(fact) == ()


@pytest.mark.parametrize(
    ("fact", "stance"),
    [
        ("Marit Saltvedt stood on the lowest step of the podium at the 2010 Winter Olympics.", Stance.SUPPORT),
        ("Marit Saltvedt finished behind only one biathlete in the sprint at the 2013 World Championships.",
         Stance.SUPPORT),
        ("Marit Saltvedt came in just behind the winner in the sprint at the 2013 World Championships.",
         Stance.SUPPORT),
        # the wrong rank in other words: the plain reading meets rank-mismatch
        ("Marit Saltvedt stood on the top step of the podium at the 2010 Winter Olympics.", Stance.REFUTE),
        ("Marit Saltvedt came in just behind the winner at the 2010 Winter Olympics.", Stance.REFUTE),
    ],
)  # fmt: skip
def test_a_rank_in_other_words_is_checked_in_plain_words(
    store: Store, verifier: OfflineVerifier, fact: str, stance: Stance
) -> None:
    verdict = EvidenceVerifier(store, verifier).against(fact, TITLE, TITLE)
    assert (verdict.stance, verdict.decided_by) == (stance, RANK_READING)


def test_the_rank_reading_can_be_switched_off(store: Store, verifier: OfflineVerifier) -> None:
    fact = "Marit Saltvedt stood on the lowest step of the podium at the 2010 Winter Olympics."
    off = EvidenceVerifier(store, verifier, config=VerifyConfig(rules_off=frozenset({RANK_READING})))
    assert off.against(fact, TITLE, TITLE).decided_by != RANK_READING


# --- rank-mismatch: a rank measured against another, a sentence ranking two things ------------------------------


@pytest.mark.parametrize(
    ("text", "given"),
    [
        ("ended the season as the next-best sprinter after the overall winner", set()),
        ("finished just behind the reigning champion", set()),
        ("she beat the champion in the final round", set()),
        ("collected the second-best result", {2}),
        ("was the third-best archer", {3}),
        # look-alikes: the rank is the subject's
        ("was the winner in 2016", {1}),
        ("became champion in 2004", {1}),
        ("the champion of 2004 was her", {1}),
    ],
)
def test_a_rank_measured_against_the_winner_is_no_first_place(text: str, given: set[int]) -> None:
    assert ranks(text) == frozenset(given)


PAGE = [
    "Jonas Reiter (born 1958) is a German violin maker. He won the gold medal for a viola at the Lugano Makers' "
    "Biennial in 1991 and a silver medal for a cello at the same competition in 1997."
]


@pytest.mark.parametrize(
    ("fact", "conflict"),
    [
        ("Jonas Reiter won the silver medal for a viola at the Lugano Makers' Biennial.", 0),
        ("Jonas Reiter won the silver medal in 1991.", 0),
        ("Jonas Reiter won the gold medal in 1997.", 0),
        # look-alikes: each rank of the sentence with its own thing
        ("Jonas Reiter won a silver medal for a cello at the Lugano Makers' Biennial.", None),
        ("Jonas Reiter won the silver medal in 1997.", None),
        ("Jonas Reiter won the gold medal for a viola at the Lugano Makers' Biennial in 1991.", None),
    ],
)
def test_a_sentence_ranking_two_things_ranks_each_in_its_clause(fact: str, conflict: int | None) -> None:
    assert rank_conflict(fact, PAGE, ("Jonas Reiter",)) == conflict


# --- unlisted-award: the giver's possessive --------------------------------------------------------------------

AWARDS = ["He received the Eads Medal of the American Bridge Society in 2006 and the Telford Prize in 2011."]


@pytest.mark.parametrize(
    "fact",
    [
        "He received the American Bridge Society's Eads Medal in 2006.",
        "He won the Society's Eads Medal.",
        "He received the Eads Medal.",
    ],
)
def test_an_award_after_its_givers_possessive_is_the_pages(fact: str) -> None:
    assert unlisted_awards(fact, AWARDS, ("He",)) == ()


@pytest.mark.parametrize(
    "fact",
    [
        "He received the American Bridge Society's Roebling Medal.",
        "He received the Philological Society's Johnson Medal.",
        "He won the Institution's Gold Medal for bridges.",
    ],
)
def test_look_alikes_an_award_the_page_does_not_list_is_still_unlisted(fact: str) -> None:
    assert unlisted_awards(fact, AWARDS, ("He",)) != ()


# --- gapped-object ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("She won the Carrow Award in 2013 and the Lindqvist Prize in 2016.", "She won the Lindqvist Prize in 2016."),
        ("He received the Hale Medal in 1999 and the Orton Prize in 2004.", "He received the Orton Prize in 2004."),
        ("It won the Gilded Quill Award in 2006 and the Dagger of the North in 2007.",
         "It won the Dagger of the North in 2007."),
        ("She received the Ferrier Prize for documentary photography in 2018 and the Deutsche Börse Photography "
         "Prize in 2020.", "She received the Deutsche Börse Photography Prize in 2020."),
        ("He coached Leeds from 1990 to 1995 and Hull from 1996 to 2001.", "He coached Hull from 1996 to 2001."),
    ],
)  # fmt: skip
def test_a_second_object_without_its_verb_is_read_with_the_verb(text: str, fact: str) -> None:
    assert fact in _facts(text)
    assert fact not in _facts(text, frozenset({"gapped-object"}))


def test_the_first_object_keeps_its_own_year() -> None:
    facts = _facts("It won the Gilded Quill Award in 2006 and the Dagger of the North in 2007.")
    assert "It won the Gilded Quill Award in 2006." in facts
    assert "It won the Gilded Quill Award in 2007." not in facts


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("He studied law and economics at Leeds.", "He studied economics."),
        ("She married the painter Jon Berg in 1990 and has two sons.", "She has two sons."),
        ("He bought a house and a car in 1990.", "He bought a car."),
        ("She won the Carrow Award in 2013 and retired in 2016.", "She retired in 2016."),
    ],
)
def test_look_alikes_of_a_gapped_object_read_as_before(text: str, fact: str) -> None:
    assert fact in _facts(text)
    assert _facts(text) == _facts(text, frozenset({"gapped-object"}))


def test_the_rules_are_known_by_name() -> None:
    names = ("rank-reading", "gapped-object", MEDAL_CELLS, HEARSAY_HEDGES)
    assert rule_names(names) == frozenset(names)
    assert [r.name for r in PART_READINGS][-1] == "gapped-object"


# --- medal-cells ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "words"),
    [
        ("🥇", "Gold"),
        ("🥈 (behind Ingrid Solheim of Norway)", "Silver (behind Ingrid Solheim of Norway)"),
        (" 🥉 team event", "Bronze team event"),
    ],
)
def test_a_medal_emoji_opening_a_table_cell_is_read_as_its_word(cell: str, words: str) -> None:
    assert medal_words(cell) == words


@pytest.mark.parametrize("cell", ["Gold 🥇", "🥇🥇", "🏆", "2nd"])
def test_look_alikes_of_a_medal_cell_stay_as_written(cell: str) -> None:
    assert medal_words(cell) == cell


TABLE = "| Year | Event | Result |\n|---|---|---|\n| 2014 | Winter Olympics, 10 km classical | 🥇 |\n"


def test_a_table_row_with_a_medal_emoji_gives_its_rank() -> None:
    texts = [s.text for s in split_sentences(TABLE)]
    assert any("Gold" in t and "2014" in t for t in texts)
    assert not any("Gold" in t for t in (s.text for s in split_sentences(TABLE, frozenset({MEDAL_CELLS}))))


# --- hearsay-hedges ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("He reportedly received the Eads Medal in 2006.", "He received the Eads Medal in 2006."),
        ("Where he is said to have performed more than 4,000 operations.", "Where he performed more than 4,000 "
         "operations."),
        ("He seems also to have founded the charity Hearts Abroad in 1995.", "He founded the charity Hearts Abroad "
         "in 1995."),
        ("He is apparently married to a physiotherapist, Ellen Marsh.", "He is married to a physiotherapist, Ellen "
         "Marsh."),
        ("She appears to have retired in 2015.", "She retired in 2015."),
    ],
)  # fmt: skip
def test_hearsay_comes_off_and_the_claim_is_hedged(text: str, claim: str) -> None:
    assert strip_hedges(text)[0::2] == (claim, True)
    assert strip_hedges(text, frozenset({HEARSAY_HEDGES}))[0] == text


@pytest.mark.parametrize(
    "text",
    [
        "He seems to have written three novels in 1990.",  # no past form after "to have": "He written" would be left
        "The report said he had won the Hale Prize in 2004.",
        "The paper reported that he won the Hale Prize.",
    ],
)
def test_look_alikes_of_hearsay_stay_as_written(text: str) -> None:
    assert strip_hedges(text) == (text, list(range(len(text))), False)


# --- misplaced-value: a life given as the years it spanned ------------------------------------------------------

LIFE = [
    "Declan Fairweather (1949 – 2019) was an Irish cardiac surgeon. He qualified in 1973. He died in Kinsale in 2019."
]


@pytest.mark.parametrize(
    "fact",
    [
        "Declan Fairweather lived from 1949 to 2019.",
        "Declan Fairweather lived 1949–2019.",
        "Declan Fairweather lived from 1949 until 2019.",
    ],
)
def test_a_life_given_as_its_span_is_the_birth_and_death_years(fact: str) -> None:
    assert misplaced_values(fact, LIFE, ("Declan Fairweather",)) == []


@pytest.mark.parametrize(
    ("fact", "misplaced"),
    [
        ("Declan Fairweather died in 1949.", "1949"),
        ("Declan Fairweather was born in 2019.", "2019"),
        ("Declan Fairweather qualified in 2019.", "2019"),
    ],
)
def test_look_alikes_a_year_of_another_event_is_still_misplaced(fact: str, misplaced: str) -> None:
    assert [v.text for v in misplaced_values(fact, LIFE, ("Declan Fairweather",))] == [misplaced]
