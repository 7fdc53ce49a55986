"""Layouts of the blind set p6's kind: a script's speaker labels, a résumé's section labels in capitals, a lone word
taken for a name, namesakes turned to by role after a lead-in, an offer to cover both, the order of individuals and
an assignment of a page without evidence (scoring/RULES.md: script-speakers, caps-labels, lone-word-name, role-cue,
claims-order, unfounded-assignment)."""

from __future__ import annotations

import pytest

from scoring.grouping import _ANNOUNCES_MANY, group_sentences
from scoring.linking import link
from scoring.segment.script import speaker_lines, stage_direction
from scoring.segment.sections import caps_label
from scoring.sentences import split_sentences


def _texts(answer: str, off: frozenset[str] = frozenset()) -> list[str]:
    return [s.text for s in split_sentences(answer, off)]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (
            "HOST A: Two men, one name.\n\nHOST B: Born in Chester in 1992.\n\n"
            "HOST A: He rowed.\n\nHOST B: He retired.",
            ["Two men, one name.", "Born in Chester in 1992.", "He rowed.", "He retired."],
        ),
        (
            "[INTRO MUSIC]\n\nHost 1: She joined Radio Wold in 1960.\n\nHost 2: She presented Morning Tide.\n\n"
            "Host 1: Incredible.\n\nHost 2: What a career.\n\n[AD BREAK]",
            ["She joined Radio Wold in 1960.", "She presented Morning Tide.", "Incredible.", "What a career."],
        ),
        (
            "NARRATOR: The bishop was born in 1947.\nGUEST: He wrote The Open Door.\n"
            "NARRATOR: He died in 2020.\nGUEST: A long life.",
            ["The bishop was born in 1947.", "He wrote The Open Door.", "He died in 2020.", "A long life."],
        ),
    ],
)
def test_a_scripts_speaker_labels_and_stage_directions_go(answer: str, expected: list[str]) -> None:
    assert _texts(answer) == expected
    assert _texts(answer, frozenset({"script-speakers"})) != expected


@pytest.mark.parametrize(
    "lines",
    [
        ["Born: 1938", "Died: 2015", "Known for: Morning Tide"],  # a profile's fields, each once
        ["Note: she retired in 1994.", "Note: she died in 2015."],  # one label, however often
        ["Q: Who was she?", "A: A presenter.", "Q: When?", "A: From 1960."],  # a transcript's own labels
        ["HOST: She was born in 1938.", "HOST: She died in 2015.", "GUEST: Yes."],  # the guest speaks once
        # two profiles stacked: fields repeat, but most labels are a field's
        [
            "Nationality: Irish",
            "Born: 1949",
            "Hospital: Liffey",
            "Charity: Hearts Abroad",
            "Nationality: English",
            "Born: 1983",
            "Voyage: 94 days",
            "Charity: Open Water",
        ],
        [
            "Team: Rosenborg",
            "Coach: Ada",
            "Team: Molde",
            "Coach: Bo",
            "Stadium: Lerkendal",
            "Founded: 1917",
            "Colours: white",
            "Stadium: Aker",
        ],
    ],
)
def test_labels_that_take_no_turns_are_no_script(lines: list[str]) -> None:
    assert speaker_lines(lines) == {}


def test_a_stage_direction_is_a_bracketed_line_only() -> None:
    assert stage_direction("[AD BREAK]") and stage_direction("(laughter)")
    assert not stage_direction("[1] Radio Wold archive") and not stage_direction("She laughed (twice).")


@pytest.mark.parametrize(
    ("line", "label"),
    [
        ("EDUCATION", True),
        ("PROFESSIONAL EXPERIENCE", True),
        ("HONOURS & AWARDS", True),
        ("SELECTED WORK:", True),
        ("ROSALIND ACHTERBERG", False),  # a name in capitals
        ("Education", False),  # not in capitals: the heading rule's
        ("NASA", False),
        ("EDUCATION IN LEIDEN AND UTRECHT", False),  # a place in it
    ],
)
def test_caps_labels(line: str, label: bool) -> None:
    assert caps_label(line) is label


def test_a_caps_label_stands_alone_and_labels() -> None:
    answer = "ROSALIND ACHTERBERG\n\nEDUCATION\n1979–1984  Law, Zuiderzee University\n\nPERSONAL\nMarried, two sons"
    sentences = split_sentences(answer)
    assert [(s.text, s.label) for s in sentences] == [
        ("ROSALIND ACHTERBERG", False),
        ("EDUCATION", True),
        ("1979–1984 Law, Zuiderzee University", False),
        ("PERSONAL", True),
        ("Married, two sons", False),
    ]
    assert [s.text for s in split_sentences(answer, frozenset({"caps-labels"}))][1] != "EDUCATION"


