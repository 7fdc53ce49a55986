"""Meaning rules written for the answers of blind set p8 (branch p8m): relative years counted from the answer's
own years, a verb read with where it went, a description after a predicate name, a count of occasions before
listed dates, a participle in parentheses, a relative named in a list, facts about the user, a predicate said
again on the page, and "shares life with" read as married."""

from __future__ import annotations

import pytest

from schemas.enums import Worthiness
from scoring import nlp
from scoring.answer_dates import SHORT_YEARS, answer_years_read, short_years_read
from scoring.decompose import decompose_doc, decompose_sentence
from scoring.hedges import strip_hedges
from scoring.idioms import plain_reading
from scoring.parse_rules import (
    DESTINATION_FIRST,
    JOINT_SUBJECT_RELATIVE,
    LISTED_OCCASIONS,
    NAMED_RELATIVE_ITEM,
    PARENTHESISED_PARTICIPLE,
    PREDICATE_NAME_DESCRIPTION,
)
from scoring.roles import rebound_years
from scoring.rulebook import rule_names
from scoring.worthiness import ABOUT_THE_USER, classify_by_rule


def _facts(text: str, off: frozenset[str] = frozenset()) -> list[str]:
    return [f.text for f in decompose_doc(nlp.parse_one(text), 0, off)]


def _read(sentences: list[str]) -> list[str]:
    return [r.text for r in answer_years_read(sentences)]


# --- answer-relative-years ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentences", "read"),
    [
        (  # a chain: each counts from the year the one before made
            [
                "She came into the world in İzmir in 1972.",
                "Twenty-two years later she finished her degree, and six years after that she earned a doctorate.",
                "The next year she moved to Ankara.",
            ],
            [
                "She came into the world in İzmir in 1972.",
                "In 1994 she finished her degree, and in 2000 she earned a doctorate.",
                "In 2001 she moved to Ankara.",
            ],
        ),
        (  # "ten years on" after a year of the same sentence
            ["The honours came apart: the Hale Award in 2011 and, ten years on, the Lund Prize."],
            ["The honours came apart: the Hale Award in 2011 and, in 2021, the Lund Prize."],
        ),
        (  # "a decade later", and "that same year"
            ["He joined the institute in 1990.", "A decade later he became its director. That same year he married."],
            ["He joined the institute in 1990.", "In 2000 he became its director. In 2000 he married."],
        ),
        (  # counted back
            ["He won the league in 1998.", "Two years earlier he had won the Cup."],
            ["He won the league in 1998.", "In 1996 he had won the Cup."],
        ),
        (  # a qualified count stays qualified
            ["He studied drama, finishing around 2011, and started doing open mics about a year later."],
            ["He studied drama, finishing around 2011, and started doing open mics in about 2012."],
        ),
    ],
)
def test_a_date_relative_to_the_answers_own_year_is_read_as_that_year(sentences: list[str], read: list[str]) -> None:
    assert _read(sentences) == read


@pytest.mark.parametrize(
    "sentences",
    [
        # no year close before: two sentences back is no clear anchor
        ["He joined the institute in 1990.", "He liked it there.", "A decade later he became its director."],
        # the answer dates it itself
        ["He signed on in 1925.", "Three years later, in 1931, he was put in charge."],
        # an event the answer names: the page dates that (relative-date)
        ["She was born in 1950.", "Two years after the strike she founded the League."],
        # an uncounted "later", "a few years later"
        ["He joined Ajax in 1990.", "He moved to Milan later, and a few years later to Rome."],
    ],
)
def test_relative_dates_without_a_clear_anchor_are_left_as_written(sentences: list[str]) -> None:
    assert _read(sentences) == sentences


def test_a_rewritten_sentence_keeps_the_offsets_of_the_words_it_replaced() -> None:
    text = "Three years later he was put in charge."
    r = answer_years_read(["He signed on in 1925.", text])[1]
    assert r.rewritten and len(r.offsets) == len(r.text)
    assert r.text.startswith("In 1928 ") and r.offsets[r.text.index(" he")] == text.index(" he")
    # the year's token covers "Three years later" as written
    assert (r.offsets[3], r.offsets[6] + 1) == (0, len("Three years later"))


