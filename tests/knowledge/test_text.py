"""Passages cut on sentence boundaries, and BM25 within a page."""

from __future__ import annotations

import pytest

from knowledge.text import MAX_WORDS, bm25_scores, fts_terms, sentences, split_passages, terms


def _sentence(i: int, words: int) -> str:
    return " ".join([f"Word{i}"] + [f"w{i}x{j}" for j in range(words - 2)] + [f"end{i}."])


@pytest.mark.parametrize(
    ("n_sentences", "words_each", "expected_lengths"),
    [
        (1, 10, [10]),
        (20, 12, [240]),  # at most MAX_WORDS words: one passage
        (30, 12, [192, 168]),  # 360 words: cut near the 200-word target, on a sentence boundary
        (60, 10, [200, 200, 200]),
        (1, 600, [200, 200, 200]),  # one overlong sentence is cut between words
    ],
)
def test_split_passages_lengths(n_sentences: int, words_each: int, expected_lengths: list[int]) -> None:
    text = " ".join(_sentence(i, words_each) for i in range(n_sentences))
    passages = split_passages(text)
    assert [len(p.split()) for p in passages] == expected_lengths
    assert " ".join(passages).split() == text.split()  # nothing lost or reordered
    assert all(len(p.split()) <= MAX_WORDS for p in passages)


def test_split_passages_ends_on_sentence_boundaries() -> None:
    text = " ".join(_sentence(i, 15) for i in range(40))
    assert all(p.endswith(".") for p in split_passages(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("He was born in 1936. He swam in Melbourne.", ["He was born in 1936.", "He swam in Melbourne."]),
        ('She said "Yes." Then left.', ['She said "Yes."', "Then left."]),
        ("Line one\nLine two", ["Line one", "Line two"]),
        ("Mr. smith stayed.", ["Mr. smith stayed."]),
    ],
)
def test_sentences(text: str, expected: list[str]) -> None:
    assert list(sentences(text)) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The Olympics were in Melbourne", ["olympic", "melbourne"]),
        ("He coached Northwestern's teams", ["coached", "northwestern", "team"]),
        ("Cities and glass", ["city", "glass"]),
    ],
)
def test_terms(text: str, expected: list[str]) -> None:
    assert terms(text) == expected


def test_fts_terms_are_distinct_and_unstemmed() -> None:
    assert fts_terms("The teams, the TEAMS and Zoë") == ["teams", "zoe"]


def test_bm25_prefers_the_passage_sharing_rare_words() -> None:
    docs = [
        "He was born in Vancouver and studied at Oxford.",
        "He led the Royal Geographical Society from 1975 to 1996.",
        "He was born in 1935.",
    ]
    scores = bm25_scores("director of the Royal Geographical Society", docs)
    assert scores.index(max(scores)) == 1
    assert scores[0] == 0.0 and scores[2] == 0.0


def test_bm25_without_shared_words_is_zero() -> None:
    assert bm25_scores("zeppelin", ["a b c", "d e f"]) == [0.0, 0.0]
    assert bm25_scores("", ["a"]) == [0.0]
