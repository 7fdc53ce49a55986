"""Decomposer readings of true sentences worded unlike the page (branch dpara): a negative inversion read in plain
order, a verb that "rather than" opens kept out of the facts, "the following summer" counted as a year, and a
subject that describes its person read with the person's name."""

from __future__ import annotations

import pytest

from scoring import nlp
from scoring.answer_dates import SEASONAL_YEARS, answer_years_read
from scoring.corrections import NEGATIVE_INVERSION, uninverted
from scoring.decompose import decompose_doc
from scoring.decontext import DESCRIBED_SUBJECT, decontextualize
from scoring.parse_rules import RATHER_THAN
from scoring.records import Reading
from scoring.rulebook import rule_names


def _uninverted(text: str, off: frozenset[str] = frozenset()) -> str:
    return uninverted(Reading(text, list(range(len(text)))), off).text


def _facts(text: str, off: frozenset[str] = frozenset()) -> list[str]:
    return [f.text for f in decompose_doc(nlp.parse_one(text), 0, off)]


def test_the_rules_are_registered() -> None:
    names = {NEGATIVE_INVERSION, RATHER_THAN, SEASONAL_YEARS, DESCRIBED_SUBJECT}
    assert rule_names(sorted(names)) == names


# --- negative-inversion ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("Nor did she ever get behind a wheel.", "She did not ever get behind a wheel."),
        ("Neither has he remarried since.", "He has not remarried since."),
        ("He never married, nor did he have children.", "He never married, and he did not have children."),
        ("And nor did Kari Berg sing again.", "Kari Berg did not sing again."),
        ("Nor was Oslo ever her home.", "Oslo was not ever her home."),
        # look-alikes: no auxiliary after "neither", no pronoun or name after the auxiliary, no inversion
        ("Neither Anna nor Ben won the cup.", "Neither Anna nor Ben won the cup."),
        ("Neither of them won the cup.", "Neither of them won the cup."),
        ("Nor is that all.", "Nor is that all."),
        ("She did not drive; neither did her sister.", "She did not drive; neither did her sister."),
    ],
)
def test_a_negative_inversion_is_read_in_plain_order(written: str, read: str) -> None:
    assert _uninverted(written) == read


def test_a_negative_inversion_keeps_every_character_an_offset_and_switches_off() -> None:
    text = "He never married, nor did he have children."
    reading = uninverted(Reading(text, list(range(len(text)))))
    assert len(reading.offsets) == len(reading.text) and reading.rewritten
    assert _uninverted(text, frozenset({NEGATIVE_INVERSION})) == text


def test_a_negative_inversion_makes_a_negated_fact_not_a_question() -> None:
    read = _uninverted("Nor did she ever get behind a wheel.")
    assert _facts(read) == ["She did not ever get behind a wheel."]


# --- rather-than ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "facts"),
    [
        ("For four decades she pedalled to the offices rather than drive.",
         ["For four decades she pedalled to the offices.", "She pedalled to the offices."]),
        ("She pedalled to the dictionary's offices rather than drive.", ["She pedalled to the dictionary's offices."]),
        ("He walked to the studio every day rather than take the tram.",
         ["He walked to the studio.", "He walked to the studio every day."]),
        ("He took the night train rather than fly to Oslo.", ["He took the night train."]),
    ],
)  # fmt: skip
def test_a_verb_rather_than_opens_is_no_fact(sentence: str, facts: list[str]) -> None:
    assert _facts(sentence) == facts
    assert _facts(sentence, frozenset({RATHER_THAN})) != facts


@pytest.mark.parametrize(
    ("sentence", "facts"),
    [
        # look-alikes: coordinated verbs, a comparison with "than", "rather" alone
        ("She cycled to work and drove home.", ["She cycled to work.", "She drove home."]),
        ("She sang and played the piano.", ["She sang.", "She played the piano."]),
        ("He won more races than he lost.", ["He won more races."]),
    ],
)
def test_verbs_not_opened_by_rather_than_stay_facts(sentence: str, facts: list[str]) -> None:
    assert _facts(sentence) == facts


# --- seasonal-years ------------------------------------------------------------------------------------------------


def _read(sentences: list[str], off: frozenset[str] = frozenset()) -> list[str]:
    return [r.text for r in answer_years_read(sentences, None, off)]


@pytest.mark.parametrize(
    ("sentences", "read"),
    [
        (  # a chain counts on from the season's year
            [
                "Her first title came in 2015, she was fourteenth at the Olympics the following summer, the next "
                "year she won the Tour outright, and a year after that she was national champion again."
            ],
            [
                "Her first title came in 2015, she was fourteenth at the Olympics in 2016, in 2017 she won the Tour "
                "outright, and in 2018 she was national champion again."
            ],
        ),
        (["She won the Tour in 2011.", "The following spring she married Jonas."],
         ["She won the Tour in 2011.", "In 2012 she married Jonas."]),
        (["She was born in 1990.", "She learned to swim the next autumn."],
         ["She was born in 1990.", "She learned to swim in 1991."]),
    ],
)  # fmt: skip
def test_the_following_summer_after_a_bare_year_is_the_next_year(sentences: list[str], read: list[str]) -> None:
    assert _read(sentences) == read