@pytest.mark.parametrize(
    ("subject", "sentences"),
    [
        ("Leopold Brantingham", ["Here's Leopold Brantingham!", "Newmarket born and bred, 1994.", "He won in 2012."]),
        ("Rosalind Achterberg", ["ROSALIND ACHTERBERG", "Leiden 1902 – Hastings 1978 Cartographer", "She drew maps."]),
        (
            "Rosalind Achterberg",
            ["Rosalind Achterberg is a Dutch diplomat.", "PERSONAL Married to Joost Vermaat", "She retired in 2024."],
        ),
    ],
)
def test_a_lone_word_is_no_new_individual(subject: str, sentences: list[str]) -> None:
    assert [g.sentences for g in group_sentences(sentences, subject)] == [[0, 1, 2]]
    # a section word ("PERSONAL") is a label's name too (label-name): both off, it opens an individual
    off = group_sentences(sentences, subject, rules_off=frozenset({"lone-word-name", "label-name"}))
    assert len(off) == 2


@pytest.mark.parametrize(
    "sentences",
    [
        # a full name introduced afresh, a labelled one-word name, a dated one: each still someone new
        ["Ada Brook was a Polish cellist.", "John Smith is an English jockey.", "He won in 2012."],
        ["Ada Brook was a Polish cellist.", "Madonna (singer) is an American singer.", "She sold records."],
        ["Ada Brook was a Polish cellist.", "Kovac (1901–1977) was a Croatian painter.", "He painted."],
    ],
)
def test_named_people_still_open_individuals(sentences: list[str]) -> None:
    assert len(group_sentences(sentences, "Ada Brook")) == 2


@pytest.mark.parametrize(
    ("sentences", "roles"),
    [
        (["Two men share the name Callum Rennick.", "First, the rower.", "He won bronze.", "And the bishop?"], 2),
        (
            ["There are two people named Ada Brook.", "First, the cellist, born in 1950.", "Second, the ecologist."],
            2,
        ),
        (["Two women are called Ada Brook.", "The cellist was born in 1950.", "And the ecologist was born later."], 2),
    ],
)
def test_a_role_after_a_lead_in_presents_a_namesake(sentences: list[str], roles: int) -> None:
    groups = group_sentences(sentences, sentences[0].split(" ")[-1].rstrip("."))
    assert len([g for g in groups if g.role]) == roles


def test_a_lead_in_role_before_the_name_is_shared_is_no_cue() -> None:
    sentences = ["Callum Rennick is a rower.", "First, the rower trained at Deeside.", "He won bronze."]
    assert len(group_sentences(sentences, "Callum Rennick")) == 1


@pytest.mark.parametrize(
    ("sentence", "announces"),
    [
        ("I'll cover both.", True),
        ("Here are both of them:", True),
        ("Let me describe both.", True),
        ("I'll answer for both.", True),
        ("Both of his parents were teachers.", False),
        ("I'll cover both his careers.", False),
        ("She speaks both Dutch and English.", False),
    ],
)
def test_an_offer_to_cover_both_announces_namesakes(sentence: str, announces: bool) -> None:
    assert bool(_ANNOUNCES_MANY.search(sentence)) is announces


@pytest.mark.parametrize(
    ("counts", "names", "expected"),
    [
        # one person split in two groups: the lead line keeps its page, not the namesake's it has no evidence for
        ([[2, 0], [9, 0]], [[1, 1], [1, 1]], [0, 0]),
        ([[1, 0, 0], [5, 0, 0]], [[1, 1, 0.5], [0.5, 0.5, 0.5]], [0, 0]),
        ([[3, 0], [4, 0], [0, 2]], [[1, 1], [1, 1], [1, 1]], [0, 0, 1]),
        # a page barred as another person's (-1: other-given-name, unfitting-namesake) is no better than one without
        ([[2, -1], [9, -1]], [[1, 0], [1, 0]], [0, 0]),
        ([[1, -1, 0], [5, -1, 0]], [[1, 0, 0.5], [1, 0, 0.5]], [0, 0]),
    ],
)
def test_no_page_without_evidence_is_assigned(
    counts: list[list[float]], names: list[list[float]], expected: list[int]
) -> None:
    assert link(counts, names) == expected


