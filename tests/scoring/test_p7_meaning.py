"""Readings the blind set p7 asked for: a number spelled out with "and" in it is one number, a role keeps the name
written after it, a clause between dashes is read apart when the sentence's parse lost its main verb, and a credence
label or a hedge after a dash comes off a claim."""

from __future__ import annotations

import pytest

from scoring.decompose import decompose_sentence
from scoring.hedges import strip_hedges
from scoring.numerals import spelled_runs


def _facts(sentence: str) -> list[str]:
    return [f.text for f in decompose_sentence(sentence)]


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        (
            "He described one hundred and twelve species of fern.",
            "He described one hundred and twelve species of fern.",
        ),
        (
            "She described two hundred and forty species of moss.",
            "She described two hundred and forty species of moss.",
        ),
        ("The museum holds three thousand and six objects.", "The museum holds three thousand and six objects."),
    ],
)
def test_a_spelled_number_with_and_is_one_number(sentence: str, fact: str) -> None:
    facts = _facts(sentence)
    assert fact in facts
    assert not any(" twelve species" in f and "hundred" not in f for f in facts)


def test_two_counts_joined_by_and_stay_two() -> None:
    # look-alike: "and" between two counts of two things joins two facts
    assert _facts("He won one hundred races and twelve titles.") == [
        "He won one hundred races.",
        "He won twelve titles.",
    ]


def test_spelled_runs_finds_one_number_per_run() -> None:
    text = "in two thousand and six, two thousand and nine, and two three"
    assert [text[a:b] for a, b in spelled_runs(text)] == ["two thousand and six", "two thousand and nine"]


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        (
            "Her husband, the instrument maker Krzysztof Bąk, built her two-manual harpsichord in 1994.",
            "Her husband was the instrument maker Krzysztof Bąk.",
        ),
        ("His wife, the sommelier Inès Garat, runs the cellar.", "His wife is the sommelier Inès Garat."),
        ("Her brother, the painter Tomasz Wrona, designed the cover.", "Her brother was the painter Tomasz Wrona."),
    ],
)
def test_a_role_keeps_the_name_written_after_it(sentence: str, fact: str) -> None:
    facts = _facts(sentence)
    assert fact in facts
    # the clause stays the person's, by the noun that names the relation (not "The instrument maker built …")
    assert any(f.startswith(("Her husband ", "His wife ", "Her brother ")) and " was " not in f for f in facts)


def test_a_works_name_in_apposition_still_names_the_subject() -> None:
    # look-alike: a possessed work named in apposition is what the clause is about
    assert _facts("Her first novel, The Salt Road, won the Lindeman Prize.") == [
        "The Salt Road won the Lindeman Prize.",
        "Her first novel was The Salt Road.",
    ]


@pytest.mark.parametrize(
    ("sentence", "facts"),
    [
        (
            "The thirty-something from Łódź — she was born in 1989 — first made her name with the album Nocne "
            "Tramwaje.",
            [
                "She was born in 1989.",
                "The thirty something from Łódź first made her name with the album Nocne Tramwaje.",
            ],
        ),
        ("The bridge — it spans the Po — was completed in 1968.", ["The bridge was completed in 1968."]),
        (
            "The painter — she studied in Paris — won the Arlen Prize in 2004.",
            ["She studied in Paris.", "The painter won the Arlen Prize in 2004."],
        ),
    ],
)
def test_a_clause_between_dashes_is_read_apart(sentence: str, facts: list[str]) -> None:
    made = _facts(sentence)
    assert all(f in made for f in facts), made
    # no fact glues the aside to the sentence ("The painter — she studied in Paris won the Arlen Prize")
    assert not any("—" in f for f in made)


def test_a_verbless_aside_between_dashes_is_left_to_the_whole() -> None:
    # look-alike: "— the first in 2011, the second in 2017 —" has no subject and verb of its own
    facts = _facts("He had two Michelin stars — the first in 2011, the second in 2017 — at L'Atelier Maillefer.")
    assert "He had two Michelin stars." in facts
    assert not any(f.startswith(("The first", "The second")) for f in facts)


@pytest.mark.parametrize(
    ("text", "stripped"),
    [
        ("~90%: she was born in Medellín in 1966.", "she was born in Medellín in 1966."),
        ("(60%) She received the Habitat Laurel in 2013.", "She received the Habitat Laurel in 2013."),
        ("80% sure — he taught at Bologna.", "he taught at Bologna."),
        (
            "It's the Ponte del Cervo over the Po — I believe it was completed in 1968.",
            "It's the Ponte del Cervo over the Po — it was completed in 1968.",
        ),
    ],
)
def test_a_credence_label_or_a_hedge_after_a_dash_comes_off(text: str, stripped: str) -> None:
    out, _, hedged = strip_hedges(text)
    assert (out, hedged) == (stripped, True)


@pytest.mark.parametrize(
    "text",
    [
        "90% of the funds went to Bologna.",
        "In 2001, 40% of the votes went to the Greens.",
        "The bridge — 280 metres long — was completed in 1968.",
    ],
)
def test_a_share_or_an_aside_is_no_hedge(text: str) -> None:
    assert strip_hedges(text) == (text, list(range(len(text))), False)


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        ("Her band has released six albums, with her husband Mateusz Olech on drums.", "Her husband is Mateusz Olech."),
        ("She toured Japan with her brother Tomasz Wrona in 2001.", "Her brother was Tomasz Wrona."),
        ("He opened the restaurant with his wife Inès Garat in 2008.", "His wife was Inès Garat."),
    ],
)
def test_a_relative_named_in_passing_is_a_fact_of_the_relation(sentence: str, fact: str) -> None:
    assert fact in _facts(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "She recorded her album Mosty in 2021.",  # a thing's name after the noun
        "He worked with his colleague, Anna Berg, for years.",  # set off by commas: read as before
    ],
)
def test_a_things_name_or_a_set_off_name_makes_no_relation_fact(sentence: str) -> None:
    assert not any(f.startswith(("Her album was", "Her album is", "His colleague")) for f in _facts(sentence))
