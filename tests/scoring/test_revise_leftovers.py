"""What a deletion leaves behind that goes with it (scoring/revise_leftovers.py): an aside set off by a dash that
says nothing checked once its claim went (``asides-go``), talk left alone on a line whose checked sentences all went
(``talk-left-goes``)."""

from __future__ import annotations

import pytest

from scoring import nlp
from scoring.revise import _render, _tidy
from scoring.revise_leftovers import asides_go, sentence_lines, talk_left_goes
from scoring.spans import align


def _tokens(sentence: str, phrase: str) -> set[int]:
    doc = nlp.parse_one(sentence)
    start = sentence.index(phrase)
    end = start + len(phrase)
    return {t.i for t in doc if start <= t.idx < end}


def _after(sentence: str, deleted: str, kept: str) -> str:
    doc = nlp.parse_one(sentence)
    remove = _tokens(sentence, deleted)
    asides_go(doc, remove, _tokens(sentence, kept))
    return _tidy(_render(doc, remove, {}), sentence)


@pytest.mark.parametrize(
    ("sentence", "deleted", "kept", "left"),
    [
        (
            "She read proofs for the Sussex Clarion — a training that no university could have given her, and "
            "indeed she never went near one.",
            ", and indeed she never went near one",
            "She read proofs for the Sussex Clarion",
            "She read proofs for the Sussex Clarion.",
        ),
        (
            "In 1997 she set up a company in Sherbrooke to make packaging film — but it wasn't called Aurelle "
            "Materials then.",
            "it wasn't called Aurelle Materials",
            "In 1997 she set up a company in Sherbrooke to make packaging film",
            "In 1997 she set up a company in Sherbrooke to make packaging film.",
        ),
        (
            "He coached the national team — a post he held, as it happens, for eleven years — and retired in 1990.",
            "for eleven years",
            "He coached the national team",
            "He coached the national team and retired in 1990.",
        ),
        (
            "She sang at La Scala – the house where her mother had sung in 1950.",
            "in 1950",
            "She sang at La Scala",
            "She sang at La Scala.",
        ),
    ],
)
def test_an_aside_whose_claim_went_goes_whole(sentence: str, deleted: str, kept: str, left: str) -> None:
    assert _after(sentence, deleted, kept) == left


@pytest.mark.parametrize(
    ("sentence", "deleted", "kept", "left"),
    [
        # a kept fact stands in the aside: only the claim's words go
        (
            "She gave up the job in 2020 — she has chaired the board since 2021.",
            " since 2021",
            "she has chaired the board",
            "She gave up the job in 2020 — she has chaired the board.",
        ),
        # no kept fact before the dash: the aside is the sentence, not a comment on it
        (
            "Sir — your feature on setters was a pleasure, but it left out Hesper Quarrington.",
            ", but it left out Hesper Quarrington",
            "",
            "Sir — your feature on setters was a pleasure.",
        ),
        # the claim went before the dash, not in the aside
        (
            "She won the medal in 1985 — a first for the guild.",
            " in 1985",
            "She won the medal",
            "She won the medal — a first for the guild.",
        ),
        # a hyphen inside a word is no dash
        (
            "She was a Ghanaian-British trumpeter, born in Tema in 1975.",
            " in 1975",
            "She was a Ghanaian-British trumpeter",
            "She was a Ghanaian-British trumpeter, born in Tema.",
        ),
    ],
)
def test_an_aside_with_a_kept_fact_or_no_aside_keeps_its_words(
    sentence: str, deleted: str, kept: str, left: str
) -> None:
    assert _after(sentence, deleted, kept) == left


# --- talk left on a line ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentences", "lines", "went", "checked", "left"),
    [
        # "3.6 is the applicants' view; don't present it as a fact about her."
        (["3.6 is the applicants' view;", "don't present it as a fact."], [0, 0], {0}, {0}, [None, None]),
        # "**Mod note:** merged this thread. Please search before posting!"
        (["Mod note: merged this thread.", "Please search before posting!"], [0, 0], {0}, {0}, [None, None]),
        # "Sure! She was born in 1950."
        (["Sure!", "She was born in 1950."], [3, 3], {1}, {1}, [None, None]),
        # "She won in 1990. What a day that was!" on a line of its own, among others
        (
            ["She won in 1990.", "What a day that was!", "She retired."],
            [0, 0, 1],
            {0},
            {0, 2},
            [None, None, "She retired."],
        ),
    ],
)
def test_talk_left_on_a_line_whose_checked_sentences_went_goes(
    sentences: list[str | None], lines: list[int], went: set[int], checked: set[int], left: list[str | None]
) -> None:
    out = list(sentences)
    for i in went:
        out[i] = None
    talk_left_goes(out, lines, went, checked)
    assert out == left


