"""Timelines and trees drawn with characters (scoring/segment/drawings.py; the ``drawn-trees`` and
``drawn-timelines`` readings of scoring/segment/formats.py), and words a hard-wrapped text breaks at a line's end
(``broken-words``): phrasings each reads, look-alikes each must leave alone."""

from __future__ import annotations

import pytest

from scoring.segment.drawings import drawn_cards
from scoring.segment.formats import read_formats
from scoring.sentences import split_sentences


def _texts(answer: str, rules_off: frozenset[str] = frozenset()) -> list[str]:
    return [s.text for s in split_sentences(answer, rules_off)]


# --- drawn trees (drawn-trees) -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        (
            "Ada Quill\n├── potter · b. 1951, Leeds\n│   ├── Kiln Group, 1977\n│   └── Hamada Prize, 1988\n└── poet",
            ["- potter · b. 1951, Leeds", "  - Kiln Group, 1977", "  - Hamada Prize, 1988", "- poet"],
        ),
        (
            "```\nKenji Sato\n├─ born 1951, Mashiko\n└─ works\n   ├─ Blue Jar (1980)\n   └─ Red Bowl (1985)\n```",
            ["- born 1951, Mashiko", "- works", "  - Blue Jar (1980)", "  - Red Bowl (1985)"],
        ),
        (
            "Mind map:\n\nLina Berg\n|-- studied in Oslo\n|   `-- PhD 2004\n`-- moved to Bergen in 2010",
            ["- studied in Oslo", "  - PhD 2004", "- moved to Bergen in 2010"],
        ),
        (
            "Ada\n├── singer and\n│   songwriter\n└── died 2011",
            ["- singer and songwriter", "- died 2011"],
        ),
    ],
)
def test_a_drawn_tree_is_a_nested_list(text: str, lines: list[str]) -> None:
    made = read_formats(text).split("\n")
    assert all(line in made for line in lines), made
    assert not any("├" in t or "|--" in t for t in _texts(text))
    assert read_formats(text, frozenset({"drawn-trees"})) == text


def test_a_drawn_tree_is_read_item_by_item() -> None:
    text = "```\nAda Quill\n├── potter · b. 1951, Leeds\n│   ├── Kiln Group, 1977\n│   └── Hamada Prize, 1988\n```"
    assert _texts(text)[-2:] == ["Kiln Group, 1977", "Hamada Prize, 1988"]


@pytest.mark.parametrize(
    "text",
    [
        "| Born | 1951 |\n|---|---|\n| Died | 2011 |",  # a markdown table: its rule is no branch
        "│ Born │ 1951 │\n│ Died │ 2011 │\n│ Wed  │ 1975 │",  # a box table's rows close with a bar
        "Ada\n├── potter",  # one branch
        "```bash\nsrc\n├── main.py\n└── util.py\n```",  # a fence of code (a directory listing)
        "She chose A | B, then\n| C as well.",  # pipes in prose
    ],
)
def test_what_is_no_drawn_tree_stays(text: str) -> None:
    assert read_formats(text) == text


# --- drawn timelines (drawn-timelines) -----------------------------------------------------------------------------

GANTT = (
    "```\n"
    "1871 ──────────────────────────────── 1944\n"
    "born Penzance ▲\n"
    "Cambridge, nat. sci.   ████ → graduates 1893\n"
    "marries Edith Trevaskis        ▲ 1899\n"
    "Keeper of herbarium, Dowanhill,    ███████████ 1902–1931\n"
    "  Glasgow\n"
    "Yunnan expeditions                  ▲ 1906 ▲ 1910\n"
    "European Championships, Tartu            ▲ 2018 — bronze\n"
    "```"
)


