"""The answer read as a document (scoring/segment): blocks with spans, person scopes from structure, fenced profiles,
sources and labels that claim nothing, and the sentence cues that must not open biographies."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.enums import Verdict
from scoring.grouping import find_mention, group_sentences
from scoring.nlp import parse_one
from scoring.pipeline import check
from scoring.segment.document import FENCE, HEADING, PARAGRAPH, SOURCES, TABLE, parse
from scoring.segment.scopes import Scope, scopes
from scoring.sentences import split_sentences

PAGES = [
    (
        "Kenji Sato (potter)",
        "Kenji Sato (born 1951) is a Japanese potter. He was born in Mashiko, Tochigi. He studied ceramics at the "
        "Kyoto City University of Arts. In 1988 he won the Mashiko Ceramics Prize. He built a climbing kiln in "
        "Mashiko in 1979. His work is held by the Tokyo National Museum.",
        [],
    ),
    (
        "Kenji Sato (sprinter)",
        "Kenji Sato (born 1990) is a Japanese sprinter. He was born in Osaka. He ran the 100 metres for Japan at the "
        "2012 Summer Olympics. He won the 200 metres at the 2014 Asian Games. He studied at Waseda University. He "
        "retired in 2021.",
        [],
    ),
]


@pytest.fixture(scope="module")
def kb() -> Store:
    store = Store.in_memory()
    store.add_pages(PAGES)
    return store


def _groups(text: str, subject: str = "Kenji Sato") -> list[list[str]]:
    sentences = split_sentences(text, frozenset())
    groups = group_sentences(
        [s.text for s in sentences],
        subject,
        list_items=[s.list_item for s in sentences],
        rules_off=frozenset(),
        scopes=[s.scope for s in sentences],
        labels=[s.label for s in sentences],
    )
    return [[sentences[i].text for i in g.sentences] for g in groups]


# --- the document ---------------------------------------------------------------------------------------------


def test_blocks_keep_their_spans_nesting_cells_and_language() -> None:
    text = (
        "## Kenji Sato\n\n> He is a *potter*.\n\n- Born in 1951\n  - in Mashiko\n\n"
        "| Field | Value |\n|---|---|\n| Prize | Mashiko (1988) |\n\n```yaml\nborn: 1951\n```\n"
    )
    doc = parse(text)
    assert [(b.kind, b.depth, b.quoted) for b in doc.blocks] == [
        (HEADING, 0, False),
        (PARAGRAPH, 0, True),
        (PARAGRAPH, 1, False),
        (PARAGRAPH, 2, False),
        (TABLE, 0, False),
        (FENCE, 0, False),
    ]
    assert [text[slice(*b.span)].strip() for b in doc.blocks[:3]] == [
        "## Kenji Sato",
        "> He is a *potter*.",
        "- Born in 1951",
    ]
    assert doc.blocks[4].rows == (("Field", "Value"), ("Prize", "Mashiko (1988)"))
    assert (doc.blocks[5].info, doc.blocks[5].text) == ("yaml", "born: 1951\n")
    assert doc.blocks[2].items[0] in doc.blocks[3].items  # the nested item is inside its parent
    assert all(b.section == 0 for b in doc.blocks[1:])


def test_citation_markers_are_found_with_their_spans() -> None:
    text = "He won the prize [1]. He retired.[^2][citation needed] See [a]."
    doc = parse(text)
    assert [text[a:b] for a, b in doc.citations] == [" [1]", "[^2]", "[citation needed]"]


# --- person scopes from structure -----------------------------------------------------------------------------

HEADINGS = [
    "### Kenji Sato, potter\n\nKenji Sato was born in 1951 in Mashiko. He won the Mashiko Ceramics Prize in 1988.\n\n"
    "### Kenji Sato, sprinter\n\nKenji Sato was born in 1990 in Osaka. He won the 200 metres at the 2014 Asian Games.",
    "Two people share this name.\n\n## Kenji Sato (potter)\n\nBorn in Mashiko in 1951, he studied ceramics in Kyoto."
    "\n\n## Kenji Sato (sprinter)\n\nBorn in Osaka in 1990, he ran the 100 metres at the 2012 Summer Olympics.",
    "# Kenji Sato — potter\nHe built a climbing kiln in Mashiko in 1979.\n# Kenji Sato — sprinter\n"
    "He retired in 2021 after winning the 200 metres at the 2014 Asian Games.",
]
LEAD_INS = [
    "**Kenji Sato, potter (b. 1951).** He was born in Mashiko and won the Mashiko Ceramics Prize in 1988.\n\n"
    "**Kenji Sato, sprinter (b. 1990).** He was born in Osaka and won the 200 metres at the 2014 Asian Games.",
    "**Kenji Sato (potter)**: born in 1951, he built a climbing kiln in Mashiko.\n\nHis work is held by the Tokyo "
    "National Museum.\n\n**Kenji Sato (sprinter)**: born in 1990, he retired in 2021.",
    "**Kenji Sato**, potter: He studied ceramics in Kyoto.\n\n**Kenji Sato**, sprinter: He studied at Waseda "
    "University.",
]
ROWS = [
    "| Name | Occupation | Born | Known for |\n|---|---|---|---|\n| Kenji Sato | Potter | 1951 | Mashiko Ceramics "
    "Prize |\n| Kenji Sato | Sprinter | 1990 | 200 metres, 2014 Asian Games |",
    "| Person | Field | Birthplace |\n|---|---|---|\n| Kenji Sato (potter) | ceramics | Mashiko |\n"
    "| Kenji Sato (sprinter) | athletics | Osaka |",
    "| Kenji Sato | Role | Education |\n|---|---|---|\n| Kenji Sato | potter | Kyoto City University of Arts |\n"
    "| Kenji Sato | sprinter | Waseda University |",
]
ITEMS = [
    "There are two:\n\n- **Kenji Sato (potter)**: born in 1951 in Mashiko.\n  - Won the Mashiko Ceramics Prize.\n"
    "- **Kenji Sato (sprinter)**: born in 1990 in Osaka.\n  - Won the 200 metres.",
    "1. Kenji Sato, potter: He built a kiln in Mashiko in 1979.\n2. Kenji Sato, sprinter: He retired in 2021.",
    "* **Kenji Sato, potter** — studied ceramics in Kyoto.\n* **Kenji Sato, sprinter** — studied at Waseda.",
]


@pytest.mark.parametrize("text", HEADINGS + LEAD_INS + ROWS + ITEMS)
def test_each_namesake_laid_out_by_structure_is_one_group(text: str) -> None:
    groups = _groups(text)
    scoped = [g for g in groups if any(w in " ".join(g) for w in ("1951", "Mashiko", "ceramics", "potter", "kiln"))]
    other = [g for g in groups if any(w in " ".join(g) for w in ("1990", "Osaka", "Waseda", "200 metres", "retired"))]
    assert len(scoped) == 1 and len(other) == 1 and scoped != other, groups


@pytest.mark.parametrize("text", [HEADINGS[0], LEAD_INS[0], ROWS[0], ITEMS[0]])
def test_a_correct_answer_about_namesakes_by_layout_is_not_conflated(kb: Store, text: str) -> None:
    result = check(text, kb=kb, name="Kenji Sato", question="Who is Kenji Sato?")
    assert sorted(g.entity or "" for g in result.groups) == ["Kenji Sato (potter)", "Kenji Sato (sprinter)"]
    assert not any(g.conflated for g in result.groups)
    assert result.dfactscore is not None and result.dfactscore >= 0.75


@pytest.mark.parametrize(
    "text",
    [
        "## Early life\n\nKenji Sato was born in Mashiko.\n\n## Career\n\nHe won the Mashiko Ceramics Prize.",
        "### Kenji Sato\n\nHe is a potter. He was born in Mashiko.",  # one lead: no boundary to draw
        "**Born:** 1951\n\n**Prize:** Mashiko Ceramics Prize",
        # counted section headings with years: parts of one life, no role glossed
        "### 1. Karriere (1970–1990)\n\nHe won a prize.\n\n### 2. Later years, 1990–2010\n\nHe retired.",
        "### 1. Early years\n\nHe was born in Mashiko.\n\n### 2. Kilns (the climbing kiln, 1979)\n\nHe built one.",
    ],
)
def test_labels_and_a_single_lead_open_no_scope(text: str) -> None:
    assert scopes(parse(text)).scopes == ()


def test_a_scope_keeps_its_sentences_together_whatever_their_cues() -> None:
    text = (
        "### Kenji Sato, potter\n\nKenji Sato was born in 1951. Another Kenji Sato taught him glazing.\n\n"
        "### Kenji Sato, sprinter\n\nHe was born in 1990."
    )
    groups = _groups(text)
    assert len(groups) == 2
    assert "Another Kenji Sato taught him glazing." in groups[0]


# --- fenced profiles ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            '```json\n{"name": "Kenji Sato", "born": 1951, "occupation": "potter",\n'
            ' "awards": ["Mashiko Prize (1988)"]}\n```',
            ["Kenji Sato", "Born: 1951", "Occupation: potter", "Awards: Mashiko Prize in 1988"],
        ),
        (
            "```yaml\nname: Kenji Sato\nbirth_place: Mashiko, Tochigi\neducation:\n"
            "  - Kyoto City University of Arts\n```",
            ["Kenji Sato", "Birthplace: Mashiko, Tochigi", "Education: Kyoto City University of Arts"],
        ),
        (
            '```\n{"person": {"fullName": "Kenji Sato", "dateOfBirth": "1951"}}\n```',
            ["Kenji Sato", "Date of birth: 1951"],
        ),
    ],
)
def test_a_fenced_profile_is_read_as_records(text: str, expected: list[str]) -> None:
    assert [s.text for s in split_sentences(text, frozenset())] == expected


def test_a_list_of_fenced_profiles_is_a_scope_per_person() -> None:
    text = (
        '```json\n[{"name": "Kenji Sato", "occupation": "potter", "born": 1951},\n'
        ' {"name": "Kenji Sato", "occupation": "sprinter", "born": 1990}]\n```'
    )
    assert len(_groups(text)) == 2


def test_a_json_profile_of_a_correct_answer_scores_as_its_facts(kb: Store) -> None:
    text = (
        'Here is his profile:\n\n```json\n{\n  "name": "Kenji Sato",\n  "born": 1951,\n  "birthplace": "Mashiko",\n'
        '  "occupation": "potter",\n  "awards": ["Mashiko Ceramics Prize (1988)"]\n}\n```'
    )
    result = check(text, kb=kb, name="Kenji Sato", question="Who is Kenji Sato?")
    assert result.factscore is not None and result.factscore >= 0.8
    assert result.num_facts >= 4


def test_code_that_is_no_profile_stays_text() -> None:
    assert [s.text for s in split_sentences("```python\nprint('hi')\n```", frozenset())] == ["print('hi')"]


# --- what claims nothing -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "He won the Mashiko Ceramics Prize [1].\n\nSources:\n1. Japan Ceramics Society, 2015.\n2. Tokyo Museum.",
        "He won the Mashiko Ceramics Prize.\n\n## References\n\n- Japan Ceramics Society, 2015\n\nTokyo Museum.",
        "He won the Mashiko Ceramics Prize.[^1]\n\nhttps://example.org/sato\n\n[^1]: Japan Ceramics Society (2015).",
        "He won the Mashiko Ceramics Prize.\n\n**Further reading:** Japan Ceramics Society, Mashiko potters.",
        # a search snippet's sources, set off by a middle dot, a bar or a dash
        "He won the Mashiko Ceramics Prize.\n\nSources · ceramics.example · mashiko-museum.example",
        "He won the Mashiko Ceramics Prize.\n\nReferences | ceramics.example | tokyo-museum.example",
        "He won the Mashiko Ceramics Prize.\n\nSource — Japan Ceramics Society yearbook",
    ],
)
def test_sources_footnotes_and_citation_markers_are_not_claims(text: str) -> None:
    assert [s.text for s in split_sentences(text, frozenset())] == ["He won the Mashiko Ceramics Prize."]
    assert any(b.kind == SOURCES for b in parse(text).blocks) or "[^1]:" in text


@pytest.mark.parametrize(
    "text",
    [
        # a label-like first word that is no sources label, or a sources word inside a sentence
        "He won the Mashiko Ceramics Prize.\n\nSourcing · he dug his own clay in Mashiko.",
        "He won the Mashiko Ceramics Prize.\n\nHis sources of clay were Mashiko and Shigaraki.",
    ],
)
def test_lines_that_only_look_like_sources_are_claims(text: str) -> None:
    assert len(split_sentences(text, frozenset())) == 2
    assert not any(b.kind == SOURCES for b in parse(text).blocks)


@pytest.mark.parametrize(
    "text",
    [
        "Kenji Sato is a Japanese potter.\n\n## Recognition\n\nIn 1988 he won the Mashiko Ceramics Prize.",
        "**Short answer:**\n\nKenji Sato is a Japanese potter.\n\n**Details:**\n\nHe won the Mashiko Ceramics Prize.",
        "### TL;DR\nKenji Sato is a potter.\n### Legacy\nHis work is held by the Tokyo National Museum.",
    ],
)
def test_labels_are_not_subjects(text: str) -> None:
    assert len(_groups(text)) == 1


@pytest.mark.parametrize(
    "text",
    [
        "Kenji Sato is a potter. First, he was born in Mashiko. Second, he studied in Kyoto. Third, he won a prize.",
        "Kenji Sato is a potter. Secondly, he built a kiln. Thirdly, he taught. Finally, he retired.",
        "Kenji Sato is a sprinter. First, she ran in 2012. Second, she won in 2014. Lastly, she retired in 2021.",
    ],
)
def test_ordinals_before_a_pronoun_do_not_open_biographies(text: str) -> None:
    assert len(_groups(text)) == 1


def test_an_ordinal_before_a_name_still_presents_another() -> None:
    text = "Kenji Sato is a potter born in 1951. Second, there is also a Kenji Sato who is a sprinter born in 1990."
    assert len(_groups(text)) == 2


@pytest.mark.parametrize(
    "text",
    [
        'Born on 2 May 1997 in Kano, "Swift" is the nickname of Amara Okafor, a Nigerian sprinter.',
        'Raised in Lagos, "Swift" won the 100 metres in 2019.',
        "After years of training in Ibadan, “Swift” became the national champion.",
    ],
)
def test_an_opening_phrase_before_a_quoted_nickname_is_not_the_subject(text: str) -> None:
    mention = find_mention(parse_one(text))
    assert mention is None or mention.name == "Amara Okafor"


VANCE_TABLE = (
    "| Name | Lived | Occupation | Highlights |\n|---|---|---|---|\n"
    "| Theodore Vance (boxer) | 1909–1971 | Middleweight boxer | Won the national title in 1936 |\n"
    "| Theodore R. Vance (politician) | b. 1952 | Politician | Mayor of Linden Falls (1999–2007) |\n\n"
)


def test_a_row_per_person_is_read_as_records_under_its_headers() -> None:
    assert [(s.text, s.list_item) for s in split_sentences(VANCE_TABLE, frozenset())] == [
        ("Born: 1909", False),
        ("Died: 1971", False),
        ("Occupation: Middleweight boxer", False),
        ("Won the national title in 1936", True),  # no label a predicate: an item about the person
        ("Born: 1952", False),
        ("Occupation: Politician", False),
        ("Mayor of Linden Falls, 1999–2007", True),  # the years close the item: they date it
    ]


@pytest.mark.parametrize(
    ("after", "role"),
    [
        ("The boxer later trained young fighters.", "boxer"),
        ("The politician wrote a book on water policy.", "politician"),
        ("And the boxer? He retired in 1941.", "boxer"),
    ],
)
def test_a_role_after_a_table_of_people_turns_to_that_rows_person(after: str, role: str) -> None:
    groups = _groups(VANCE_TABLE + after, "Theodore Vance")
    assert len(groups) == 2
    mine = next(g for g in groups if after.split("?")[0] in " ".join(g) or after in g)
    assert any(("Middleweight" if role == "boxer" else "Politician") in s for s in mine)


@pytest.mark.parametrize(
    "text",
    [
        # a column per person
        "| | Kenji Sato (potter) | Kenji Sato (sprinter) |\n|---|---|---|\n| Born | 1951 | 1990 |\n"
        "| Birthplace | Mashiko | Osaka |",
        # timelines under bold labels
        "**Kenji Sato, potter**\n\n- 1951: born in Mashiko\n- 1988: Mashiko Ceramics Prize\n\n"
        "**Kenji Sato, sprinter**\n\n- 1990: born in Osaka\n- 2014: 200 metres at the Asian Games",
        # nested bullets
        "- Kenji Sato (potter):\n  - born in 1951 in Mashiko\n  - Mashiko Ceramics Prize, 1988\n"
        "- Kenji Sato (sprinter):\n  - born in 1990 in Osaka\n  - 200 metres, 2014 Asian Games",
    ],
)
def test_more_layouts_keep_namesakes_apart(text: str) -> None:
    groups = _groups(text)
    assert len(groups) == 2, groups
    assert any("1951" in s for s in groups[0]) and not any("1990" in s for s in groups[0])


@pytest.mark.parametrize(
    "text",
    [
        # numbered headings that name the role in another language, glossed, with the dates after a comma
        "Det finnes to.\n\n### 1. Keramikeren (the potter), 1951\n\nBorn in Mashiko; won the Mashiko Ceramics "
        "Prize in 1988.\n\n### 2. Sprinteren (the sprinter), born 1990\n\nBorn in Osaka; retired in 2021.",
        # emoji before the name
        "### 🏺 Kenji Sato — the potter (b. 1951)\n\nHe built a kiln in Mashiko.\n\n"
        "### 🏃 Kenji Sato — the sprinter (b. 1990)\n\nHe was born in Osaka.",
        # numbered leads in bold, counted with a parenthesis
        "**1) Kenji Sato, potter (b. 1951).** Born in Mashiko.\n\n**2) Kenji Sato, sprinter (b. 1990).** Born in "
        "Osaka.",
    ],
)
def test_counted_or_decorated_leads_keep_namesakes_apart(text: str) -> None:
    groups = _groups(text)
    potter = [g for g in groups if any(w in " ".join(g) for w in ("1951", "Mashiko", "potter"))]
    sprinter = [g for g in groups if any(w in " ".join(g) for w in ("1990", "Osaka", "sprinter"))]
    assert len(potter) == 1 and len(sprinter) == 1 and potter != sprinter, groups


# --- the subject from the question, for any kind of answer --------------------------------------------------------

PRODUCT_PAGES = [
    (
        "Acme X2",
        "The Acme X2 is a Wi-Fi 6 router made by Acme Networks and released in 2022. It has four gigabit LAN ports and "
        "one 2.5-gigabit WAN port. It launched at $129 and has a two-year warranty.",
        [],
    ),
    (
        "Acme Networks",
        "Acme Networks is a networking company founded in 2009 in Leeds by Priya Mehta. It makes routers, switches and "
        "mesh systems, including the Acme X2 router.",
        [],
    ),
]


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        (
            "What are the specs of the Acme X2?",
            "| Spec | Value |\n|---|---|\n| Wi-Fi | Wi-Fi 6 |\n| LAN ports | four gigabit ports |\n"
            "| Launch price | $129 |\n| Warranty | two years |",
        ),
        ("How many LAN ports does the Acme X2 have?", "It has four gigabit LAN ports and one 2.5-gigabit WAN port."),
        ("When did the Acme X2 come out?", "Acme Networks released it in 2022, at a launch price of $129."),
    ],
)
def test_without_a_name_the_question_says_what_the_answer_is_about(question: str, answer: str) -> None:
    kb = Store.in_memory()
    kb.add_pages(PRODUCT_PAGES)
    result = check(answer, kb=kb, question=question)
    assert result.status == "checked"
    assert {g.entity for g in result.groups} == {"Acme X2"}
    assert result.factscore is not None and result.factscore >= 0.6


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        ("Who founded Corvane?", "Corvane"),
        ("How many LAN ports does the Corvane Nimbus AX3200 have?", "Corvane Nimbus AX3200"),
        ("What does the OrbiSync Pro plan cost per month?", "OrbiSync Pro"),
        ("Where was Kenji Sato born?", "Kenji Sato"),
        ("how do i reset it?", ""),
    ],
)
def test_the_subject_of_a_question(question: str, subject: str) -> None:
    from scoring.segment.question import question_subject

    assert question_subject(question) == subject


CROSSED = [
    "### Kenji Sato, potter\n\nKenji Sato was born in 1951 in Mashiko. He won the 200 metres at the 2014 Asian Games."
    "\n\n### Kenji Sato, sprinter\n\nKenji Sato was born in 1990 in Osaka. He won the Mashiko Ceramics Prize in 1988.",
    "**Kenji Sato, potter (b. 1951).** He was born in Mashiko and studied at Waseda University.\n\n"
    "**Kenji Sato, sprinter (b. 1990).** He was born in Osaka and studied ceramics at the Kyoto City University.",
    "| Name | Occupation | Born | Birthplace |\n|---|---|---|---|\n| Kenji Sato | Potter | 1951 | Osaka |\n"
    "| Kenji Sato | Sprinter | 1990 | Mashiko |",
]


@pytest.mark.parametrize("text", CROSSED)
def test_facts_crossed_between_namesakes_laid_out_by_structure_are_caught(kb: Store, text: str) -> None:
    result = check(text, kb=kb, name="Kenji Sato")
    assert sorted(g.entity or "" for g in result.groups) == ["Kenji Sato (potter)", "Kenji Sato (sprinter)"]
    assert result.factscore is not None and result.dfactscore is not None
    assert result.dfactscore < result.factscore
    # Each person's one crossed value is not supported by their own page; one such fact is a value crossed between
    # the namesakes the answer tells apart, not a merge (``namesake-fact-once``: no group is flagged).
    assert all(any(f.verdict_linked is Verdict.NOT_SUPPORTED for f in g.facts) for g in result.groups)
    assert not any(g.conflated for g in result.groups)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("He read [*The Open Field*](https://example.org/book) in 1948.", "He read The Open Field in 1948."),
        ("She sold it for \\$5 &amp; a `dozen` _rare_ __prints__.", "She sold it for $5 & a dozen rare prints."),
        (
            "His first album, `Enjoy', came out in 1992 <https://example.org>.",
            "His first album, Enjoy', came out in 1992 https://example.org.",
        ),
    ],
)
def test_inline_markup_is_read_by_the_parser(text: str, read: str) -> None:
    assert [s.text for s in split_sentences(text, frozenset())] == [read]


def test_a_one_row_profile_table_is_read_as_records_of_its_person() -> None:
    text = (
        "| Name | Description | Born | Highlights |\n|---|---|---|---|\n"
        "| Mary Ellen Castellane | American labor organizer | 1888, Lowell | Leader, Ashgrove Mills strike (1919) |"
    )
    sentences = split_sentences(text, frozenset())
    assert [(s.text, s.list_item) for s in sentences] == [
        ("American labor organizer", True),
        ("Born: 1888, Lowell", False),
        ("Leader, Ashgrove Mills strike, 1919", True),
    ]
    # One person: one scope, the answer's subject's (grouping gives it the subject's individual), told apart by the
    # row's description.
    row = Scope(0, "Mary Ellen Castellane", "American labor organizer", "1888, Lowell", "row", sole=True)
    assert {s.scope for s in sentences} == {row}


@pytest.mark.parametrize(
    "sentence",
    [
        "He was mayor of Linden Falls, Ohio (1999–2007).",
        "He was organist, Elverhøy Church, Tromsø (1939–1950).",
        "She lived in Lagos, Nigeria (2001–2009).",
    ],
)
def test_years_after_a_place_are_a_term_not_a_life(sentence: str) -> None:
    from scoring.decompose import decompose_sentence

    facts = [f.text for f in decompose_sentence(sentence)]
    assert not any(" was born " in f or " died " in f for f in facts), facts


def test_years_after_a_person_are_still_a_life() -> None:
    from scoring.decompose import decompose_sentence

    facts = [f.text for f in decompose_sentence("She married Paul Weller (1950–2019) in 1975.")]
    assert "Paul Weller was born in 1950." in facts and "Paul Weller died in 2019." in facts


@pytest.mark.parametrize(
    "text",
    [
        "There are two.\n\nKenji Sato, the potter:\n- He was born in 1951.\n- He built a kiln in Mashiko.\n\n"
        "Kenji Sato, the sprinter:\n- He was born in 1990.\n- He retired in 2021.",
        "Kenji Sato (potter):\n\n1. Born in 1951.\n2. Built a kiln in Mashiko.\n\nKenji Sato (sprinter):\n\n"
        "1. Born in 1990.\n2. Retired in 2021.",
        "Kenji Sato — potter:\n* born in 1951\n* built a kiln in Mashiko\n\nKenji Sato — sprinter:\n* born in 1990\n"
        "* retired in 2021",
    ],
)
def test_a_line_that_presents_a_person_before_a_list_scopes_the_list(text: str) -> None:
    groups = _groups(text)
    potter = [g for g in groups if any("1951" in s for s in g)]
    sprinter = [g for g in groups if any("1990" in s for s in g)]
    assert len(potter) == 1 and len(sprinter) == 1 and potter != sprinter
    assert any("Mashiko" in s for s in potter[0]) and any("2021" in s for s in sprinter[0])


@pytest.mark.parametrize(
    "text",
    [
        "Oona Castelvecchi is a writer. First, she was born in 1966. Second, Castelvecchi published a novel in 1997. "
        "Third, Castelvecchi won a prize.",
        "Oona Castelvecchi is a writer. Second, Oona Castelvecchi moved to Boston. Finally, Castelvecchi retired.",
        "Kenji Sato is a potter. Next, Sato built a kiln. Lastly, Kenji Sato taught in Kyoto.",
        # a hyphenated surname is several tokens
        "Oona Castelvecchi-Brandt is a writer. Second, Castelvecchi-Brandt wrote a novel. Third, she won a prize.",
        "Kenji Sato-Mori is a potter. First, he was born in 1951. Second, Sato-Mori built a kiln.",
        "Kenji Sato-Mori is a potter. Finally, Kenji Sato-Mori taught in Kyoto.",
    ],
)
def test_ordinals_before_the_current_persons_name_do_not_open_biographies(text: str) -> None:
    subject = text.split(" is ")[0]
    assert len(_groups(text, subject)) == 1


@pytest.mark.parametrize(
    "aside",
    [
        "It helps to keep in mind how much can change over the course of a few decades.",
        "It's striking how many different threads run through a single biography.",
        "Put simply, it's a life with several distinct chapters.",
        "There are two ways to read his career.",
    ],
)
def test_a_count_of_things_is_no_namesake_announcement(aside: str) -> None:
    """Only a count of people or of the name itself says the name is shared; after a count of decades, threads or
    chapters, "Second, Castelvecchi …" still counts the points of one story."""
    text = f"Oona Castelvecchi is a writer. First, she was born in 1966. {aside} Second, Castelvecchi wrote a novel."
    assert len(_groups(text, "Oona Castelvecchi")) == 1


@pytest.mark.parametrize(
    "announcement",
    [
        "There are two well-known Castelvecchis.",
        "Several people share the name.",
        "There are two notable ones.",
    ],
)
def test_after_a_namesake_announcement_an_ordinal_name_presents_another(announcement: str) -> None:
    text = f"{announcement} Oona Castelvecchi is a writer. Second, Oona Castelvecchi the rower won a medal."
    assert len(_groups(text, "Oona Castelvecchi")) >= 2


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        ("First, he was born in Mashiko.", "He was born in Mashiko."),
        ("Third, Castelvecchi won the Gilded Quill Award.", "Castelvecchi won the Gilded Quill Award."),
        ("Finally, she retired in 2021.", "She retired in 2021."),
    ],
)
def test_an_ordinal_that_counts_the_points_is_no_part_of_the_fact(sentence: str, fact: str) -> None:
    from scoring.decompose import decompose_sentence

    assert fact in [f.text for f in decompose_sentence(sentence)]


def test_an_ordinal_inside_a_claim_stays() -> None:
    from scoring.decompose import decompose_sentence

    assert "He first won the prize in 1990." in [f.text for f in decompose_sentence("He first won the prize in 1990.")]


@pytest.mark.parametrize(
    "text",
    [
        "**Kenji Sato** is a potter.\n\n**Born.** He was born in 1951.\n\n**Book.** He wrote Clay Days.\n\n"
        "**Family.** He is married to Aiko Mori.",
        "**Kenji Sato** is a potter.\n\n**Mashiko Pottery School.** He taught there from 1980.\n\n"
        "**Kiln.** He built a climbing kiln in 1979.",
        "**Kenji Sato** is a potter.\n\n**Race debut.** He never raced.\n\n**Legacy.** His work is held in Tokyo.",
    ],
)
def test_bold_labels_that_open_paragraphs_present_no_one(text: str) -> None:
    groups = _groups(text)
    assert len(groups) == 1, groups
    labelled = [s for s in split_sentences(text, frozenset()) if s.label]
    assert labelled and all(len(s.text.split()) <= 3 for s in labelled)