@pytest.mark.parametrize(
    ("sentences", "lines", "went", "checked"),
    [
        # a checked sentence of the line stays
        (["She was born in 1950.", "Wow!", "She died in 2001."], [0, 0, 0], {0}, {0, 2}),
        # the talk is on another line
        (["She was born in 1950.", "I hope this helps!"], [0, 1], {0}, {0}),
        # nothing of the line went
        (["Sure!", "She was born in 1950."], [0, 0], set(), {1}),
        # a checked sentence edited, not gone
        (["Great question.", "She won in 1990."], [0, 0], set(), {1}),
    ],
)
def test_talk_beside_a_kept_sentence_or_on_another_line_stays(
    sentences: list[str | None], lines: list[int], went: set[int], checked: set[int]
) -> None:
    out = list(sentences)
    for i in went:
        out[i] = None
    expected = list(out)
    talk_left_goes(out, lines, went, checked)
    assert out == expected


def test_a_sentence_stands_on_the_line_it_starts_on() -> None:
    answer = "**Mod note:** merged. Please search!\n\nShe was born\nin 1950."
    written = ["Mod note: merged.", "Please search!", "She was born in 1950."]
    assert sentence_lines(answer, align(answer, written), [0, 0, 1]) == [0, 0, 2]
    assert sentence_lines(None, None, [0, 0, 1]) == [0, 0, 1]


# --- a noun whose relative clause went --------------------------------------------------------------------------


def _apposed(sentence: str, deleted: str, kept: str) -> str:
    from scoring.revise_leftovers import appositions_go

    doc = nlp.parse_one(sentence)
    remove = _tokens(sentence, deleted)
    appositions_go(doc, remove, _tokens(sentence, kept))
    return _tidy(_render(doc, remove, {}), sentence)


@pytest.mark.parametrize(
    ("sentence", "deleted", "kept", "left"),
    [
        (
            "She entered the workforce at the age of 12, in a Lowell cotton mill, an experience that shaped her "
            "later advocacy.",
            "that shaped her later advocacy",
            "She entered the workforce",
            "She entered the workforce at the age of 12, in a Lowell cotton mill.",
        ),
        (
            'Among mill workers she became known as "Mother Mary", a name that reflects the standing she held.',
            "that reflects the standing she held",
            "she became known as",
            'Among mill workers she became known as "Mother Mary".',
        ),
        (
            "He moved to Leeds in 1990, a decision that changed his career.",
            "that changed his career",
            "He moved to Leeds in 1990",
            "He moved to Leeds in 1990.",
        ),
    ],
)
def test_a_noun_whose_relative_clause_went_goes_with_it(sentence: str, deleted: str, kept: str, left: str) -> None:
    assert _apposed(sentence, deleted, kept) == left


@pytest.mark.parametrize(
    ("sentence", "deleted", "kept", "left"),
    [
        # its relative clause stays
        (
            "He moved to Leeds in 1990, a decision that changed his career.",
            " in 1990",
            "He moved to Leeds",
            "He moved to Leeds, a decision that changed his career.",
        ),
        # no relative clause: an apposition that names ("her husband, Luc Moreau, is an engineer")
        (
            "Her husband, Luc Moreau, is an engineer who builds bridges.",
            " who builds bridges",
            "Her husband, Luc Moreau, is an engineer",
            "Her husband, Luc Moreau, is an engineer.",
        ),
        # a kept fact stands in it
        (
            "She won the Kask Prize, an award that she shared with Ona Vale.",
            "that she shared with Ona Vale",
            "She won the Kask Prize, an award",
            "She won the Kask Prize, an award.",
        ),
    ],
)
def test_a_noun_with_its_clause_or_a_kept_fact_stays(sentence: str, deleted: str, kept: str, left: str) -> None:
    assert _apposed(sentence, deleted, kept) == left
