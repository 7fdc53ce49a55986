"""Titles split into base name and disambiguator; names folded into look-up keys."""

from __future__ import annotations

import pytest

from knowledge.names import KEY_FIRST_LAST, KEY_FULL, KEY_NO_INITIALS, entity_keys, fold, name_keys, split_title


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("Dick Hanley (American football)", ("Dick Hanley", "American football")),
        ("Dick Hanley (swimmer)", ("Dick Hanley", "swimmer")),
        ("Joseph F. Smith", ("Joseph F. Smith", None)),
        ("John Stewart, Duke of Albany", ("John Stewart", "Duke of Albany")),
        ("Sammy Davis, Jr.", ("Sammy Davis, Jr.", None)),
        ("Paris, Texas", ("Paris, Texas", None)),
        ("  Gavin   Hamilton  (painter) ", ("Gavin Hamilton", "painter")),
        ("(swimmer)", ("(swimmer)", None)),
    ],
)
def test_split_title(title: str, expected: tuple[str, str | None]) -> None:
    assert split_title(title) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Dick Hanley", "dick hanley"),
        ("José  Álvarez-Núñez", "jose alvarez nunez"),
        ("Gavin Hamilton, 2nd Baron", "gavin hamilton 2nd baron"),
        ("ÆTHELRED", "aethelred"),  # transliterated, as "Aethelred" is written without the ligature
        ("Władysław Żeleński", "wladyslaw zelenski"),
        ("Straße", "strasse"),
        ("Søren Ødegaard", "soren odegaard"),
        ("Þórður Guðjónsson", "thordur gudjonsson"),
        ("Мстислав Ростропович", "mstislav rostropovich"),
        ("", ""),
    ],
)
def test_fold(text: str, expected: str) -> None:
    assert fold(text) == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Dick Hanley", [("dick hanley", KEY_FULL)]),
        ("Joseph F. Smith", [("joseph f smith", KEY_FULL), ("joseph smith", KEY_NO_INITIALS)]),
        ("Joseph F. Smith Jr.", [("joseph f smith", KEY_FULL), ("joseph smith", KEY_NO_INITIALS)]),
        ("John Young Stewart", [("john young stewart", KEY_FULL), ("john stewart", KEY_FIRST_LAST)]),
        (
            "Martin L. King III",
            [("martin l king", KEY_FULL), ("martin king", KEY_NO_INITIALS)],
        ),
        ("J. Smith", [("j smith", KEY_FULL)]),
        ("Madonna", [("madonna", KEY_FULL)]),
        ("...", []),
    ],
)
def test_name_keys(name: str, expected: list[tuple[str, int]]) -> None:
    assert name_keys(name) == expected


def test_entity_keys_keep_the_strictest_route_to_each_key() -> None:
    keys = entity_keys("Joseph F. Smith", ["Joseph Smith", "Joseph Fielding Smith"])
    assert keys == {
        "joseph f smith": (KEY_FULL, 0),
        "joseph smith": (KEY_FULL, 1),  # the alias reaches it strictly; the base name only without initials
        "joseph fielding smith": (KEY_FULL, 1),
    }