@pytest.mark.parametrize(
    ("counts", "names", "expected"),
    [
        # the other page supports some of the group's facts: the assignment stands
        ([[3, 1], [3, 0]], [[1, 1], [1, 1]], [1, 0]),
        # the group's name points to the other page ("Ada Brook (ecologist)"): the assignment stands
        ([[2, 0], [9, 0]], [[0.5, 1], [1, 0.5]], [1, 0]),
    ],
)
def test_an_assignment_with_evidence_or_a_name_stands(
    counts: list[list[float]], names: list[list[float]], expected: list[int]
) -> None:
    assert link(counts, names) == expected
    assert link(counts, names, founded=False) == expected


def test_the_unfounded_assignment_rule_can_be_switched_off() -> None:
    assert link([[2, 0], [9, 0]], [[1, 1], [1, 1]], founded=False) == [1, 0]
    assert link([[2, 0], [1, 0], [0, 0]], None, founded=False) == [0, 1, 0]
    assert link([[2, -1], [9, -1]], [[1, 0], [1, 0]], founded=False) == [1, 0]


@pytest.mark.parametrize(
    "sentences",
    [
        [
            "If you're asking about Ada Brook, you might mean one of two women.",
            "If you like music, you'll know the Polish cellist, born in 1950.",
            "She taught in Gdańsk.",
            "If you follow ecology, you'll know the British ecologist born in 1975.",
        ],
        [
            "Two women share the name Ada Brook.",
            "You probably mean the cellist, who was born in 1950.",
            "She taught in Gdańsk.",
            "Or you may remember the ecologist, who studied peat bogs.",
        ],
        [
            "There are two people named Ada Brook.",
            "You might be thinking of the cellist, born in 1950.",
            "She taught in Gdańsk.",
            "Or you might mean the ecologist, born in 1975.",
        ],
    ],
)
def test_a_namesake_presented_to_the_reader_by_role(sentences: list[str]) -> None:
    groups = group_sentences(sentences, "Ada Brook")
    assert [g.disambiguator for g in groups if g.sentences[0] > 0] == ["cellist", "ecologist"]


def test_a_role_the_reader_knows_before_the_name_is_shared_is_no_cue() -> None:
    sentences = ["Ada Brook is a Polish cellist.", "You'll know the cellist from her recordings.", "She taught."]
    assert len(group_sentences(sentences, "Ada Brook")) == 1


@pytest.mark.parametrize(
    ("subject", "thing"),
    [
        ("Priya Raghunathan", "The Raghunathan bound, an estimate on gaps between primes, was proved by her in 1999."),
        ("Ada Brook", "The Brook bound, an estimate on gaps, was proved by her in 1999."),
        ("Priya Raghunathan", "The Raghunathan bound, a limit on sums, was proved in 1999."),
    ],
)
def test_a_name_ending_in_a_lower_case_word_is_a_thing(subject: str, thing: str) -> None:
    sentences = [f"{subject} is a mathematician.", thing, "She retired in 2020."]
    assert [g.sentences for g in group_sentences(sentences, subject)] == [[0, 1, 2]]
    assert len(group_sentences(sentences, subject, rules_off=frozenset({"lower-case-head"}))) == 2


@pytest.mark.parametrize(
    ("name", "thing"),
    [
        ("Achterberg projection", True),
        ("Valdane sieve", True),
        ("Nantwich rule", True),
        ("Ludwig van", False),  # a particle
        ("Ana de", False),
        ("Kenji Sato", False),
        ("Raghunathan", False),  # one word
    ],
)
def test_lower_case_head(name: str, thing: bool) -> None:
    from scoring.grouping import Mention, _lower_case_head

    assert _lower_case_head(Mention(name)) is thing


@pytest.mark.parametrize(
    "person",
    [
        "Ludwig van Beethoven was a German composer.",  # a particle is no lower-case head
        "John Smith is an English jockey.",
        "Ana de la Cruz is a Spanish painter.",
    ],
)
def test_names_with_particles_are_people(person: str) -> None:
    assert len(group_sentences(["Ada Brook is a mathematician.", person, "He won."], "Ada Brook")) == 2


