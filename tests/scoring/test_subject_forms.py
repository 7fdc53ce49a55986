"""Forms of one person's name: accents, first-name prefixes, initials; the page's own spelling."""

from __future__ import annotations

import pytest

from scoring.subject_forms import in_page_terms, same_name

LEAD = "Bartholomew Kofi Mensah (born 1961) is a Ghanaian geologist. He taught at the University of Ghana."


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("Zoe Nunez", "Zoë Núñez", True),
        ("Bart Mensah", "Bartholomew Kofi Mensah", True),
        ("BK Mensah", "Bartholomew Kofi Mensah", True),
        ("Bartholomew Kofi Mensah", "BK Mensah", True),
        ("Ama Mensah", "Bartholomew Kofi Mensah", False),
        ("Ingrid Falk", "Ingrid Falk Jr.", False),  # father and son are told apart by the suffix
        ("Ingrid Falk Jr", "Ingrid Falk Jr.", True),
        ("Bo Mensah", "Bartholomew Mensah", False),  # a two-letter prefix is too weak
    ],
)
def test_forms_of_one_name(a: str, b: str, same: bool) -> None:
    assert same_name(a, b) is same


@pytest.mark.parametrize(
    ("fact", "name", "title", "expected"),
    [
        ("Bart Mensah is Ghanaian.", "Bart Mensah", "Bart Mensah", "Bartholomew Kofi Mensah is Ghanaian."),
        ("Ama Mensah is Ghanaian.", "Ama Mensah", "Bart Mensah", "Ama Mensah is Ghanaian."),
        ("He is Ghanaian.", "Bart Mensah", "Bart Mensah", "He is Ghanaian."),
    ],
)
def test_fact_in_page_terms(fact: str, name: str, title: str, expected: str) -> None:
    assert in_page_terms(fact, name, title, [LEAD]) == expected