# --- destination-first -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "wanted", "unwanted"),
    [
        (
            "Achterberg came to London with her family in 1914.",
            {"Achterberg came to London in 1914.", "Achterberg came to London with her family."},
            "Achterberg came in 1914.",
        ),
        (
            "Tuğba Karaçelik came into the world in İzmir in 1972.",
            {"Tuğba Karaçelik came into the world in İzmir.", "Tuğba Karaçelik came into the world in 1972."},
            "Tuğba Karaçelik came in 1972.",
        ),
        ("She moved to Oslo in 2001.", {"She moved to Oslo in 2001."}, "She moved in 2001."),
        ("He went to Paris in 1990.", {"He went to Paris in 1990."}, "He went in 1990."),
        (
            "The year after leaving, she was put in charge of the centre.",
            {"The year after leaving she was put in charge of the centre."},
            "The year after leaving she was put.",
        ),
    ],
)
def test_a_verb_is_read_with_where_it_went(text: str, wanted: set[str], unwanted: str) -> None:
    facts = _facts(text)
    assert wanted <= set(facts) and unwanted not in facts
    assert unwanted in _facts(text, frozenset({DESTINATION_FIRST}))  # switched off: as before


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("He was born to a family of farmers in Ohio in 1950.", "He was born in 1950."),  # "born to" names parents
        ("She contributed to the journal in 1990 in Paris.", "She contributed in 1990."),  # no place gone to
        ("She spoke to the press in Oslo in 1990.", "She spoke in 1990."),  # "spoke to" goes nowhere
        ("He has been married since 1984 to Lisa Cooper.", "He has been married since 1984."),  # "married to"
    ],
)
def test_look_alikes_of_a_destination_are_read_as_before(text: str, fact: str) -> None:
    assert fact in _facts(text)


# --- predicate-name-description ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        (
            "The winemaker is Maximiliano de la Vega Urrutia, a Chilean born in Talca in 1967.",
            {"Maximiliano de la Vega Urrutia was born in Talca.", "Maximiliano de la Vega Urrutia was born in 1967."},
        ),
        (
            "The winemaker is Anna Berg, a Swede born in Lund in 1967.",
            {"Anna Berg is a Swede.", "Anna Berg was born in Lund.", "Anna Berg was born in 1967."},
        ),
        ("The founder is Kofi Mensah, a chemist trained in Accra.", {"Kofi Mensah is a chemist."}),
    ],
)
def test_a_description_after_a_predicate_name_is_said_of_the_name(text: str, wanted: set[str]) -> None:
    assert wanted <= set(_facts(text))
    off = _facts(text, frozenset({PREDICATE_NAME_DESCRIPTION}))
    assert not wanted & set(off)


@pytest.mark.parametrize(
    ("text", "unwanted"),
    [
        ("The winemaker met Anna Berg, a Swede born in Lund.", "Anna Berg was born in Lund."),  # no copula
        ("Anna Berg, a Swede born in Lund, is the winemaker.", "The winemaker is a Swede."),  # the subject's own
        ("The prize is the Hale Medal (a silver medal).", "The Hale Medal is a silver medal."),  # in parentheses
    ],
)
def test_look_alikes_of_a_predicate_name_description_say_nothing_of_it(text: str, unwanted: str) -> None:
    assert unwanted not in _facts(text)


# --- listed-occasions --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "dated"),
    [
        (
            "Vino y Tierra magazine named him Chilean Winemaker of the Year twice, in 2012 and 2019.",
            "Vino y Tierra magazine named him Chilean Winemaker of the Year in 2019.",
        ),
        ("She was voted player of the year twice, in 2010 and 2013.", "She was voted player of the year in 2013."),
        ("He was named captain twice, in 1990 and 1994.", "He was named captain in 1994."),
    ],
)
def test_each_listed_date_of_a_count_of_occasions_is_one_occasion(text: str, dated: str) -> None:
    facts = _facts(text)
    assert dated in facts
    assert any("twice" in f or "times" in f for f in facts)  # the count stays with the fact without a date
    assert dated not in _facts(text, frozenset({LISTED_OCCASIONS}))


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("She won the Hale Cup twice in 2004.", "She won the Hale Cup twice in 2004."),  # one date: both at once
        ("He won the race in 2001 and 2004.", "He won the race in 2004."),  # no count
        ("She was nominated twice, in Oslo.", "She was nominated twice in Oslo."),  # a place, not listed dates
    ],
)
def test_look_alikes_of_listed_occasions_keep_their_words(text: str, fact: str) -> None:
    assert fact in _facts(text)


