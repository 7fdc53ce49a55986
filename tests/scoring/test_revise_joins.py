"""What a deletion leaves where the revision is written on the answer as written (scoring/revise_layout.py, rule
``layout-in-place``): the punctuation between pieces of one deleted run goes with them, the markup wrapped round
deleted words goes with them, a cut across lines keeps the lines, a line whose frame the edit would break (a table
row's cells, paired brackets or bold) is not edited in place, and separators left with nothing on one side go."""

from __future__ import annotations

import pytest

from scoring.revise_layout import _cut, _sound, _tidy_line, in_place
from scoring.spans import align


def _revise(answer: str, written: list[str], outs: list[str | None], bases: list[str] | None = None) -> str | None:
    return in_place(answer, align(answer, written), written, bases or written, outs)


# --- pieces of one deleted run, read with other punctuation -----------------------------------------------------


@pytest.mark.parametrize(
    ("line", "base", "out", "left"),
    [
        (
            "- She gave up the CEO job in 2020, but she didn't leave — she has chaired the board ever since.",
            "She gave up the CEO job in 2020, but she didn't leave; she has chaired the board ever since.",
            "She has chaired the board ever since.",
            "- She has chaired the board ever since.",
        ),
        (
            "- He sold the farm in 1988, and he never went back — he lived in Leeds until his death.",
            "He sold the farm in 1988, and he never went back; he lived in Leeds until his death.",
            "He lived in Leeds until his death.",
            "- He lived in Leeds until his death.",
        ),
        (
            "- They left Oslo in 1990, but they kept the house – they still spend summers there.",
            "They left Oslo in 1990, but they kept the house; they still spend summers there.",
            "They still spend summers there.",
            "- They still spend summers there.",
        ),
    ],
)
def test_the_punctuation_between_pieces_of_one_deleted_run_goes_with_them(
    line: str, base: str, out: str, left: str
) -> None:
    written = [line[2:]]
    assert _revise(line, written, [out], [base]) == left


@pytest.mark.parametrize(
    ("line", "base", "out", "left"),
    [
        # pieces with kept words between them are two cuts, each tidied on its own
        (
            "- She was born in Oslo, studied in Bergen — and taught in Tromsø.",
            "She was born in Oslo; studied in Bergen; and taught in Tromsø.",
            "She was born in Oslo; studied in Bergen.",
            "- She was born in Oslo, studied in Bergen.",
        ),
        (
            "- He won in 1990, lost in 1994 — and won again in 1998.",
            "He won in 1990; lost in 1994; and won again in 1998.",
            "He won in 1990; and won again in 1998.",
            "- He won in 1990 — and won again in 1998.",
        ),
        (
            "- She joined in 2001 — she left in 2009, and she returned in 2015.",
            "She joined in 2001; she left in 2009, and she returned in 2015.",
            "She joined in 2001; she returned in 2015.",
            "- She joined in 2001 — she returned in 2015.",
        ),
    ],
)
def test_pieces_with_kept_words_between_them_are_cut_apart(line: str, base: str, out: str, left: str) -> None:
    assert _revise(line, [line[2:]], [out], [base]) == left


# --- markup round deleted words ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("region", "s", "e", "left"),
    [
        ("guess? *[take guesses]* More than a month.", 9, 21, "guess? More than a month."),
        ("Her films, **Kite Season** and Dust, premiered.", 13, 24, "Her films, and Dust, premiered."),
        ('He said "never again" and left.', 9, 20, "He said and left."),
        ("It was [sic] *so* late.", 8, 11, "It was *so* late."),
    ],
)
def test_the_markup_wrapped_round_deleted_words_goes_with_them(region: str, s: int, e: int, left: str) -> None:
    assert _cut(region, s, e) == left


@pytest.mark.parametrize(
    ("region", "s", "e", "left"),
    [
        # markup that pairs with words kept stays: the emphasis runs on past the cut
        ("**Born in 1960 in Oslo** then Bergen.", 2, 15, "**in Oslo** then Bergen."),
        # markup apart from the words (a space between) is not theirs
        ("She wrote * Dust * in 1990.", 12, 16, "She wrote * * in 1990."),
        # an opening bracket whose closer is not in the cut stays
        ("(born 1960 in Oslo) she sang.", 1, 10, "(in Oslo) she sang."),
    ],
)
def test_markup_that_is_not_the_deleted_words_own_stays(region: str, s: int, e: int, left: str) -> None:
    assert _cut(region, s, e) == left


def test_a_sentence_in_a_stage_direction_goes_with_its_brackets_and_emphasis() -> None:
    answer = "Guess how long it took? *[take guesses]* About 37 days! More than a month."
    written = ["Guess how long it took?", "[take guesses] About 37 days!", "More than a month."]
    assert _revise(answer, written, [written[0], None, written[2]]) == "Guess how long it took? More than a month."


