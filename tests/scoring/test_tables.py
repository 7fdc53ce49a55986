"""Tables of people (scoring/segment/tables.py): a row or column is one person's, its headers are labels and not
claims, each item of a cell is a claim about that person, dated by the years that close it, hedged by the hedge
after it; one person's table is the answer's subject, told apart from namesakes by the table's description."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.enums import Stance
from scoring.hedges import closing_hedge, hedge_only, strip_hedges
from scoring.pipeline import check
from scoring.records import prose
from scoring.segment.tables import cell_item, records
from scoring.sentences import split_sentences


def _rows(table: str) -> tuple[tuple[str, ...], ...]:
    lines = [line for line in table.strip().splitlines() if not set(line) <= set("|-: ")]
    return tuple(tuple(c.strip() for c in line.strip().strip("|").split("|")) for line in lines)


@pytest.mark.parametrize(
    ("item", "read"),
    [
        ("Captain, Deccan Falcons (2019–2023)", "Captain, Deccan Falcons, 2019–2023"),
        ("IK Norrvik (1990–1998)", "IK Norrvik, 1990–1998"),
        ("Professor, Northbridge University (since 2005)", "Professor, Northbridge University, since 2005"),
        ("Falcon Cup player of the tournament (2021)", "Falcon Cup player of the tournament, 2021"),
        ("Touring drummer (1960s)", "Touring drummer, 1960s"),
        ("Cellist, Silesian Orchestra (1995–2009) (I think)", "Cellist, Silesian Orchestra, 1995–2009, I think"),
        ("Brushfire (album, 1961)", "Brushfire, album, 1961"),
        ("Hall of Fame (1978) (not fully certain)", "Hall of Fame, 1978, not fully certain"),
        ("Team Velora (2011–2016) (if I recall correctly)", "Team Velora, 2011–2016, if I recall correctly"),
        # Look-alikes: a relative's years may be their life; a parenthesis that is neither dates nor a hedge; dates
        # that open the item; nothing to move.
        ("Married to Ada Lind (1930–2001)", "Married to Ada Lind (1930–2001)"),
        ("Son of the painter Jon Lind (1901–1977)", "Son of the painter Jon Lind (1901–1977)"),
        ("Spin-bowling coach (after retiring in 2023)", "Spin-bowling coach (after retiring in 2023)"),
        ("Brushfire (album)", "Brushfire (album)"),
        ("Harrowgate Prize (2016), for Salt for the Drowned", "Harrowgate Prize (2016), for Salt for the Drowned"),
        ("(2019–2023) captain", "(2019–2023) captain"),
        ("21 doctoral students supervised", "21 doctoral students supervised"),
    ],
)
def test_a_cells_item_is_dated_and_hedged_by_what_closes_it(item: str, read: str) -> None:
    assert cell_item(item) == read


@pytest.mark.parametrize(
    ("item", "read"),
    [
        ("Money in Motion (2011)", "Money in Motion (2011)"),  # a work's year: read as the work's
        ("Amani Prize (2017) (I think)", "Amani Prize (2017), I think"),
        ("St. Florian Conservatory, Kraków (1986–1991)", "St. Florian Conservatory, Kraków, 1986–1991"),
        ("Bramwell University (since 2017)", "Bramwell University, since 2017"),
    ],
)
def test_under_a_known_label_a_single_year_stays_in_its_parentheses(item: str, read: str) -> None:
    assert cell_item(item, single_years=False) == read


@pytest.mark.parametrize(
    ("table", "texts", "keys"),
    [
        (  # one person's column: its name leads, unknown headers are dropped, known ones stay as labels
            "| | Priya Raghunathan |\n|---|---|\n| Description | Indian cricketer |\n| Born | 1994, Hyderabad |\n"
            "| ODIs | 48 One Day Internationals (2015–2022) |\n| Award | Falcon Cup (2021) |",
            [
                "Priya Raghunathan",
                "- Indian cricketer",
                "Born: 1994, Hyderabad",
                "- 48 One Day Internationals, 2015–2022",
                "Award: Falcon Cup (2021)",
            ],
            {"col:1"},
        ),
        (  # a name with its description in the header
            "|  | Declan Fairweather (sailor) |\n|---|---|\n| Race win | Meridian Ocean Race winner (2018) |",
            ["Declan Fairweather (sailor)", "- Meridian Ocean Race winner, 2018"],
            {"col:1"},
        ),
        (  # one row: a semicolon list of highlights is an item each
            "| Name | Description | Born | Highlights |\n|---|---|---|---|\n"
            "| Ada Lind | Norwegian novelist | 1950, Oslo | Editor, Vinterlys (1980–1990); Brage Prize (1995) |",
            ["- Norwegian novelist", "Born: 1950, Oslo", "- Editor, Vinterlys, 1980–1990", "- Brage Prize, 1995"],
            {"row:1"},
        ),
        (  # two people's columns; a dash says nothing
            "| | Ada Lind (novelist) | Ada Lind (chemist) |\n|---|---|---|\n| Born | 1950, Oslo | 1970, Bergen |\n"
            "| Book | Vinterlys (1988) | — |",
            [
                "Ada Lind (novelist)",
                "Born: 1950, Oslo",
                "Book: Vinterlys (1988)",
                "Ada Lind (chemist)",
                "Born: 1970, Bergen",
            ],
            {"col:1", "col:2"},
        ),
    ],
)
def test_a_row_or_column_of_a_person_is_read_as_their_records(table: str, texts: list[str], keys: set[str]) -> None:
    read = records(_rows(table))
    assert [r.text for r in read] == texts
    assert {r.key for r in read} == keys
    assert all(r.sole is (len(keys) == 1) for r in read)


@pytest.mark.parametrize(
    ("table", "texts"),
    [
        # Look-alikes of a person's column: a label/value table, a timeline, a header that names no one.
        (
            "| Field | Value |\n|---|---|\n| Born | 1950, Oslo |\n| Award | Brage Prize |",
            ["Born: 1950, Oslo", "Award: Brage Prize"],
        ),
        ("| | Details |\n|---|---|\n| Born | 1950 |", ["Born: 1950"]),
        ("| Year | Event |\n|---|---|\n| 1950 | Born in Oslo |", ["- Born in Oslo, 1950"]),
        ("| | Key Facts |\n|---|---|\n| Born | 1950 |", ["Born: 1950"]),
        ("| | 2019 |\n|---|---|\n| Wins | 4 |", ["Wins: 4"]),
    ],
)
def test_a_two_column_table_that_names_no_one_stays_label_and_value(table: str, texts: list[str]) -> None:
    read = records(_rows(table))
    assert [r.text for r in read] == texts
    assert all(r.key == "" for r in read)


@pytest.mark.parametrize(
    "table",
    [
        "| | Ada Lind |\n|---|---|\n| Description | Norwegian novelist |\n| Born | 1950, Oslo |\n"
        "| Magazine | Editor, Vinterlys (1980–1990) |\n| Retrospective | Retrospective, Bergen Kunsthall (1999) |",
        "| Name | Description | Born | Highlights |\n|---|---|---|---|\n"
        "| Ada Lind | Norwegian novelist | 1950, Oslo | Editor, Vinterlys (1980–1990); Retrospective, Bergen (1999) |",
        "|  | Ada Lind |\n|---|---|\n| Description | Norwegian novelist |\n"
        "| Magazine | Principal editor, Vinterlys (1980–1990) (I think) |",
    ],
)
def test_one_persons_table_is_the_answers_subject_and_headers_are_no_one(table: str) -> None:
    """Every record of the table is about its one person: a header ("Retrospective", "Magazine") or a cell's first
    words ("Principal editor") open no other individual; the table's description tells the namesake."""
    answer = f"Here is a quick profile of Ada Lind:\n\n{table}"
    store = Store.in_memory(
        [
            (
                "Ada Lind (novelist)",
                "Ada Lind (born 1950 in Oslo) is a Norwegian novelist. She edited the magazine Vinterlys from 1980 "
                "to 1990. A retrospective of her work was held at the Bergen Kunsthall in 1999.",
            ),
            ("Ada Lind (chemist)", "Ada Lind (born 1970 in Bergen) is a Norwegian chemist. She works in Bergen."),
        ]
    )
    result = check(answer, kb=store, name="Ada Lind")
    assert [g.entity for g in result.groups] == ["Ada Lind (novelist)"], [(g.mention, g.entity) for g in result.groups]
    facts = [f for g in result.groups for f in g.facts]
    assert not any(f.stance is Stance.REFUTE for f in facts), [f.text for f in facts]
    assert not any("Vinterlys was born" in f.text or "Vinterlys died" in f.text for f in facts)
    assert result.dfactscore is not None and result.dfactscore >= 0.75