# --- parenthesised-participle ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        (
            "He studied agronomy at the Maule University (graduating in 1990) and then trained in Bordeaux.",
            "He graduated in 1990.",
        ),
        ("She directed the observatory (retiring in 2016).", "She retired in 2016."),
        ("He played for Ajax (winning the league in 1995).", "He won the league in 1995."),
    ],
)
def test_a_participle_in_parentheses_is_a_fact_with_its_words(text: str, fact: str) -> None:
    assert fact in _facts(text)
    assert fact not in _facts(text, frozenset({PARENTHESISED_PARTICIPLE}))


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("He studied agronomy, graduating in 1990.", "He graduated in 1990."),  # no parentheses: as before
        ("She joined the club (founded in 1901).", "She joined the club."),  # a thing's participle, not hers
        ("He retired in 2016 (aged 70).", "He retired in 2016."),  # an age in parentheses
    ],
)
def test_look_alikes_of_a_parenthesised_participle_read_as_before(text: str, fact: str) -> None:
    assert fact in _facts(text) and fact in _facts(text, frozenset({PARENTHESISED_PARTICIPLE}))


def test_a_thing_participle_in_parentheses_is_no_fact_of_the_subject() -> None:
    assert "She was founded in 1901." not in _facts("She joined the club (founded in 1901).")


# --- named-relative-item -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "named", "bare"),
    [
        (
            "He lives in Concepción with his wife, the sommelier Claudia Fuentes, and their three daughters.",
            "He lives with the sommelier Claudia Fuentes.",
            "He lives with his wife.",
        ),
        (
            "In Istanbul she shares life with her husband, the ocean scientist Murat Erdem, and their daughter.",
            "She shares life with the ocean scientist Murat Erdem.",
            "She shares life with her husband.",
        ),
        (
            "She lives with her partner, the painter Ole Berg, and two cats.",
            "She lives with the painter Ole Berg.",
            "She lives with her partner.",
        ),
    ],
)
def test_a_relative_named_in_a_list_is_one_item(text: str, named: str, bare: str) -> None:
    facts = _facts(text)
    assert named in facts and bare not in facts
    assert bare in _facts(text, frozenset({NAMED_RELATIVE_ITEM}))


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("She released two albums, Choices and Leisure.", "She released Choices."),  # works listed: one fact each
        ("He lives with his wife and their three daughters.", "He lives with his wife."),  # no name
        ("He worked with his brother, Tom Berg.", "He worked with his brother."),  # no list after the name
    ],
)
def test_look_alikes_of_a_named_relative_keep_their_items(text: str, fact: str) -> None:
    assert fact in _facts(text)


# --- about-the-user ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fact",
    [
        "You're heading to the Itata Valley.",
        "You mentioned a trip to Chile.",
        "Your daughter loves them.",
        "We drafted the itinerary last week.",
    ],
)
def test_a_fact_about_the_user_is_no_claim(fact: str) -> None:
    assert classify_by_rule(fact) == (Worthiness.NOT_A_CLAIM, ABOUT_THE_USER)
    assert classify_by_rule(fact, rules_off=frozenset({ABOUT_THE_USER}))[1] != ABOUT_THE_USER


@pytest.mark.parametrize(
    "fact",
    [
        "You can visit the bodega on weekdays.",
        "You have to book ahead to tour the winery.",
        "Youssef Amrani was born in 1960.",
        "We know he was born in 1967.",
    ],
)
def test_a_general_you_stays_a_claim(fact: str) -> None:
    assert classify_by_rule(fact)[1] != ABOUT_THE_USER


def test_a_quoted_question_to_the_person_is_about_them() -> None:
    sentence = "“You've been teaching at Liffey University since 2020 — what do students get wrong?”"
    fact = "You've been teaching at Liffey University since 2020."
    assert classify_by_rule(fact, sentence)[1] != ABOUT_THE_USER


