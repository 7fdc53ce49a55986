"""Work the cold path does once per text instead of once per fact gives what the per-fact work gave."""

from __future__ import annotations

import pytest

from scoring import nlp, roles
from scoring.revise import _evidence_docs, _ranked_values

TEXTS = [
    "She co-founded the Lagos Chamber Orchestra in the 1990s and can't read music.",
    "Tomasz Wierzbicki (3 March 1871 – 19 October 1934) was a Polish cartographer.",
    "He was born in Lublin; he died in Gdańsk, aged 63.",
]


@pytest.mark.parametrize("text", TEXTS)
def test_words_are_the_tokens_of_the_parse(text: str) -> None:
    assert nlp.words(text) == tuple(t.text for t in nlp.parse_one(text))
    assert nlp.words(text) is nlp.words(text)  # read once


@pytest.mark.parametrize("text", TEXTS)
def test_content_stems_hold_every_window(text: str) -> None:
    words = nlp.words(text)
    stems = roles.content_stems(words)
    for i in range(len(words)):
        assert roles.window_of(words, i, i + 1) <= stems


EVIDENCE = [
    "Amara Okafor painted murals in Rome and Florence for a decade.",
    "Amara Okafor was born in Enugu in 1961 and moved to Lagos in 1980.",
    "She was raised by her grandmother in Kano, where she was born.",
]


@pytest.mark.parametrize(
    ("fact", "value", "kept"),
    [
        # Only the passages with a birth word can hold a birthplace: the first is never read for entities.
        ("Amara Okafor was born in Abuja.", "Abuja", [False, True, True]),
        ("Amara Okafor painted murals in Venice.", "Venice", [True, False, False]),
        ("Amara Okafor moved to Ibadan in 1980.", "Ibadan", [False, True, False]),
    ],
)
def test_evidence_without_role_words_is_not_read_for_entities(fact: str, value: str, kept: list[bool]) -> None:
    doc = nlp.parse_one(fact)
    old = next(e for e in doc.ents if e.text == value)
    role_set = roles.role_words(fact, ("Amara Okafor", value))
    docs = _evidence_docs(EVIDENCE, role_set)
    assert [bool(d) for d in docs] == kept
    assert _ranked_values(docs, old.label_, old, role_set) == _ranked_values(
        [[d] for d in nlp.entities(EVIDENCE)], old.label_, old, role_set
    )


PAGE = (
    "Amara Okafor painted murals in Rome and Florence for a decade. She was born in Nairobi in 1961; "
    "she moved to Lagos in 1980. Her brother Chidi was born in Kano!"
)


@pytest.mark.parametrize(
    ("fact", "value", "read", "options"),
    [
        # Of the page's sentences only those with a birth word are read for entities ...
        (
            "Amara Okafor was born in Abuja.",
            "Abuja",
            ["She was born in Nairobi in 1961;", "Her brother Chidi was born in Kano!"],
            ["Nairobi", "Kano"],
        ),
        # ... or with a word of moving; a semicolon ends a sentence as a full stop does.
        ("Amara Okafor moved to Ibadan in 1980.", "Ibadan", ["she moved to Lagos in 1980."], ["Lagos"]),
    ],
)
def test_only_the_sentences_that_show_the_role_are_read_for_entities(
    fact: str, value: str, read: list[str], options: list[str]
) -> None:
    doc = nlp.parse_one(fact)
    old = next(e for e in doc.ents if e.text == value)
    role_set = roles.role_words(fact, ("Amara Okafor", value))
    docs = _evidence_docs([PAGE], role_set)
    assert [d.text for d in docs[0]] == read
    ranked = _ranked_values(docs, old.label_, old, role_set)
    assert ranked == options
    # The same values, in the same order, as reading the whole page.
    assert ranked == _ranked_values([nlp.entities([PAGE])], old.label_, old, role_set)


