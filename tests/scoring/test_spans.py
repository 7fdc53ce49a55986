"""Facts and sentences carry character spans of the answer as written (markdown, bullets, citations and
wraps included), whatever engine made them."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from knowledge.store import Store
from scoring.engines import build_checker
from scoring.pipeline import check
from scoring.spans import align, char_spans, sentence_span
from tests.scoring.test_llm import HANLEY, ScriptedModel

MARKDOWN = """## Dick Hanley

**Dick Hanley** was an American football coach [1].

- He was head coach at *Northwestern University* from 1927 to 1934.
- He died in 1970 in
  Chicago, Illinois.
"""


def _words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z0-9]+", text))


def test_offline_facts_point_at_their_words_in_a_markdown_answer(demo_kb: Store) -> None:
    result = check(MARKDOWN, kb=demo_kb, name="Dick Hanley")
    facts = [f for g in result.groups for f in g.facts]
    assert facts
    for fact in facts:
        assert fact.spans, fact.text
        written = _words(" ".join(MARKDOWN[s:e] for s, e in fact.spans))
        # The span holds the fact's words as written (the subject may be "He" there), and little else.
        assert {w for w in _words(fact.text) if w.isdigit()} <= written, (written, fact.text)
        assert len(written & _words(fact.text)) >= 0.6 * len(written), (written, fact.text)
    died = next(f for f in facts if "1970" in f.text)
    assert any("1970" in MARKDOWN[s:e] for s, e in died.spans)
    assert any("Chicago" in MARKDOWN[s:e] for f in facts for s, e in f.spans)
    tenure = next(f for f in facts if "1927" in f.text)
    assert "Northwestern University* from 1927 to 1934" in " ".join(MARKDOWN[s:e] for s, e in tenure.spans)
    for sentence, (s, e) in zip(result.sentences, result.sentence_spans, strict=True):
        assert _words(sentence) == _words(MARKDOWN[s:e]) - {"1"}, (sentence, MARKDOWN[s:e])


def test_llm_facts_point_at_their_sentence(demo_kb: Store) -> None:
    result = build_checker("llm", complete=ScriptedModel().complete).check(HANLEY, kb=demo_kb, name="Dick Hanley")
    born = next(f for g in result.groups for f in g.facts if "1936" in f.text)
    (start, end) = born.spans[0]
    assert HANLEY[start:end] == "He was born in 1936 and won a silver medal at the 1956 Olympics."


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.text(alphabet="abc XY.*[]1-\n", min_size=1, max_size=30),
        min_size=1,
        max_size=5,
    )
)
@example(["X[X", "X[1"])  # a word not ahead that stands earlier: found forward only, outside a table
def test_alignment_stays_inside_the_answer_and_in_order(parts: list[str]) -> None:
    answer = " ".join(parts)
    sentences = [re.sub(r"[*\[\]\s]+", " ", p).strip() for p in parts]
    maps = align(answer, sentences)
    last = -1
    for sentence, offsets in zip(sentences, maps, strict=True):
        assert len(offsets) == len(sentence)
        for ch, o in zip(sentence, offsets, strict=True):
            if o >= 0:
                assert answer[o] == ch and o > last
                last = o
        s, e = sentence_span(offsets)
        assert 0 <= s <= e <= len(answer)
        for a, b in char_spans(offsets, [(0, len(sentence))], answer):
            assert s <= a < b <= e


def test_alignment_looks_no_further_than_what_cleaning_removes() -> None:
    # The second sentence is read without its markup; its words are found where it stands, never in the
    # copy of it that the answer quotes much later.
    gap = " ".join(["filler"] * 20)
    answer = f"He was born in 1936. He **died** in 1970 [3]. {gap}. He died in 1970."
    maps = align(answer, ["He was born in 1936.", "He died in 1970.", f"{gap}.", "He died in 1970."])
    spans = [sentence_span(m) for m in maps]
    assert [answer[s:e] for s, e in spans] == [
        "He was born in 1936.",
        "He **died** in 1970 [3].",
        f"{gap}.",
        "He died in 1970.",
    ]
    assert spans[3][0] == len(answer) - len("He died in 1970.")


def test_a_table_read_column_by_column_points_at_each_cell() -> None:
    """The second person's rows are read after the first person's last row: each is found in its own row, not
    lost past the end of the table."""
    answer = (
        "| | Ada (physicist) | Ada (novelist) |\n|---|---|---|\n"
        "| Born | 1979, Valencia | 1984, Lagos |\n| Award | Harrowgate Prize (2016) | Marquardt Prize (2018) |\n"
    )
    sentences = [
        "Born: 1979, Valencia",
        "Award: Harrowgate Prize (2016)",
        "Born: 1984, Lagos",
        "Award: Marquardt Prize (2018)",
    ]
    maps = align(answer, sentences)
    for sentence, offsets in zip(sentences, maps, strict=True):
        value = sentence.split(": ", 1)[1]
        start = sentence.index(value)
        assert [answer[a:b] for a, b in char_spans(offsets, [(start, len(sentence))], answer)] == [value]


def test_a_csv_cell_read_under_its_header_label_points_at_the_cell() -> None:
    """A CSV row read as "label: value" lines: the labels stand in the header row, the values a row further on;
    each value is found in its cell and no label drags the alignment past the cells it labels."""
    answer = (
        "```csv\nname,role,born,birthplace,award\n"
        "Ada Quill,potter,1962,Ísafjörður,Ægir Medal (2019)\n"
        "Ada Quill,sprinter,1976,Akureyri,Nansen Prize (2008)\n```"
    )
    sentences = [
        "role: potter",
        "born: 1962",
        "birthplace: Ísafjörður",
        "award: Ægir Medal (2019)",
        "role: sprinter",
        "born: 1976",
        "birthplace: Akureyri",
        "award: Nansen Prize (2008)",
    ]
    spans = [sentence_span(m) for m in align(answer, sentences)]
    assert [answer[s:e] for s, e in spans] == [
        "role,born,birthplace,award\nAda Quill,potter",
        "1962",
        "Ísafjörður",
        "Ægir Medal (2019)",
        "sprinter",
        "1976",
        "Akureyri",
        "Nansen Prize (2008)",
    ]


def test_a_label_value_is_not_looked_for_past_the_prose_after_a_table() -> None:
    # "Field:" stands in the header; "Music" is the next row's cell, not a word of the prose below the table.
    answer = (
        "| Name | Field | Born |\n|---|---|---|\n| Nadia Holt | Law | 1963, Porto |\n"
        "| Nadia Holt | Music | 1989, Boston |\n\nThe judge practised law. Music was her sister's love."
    )
    sentences = ["Field: Law", "Born: 1963, Porto", "Field: Music", "Born: 1989, Boston", "The judge practised law."]
    spans = [sentence_span(m) for m in align(answer, sentences)]
    texts = [answer[s:e] for s, e in spans]
    assert texts[2].endswith("Music") and texts[-1] == "The judge practised law."


@pytest.mark.parametrize(
    ("answer", "sentence", "expected"),
    [
        # A line's leading date read at its end.
        ("1987 → 1992 · architecture, Ashanti College\n", "architecture, Ashanti College, 1987–1992", "1987"),
        ("2005 – 2015: chief planner, Accra Authority\n", "chief planner, Accra Authority, 2005–2015", "2005"),
        ("1998 · marries Aoife Brennan\n", "marries Aoife Brennan, 1998", "1998"),
    ],
)
def test_a_date_read_at_the_end_of_its_line_points_where_it_is_written(
    answer: str, sentence: str, expected: str
) -> None:
    (offsets,) = align(answer, [sentence])
    at = sentence.rindex(expected) if expected in sentence else -1
    assert answer[offsets[at] : offsets[at] + len(expected)] == expected


@pytest.mark.parametrize(
    ("answer", "sentence", "word", "written"),
    [
        # Markup inside a word: aligned by character, as before (look-alikes of a made-up label or number).
        ("She died in 1852 [4]. She was 36.", "She died in 1852.", "1852.", "1852 [4]."),
        ("| Born | 1815 |", "Born: 1815", "Born:", "Born"),
        ("University of the Westfjords (since 2011), Ægir", "University of the Westfjords, since 2011", "2011", "2011"),
    ],
)
def test_markup_inside_a_word_is_still_aligned(answer: str, sentence: str, word: str, written: str) -> None:
    (offsets,) = align(answer, [sentence])
    at = sentence.index(word)
    found = [o for o in offsets[at : at + len(word)] if o >= 0]
    assert answer[found[0] : found[-1] + 1] == written


def test_a_yaml_profile_read_as_labelled_lines_points_at_each_field() -> None:
    """Keys in lower case read as capitalised labels ("born:" → "Born:"), a list's key read before each item
    ("Known for:"), a reading's "in" before a year in parentheses: each line still points at its own field."""
    answer = (
        "name: Ada Quill\nborn: {year: 1968, place: Brno}\ndoctorate: Institute of Viral Biology, Prague (1997)\n"
        "known_for:\n  - identified the Svratka virus (2007)\n  - 2019 measles campaign, 86,000 children\n"
        "spouse: Aleš Dvořák (chemist)\n"
    )
    sentences = [
        "Born: Brno in 1968",
        "Doctorate: Institute of Viral Biology, Prague in 1997",
        "Known for: identified the Svratka virus in 2007",
        "Known for: 2019 measles campaign, 86,000 children",
        "Spouse: Aleš Dvořák (chemist)",
    ]
    spans = [sentence_span(m) for m in align(answer, sentences)]
    assert [answer[s:e] for s, e in spans] == [
        "born: {year: 1968, place: Brno",
        "doctorate: Institute of Viral Biology, Prague (1997",
        "known_for:\n  - identified the Svratka virus (2007",
        "2019 measles campaign, 86,000 children",
        "spouse: Aleš Dvořák (chemist)",
    ]
