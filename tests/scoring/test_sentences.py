from __future__ import annotations

import pytest

from scoring.sentences import split_sentences, strip_citations


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("He was born in 1936 [4].", "He was born in 1936."),
        ("He died in 1970.[1][2]", "He died in 1970."),
        ("He won [1, 2] a medal [citation needed].", "He won a medal."),
        ("No markers here.", "No markers here."),
    ],
)
def test_strip_citations(text: str, expected: str) -> None:
    assert strip_citations(text).replace(" .", ".") == expected


@pytest.mark.parametrize(
    ("text", "sentences", "paragraphs", "items"),
    [
        (
            "Dr. Smith went to the U.S. in 1990 [1]. He died in 2001.",
            ["Dr. Smith went to the U.S. in 1990.", "He died in 2001."],
            [0, 0],
            [False, False],
        ),
        (
            "Joseph F. Smith may refer to: 1. Joseph F. Smith (1838–1918), a church leader. "
            "2. Joseph Smith, a politician.",
            [
                "Joseph F. Smith may refer to:",
                "Joseph F. Smith (1838–1918), a church leader.",
                "Joseph Smith, a politician.",
            ],
            [0, 1, 2],
            [False, True, True],
        ),
        (
            "First paragraph.\n\nSecond one. Still second.",
            ["First paragraph.", "Second one.", "Still second."],
            [0, 1, 1],
            [False] * 3,
        ),
        ("- A bullet item.\n- Another item.", ["A bullet item.", "Another item."], [0, 1], [True, True]),
        (  # a semicolon before a new pronoun subject ends a sentence; one inside a list does not
            "He was the sixth president of the church; he was born in 1838. He played for Leeds; Arsenal; and Spurs.",
            [
                "He was the sixth president of the church;",
                "he was born in 1838.",
                "He played for Leeds; Arsenal; and Spurs.",
            ],
            [0, 0, 0],
            [False] * 3,
        ),
        (
            "## John Smith (footballer)\n**John Smith** is an *English* footballer.\nHe played for Leeds.",
            ["John Smith (footballer)", "John Smith is an English footballer.", "He played for Leeds."],
            [0, 1, 1],
            [False] * 3,
        ),
    ],
)
def test_split_sentences(text: str, sentences: list[str], paragraphs: list[int], items: list[bool]) -> None:
    got = split_sentences(text)
    assert [s.text for s in got] == sentences
    assert [s.paragraph for s in got] == paragraphs
    assert [s.list_item for s in got] == items
    assert [s.index for s in got] == list(range(len(sentences)))
