"""The items after a line that only names a thing are read with its name (rule ``thing-items``): "Acme X2 (2020):
4 external antennas · launched at $99" claims that the Acme X2 has the antennas and was launched at $99, where
before each item stood alone ("4 external antennas", a subject of its own)."""

from __future__ import annotations

import pytest

from scoring.offline import THING_ITEMS, _read
from scoring.records import named_thing, thing_item
from scoring.sentences import split_sentences


@pytest.mark.parametrize(
    ("item", "read"),
    [
        ("4 external antennas", "Halvard R5 has 4 external antennas."),
        ("Launched at $99", "Halvard R5 was launched at $99."),
        ("released in 2019", "Halvard R5 was released in 2019."),
        ("supports Wi-Fi 6", "Halvard R5 supports Wi-Fi 6."),
        ("2-year warranty", "Halvard R5 has 2-year warranty."),
    ],
)
def test_an_item_about_a_named_thing_is_read_with_its_name(item: str, read: str) -> None:
    assert thing_item(item, "Halvard R5").text == read


@pytest.mark.parametrize("item", ["It is sold in Norway", "reset = hold 10 s", "The app runs on iOS"])
def test_an_item_with_a_subject_or_no_phrase_stays_as_written(item: str) -> None:
    assert thing_item(item, "Halvard R5").text == item


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("Halvard R5 (2020):", "Halvard R5"),
        ("Corvane Nimbus AX3200 (2021).", "Corvane Nimbus AX3200"),
        ("Tallbrook —", "Tallbrook"),
        ("Halvard R5 is a router.", None),
        ("she was born in 1968", None),
        ("Marta Lind (1968):", None),
    ],
)
def test_a_line_of_nothing_but_a_name(line: str, name: str | None) -> None:
    assert named_thing(line) == name


def test_a_spec_line_is_read_as_claims_about_the_thing_it_names() -> None:
    answer = "Halvard R5 (2020): 4 external antennas · launched at $99 · supports Wi-Fi 6 · 2-year warranty."
    sentences = tuple(split_sentences(answer))
    readings, _ = _read(sentences, frozenset())
    texts = [r.text for r in readings]
    assert "Halvard R5 has 4 external antennas." in texts, texts
    assert "Halvard R5 was launched at $99." in texts, texts
    off, _ = _read(sentences, frozenset({THING_ITEMS}))
    assert not any(r.text.startswith("Halvard R5 has") for r in off), [r.text for r in off]


def test_a_persons_line_is_no_things_name() -> None:
    """A biography's listed description keeps the person's reading: items are read with "she", not as what a thing
    has."""
    answer = "Marta Lind (1968): cellist · founder of the Lind Quartet (2010) · teacher at the Oslo Conservatory."
    readings, _ = _read(tuple(split_sentences(answer)), frozenset())
    assert not any(" has principal" in r.text or "Marta Lind has" in r.text for r in readings), [
        r.text for r in readings
    ]
