"""The readings of the parse are rule objects switched off by name (issue 28): a spelled number with "and" one
token, a role keeping the name after it, a relative named in passing, semicolon clauses and a dash aside read
apart, the credence and after-dash hedges, and a pronoun's contraction spelled out after the name. Each reads
its phrasings one way when on and another when off, and the readings it leaves alone (look-alikes) read the same
either way."""

from __future__ import annotations

import pytest

from scoring import nlp
from scoring.config import CheckConfig
from scoring.decompose import PARSE_READINGS, PART_READINGS, decompose_sentence
from scoring.decontext import DECONTEXT_READINGS, decontextualize
from scoring.hedges import HEDGE_READINGS, strip_hedges
from scoring.rulebook import STEPS
from scoring.rules import RULES


def _facts(sentence: str, *off: str) -> list[str]:
    return [f.text for f in decompose_sentence(sentence, 0, frozenset(off))]


@pytest.mark.parametrize(
    ("step", "rules"),
    [
        ("decompose-parse", PARSE_READINGS),
        ("decompose-parts", PART_READINGS),
        ("decompose-hedges", HEDGE_READINGS),
        ("decompose-names", DECONTEXT_READINGS),
    ],
)
def test_each_reading_is_a_registered_object_in_its_steps_ordered_tuple(step: str, rules: tuple) -> None:  # type: ignore[type-arg]
    assert STEPS[step] is rules
    for r in rules:
        assert RULES[r.name] is r and r.step == "decompose" and r.summary and r.apply is not None, r.name
        assert len(r.examples) >= 3, r.name
    assert CheckConfig().without([r.name for r in rules]).rules_off == frozenset(r.name for r in rules)


def test_the_order_of_the_readings_is_their_precedence() -> None:
    assert [r.name for r in PARSE_READINGS] == ["spelled-number-tokens", "role-name", "named-relation"]
    assert [r.name for r in PART_READINGS] == [
        "semicolon-clauses",
        "comma-splice",
        "colon-splice",
        "verbless-tail",
        "dash-aside",
        "gapped-object",
    ]
    assert [r.name for r in HEDGE_READINGS] == ["credence-labels", "hedge-after-dash", "hearsay-hedges"]


# --- spelled-number-tokens ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "number"),
    [
        ("He described one hundred and twelve species of fern.", "one hundred and twelve"),
        ("The chapel was consecrated in nineteen hundred and sixty-one.", "nineteen hundred and sixty-one"),
        ("The museum holds three thousand and six objects.", "three thousand and six"),
    ],
)
def test_a_spelled_number_is_one_token_only_with_the_rule_on(sentence: str, number: str) -> None:
    on = nlp.parse_one(sentence)
    off = nlp.parse_one(sentence, frozenset({"spelled-number-tokens"}))
    assert number in [t.text for t in on]
    assert number not in [t.text for t in off] and "and" in [t.text for t in off]
    assert on is not off  # the two parses are cached apart


def test_off_the_and_of_a_spelled_number_coordinates_again() -> None:
    sentence = "He described one hundred and twelve species of fern."
    assert _facts(sentence) == ["He described one hundred and twelve species of fern."]
    off = _facts(sentence, "spelled-number-tokens")
    assert "He described twelve species of fern." in off and sentence not in off


@pytest.mark.parametrize(
    "sentence",
    [
        "He won one hundred races and twelve titles.",  # two counts joined by "and"
        "She was born in 1961 and died in 2011.",  # digits
        "He wrote twenty-four novels.",  # a number without "and"
    ],
)
def test_a_sentence_without_a_spelled_number_with_and_parses_the_same_either_way(sentence: str) -> None:
    on = nlp.parse_one(sentence)
    off = nlp.parse_one(sentence, frozenset({"spelled-number-tokens"}))
    assert [(t.text, t.dep_, t.head.i) for t in on] == [(t.text, t.dep_, t.head.i) for t in off]


