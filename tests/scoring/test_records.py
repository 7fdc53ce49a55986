"""Records read as prose: infobox lines, bold labels, subjectless list items and semicolon lists become the
sentences they stand for, and every character of the reading points back into the line as written."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.enums import Verdict, Worthiness
from scoring.pipeline import CheckConfig, check
from scoring.records import LABEL_RECORDS, SUBJECTLESS_ITEMS, TITLED_ITEMS, _presented, answer_pronoun, prose
from scoring.sentences import split_sentences


@pytest.mark.parametrize(
    ("line", "pronoun", "list_item", "read"),
    [
        ("Born: 1912, Tromsø, Norway", "he", False, "He was born in 1912 in Tromsø, Norway."),
        ("Died: Lowell, 1888", "she", False, "She died in Lowell in 1888."),
        ("Born: 1888", "they", False, "They were born in 1888."),
        ("Awards: Lindeman Prize (1962)", "he", False, "He won Lindeman Prize (1962)."),
        (
            "Teams: Velora (2011–2016), Kestrel (2017–2022)",
            "she",
            False,
            "She played for Velora (2011–2016) and Kestrel (2017–2022).",
        ),
        ("Occupation: Composer, organist", "he", False, "He was composer, organist."),
        ("PhD: Kingsmere University, 1992", "she", False, "She received a PhD from Kingsmere University in 1992."),
        (
            "Olympics: 14th in the road race at the 2016 Summer Olympics",
            "she",
            False,
            "Olympics: she was 14th in the road race at the 2016 Summer Olympics.",
        ),
        (
            "Anne Brandt (architect): born 1961 in Strasbourg; designed the Textile Museum (2014)",
            "she",
            False,
            "Anne Brandt (architect) was born in 1961 in Strasbourg; she designed the Textile Museum (2014).",
        ),
        (
            "Researcher at the Hajnówka Field Station, 2004–2011",
            "she",
            True,
            "She was researcher at the Hajnówka Field Station from 2004 to 2011.",
        ),
        (
            "Kessler Medal for Conservation Science, 2019",
            "she",
            True,
            "She won Kessler Medal for Conservation Science in 2019.",
        ),
        # an award whose first word the recogniser takes for no name keeps its capitals
        ("Lakeshore Jazz Award, 1999", "she", True, "She won Lakeshore Jazz Award in 1999."),
        ("Harrowgate Prize for Fiction, 2016", "she", True, "She won Harrowgate Prize for Fiction in 2016."),
        ("Order of Canada, 2004", "he", True, "He won Order of Canada in 2004."),
        ("Emigrated to Chile in 1955", "he", True, "He emigrated to Chile in 1955."),
        ("Married Lorraine Dutton in 1934", "he", True, "He married Lorraine Dutton in 1934."),
        ("Polish, born 1975 in Gdańsk", "she", True, "She was Polish, born in 1975 in Gdańsk."),
        (
            "Also composed the opera The Salt Wife (1953)",
            "he",
            True,
            "He also composed the opera The Salt Wife (1953).",
        ),
        ("31 internationals for Sweden", "he", True, "He had 31 internationals for Sweden."),
        # A relative clause's subject is not the item's, and a title after the verb is no subject.
        (
            "Led the Wetland Pulse project (2015–2020), which surveyed 312 peat bogs",
            "she",
            True,
            "She led the Wetland Pulse project (2015–2020), which surveyed 312 peat bogs.",
        ),
        ("Later wrote The Measured Continent (1996)", "he", True, "He later wrote The Measured Continent (1996)."),
        (
            "Central midfielder from Bodø who won 23 caps for Norway",
            "he",
            True,
            "He was central midfielder from Bodø who won 23 caps for Norway.",
        ),
        # A sentence without a verb that describes is read like a subjectless item.
        (
            "Norwegian composer and organist from Tromsø.",
            "he",
            False,
            "He was Norwegian composer and organist from Tromsø.",
        ),
        # A person presented by role says what they did in a relative clause or an apposition.
        (
            "the sprinter, born in Mombasa in 1981, who won the East African Championships in 2005",
            "he",
            True,
            "the sprinter, born in Mombasa in 1981, won the East African Championships in 2005",
        ),
        (
            "the footballer (born 1986), a midfielder for Kjellvik FK who earned 23 caps",
            "he",
            True,
            "the footballer (born 1986) was a midfielder for Kjellvik FK who earned 23 caps",
        ),
        # An organisation as a label is context, not the person the record is about.
        (
            "Great Lakes Water Compact Commission: Chair from 2017 to 2021",
            "he",
            False,
            "Great Lakes Water Compact Commission: he was chair from 2017 to 2021.",
        ),
        # A transcript's answer label goes; what follows it is read like any line.
        ("A: Declan Fairweather was born in Cork.", "he", False, "Declan Fairweather was born in Cork."),
        ("A: Born in Cork in 1949", "he", False, "He was born in Cork in 1949."),
        # A label naming the record's person: the value as it stands.
        (
            "Who: Theodore Vance, the middleweight boxer from Scranton",
            "he",
            False,
            "Theodore Vance was the middleweight boxer from Scranton",
        ),
        # An unknown label's value of several parts: each part an item of its own.
        (
            "Sport: Right-arm leg-spinner; 48 ODIs for India women",
            "they",
            False,
            "Sport: they were right-arm leg-spinner; they had 48 ODIs for India women.",
        ),
        # A person presented by name, then born, then what they were: the name stays the subject.
        (
            "Declan Fairweather, born in Plymouth in 1983, an English offshore sailor who won the Meridian Ocean Race",
            "he",
            True,
            "Declan Fairweather, born in Plymouth in 1983, was an English offshore sailor who won the Meridian "
            "Ocean Race",
        ),
        (
            "Doctorate from Pomeranian University, 2003",
            "she",
            True,
            "She received a doctorate from Pomeranian University in 2003.",
        ),
        # A tally of wins, losses (and draws) as sport writes it: each count a claim.
        ("Record: 61–9–3, with 38 KOs", "he", False, "He had 61 wins, 9 losses and 3 draws, with 38 KOs."),
        ("Career record: 45-12", "she", False, "She had 45 wins and 12 losses."),
        # A year or a range after a comma in a list dates the item before it: no item of its own.
        ("Award: Gilded Quill Award, 2006", "she", False, "She won Gilded Quill Award in 2006."),
        (
            "Awards: Lindeman Prize, 1962; Kessler Medal, 2019",
            "he",
            False,
            "He won Lindeman Prize in 1962 and Kessler Medal in 2019.",
        ),
        (
            "Clubs: Tromsvik IL, 2005–2009, Kjellvik FK",
            "he",
            False,
            "He played for Tromsvik IL from 2005 to 2009 and Kjellvik FK.",
        ),
    ],
)
def test_a_record_reads_as_the_sentence_it_stands_for(line: str, pronoun: str, list_item: bool, read: str) -> None:
    reading = prose(line, pronoun, list_item)
    assert reading.text == read and reading.rewritten
    assert len(reading.offsets) == len(reading.text)
    # The line's words are in the reading where their offsets say, in order.
    for word in [w for w in line.replace(",", " ").replace(";", " ").split()[1:] if len(w) >= 4]:
        at = reading.text.find(word)
        if at >= 0:
            assert "".join(line[o] for o in reading.offsets[at : at + len(word)]) == word
    assert reading.offsets == sorted(reading.offsets)


@pytest.mark.parametrize(
    ("line", "list_item"),
    [
        ("Her debut novel won the Orange Prize in 2010", True),  # a sentence with its own subject
        ("Note: this list is not complete", False),  # a label whose value has a subject
        ("Søren Ødegaard – quick facts:", False),
        ("He was born in 1936.", False),
        # A person presented by role or by name is the subject of what follows, not a description of "he".
        ("the film director, born 1978 in Bengaluru, whose films include The Ninth Window", True),
        # headings and announcements are no descriptions
        ("Early life and education.", False),
        ("Two people named Oona Lind.", False),
    ],
)
def test_sentences_stay_as_written(line: str, list_item: bool) -> None:
    reading = prose(line, "he", list_item)
    assert not reading.rewritten and reading.text == line and reading.offsets == list(range(len(line)))


@pytest.mark.parametrize(
    ("line", "read"),
    [
        # topic-labels: a topic label before a sentence of its own goes
        (
            "Origins and training: A native of Savannah, Georgia, he spent three years at the Tybee Art School.",
            "A native of Savannah, Georgia, he spent three years at the Tybee Art School.",
        ),
        ("Family: In 1950 he wed the ceramicist Clara Dunmore.", "In 1950 he wed the ceramicist Clara Dunmore."),
        ("Death: He died in Beaufort, South Carolina, in 2004.", "He died in Beaufort, South Carolina, in 2004."),
        # a count keeps no capital it had only as the item's first word
        ("Nineteen professional victories in total", "He had nineteen professional victories in total."),
        # a subjectless item of a violent death is passive
        ("Killed in a crash near Flagstaff in 1937", "He was killed in a crash near Flagstaff in 1937."),
    ],
)
def test_topic_labels_go_before_a_sentence_of_its_own(line: str, read: str) -> None:
    reading = prose(line, "he", True)
    assert reading.text == read and reading.rewritten
    assert len(reading.offsets) == len(reading.text) and reading.offsets == sorted(reading.offsets)
    kept = line[-12:]  # the line's last words are the reading's, where its offsets say
    at = reading.text.find(kept)
    assert at >= 0
    assert "".join(line[o] for o in reading.offsets[at : at + len(kept)]) == kept


@pytest.mark.parametrize(
    "line",
    [
        "Record: 71 wins, 9 losses, 3 draws (38 KOs)",  # no sentence: a tally
        "Book: Le Feu Lent (1999), if I recall correctly",  # the clause with a subject is not the main one
        "Current role: Director of the Meridian Quantum Lab in Lisbon (joined 2009)",  # a verb in parentheses
        "His 2011 book, Money in Motion: Mobile Payments and Rural Credit, was widely cited.",  # no label
        "Note: this list is not complete",  # an aside
    ],
)
def test_what_is_no_topic_label_before_a_sentence_keeps_its_label(line: str) -> None:
    reading = prose(line, "he", False)
    assert not reading.text.startswith(line.split(":", 1)[1].strip()[:12])


@pytest.mark.parametrize(
    ("item", "read"),
    [
        (
            "The Ninth Window (2013) — a psychological thriller that won her best director in 2014",
            "The Ninth Window (2013) was a psychological thriller that won her best director in 2014.",
        ),
        ("Monsoon Ledger (2008) — her debut, a drama", "Monsoon Ledger (2008) was her debut, a drama."),
        (
            "Kite Season (2019) — premiered at the Pacific Rim Film Festival.",
            "Kite Season (2019) premiered at the Pacific Rim Film Festival.",
        ),
    ],
)
def test_a_named_thing_a_dash_and_what_it_is_is_a_sentence_about_it(item: str, read: str) -> None:
    reading = prose(item, "she", True)
    assert reading.text == read and len(reading.offsets) == len(read)
    assert prose(item, "she", True, frozenset({TITLED_ITEMS})).text != read


def test_what_is_no_named_thing_before_a_dash_is_read_as_before() -> None:
    # a verb before the dash: a dash inside a sentence
    assert prose("Joined the club — the first woman to do so — in 1990", "she", True).text.startswith("She joined")
    # a year is no name: the line is a date list's item (dated-lines), and no titled item with the rule off
    assert prose("1903 — born in Wichita", "she", True).text == "In 1903, she was born in Wichita."
    off = frozenset({"dated-lines"})
    assert "was" not in prose("1903 — born in Wichita", "she", True, off).text.split("—")[0]


def test_the_topic_label_rule_switches_off() -> None:
    from scoring.records import TOPIC_LABELS

    line = "Family: In 1950 he wed the ceramicist Clara Dunmore."
    assert prose(line, "he", True).text == line.split(": ", 1)[1]
    assert prose(line, "he", True, frozenset({TOPIC_LABELS})).text != line.split(": ", 1)[1]


def test_a_line_that_only_names_an_award_is_what_was_won() -> None:
    read = prose("Rasmussen Young Scientist Prize (2020)", "she").text
    assert read == "She won Rasmussen Young Scientist Prize (2020)."
    assert not prose("Awards and honours", "she").rewritten  # a heading
    assert not prose("The Golden Bow Prize", "she").rewritten


def test_a_bold_label_set_off_by_a_dash_is_read_as_a_label() -> None:
    from scoring.sentences import DASH_LABELS

    answer = (
        "Harlan Beckwith was a painter.\n\n1. **War years** — He spent 1942–1945 in the US Navy.\n2. **Output** – 600"
    )
    assert [s.text for s in split_sentences(answer, frozenset())][1:] == [
        "War years: He spent 1942–1945 in the US Navy.",
        "Output: 600",
    ]
    assert "War years — He spent" in split_sentences(answer, frozenset({DASH_LABELS}))[1].text
    # a dash inside the bold, or a bold word inside a sentence, is no label
    assert split_sentences("**Anne Brandt — cyclist**", frozenset())[0].text == "Anne Brandt — cyclist"


def test_wed_and_im_are_words_of_their_own() -> None:
    from scoring import nlp

    assert [t.text for t in nlp.parse_one("In 1950 he wed the ceramicist.")][3] == "wed"
    assert "im" in [t.text for t in nlp.parse_one("She was born in Freiburg im Breisgau.")]


def test_the_pronoun_is_the_answers_and_none_for_an_answer_about_no_one() -> None:
    assert answer_pronoun(["Marta is a cellist.", "She was born in 1968.", "Her father was a baker."]) == "she"
    assert answer_pronoun(["Born: 1912, Tromsø", "Occupation: composer"]) == "they"
    assert answer_pronoun(["CSV export of your transactions", "Unlimited bank accounts"]) is None
    # two lines under labels a person's record has, without "born" or "died": a record of a life
    assert answer_pronoun(["Division: Middleweight", "Hometown: Scranton, Pennsylvania", "Title: champion"]) == "they"
    assert answer_pronoun(["Clubs: Tromsvik IL (2005–2009)", "Awards: Norwegian Cup (2014)"]) == "they"
    # one such label alone, or labels a product page has, do not make one
    assert answer_pronoun(["Hometown: Scranton", "Record: 71 wins"]) is None
    assert answer_pronoun(["Price: $49 a month", "Storage: 2 TB", "Support: email and chat"]) is None
    assert prose("CSV export of your transactions", None, True).rewritten is False


def test_rules_switch_the_readings_off() -> None:
    assert not prose("Awards: Lindeman Prize (1962)", "he", rules_off=frozenset({LABEL_RECORDS})).rewritten
    off = frozenset({SUBJECTLESS_ITEMS})
    assert not prose("Kessler Medal, 2019", "she", True, off).rewritten
    assert not prose("Olympics: 14th in the road race", "she", False, off).rewritten


def test_semicolon_lists_are_items_and_lists_of_names_are_not() -> None:
    parts = split_sentences("Harlan Beckwith, a football coach; born in Dayton, Ohio; played end at Danforth College.")
    assert [(s.text, s.list_item) for s in parts] == [
        ("Harlan Beckwith, a football coach;", False),
        ("born in Dayton, Ohio;", True),
        ("played end at Danforth College.", True),
    ]
    assert [s.text for s in split_sentences("He played for Leeds; Arsenal; and Spurs.")] == [
        "He played for Leeds; Arsenal; and Spurs."
    ]
    item = split_sentences("- Married Karin Sjöberg in 1999; three daughters")
    assert [s.text for s in item] == ["Married Karin Sjöberg in 1999;", "three daughters"]


def test_an_infobox_answer_is_checked_fact_by_fact_with_its_spans() -> None:
    store = Store.in_memory(
        [
            (
                "Ilse Varga (composer)",
                "Ilse Varga (1912–1988) was a Hungarian composer. She was born in Szeged in 1912 and died in "
                "Budapest in 1988. She won the Bartha Prize in 1962. She studied at the Liszt Academy.",
            )
        ]
    )
    answer = (
        "Ilse Varga\nBorn: 1912, Szeged\nDied: 1988, Budapest\nEducation: Liszt Academy\nAwards: Bartha Prize (1962)"
    )
    result = check(answer, kb=store, name="Ilse Varga")
    facts = {f.text: f for g in result.groups for f in g.facts}
    won = next(f for t, f in facts.items() if "Bartha Prize" in t)
    assert won.verdict.value == "supported" and answer[won.spans[0][0] : won.spans[-1][1]].startswith("Bartha Prize")
    assert any("Liszt Academy" in t and f.verdict.value == "supported" for t, f in facts.items())
    assert result.factscore == 1.0 and result.groups[0].entity == "Ilse Varga (composer)"


PAGES = [
    (
        "Ilse Varga (composer)",
        "Ilse Varga (1912–1988) was a Hungarian composer. She was born in Szeged in 1912. She won the Bartha "
        "Prize in 1962. She taught at the Liszt Academy from 1950 to 1975.",
    ),
    (
        "Ilse Varga (chemist)",
        "Ilse Varga (born 1970 in Debrecen) is a Hungarian chemist. She has worked at the Tisza Institute "
        "since 2001. She won the Hevesy Medal in 2015.",
    ),
]


def _supported(result: object) -> set[str]:
    return {f.text for g in result.groups for f in g.facts if f.verdict.value == "supported"}  # type: ignore[attr-defined]


def test_subjectless_list_items_are_checked_as_statements_about_the_person() -> None:
    answer = (
        "Ilse Varga, the composer, in brief:\n\n- Born 1912 in Szeged\n- Bartha Prize, 1962\n"
        "- Taught at the Liszt Academy, 1950–1975"
    )
    result = check(answer, kb=Store.in_memory(PAGES), name="Ilse Varga")
    supported = _supported(result)
    assert any("Bartha Prize" in t for t in supported) and any("Liszt Academy" in t for t in supported)
    assert result.factscore == 1.0 and result.groups[0].entity == "Ilse Varga (composer)"


def test_a_table_is_read_row_by_row_and_a_column_per_person_is_a_person() -> None:
    store = Store.in_memory(PAGES)
    two = "| | |\n|---|---|\n| Born | 1912, Szeged |\n| Award | Bartha Prize (1962) |"
    result = check(two, kb=store, name="Ilse Varga")
    assert any("Bartha Prize" in t for t in _supported(result)) and result.factscore == 1.0
    side = (
        "Two people share the name Ilse Varga:\n\n| | Composer | Chemist |\n|---|---|---|\n"
        "| Born | 1912, Szeged | 1970, Debrecen |\n| Award | Bartha Prize (1962) | Hevesy Medal (2015) |"
    )
    result = check(side, kb=store, name="Ilse Varga")
    assert sorted(g.entity or "" for g in result.groups) == ["Ilse Varga (chemist)", "Ilse Varga (composer)"]
    assert not any(g.conflated for g in result.groups) and result.num_entities == 2
    assert any("1970" in t for t in _supported(result)) and any("Bartha Prize" in t for t in _supported(result))


def test_a_name_row_claims_nothing() -> None:
    """ "| Name | Priya Raghunathan |" is the record's subject, not "They were Priya Raghunathan"."""
    reading = prose("Name: Priya Raghunathan", "they", False)
    assert reading.text == "Priya Raghunathan"
    assert "".join("Name: Priya Raghunathan"[o] for o in reading.offsets) == "Priya Raghunathan"
    store = Store.in_memory([("Ada Lind", "Ada Lind (born 1950 in Oslo) is a Norwegian novelist.")])
    answer = "| Field | Details |\n|---|---|\n| Name | Ada Lind |\n| Born | 1950, Oslo |"
    facts = [f.text for g in check(answer, kb=store, name="Ada Lind").groups for f in g.facts]
    assert "Ada Lind was born in 1950." in facts
    assert not any("Ada Lind was Ada Lind" in f or "were Ada Lind" in f for f in facts), facts