# --- rebound-year: a predicate said again ------------------------------------------------------------------------

_AGAIN = ["He was named Chilean Winemaker of the Year by the magazine Vino y Tierra in 2012 and again in 2019."]


@pytest.mark.parametrize(
    ("fact", "page"),
    [
        ("Vino y Tierra magazine named him Chilean Winemaker of the Year in 2019.", _AGAIN),
        ("She won the Hale Cup in 2014.", ["She won the Hale Cup in 2010 and once more in 2014."]),
        ("He chaired the Lund Council in 2009.", ["He chaired the Lund Council in 2001 and once again in 2009."]),
    ],
)
def test_a_year_the_page_gives_again_to_the_predicate_is_not_rebound(fact: str, page: list[str]) -> None:
    assert rebound_years(fact, page) == []


def test_a_year_given_to_another_predicate_is_still_rebound() -> None:
    page = ["He competed in the Meridian Ocean Race in 2014, finishing fourth, and won it in 2018."]
    assert [v.text for v in rebound_years("He won the Meridian Ocean Race in 2014.", page)] == ["2014"]
    page = ["She played in the Hale Cup in 2010 and once more in 2014, and won it in 2016."]
    assert [v.text for v in rebound_years("She won the Hale Cup in 2014.", page)] == ["2014"]


def test_a_year_said_again_for_another_event_does_not_rebind_the_first() -> None:
    page = [
        "Oduya represented Kenya in the 200 metres at the 2004 Summer Olympics in Athens, where he reached the "
        "semi-finals, and again at the 2008 Summer Olympics."
    ]
    assert rebound_years("Rafael Oduya was 200 m semi- 2004 Summer Olympics Athens.", page) == []


# --- idioms: sharing a life ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fact", "plain"),
    [
        ("She shares life with the ocean scientist Murat Erdem.", "She is married to the ocean scientist Murat Erdem."),
        ("He shares his life with Ana.", "He is married to Ana."),
        ("She shared her life with the poet Jan Berg.", "She was married to the poet Jan Berg."),
    ],
)
def test_sharing_a_life_reads_as_married(fact: str, plain: str) -> None:
    assert plain_reading(fact) == plain


@pytest.mark.parametrize("fact", ["She shares an office with Ana.", "He shares the prize with Jan.", "Lifelong fan."])
def test_other_sharing_is_read_as_written(fact: str) -> None:
    assert plain_reading(fact) == fact


def test_the_rules_are_known_by_name() -> None:
    names = (
        "answer-relative-years",
        SHORT_YEARS,
        DESTINATION_FIRST,
        PREDICATE_NAME_DESCRIPTION,
        LISTED_OCCASIONS,
        PARENTHESISED_PARTICIPLE,
        NAMED_RELATIVE_ITEM,
        JOINT_SUBJECT_RELATIVE,
        ABOUT_THE_USER,
    )
    assert rule_names(names) == frozenset(names)


def test_decompose_sentence_has_the_rules_on() -> None:
    assert "He graduated in 1990." in [f.text for f in decompose_sentence("He studied law (graduating in 1990).")]


# --- joint-subject-relative --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        (
            "She and her husband, the architect Joost Vermaat, have two sons.",
            "Her husband is the architect Joost Vermaat.",
        ),
        ("He and his wife, Ana Berg, run the farm.", "His wife is Ana Berg."),
        ("She and her partner, the painter Ole Dahl, live in Bergen.", "Her partner is the painter Ole Dahl."),
    ],
)
def test_a_joint_subjects_relative_named_between_commas_is_that_person(text: str, fact: str) -> None:
    assert fact in _facts(text)
    assert fact not in _facts(text, frozenset({JOINT_SUBJECT_RELATIVE}))


@pytest.mark.parametrize(
    "text",
    [
        "She and her husband, a keen sailor, have two sons.",  # a description, no name
        "She and her husband have two sons, Jan and Ole.",  # the names are the sons'
        "Her husband and she, the architects, built it.",  # no relative named
    ],
)
def test_look_alikes_of_a_joint_subjects_relative_name_no_one(text: str) -> None:
    assert not [f for f in _facts(text) if f.startswith(("Her husband is", "Her husband was"))]


