"""The word lists that point at or compare namesakes (``namesake-referent``, ``namesake-comparison``)."""

from __future__ import annotations

from vocabulary.english import AGE_COMPARATIVES, CONTRAST_ADJECTIVES, NAMESAKE_REFERENTS


def test_namesake_words_are_lower_case_single_words() -> None:
    for words in (NAMESAKE_REFERENTS, AGE_COMPARATIVES, CONTRAST_ADJECTIVES):
        assert words and all(w.isalpha() and w.islower() for w in words)
    assert {"one", "elder", "latter"} <= NAMESAKE_REFERENTS
    assert "brother" not in NAMESAKE_REFERENTS  # a relation is no pointer at a namesake
    assert {"younger", "older"} <= AGE_COMPARATIVES
    assert {"same", "different"} <= CONTRAST_ADJECTIVES