@pytest.mark.parametrize(
    ("lead", "item", "read"),
    [
        (
            "Tallyleaf Premium costs £4.99 per month and adds the following on top of the free tier:",
            "CSV export of your transactions",
            "Tallyleaf Premium costs £4.99 per month and adds CSV export of your transactions on top of the free tier.",
        ),
        (
            "Its features include:",
            "Shared budgets for households",
            "Its features include shared budgets for households.",
        ),
        ("The router comes with:", "Four external antennas", "The router comes with four external antennas."),
    ],
)
def test_a_noun_phrase_item_completes_the_line_that_introduced_it(lead: str, item: str, read: str) -> None:
    from scoring.records import completed_by_lead_in

    reading = completed_by_lead_in(lead, item)
    assert reading is not None and reading.text == read
    assert len(reading.offsets) == len(reading.text) and all(0 <= o < len(item) for o in reading.offsets)


@pytest.mark.parametrize(
    ("lead", "item"),
    [
        ("Here is what I found:", "CSV export of your transactions"),  # introduces nothing to complete
        ("Its features include:", "You can export your data as CSV"),  # a sentence of its own
    ],
)
def test_other_items_are_not_completed(lead: str, item: str) -> None:
    from scoring.records import completed_by_lead_in

    assert completed_by_lead_in(lead, item) is None


