"""Facts with nothing a page could confirm (``light-predicate``, ``dangling-time``: scoring.contentless.CONTENT_RULES)
and labels the tagger took for names (``label-name``: scoring.grouping.NO_PERSON_RULES)."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.enums import Stance
from scoring import nlp
from scoring.contentless import CONTENT_RULES, DANGLING_TIME, LABEL_COMPLEMENT, LIGHT_PREDICATE
from scoring.decompose import decompose_doc
from scoring.grouping import Mention, NameCase, group_sentences
from scoring.rulebook import STEPS, rule_names
from scoring.verifier import OfflineVerifier
from scoring.verify import EvidenceVerifier

TITLE = "Tobiah Quenneville"
TEXT = (
    "Tobiah Quenneville (1889 – 1966) was a Canadian bell founder. He studied metallurgy at Laval from 1906 to "
    "1910. In 1921 he founded the Quenneville Bell Works in Trois-Rivières. He retired in 1960 and never married. "
    "Quenneville died in Trois-Rivières in 1966."
)


def _facts(text: str, off: frozenset[str] = frozenset()) -> list[str]:
    return [f.text for f in decompose_doc(nlp.parse_one(text), 0, off)]


def test_the_rules_are_registered_in_their_steps() -> None:
    assert [r.name for r in CONTENT_RULES] == [LIGHT_PREDICATE, DANGLING_TIME, LABEL_COMPLEMENT]
    assert STEPS["decompose-content"] == CONTENT_RULES
    assert "label-name" in [r.name for r in STEPS["group-names"]]
    assert rule_names([f"{LIGHT_PREDICATE}, {DANGLING_TIME}, {LABEL_COMPLEMENT}, label-name"])


# --- light-predicate -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "empty"),
    [
        ("It opened two years before he left.", "He left."),
        ("He took it when they married in 1998.", "He took it."),
        ("She is the one who won the Hale Prize in 2001.", "She is the one."),
        ("He held onto it.", "He held onto it."),
        ("In 1958 he settled in Rye and stayed.", "He stayed."),
        ("Within a year he was a different person.", "He was a different person."),
    ],
)
def test_a_light_verb_with_nothing_of_its_own_is_no_fact(sentence: str, empty: str) -> None:
    assert empty not in _facts(sentence)
    assert empty in _facts(sentence, frozenset({LIGHT_PREDICATE}))


@pytest.mark.parametrize(
    "sentence",
    [
        # look-alikes: a life event, a negation, a verb of its own, an object of its own, a particle that makes the
        # verb, a value, a possessive, a number in the subject, a relative pronoun read as what it stands for
        "She retired.",
        "He never married.",
        "He didn't leave.",
        "He won it.",
        "She took the title.",
        "She stepped down.",
        "The national crown was his.",
        "That 2.5-gig port is the one to care about.",
        "It was the title that he took.",
        "He was born.",
    ],
)
def test_a_predicate_with_something_of_its_own_is_kept(sentence: str) -> None:
    facts = _facts(sentence)
    assert facts
    assert facts == _facts(sentence, frozenset({LIGHT_PREDICATE}))


def test_a_value_keeps_the_fact_of_a_light_verb() -> None:
    # the core with nothing of its own goes, the dated fact stays
    assert _facts("He took it in 1990.") == ["He took it in 1990."]


# --- dangling-time -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "core"),
    [
        ("Set up his own shop in Dublin the year after leaving Accra.", "Set up his own shop."),
        (
            "A child who arrived in the world the year the Wall came down, she learned the trade.",
            "She learned the trade.",
        ),
        ("She moved to Oslo the day her daughter was born.", "She moved to Oslo."),
    ],
)
def test_a_time_cut_from_what_fixed_it_is_no_fact(sentence: str, core: str) -> None:
    facts = _facts(sentence)
    assert core in facts
    assert not any(f.endswith((" the year.", " the day.")) for f in facts)
    assert any(f.endswith((" the year.", " the day.")) for f in _facts(sentence, frozenset({DANGLING_TIME})))


@pytest.mark.parametrize(
    "sentence",
    [
        # look-alikes: an object, a time fixed by "that", a time whose words stay in the fact
        "He spent the year in Paris.",
        "She left the band that year.",
        "The year after the war ended she moved to Oslo.",
    ],
)
def test_a_time_with_what_fixes_it_is_kept(sentence: str) -> None:
    assert _facts(sentence) == _facts(sentence, frozenset({DANGLING_TIME}))


def test_a_wrong_value_beside_a_light_verb_stays_unsupported(store: Store, verifier: OfflineVerifier) -> None:
    # fails safe: a value keeps the fact, and the page's 1960 does not support 1975
    facts = [f for f in _facts("He left it in 1975, the year he retired.") if "1975" in f]
    assert facts
    for fact in facts:
        assert EvidenceVerifier(store, verifier).against(fact, TITLE, TITLE).stance is not Stance.SUPPORT


# --- label-complement ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("sentence", ["He was BACKGROUND.", "BRIEFING NOTE is OFFICIAL.", "She was PERSONAL."])
def test_a_heading_read_as_a_complement_is_no_fact(sentence: str) -> None:
    assert _facts(sentence) == []
    assert _facts(sentence, frozenset({LABEL_COMPLEMENT})) != []


@pytest.mark.parametrize(
    "sentence",
    [
        # look-alikes: lower case, a word of its own beside a label word, a name in capitals
        "He was personal.",
        "He was BACKGROUND SINGER.",
        "She was NASA.",
    ],
)
def test_a_complement_with_a_word_of_its_own_is_kept(sentence: str) -> None:
    assert _facts(sentence) == _facts(sentence, frozenset({LABEL_COMPLEMENT})) != []


# --- label-name ----------------------------------------------------------------------------------------------------


def _label(name: str) -> bool:
    rule = next(r for r in STEPS["group-names"] if r.name == "label-name")
    assert rule.apply is not None
    return rule.apply(NameCase(nlp.parse_one("He was there."), Mention(name), "Ada Brook")) is not None


@pytest.mark.parametrize("name", ["TODO", "Madam Speaker", "MC SCRIPT", "COLD OPEN", "BRIEFING NOTE", "END CARD"])
def test_a_label_names_no_person(name: str) -> None:
    assert _label(name)


@pytest.mark.parametrize("name", ["Ada Brook", "Director", "Commissioner Ada Brook", "Todd Host", "Speaker Hale"])
def test_names_and_offices_are_left_alone(name: str) -> None:
    # a person's name, an office (a heading of one may present its holder), a label word beside a name
    assert not _label(name)


def test_a_placeholder_line_opens_no_individual() -> None:
    texts = ["Ada Brook is a Norwegian glaciologist.", "TODO Ask the library for the 2014 book.", "She led it."]
    groups = group_sentences(texts, "Ada Brook")
    assert [g.name for g in groups] == ["Ada Brook"]
    off = group_sentences(texts, "Ada Brook", rules_off=frozenset({"label-name"}))
    assert len(off) >= len(groups)
