"""A revision is written on the answer as written (scoring/revise_layout.py, rule ``layout-in-place``): tables,
bullets and their nesting, headings, bold lead-ins and fenced profiles keep their layout, an edit is made where its
words stand in the answer's notation, and what cannot be placed is left to the caller (None)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from evaluation.corpus import load
from evaluation.engines import Engine
from evaluation.revisions import lost_layout
from scoring.revise_layout import (
    _bracketed,
    _cut,
    _emptied_cells,
    _fenced,
    _fences_parse,
    _in_notation,
    _open_containers,
    in_place,
)
from scoring.spans import align


def _revise(answer: str, written: list[str], outs: list[str | None], bases: list[str] | None = None) -> str | None:
    return in_place(answer, align(answer, written), written, bases or written, outs)


TABLE = """Results:

| Year | Event | Result |
|---|---|---|
| 2014 | Winter Olympics, 10 km classical | 🥇 |
| 2017 | World Championships, team sprint | 🥈 |

She retired in 2022."""
ROWS = ["Results:", "2014, Winter Olympics, 10 km classical, Gold", "2017, World Championships, team sprint, Silver"]


# --- layouts it keeps ------------------------------------------------------------------------------------------------


def test_a_table_row_that_went_leaves_the_table_and_its_other_rows_as_written() -> None:
    written = [*ROWS, "She retired in 2022."]
    revised = _revise(TABLE, written, [None, None, written[2], written[3]])
    assert revised == (
        "| Year | Event | Result |\n|---|---|---|\n"
        "| 2017 | World Championships, team sprint | 🥈 |\n\nShe retired in 2022."
    )


def test_a_medal_given_as_an_emoji_is_corrected_as_an_emoji() -> None:
    written = [*ROWS, "She retired in 2022."]
    outs: list[str | None] = [written[0], "2014, Winter Olympics, 10 km classical, Bronze", written[2], written[3]]
    revised = _revise(TABLE, written, outs)
    assert revised is not None
    assert "| 2014 | Winter Olympics, 10 km classical | 🥉 |" in revised
    assert "Bronze" not in revised and "Gold" not in revised and revised.count("|---|---|---|") == 1


def test_nested_bullets_keep_their_nesting_and_a_label_left_without_items_goes() -> None:
    answer = (
        "- **Ada Brook** — Danish chemist\n  - Born\n    - Born in Aarhus in 1960.\n"
        "  - Award\n    - Won the Lind Prize in 2001.\n"
    )
    written = ["Ada Brook — Danish chemist", "Born", "Born in Aarhus in 1960.", "Award", "Won the Lind Prize in 2001."]
    revised = _revise(answer, written, [*written[:4], None])
    assert revised == "- **Ada Brook** — Danish chemist\n  - Born\n    - Born in Aarhus in 1960."


def test_a_bold_lead_in_keeps_its_markup_and_a_year_is_replaced_in_place() -> None:
    answer = (
        "**Ada Brook** is a Danish chemist.\n\n**Born.** She was born in Aarhus in 1961.\n\n"
        "**Award.** She won the Lind Prize."
    )
    written = [
        "Ada Brook is a Danish chemist.",
        "Born.",
        "She was born in Aarhus in 1961.",
        "Award.",
        "She won the Lind Prize.",
    ]
    outs: list[str | None] = [*written]
    outs[2] = "She was born in Aarhus in 1960."
    assert _revise(answer, written, outs) == answer.replace("1961", "1960")


def test_a_bold_lead_in_whose_sentence_went_goes_with_it() -> None:
    answer = "**Born.** She was born in Aarhus in 1960.\n\n**Award.** She won the Lind Prize."
    written = ["Born.", "She was born in Aarhus in 1960.", "Award.", "She won the Lind Prize."]
    assert _revise(answer, written, [*written[:3], None]) == "**Born.** She was born in Aarhus in 1960."


def test_a_heading_stays_a_heading() -> None:
    answer = "## Ada Brook\n\nAda Brook is a chemist. She was born in Aarhus in 1961 and won the Lind Prize."
    written = ["Ada Brook", "Ada Brook is a chemist.", "She was born in Aarhus in 1961 and won the Lind Prize."]
    revised = _revise(answer, written, [written[0], written[1], "She won the Lind Prize."])
    assert revised == "## Ada Brook\n\nAda Brook is a chemist. She won the Lind Prize."


def test_a_fenced_yaml_profile_is_edited_in_place_and_still_parses() -> None:
    answer = '```yaml\nname: Ada Brook\nborn: "1960, Aarhus"\naward: Lind Prize (1997)\n```'
    written = ["Ada Brook", "Born: 1960, Aarhus", "Award: Lind Prize in 1997"]
    revised = _revise(answer, written, [written[0], written[1], "Award: Lind Prize in 1999"])
    assert revised == answer.replace("1997", "1999")
    body = revised.split("\n", 1)[1].rsplit("\n", 1)[0]
    assert yaml.safe_load(body)["award"] == "Lind Prize (1999)"


def test_a_fenced_json_field_that_went_leaves_valid_json() -> None:
    answer = '```json\n{\n  "name": "Ada Brook",\n  "born": "1960, Aarhus",\n  "award": "Lind Prize (1997)"\n}\n```'
    written = ["Ada Brook", "Born: 1960, Aarhus", "Award: Lind Prize in 1997"]
    revised = _revise(answer, written, [written[0], written[1], None])
    assert revised is not None
    assert json.loads(revised.split("\n", 1)[1].rsplit("\n", 1)[0]) == {"name": "Ada Brook", "born": "1960, Aarhus"}


@pytest.mark.parametrize(
    ("new", "written", "said"),
    [
        ("Bronze", "🥇", "🥉"),
        ("four", "3", "4"),
        ("7", "Six", "Seven"),
        ("March 14, 1990", "12 March 1990", "14 March 1990"),
        ("1990-03-14", "March 12, 1990", "March 14, 1990"),
    ],
)
def test_a_replacement_is_written_in_the_answers_notation(new: str, written: str, said: str) -> None:
    assert _in_notation(new, written) == said


# --- look-alikes it leaves alone -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("new", "written"),
    [
        ("Gold Coast", "🥇"),  # no medal
        ("1990", "12 March 1990"),  # a year for a date: no full date to write the other way
        ("Silver", "second"),  # words for words
        ("25", "twelve"),  # a count with no short name
    ],
)
def test_a_replacement_with_no_other_notation_is_written_as_given(new: str, written: str) -> None:
    assert _in_notation(new, written) == new


def test_an_answer_the_revision_did_not_change_is_given_back_as_written() -> None:
    written = [*ROWS, "She retired in 2022."]
    assert _revise(TABLE, written, list(written)) == TABLE


def test_a_sentence_that_stands_on_no_line_is_left_to_the_caller() -> None:
    answer = "Ada Brook is a chemist.\n\nShe won the Lind Prize."
    written = ["Ada Brook is a chemist.", "He founded the Orr Trust in 1990."]
    maps = [align(answer, written[:1])[0], [-1] * len(written[1])]
    assert in_place(answer, maps, written, written, [written[0], None]) is None


def test_a_rewritten_sentence_is_not_forced_into_its_line() -> None:
    """A sentence said by its facts (restated) has no place in the line: the line is written as before, behind
    its own marker."""
    answer = "- Born in Lerwick, he fished for a living before joining the service in 1925.\n- He retired in 1950."
    written = ["Born in Lerwick, he fished for a living before joining the service in 1925.", "He retired in 1950."]
    outs: list[str | None] = ["He was born in Lerwick. He joined the service in 1925.", written[1]]
    assert (
        _revise(answer, written, outs)
        == "- He was born in Lerwick. He joined the service in 1925.\n- He retired in 1950."
    )


def test_prose_keeps_its_paragraphs_and_a_deleted_sentence_leaves_no_gap() -> None:
    answer = "Ada Brook is a chemist. She was born in Aarhus in 1961.\n\nShe won the Lind Prize. She lives in Oslo."
    written = [
        "Ada Brook is a chemist.",
        "She was born in Aarhus in 1961.",
        "She won the Lind Prize.",
        "She lives in Oslo.",
    ]
    revised = _revise(answer, written, [written[0], None, None, written[3]])
    assert revised == "Ada Brook is a chemist.\n\nShe lives in Oslo."


# --- through the checker: the blind table answer ---------------------------------------------------------------------


BLIND = Path(__file__).resolve().parents[1] / "corpus-blind"


def test_the_checkers_revision_of_an_emoji_medal_table_keeps_the_table() -> None:
    pages, answers = load(BLIND)
    item = next(a for a in answers if a.style == "results-table-emoji-medals")
    result = Engine().check(item.answer, pages=pages, name=item.name, question=item.question)
    assert result.revision is not None
    revised = result.revision.text
    assert "|---|---|---|" in revised and "🥈" in revised and "Silver" not in revised
    assert lost_layout(item.answer, revised) == []
    ablated = Engine(rules_off=frozenset({"layout-in-place"})).check(
        item.answer, pages=pages, name=item.name, question=item.question
    )
    assert ablated.revision is not None and "table" in lost_layout(item.answer, ablated.revision.text)


def test_a_numbered_list_that_lost_items_counts_on() -> None:
    answer = "To reset it:\n\n1. Power it on.\n2. Find the button.\n3. Hold it for 30 seconds."
    written = ["To reset it:", "Power it on.", "Find the button.", "Hold it for 30 seconds."]
    assert _revise(answer, written, [written[0], None, written[2], written[3]]) == (
        "To reset it:\n\n1. Find the button.\n2. Hold it for 30 seconds."
    )


def test_a_year_the_reading_put_a_word_before_goes_from_its_cell() -> None:
    answer = "| Film | Year |\n|---|---|\n| Kite Season | 2017 |\n| Monsoon Ledger | 2008 |"
    written = ["Film: Kite Season (2017)", "Film: Monsoon Ledger (2008)"]
    bases = ["She made Kite Season in 2017.", "She made Monsoon Ledger in 2008."]
    revised = in_place(answer, align(answer, written), written, bases, ["She made Kite Season.", written[1]])
    assert revised == "| Film | Year |\n|---|---|\n| Kite Season | |\n| Monsoon Ledger | 2008 |"


@pytest.mark.parametrize(
    ("region", "value", "left"),
    [
        ('born: "1931, Cork, Ireland"', "1931", 'born: "Cork, Ireland"'),  # a YAML value in quotes
        ('  "born": "1909, Wichita, Kansas",', "1909", '  "born": "Wichita, Kansas",'),  # a JSON field
        ("born: [1931, Cork]", "1931", "born: [Cork]"),  # a YAML flow list
        ("born: 1931, Cork", "Cork", "born: 1931"),  # look-alikes: a value that closes the field
        ("| 1931, Cork |", "1931", "| Cork |"),
        ("She was born in Cork (1931, Ireland).", "1931", "She was born in Cork (Ireland)."),
    ],
)
def test_a_value_cut_from_the_front_of_a_quoted_field_leaves_no_comma(region: str, value: str, left: str) -> None:
    start = region.index(value)
    assert _cut(region, start, start + len(value)) == left


@pytest.mark.parametrize(
    ("row", "left"),
    [
        ("| Coaching | ) | — |", "| Coaching | — | — |"),  # a cell whose words went
        ("| Born | (, ) | 1986 |", "| Born | — | 1986 |"),
        ("| Award | ; | Gold |", "| Award | — | Gold |"),
        ("| Medal | 🥈 | 1998 |", "| Medal | 🥈 | 1998 |"),  # look-alikes: an emoji, a number, the table's rules
        ("| Time | 3.5 | — |", "| Time | 3.5 | — |"),
        ("|---|:--:|", "|---|:--:|"),
    ],
)
def test_a_table_cell_left_without_words_is_the_tables_empty_cell(row: str, left: str) -> None:
    assert _emptied_cells(row) == left


@pytest.mark.parametrize(
    ("answer", "item", "left"),
    [
        # A region aligned up to the year of "(1933)" takes its closing bracket and the separator after it.
        ("Trophy (1933); Halvering Medal (1933); Monoplane", "Halvering Medal (1933", "Trophy (1933); Monoplane"),
        ("a, Kessler Medal [2019], b", "Kessler Medal [2019", "a, b"),
        # The last item of a cell: the separator before it goes.
        ("| Trophy (1933); Medal (1930) |", "Medal (1930", "| Trophy (1933) |"),
        # Look-alikes, left as they are: a region that closes its brackets and takes its separator, a first item,
        # a value inside a sentence.
        ("Trophy (1933); Medal (1930); Plane", "Medal (1930); ", "Trophy (1933); Plane"),
        ("Medal (1930), Trophy (1933)", "Medal (1930), ", "Trophy (1933)"),
        ("born (1930) in Leeds", "born (1930)", " in Leeds"),
    ],
)
def test_a_changed_region_takes_its_closing_bracket_and_one_separator(answer: str, item: str, left: str) -> None:
    start = answer.index(item)
    a, b = _bracketed(answer, start, start + len(item))
    assert answer[:a] + answer[b:] == left


def _fence(language: str, body: str) -> list[str]:
    return [f"```{language}", *body.split("\n"), "```"]


_JSON = (
    '{\n  "name": "Ada Quill",\n  "award": [\n    "Gold Medal (2001)",\n    "Silver Cup (2004)"\n  ],\n'
    '  "born": 1950\n}'
)
_JSON_LAST = '{\n  "name": "Ada Quill",\n  "born": 1950,\n  "award": [\n    "Gold Medal (2001)"\n  ]\n}'
_JSON_OBJECT = (
    '{\n  "name": "Ada Quill",\n  "award": {\n    "a": "Gold Medal (2001)",\n    "b": "Silver Cup (2004)"\n  },\n'
    '  "born": 1950\n}'
)
_YAML = "name: Ada Quill\nawards:\n  - Gold Medal (2001)\n  - Silver Cup (2004)\nborn: 1950"


@pytest.mark.parametrize(
    ("language", "body", "gone", "kept"),
    [
        ("json", _JSON, {3, 4}, '"award": ['),  # an edit reached the key with the first item
        ("json", _JSON.replace('"award": [', '"award":['), {3, 4}, '"award":['),
        ("yaml", _YAML, {2, 3}, "awards:"),
        ("yaml", _YAML.replace("  - ", "- "), {2, 3}, "awards:"),
    ],
)
def test_a_container_key_stays_while_an_item_of_it_stays(language: str, body: str, gone: set[int], kept: str) -> None:
    lines = _fence(language, body)
    fences = _fenced(lines)
    new: list[str | None] = [None if k in gone else line for k, line in enumerate(lines)]
    _open_containers(lines, new, fences)
    assert any(line is not None and line.strip() == kept for line in new)
    assert _fences_parse(lines, new, fences)


@pytest.mark.parametrize(
    ("language", "body", "gone", "closing"),
    [
        ("json", _JSON, {3, 4, 5}, "],"),
        ("json", _JSON_LAST, {4, 5}, "]"),
        ("json", _JSON_OBJECT, {3, 4, 5}, "},"),
    ],
)  # fmt: skip
def test_a_container_whose_key_and_items_all_went_takes_its_close(
    language: str, body: str, gone: set[int], closing: str
) -> None:
    lines = _fence(language, body)
    fences = _fenced(lines)
    new: list[str | None] = [None if k in gone else line for k, line in enumerate(lines)]
    _open_containers(lines, new, fences)
    assert all(line is None or line.strip() != closing for line in new)
    assert _fences_parse(lines, new, fences)


@pytest.mark.parametrize(
    ("language", "body", "gone"),
    [
        ("yaml", _YAML, {2, 3, 4}),  # the key and all its items went: nothing comes back
        ("json", _JSON, {7}),  # a field that is no container went alone
        ("yaml", _YAML, {5}),
    ],
)
def test_a_line_that_went_with_all_it_holds_stays_gone(language: str, body: str, gone: set[int]) -> None:
    lines = _fence(language, body)
    fences = _fenced(lines)
    new: list[str | None] = [None if k in gone else line for k, line in enumerate(lines)]
    _open_containers(lines, new, fences)
    assert [k for k, line in enumerate(new) if line is None] == sorted(gone)