def _planned_order(rules_off: frozenset[str]) -> list[str | None]:
    from scoring import nlp
    from scoring.decompose import decompose_doc
    from scoring.grouping import PerceivedGroup
    from scoring.offline import _plan_groups

    sentences = [
        "Did you mean Ada Brook the cellist?",
        "Or Ada Brook the ecologist?",
        "The cellist was born in Gdańsk in 1950.",
        "She taught at the Gdańsk Academy of Music from 1975.",
        "The ecologist surveyed 213 peat bogs in Wales.",
    ]
    individuals = [
        PerceivedGroup("Ada Brook", sentences=[0]),
        PerceivedGroup("Ada Brook", sentences=[1, 4], disambiguator="ecologist"),
        PerceivedGroup("Ada Brook", sentences=[2, 3], disambiguator="cellist"),
    ]
    atoms = [decompose_doc(doc, i) for i, doc in enumerate(nlp.parse(sentences))]
    return [g.individual.disambiguator for g in _plan_groups(individuals, atoms, sentences, rules_off)]


def test_the_individual_described_first_comes_first() -> None:
    assert _planned_order(frozenset()) == ["cellist", "ecologist"]
    assert _planned_order(frozenset({"claims-order"})) == ["ecologist", "cellist"]


@pytest.mark.parametrize(
    ("text", "lead"),
    [
        ("🎹 **Emrys Valdane — organist (1921 – 1999)**\nBorn in Llandeilo.", "Emrys Valdane — organist (1921 – 1999)"),
        (
            "💻 **Emrys Valdane — software engineer (b. 1987)**\nBorn in Swansea.",
            "Emrys Valdane — software engineer (b. 1987)",
        ),
        ("▶ **Kenji Sato**, potter: born 1951.", "Kenji Sato, potter"),
        ("🎹 Emrys Valdane played the organ.", None),  # no bold
        ("Emrys 🎹 **Valdane**", None),  # the bold does not open the paragraph
    ],
)
def test_emoji_before_a_bold_lead_are_decoration(text: str, lead: str | None) -> None:
    from scoring.segment.scopes import bold_lead

    assert bold_lead(text) == lead


@pytest.mark.parametrize(
    ("fact", "announces"),
    [
        ("There are at least two notable Americans named Harlan Beckwith.", True),
        ("There were at least three Welsh organists named Emrys Valdane.", True),
        ("There are exactly two Dutch women called Rosalind Achterberg.", True),
        ("There are at least two schools named after him in Ohio and Kansas.", False),  # things named after him
        ("There were at least three sons named in his will, each a farmer.", False),
        ("There are at least two glaciers in the Canadian Arctic that bear his name.", False),
    ],
)
def test_a_count_of_namesakes_is_an_announcement(fact: str, announces: bool) -> None:
    from schemas.enums import Worthiness
    from scoring.worthiness import classify_by_rule

    assert classify_by_rule(fact, fact) == (
        (Worthiness.OTHER, "existence-announcement") if announces else (Worthiness.FACTUAL, None)
    )
    off = classify_by_rule(fact, fact, frozenset({"existence-announcement"}))
    assert off == (Worthiness.FACTUAL, None)


@pytest.mark.parametrize(
    ("name", "text", "quoted"),
    [
        ("el Puma", 'Argentine newspapers call him "el Puma". His memoir appeared in 2019.', True),
        ("The Colonel", "Fans knew him as “the Colonel” from 1988.", True),
        ("Iron Lady", "She was nicknamed 'Iron Lady' by the press.", True),
        ("el Puma", "He climbed with a puma-skin pack.", False),  # the word, not the name in quotes
        ("Kofi Amankwah", "Ezekiel Amankwah is a Ghanaian-British jazz trumpeter.", False),
        ("Puma", 'His team was called "Pumas Mendoza".', False),  # a longer name in quotes
    ],
)
def test_a_page_that_quotes_the_name_as_a_nickname(name: str, text: str, quoted: bool) -> None:
    from scoring.linking import _quoted_name

    assert _quoted_name(name, text) is quoted


@pytest.mark.parametrize(
    ("answer", "declines"),
    [
        ("I can't tell you whether a bet will win.", True),
        ("I cannot predict who will win the race tomorrow.", True),
        ("I won't recommend a bet on any runner in that race.", True),
        ("He couldn't tell you whether it would rain.", False),  # not the assistant
        ("I can't tell you whether he won, but he did race in 2019.", False),  # answers after all
        ("I can tell you whether he won: he did, in 2019.", False),
    ],
)
def test_declining_to_forecast_or_advise(answer: str, declines: bool) -> None:
    from scoring.abstain import declines_or_asks

    assert declines_or_asks([answer]) is declines
    assert declines_or_asks([answer], frozenset({"refusal"})) is False
