"""Years and dates read in the role the answer gives them: a range after a place is a tenure there
(`place-held-years`), a birth name in parentheses is a name (`birth-name-parenthesis`), a date after a
participle's place and region is the participle's (`trailing-participle-date`)."""

from __future__ import annotations

import pytest

from scoring import nlp
from scoring.decompose import decompose_doc
from scoring.parse_rules import (
    BIRTH_NAME_PARENTHESIS,
    IMPERATIVE_CONSEQUENCE,
    PLACE_HELD_YEARS,
    TRAILING_PARTICIPLE_DATE,
)
from scoring.rulebook import rule_names


def _facts(text: str, off: frozenset[str] = frozenset()) -> list[str]:
    return [f.text for f in decompose_doc(nlp.parse_one(text), 0, off)]


def test_the_rules_are_known_by_name() -> None:
    names = (PLACE_HELD_YEARS, BIRTH_NAME_PARENTHESIS, TRAILING_PARTICIPLE_DATE, IMPERATIVE_CONSEQUENCE)
    assert rule_names(names) == frozenset(names)


# --- place-held-years --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "life"),
    [
        (
            "He studied medicine at the Rhône Medical Faculty in Lyon (1975–1982) and specialised in Marseille.",
            "Lyon was born in 1975.",
        ),
        ("Mayor of Linden Falls (1999–2007)", "Linden Falls was born in 1999."),
        ("She trained at Marlowe (1980–1984).", "Marlowe was born in 1980."),
    ],
)
def test_a_range_after_where_something_was_held_is_no_life(text: str, life: str) -> None:
    assert life not in _facts(text)
    assert life in _facts(text, frozenset({PLACE_HELD_YEARS}))


@pytest.mark.parametrize(
    ("text", "life"),
    [
        (
            '"Ironhand" Vance was the ring name of Theodore Vance (1909–1971), an American middleweight.',
            "Theodore Vance was born in 1909.",
        ),
        ("She studied with Nadia Boulanger (1887–1979) in Paris.", "Nadia Boulanger was born in 1887."),
        ("He was a pupil of Anton Berg (1885–1935).", "Anton Berg died in 1935."),
        ("The prize is named in honour of Edith Marr (1901–1977).", "Edith Marr was born in 1901."),
    ],
)
def test_look_alikes_a_persons_life_after_with_or_of_stays(text: str, life: str) -> None:
    assert life in _facts(text)


# --- birth-name-parenthesis --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        (
            "Billie Trask (born Wilhelmina Trask, 1927–2008) was a jazz drummer.",
            [
                "Billie Trask is also known as Wilhelmina Trask.",
                "Billie Trask was born in 1927.",
                "Billie Trask died in 2008.",
            ],
        ),
        (
            "Ruth Hale (née Ruth Castor, b. 1931) is a painter.",
            ["Ruth Hale is also known as Ruth Castor.", "Ruth Hale was born in 1931."],
        ),
        (
            "Bobby Lee (born Robert Lee in 1950) is a singer.",
            ["Bobby Lee is also known as Robert Lee.", "Bobby Lee was born in 1950."],
        ),
    ],
)
def test_a_birth_name_in_parentheses_is_a_name_and_its_dates_are_dates(text: str, facts: list[str]) -> None:
    got = _facts(text)
    assert all(f in got for f in facts), got
    assert not any("born on" in f for f in got), got
    assert not any(f in _facts(text, frozenset({BIRTH_NAME_PARENTHESIS})) for f in facts[:1])


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Billie Trask (born 1927, Kansas City) was a drummer.", "Billie Trask was born in Kansas City."),
        ("Billie Trask (born 3 March 1927) was a drummer.", "Billie Trask was born on 3 March 1927."),
        ("Billie Trask (born March 3, 1927) was a drummer.", "Billie Trask was born on March 3, 1927."),
        ("Billie Trask (born in Oslo) was a drummer.", "Billie Trask was born in Oslo."),
    ],
)
def test_look_alikes_a_date_or_place_after_born_reads_as_before(text: str, fact: str) -> None:
    got = _facts(text)
    assert fact in got and not any("also known as" in f for f in got), got


# --- trailing-participle-date ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fact", "misread"),
    [
        (
            "Fionnuala Ní Bhraonáin is an Irish harpist and singer born in Dingle, County Kerry, in 1977.",
            "Fionnuala Ní Bhraonáin was born in 1977.",
            "Fionnuala Ní Bhraonáin is a harpist in 1977.",
        ),
        (
            "Oona Castelvecchi is an American crime writer, born in Providence, Rhode Island, in 1966.",
            "Oona Castelvecchi was born in 1966.",
            "Oona Castelvecchi is a crime writer, in 1966.",
        ),
        (
            "She is a crime writer born in Providence, Rhode Island, in 1966.",
            "She was born in 1966.",
            "She is a crime writer born in Providence, Rhode Island, in 1966.",
        ),
    ],
)
def test_a_date_after_a_participles_place_and_region_is_the_participles(text: str, fact: str, misread: str) -> None:
    got = _facts(text)
    assert fact in got and misread not in got, got
    assert misread in _facts(text, frozenset({TRAILING_PARTICIPLE_DATE}))


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("She is a painter, born in Lyon in 1950.", "She was born in 1950."),  # no region: as before
        ("She is a painter born in Oslo, and in 1990 she moved to Paris.", "In 1990 she moved to Paris."),
        ("She is a painter, born in Lyon, France, in the Rhône valley.", "She was born in the Rhône valley."),
    ],
)
def test_look_alikes_of_a_trailing_date_read_as_before(text: str, fact: str) -> None:
    assert fact in _facts(text) and fact in _facts(text, frozenset({TRAILING_PARTICIPLE_DATE}))


# --- imperative-consequence ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "advice", "misread"),
    [
        (
            "Orbisync doesn't offer a mobile backup app, so use a computer for this.",
            "Use a computer.",
            "Does Orbisync use a computer.",
        ),
        ("The app doesn't work offline, so download the maps first.", "Download the maps first.", None),
        ("She can edit photos, so share them with friends.", "Share them with friends.", None),
    ],
)
def test_a_bare_verb_after_so_is_advice_with_no_subject(text: str, advice: str, misread: str | None) -> None:
    got = {f.text: f.subject for f in decompose_doc(nlp.parse_one(text), 0, frozenset())}
    assert got.get(advice) == "", got
    if misread is not None:
        assert misread not in got
        assert misread in _facts(text, frozenset({IMPERATIVE_CONSEQUENCE}))


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("He did not win, so he retired.", "He retired."),  # a subject of its own
        ("He doesn't drink or smoke.", "He doesn't drink."),  # no "so"
        ("He will train in Oslo and then compete in Bergen.", "He will train in Oslo."),  # "and then": same subject
    ],
)
def test_look_alikes_of_advice_keep_their_subject(text: str, fact: str) -> None:
    got = {f.text: f.subject for f in decompose_doc(nlp.parse_one(text), 0, frozenset())}
    assert got.get(fact) == "He", got
    assert all(subject == "He" for subject in got.values()), got