def test_lead_in_items_are_checked_as_statements_and_the_rule_switches_off() -> None:
    store = Store.in_memory(
        [("Tallyleaf", "Tallyleaf Premium adds CSV export of transactions and shared budgets for households.")]
    )
    answer = "Tallyleaf Premium adds the following:\n- CSV export of your transactions\n- Shared budgets for households"
    on = [f for g in check(answer, kb=store, name="Tallyleaf").groups for f in g.facts]
    assert "Tallyleaf Premium adds CSV export of your transactions." in [f.text for f in on]
    off = check(answer, kb=store, name="Tallyleaf", config=CheckConfig().without(["lead-in-items"]))
    assert "Tallyleaf Premium adds CSV export of your transactions." not in [
        f.text for g in off.groups for f in g.facts
    ]


@pytest.mark.parametrize(
    ("lead", "item", "read"),
    [
        (
            "With the Corvane Home app you can:",
            "set up a guest network",
            "With the Corvane Home app you can set up a guest network.",
        ),
        ("The app lets you:", "Install firmware updates", "The app lets you install firmware updates."),
        (
            "Premium users will be able to:",
            "export reports to CSV",
            "Premium users will be able to export reports to CSV.",
        ),
    ],
)
def test_a_verb_phrase_item_completes_a_line_that_says_what_one_can_do(lead: str, item: str, read: str) -> None:
    from scoring.records import completed_by_lead_in

    reading = completed_by_lead_in(lead, item)
    assert reading is not None and reading.text == read and len(reading.offsets) == len(read)
    assert completed_by_lead_in(lead, "a guest network") is None  # a noun phrase completes no "can"


