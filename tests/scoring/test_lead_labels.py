"""Leads opened by a counted label ("Card 1 — …": ``counted-leads``) and leads of a label word and a dated role
("THEN — the lighthouse keeper (1884–1959)": ``labelled-role-leads``) present people and scope them apart."""

from __future__ import annotations

import pytest

from scoring.grouping import group_sentences
from scoring.segment.document import parse
from scoring.segment.scopes import COUNTED_LEADS, LABELLED_ROLE_LEADS, person_lead, scopes
from scoring.sentences import split_sentences


def _groups(text: str, subject: str = "Kenji Sato", off: frozenset[str] = frozenset()) -> list[list[str]]:
    sentences = split_sentences(text, off)
    groups = group_sentences(
        [s.text for s in sentences],
        subject,
        list_items=[s.list_item for s in sentences],
        rules_off=off,
        scopes=[s.scope for s in sentences],
        labels=[s.label for s in sentences],
    )
    return [[sentences[i].text for i in g.sentences] for g in groups]


# --- counted-leads ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lead", "name", "description", "dates"),
    [
        ("Card 1 — Kenji Sato, potter (born 1951)", "Kenji Sato", "potter", "born 1951"),
        ("Option 2: Kenji Sato, sprinter", "Kenji Sato", "sprinter", None),
        ("Profile 3 – Kenji Sato (b. 1990)", "Kenji Sato", None, "b. 1990"),
        ("📐 Person #2 - Kenji Sato, sprinter", "Kenji Sato", "sprinter", None),
    ],
)
def test_a_counted_label_before_a_name_presents_the_name(
    lead: str, name: str, description: str | None, dates: str | None
) -> None:
    found = person_lead(lead)
    assert found is not None and (found.name, found.description, found.dates) == (name, description, dates)
    assert person_lead(lead, frozenset({COUNTED_LEADS})) is None or lead.startswith("📐")


@pytest.mark.parametrize(
    "lead",
    [
        "Chapter 1 — Early life",  # nothing named after the label
        "Step 2: Book the tickets",
        "Apollo 11 — the mission (1969)",
    ],
)
def test_a_counted_label_over_no_person_presents_no_one(lead: str) -> None:
    assert person_lead(lead) is None


def test_counted_cards_scope_their_people_apart() -> None:
    text = (
        "There are two.\n\n**Card 1 — Kenji Sato, potter (born 1951)**\n\nBorn in Mashiko, he won the Mashiko "
        "Ceramics Prize in 1988.\n\n---\n\n**Card 2 — Kenji Sato, sprinter (born 1990)**\n\nBorn in Osaka, he ran "
        "the 200 metres for Waseda."
    )
    groups = _groups(text)
    potter = [g for g in groups if any("Mashiko" in s for s in g)]
    sprinter = [g for g in groups if any("Osaka" in s for s in g)]
    assert len(potter) == 1 and len(sprinter) == 1 and potter != sprinter, groups
    assert len(scopes(parse(text)).scopes) == 2
    assert scopes(parse(text), frozenset({COUNTED_LEADS})).scopes == ()


# --- labelled-role-leads ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lead", "description", "dates"),
    [
        ("THEN — the lighthouse keeper (1884–1959)", "lighthouse keeper", "1884–1959"),
        ("NOW — the comedian (born 1990)", "comedian", "born 1990"),
        ("Elder – the potter, b. 1951", "potter", "b. 1951"),
        ("First — a marine biologist (b. 1962)", "marine biologist", "b. 1962"),
    ],
)
def test_a_label_word_and_a_dated_role_present_the_subject_by_role(lead: str, description: str, dates: str) -> None:
    found = person_lead(lead)
    assert found is not None and (found.name, found.description, found.dates) == (None, description, dates)
    assert person_lead(lead, frozenset({LABELLED_ROLE_LEADS})) is None


@pytest.mark.parametrize(
    "lead",
    [
        "Career — the early years (1980–1990)",  # no person's role
        "THEN — the winter (1947)",
        "Recognition — the comedian",  # no dates: a label and a phrase
        "Awards: the Nansen Prize (2008)",  # no dash
    ],
)
def test_a_label_and_no_dated_role_of_a_person_presents_no_one(lead: str) -> None:
    assert person_lead(lead) is None


def test_then_and_now_sections_scope_two_namesakes_apart() -> None:
    text = (
        "There are two Kenji Satos, a century apart.\n\n### THEN — the lighthouse keeper (1884–1959)\n\nBorn in "
        "Hull, he was keeper of Gull Point from 1912.\n\n### NOW — the comedian (born 1990)\n\nBorn in Leeds, he "
        "won the Riverside Comedy Award in 2019."
    )
    groups = _groups(text)
    keeper = [g for g in groups if any("Gull Point" in s for s in g)]
    comedian = [g for g in groups if any("Riverside Comedy" in s for s in g)]
    assert len(keeper) == 1 and len(comedian) == 1 and keeper != comedian, groups
    assert [s.description for s in scopes(parse(text)).scopes] == ["lighthouse keeper", "comedian"]
    assert scopes(parse(text), frozenset({LABELLED_ROLE_LEADS})).scopes == ()


def test_then_and_now_sections_of_one_life_open_no_scope() -> None:
    text = "### THEN — the early years (1884–1912)\n\nHe was born.\n\n### NOW — the late years (1950–1959)\n\nHe died."
    assert scopes(parse(text)).scopes == ()