def test_a_hedge_in_a_cell_is_reported_and_taken_off() -> None:
    answer = "|  | Ada Lind |\n|---|---|\n| Magazine | Editor, Vinterlys (1980–1990) (I think) |"
    sentences = [s.text for s in split_sentences(answer)]
    assert sentences == ["Ada Lind", "Editor, Vinterlys, 1980–1990, I think"]
    store = Store.in_memory([("Ada Lind", "Ada Lind is a Norwegian novelist. She edited Vinterlys from 1980 to 1990.")])
    facts = [f for g in check(answer, kb=store, name="Ada Lind").groups for f in g.facts]
    assert facts and all(f.hedged for f in facts if "Vinterlys" in f.text)
    assert not any("think" in f.text for f in facts)


@pytest.mark.parametrize(
    ("text", "hedge"),
    [
        ("if I recall correctly", True),
        ("I think", True),
        ("not fully certain", True),
        ("I'm not entirely sure", True),
        ("probably", True),
        # Look-alikes: dates, a remark that is no hedge, a hedge with more after it.
        ("1990–1998", False),
        ("after retiring in 2023", False),
        ("I think she retired", False),
    ],
)
def test_a_hedge_and_nothing_else(text: str, hedge: bool) -> None:
    assert hedge_only(text) is hedge


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Captain, Deccan Falcons, 2019–2023, I think", "Captain, Deccan Falcons, 2019–2023"),
        ("Hall of Fame, 1978, not fully certain.", "Hall of Fame, 1978"),
        ("IK Norrvik, 1990–1998, if I recall correctly;", "IK Norrvik, 1990–1998"),
        # Look-alikes: no hedge; a hedge that does not close the text; one not set off by a comma.
        ("Captain, Deccan Falcons", None),
        ("I think, captain of the Falcons", None),
        ("Hall of Fame (not fully certain)", None),
        ("Captain of the Falcons, I think, in 2019", None),
    ],
)
def test_a_closing_hedge(text: str, kept: str | None) -> None:
    cut = closing_hedge(text)
    assert (text[:cut] if cut is not None else None) == kept