# --- role-name ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "on", "off"),
    [
        (
            "Her husband, the instrument maker Krzysztof Bąk, built her two-manual harpsichord in 1994.",
            "Her husband was the instrument maker Krzysztof Bąk.",
            "Her husband was the instrument maker.",
        ),
        (
            "Her mother, the textile artist Halina Nowak, wove the tapestry in 1970.",
            "Her mother is the textile artist Halina Nowak.",
            "Her mother is the textile artist.",
        ),
        (
            "Her uncle, the organ builder Piotr Kowal, restored the organ in 1985.",
            "Her uncle was the organ builder Piotr Kowal.",
            "Her uncle was the organ builder.",
        ),
    ],
)
def test_a_role_keeps_the_name_after_it_only_with_the_rule_on(sentence: str, on: str, off: str) -> None:
    assert on in _facts(sentence)
    without = _facts(sentence, "role-name")
    assert off in without and on not in without
    # off, the clause is the role's ("The organ builder restored …"), not the relation noun's
    assert any(f.startswith("The ") for f in without)


def test_a_works_name_in_apposition_reads_the_same_without_role_name() -> None:
    sentence = "Her first novel, The Salt Road, won the Lindeman Prize."
    assert _facts(sentence) == _facts(sentence, "role-name")


# --- named-relation -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        ("Her band has released six albums, with her husband Mateusz Olech on drums.", "Her husband is Mateusz Olech."),
        ("She toured Japan with her brother Tomasz Wrona in 2001.", "Her brother was Tomasz Wrona."),
        ("He opened the restaurant with his wife Inès Garat in 2008.", "His wife was Inès Garat."),
    ],
)
def test_a_relative_named_in_passing_is_a_fact_only_with_the_rule_on(sentence: str, fact: str) -> None:
    assert fact in _facts(sentence)
    assert fact not in _facts(sentence, "named-relation")


@pytest.mark.parametrize(
    "sentence",
    [
        "She recorded her album Mosty in 2021.",
        "He worked with his colleague, Anna Berg, for years.",
        "Her husband, the composer Karan Iyer, wrote the score.",
    ],
)
def test_a_things_name_a_set_off_name_or_a_subjects_apposition_reads_the_same_without_it(sentence: str) -> None:
    assert _facts(sentence) == _facts(sentence, "named-relation")


# --- semicolon-clauses and dash-aside -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        ("Support is open on weekdays; tickets close after 7 days.", "Tickets close after 7 days."),
        ("Chats stay open for a week; chats auto-archive after 90 days.", "Chats auto-archive after 90 days."),
        (
            "Invoices are emailed monthly; unpaid invoices auto-cancel after 30 days.",
            "Unpaid invoices auto-cancel after 30 days.",
        ),
    ],
)
def test_semicolon_clauses_are_read_apart_only_with_the_rule_on(sentence: str, fact: str) -> None:
    assert fact in _facts(sentence)
    off = _facts(sentence, "semicolon-clauses")
    assert fact not in off


@pytest.mark.parametrize(
    ("sentence", "aside"),
    [
        ("The painter — she studied in Paris — won the Arlen Prize in 2004.", "She studied in Paris."),
        (
            "The thirty-something from Łódź — she was born in 1989 — first made her name with the album Nocne "
            "Tramwaje.",
            "She was born in 1989.",
        ),
        ("The harpsichordist — she trained in Kraków — recorded the partitas in 2010.", "She trained in Kraków."),
    ],
)
def test_a_dash_aside_is_read_apart_only_with_the_rule_on(sentence: str, aside: str) -> None:
    assert aside in _facts(sentence)
    assert aside not in _facts(sentence, "dash-aside")


@pytest.mark.parametrize(
    "sentence",
    [
        "He had two Michelin stars — the first in 2011, the second in 2017 — at L'Atelier Maillefer.",
        "She was born in Leeds and trained in Kraków.",
        "The plan costs $9; updates ship weekly.",  # read apart by the whole parse already
    ],
)
def test_sentences_the_whole_parse_reads_read_the_same_without_the_part_readings(sentence: str) -> None:
    assert _facts(sentence) == _facts(sentence, "semicolon-clauses", "dash-aside")


