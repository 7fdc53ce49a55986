"""Structure rules found on blind set p8: names of things that opened individuals, colons after a clause read as
record labels (``thing-name``, ``lower-case-name``, ``counted-name``: scoring.grouping.NO_PERSON_RULES;
``clause-label``: scoring.records.LABEL_LINE_RULES)."""

from __future__ import annotations

import pytest

from scoring import nlp
from scoring.grouping import Mention, NameCase, find_mention, group_sentences
from scoring.records import prose
from scoring.rulebook import STEPS, rule_names
from scoring.rules import run


def _decides(name: str, sentence: str, subject: str = "Ambrose Kettleby") -> bool:
    doc = nlp.parse_one(sentence)
    mention = find_mention(doc)
    assert mention is not None, sentence
    rules = tuple(r for r in STEPS["group-names"] if r.name == name)
    return run(rules, NameCase(doc, mention, subject), frozenset()) is not None


def _case(name: str, sentence: str = "He was there.", subject: str = "Ambrose Kettleby") -> NameCase:
    return NameCase(nlp.parse_one(sentence), Mention(name), subject)


def _rule(name: str):  # type: ignore[no-untyped-def]
    return next(r for r in STEPS["group-names"] if r.name == name)


def test_rules_are_registered_in_their_steps() -> None:
    assert [r.name for r in STEPS["group-names"]][:3] == ["thing-name", "lower-case-name", "counted-name"]
    assert [r.name for r in STEPS["decompose-records"]] == ["clause-label"]
    assert rule_names(["thing-name, lower-case-name, counted-name, clause-label"])


# --- thing-name ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "Sea Gallantry Medal",
        "Lagos Heritage Award for Music",
        "SEA Games",
        "Kettleby Bird Hide",
        "Montreux Jazz Festival",
    ],
)
def test_thing_name_names_no_person(name: str) -> None:
    assert _rule("thing-name").apply(_case(name)) is not None


@pytest.mark.parametrize("name", ["Olav Brekke", "Stuart Hall", "Medal", "Prize Okafor", "Award Winner Smith"])
def test_thing_name_leaves_persons_names(name: str) -> None:
    # a person's name, a thing word alone, a thing word that does not end the name
    assert _rule("thing-name").apply(_case(name)) is None


@pytest.mark.parametrize(
    "sentence",
    [
        "The Sea Gallantry Medal followed the next year.",
        "The Lagos Heritage Award for Music came in 2015.",
        "The Kettleby Bird Hide opened three years on.",
    ],
)
def test_thing_name_keeps_one_individual(sentence: str) -> None:
    texts = ["Ambrose Kettleby was an English lighthouse keeper.", sentence, "He retired in 1947."]
    groups = group_sentences(texts, "Ambrose Kettleby")
    assert [g.sentences for g in groups] == [[0, 1, 2]]
    off = group_sentences(texts, "Ambrose Kettleby", rules_off=frozenset({"thing-name"}))
    assert len(off) == 2  # switched off, the thing's name opens an individual as before


def test_thing_name_leaves_a_namesake_introduced() -> None:
    texts = ["Ambrose Kettleby was an English lighthouse keeper.", "Priya Dhall is an English comedian."]
    assert len(group_sentences(texts, "Ambrose Kettleby")) == 2


def test_thing_name_label_is_no_person_in_a_record() -> None:
    line = "SEA Games: men's singles winner, 2019 and 2023"
    assert prose(line, "he").text.startswith("SEA Games: he was")
    assert prose(line, "he", rules_off=frozenset({"thing-name"})).text.startswith("SEA Games was")
    # a person's name still labels its record
    assert prose("Anne-Sophie Brandt (architect): born 1961 in Strasbourg", "she").text.startswith("Anne-Sophie")


# --- lower-case-name ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["algorithm", "don", "formula"])
def test_lower_case_name_is_a_common_noun(name: str) -> None:
    assert _rule("lower-case-name").apply(_case(name)) is not None


