"""Revisions keep the answer's own wording where a fact is supported, keep no crossed value, and leave no piece of a
deleted clause to join the clause before it (scoring/revise.py, scoring/offline.py)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from evaluation.corpus import load
from evaluation.engines import Engine
from schemas.check import CheckResult, Evidence, FactGroup, FactResult
from schemas.enums import Stance, Verdict
from schemas.knowledge import EntityRef
from scoring import nlp
from scoring.offline import _by_name
from scoring.recheck import rejections
from scoring.revise import (
    _only_a_names_date,
    _opening_went,
    _render,
    _repair,
    _tidy,
    _year_words,
    _years_as_written,
)

# --- a year the answer wrote short or relative is given back as written --------------------------------------------


@pytest.mark.parametrize(
    ("written", "reading", "edited", "revised"),
    [
        # a year without its century
        (
            "The engineer (born in '87) shipped the tool in 2014, and it was reached by 2023.",
            "The engineer (born in 1987) shipped the tool in 2014, and it was reached by 2023.",
            "The engineer (born in 1987) shipped the tool in 2014.",
            "The engineer (born in '87) shipped the tool in 2014.",
        ),
        # a date relative to the answer's last year, opening the sentence
        (
            "Three years later he was put in charge of the light and bought a boat.",
            "In 1928 he was put in charge of the light and bought a boat.",
            "In 1928 he was put in charge of the light.",
            "Three years later he was put in charge of the light.",
        ),
        # inside the sentence
        (
            "She returned as professor in 2013, and a decade later the vaccine was licensed and sold well.",
            "She returned as professor in 2013, and in 2023 the vaccine was licensed and sold well.",
            "She returned as professor in 2013, and in 2023 the vaccine was licensed.",
            "She returned as professor in 2013, and a decade later the vaccine was licensed.",
        ),
        # "the following year"
        (
            "The following year she moved to Oslo and opened a clinic.",
            "In 1991 she moved to Oslo and opened a clinic.",
            "In 1991 she moved to Oslo.",
            "The following year she moved to Oslo.",
        ),
    ],
)
def test_a_short_or_relative_year_read_right_stays_as_written(
    written: str, reading: str, edited: str, revised: str
) -> None:
    assert _years_as_written(edited, reading, written) == revised


@pytest.mark.parametrize(
    ("written", "reading", "edited"),
    [
        # the year written in full: nothing to give back
        ("He was born in 1987 and moved in 2014.", "He was born in 1987 and moved in 2014.", "He was born in 1987."),
        # a year the revision replaced from the page: the page's year, not the answer's
        ("She was born in '87 in Cork.", "She was born in 1987 in Cork.", "She was born in 1986 in Cork."),
        # a record read as prose: its label is no year of the answer's
        ("Born: 1912, Tromsø.", "He was born in 1912, Tromsø.", "He was born in 1912."),
        # a count of years, not a date: "for eight years" stays as the reading has it
        (
            "He served for eight years and retired.",
            "He served for eight years and retired.",
            "He served for eight years.",
        ),
    ],
)
def test_look_alikes_are_left_as_edited(written: str, reading: str, edited: str) -> None:
    assert _years_as_written(edited, reading, written) == edited


def test_only_year_words_pair_up() -> None:
    assert _year_words("She was born in 1987 in Cork.", "She was born in '87 in Cork.") == [("1987", "'87")]
    assert _year_words("In 1928 he left.", "Three years later he left.") == [("In 1928", "Three years later")]
    assert _year_words("He was born in 1912.", "Born: 1912.") == []


# --- a clause whose verb went leaves nothing behind ------------------------------------------------------------------


def _cut(sentence: str, gone: str) -> str:
    doc = nlp.parse_one(sentence)
    words, tokens = gone.split(), [t.text for t in doc]
    start = next(i for i in range(len(tokens)) if tokens[i : i + len(words)] == words)
    remove, swaps = _repair(doc, set(range(start, start + len(words))))
    return _tidy(_render(doc, remove, swaps), sentence)


@pytest.mark.parametrize(
    ("sentence", "gone", "revised"),
    [
        # a place and year of the deleted clause would date the clause before ("won the title in 1936 at …")
        (
            "He won the title in 1936, and at the Riverside Arena in 1940 he sang the anthem.",
            "sang the anthem",
            "He won the title in 1936.",
        ),
        (
            "She joined the faculty in 2013, and at the Lisbon congress in 2018 she gave the opening lecture.",
            "gave the opening lecture",
            "She joined the faculty in 2013.",
        ),
        (
            "She won the Arden Medal in 2016, and at the Nordic Science Awards in 2020 she finished second.",
            "finished second",
            "She won the Arden Medal in 2016.",
        ),
        # a date of the deleted clause
        (
            "He retired in 1941, and in 1946 he began training young fighters.",
            "began training young fighters",
            "He retired in 1941.",
        ),
    ],
)
def test_a_deleted_clause_takes_what_hung_on_its_verb(sentence: str, gone: str, revised: str) -> None:
    assert _cut(sentence, gone) == revised


@pytest.mark.parametrize(
    ("sentence", "gone", "revised"),
    [
        # a verb sharing the kept verb's subject and object: the object stays with the kept verb
        ("She founded and directed the lab.", "and directed", "She founded the lab."),
        # the clause's verb kept: only the deleted words go
        (
            "He turned professional in 1928, and the gym he founded in Leeds closed in 1950.",
            "in 1950",
            "He turned professional in 1928, and the gym he founded in Leeds closed.",
        ),
        # the deleted clause's subject stays where other facts keep it, joined as the answer joined it
        (
            "Her first book was The Ochre Houses, and her most recent novel, A Map of Small Rains, came out in 2018.",
            "came out in 2018",
            "Her first book was The Ochre Houses, and her most recent novel, A Map of Small Rains.",
        ),
        (
            "He turned professional in 1928, and in 1950 the gym he founded in Leeds closed its doors.",
            "closed its doors",
            "He turned professional in 1928, and the gym he founded in Leeds.",
        ),
        # a coordinated verb with no subject of its own
        ("He was born in 1936 and won a silver medal in 1956.", "won a silver medal in 1956", "He was born in 1936."),
    ],
)
def test_look_alike_deletions_keep_what_they_kept(sentence: str, gone: str, revised: str) -> None:
    assert _cut(sentence, gone) == revised


def test_an_aside_between_dashes_that_went_leaves_one_dash() -> None:
    assert _tidy("A Brno native — — she qualified as a doctor.", "A Brno native.") == (
        "A Brno native — she qualified as a doctor."
    )


# --- the page an unlinked group is corrected against ----------------------------------------------------------------


def _group(label: str, *facts: str) -> Any:
    return SimpleNamespace(individual=SimpleNamespace(label=label), facts=[SimpleNamespace(text=f) for f in facts])


_NAMESAKES = [
    EntityRef(title="Ada Brook (cellist)", base_name="Ada Brook", disambiguator="cellist"),
    EntityRef(title="Ada Brook (ecologist)", base_name="Ada Brook", disambiguator="ecologist"),
]


@pytest.mark.parametrize(
    ("facts", "title"),
    [
        (("Ada Brook is the ecologist — born in Hull, in 1970.",), "Ada Brook (ecologist)"),
        (("Ada Brook was a cellist.", "Ada Brook was born in 1950."), "Ada Brook (cellist)"),
        (("Ada Brook, the ecologist, studied moss.",), "Ada Brook (ecologist)"),
    ],
)
def test_namesakes_a_name_points_to_alike_are_told_apart_by_what_the_group_says(
    facts: tuple[str, ...], title: str
) -> None:
    assert _by_name(_group("Ada Brook", *facts), _NAMESAKES) == title


@pytest.mark.parametrize(
    "facts",
    [
        ("Ada Brook was born in Hull in 1970.",),  # nothing says which
        ("Ada Brook, a cellist and ecologist, lived in Hull.",),  # both
        ("Ada Brook wrote about cellos.",),  # a word of the field, not the disambiguator
    ],
)
def test_namesakes_nothing_tells_apart_are_no_page_to_correct_against(facts: tuple[str, ...]) -> None:
    assert _by_name(_group("Ada Brook", *facts), _NAMESAKES) is None


def test_a_name_of_one_page_still_points_to_it() -> None:
    pages = [_NAMESAKES[0], EntityRef(title="Ada Brookes", base_name="Ada Brookes")]
    assert _by_name(_group("Ada Brook", "Ada Brook was born in Hull."), pages) == "Ada Brook (cellist)"


# --- the whole check ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def corpus_pages(repo_root: Path) -> list[tuple[str, str, list[str]]]:
    pages, _ = load(repo_root / "tests" / "corpus")
    return pages


def _revised(pages: list[tuple[str, str, list[str]]], answer: str, name: str) -> str:
    revision = Engine().check(answer, pages=pages, name=name).revision
    assert revision is not None
    return revision.text


def test_a_crossed_town_goes_with_the_namesakes_region(corpus_pages: list[tuple[str, str, list[str]]]) -> None:
    answer = (
        'There are two Theodore Vances. The boxer, Theodore "Ironhand" Vance, was born in Columbus, Ohio, in 1909 '
        "and won the National Boxing Union middleweight title in 1936. The politician, Theodore R. Vance, was born "
        "in 1952 and served in the Ohio Senate from 2009 to 2016."
    )
    text = _revised(corpus_pages, answer, "Theodore Vance")
    assert 'The boxer, Theodore "Ironhand" Vance, was born in Scranton, Pennsylvania, in 1909 and won' in text
    assert "Scranton, Ohio" not in text and "Columbus" not in text


def test_a_short_year_stays_as_written_in_an_edited_sentence(corpus_pages: list[tuple[str, str, list[str]]]) -> None:
    answer = (
        "Theodore Vance (born in '09) was an American middleweight boxer who turned professional in 1928 and "
        "opened a bakery in Boston."
    )
    text = _revised(corpus_pages, answer, "Theodore Vance")
    assert text == "Theodore Vance (born in '09) was an American middleweight boxer who turned professional in 1928."


def test_a_relative_year_stays_as_written_in_an_edited_sentence(corpus_pages: list[tuple[str, str, list[str]]]) -> None:
    answer = (
        "Theodore Vance was an American middleweight boxer. He turned professional in 1928. Eight years later he won "
        "the National Boxing Union middleweight title, and he opened a bakery in Boston."
    )
    text = _revised(corpus_pages, answer, "Theodore Vance")
    assert text.endswith("Eight years later he won the National Boxing Union middleweight title.")
    assert "1936" not in text


# --- a page's year of a name is no event's year ----------------------------------------------------------------------

_PAGE = [
    "Cold Harbour Lane (2005) won the Gilded Quill Award in 2006. The Glass Orchard (2012) followed.",
    "Anna Berg (1911–1990) was a poet. In 1950 she moved to Bergen. Her brother Ed Berg (born 1931) stayed.",
]


@pytest.mark.parametrize("year", ["2005", "2012"])
def test_a_year_only_written_after_a_name_is_its_date(year: str) -> None:
    assert _only_a_names_date(year, _PAGE)


@pytest.mark.parametrize("year", ["2006", "1950", "1911", "1990", "1931", "1999"])
def test_an_events_year_a_lifespan_or_a_birth_is_no_names_date(year: str) -> None:
    assert not _only_a_names_date(year, _PAGE)


def test_a_year_also_written_for_an_event_is_no_names_date() -> None:
    assert not _only_a_names_date("2005", [*_PAGE, "In 2005 she moved to Oslo."])


# --- a value the answer wrote across its punctuation is the answer's --------------------------------------------------


def _checked(sentence: str, page: str, verdict: Verdict = Verdict.SUPPORTED) -> CheckResult:
    stance = Stance.SUPPORT if verdict is Verdict.SUPPORTED else Stance.IRRELEVANT
    fact = FactResult(
        text=sentence,
        sentence_index=0,
        verdict=verdict,
        verdict_linked=verdict,
        stance=stance,
        evidence=[Evidence(title="P", text=page)],
    )
    return CheckResult(sentences=[sentence], groups=[FactGroup(mention="Ann Berg", entity="P", facts=[fact])])


@pytest.mark.parametrize(
    ("answer", "fact"),
    [
        (
            "Ann Berg: architect; own practice, Brandt Atelier, Strasbourg, from 1995.",
            "Ann Berg was Brandt Atelier Strasbourg.",
        ),
        ("Ann Berg (b. 1961, Strasbourg) trained in Basel.", "Ann Berg was born in 1961 Strasbourg."),
        ("Ann Berg — Keller & Moos, Basel — from 1987.", "Ann Berg worked at Keller Moos Basel."),
    ],
)
def test_a_value_read_across_the_answers_punctuation_is_not_brought_in(answer: str, fact: str) -> None:
    page = "Ann Berg is a French architect. She won a prize."
    first = _checked(answer, page, Verdict.NOT_SUPPORTED)
    again = _checked(fact, page)
    assert not [w for w in rejections(answer, first, again, {"P": [page]}) if w.startswith("another relation")]


def test_a_value_the_answer_never_wrote_is_still_brought_in() -> None:
    answer = "Ann Berg: architect; own practice from 1995."
    page = "Ann Berg studied at Oxford. She founded her own practice in 1995."
    why = rejections(
        answer,
        _checked(answer, page, Verdict.NOT_SUPPORTED),
        _checked("Ann Berg teaches at Oxford.", page),
        {"P": [page]},
    )
    assert any(w.startswith("another relation's value: Oxford") for w in why)


# --- a record's item that lost what it was about ---------------------------------------------------------------------


def _opening(sentence: str, gone: str) -> bool:
    doc = nlp.parse_one(sentence)
    words, tokens = gone.split(), [t.text for t in doc]
    start = next(i for i in range(len(tokens)) if tokens[i : i + len(words)] == words)
    return _opening_went(doc, set(range(start, start + len(words))))


@pytest.mark.parametrize(
    ("sentence", "gone"),
    [
        ("Red Moor Bridge (2008), his largest bridge.", "Red Moor Bridge ( 2008 ) ,"),
        ("Harwick Prize, 2012, her first award.", "Harwick Prize , 2012 ,"),
        ("Kestrel Cup (1999) — a regional title.", "Kestrel Cup ( 1999 ) —"),
    ],
)
def test_an_item_without_its_opening_and_verb_is_seen(sentence: str, gone: str) -> None:
    assert _opening(sentence, gone)


@pytest.mark.parametrize(
    ("sentence", "gone"),
    [
        ("Red Moor Bridge (2008), his largest bridge.", "( 2008 )"),  # the opening kept
        ("Red Moor Bridge opened in 2008.", "Red Moor Bridge"),  # a verb kept
        ("Harwick Prize, 2012, her first award.", "her first award ."),  # the end went, not the opening
    ],
)
def test_an_item_keeping_its_opening_or_a_verb_is_not(sentence: str, gone: str) -> None:
    assert not _opening(sentence, gone)
