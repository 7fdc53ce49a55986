"""Decontextualisation, check-worthiness and abstention: pure functions on text."""

from __future__ import annotations

import pytest

from schemas.enums import Worthiness
from scoring.abstain import is_abstention
from scoring.decontext import decontextualize
from scoring.worthiness import classify


@pytest.mark.parametrize(
    ("fact", "subject", "name", "expected"),
    [
        ("He died in 1970.", "He", "Dick Hanley", "Dick Hanley died in 1970."),
        ("In 1931 he published a book.", "he", "Tahar Haddad", "In 1931 Tahar Haddad published a book."),
        ("She won the title.", "She", "Elsa Pataky", "Elsa Pataky won the title."),
        ("His father was a farmer.", "His father", "Dick Hanley", "Dick Hanley's father was a farmer."),
        ("Hanley coached Northwestern.", "Hanley", "Dick Hanley", "Dick Hanley coached Northwestern."),
        (
            "The other Joseph F. Smith was a politician.",
            "The other Joseph F. Smith",
            "Joseph F. Smith",
            "Joseph F. Smith was a politician.",
        ),
        ("The team won the title.", "The team", "Dick Hanley", "The team won the title."),
        ("Dick Hanley died in 1970.", "Dick Hanley", "Dick Hanley", "Dick Hanley died in 1970."),
    ],
)
def test_decontextualize(fact: str, subject: str, name: str, expected: str) -> None:
    assert decontextualize(fact, subject, name) == expected


@pytest.mark.parametrize(
    ("fact", "sentence", "expected"),
    [
        ("Dick Hanley died in 1970.", "", Worthiness.FACTUAL),
        ("Dick Hanley was head coach at Northwestern from 1927 to 1934.", "", Worthiness.FACTUAL),
        ("I hope this helps!", "", Worthiness.NOT_A_CLAIM),
        ("Who was Dick Hanley?", "", Worthiness.NOT_A_CLAIM),
        ("Joseph F. Smith may refer to.", "Joseph F. Smith may refer to:", Worthiness.NOT_A_CLAIM),
        ("There are multiple people named Robert Rutherford in the search results.", "", Worthiness.OTHER),
        ("There is also a John Hemming.", "", Worthiness.OTHER),
        ("The provided passages do not mention his birth date.", "", Worthiness.OTHER),
        ("Information on Fyfe's life beyond his career is scarce.", "", Worthiness.OTHER),
        ("Francis Drake was a name shared by several notable individuals.", "", Worthiness.OTHER),
        ("I think he was the greatest coach.", "", Worthiness.OPINION),
        ("His legacy continues to inspire young swimmers.", "", Worthiness.OPINION),
    ],
)
def test_classify(fact: str, sentence: str, expected: Worthiness) -> None:
    assert classify(fact, sentence) is expected


@pytest.mark.parametrize(
    ("answer", "abstained"),
    [
        ("I'm sorry, but I could not find any information about Dick Hanley.", True),
        ("I could not find information about John Smith. If you have more details, please let me know.", True),
        ("I am not familiar with a person named Zed Quxley.", True),
        ("I don't have any information about a person named Gavin Hamilton.", True),
        ("", True),
        # a search snippet's "no results" line
        ("No reliable results found for an appraisal of this item.\n\nSources: none matched your query.", True),
        ("No results found for Zed Quxley.", True),
        ("No matches were found for a clockmaker named Zed Quxley.", True),
        ("Dick Hanley was a football coach. I could not find his birth date.", False),
        ("Dick Hanley was a football coach. No results were found for his birth date.", False),
        (
            "Unfortunately, there is no specific person named Anthony Cole in the results. The closest match is Cole "
            "Anthony, an American basketball player born on May 15, 2000.",
            False,
        ),
        ("Dick Hanley was an American swimmer who won a silver medal in 1956.", False),
    ],
)
def test_is_abstention(answer: str, abstained: bool) -> None:
    assert is_abstention(answer) is abstained