# --- short-years ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentences", "read"),
    [
        (  # the century nearest the answer's own years
            ["Theodore Vance came out of Scranton in 1909 and went pro in '28.", "Married Lorraine Dutton in '34."],
            ["Theodore Vance came out of Scranton in 1909 and went pro in 1928.", "Married Lorraine Dutton in 1934."],
        ),
        (
            ["born '98 in Hải Phòng", "made the national youth squad in 2012", "champ in 2019 and 2023"],
            ["born 1998 in Hải Phòng", "made the national youth squad in 2012", "champ in 2019 and 2023"],
        ),
        (  # no full year: 19– from '30 on, 20– before
            ["He taught at the Keystone Gym, '46 through '65.", "She has played here since '05."],
            ["He taught at the Keystone Gym, 1946 through 1965.", "She has played here since 2005."],
        ),
    ],
)
def test_a_year_without_its_century_is_read_in_full(sentences: list[str], read: list[str]) -> None:
    assert [r.text for r in short_years_read(sentences)] == read


@pytest.mark.parametrize(
    "sentence",
    [
        "Late '90s (1996–99): ran the drilling on the glacier.",  # a decade
        "He said 'hello' to 'em and left.",  # quotes
        "Rock 'n' roll made him; his 1999 album sold 2,000 copies.",  # no two digits after the apostrophe
    ],
)
def test_look_alikes_of_a_short_year_stay_as_written(sentence: str) -> None:
    assert [r.text for r in short_years_read([sentence])] == [sentence]


# --- hedged-claims: a hedge after a dash before its value, "from what I recall" -----------------------------------


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        (
            "From what I recall, Ambrose Kettleby is an English stand-up, born in Leeds — I believe in 1990.",
            "Ambrose Kettleby is an English stand-up, born in Leeds in 1990.",
        ),
        ("He was born in Oslo — I think in 1950.", "He was born in Oslo in 1950."),
        ("She joined the orchestra — probably around 1995.", "She joined the orchestra around 1995."),
        ("As I recall, Ana Berg won the Hale Cup in 2004.", "Ana Berg won the Hale Cup in 2004."),
    ],
)
def test_a_hedge_before_a_value_goes_with_its_dash(text: str, claim: str) -> None:
    stripped, _, hedged = strip_hedges(text)
    assert hedged and stripped == claim


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        # the dash stands before a clause: it stays (only the hedge goes)
        (
            "The bridge over the Po — I believe it was completed in 1968.",
            "The bridge over the Po — it was completed in 1968.",
        ),
        # no hedge: as written
        ("He was born in Oslo — in 1950, to be exact.", "He was born in Oslo — in 1950, to be exact."),
        # "What I recall of …" is a subject, not a hedge: read as written
        ("What I recall of Leeds is its rain.", "What I recall of Leeds is its rain."),
    ],
)
def test_look_alikes_of_a_dashed_hedge_keep_their_dash(text: str, claim: str) -> None:
    assert strip_hedges(text)[0] == claim


# --- rebound-year: what the year's own part names -----------------------------------------------------------------

_RACER = [
    "Brandt won the German national road race championship twice, in 2015 and 2018, and took the overall title "
    "at the Tour of the Black Forest in 2017."
]


@pytest.mark.parametrize(
    "fact",
    [
        "A German former road racer won the Tour of the Black Forest in 2017.",
        "The German cyclist won the Tour of the Black Forest in 2017.",
        "A German rider won the Tour of the Black Forest in 2017.",
    ],
)
def test_a_name_the_subject_shares_with_another_part_does_not_rebind_the_year(fact: str) -> None:
    assert rebound_years(fact, _RACER, ["Anne-Sophie", "Brandt"]) == []


@pytest.mark.parametrize(
    "fact",
    [
        "Brandt won the German national road race championship in 2017.",
        "A German cyclist won the German national road race championship in 2017.",
        "She won the German national road race championship in 2017.",
    ],
)
def test_look_alikes_a_year_of_the_other_part_is_still_rebound(fact: str) -> None:
    assert [v.text for v in rebound_years(fact, _RACER, ["Anne-Sophie", "Brandt"])] == ["2017"]