def test_what_an_app_can_do_is_checked_not_taken_for_talk() -> None:
    store = Store.in_memory([("Corvane Home", "The Corvane Home app sets up guest networks and runs speed tests.")])
    answer = "With the Corvane Home app you can:\n- set up a guest network\n- back up your phone's photos"
    facts = {f.text: f for g in check(answer, kb=store, name="Corvane Home").groups for f in g.facts}
    claimed = [f for t, f in facts.items() if "back up your phone" in t]
    # a wrong capability is a claim that the page does not support, not assistant talk left unchecked
    assert claimed and all(f.worthiness is Worthiness.FACTUAL and f.verdict is not Verdict.SUPPORTED for f in claimed)


def test_the_steps_of_a_how_to_answer_are_claims() -> None:
    """ "Find the reset button on the back of the unit" says where the button is; outside a how-to answer an
    imperative without a value is talk."""
    store = Store.in_memory(
        [
            (
                "Corvane Nimbus AX3200",
                "To restore factory settings, the reset button on the back must be held for 10 seconds.",
            )
        ]
    )
    answer = "To reset the router:\n1. Find the reset button on the back of the unit.\n2. Press and hold it."
    question = "How do I factory reset my Corvane Nimbus AX3200?"

    def facts(config: CheckConfig | None = None, asked: str | None = question) -> dict[str, str]:
        result = check(answer, kb=store, name="Corvane Nimbus AX3200", question=asked, config=config)
        return {f.text: f.worthiness.value for g in result.groups for f in g.facts}

    assert facts()["Find the reset button on the back of the unit."] == "factual"
    assert facts(asked="Tell me about the router.")["Find the reset button on the back of the unit."] != "factual"
    off = facts(CheckConfig().without(["how-to-steps"]))
    assert off["Find the reset button on the back of the unit."] != "factual"


