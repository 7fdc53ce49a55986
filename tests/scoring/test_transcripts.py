from __future__ import annotations

import pytest

from knowledge.store import Store
from scoring.pipeline import CheckConfig, check
from scoring.records import unchanged
from scoring.transcripts import ANSWER_LABEL, LABEL_RULES, SPEAKER_LABEL, unlabelled


@pytest.mark.parametrize(
    ("sentence", "read"),
    [
        (
            "A: Tallyleaf is a budgeting app from Greenmarch Software.",
            "Tallyleaf is a budgeting app from Greenmarch Software.",
        ),
        ("Answer: She was born in Osaka in 1974.", "She was born in Osaka in 1974."),
        ("A: Yes — stored data is encrypted with AES-256.", "Yes — stored data is encrypted with AES-256."),
        ("Ans: The free tier allows two linked accounts.", "The free tier allows two linked accounts."),
        ("A : Linked accounts sync every four hours.", "Linked accounts sync every four hours."),
    ],
)
def test_an_answer_label_is_no_word_of_the_claim(sentence: str, read: str) -> None:
    reading = unlabelled(unchanged(sentence))
    assert reading.text == read and reading.rewritten
    # each character still points at itself in the sentence as written
    assert all(sentence[o] == c for o, c in zip(reading.offsets, reading.text, strict=True))
    assert unlabelled(unchanged(sentence), frozenset({ANSWER_LABEL})).text == sentence


@pytest.mark.parametrize(
    "sentence",
    [
        "A. J. Ayer was a philosopher.",  # initials, not a label
        "A major award followed: the Kessler Medal.",
        "Plan A: expand to Europe by 2020.",
        "Anna: a novel in three parts.",
        "AES: the cipher it uses.",
        "Q: Where was he born?",  # a question's label is the question rule's
    ],
)
def test_what_is_no_answer_label_stays(sentence: str) -> None:
    assert unlabelled(unchanged(sentence)).text == sentence


def test_the_rule_objects_hold_their_phrasings() -> None:
    assert [r.name for r in LABEL_RULES] == [ANSWER_LABEL, SPEAKER_LABEL]
    for rule in LABEL_RULES:
        assert len(rule.examples) >= 3
        assert all(unlabelled(unchanged(e)).text != e for e in rule.examples)


@pytest.mark.parametrize(
    ("sentence", "read"),
    [
        ("[00:13] JON: Born in Tolosa, in Gipuzkoa, in 1981.", "Born in Tolosa, in Gipuzkoa, in 1981."),
        ("[00:00] HOST (IRATI): Welcome back to the show.", "Welcome back to the show."),
        ("[1:02:45] She retired as a player in 2014.", "She retired as a player in 2014."),
        ("(12:30) DR. OKAFOR: The trial ran for six years.", "The trial ran for six years."),
        ("GUEST: She won the national title in 2004.", "She won the national title in 2004."),
        ("CO-HOST (ANA): He coached the side until 2019.", "He coached the side until 2019."),
        ("INTERVIEWER: You joined the club in 1998.", "You joined the club in 1998."),
    ],
)
def test_a_speakers_time_stamp_and_label_are_no_words_of_the_claim(sentence: str, read: str) -> None:
    reading = unlabelled(unchanged(sentence))
    assert reading.text == read and reading.rewritten
    assert all(sentence[o] == c for o, c in zip(reading.offsets, reading.text, strict=True))
    assert unlabelled(unchanged(sentence), frozenset({SPEAKER_LABEL})).text == sentence


@pytest.mark.parametrize(
    "sentence",
    [
        "NASA: founded in 1958, the agency ran the Apollo programme.",  # capitals with no stamp and no role
        "Born: 1976, Akureyri, Iceland",  # a field
        "USA: she moved there in 1990.",
        "10:30 is when the museum opens.",  # a time as the subject
        "Ratio 3:2 was the final score.",
        "HOSTING: the club hosted the final in 2001.",  # a word that starts like a role
    ],
)
def test_what_is_no_speaker_label_stays(sentence: str) -> None:
    assert unlabelled(unchanged(sentence)).text == sentence


PAGES = [
    (
        "Corvane Ledger",
        "Corvane Ledger is a bookkeeping app from Halden Software, based in Bergen. It launched in 2018. Stored data "
        "is encrypted with AES-256. The free tier allows one linked bank account.",
    ),
]
FAQ = (
    "**Q: What is Corvane Ledger?**\nA: Corvane Ledger is a bookkeeping app from Halden Software.\n\n"
    "**Q: Is my data safe?**\nA: Yes — stored data is encrypted with AES-256.\n\n"
    "**Q: How many accounts are free?**\nA: The free tier allows one linked bank account."
)


def test_a_faqs_answers_are_checked_without_their_labels() -> None:
    store = Store.in_memory(PAGES)
    facts = [f.text for g in check(FAQ, kb=store, name="Corvane Ledger").groups for f in g.facts]
    assert not any(t.startswith(("A ", "A:", "An ")) for t in facts), facts
    assert any("encrypted with AES-256" in t for t in facts), facts
    off = check(FAQ, kb=store, name="Corvane Ledger", config=CheckConfig().without([ANSWER_LABEL]))
    assert any(t.startswith(("A ", "A:", "An ")) for g in off.groups for t in (f.text for f in g.facts))
