"""Chat transcripts with speaker labels (the user's turns are no claims, the other speaker's are) and one-line
answers that open with a bare description and list what it did after a colon. The names are invented."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from scoring.grouping import group_sentences
from scoring.pipeline import check
from scoring.segment.turns import turns
from scoring.sentences import listed_description, split_sentences

TRANSCRIPTS = [
    (
        "**You:** what is Deskly\n**Bot:** A help-desk tool from Acme Networks. Launched 2016.\n"
        "**You:** price?\n**Bot:** $12 per agent per month.",
        ["A help-desk tool from Acme Networks.", "Launched 2016.", "$12 per agent per month."],
    ),
    (
        "**Me:** which phones?\n**Acme Assistant:** Both iPhone and Android, since 2020.\n"
        "**Me:** is it free\n**Acme Assistant:** Yes, with an Acme account.",
        ["Both iPhone and Android, since 2020.", "Yes, with an Acme account."],
    ),
    (
        "User: how many LAN ports\nSupport: Four gigabit ports\nand one 2.5-gigabit WAN port.\n"
        "User: warranty?\nSupport: Two years.",
        ["Four gigabit ports and one 2.5-gigabit WAN port.", "Two years."],
    ),
]


@pytest.mark.parametrize(("text", "read"), TRANSCRIPTS)
def test_a_transcript_is_read_as_the_answering_turns_without_their_labels(text: str, read: list[str]) -> None:
    assert [s.text for s in split_sentences(text, frozenset())] == read


@pytest.mark.parametrize(
    "text",
    [
        "Born: 1912\nDied: 1988\nTeams: Rosenborg, Molde",  # a record's labels: no user speaks
        "Note: the app is free.\nTip: export as CSV.",
        "You: a short word on the app\nIt is free and runs on iPhone.",  # no one answers the user in a labelled turn
        "Acme Networks makes routers.\nYou: the reader, presumably.\nBot: a word the answer uses.",  # text first
    ],
)
def test_labelled_lines_that_are_no_transcript_are_left_alone(text: str) -> None:
    assert turns(text) is None


def test_switched_off_the_turns_are_read_as_written() -> None:
    text, _ = TRANSCRIPTS[0]
    read = [s.text for s in split_sentences(text, frozenset({"speaker-turns"}))]
    assert any(t.startswith("You:") for t in read)


def test_answering_turns_that_open_with_a_role_present_namesakes() -> None:
    text = (
        "**You:** kenji sato\n**Assistant:** There are two. Which?\n**You:** both\n"
        "**Assistant:** Potter: born 1951 in Mashiko, Mashiko Ceramics Prize 1988.\n**You:** and the runner\n"
        "**Assistant:** Sprinter: born 1990 in Osaka, 200 metres gold at the 2014 Asian Games."
    )
    sentences = split_sentences(text, frozenset())
    groups = group_sentences(
        [s.text for s in sentences],
        "Kenji Sato",
        list_items=[s.list_item for s in sentences],
        rules_off=frozenset(),
        scopes=[s.scope for s in sentences],
        labels=[s.label for s in sentences],
    )
    read = [" ".join(sentences[i].text for i in g.sentences) for g in groups]
    potter = [g for g in read if "Mashiko" in g]
    sprinter = [g for g in read if "Osaka" in g]
    assert len(potter) == 1 and len(sprinter) == 1 and potter != sprinter, read


# --- a bare description, then what it lists ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "parts"),
    [
        (
            "Danish potter (b. 1951): founder of the Mashiko Kiln Group, teacher at Kyoto Arts, prize winner in 1988.",
            [
                "Danish potter (b. 1951).",
                "founder of the Mashiko Kiln Group,",
                "teacher at Kyoto Arts,",
                "prize winner in 1988.",
            ],
        ),
        (
            "Acme X2 (2022): Wi-Fi 6 · four gigabit LAN ports · launched at $129 · two-year warranty.",
            ["Acme X2 (2022).", "Wi-Fi 6", "four gigabit LAN ports", "launched at $129", "two-year warranty."],
        ),
        (
            "Norwegian composer, 1912–1988: organist in Tromsø • teacher at the Oslo Conservatory",
            ["Norwegian composer, 1912–1988.", "organist in Tromsø", "teacher at the Oslo Conservatory"],
        ),
    ],
)
def test_a_bare_description_and_its_list_are_read_as_parts(line: str, parts: list[str]) -> None:
    assert listed_description(line) == parts


@pytest.mark.parametrize(
    "line",
    [
        "Teams (2008–2020): Rosenborg, Molde, Brann.",  # a record's label with its years: read as a record
        "Short answer: he was born in 1950, studied in Oslo, and died in 1990.",  # clauses, not phrases
        "Notable works: The Salt Wife, Polar Night, Harbour Songs.",  # a plural label: what the values are
        "Education: Oslo Conservatory, Leipzig, Berlin.",
        "Later life: Trainer, Keystone Gym, Philadelphia (1946–1965)",  # a record's value with commas of its own
        "Organist: Organist, Elverhøy Church, Tromsø (1939–1950)",
        # namesakes counted: each part another person, not phrases about one
        "Three: a potter (b. 1951, Mashiko), a sprinter (b. 1990, Osaka), and a poet (b. 1944, Kyoto).",
        "Born: 1912, Tromsø",
        "In 1988 (aged 37): he won the prize, then retired.",
    ],
)
def test_look_alikes_of_a_listed_description_stay_whole(line: str) -> None:
    assert listed_description(line) is None


PAGES = [
    (
        "Ilse Marrow",
        "Ilse Marrow (born 1951) is a Danish potter. She founded the Mashiko Kiln Group in 1979. She taught at the "
        "Kyoto Arts Academy from 1985 to 2010. She won the Nordic Ceramics Prize in 1988.",
        [],
    )
]


@pytest.fixture(scope="module")
def kb() -> Store:
    store = Store.in_memory()
    store.add_pages(PAGES)
    return store


def test_a_one_line_description_is_checked_as_the_subjects(kb: Store) -> None:
    result = check(
        "Danish potter (b. 1951): founder of the Mashiko Kiln Group, teacher at the Kyoto Arts Academy 1985–2010, "
        "winner of the Nordic Ceramics Prize (1988).",
        kb=kb,
        name="Ilse Marrow",
        question="ilse marrow potter, one line",
    )
    assert result.status == "checked"
    assert result.groups and result.groups[0].entity == "Ilse Marrow"
    assert result.factscore is not None and result.factscore >= 0.75