@pytest.mark.parametrize(
    ("question", "steps"),
    [
        ("How do I factory reset my Corvane Nimbus AX3200?", True),
        ("How can I reset the Nimbus AX3200?", True),
        ("how to reset a Nimbus AX3200", True),
        ("How should one reset the router?", True),
        ("What is the Nimbus AX3200?", False),
        ("How old is the Nimbus AX3200?", False),
        ("How did Dick Hanley die?", False),
    ],
)
def test_a_how_to_question_is_asked_in_several_ways(question: str, steps: bool) -> None:
    from scoring.offline import _HOW_TO

    assert bool(_HOW_TO.match(question)) is steps


def test_a_films_row_reads_as_a_film_made_and_dated() -> None:
    assert prose("Film: Monsoon Ledger (2008)", "she").text == "She made Monsoon Ledger (2008)."


def test_a_record_that_is_no_tally_is_read_as_any_other_label() -> None:
    assert "wins" not in prose("Record: Olympic record holder in the 200 metres", "he").text
    assert "wins" not in prose("Score: 61–9–3", "he").text  # only a record's label says it is a tally


@pytest.mark.parametrize(
    ("line", "read"),
    [
        ("Security: AES-256 encryption", "Tallyleaf's security is AES-256 encryption."),
        ("Platforms: iOS and Android", "Tallyleaf's platforms are iOS and Android."),
        ("Released: 2019", "Tallyleaf was released in 2019."),
        ("Founded: 2016", "Tallyleaf was founded in 2016."),
        ("Users: 1.2 million by 2023", "Tallyleaf had 1.2 million users by 2023."),
        ("Employees: about 300", "Tallyleaf had about 300 employees."),
    ],
)
def test_a_label_line_about_a_thing_is_read_with_its_name(line: str, read: str) -> None:
    from scoring.records import thing_prose

    reading = thing_prose(line, "Tallyleaf")
    assert reading.text == read and len(reading.offsets) == len(reading.text)


@pytest.mark.parametrize(
    "line",
    [
        "Intellilink: a tool for linking data from several sources",  # the label is what the value describes
        "Tallyleaf is a personal budgeting app.",  # a sentence
    ],
)
def test_other_lines_about_a_thing_stay_as_written(line: str) -> None:
    from scoring.records import thing_prose

    assert not thing_prose(line, "Tallyleaf").rewritten


def test_the_thing_is_what_the_first_line_is_about_and_the_rule_switches_off() -> None:
    from scoring.records import thing_name

    assert thing_name(["Tallyleaf is a personal budgeting app. Here's an overview:"]) == "Tallyleaf"
    assert thing_name(["Here's an overview of the app:"]) is None
    store = Store.in_memory([("Tallyleaf", "Tallyleaf stores data encrypted with AES-256.")])
    answer = "Tallyleaf is a personal budgeting app.\n\nSecurity: AES-256 encryption"
    on = [f.text for g in check(answer, kb=store, name="Tallyleaf").groups for f in g.facts]
    assert "Tallyleaf's security is AES-256 encryption." in on, on
    config = CheckConfig().without(["thing-records"])
    off = [f.text for g in check(answer, kb=store, name="Tallyleaf", config=config).groups for f in g.facts]
    assert "Tallyleaf's security is AES-256 encryption." not in off, off


def test_the_line_that_introduces_a_semicolon_list_is_no_part_of_its_first_item() -> None:
    from scoring.sentences import semicolon_list

    parts = semicolon_list(
        "Three people named Priya Raghunathan are well known: the mathematician, born 1965 in Chennai, who proved "
        "the bound; the film director, born 1978 in Bengaluru; and the cricketer, born 1994 in Hyderabad."
    )
    assert parts[:2] == [
        "Three people named Priya Raghunathan are well known:",
        "the mathematician, born 1965 in Chennai, who proved the bound;",
    ]
    # A one-word label is the record's, not a lead.
    assert semicolon_list("Career: born in 1931; emigrated in 1955; died in 2012.")[0] == "Career: born in 1931;"


@pytest.mark.parametrize(
    ("item", "read"),
    [
        (
            "the mathematician, born 1965 in Chennai, who proved the bound in 1999;",
            "The mathematician, born 1965 in Chennai, proved the bound in 1999;",
        ),
        (
            "the cricketer, born 1994 in Hyderabad, a leg-spinner who took 71 wickets.",
            "the cricketer, born 1994 in Hyderabad, was a leg-spinner who took 71 wickets.",
        ),
    ],
)
def test_a_list_item_presenting_a_namesake_by_role_keeps_the_role_as_its_subject(item: str, read: str) -> None:
    reading = prose(item, "they", list_item=True)
    assert reading.text == read and len(reading.offsets) == len(reading.text)


