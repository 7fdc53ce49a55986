"""Readings that broke on blind answers (issue 28): each written as the pattern behind it, with look-alikes that
must keep their reading."""

from __future__ import annotations

import pytest

from scoring import nlp
from scoring.decompose import decompose_sentence
from scoring.offline import BARE_ANSWER, _read
from scoring.records import asked, thing_name
from scoring.sentences import split_sentences
from scoring.subject import infer_subject


@pytest.mark.parametrize(
    "first",
    [
        "There are two:",
        "There is one plan for teams:",
        "Here are the main features:",
        "These are the specs:",
        "It is a budgeting app.",
        "This is what the X2 offers:",
    ],
)
def test_an_existential_or_pointing_opening_names_no_thing(first: str) -> None:
    assert thing_name([first, "Security: AES-256 encryption"]) is None


@pytest.mark.parametrize(
    ("first", "name"),
    [
        ("Tallyleaf is a personal budgeting app.", "Tallyleaf"),
        ("Acme X2 is a dual-band router.", "Acme X2"),
        ("Thereon Labs is a startup in Oslo.", "Thereon Labs"),
        ("Heren Cloud was launched in 2019.", "Heren Cloud"),
    ],
)
def test_a_thing_named_at_the_start_is_the_things_name(first: str, name: str) -> None:
    assert thing_name([first]) == name


@pytest.mark.parametrize(
    ("sentence", "facts"),
    [
        ("Having won the cup in 1990, he retired.", ["He retired.", "He won the cup.", "He won the cup in 1990."]),
        ("After winning the cup in 1990, he retired.", ["He retired.", "He won the cup.", "He won the cup in 1990."]),
        ("Having lost the final, she resigned.", ["She resigned.", "She lost the final."]),
        ("He taught and she composed.", ["He taught.", "She composed."]),
        # look-alikes: a linking verb left alone says nothing; a thing's bare verb is no person's fact
        ("Having signed in 1990, he was.", ["He signed in 1990."]),
        ("Having won the cup, it broke.", ["It won the cup."]),
    ],
)
def test_a_persons_bare_verb_after_an_opening_phrase_is_a_fact(sentence: str, facts: list[str]) -> None:
    assert [f.text for f in decompose_sentence(sentence)] == facts


@pytest.mark.parametrize(
    ("answer", "subject"),
    [
        ("Born in Kraków, Ewa Nowak joined the Warsaw Philharmonic in 1990.", "Ewa Nowak"),
        ("Having won the Paulo Prize in 1990, Marta Lind retired in 2005.", "Marta Lind"),
        ("Raised in Oslo, Marta Lind studied in Vienna.", "Marta Lind"),
        ("Trained by Anna Berg, Marta Lind became a cellist.", "Marta Lind"),
        # look-alikes: a person who is the subject, or who opens a sentence about no named subject, stays
        ("Anna Berg taught Marta Lind in Oslo.", "Anna Berg"),
        ("With Anna Berg, the quartet toured Japan.", "Anna Berg"),
    ],
)
def test_the_subject_after_an_opening_phrase_is_whom_the_answer_is_about(answer: str, subject: str) -> None:
    assert infer_subject(answer) == subject


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        ("Tickets are reviewed daily; tickets auto-close after 7 days.", "Tickets auto-close after 7 days."),
        ("Support is open on weekdays; tickets close after 7 days.", "Tickets close after 7 days."),
        ("Chats stay open for a week; chats auto-archive after 90 days.", "Chats auto-archive after 90 days."),
        (
            "Invoices are emailed monthly; unpaid invoices auto-cancel after 30 days.",
            "Unpaid invoices auto-cancel after 30 days.",
        ),
        ("Tickets auto-close after 7 days.", "Tickets auto-close after 7 days."),
    ],
)
def test_a_semicolon_clause_whose_verb_reads_as_a_noun_is_a_fact_of_its_own(sentence: str, fact: str) -> None:
    facts = decompose_sentence(sentence)
    assert fact in [f.text for f in facts], [f.text for f in facts]
    # no fact is made of the words of both clauses ("Tickets is tickets auto-close …")
    cut = next((t.i for t in nlp.parse_one(sentence) if t.text == ";"), None)
    if cut is not None:
        assert all(max(f.tokens) < cut or min(f.tokens) > cut for f in facts), [f.text for f in facts]