def test_marked_sentences_keep_their_marks_and_abbreviations() -> None:
    text = "He studied at St. Andrews; he left in 1910. Did he return? Yes!  Later, he wrote"
    assert nlp.marked_sentences(text) == (
        "He studied at St. Andrews;",
        "he left in 1910.",
        "Did he return?",
        "Yes!",
        "Later, he wrote",
    )
    assert nlp.marked_sentences(text) is nlp.marked_sentences(text)  # cut once


def test_cached_fact_values_are_fresh_lists() -> None:
    fact = "Tomasz Wierzbicki was born in Lublin in 1871."
    first = roles.fact_values(fact, ("Tomasz Wierzbicki",))
    first.clear()
    assert [v.text for v in roles.fact_values(fact, ("Tomasz Wierzbicki",))] == ["1871", "lublin"]


def test_passage_terms_are_read_once() -> None:
    page = "He was born in Lublin. In 1902 he joined the Geographical Society; he left in 1910."
    terms = roles._sentence_terms(page)
    assert terms is roles._sentence_terms(page)
    assert len(terms) == len(roles.page_sentences(page))
    assert {"1902", "joined", "joine", "society"} <= terms[1]  # words, their stems, years


RULER_TEXTS = [
    "There is a statue of her in Lagos, and there were two more.",
    "I'm gonna say it: y'all ain't seen nothin' yet, let's go.",
    "He got ta go  home; c'mon,  it isn't   far.\n\nShe did, but he hasn't.",
    "Whether or not he was elected in 1990 is unclear, although it seems so.",
    "Do you know if she has won it?  I did not, but I have now.",
]


@pytest.mark.parametrize("text", RULER_TEXTS)
def test_attribute_ruler_finds_the_matches_its_matcher_finds(text: str) -> None:
    from spacy.pipeline.attributeruler import AttributeRuler

    pipeline = nlp.get_nlp()
    ruler = pipeline.get_pipe("attribute_ruler")
    doc = next(pipeline.pipe([text], disable=["attribute_ruler", "lemmatizer", "ner"]))
    quick = ruler.match(doc)
    assert quick == AttributeRuler.match(ruler, doc)  # the class's own method: spaCy's Matcher
    assert len(quick) >= len(doc)  # every token has a tag rule


def test_an_answer_is_read_once() -> None:
    from scoring import offline
    from scoring.pipeline import default_config
    from scoring.sentences import split_sentences

    config = default_config()
    sentences = split_sentences("Born: 1912, Tromsø\n\n- Kessler Medal, 2019\n\nI believe she won it in 2019.")
    readings, unhedged = offline._readings(sentences, config)
    assert offline._readings(sentences, config) == (readings, unhedged)
    assert offline._readings(list(sentences), config)[0] is readings  # parse_ahead's reading, found again
    assert [hedged for _, _, hedged in unhedged] == [False, False, True]


@pytest.mark.parametrize("text", TEXTS + RULER_TEXTS)
def test_lemmas_read_when_needed_are_the_lemmatizers(text: str) -> None:
    whole = next(nlp.get_nlp().pipe([text]))  # every component, the lemmatizer included
    doc = nlp.parse_one(text)
    assert [nlp.lemma(t) for t in doc] == [t.lemma_ for t in whole]
    assert any(t.lemma_ != t.lower_ for t in whole)  # the lemmatizer did change words here


@pytest.mark.parametrize("text", TEXTS + RULER_TEXTS)
def test_a_parsed_text_is_read_once(text: str) -> None:
    doc = nlp.parse_one(text)
    assert nlp.text(doc) == doc.text == text
    assert nlp.text(doc) is nlp.text(doc)  # not joined from the tokens again


def test_a_replacement_keeps_the_sentences_own_article() -> None:
    fact = "He served in the U.S. Navy during the war."
    doc = nlp.parse_one(fact)
    old = next(e for e in doc.ents if "Navy" in e.text)
    role_set = roles.role_words(fact, ("He", old.text))
    page = "During the Second World War he served in the United States Navy from 1942 to 1945."
    options = _ranked_values([nlp.entities([page])], old.label_, old, role_set)
    assert options and not any(o.lower().startswith("the ") for o in options)
    assert any("United States Navy" in o for o in options)
