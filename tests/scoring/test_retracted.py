"""A sentence the answer takes back at its end ("— hold on, that's wrong.") claims nothing; look-alikes that say
something is wrong, or correct it in the same sentence, are still claims."""

from __future__ import annotations

import pytest

from schemas.enums import Worthiness
from scoring.worthiness import RETRACTED, classify_by_rule


@pytest.mark.parametrize(
    "sentence",
    [
        "He is an Irish surgeon who also sailed solo in 2011 — hold on, that's wrong.",
        "She was born in Oslo in 1950 — wait, that's not right.",
        "He won the Lindeman Prize in 1962, scratch that.",
        "The Acme X2 has six LAN ports - oops, that is incorrect!",
    ],
)
def test_a_sentence_taken_back_is_not_a_claim(sentence: str) -> None:
    assert classify_by_rule(sentence, sentence, frozenset()) == (Worthiness.NOT_A_CLAIM, RETRACTED)


@pytest.mark.parametrize(
    "sentence",
    [
        "He said the result was wrong.",
        "He was born in Oslo — that's wrong, he was born in Bergen.",  # the correction follows: a claim
        "The claim that he was born in Oslo is wrong.",
        "Some say he won the Lindeman Prize in 1962, but that's wrong.",
    ],
)
def test_look_alikes_stay_claims(sentence: str) -> None:
    assert classify_by_rule(sentence, sentence, frozenset())[1] != RETRACTED


def test_switched_off_a_taken_back_sentence_is_a_claim() -> None:
    sentence = "She was born in Oslo in 1950 — wait, that's not right."
    assert classify_by_rule(sentence, sentence, frozenset({RETRACTED})) == (Worthiness.FACTUAL, None)