def test_a_semicolon_list_part_presenting_a_namesake_opens_its_sentence() -> None:
    reading = prose("the mathematician, born 1965 in Chennai, who proved the bound;", "they", list_item=True)
    assert reading.text == "The mathematician, born 1965 in Chennai, proved the bound;"


@pytest.mark.parametrize(
    ("question", "answer", "reading"),
    [
        ("Q: Where was he born?", "A: Osaka, in 1974.", "He was born in Osaka, in 1974."),
        (
            "Q: What company did he start?",
            "A: Gripwell Robotics, co-founded in Sydney in 2006.",
            "He started Gripwell Robotics, co-founded in Sydney in 2006.",
        ),
        ("Q: When did he retire?", "A: In 2010.", "He retired in 2010."),
        ("Q: Which club did he play for?", "A: Kjellvik FK.", "He played for Kjellvik FK."),
        ("Q: Who did he marry?", "A: The soprano Kari Bråthen.", "He married the soprano Kari Bråthen."),
        ("Q: Where did he study?", "A: At the Oslo Conservatory.", "He studied at the Oslo Conservatory."),
        ("**Q: What is he known for?**", "A: The Marsh Light series.", "He is known for the Marsh Light series."),
        # a flashcard's numbered question; the answerer's aside after a dash is no part of the answer
        (
            "Q1. Where was he born?",
            "A: Lerwick, Shetland — I'm fairly sure of that one.",
            "He was born in Lerwick, Shetland.",
        ),
        ("Q2: Who did he marry?", "A: Agnes Tulloch — I think.", "He married Agnes Tulloch."),
        # a count's question and a bare count
        (
            "Q: How many variable stars are in his Kvarven Variable Star Catalogue (2003)?",
            "A: 2,840.",
            "2,840 variable stars are in his Kvarven Variable Star Catalogue (2003).",
        ),
        ("Q: How many patents did he hold?", "A: 19", "He held 19 patents."),
        ("Q: How many clocks did Osric Penhallow make?", "A: About 340.", "Osric Penhallow made about 340 clocks."),
        ("**Q3.** How many caps did he win for Norway?", "A: 54.", "He won 54 caps for Norway."),
    ],
)
def test_a_short_answer_is_read_with_its_question(question: str, answer: str, reading: str) -> None:
    from scoring.records import answered

    found = answered(question, answer, "he")
    assert found is not None and found.text == reading
    # every character of the reading points into the answer as written
    assert all(0 <= o < len(answer) for o in found.offsets)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Q: Has he won any major races?", "A: Yes. He won the Meridian Ocean Race in 2018."),  # a verb of its own
        ("Q: Any awards?", "A: The Bradfield Engineering Award, in 2016."),  # no predicate to read it with
        ("Q: Where was he born?", "He was born in Osaka."),  # no answer label: a sentence of its own
        ("He moved to Sydney.", "A: Gripwell Robotics."),  # no question before it
        # a count's answer that says more than a count, or has a verb of its own
        ("Q: How many children did he have?", "A: Three, all daughters."),
        ("Q: How many caps did he win?", "A: He won 54 caps."),
        # an aside after a dash that is no first-person aside leaves the verb in: no short answer
        ("Q: Where was he born?", "A: Lerwick — he always said it was the finest town."),
    ],
)
def test_an_answer_that_needs_no_question_or_has_none_is_left_alone(question: str, answer: str) -> None:
    from scoring.records import answered

    assert answered(question, answer, "he") is None


def test_short_answers_read_as_their_question_says_unless_the_rule_is_off() -> None:
    from scoring.offline import QUESTION_ANSWERED, _read
    from scoring.sentences import split_sentences

    sentences = tuple(
        split_sentences("Q: Where was he born?\nA: Osaka, in 1974.\n\nQ: When did he retire?\nA: In 2010.")
    )
    readings, _ = _read(sentences, frozenset())
    assert [r.text for r in readings if r.text.startswith("He ")] == [
        "He was born in Osaka, in 1974.",
        "He retired in 2010.",
    ]
    off, _ = _read(sentences, frozenset({QUESTION_ANSWERED}))
    assert not any(r.text == "He retired in 2010." for r in off)


@pytest.mark.parametrize(
    ("line", "pronoun", "read"),
    [
        # dated-lines: the text about the person, dated by its label when it gives no year of its own
        ("1931: Born in Bilbao in 1931.", "they", "They were born in Bilbao in 1931."),
        # a list item that reads a verb after the pronoun is a date list's item: its date first
        ("1955: Emigrated to Chile.", "he", "In 1955, he emigrated to Chile."),
        ("2006: Received the Ashby Award in 2006.", "they", "They received the Ashby Award in 2006."),
        (
            "1928–1961: Principal keeper of the Gallow Head Lighthouse",
            "he",
            "He was principal keeper of the Gallow Head Lighthouse from 1928 to 1961.",
        ),
        ("1955: He emigrated to Chile.", "he", "In 1955, he emigrated to Chile."),
        ("2011: Played cricket for Hyderabad from 2011.", "she", "She played cricket for Hyderabad from 2011."),
    ],
)
def test_a_timeline_line_is_read_as_its_text_dated_by_its_label(line: str, pronoun: str, read: str) -> None:
    reading = prose(line, pronoun, True)
    assert reading.text == read and reading.rewritten and len(reading.offsets) == len(reading.text)
    # every word of the reading that the line has points back to it
    for word in [w for w in read.replace(",", " ").replace(".", " ").split() if len(w) >= 5 and w in line]:
        at = reading.text.find(word)
        assert "".join(line[o] for o in reading.offsets[at : at + len(word)]) == word


# --- a fenced profile's fields, items with a closing aside, measures before a noun --------------------------------


