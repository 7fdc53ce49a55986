from __future__ import annotations

import pytest

from scoring.sentences import segment, split_sentences, strip_citations


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


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "**Born:** 1990, Freiburg\n**Teams:** Team Velora (2011–2016), Kestrel (2017–2022)\n**Career wins:** 19",
            ["Born: 1990, Freiburg", "Teams: Team Velora (2011–2016), Kestrel (2017–2022)", "Career wins: 19"],
        ),
        (
            "Marta Kowalczyk\nBorn: 1968, Kraków\nEnsembles: Silesian Chamber Orchestra (1995–2009)\n"
            "She still teaches.",
            [
                "Marta Kowalczyk",
                "Born: 1968, Kraków",
                "Ensembles: Silesian Chamber Orchestra (1995–2009)",
                "She still teaches.",
            ],
        ),
        # a colon inside a wrapped prose sentence is not a record
        (
            "He founded the firm in 1995 and wrote\nthree books: two novels and a memoir.",
            ["He founded the firm in 1995 and wrote three books: two novels and a memoir."],
        ),
    ],
)
def test_label_lines_are_records_of_their_own(text: str, expected: list[str]) -> None:
    assert [s.text for s in split_sentences(text)] == expected


@pytest.mark.parametrize(
    "block",
    [
        "He was born in 1936. He died in 1970.",
        "He won.  He won.   He won. ",  # the same sentence again: each found after the one before
        "Dr. Smith went to the U.S. in 1990. He died in 2001.\tThe end.",
        "It rained... Then it stopped! Did it? Yes.",
        "Joseph F. Smith may refer to: 1. Joseph F. Smith (1838–1918), a leader. 2. Joseph Smith, a politician.",
        "One sentence without an end",
        "",
    ],
)
def test_segment_gives_pysbd_sentences_as_written(block: str) -> None:
    import pysbd

    assert segment(block) == pysbd.Segmenter(language="en", clean=False).segment(block)


def _long_block(n: int) -> tuple[str, list[str]]:
    """A paragraph of ``n`` sentences with abbreviations, initials and decimals that must not end one."""
    said = [
        f"Dr. J. R. Smith no. {k} moved to the U.S. in {1900 + k % 100} with {k}.5 kg of notes, e.g. letters."
        if k % 3 == 0
        else f"Person {k} wrote “A Study, Vol. {k}” (pp. {k}–{k + 9}) in St. Louis."
        for k in range(n)
    ]
    return " ".join(said), said


@pytest.mark.parametrize("n", [5, 60, 400])
def test_a_long_paragraph_is_split_in_windows_into_the_same_sentences(n: int) -> None:
    import pysbd

    from scoring import sentences

    block, said = _long_block(n)
    assert (len(block) > sentences._WINDOW) is (n > 5)
    pieces = segment(block)
    assert "".join(pieces) == block  # every character once, in order
    assert [p.strip() for p in pieces] == said
    if n <= 60:  # as pysbd reads the whole paragraph at once
        assert pieces == pysbd.Segmenter(language="en", clean=False).segment(block)


def test_a_sentence_longer_than_a_window_is_cut_not_lost() -> None:
    from scoring import sentences

    words = " ".join(f"word{k}" for k in range(sentences._WINDOW // 3))
    block = f"It began. {words} and ended. Then it stopped."
    pieces = segment(block)
    assert "".join(pieces) == block
    assert pieces[0] == "It began. " and pieces[-1] == "Then it stopped."


def test_ascii_lookalikes_are_the_letters_a_case_insensitive_ascii_pattern_also_matches() -> None:
    import re

    from scoring.sentences import ASCII_LOOKALIKES

    beyond_ascii = "".join(map(chr, range(0x80, 0x110000)))
    found = set(re.findall("[a-z]", beyond_ascii, re.IGNORECASE))
    assert found == {"\u0130", "\u0131", "\u017f", "\u212a"}  # İ ı ſ K
    assert all(ASCII_LOOKALIKES.search(c) for c in found)


_ABBREVIATED = [
    (
        "Dr. Smith moved to St. Louis in 1990. He died there.",
        ["Dr. Smith moved to St. Louis in 1990. ", "He died there."],
    ),
    # "vol." is no abbreviation to pysbd: the same split with or without the narrowing.
    ("See p. 12 and no. 5 of vol. 3. It is all there.", ["See p. 12 and no. 5 of vol. ", "3. ", "It is all there."]),
    (
        "He served in the U.S. Army, e.g. in Korea. Then he left.",
        ["He served in the U.S. Army, e.g. in Korea. ", "Then he left."],
    ),
    ("Mr. and Mrs. Jones met Prof. Lee at 5 p.m. Then they ate.", None),
    ("She was born in Tex. She moved to Calif. in 1960. She is an artist.", None),
    ("It is no. It is not. This is a test of is and no.", None),
    ("The ſt. Louis case and ſt. Paul. Then the end.", None),  # a long s: pysbd's pass over every abbreviation
    ("Gen. Grant (1822–1885) and Col. Smith, Jr. met. They talked.", None),
    ("", []),
]


@pytest.mark.parametrize(("block", "expected"), _ABBREVIATED)
def test_abbreviations_split_as_pysbd_splits_them_with_every_abbreviation(
    block: str, expected: list[str] | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pysbd
    from pysbd.lang.english import English

    narrowed = segment(block)
    if expected is not None:
        assert narrowed == expected
    replacer = English.AbbreviationReplacer
    monkeypatch.setattr(
        replacer, "search_for_abbreviations_in_string", replacer.search_for_abbreviations_in_string.original
    )
    assert narrowed == pysbd.Segmenter(language="en", clean=False).segment(block)


@pytest.mark.parametrize(
    ("table", "records"),
    [
        (
            "| Film | Year | My confidence |\n|---|---|---|\n| Monsoon Ledger | 2008 | high |\n"
            "| Kite Season | 2017 | low, might be later |",
            ["Film: Monsoon Ledger (2008)", "Film: Kite Season (2017)"],
        ),
        (
            "| Novel | Published | Setting |\n|---|---|---|\n| The Ochre Houses | 2011 | Seville |",
            ["Novel: The Ochre Houses (2011), Seville"],
        ),
    ],
)
def test_a_table_of_works_is_a_record_a_work_without_the_assistants_confidence(table: str, records: list[str]) -> None:
    assert [s.text for s in split_sentences(table)] == records


def test_block_quote_markers_go_and_a_greater_than_sign_in_a_sentence_stays() -> None:
    text = "> **Quick facts**\n> - **Born:** 1958, Mombasa\n>> - **PhD:** Ashcombe University\n\nHe said 5 > 3."
    assert [(s.text, s.list_item) for s in split_sentences(text)] == [
        ("Quick facts", False),
        ("Born: 1958, Mombasa", True),
        ("PhD: Ashcombe University", True),
        ("He said 5 > 3.", False),
    ]