@pytest.mark.parametrize(
    ("text", "rows"),
    [
        (
            GANTT,
            [
                "|  | born Penzance |",
                "|  | Cambridge, nat. sci., graduates 1893 |",
                "| 1899 | marries Edith Trevaskis |",
                "| 1902–1931 | Keeper of herbarium, Dowanhill, Glasgow |",
                "| 1906 | Yunnan expeditions |",
                "| 1910 | Yunnan expeditions |",
                "| 2018 | European Championships, Tartu, bronze |",
            ],
        ),
        (
            "takes up archery, age 11 ▲ (2004)\nOlympic Games    ▲ 2021 — 9th\nworld ranking     ▲ 2022 — 6th",
            ["| 2004 | takes up archery, age 11 |", "| 2021 | Olympic Games, 9th |", "| 2022 | world ranking, 6th |"],
        ),
        (
            "1990 ───────── now\nschool ● 1996\nfirst job     ● 2001\nchair  ◆ 2015",
            ["| 1996 | school |", "| 2001 | first job |", "| 2015 | chair |"],
        ),
    ],
)
def test_a_drawn_timeline_is_a_table_of_dated_rows(text: str, rows: list[str]) -> None:
    made = read_formats(text)
    assert all(row in made.split("\n") for row in rows), made
    assert "───" not in made and "▲" not in made
    assert read_formats(text, frozenset({"drawn-timelines"})) == text


def test_a_drawn_timeline_is_read_row_by_row() -> None:
    texts = _texts(GANTT)
    assert not any("▲" in t or "───" in t or "█" in t for t in texts), texts
    assert any("Edith Trevaskis" in t and "1899" in t and "Penzance" not in t for t in texts), texts


@pytest.mark.parametrize(
    "text",
    [
        "● Born in Leeds\n● Studied in York\n● Died in Hull",  # bullets pointing at no date
        "Key facts ▲\nBorn 1951 ▲\nDied 2011",  # two rows, no axis
        "■ Weight 7.9 kg\n■ Noise 58 dB\n■ Warranty 3 years",  # boxes of a spec sheet
        "```python\nx = 1 ▲ 1999\ny = 2 ▲ 2000\nz = 3 ▲ 2001\n```",  # a fence of code
    ],
)
def test_what_is_no_drawn_timeline_stays(text: str) -> None:
    assert read_formats(text) == text


# --- words broken at a line's end (broken-words) -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "joined"),
    [
        (
            "Born in Laventille, Ever-\nton Ashby was making pans from oil drums; he was its ar-\nranger. His "
            "arrangements won the na-\ntional prize.",
            ["Everton", "arranger.", "national"],
        ),
        ("He devel-\noped a method and fin-\nished second.", ["developed", "finished"]),
        ("```\nShe taught at the Con-\nservatory of Mu-\nsic in Oslo.\n```", ["Conservatory", "Music"]),
    ],
)
def test_words_broken_at_line_ends_are_joined(text: str, joined: list[str]) -> None:
    made = read_formats(text)
    assert all(word in made for word in joined), made
    assert "-\n" not in made
    assert read_formats(text, frozenset({"broken-words"})) == text


@pytest.mark.parametrize(
    "text",
    [
        "She is a well-\nknown potter from Leeds.",  # one break: a compound's hyphen may end the line
        "From 1961-\n1999 he tuned pans; from 1968-\n2001 he led the band.",  # ranges of numbers
        "He tuned pans -\nand taught -\nin Port of Spain.",  # a dash set off by a space
        "Pan-\nAfrican games, Afro-\nCaribbean music.",  # the next line opens with a capital: a compound
    ],
)
def test_hyphens_that_break_no_word_stay(text: str) -> None:
    assert read_formats(text) == text


# --- rules drawn between parts (drawn-rules) -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("━━━━━━━━━━\n**① BEFORE YOU START**\n━━━━━━━━━━\n• Maximum slope: 35 %", "① BEFORE YOU START"),
        ("Ada Quill\n──────────\nborn 1951 in Leeds", "born 1951 in Leeds"),
        ("Career\n═══════\nShe taught in York.\n▬▬▬▬▬▬", "She taught in York."),
    ],
)
def test_a_drawn_rule_parts_paragraphs(text: str, kept: str) -> None:
    texts = _texts(text)
    assert kept in texts, texts
    assert not any(ch in t for t in texts for ch in "━─═▬"), texts
    assert read_formats(text, frozenset({"drawn-rules"})) == text


@pytest.mark.parametrize(
    "text",
    [
        "┌──────┬──────┐\n│ Born │ 1951 │\n└──────┴──────┘",  # a table's borders have corners
        "She wrote ── and then stopped.",  # strokes inside a line of words
        "+------+\n| Born |\n+------+",  # ASCII borders
        "Score: 3 ━━ 1",  # strokes between values
    ],
)
def test_strokes_that_are_no_rule_between_parts_stay(text: str) -> None:
    made = read_formats(text, frozenset({"box-tables"}))
    assert made == text