@pytest.mark.parametrize(
    ("line", "read"),
    [
        ("Captain, Deccan Falcons, 2019–2023, I think", "She was captain, Deccan Falcons from 2019 to 2023, I think."),
        (
            "Falcon Cup player of the tournament, 2021, I believe",
            "She won Falcon Cup player of the tournament in 2021, I believe.",
        ),
        (
            "Editor, Vinterlys magazine, since 2012, not fully certain",
            "She was editor, Vinterlys magazine since 2012, not fully certain.",
        ),
    ],
)
def test_an_item_is_read_without_the_hedge_that_closes_it(line: str, read: str) -> None:
    reading = prose(line, "she", list_item=True)
    assert reading.text == read
    assert len(reading.offsets) == len(reading.text) and all(0 <= o < len(line) for o in reading.offsets)
    stripped, _, hedged = strip_hedges(reading.text)
    assert hedged and stripped.endswith(("2023.", "2021.", "2012."))


@pytest.mark.parametrize(
    ("sentence", "kept"),
    [
        ("She was captain of the Falcons (I think).", "She was captain of the Falcons."),
        ("She won the Brage Prize (if I recall correctly) in 1995.", "She won the Brage Prize in 1995."),
        ("He retired in 2010 (not fully certain).", "He retired in 2010."),
    ],
)
def test_a_hedge_in_parentheses_comes_off(sentence: str, kept: str) -> None:
    stripped, _, hedged = strip_hedges(sentence)
    assert (stripped, hedged) == (kept, True)


def test_a_remark_in_parentheses_that_is_no_hedge_stays() -> None:
    text = "She coached the academy (after retiring in 2023)."
    assert strip_hedges(text) == (text, list(range(len(text))), False)


def test_a_table_after_prose_about_the_same_person_joins_that_persons_individual() -> None:
    answer = (
        "Ada Lind is a Norwegian novelist born in Oslo in 1950. She edited Vinterlys.\n\n"
        "| | Ada Lind |\n|---|---|\n| Born | 1950, Oslo |\n| Magazine | Editor, Vinterlys (1980–1990) |\n\n"
        "She still lives in Oslo."
    )
    store = Store.in_memory(
        [
            (
                "Ada Lind (novelist)",
                "Ada Lind (born 1950 in Oslo) is a Norwegian novelist. She edited the magazine "
                "Vinterlys from 1980 to 1990. She lives in Oslo.",
            ),
            ("Ada Lind (chemist)", "Ada Lind (born 1970 in Bergen) is a Norwegian chemist."),
        ]
    )
    result = check(answer, kb=store, name="Ada Lind")
    assert result.num_bios == 1 and [g.entity for g in result.groups] == ["Ada Lind (novelist)"]
    assert not any(g.conflated for g in result.groups)


@pytest.mark.parametrize(
    ("header", "cell", "text"),
    [
        # a header whose last word is a known label of a work or an award keeps it: the word before only says which
        ("Third novel", "A Map of Small Rains (2021)", "Third novel: A Map of Small Rains (2021)"),
        ("Textbook", "Polymers for a Circular Economy (2016)", "Textbook: Polymers for a Circular Economy (2016)"),
        ("Major award", "Kessler Medal (2019)", "Major award: Kessler Medal (2019)"),
        # a header of no known label is dropped: the cell is an item about the person
        ("Olympics", "200 m semi-finalist, 2004 Summer Olympics", "- 200 m semi-finalist, 2004 Summer Olympics"),
        ("Early career", "Court stenographer (1988–1996)", "- Court stenographer, 1988–1996"),
    ],
)
def test_a_persons_cell_keeps_a_header_whose_last_word_is_a_label(header: str, cell: str, text: str) -> None:
    read = [r.text for r in records((("", "Ada Lind"), (header, cell)))]
    assert read == ["Ada Lind", text]


def test_a_work_under_a_headers_label_is_written_not_done() -> None:
    # before, "Polymers for a Circular Economy" without its header read "Polymers" as the verb ("She polymers …")
    assert prose("Textbook: Polymers for a Circular Economy (2016)", "she").text.startswith(
        "She wrote Polymers for a Circular Economy"
    )