@pytest.mark.parametrize(
    ("item", "read"),
    [
        ("FC Aarhavn, Denmark from 2014 to 2017", "They were FC Aarhavn, Denmark from 2014 to 2017."),
        ("Vosskamp Chemie from 1999 to 2008", "They were Vosskamp Chemie from 1999 to 2008."),
        ("Monsoon Ledger (debut feature) in 2008", "They were Monsoon Ledger (debut feature) in 2008."),
    ],
)
def test_a_fenced_field_that_opens_with_a_name_is_said_of_the_profiles_person(item: str, read: str) -> None:
    assert prose(item, "they", True, record=True).text == read
    # the same item in a plain list may present a person: it stays as written
    assert prose(item, "they", True).text == item


def test_a_list_item_that_presents_a_person_stays_as_written_outside_a_profile() -> None:
    item = "Declan Fairweather, born in Plymouth in 1983, an English offshore sailor"
    assert prose(item, "he", True).text != f"He was {item}."


@pytest.mark.parametrize(
    ("item", "read"),
    [
        (
            "Principal author, Clean Rivers Act of 1995 (I think)",
            "They were principal author, Clean Rivers Act of 1995 (I think).",
        ),
        (
            "Founded the Lindenhof Quartet (if I recall correctly)",
            "She founded the Lindenhof Quartet (if I recall correctly).",
        ),
        (
            "Chair, Great Lakes Commission (not fully certain)",
            "He was chair, Great Lakes Commission (not fully certain).",
        ),
    ],
)
def test_a_closing_aside_is_no_subject_of_the_item(item: str, read: str) -> None:
    pronoun = read.split()[0].lower()
    assert prose(item, pronoun, True, record=True).text == read


def test_an_item_that_has_a_subject_before_its_aside_keeps_it() -> None:
    item = "She founded the Lindenhof Quartet (I think)"
    assert prose(item, "she", True).text == item


@pytest.mark.parametrize(
    ("item", "read"),
    [
        ("200 m semi-finalist, 2004 Summer Olympics", "He was 200 m semi-finalist, 2004 Summer Olympics."),
        ("10,000-metre champion in 2001", "She was 10,000-metre champion in 2001."),
        ("400 m hurdles finalist", "He was 400 m hurdles finalist."),
        # look-alikes: a count, and a measure that is what the person had
        ("23 caps for Norway", "He had 23 caps for Norway."),
        ("12 km of trails", "He had 12 km of trails."),
    ],
)
def test_a_measure_before_a_rank_noun_says_what_the_person_was(item: str, read: str) -> None:
    pronoun = read.split()[0].lower()
    assert prose(item, pronoun, True).text == read


@pytest.mark.parametrize(
    ("line", "read"),
    [
        # a label that is no year, or a year inside the text, is no timeline's line
        ("Awards: Lindeman Prize (1962)", "They won Lindeman Prize (1962)."),
        ("12 wins: a club record", "12 wins: a club record"),
        ("In 1955 he emigrated to Chile.", "In 1955 he emigrated to Chile."),
    ],
)
def test_what_is_no_timeline_line_is_read_as_before(line: str, read: str) -> None:
    from scoring.records import DATED_LINES

    assert prose(line, "they").text == read
    assert prose(line, "they", rules_off=frozenset({DATED_LINES})).text == read


def test_the_dated_lines_rule_switches_off() -> None:
    from scoring.records import DATED_LINES

    assert "had 2006" in prose("2006: Received the Ashby Award in 2006.", "they", True, frozenset({DATED_LINES})).text


@pytest.mark.parametrize(
    ("item", "pronoun", "read"),
    [
        # an item that opens with its verb in the present, in the plural after "they"
        ("Was a native of Savannah, Georgia", "they", "They were a native of Savannah, Georgia."),
        ("Is the author of A Keeper's Year", "they", "They are the author of A Keeper's Year."),
        ("Comes from Aarhus", "they", "They come from Aarhus."),
        ("Plays for Arsenal", "he", "He plays for Arsenal."),
        ("Teaches at the Liszt Academy", "they", "They teach at the Liszt Academy."),
        ("Has headed the Deep Reef Group since 2019", "she", "She has headed the Deep Reef Group since 2019."),
    ],
)
def test_an_item_opening_with_a_present_verb_is_read_with_the_pronoun(item: str, pronoun: str, read: str) -> None:
    assert prose(item, pronoun, True).text == read


def test_a_plural_noun_item_is_no_present_verb() -> None:
    """ "Awards from …" names awards; "Works at …" is a verb only because a pronoun reads it as one."""
    assert "awards" not in prose("Awards from the Royal Society", "he", True).text.split()[1:2]
    assert prose("Kessler Medal, 2019", "she", True).text == "She won Kessler Medal in 2019."


def test_a_timeline_is_checked_line_by_line_and_an_award_the_page_lacks_is_not_supported() -> None:
    answer = (
        "**Ilse Varga** — Hungarian composer\n\n"
        "- **1912** — Born in Szeged in 1912.\n"
        "- **1950** — Taught at the Liszt Academy from 1950 to 1975.\n"
        "- **1962** — Won the Bartha Prize in 1962.\n"
        "- **1971** — Received the Ashby-Lowell Award in 1971.\n"
    )
    result = check(answer, kb=Store.in_memory(PAGES), name="Ilse Varga")
    facts = [f for g in result.groups for f in g.facts if f.worthiness is Worthiness.FACTUAL]
    assert not any(f.text.split()[-1].rstrip(".").isdigit() and " had " in f.text for f in facts)  # no "had 1962"
    invented = [f for f in facts if "Ashby-Lowell" in f.text]
    assert invented and all(f.verdict is not Verdict.SUPPORTED for f in invented)
    assert any("Bartha Prize" in f.text and f.verdict is Verdict.SUPPORTED for f in facts)
    assert any("Liszt Academy" in f.text and f.verdict is Verdict.SUPPORTED for f in facts)
    assert result.groups[0].entity == "Ilse Varga (composer)"