@pytest.mark.parametrize(
    ("sentence", "facts"),
    [
        # look-alikes: clauses the whole parse already keeps apart stay as they were read
        (
            "Tallyleaf is mobile-only; there is no web version.",
            ["There is no web version.", "Tallyleaf is mobile only."],
        ),
        ("The plan costs $9; updates ship weekly.", ["Updates ship weekly.", "The plan costs $9."]),
        (
            "Plans renew monthly; invoices are sent on the 1st.",
            ["Invoices are sent on the 1st.", "Plans renew monthly."],
        ),
    ],
)
def test_semicolon_clauses_read_apart_by_the_whole_parse_stay(sentence: str, facts: list[str]) -> None:
    assert [f.text for f in decompose_sentence(sentence)] == facts


def test_a_semicolon_clauses_facts_point_at_its_own_words() -> None:
    sentence = "Tickets are reviewed daily; tickets auto-close after 7 days."
    fact = next(f for f in decompose_sentence(sentence) if "auto-close" in f.text)
    doc = nlp.parse_one(sentence)
    assert [doc[i].text for i in sorted(fact.tokens)] == ["tickets", "auto-close", "after", "7", "days"]


@pytest.mark.parametrize(
    ("sentence", "born"),
    [
        (
            "Its first cellist (b. 1968, Kraków) left in 1995.",
            ["Its first cellist was born in 1968.", "Its first cellist was born in Kraków."],
        ),
        (
            "She performed with the cellist (b. 1968, Kraków) Ewa Nowak in 1999.",
            ["Ewa Nowak was born in 1968.", "Ewa Nowak was born in Kraków."],
        ),
        (
            "She married the Polish cellist (b. 1968, Kraków) in 1999.",
            ["The Polish cellist was born in 1968.", "The Polish cellist was born in Kraków."],
        ),
        (
            "She studied with her teacher, the cellist (born 1931, Riga), in Oslo.",
            ["The cellist was born in 1931.", "The cellist was born in Riga."],
        ),
        # as before: at the start of a sentence, and after a name
        (
            "The cellist (b. 1968, Kraków) won the Paulo Prize.",
            ["The cellist was born in 1968.", "The cellist was born in Kraków."],
        ),
        (
            "Mei-Lin Osterhagen the chemist (b. 1970, Hamburg) works in Kiel.",
            ["Mei-Lin Osterhagen was born in 1970.", "Mei-Lin Osterhagen was born in Hamburg."],
        ),
    ],
)
def test_a_birth_in_parentheses_after_a_role_is_the_roles_persons(sentence: str, born: list[str]) -> None:
    facts = [f.text for f in decompose_sentence(sentence)]
    assert [f for f in facts if " was born " in f] == born, facts


@pytest.mark.parametrize(
    "sentence",
    [
        "She won the prize (1990) in Oslo.",  # a year after a thing dates it
        "She toured with cellists (b. 1968 and 1970) in Oslo.",  # a bare plural presents no one
        "She joined the quartet (b. 1990, Oslo) in 1995.",  # an ensemble is no person
    ],
)
def test_a_parenthesis_after_no_role_gives_no_birth(sentence: str) -> None:
    assert not [f.text for f in decompose_sentence(sentence) if " was born " in f.text]