# --- credence-labels and hedge-after-dash -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "stripped"),
    [
        ("~90%: she was born in Medellín in 1966.", "she was born in Medellín in 1966."),
        ("(60%) She received the Habitat Laurel in 2013.", "She received the Habitat Laurel in 2013."),
        ("80% sure — he taught at Bologna.", "he taught at Bologna."),
    ],
)
def test_a_credence_label_comes_off_only_with_the_rule_on(text: str, stripped: str) -> None:
    assert strip_hedges(text)[0::2] == (stripped, True)
    assert strip_hedges(text, frozenset({"credence-labels"})) == (text, list(range(len(text))), False)


@pytest.mark.parametrize(
    ("text", "stripped"),
    [
        (
            "It's the Ponte del Cervo over the Po — I believe it was completed in 1968.",
            "It's the Ponte del Cervo over the Po — it was completed in 1968.",
        ),
        ("She moved to Lyon — I think she was twenty.", "She moved to Lyon — she was twenty."),
        ("He coached the club — if I recall correctly until 2004.", "He coached the club — until 2004."),
    ],
)
def test_a_hedge_after_a_dash_comes_off_only_with_the_rule_on(text: str, stripped: str) -> None:
    assert strip_hedges(text)[0::2] == (stripped, True)
    assert strip_hedges(text, frozenset({"hedge-after-dash"})) == (text, list(range(len(text))), False)


def test_a_hedge_after_a_dash_before_its_value_goes_with_the_dash_either_way() -> None:
    """`hedged-claims`' own pattern (p8m): the dash goes too, so no stray dash is read as an aside."""
    text = "She moved to Lyon — I think in 1990."
    for off in (frozenset(), frozenset({"hedge-after-dash"})):
        assert strip_hedges(text, off)[0::2] == ("She moved to Lyon in 1990.", True)


@pytest.mark.parametrize(
    "text",
    [
        "90% of the funds went to Bologna.",  # a share
        "The bridge — 280 metres long — was completed in 1968.",  # an aside that hedges nothing
        "If I recall correctly, she was born in Kraków in 1968.",  # a hedge of hedged-claims: off either way
    ],
)
def test_look_alikes_read_the_same_with_both_hedge_readings_off(text: str) -> None:
    assert strip_hedges(text) == strip_hedges(text, frozenset({"credence-labels", "hedge-after-dash"}))


# --- spelled-contraction ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fact", "on", "off"),
    [
        ("He'd ticked off every peak by 2010.", "Ada Brook had ticked off", "Ada Brook'd ticked off"),
        ("She's been the director since 2015.", "Ada Brook has been the director", "Ada Brook's been the director"),
        ("He'll retire in 2030.", "Ada Brook will retire", "Ada Brook'll retire"),
    ],
)
def test_a_pronouns_contraction_is_spelled_out_only_with_the_rule_on(fact: str, on: str, off: str) -> None:
    pronoun = fact.split("'")[0]
    assert decontextualize(fact, pronoun, "Ada Brook").startswith(on)
    assert decontextualize(fact, pronoun, "Ada Brook", rules_off=frozenset({"spelled-contraction"})).startswith(off)


@pytest.mark.parametrize(
    ("fact", "subject"),
    [
        ("He didn't retire until 2010.", "He"),  # a negation's contraction is no subject's
        ("He won the '92 final.", "He"),  # an apostrophe that opens a year
        ("His father's farm was in Kent.", "His father"),  # a possessive, not a pronoun's contraction
    ],
)
def test_look_alikes_of_a_contraction_read_the_same_either_way(fact: str, subject: str) -> None:
    on = decontextualize(fact, subject, "Ada Brook")
    assert on == decontextualize(fact, subject, "Ada Brook", rules_off=frozenset({"spelled-contraction"}))
    assert on.startswith("Ada Brook")
