"""``letter-furniture``: an answer written as an e-mail — its subject line, greeting and sign-off with the name
under it are not claims; the body is read as it is."""

from __future__ import annotations

import pytest

from scoring.segment.letter import LETTER_FURNITURE, furniture, is_greeting, is_sign_off, is_subject
from scoring.sentences import split_sentences

BODY = "Ingrid Vasshaug is a Norwegian ceramic artist, born in Stavanger in 1981."


@pytest.mark.parametrize(
    ("answer", "gone"),
    [
        # subject, greeting and sign-off each a paragraph of their own
        (
            f"Subject: Background on Ingrid Vasshaug\n\nHi Sarah,\n\n{BODY}\n\nBest regards,\nTom",
            ["Subject: Background on Ingrid Vasshaug", "Hi Sarah,", "Best regards,", "Tom"],
        ),
        # all in one paragraph, a team under the sign-off
        (
            f"Subject: Welcome to Northgate — a few practical details\nDear Alex,\n{BODY}\nWarm wishes,\n"
            "The Northgate Seed Library team",
            ["Subject", "Dear Alex", "Warm wishes", "Northgate Seed Library team"],
        ),
        # a greeting to many, a sign-off that names a day
        (f"Hi all,\n{BODY}\nSee you Thursday,\nPriya", ["Hi all", "See you Thursday", "Priya"]),
        # a reply's subject, a bold greeting, a sign-off with no name under it
        (f"Re: your question about the potter\n**Hello team!**\n{BODY}\nCheers,", ["Re:", "Hello team", "Cheers"]),
    ],
)
def test_the_letters_furniture_is_no_sentence(answer: str, gone: list[str]) -> None:
    texts = [s.text for s in split_sentences(answer)]
    assert texts == [BODY]
    off = " ".join(s.text for s in split_sentences(answer, frozenset({LETTER_FURNITURE})))
    assert all(g.strip("*:,") in off for g in gone)


@pytest.mark.parametrize(
    "answer",
    [
        # a greeting that goes on into the answer: the line says more than hello
        f"Hi all, here is what I found on her. {BODY}",
        # a line ending in a comma that is no sign-off, a place under it
        f"{BODY}\nShe was later based in Bergen,\nNorway",
        # "Best" opening a sentence of the body; a label that is no subject
        f"{BODY}\nBest known for her ash glazes, she won the Saga Ceramics Prize in 2012.",
        f"Born: 1981, Stavanger\n{BODY}",
        # a sign-off in the middle of the answer, with the body after it
        f"Thanks,\n{BODY}\nShe won the Saga Ceramics Prize in 2012.",
    ],
)
def test_look_alikes_keep_their_lines(answer: str) -> None:
    on = [s.text for s in split_sentences(answer)]
    off = [s.text for s in split_sentences(answer, frozenset({LETTER_FURNITURE}))]
    assert on == off


def test_lines_read_one_by_one() -> None:
    assert is_subject("Subject: Background") and is_subject("**Subject:** Background") and is_subject("Fwd: bio")
    assert not is_subject("Born: 1981") and not is_subject("Subject to change, she said.")
    assert is_greeting("Dear Alex,") and is_greeting("Good morning everyone!") and is_greeting("Hey Sam")
    assert not is_greeting("Hello Kitty was her first design.") and not is_greeting("Hidden talents: ceramics")
    assert is_sign_off("Kind regards,") and is_sign_off("Thanks again,") and is_sign_off("All the best,")
    assert not is_sign_off("Best known for glazes,") and not is_sign_off("Kind regards") and not is_sign_off("Yes,")
    # a sign-off needs only signature lines after it: a dated line is no signature
    assert furniture(["Body.", "Best,", "Tom"]) == {1, 2}
    assert furniture(["Body.", "Yours,", "The Northgate team"]) == {1, 2}
    assert furniture(["Body.", "Best,", "since 2019"]) == set()
    assert furniture(["Body.", "Best,", "Born in 2019."]) == set()