@pytest.mark.parametrize(
    ("question", "answer", "read"),
    [
        (
            "Does Tallyleaf support two-factor authentication?",
            "Yes, since 2019.",
            "Tallyleaf supports two-factor authentication, since 2019.",
        ),
        (
            "Does Tallyleaf support two-factor authentication?",
            "No.",
            "Tallyleaf does not support two-factor authentication.",
        ),
        (
            "How many users can share one Tallyleaf Family plan?",
            "Sixteen.",
            "Sixteen users can share one Tallyleaf Family plan.",
        ),
        ("How many devices does the Family plan cover?", "Five.", "The Family plan covers Five devices."),
        ("Is the Family plan free?", "Yes.", "The Family plan is free."),
        ("Can Tallyleaf export to CSV?", "Yes, from the web app.", "Tallyleaf can export to CSV, from the web app."),
        ("Does the Corvane Nimbus AX3200 support Wi-Fi 6?", "Yes.", "The Corvane Nimbus AX3200 supports Wi-Fi 6."),
        ("Has Tallyleaf raised prices?", "No.", "Tallyleaf has not raised prices."),
        ("Where is Corvane based?", "Oslo.", "Corvane is based in Oslo."),
    ],
)
def test_a_bare_answer_is_read_with_the_question(question: str, answer: str, read: str) -> None:
    found = asked(question, answer)
    assert found is not None
    assert found.text == read
    assert len(found.offsets) == len(found.text) and all(0 <= o < len(answer) for o in found.offsets)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Does Tallyleaf support two-factor authentication?", "Yes, it has supported it since 2019."),  # a verb
        ("Does Tallyleaf support two-factor authentication?", "Sixteen."),  # no yes or no
        ("How many users can share one plan?", "Yes."),  # no count
        ("Tell me about Tallyleaf.", "A budgeting app."),  # no question
        ("What is Tallyleaf?", "A budgeting app."),  # nothing asked of it but what it is
    ],
)
def test_an_answer_with_its_own_verb_or_of_another_shape_stays(question: str, answer: str) -> None:
    assert asked(question, answer) is None


def test_the_question_the_checker_is_given_reads_a_bare_first_sentence() -> None:
    sentences = tuple(split_sentences("Yes, since 2019. It is free on every plan."))
    question = "Does Tallyleaf support two-factor authentication?"
    readings, _ = _read(sentences, frozenset(), question)
    assert readings[0].text == "Tallyleaf supports two-factor authentication, since 2019."
    assert readings[1].text == "It is free on every plan."
    off, _ = _read(sentences, frozenset({BARE_ANSWER}), question)
    assert off[0].text == "Yes, since 2019."
    none, _ = _read(sentences, frozenset(), None)
    assert none[0].text == "Yes, since 2019."


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        (
            "He trained with Jan Kos at the Vienna Conservatory, where he later taught.",
            "He later taught at The Vienna Conservatory.",
        ),
        ("She grew up in Bergen, where she sang in a choir.", "She sang in a choir in Bergen."),
        ("He moved to the Lyra Quartet, where he played until 1995.", "He played until 1995 in The Lyra Quartet."),
        (
            "She studied under Anna Berg at the Riga Academy, who later became her mentor.",
            "Anna Berg later became her mentor.",
        ),
        ("He trained under Jan Kos of the Vienna Conservatory, who died in 1990.", "Jan Kos died in 1990."),
        # look-alikes: "which" stands for the place it follows; a title keeps its "of"
        (
            "She studied under Anna Berg at the Riga Academy, which she later directed.",
            "She later directed The Riga Academy.",
        ),
        ("She wrote The Conquest of the Incas, which won a prize.", "The Conquest of the Incas won a prize."),
    ],
)
def test_a_relative_clause_is_about_the_noun_it_stands_for(sentence: str, fact: str) -> None:
    facts = [f.text for f in decompose_sentence(sentence)]
    assert fact in facts, facts


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What do you know about Priya Raghunathan?", "Priya Raghunathan"),  # asks the assistant; a heading
        ("Can you tell me whether Tallyleaf supports 2FA?", "Yes."),
        ("Do I need an account for Tallyleaf?", "Yes."),
        ("Where is Corvane based?", "Corvane"),
    ],
)
def test_a_question_to_the_assistant_or_a_heading_is_no_bare_answer(question: str, answer: str) -> None:
    assert asked(question, answer) is None