@pytest.mark.parametrize("name", ["Algorithm", "de", "Ada Brook", "bell hooks"])
def test_lower_case_name_leaves_names(name: str) -> None:
    # capitalised, a particle, two words (lower-case-head's case)
    assert _rule("lower-case-name").apply(_case(name)) is None


def test_lower_case_name_keeps_the_list_with_its_person() -> None:
    texts = [
        "Tuğba Karaçelik is a Turkish seismologist.",
        "Her Karaçelik early-warning algorithm has been used by the Istanbul metro since 2018 to halt trains",
        "She won Piri Reis Science Award (2011).",
    ]
    items = [False, True, True]
    groups = group_sentences(texts, "Tuğba Karaçelik", list_items=items)
    mention = find_mention(nlp.parse_one(texts[1]))
    if mention is not None and mention.name == "algorithm":  # the tagger took the noun for a name
        assert [g.sentences for g in groups] == [[0, 1, 2]]
        off = group_sentences(texts, "Tuğba Karaçelik", list_items=items, rules_off=frozenset({"lower-case-name"}))
        assert len(off) == 2
    else:
        assert len(groups) == 1


# --- counted-name ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "sentence",
    ["4K video at up to 60 fps, 48 MP stills from a 1/1.3-inch sensor", "It records 12 MP stills.", "It has 2 TB SSD."],
)
def test_counted_name_is_a_unit(sentence: str) -> None:
    doc = nlp.parse_one(sentence)
    mention = find_mention(doc)
    if mention is None:  # nothing taken for a name: nothing to decide
        return
    assert _rule("counted-name").apply(NameCase(doc, mention, "Ardmore Kite M2")) is not None


@pytest.mark.parametrize(
    "sentence",
    ["Olav Brekke discovered a comet in 1991.", "In 1991 Olav Brekke found it.", "By 2019 Priya Dhall had joined."],
)
def test_counted_name_leaves_names_after_words(sentence: str) -> None:
    doc = nlp.parse_one(sentence)
    mention = find_mention(doc)
    assert mention is None or _rule("counted-name").apply(NameCase(doc, mention, "Ardmore Kite M2")) is None


def test_counted_name_rule_on_a_mention_after_digits() -> None:
    doc = nlp.parse_one("It shoots 48 MP stills.")
    assert _rule("counted-name").apply(NameCase(doc, Mention("MP"), "Ardmore Kite M2")) is not None
    assert _rule("counted-name").apply(NameCase(doc, Mention("It"), "Ardmore Kite M2")) is None


# --- clause-label ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "In 1981 she made her very first picture book: Hilla and the Snow Hare.",
        "The honours came a decade apart: the Piri Reis Science Award in 2011 and the Lehmann Prize in 2021.",
        "They've travelled far: twenty-two languages, roughly four million copies sold.",
        "Aino won prizes too: the Northern Lights Prize in 1988 and the Aurora Medal in 2004.",
    ],
)
def test_clause_label_reads_the_line_as_written(line: str) -> None:
    assert prose(line, "she").text == line
    assert prose(line, "she", rules_off=frozenset({"clause-label"})).text != line  # read as a record before


@pytest.mark.parametrize(
    ("line", "start"),
    [
        ("Born: 1912, Tromsø", "She was born"),
        ("National youth team: from 2012", "National youth team: she"),
        ("Who she is: a Welsh poet", "Who she is: she was a Welsh poet"),
        ("Career-high world ranking: 28th (2023)", "Career-high world ranking"),
    ],
)
def test_clause_label_leaves_labels(line: str, start: str) -> None:
    read = prose(line, "she").text
    assert read.lower().startswith(start.lower()), read


def test_named_in_memory_is_named_after() -> None:
    texts = ["Theodore Vance was an American boxer.", "The Teddy Vance Trail was named in his memory.", "He died."]
    assert len(group_sentences(texts, "Theodore Vance")) == 1
    assert len(group_sentences(texts, "Theodore Vance", rules_off=frozenset({"named-after"}))) == 2
