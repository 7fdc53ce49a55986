"""`apposition-after-name`: a description after a comma that the parser hangs on the clause's subject, a thing, but
that follows a name is said of the name. The sentences are ours; the names are invented."""

from __future__ import annotations

import pytest

from scoring.decompose import decompose_sentence

SAID_OF_THE_NAME = [
    (
        "The great east window was installed in 1904 and is the best-known work of Anselm Rookwood (1861–1938), "
        "the stained-glass artist who lived and worked in this town for almost fifty years.",
        "Anselm Rookwood worked in this town for almost fifty years.",
        "The great east window worked",
    ),
    (
        "This house was the home of Clara Voss (1850–1920), the novelist who wrote Tides.",
        "Clara Voss wrote Tides.",
        "This house wrote",
    ),
    (
        "The great east window was installed in 1904 and is the best-known work of Anselm Rookwood (1861–1938), "
        "the stained-glass artist who lived and worked in this town for almost fifty years.",
        "Anselm Rookwood was the stained-glass artist.",
        "The great east window was the stained-glass artist",
    ),
]

# The subject is the person, or the description sits beside the subject: it stays the subject's.
LOOK_ALIKES = [
    ("Ada Brook, the painter who taught in Oslo, was born in Leeds.", "Ada Brook taught in Oslo."),
    ("The footballer, a midfielder for Kjellvik FK who won the cup, retired in 2001.", "The footballer won the cup."),
    ("The museum, the oldest in Norway, was founded in 1820.", "The museum was the oldest in Norway."),
    ("The portrait, a gift of Ada Brook, hangs in the hall.", "The portrait is a gift of Ada Brook."),
]


@pytest.mark.parametrize(("sentence", "fact", "not_fact"), SAID_OF_THE_NAME)
def test_the_description_is_said_of_the_name(sentence: str, fact: str, not_fact: str) -> None:
    facts = [f.text for f in decompose_sentence(sentence)]
    assert fact in facts
    assert not any(f.startswith(not_fact) for f in facts)


@pytest.mark.parametrize(("sentence", "fact"), LOOK_ALIKES)
def test_a_description_of_the_subject_stays_the_subjects(sentence: str, fact: str) -> None:
    assert fact in [f.text for f in decompose_sentence(sentence)]


def test_rule_off() -> None:
    sentence = "This house was the home of Clara Voss (1850–1920), the novelist who wrote Tides."
    facts = [f.text for f in decompose_sentence(sentence, rules_off=frozenset({"apposition-after-name"}))]
    assert "Clara Voss wrote Tides." not in facts
