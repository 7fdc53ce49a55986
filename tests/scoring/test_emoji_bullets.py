"""``emoji-bullets``: lines that open with an emoji, two or more in a block, are list items."""

from __future__ import annotations

import pytest

from scoring.sentences import EMOJI_BULLETS, split_sentences


@pytest.mark.parametrize(
    ("answer", "texts"),
    [
        (
            "🧪 Led the team that developed Verdex\n🏆 Won the Carrow Award in 2013\n🎙️ Hosts a podcast since 2021",
            ["Led the team that developed Verdex", "Won the Carrow Award in 2013", "Hosts a podcast since 2021"],
        ),
        (
            "✨ Ona Vale at a glance ✨\n\n🇪🇪 Estonian chemist, born in Tartu in 1931 to a family of teachers\n"
            "📚 Studied in Riga",
            [
                "Ona Vale at a glance",
                "Estonian chemist, born in Tartu in 1931 to a family of teachers",
                "Studied in Riga",
            ],
        ),
        (
            "Here is a summary:\n⭐ Founded Brandt Atelier in 1995\n⭐ Won the Prix Vauban in 2009",
            ["Here is a summary:", "Founded Brandt Atelier in 1995", "Won the Prix Vauban in 2009"],
        ),
    ],
)
def test_lines_opened_by_emoji_are_items(answer: str, texts: list[str]) -> None:
    sentences = split_sentences(answer)
    assert [s.text for s in sentences] == texts
    assert all(s.list_item for s in sentences if s.text in texts[-2:])
    off = split_sentences(answer, frozenset({EMOJI_BULLETS}))
    assert len(off) < len(texts)


@pytest.mark.parametrize(
    ("answer", "texts"),
    [
        # one line opened by an emoji: decoration, the hard wrap still joins the sentence
        (
            "🎉 She won the Carrow Award\nin 2013 for her reporting.",
            ["She won the Carrow Award in 2013 for her reporting."],
        ),
        # an emoji at the end of lines is no bullet
        (
            "She won the award in 2013 🏆\nand hosts a podcast since 2021 🎙️",
            ["She won the award in 2013 and hosts a podcast since 2021"],
        ),
    ],
)
def test_emoji_that_open_no_list_leave_lines_as_they_were(answer: str, texts: list[str]) -> None:
    assert [s.text for s in split_sentences(answer)] == texts