# --- a cut across lines -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "written", "left"),
    [
        (
            "*vi.*\nGold pickaxe, eighty-\nnine; her hut above the clouds\nin four languages",
            ["vi.", "Gold pickaxe, eighty- nine;", "her hut above the clouds in four languages"],
            "*vi.*\nHer hut above the clouds\nin four languages",
        ),
        (
            "Roses in the rain,\nnineteen; the old wall\ncrumbles slowly",
            ["Roses in the rain, nineteen;", "the old wall crumbles slowly"],
            "The old wall\ncrumbles slowly",
        ),
        (
            "A grey heron, still —\nthen gone; the river\nkeeps its secret",
            ["A grey heron, still — then gone;", "the river keeps its secret"],
            "The river\nkeeps its secret",
        ),
    ],
)
def test_a_sentence_cut_across_lines_leaves_each_line_where_it_was(answer: str, written: list[str], left: str) -> None:
    outs: list[str | None] = [*written]
    outs[-2] = None
    assert _revise(answer, written, outs) == left


# --- a line whose frame the edit would break --------------------------------------------------------------------

TABLE = "| Age | What happened |\n|---|---|\n| 24 | Wins the Vilnius prize |\n{row}\n| 39 | Named People's Artist |"


@pytest.mark.parametrize(
    ("row", "written", "out"),
    [
        (
            "| 25 → 33 | Principal soloist in Astana (the house was renamed the year she turned 34) |",
            "25 → 33: Principal soloist in Astana (the house was renamed the year she turned 34)",
            "the house was renamed.",
        ),
        (
            "| 33 → 40 | Guest engagements abroad; she sings Violetta forty-one times |",
            "33 → 40: Guest engagements abroad; she sings Violetta forty-one times",
            "She sings Violetta forty-one times.",
        ),
        (
            "| 41 | Goes home (as director) to the opera |",
            "41: Goes home (as director) to the opera",
            "as director) to the opera.",
        ),
    ],
)
def test_a_table_row_the_edit_would_break_goes_whole(row: str, written: str, out: str) -> None:
    answer = TABLE.format(row=row)
    sentences = ["24: Wins the Vilnius prize", written, "39: Named People's Artist"]
    revised = _revise(answer, sentences, [sentences[0], out, sentences[2]])
    assert revised == TABLE.format(row="").replace("\n\n", "\n")


@pytest.mark.parametrize(
    ("line", "original", "sound"),
    [
        ("| 25 | Soloist |", "| 25 | Soloist in Astana |", True),
        ("| | (the house was renamed |", "| 25 → 33 | Soloist (the house was renamed then) |", False),
        ("|  she sings Violetta |", "| 33 → 40 | Guests; she sings Violetta |", False),
        ("She was born (in Oslo.", "She was born (in Oslo) in 1960.", False),
        ("She was born in Oslo.", "She was born (in Oslo) in 1960.", True),
        ("**Born:** in Oslo.", "**Born:** in Oslo in 1960.", True),
        ("**Born: in Oslo.", "**Born:** in Oslo in 1960.", False),
        ("She (born 1960) sang.", "She (born 1960) sang in Oslo.", True),
    ],
)
def test_a_line_keeps_its_frame_or_is_not_edited_in_place(line: str, original: str, sound: bool) -> None:
    assert _sound(line, original) is sound


# --- separators left with nothing on one side -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "original", "tidy"),
    [
        (
            "**:** '75 to '78, in the studio.",
            "**Training:** three years, '75 to '78, in the studio.",
            "'75 to '78, in the studio.",
        ),
        ("**Family:**; two sons.", "**Family:** married to Gábor; two sons.", "**Family:** two sons."),
        (
            "**The special thing /:** — nobody speaks.",
            "**The special thing / A különlegesség:** egyetlen — nobody speaks.",
            "**The special thing:** nobody speaks.",
        ),
        (
            "Sondrio, — the peaks keep her footprints",
            "Sondrio, the last year — the peaks keep her footprints",
            "Sondrio — the peaks keep her footprints",
        ),
        ("__:__ In 1990 she left.", "__Career:__ In 1990 she left.", "In 1990 she left."),
    ],
)
def test_separators_left_with_nothing_on_one_side_go(line: str, original: str, tidy: str) -> None:
    assert _tidy_line(line, original) == tidy


@pytest.mark.parametrize(
    ("line", "original"),
    [
        # as the answer wrote them: a slash between words, a dash after a colon, a comma before a dash
        ("**Born / Died:** 1911 / 1990.", "**Born / Died:** 1911 / 1990, Leeds."),
        ("Note: — see below.", "Note: — see below, and above."),
        ("Leeds, — as she said — was home.", "Leeds, — as she said — was home to her."),
        ("**Bold text** stays, and so: does this.", "**Bold text** stays, and so: does this too."),
    ],
)
def test_separators_the_answer_wrote_stay(line: str, original: str) -> None:
    assert _tidy_line(line, original) == line