# --- HTML (html-markup) ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        (
            "<p><strong>Ada Quill</strong> is a potter, born in Leeds in 1951.</p>\n<ul>\n<li>Kiln Group, "
            "1977</li>\n<li>Hamada Prize, appointed 1988</li>\n</ul>",
            ["Ada Quill is a potter, born in Leeds in 1951.", "Kiln Group, 1977", "Hamada Prize, appointed 1988"],
        ),
        (
            "Here is the HTML:\n\n```html\n<h2>Ada Quill</h2>\n<p>Potter.<br>Born 1951 in Leeds.</p>\n```",
            ["Ada Quill", "Potter.", "Born 1951 in Leeds."],
        ),
        (
            "<div><h3>Career</h3><ol><li>Studied in York &amp; Leeds</li><li><em>Blue Jar</em> (1980)</li></ol></div>",
            ["Career", "Studied in York & Leeds", "Blue Jar (1980)"],
        ),
    ],
)
def test_an_answer_in_html_is_read_as_its_markdown(text: str, sentences: list[str]) -> None:
    texts = _texts(text)
    assert all(s in texts for s in sentences), texts
    assert not any("<" in t or ">" in t for t in texts), texts
    assert read_formats(text, frozenset({"html-markup"})) != read_formats(text)


@pytest.mark.parametrize(
    "text",
    [
        "Wrap each paragraph in a <p> tag.",  # names one tag
        "She scored 3 < 5 and 7 > 2 in the two rounds.",  # angle brackets of comparison
        "```xml\n<person><name>Ada</name></person>\n```",  # a fence of XML, no HTML's
        "Use <strong> for bold and </em> closes italics.",  # tags named, none paired
        "| Year | Event |\n|---|---|\n| 1990<br>1995 | <b>Born</b> in <i>Leeds</i> |",  # a table cell's tags
        "- <b>Born</b> 1951\n- <i>Blue Jar</i> (1980)",  # inline tags in a markdown list: no block of HTML's
    ],
)
def test_text_that_is_no_html_stays(text: str) -> None:
    assert read_formats(text, frozenset({"xml-records"})) == text


# --- cards (drawn-cards) -------------------------------------------------------------------------------------------

_PANEL = (
    "**Sources**\n\n"
    "┌──────────────────────┐ ┌──────────────────────┐\n"
    "│ 🌐 example.org       │ │ 🌐 news.example       │\n"
    '│ Staff page           │ │ "The potter of the   │\n'
    '│ [1]                  │ │ fens" · Feature      │\n'
    "└──────────────────────┘ └──────────────────────┘\n"
    "                                   + 4 more\n\n"
    "Ada Quill is a potter."
)


@pytest.mark.parametrize(
    ("text", "items"),
    [
        (_PANEL, ["- 🌐 example.org · Staff page · [1]", '- 🌐 news.example · "The potter of the fens" · Feature']),
        ("╭───────────╮\n│ Ada Quill │\n│ Born 1815 │\n╰───────────╯", ["- Ada Quill · Born 1815"]),
        (
            "```\n┌──────┐ ┌──────┐ ┌──────┐\n│ a    │ │ b    │ │ c    │\n└──────┘ └──────┘ └──────┘\n```",
            ["- a", "- b", "- c"],
        ),
    ],
)
def test_cards_drawn_side_by_side_are_list_items(text: str, items: list[str]) -> None:
    made = drawn_cards(text)
    assert made is not None
    assert all(item in made.split("\n") for item in items)
    assert "┌" not in made and "│" not in made and "more" not in made


@pytest.mark.parametrize(
    "text",
    [
        "┌────┬────┐\n│ a  │ b  │\n├────┼────┤\n│ 1  │ 2  │\n└────┴────┘",  # a table
        "The answer drew its sources as cards (┌ … ┐) with a + 4 more line under them.",
        "Ada\n├── potter\n└── poet",  # a tree
    ],
)
def test_what_is_no_drawing_of_cards_stays(text: str) -> None:
    assert drawn_cards(text) is None