@pytest.mark.parametrize(
    "sentences",
    [
        # a winter or a season may end the same season; a month or season dates the year counted from
        ["She won silver in 2017.", "The following winter she ended the season second.", "The next year she retired."],
        ["In June 2015 she won the title; the following summer she retired."],
        ["In the spring of 2012 she moved; the following autumn she married."],
        ["She joined the club in 2010 and left the following season."],
    ],
)
def test_a_season_that_may_be_the_same_year_stays_and_ends_the_chain(sentences: list[str]) -> None:
    assert _read(sentences) == sentences


def test_seasonal_years_switch_off() -> None:
    sentences = ["She won the Tour in 2011.", "The following spring she married Jonas."]
    assert _read(sentences, frozenset({SEASONAL_YEARS})) == sentences


# --- described-subject ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fact", "subject", "context", "named"),
    [
        ("The Glaswegian image maker learned her craft.", "The Glaswegian image maker",
         "The Glaswegian image-maker learned her craft.", "Ada Brook learned her craft."),
        ("The chemist won the Hale Prize.", "The chemist", "The Bergen-born chemist won the Hale Prize.",
         "Ada Brook won the Hale Prize."),
        ("The engineer's firm built the bridge.", "The engineer's firm", "The engineer's firm built the bridge.",
         "Ada Brook's firm built the bridge."),
        ("The cellist was born in Kraków.", "The cellist", "The cellist was born in Kraków.",
         "Ada Brook was born in Kraków."),
    ],
)  # fmt: skip
def test_a_subject_that_describes_the_person_is_read_with_the_name(
    fact: str, subject: str, context: str, named: str
) -> None:
    assert decontextualize(fact, subject, "Ada Brook", context=(context,)) == named
    assert (
        decontextualize(fact, subject, "Ada Brook", rules_off=frozenset({DESCRIBED_SUBJECT}), context=(context,))
        == fact
    )


@pytest.mark.parametrize(
    ("fact", "subject", "context"),
    [
        # the word presents someone else, or the subject names no occupation, or says more than a description
        ("The composer died in 2016.", "The composer", "Her husband, the composer Pentti Salo, died in 2016."),
        ("The chemist won the prize.", "The chemist", "She and a fellow chemist won the prize."),
        ("The chemists won the prize.", "The chemists", "The chemists won the prize."),
        ("The handle came in 1931.", "The handle", "The handle came in 1931."),
        ("The man at the stove is Corentin.", "The man at the stove", "The man at the stove is Corentin."),
        ("The engineer at Arup won.", "The engineer at Arup", "The engineer at Arup won."),
        ("The bread maker broke.", "The bread maker", "The bread maker broke."),
    ],
)
def test_a_subject_that_may_be_someone_else_is_left_as_written(fact: str, subject: str, context: str) -> None:
    assert decontextualize(fact, subject, "Ada Brook", context=(context,)) == fact


def test_a_described_subject_needs_the_groups_sentences() -> None:
    assert decontextualize("The chemist won the prize.", "The chemist", "Ada Brook") == "The chemist won the prize."


# --- comma-splice --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        ("Her first title came in 2015, she was fourteenth at the Olympics in 2016, in 2017 she won the Tour outright, "
         "and in 2018 she was national champion again.", "In 2017 she won the Tour outright."),
        ("Her first title came in 2015, she was fourteenth at the Olympics in 2016, in 2017 she won the Tour outright, "
         "and in 2018 she was national champion again.", "She was fourteenth at the Olympics in 2016."),
        ("The club was founded in 1901, it won the league in 1920, in 1950 it moved to a new ground.",
         "In 1950 it moved to a new ground."),
    ],
)  # fmt: skip
def test_clauses_spliced_by_a_comma_are_facts_of_their_own(sentence: str, fact: str) -> None:
    assert fact in _facts(sentence)
    assert not any(", " in f for f in _facts(sentence))  # no fact glues two clauses
    assert _facts(sentence, frozenset({"comma-splice"})) != _facts(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        # look-alikes: a clause a reporting verb takes, a subordinate clause, coordinated clauses
        "She was the best, he said.",
        "When she was ten, she moved to Oslo.",
        "She joined Leeds in 1990, and she left in 1994.",
    ],
)
def test_clauses_that_are_no_splice_are_left_to_the_whole_parse(sentence: str) -> None:
    assert _facts(sentence) == _facts(sentence, frozenset({"comma-splice"}))
