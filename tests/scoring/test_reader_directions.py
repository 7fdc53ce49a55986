"""Sentences of the document's situation that are no claims about its subject: directions to the reader on using
the document or the place it describes (`reader-directions`), and statements about the document itself — its
research, what its code will draw, the layout of its parts (`about-the-document`). The phrasings are ours, written
for this test; a fact with a person, a year or the subject's name in it must stay a claim."""

from __future__ import annotations

import pytest

from schemas.enums import Worthiness
from scoring.worthiness import ABOUT_THE_DOCUMENT, READER_DIRECTION, classify_by_rule

DIRECTIONS = [
    "Paste it into any PlantUML renderer.",
    "Continue to 4.4 The Misericords.",
    "You can open it in Word.",
    "Copy the block below into a file.",
    "Skip to section 3 for the awards.",
    "Then scroll down to the table.",
    "Make sure the record is attached, not just the name.",
    "▶ Listen on the festival playlist.",
    "Add a 667 general note to each.",
    "Binoculars may be borrowed from the bookstall.",
    "Tickets can be bought at the west door.",
    "The figures in the upper tracery are best seen in the late morning.",
    "The crypt is best visited in the afternoon.",
    "The misericords are worth the extra ten minutes too.",
    "The tower is well worth the climb.",
]

ABOUT_DOCUMENT = [
    "Research completed 14 sources consulted · 6 min.",
    "It will draw one bar per phase with milestones for results.",
    "The diagram will show each appointment as a box.",
    "The NOTE is folded at 75 characters.",
    "An English line follows each gloss line.",
    "Only the years are meaningful.",
    "The club bar's length is arbitrary.",
    "Each entry is truncated at 80 characters.",
    "Any Markdown editor renders Mermaid.",
    "Your editor shows each move.",
    "Most browsers will display the file as a table.",
]

# Claims shaped like them: a person, a year, a name after the verb, a value of the subject's.
CLAIMS = [
    "Continue to 1901, when she won the Gold Medal.",
    "Her book was borrowed by 3,000 readers.",
    "She opened a studio in Paris in 1990.",
    "Open Studio was founded by Ada Brook.",
    "Print Magazine named the studio its design firm of the year.",
    "He printed his first book in 1950.",
    "Her paintings are best known for their colour.",
    "Her sketches may be borrowed from the library.",
    "The line was opened in 1901.",
    "The prize is worth $10,000.",
    "His notes are held at the Bodleian.",
    "The years in Paris were her happiest.",
    "It will open in 2027.",
    "Copying manuscripts was her first job.",
    "Her research was completed in 1998.",
    "The chart will show that she won in 1990.",
    "She added a chapel to the church in 1902.",
    "Listen to her 1972 recording of the suite.",
    "Her editor showed the manuscript to the board.",
    "The app was launched by Ada Brook in 2014.",
    "Make sure of her title.",
]


@pytest.mark.parametrize("text", DIRECTIONS)
def test_directions_to_the_reader_are_no_claims(text: str) -> None:
    assert classify_by_rule(text, text) == (Worthiness.NOT_A_CLAIM, READER_DIRECTION)


@pytest.mark.parametrize("text", ABOUT_DOCUMENT)
def test_statements_about_the_document_are_other(text: str) -> None:
    assert classify_by_rule(text, text) == (Worthiness.OTHER, ABOUT_THE_DOCUMENT)


@pytest.mark.parametrize("text", CLAIMS)
def test_claims_shaped_like_them_stay_claims(text: str) -> None:
    assert classify_by_rule(text, text)[1] not in (READER_DIRECTION, ABOUT_THE_DOCUMENT)


def test_a_sentence_about_the_person_keeps_its_direction_a_claim() -> None:
    sentence = "Continue to the next room, where her portrait hangs."
    assert classify_by_rule("Continue to the next room.", sentence)[1] != READER_DIRECTION


def test_the_subjects_name_put_in_keeps_it_a_claim() -> None:
    text = "Ada Brook copied the manuscript."
    assert classify_by_rule(text, text, bare="copied the manuscript.")[1] != READER_DIRECTION


def test_rules_off() -> None:
    text = "Paste it into any PlantUML renderer."
    off = frozenset({READER_DIRECTION, ABOUT_THE_DOCUMENT})
    assert classify_by_rule(text, text, rules_off=off)[1] != READER_DIRECTION
