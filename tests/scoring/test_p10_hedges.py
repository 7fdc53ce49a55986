"""Hedges that state the writer's understanding ("My understanding is that …", "to the best of my knowledge", "as I
understand it") come off the claim as the other hedges do: the claim is checked and reported as hedged. Blind p10
(a long hedged answer about a coach) had read "My understanding is that he coached …" as the assistant's talk."""

from __future__ import annotations

import pytest

from scoring.hedges import strip_hedges


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        (
            "My understanding is that he coached at Harwick from 1950 to 1961.",
            "he coached at Harwick from 1950 to 1961.",
        ),
        ("My recollection is that she won the prize in 2004.", "she won the prize in 2004."),
        ("As I understand it, the firm closed in 1990.", "the firm closed in 1990."),
        ("He was born in Leeds, to the best of my knowledge.", "He was born in Leeds."),
        ("To my knowledge, she won the prize in 2004.", "she won the prize in 2004."),
    ],
)
def test_a_hedge_of_the_writers_understanding_comes_off(text: str, claim: str) -> None:
    stripped, _, hedged = strip_hedges(text)
    assert (stripped, hedged) == (claim, True)


@pytest.mark.parametrize(
    "text",
    [
        "My understanding of the case grew in 1990.",  # "understanding" as a noun of the claim
        "She studied to my surprise in Leeds.",
        "His impression of the king was famous.",
        "Her understanding is that of a specialist.",  # not the writer's
    ],
)
def test_the_same_words_in_a_claim_are_no_hedge(text: str) -> None:
    assert strip_hedges(text) == (text, list(range(len(strip_hedges(text)[1]))), False)
