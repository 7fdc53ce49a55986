"""The llm engine finds the sentence each listed fact came from."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.llm.steps import _sentence_of, _SentenceFinder

SENTENCES = [
    "Dick Hanley was an American football coach.",
    "He was born in 1936 in Chicago.",
    "He coached Northwestern from 1927 to 1934.",
    "He died in 1970.",
]


@pytest.mark.parametrize(
    ("fact", "index"),
    [
        ("Dick Hanley was a football coach.", 0),
        ("Dick Hanley was born in 1936.", 1),
        ("Dick Hanley coached Northwestern.", 2),
        ("Dick Hanley died in 1970.", 3),
        ("Dick Hanley was born in Chicago.", 1),
        ("Dick Hanley liked jazz.", 0),  # nothing shared: the first sentence
    ],
)
def test_a_fact_comes_from_the_sentence_sharing_most_words(fact: str, index: int) -> None:
    assert _sentence_of(fact, SENTENCES, "Dick Hanley") == index
    assert _SentenceFinder(SENTENCES)(fact, "Dick Hanley") == index


def test_no_sentences() -> None:
    assert _sentence_of("He died in 1970.", []) == 0


def _reference(fact: str, sentences: list[str], name: str) -> int:
    def words(text: str) -> set[str]:
        return {w for w in re.findall(r"\w+", text.lower()) if len(w) > 2}

    own = words(fact) - words(name)
    return max(
        range(len(sentences)),
        key=lambda i: len(own & words(sentences[i])) + sum(1 for w in own & words(sentences[i]) if w.isdigit()),
    )


_WORD = st.sampled_from("born died coach 1936 1970 chicago was the team and".split())


@given(
    st.lists(st.lists(_WORD, min_size=1, max_size=8).map(" ".join), min_size=1, max_size=12),
    st.lists(_WORD, max_size=6).map(" ".join),
    st.sampled_from(["", "Chicago Coach", "the"]),
)
def test_as_the_sentence_with_most_shared_words_first_on_a_tie(sentences: list[str], fact: str, name: str) -> None:
    assert _SentenceFinder(sentences)(fact, name) == _reference(fact, sentences, name)
