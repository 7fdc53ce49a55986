"""Decomposer readings that kept garbled facts out of true answers (branch frags, issue 28/29): a clause before a colon
or a single dash parsed apart from the clause after it (colon-splice), an adverbial clause said of its own subject
(adverbial-subject), a span of time counted to the clause after "before"/"after" (interval-clause), comparisons
without a predicate left as written (compared-fragments), and an item opening with a past written as its base read
with the answer's pronoun (told-past-items)."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.enums import Stance
from scoring import nlp
from scoring.decompose import PART_READINGS, decompose_doc
from scoring.parse_rules import ADVERBIAL_SUBJECT, COMPARED_PREDICATE, INTERVAL_CLAUSE
from scoring.records import COMPARED_FRAGMENTS, TOLD_PAST_ITEMS, prose
from scoring.rulebook import rule_names
from scoring.verifier import OfflineVerifier
from scoring.verify import EvidenceVerifier

TITLE = "Tobiah Quenneville"
TEXT = (
    "Tobiah Quenneville (1889 – 1966) was a Canadian bell founder. He studied metallurgy at Laval from 1906 to "
    "1910. In 1921 he founded the Quenneville Bell Works in Trois-Rivières. His son Lucien took over the foundry in "
    "1962. Quenneville died in Trois-Rivières in 1966."
)


def _facts(text: str, off: frozenset[str] = frozenset()) -> list[str]:
    return [f.text for f in decompose_doc(nlp.parse_one(text), 0, off)]


def _prose(text: str, off: frozenset[str] = frozenset()) -> str:
    return prose(text, "he", list_item=True, rules_off=off).text


def test_the_rules_are_registered() -> None:
    names = {"colon-splice", "verbless-tail", ADVERBIAL_SUBJECT, INTERVAL_CLAUSE, COMPARED_FRAGMENTS, TOLD_PAST_ITEMS}
    assert rule_names(sorted(names)) == names
    assert "colon-splice" in [r.name for r in PART_READINGS]


# --- colon-splice ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        ("Notably, the workshop outlived his active career: it passed in 1948 to his daughter.",
         "The workshop passed to his daughter."),
        ("Both women have stepped back from front-line work: the pianist stopped touring in 2018.",
         "The pianist stopped touring in 2018."),
        ("The band outlived its founder — it toured until 2015.", "The band toured until 2015."),
        ("Her reasoning was simple: she wanted to stay in Oslo.", "She wanted to stay in Oslo."),
    ],
)  # fmt: skip
def test_clauses_joined_by_a_colon_or_a_dash_are_facts_of_their_own(sentence: str, fact: str) -> None:
    facts = _facts(sentence)
    assert fact in facts
    off = _facts(sentence, frozenset({"colon-splice"}))
    assert off != facts and fact not in off


def test_it_after_the_mark_is_the_subject_before_it_unless_that_is_a_person() -> None:
    assert "Norland Systems paid £310m for the company." in _facts(
        "Norland Systems liked what it saw: it paid £310m for the company in 2022."
    )
    assert "It split up in 2003." in _facts("Ada Brook left the band in 2001: it split up in 2003.")


@pytest.mark.parametrize(
    "sentence",
    [
        # look-alikes: a reporting verb's clause, a label before the colon, an aside between two dashes, a list
        "She was the best: he said so.",
        "Education: she studied law in Paris.",
        "The painter — she studied in Paris — won the Arlen Prize in 2004.",
        "She won three titles: 2001, 2003 and 2007.",
    ],
)
def test_a_colon_that_joins_no_two_clauses_is_left_to_the_other_readings(sentence: str) -> None:
    assert _facts(sentence) == _facts(sentence, frozenset({"colon-splice"}))


# --- adverbial-subject -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        ("While her brother studied law in Paris, she trained as a painter in Rome.", "Her brother studied law."),
        ("After the war ended, he moved to Oslo.", "The war ended."),
        ("Where the astronomer's career was built around an observatory, hers is centred on her own studio.",
         "The astronomer's career was built around an observatory."),
        ("When she was ten, she moved to Oslo.", "She was ten."),
    ],
)  # fmt: skip
def test_an_adverbial_clause_is_said_of_its_own_subject(sentence: str, fact: str) -> None:
    assert fact in _facts(sentence)
    assert fact not in _facts(sentence, frozenset({ADVERBIAL_SUBJECT}))


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        # look-alikes: no subject of its own, an infinitive of purpose, a pronoun that stands for the clause's noun
        ("After leaving Leeds, he joined Arsenal.", "He joined Arsenal."),
        ("He moved to Oslo to study law.", "He moved to Oslo to study law."),
        ("Deskwarden closes tickets that are waiting on a reply once they have gone 7 days without activity.",
         "Tickets have gone 7 days."),
    ],
)  # fmt: skip
def test_a_clause_without_a_subject_of_its_own_keeps_the_sentences(sentence: str, fact: str) -> None:
    assert fact in _facts(sentence)
    assert _facts(sentence) == _facts(sentence, frozenset({ADVERBIAL_SUBJECT}))


@pytest.mark.parametrize(
    ("sentence", "condition"),
    [
        ("It carries a two-year warranty, so if the reset doesn't help you can contact support.", "reset"),
        ("If she's committed to proper lessons, the P5 is the kind of instrument teachers like.", "committed"),
        ("Unless the club folds, he will stay.", "folds"),
    ],
)
def test_a_condition_with_a_subject_of_its_own_claims_nothing(sentence: str, condition: str) -> None:
    assert not any(condition in f for f in _facts(sentence))


def test_a_brothers_deed_is_no_longer_said_of_her() -> None:
    facts = _facts("While her brother studied law in Paris, she trained as a painter in Rome.")
    assert not any(f.lower().startswith(("studied", "she studied")) or f.endswith(" she.") for f in facts)


# --- interval-clause ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        ("It opened two years before he left.", "It opened two years before he left."),
        ("She married him three years after she graduated.", "She married him three years after she graduated."),
        ("He retired in 2010, two years after he won the title.", "He retired two years after he won the title."),
    ],
)
def test_a_span_of_time_is_counted_to_the_clause_after_it(sentence: str, fact: str) -> None:
    facts = _facts(sentence)
    assert fact in facts
    assert not any(f.endswith(" years.") for f in facts)
    assert fact not in _facts(sentence, frozenset({INTERVAL_CLAUSE}))


@pytest.mark.parametrize(
    "sentence",
    [
        # look-alikes: a span with its own preposition, an event that is a noun, a clause without a span
        "He played for two years before he retired.",
        "The museum opened two years before the war.",
        "He retired after he won the title.",
    ],
)
def test_a_span_that_counts_to_no_clause_is_read_as_before(sentence: str) -> None:
    assert _facts(sentence) == _facts(sentence, frozenset({INTERVAL_CLAUSE}))


def test_a_wrong_span_to_a_clause_is_not_supported(store: Store, verifier: OfflineVerifier) -> None:
    # fails safe: the span stays in the fact, and a wrong one finds no support on the page
    facts = _facts("His son Lucien took over the foundry two years before Quenneville died.")
    read = next(f for f in facts if "two years before" in f)
    verdict = EvidenceVerifier(store, verifier).against(read, TITLE, TITLE)
    assert verdict.stance is not Stance.SUPPORT


# --- compared-fragments ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "In short: same name, different generations, different cities and entirely different fields.",
        "Same name, different generations.",
        "Different league, same result.",
    ],
)
def test_a_comparison_without_a_predicate_gets_no_subject(text: str) -> None:
    assert _prose(text) == text
    assert _prose(text, frozenset({COMPARED_FRAGMENTS})) != text


@pytest.mark.parametrize(
    ("text", "read"),
    [
        # look-alikes: compared with something named, values, a verb of its own
        ("Same birthplace as her mother.", "He was same birthplace as her mother."),
        ("Different teams: Leeds and Arsenal.", "Different teams: he was Leeds and Arsenal."),
        ("Professor at Leeds since 2012.", "He was professor at Leeds since 2012."),
    ],
)
def test_a_fragment_that_says_something_is_still_read_with_the_pronoun(text: str, read: str) -> None:
    assert _prose(text) == read == _prose(text, frozenset({COMPARED_FRAGMENTS}))


# --- told-past-items ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("item", "read"),
    [
        ("Set up his own shop in Dublin.", "He set up his own shop in Dublin."),
        ("Put her savings into a studio in Oslo.", "He put her savings into a studio in Oslo."),
        ("Cut his first record in 1961.", "He cut his first record in 1961."),
    ],
)
def test_an_item_told_in_a_past_like_its_base_gets_the_pronoun(item: str, read: str) -> None:
    assert _prose(item) == read
    assert _prose(item, frozenset({TOLD_PAST_ITEMS})) == item


@pytest.mark.parametrize(
    "item",
    [
        # look-alikes: orders to the reader, a base form whose past differs
        "Set up your account in the app.",
        "Put the kettle on.",
        "Run his own shop in Dublin.",
    ],
)
def test_an_order_stays_as_written(item: str) -> None:
    assert _prose(item) == item


# --- verbless-tail -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "clause"),
    [
        ("He hung up the gloves in 1941 — sixty-one wins, nine losses, three draws.", "He hung up the gloves in 1941."),
        ("She won the title in 2001: her first.", "She won the title in 2001."),
        ("He joined Leeds in 1990 — a club record fee.", "He joined Leeds in 1990."),
    ],
)
def test_a_verbless_tail_is_no_object_of_the_verb_before_it(sentence: str, clause: str) -> None:
    facts = _facts(sentence)
    assert clause in facts and sentence in facts  # the clause alone, the sentence whole
    tail = sentence.split(" — ")[-1].split(": ")[-1].rstrip(".")
    assert not any(tail in f and f != sentence for f in facts)  # no fact glues the tail to the verb
    assert _facts(sentence, frozenset({"verbless-tail"})) != facts


@pytest.mark.parametrize(
    "sentence",
    [
        # look-alikes: the verb's own object after the colon, a list naming the noun before it, a modifier of the verb
        "Her honours include: the Hale Medal (1999), the Orton Prize (2004).",
        "He speaks three languages: English, French and Polish.",
        "She moved to Oslo in 1990 — with her husband.",
    ],
)
def test_a_tail_the_verb_takes_is_left_to_the_whole_parse(sentence: str) -> None:
    assert _facts(sentence) == _facts(sentence, frozenset({"verbless-tail"}))


def test_a_wrong_year_before_a_tail_stays_unsupported(store: Store, verifier: OfflineVerifier) -> None:
    # fails safe: the clause read alone keeps its year, and the page's 1921 does not support 1931
    facts = _facts("Tobiah Quenneville founded the Quenneville Bell Works in 1931 — his first and only foundry.")
    dated = [f for f in facts if "1931" in f]
    assert dated
    for fact in dated:
        assert EvidenceVerifier(store, verifier).against(fact, TITLE, TITLE).stance is not Stance.SUPPORT


# --- compared-predicate ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "sentence",
    ["The core is the same.", "Their styles were entirely different.", "The twins are alike."],
)
def test_a_comparison_with_nothing_compared_is_no_fact(sentence: str) -> None:
    assert _facts(sentence) == []
    assert _facts(sentence, frozenset({COMPARED_PREDICATE})) != []


@pytest.mark.parametrize(
    "sentence",
    [
        # look-alikes: what it is compared with, a respect it differs in, a value
        "Her birthplace is the same as her mother's.",
        "The two clubs are different in size.",
        "The results were similar in 2001 and 2003.",
    ],
)
def test_a_comparison_that_says_with_what_is_kept(sentence: str) -> None:
    kept = _facts(sentence)
    assert kept and set(kept) <= set(_facts(sentence, frozenset({COMPARED_PREDICATE})))
    assert any(" as " in f or " in " in f for f in kept)
