"""Sentence splitting, check-worthiness and abstention on answers about made-up people."""

from __future__ import annotations

import pytest

from schemas.enums import Worthiness
from scoring.abstain import is_abstention
from scoring.decompose import decompose_sentence
from scoring.sentences import split_sentences
from scoring.worthiness import classify


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (  # a hard-wrapped paragraph is one paragraph, and the wrapped sentence stays whole
            "Lotte Brandvik was a Norwegian painter who exhibited in Oslo and won six\n"
            "National Art Prizes with her circle. She died in 1980.",
            [
                (
                    "Lotte Brandvik was a Norwegian painter who exhibited in Oslo and won six National Art Prizes with "
                    "her circle.",
                    0,
                ),
                ("She died in 1980.", 0),
            ],
        ),
        (  # a short heading line still opens a block
            "Lotte Brandvik (painter)\nLotte Brandvik was a painter.\n\nLotte Brandvik (skier)\nShe was a skier.",
            [
                ("Lotte Brandvik (painter)", 0),
                ("Lotte Brandvik was a painter.", 1),
                ("Lotte Brandvik (skier)", 2),
                ("She was a skier.", 3),
            ],
        ),
        (
            "There are two:\n1. Lotte the painter.\n2. Lotte the skier.",
            [("There are two:", 0), ("Lotte the painter.", 1), ("Lotte the skier.", 2)],
        ),
        ("She won.\nShe lost.", [("She won.", 0), ("She lost.", 0)]),
        (  # narrow hard wraps: a short line in the middle of a paragraph is no heading
            "Lotte Brandvik was a painter who\nexhibited her work in\nOslo and won the\nNational Art Prize.",
            [("Lotte Brandvik was a painter who exhibited her work in Oslo and won the National Art Prize.", 0)],
        ),
    ],
)
def test_single_line_breaks_are_soft_wraps(text: str, expected: list[tuple[str, int]]) -> None:
    assert [(s.text, s.paragraph) for s in split_sentences(text)] == expected


@pytest.mark.parametrize(
    ("fact", "worthiness"),
    [
        ("The name Pim Okonkwo is shared by two chess players.", Worthiness.OTHER),
        ("The name is shared by two chess players.", Worthiness.OTHER),
        ("Several notable people are named Pim Okonkwo.", Worthiness.OTHER),
        ("Pim Okonkwo is widely admired for his humour.", Worthiness.OPINION),
        ("Many consider her one of the most gifted pianists of her era.", Worthiness.OPINION),
        ("She is widely regarded as one of the greatest sprinters of all time.", Worthiness.OPINION),
        ("She won three national titles.", Worthiness.FACTUAL),
        ("He was one of the founders of the club.", Worthiness.FACTUAL),
        ("He was elected to the regional council in 1994.", Worthiness.FACTUAL),
        # namesakes counted by nationality, and the name itself, are about the name, not a person
        ("Two Americans named Pim Okonkwo are reasonably well documented.", Worthiness.OTHER),
        ("Three Norwegians share the name.", Worthiness.OTHER),
        ("The name is Pim Okonkwo.", Worthiness.OTHER),
        ("Two Emmys went to her in 1998.", Worthiness.FACTUAL),
        ("She won two Olympic medals.", Worthiness.FACTUAL),
    ],
)
def test_meta_sentences_and_evaluations_are_not_facts(fact: str, worthiness: Worthiness) -> None:
    assert classify(fact) is worthiness


@pytest.mark.parametrize(
    ("text", "abstained"),
    [
        ("I don't have reliable information on Pim Okonkwo.", True),
        ("I do not have verified details about Lotte Brandvik.", True),
        ("I don't have any information about Lotte Brandvik.", True),
        (
            "I don't have much detail about Lotte Brandvik, but here is what I know: she was a Norwegian painter "
            "born in Bergen in 1901.",
            False,
        ),
    ],
)
def test_declines_with_an_adjective_before_information(text: str, abstained: bool) -> None:
    assert is_abstention(text) is abstained


def test_a_colon_before_a_pronoun_clause_splits_the_hedge_from_the_facts() -> None:
    text = "I don't have much detail about Lotte Brandvik, but here is what I know: she was a painter born in Bergen."
    assert [s.text for s in split_sentences(text)] == [
        "I don't have much detail about Lotte Brandvik, but here is what I know:",
        "she was a painter born in Bergen.",
    ]


@pytest.mark.parametrize(
    ("sentence", "facts"),
    [
        (
            "In 1985 Pim Okonkwo co-founded the jazz trio Blue Delta.",
            [
                "Pim Okonkwo co-founded the jazz trio Blue Delta.",
                "In 1985 Pim Okonkwo co-founded the jazz trio Blue Delta.",
            ],
        ),
        ("She was re-elected in 1990.", ["She was re-elected in 1990."]),
        (
            "Ana Ruiz appeared in Knives Out in 2019.",
            ["Ana Ruiz appeared in Knives Out.", "Ana Ruiz appeared in 2019."],
        ),
        ("He gave up his seat in 1990.", ["He gave up his seat.", "He gave up his seat in 1990."]),
    ],
)
def test_prefixed_verbs_and_titles_stay_whole(sentence: str, facts: list[str]) -> None:
    assert [a.text for a in decompose_sentence(sentence, 0)] == facts