@pytest.mark.parametrize(
    ("line", "read"),
    [
        ("Education: PhD, Kingsmere University, 1992", "He received a PhD from Kingsmere University in 1992."),
        (
            "Education: PhD in economics, Ashcombe University in 1987",
            "He received a PhD in economics from Ashcombe University in 1987.",
        ),
        ("Education: MSc, Jutland Marine Institute", "He received a MSc from Jutland Marine Institute."),
        (
            "Education: PhD, Coromandel Institute of Mathematics (1994)",
            "He received a PhD from Coromandel Institute of Mathematics in 1994.",
        ),
        # look-alikes: a subject studied, a list of degrees, a school alone
        (
            "Education: Mechanical engineering, Kansai Institute of Technology",
            "He studied at Mechanical engineering and Kansai Institute of Technology.",
        ),
        ("Education: BA, MA, Oxford", "He studied at BA, MA and Oxford."),
        ("Education: Oslo Conservatory, 1930–1935", "He studied at Oslo Conservatory from 1930 to 1935."),
    ],
)
def test_an_education_record_that_opens_with_a_degree_says_where_it_was_received(line: str, read: str) -> None:
    assert prose(line, "he").text == read


@pytest.mark.parametrize(
    ("line", "read"),
    [
        # topic-label-items: a chapter's label before a verb phrase goes, its years date the clause
        (
            "Getting started (2005–2009): broke through at Tromsvik IL, patrolling the middle of the park.",
            "From 2005 to 2009, he broke through at Tromsvik IL, patrolling the middle of the park.",
        ),
        ("The Kjellvik years (2010–2013): moved to Kjellvik FK.", "From 2010 to 2013, he moved to Kjellvik FK."),
        ("Coaching (2020–): took charge of the under-19s.", "Since 2020, he took charge of the under-19s."),
        ("Breakthrough (1998): signed for Ajax.", "In 1998, he signed for Ajax."),
        ("Early career: joined Ajax in 1990.", "He joined Ajax in 1990."),
    ],
)
def test_a_chapter_label_before_a_verb_phrase_dates_it(line: str, read: str) -> None:
    reading = prose(line, "he", True)
    assert reading.text == read and reading.rewritten
    assert len(reading.offsets) == len(reading.text) and reading.offsets == sorted(reading.offsets)
    kept = line[-12:]
    at = reading.text.find(kept)
    assert "".join(line[o] for o in reading.offsets[at : at + len(kept)]) == kept


def test_a_label_before_no_verb_phrase_stays_and_the_rule_switches_off() -> None:
    from scoring.records import TOPIC_LABEL_ITEMS

    # a noun phrase after a label: the label says what it is (subjectless-items)
    olympics = "Olympics: 14th in the road race at the 2016 Summer Olympics"
    assert prose(olympics, "she", True).text.startswith("Olympics: she was 14th")
    # a sentence of its own after a label: topic-labels, no years added
    assert prose("Family (1950): He wed Clara Dunmore.", "he", True).text != "In 1950, he wed Clara Dunmore."
    line = "Getting started (2005–2009): broke through at Tromsvik IL."
    assert not prose(line, "he", True, frozenset({TOPIC_LABEL_ITEMS})).text.startswith("From 2005")


@pytest.mark.parametrize(
    ("line", "read"),
    [
        # subjectless-sentences: a sentence of prose that opens with its verb is about the answer's person
        (
            "picked up the saga ceramics prize in 2012, had a solo show in oslo three years after that.",
            "She picked up the saga ceramics prize in 2012, had a solo show in oslo three years after that.",
        ),
        ("Spent a decade in Dublin.", "She spent a decade in Dublin."),
        ("Lives in Bergen with her partner.", "She lives in Bergen with her partner."),
        ("Became a citizen in 1970 and moved to Lyon.", "She became a citizen in 1970 and moved to Lyon."),
    ],
)
def test_a_sentence_that_opens_with_its_verb_is_about_the_person(line: str, read: str) -> None:
    reading = prose(line, "she", False)
    assert reading.text == read and reading.rewritten
    assert len(reading.offsets) == len(reading.text) and reading.offsets == sorted(reading.offsets)


@pytest.mark.parametrize(
    "line",
    [
        "Check the router.",  # an imperative
        "Born in Oslo, she studied law.",  # a participle before the sentence's own subject
        "Founded in 1990, the firm grew.",
        "Was he ever married?",  # a question
        "She spent a decade in Dublin.",  # a subject of its own
    ],
)
def test_what_is_no_sentence_without_a_subject_stays(line: str) -> None:
    reading = prose(line, "she", False)
    assert not reading.rewritten and reading.text == line


def test_the_subjectless_sentence_rule_switches_off() -> None:
    from scoring.records import SUBJECTLESS_SENTENCES

    assert prose("Spent a decade in Dublin.", "she", False, frozenset({SUBJECTLESS_SENTENCES})).text == (
        "Spent a decade in Dublin."
    )
    assert prose("Spent a decade in Dublin.", "she", False, frozenset({SUBJECTLESS_SENTENCES})).rewritten is False


@pytest.mark.parametrize(("text", "end"), [(".", 0), ("", 0), (" .", 0), ("  ", 0)])
def test_an_item_with_nothing_before_its_end_is_read_as_it_is(text: str, end: int) -> None:
    # A recheck met a list item that was only "." (its words deleted): the parse was empty and the reading raised.
    reading = _presented(text, end)
    assert (reading.text, reading.rewritten) == (text, False)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("the sprinter, born in 1981, who reached the final", "the sprinter, born in 1981, reached the final"),
        ("the footballer (born 1986), a midfielder", "the footballer (born 1986) was a midfielder"),
    ],
)
def test_an_item_presenting_a_person_is_still_read_as_a_statement(text: str, said: str) -> None:
    assert _presented(text, len(text)).text == said
