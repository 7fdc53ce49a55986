"""A verbless sentence that opens with a thing of a named person's ("Mary Ellen Castellane's life bound up with the
mill city of Lowell, …") is no description of the person: it is not read as "She was Mary Ellen Castellane's life
…", which equated the person with her life and let a re-check support the fragment. And a revision that deletes
failing facts does not leave it behind: a fact with no finite verb is not said as a sentence, and a sentence whose
main clause went with words stranded goes whole there."""

from __future__ import annotations

import pytest

from scoring import nlp
from scoring.records import prose
from scoring.revise import _apply, _said_by_facts, _SentencePlan


@pytest.mark.parametrize(
    "sentence",
    [
        "Mary Ellen Castellane's life bound up with the mill city of Lowell, Massachusetts.",
        "Ada Brook's first album, recorded in Oslo in 1999.",
        "Theodore Vance's boxing career, spanning two decades in Philadelphia.",
    ],
)
def test_a_named_persons_thing_is_no_description_of_the_person(sentence: str) -> None:
    for item in (False, True):
        read = prose(sentence, "she", item)
        assert read.text == sentence and not read.rewritten, read.text


@pytest.mark.parametrize(
    ("sentence", "reading"),
    [
        # a place's possessive still describes the person
        (
            "Lowell's best-known labor organizer, born in 1888.",
            "She was Lowell's best-known labor organizer, born in 1888.",
        ),
        ("Britain's first female bishop from 1993.", "She was Britain's first female bishop from 1993."),
        # descriptions with no possessive
        ("Norwegian composer and organist from Tromsø.", "She was Norwegian composer and organist from Tromsø."),
        ("Founder of the Textile Women's League in 1921.", "She was founder of the Textile Women's League in 1921."),
    ],
)
def test_descriptions_of_the_person_are_still_read_with_her(sentence: str, reading: str) -> None:
    assert prose(sentence, "she").text == reading


@pytest.mark.parametrize(
    "fact",
    [
        "Mary Ellen Castellane's life bound up with the mill city of Lowell, Massachusetts.",
        "Ada Brook's first album recorded in Oslo in 1999.",
        "Her career spanning three decades in Philadelphia.",
    ],
)
def test_a_fact_without_a_finite_verb_is_not_said_as_a_sentence(fact: str) -> None:
    plan = _SentencePlan(stated=[(frozenset({0, 1, 2}), fact), (frozenset({5, 6}), "She was born in Lowell.")])
    assert _said_by_facts(plan) is None


@pytest.mark.parametrize(
    "fact",
    [
        "Mary Ellen Castellane was born to parents in Lowell.",
        "Her life was bound up with the mill city of Lowell.",
        "She can read Polish.",
    ],
)
def test_facts_with_a_finite_verb_are_said(fact: str) -> None:
    plan = _SentencePlan(stated=[(frozenset({0, 1, 2}), fact)])
    assert _said_by_facts(plan) == fact


def test_in_the_deletion_path_a_sentence_left_without_its_main_clause_goes_whole() -> None:
    sentence = (
        "Mary Ellen Castellane's life spanned from 1888 to 1959, almost all of it bound up with the mill city of "
        "Lowell, Massachusetts."
    )
    doc = nlp.parse_one(sentence)
    main = next(t for t in doc if t.text == "spanned")
    gone = {main.i, *(t.i for t in doc if t.text in ("from", "1888", "to", "1959"))}
    kept = set(range(len(doc))) - gone
    plan = _SentencePlan(
        delete=gone,
        keep=kept,
        stated=[
            (frozenset(kept), "Mary Ellen Castellane's life bound up with the mill city of Lowell, Massachusetts.")
        ],
    )
    assert _apply(doc, plan, prose=True, verbs=True) is None
    # the first revision (re-checked) still edits it as written: its re-check judges what is left
    edited = _apply(doc, plan, prose=True, verbs=False)
    assert edited is not None and "bound up with the mill city" in edited and "spanned" not in edited
