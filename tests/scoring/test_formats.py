"""Answers written in another notation read as the markdown they stand for (scoring/segment/formats.py): LaTeX,
wikitext, XML, SQL INSERT, PGN tag pairs, ASCII and box-drawing tables, CSV rows and Mermaid timelines, en- and em-dash
bullets, each with phrasings it reads and look-alikes it must leave alone, and each switched off by name."""

from __future__ import annotations

import json

import pytest

from scoring.rulebook import STEPS
from scoring.rules import RULES
from scoring.segment.formats import FORMAT_RULES, read_formats
from scoring.sentences import split_sentences

NAMES = [r.name for r in FORMAT_RULES]


def _texts(answer: str, rules_off: frozenset[str] = frozenset()) -> list[str]:
    return [s.text for s in split_sentences(answer, rules_off)]


def _profile(made: str) -> object:
    """The JSON of the one profile fence in ``made``."""
    start = made.index("```json\n") + len("```json\n")
    return json.loads(made[start : made.index("\n```", start)])


def test_the_readings_are_a_step_of_registered_rules_with_three_phrasings() -> None:
    assert STEPS["segment-formats"] == FORMAT_RULES
    for r in FORMAT_RULES:
        assert RULES[r.name] is r and r.step == "segment" and r.apply is not None
        assert len(r.examples) >= 3 and r.summary


# --- LaTeX (latex-markup) -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("latex", "markdown"),
    [
        ("\\section*{Ada Lovelace (1815--1852)}\n\nShe wrote \\emph{Notes}.", "## Ada Lovelace (1815–1852)"),
        ("\\begin{itemize}\n  \\item \\textbf{1843:} translated the memoir\n\\end{itemize}", "- **1843:** translated"),
        ("\\subsection{Life}\nBorn in R\\'eunion to H\\'el\\`ene \\textbf{Roussin}.", "Born in Réunion to Hélène"),
        ("\\documentclass{article}\n\\begin{document}\n\\textit{Ada} was born in 1815 --- in London.", "— in London"),
        ("\\begin{enumerate}\n\\item First\n\\item Second \\& third\n\\end{enumerate}", "- Second & third"),
    ],
)
def test_latex_markup_is_read_as_markdown(latex: str, markdown: str) -> None:
    made = read_formats(latex)
    assert markdown in made
    assert "\\" not in made


@pytest.mark.parametrize(
    "text",
    [
        "The path is C:\\Users\\ada and the file is notes.txt.",
        "She used \\n in her code once.",
        "Born 1815--1852, she wrote the \\emph notes.",  # one command, no braces: no LaTeX document
    ],
)
def test_a_stray_backslash_is_no_latex(text: str) -> None:
    assert read_formats(text) == text


def test_a_latex_bio_reads_its_items_with_the_subject() -> None:
    answer = (
        "\\section*{Corin Vale (1954--2020)}\n\nCorin Vale was a French geologist.\n\n\\begin{itemize}\n"
        "  \\item \\textbf{2005:} awarded the Haroun Medal.\n\\end{itemize}\n\nHe died in R\\'eunion."
    )
    texts = _texts(answer)
    assert "Corin Vale (1954–2020)" in texts
    assert "He died in Réunion." in texts
    assert not any("\\" in t or "textbf" in t for t in texts)
    assert "\\item" in " ".join(_texts(answer, frozenset({"latex-markup"})))


# --- wikitext (wikitext-markup) -----------------------------------------------------------------------------------

WIKI = (
    "{{Infobox scientist\n| name = Ada Quill\n| birth_place = [[Penzance]], Cornwall\n| awards = Bentham Medal (1928)"
    "\n}}\n'''Ada Quill''' (1871–1944) was a [[botany|botanist]].<ref>Ferns, 1922.</ref>\n\n== References ==\n"
    "{{reflist}}"
)


def test_a_wikitext_infobox_is_a_profile_and_its_prose_markdown() -> None:
    made = read_formats(WIKI)
    assert _profile(made) == {
        "name": "Ada Quill",
        "birth_place": "Penzance, Cornwall",
        "awards": "Bentham Medal (1928)",
    }
    assert "**Ada Quill** (1871–1944) was a botanist." in made
    assert "## References" in made and "<ref>" not in made and "{{" not in made


@pytest.mark.parametrize(
    "text",
    [
        "See [[Glasgow]] for more.",  # one mark only
        "He said ''maybe'' twice.",
        "== not a heading in prose ==, she wrote.",
    ],
)
def test_one_wiki_mark_is_no_wikitext(text: str) -> None:
    assert read_formats(text) == text


def test_wikitext_sentences_have_no_markup() -> None:
    texts = _texts(WIKI)
    assert "Birthplace: Penzance, Cornwall" in texts
    assert any(t.startswith("Ada Quill (1871–1944) was a botanist") for t in texts)
    assert not any("[[" in t for t in texts)


# --- XML (xml-records) --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("xml", "profile"),
    [
        (
            '<person id="x"><name>Ada Quill</name><born year="1966" place="Medellín"/></person>',
            {"name": "Ada Quill", "born": {"year": "1966", "place": "Medellín"}},
        ),
        (
            '<?xml version="1.0"?>\n<profile>\n  <name>Ada</name>\n  <education>\n    <degree year="1989">BA</degree>'
            '\n    <degree year="1992">MSc</degree>\n  </education>\n</profile>',
            {"name": "Ada", "education": [{"year": "1989", "text": "BA"}, {"year": "1992", "text": "MSc"}]},
        ),
        (
            "```xml\n<people><person><name>A</name></person><person><name>B</name></person></people>\n```",
            [{"name": "A"}, {"name": "B"}],
        ),
        (
            '<player><name>Ada</name><award year="2013">Habitat Laurel</award><award>Gold</award></player>',
            {"name": "Ada", "award": [{"year": "2013", "text": "Habitat Laurel"}, "Gold"]},
        ),
    ],
)
def test_an_xml_document_is_a_profile(xml: str, profile: object) -> None:
    assert _profile(read_formats(xml)) == profile


@pytest.mark.parametrize(
    "text",
    [
        "<b>Ada</b> was born in 1815.",  # inline HTML in prose
        "<person><name>Ada</name>",  # does not parse
        "He wrote <br> twice.",
    ],
)
def test_markup_in_prose_is_no_xml_profile(text: str) -> None:
    assert read_formats(text) == text


@pytest.mark.parametrize("depth", [14, 1_000, 20_000])
def test_xml_nested_deeper_than_a_profile_is_left_as_written(depth: int) -> None:
    # read recursively, a thousand levels exhausted the stack and failed the whole check
    text = "<a>" * depth + "x" + "</a>" * depth
    assert read_formats(text) == text


def test_a_profile_nested_a_few_levels_is_still_read() -> None:
    text = "<p><name>Ada</name>" + "<e>" * 10 + "<degree>BA</degree>" + "</e>" * 10 + "</p>"
    assert read_formats(text).startswith("```json")


def test_an_xml_profile_reads_as_records() -> None:
    texts = _texts('<person><name>Ada Quill</name><born year="1966" place="Medellín, Colombia"/></person>')
    assert texts[:2] == ["Ada Quill", "Born: Medellín, Colombia in 1966"]
    assert "<name>" in " ".join(_texts("<person><name>Ada Quill</name><x>y</x></person>", frozenset({"xml-records"})))


# --- SQL (sql-inserts) --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sql", "profile"),
    [
        (
            "```sql\nINSERT INTO players (name, born_year, city) VALUES ('Ada Quill', 1985, 'Bukhara');\n```",
            {"name": "Ada Quill", "born_year": "1985", "city": "Bukhara"},
        ),
        (
            "INSERT INTO people (`name`, `note`) VALUES ('O''Neill', NULL);",
            {"name": "O'Neill"},
        ),
        (
            "```sql\n-- two rows\nINSERT INTO t (name, born) VALUES\n  ('A, B', 1901),\n  ('C', 1902);\n```",
            [{"name": "A, B", "born": "1901"}, {"name": "C", "born": "1902"}],
        ),
    ],
)
def test_an_sql_insert_is_a_profile_a_row(sql: str, profile: object) -> None:
    assert _profile(read_formats(sql)) == profile


@pytest.mark.parametrize(
    "text",
    [
        "```sql\nSELECT name FROM players WHERE born_year = 1985;\n```",
        "```sql\nINSERT INTO t (a, b) VALUES (1);\n```",  # a value short
        "She helped INSERT INTO the bill (a clause) VALUES she held.",
    ],
)
def test_other_sql_stays(text: str) -> None:
    assert read_formats(text) == text


# --- PGN tag pairs (tag-pairs) ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tags", "profile"),
    [
        ('[Player "Quill, Ada"]\n[Born "1985, Samarkand"]', {"name": "Ada Quill", "Born": "1985, Samarkand"}),
        (
            '[Name "Ada Quill"]\n[PeakRating "2698 (March 2016)"]',
            {"name": "Ada Quill", "PeakRating": "2698 (March 2016)"},
        ),
        ('[Title "GM (2004)"]\n[Federation "UZB"]\n[Club "Tashkent \\"A\\""]', None),
    ],
)
def test_tag_pairs_are_a_profile(tags: str, profile: object) -> None:
    made = _profile(read_formats(tags))
    assert made == profile if profile is not None else isinstance(made, dict) and made["Title"] == "GM (2004)"


@pytest.mark.parametrize(
    "text",
    [
        '[Born "1985"]\nHe lives in Tashkent.',  # one tag
        "[1] Born in 1985.\n[2] Lives in Tashkent.",  # citations
        '["a", "b"]',
    ],
)
def test_one_tag_or_brackets_are_no_tag_pairs(text: str) -> None:
    assert read_formats(text) == text


# --- ASCII and box-drawing tables (box-tables) --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("box", "table"),
    [
        (
            "+------+------+\n| Name | Born |\n+------+------+\n| Ada  | 1815 |\n| Bo   | 1901 |\n+------+------+",
            "| Name | Born |\n| --- | --- |\n| Ada | 1815 |\n| Bo | 1901 |",
        ),
        (
            "┌──────┬──────┐\n│ Born │ 1815 │\n├──────┼──────┤\n│ Died │ 1852 │\n└──────┴──────┘",
            "| Born | 1815 |\n| --- | --- |\n| Died | 1852 |",
        ),
        (
            "+-----------+--------+\n| Ada Quill | potter |\n+-----------+--------+\n| Born | 1815 |\n+--+--+",
            "|  |  |\n| --- | --- |\n| Ada Quill | potter |\n| Born | 1815 |",
        ),
    ],
)
def test_a_drawn_table_is_a_markdown_table(box: str, table: str) -> None:
    assert read_formats(box) == table


@pytest.mark.parametrize(
    "text",
    [
        "| Born | 1815 |\n| --- | --- |\n| Died | 1852 |",  # a markdown table already
        "+------+\nA line under a rule.",
        "Scores: 3 | 4 | 5",
    ],
)
def test_no_drawn_table_stays(text: str) -> None:
    assert read_formats(text) == text


def test_a_drawn_table_reads_as_records() -> None:
    box = "+-----------+-------------+\n| Ada Quill | potter |\n+-----------+-------------+\n| Born | 1815, Leeds |\n"
    assert "Born: 1815, Leeds" in _texts(box)
    assert not any(t.startswith("Born: ") for t in _texts(box, frozenset({"box-tables"})))


# --- CSV (csv-rows) -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "first"),
    [
        ("year,event,result\n1993,born,Shrewsbury\n2018,European Championships,bronze", "| year | event | result |"),
        ('name,born,died\n"Quill, Ada",1815,1852\nBo,1901,1950', "| name | born | died |"),
        ("a,b,c\n1,2,3\n4,5,6\n\nHe was born in 1815.", "| a | b | c |"),
    ],
)
def test_csv_rows_under_a_header_are_a_table(rows: str, first: str) -> None:
    assert read_formats(rows).startswith(first)


@pytest.mark.parametrize(
    "text",
    [
        "Born in Leeds, 1951, to a miner's family.\nMoved to York, 1960, with his aunt.\nDied in Hull, 2001, at 50.",
        "1993,born,Shrewsbury\n2018,Championships,bronze\n2021,Games,ninth",  # no header: the first row is data
        "a,b,c\n1,2",  # two lines
    ],
)
def test_prose_with_commas_is_no_csv(text: str) -> None:
    assert read_formats(text) == text


# --- Mermaid timelines (mermaid-timelines) ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "parts"),
    [
        (
            "```mermaid\ntimeline\n    title Ada Quill\n    1997 : First peak : Cho Oyu\n    2004 : Lost two toes\n```",
            ["## Ada Quill", "| 1997 | First peak, Cho Oyu |", "| 2004 | Lost two toes |"],
        ),
        (
            "```mermaid\ntimeline\n  section Early\n    1990 : Born\n         : Moved to Naha\n```",
            ["### Early", "| 1990 | Born, Moved to Naha |"],
        ),
        ("```\ntimeline\n  2001 : Debut\n  2005 : Prize\n```", ["| 2001 | Debut |", "| 2005 | Prize |"]),
    ],
)
def test_a_mermaid_timeline_is_a_dated_table(code: str, parts: list[str]) -> None:
    made = read_formats(code)
    assert all(p in made for p in parts), made
    assert "```" not in made


@pytest.mark.parametrize(
    "text",
    [
        "```mermaid\nflowchart LR\n  A --> B\n```",
        "```python\ntimeline = [1, 2]\n```",
        "Her timeline: 1997 : Cho Oyu.",
    ],
)
def test_other_diagrams_stay(text: str) -> None:
    assert read_formats(text) == text


@pytest.mark.parametrize("name", NAMES)
def test_each_reading_can_be_switched_off(name: str) -> None:
    examples = {
        "latex-markup": "\\section*{Ada}\n\\textbf{Born} 1815.",
        "wikitext-markup": WIKI,
        "xml-records": "<person><name>Ada</name><born>1815</born></person>",
        "sql-inserts": "```sql\nINSERT INTO t (name, born) VALUES ('Ada', 1815);\n```",
        "tag-pairs": '[Name "Ada"]\n[Born "1815"]',
        "box-tables": "+---+---+\n| a | b |\n| c | d |\n+---+---+",
        "csv-fences": "```csv\nname,born\nAda,1815\n```",
        "csv-rows": "a,b,c\n1,2,3\n4,5,6",
        "tab-rows": "Year\tEvent\n1815\tBorn\n1852\tDied",
        "dotted-timelines": "1815 · born\n1833 · moved\n1852 · died",
        "mermaid-timelines": "```mermaid\ntimeline\n  1815 : Born\n```",
        "dash-bullets": "– born 1815\n– died 1852",
        "slash-fields": "Born: 1815 / Died: 1852",
        "thread-counters": "1/2 Born 1815.\n2/2 Died 1852.",
        "drawn-trees": "Ada\n├── potter\n└── poet",
        "drawn-timelines": "1815 ──── 1852\nborn ▲\nmarried   ▲ 1835\nNotes   ▲ 1843",
        "broken-words": "Born in Leeds, Ada was a pot-\nter and a paint-\ner.",
        "drawn-rules": "Ada\n━━━━━━━━\nborn 1815",
        "html-markup": "<p><strong>Ada</strong> was born in 1815.</p>\n<p>She died in 1852.</p>",
        "org-outline": "```org\n* Career\n** DONE Head <1840>--<1852>\n```",
        "diff-edits": "```diff\n@@ -1 +1 @@\n-born 1816\n+born 1815\n```",
        "telegram-stops": "ADA POET STOP BORN 1815 STOP",
        "sgf-comments": "```\n(;GM[1]GN[Ada];B[ee]C[Born 1815.])\n```",
        "gantt-charts": "```plantuml\n@startgantt\n[Retires] happens 1852-01-01\n@endgantt\n```",
        "rtf-documents": "```rtf\n{\\rtf1\\ansi \\b Ada\\b0\\par Born 1815.\\par}\n```",
        "abc-headers": "```abc\nX:1\nT:Reel\nH:Born 1815.\nK:D\n```",
        "drawn-cards": "┌──────┐ ┌──────┐\n│ Ada  │ │ Born │\n└──────┘ └──────┘",
        "dot-graphs": '```dot\ndigraph G { a [label="Born 1815"]; }\n```',
    }
    text = examples[name]
    assert read_formats(text) != text
    assert read_formats(text, frozenset({name})) == text


# --- dash bullets (dash-bullets) ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "items"),
    [
        (
            "Two people:\n\n– Chapter 2 refers to the potter (b. 1961, Leeds).\n– Chapter 7 refers to the poet.",
            ["Chapter 2 refers to the potter (b. 1961, Leeds).", "Chapter 7 refers to the poet."],
        ),
        ("— She was born in Leeds.\n\n— She died in York.", ["She was born in Leeds.", "She died in York."]),
        ("Facts:\n  – Born in Leeds in 1815.\n  – Wrote two novels.", ["Born in Leeds in 1815.", "Wrote two novels."]),
    ],
)
def test_dash_opened_lines_are_list_items(answer: str, items: list[str]) -> None:
    texts = _texts(answer)
    assert all(item in texts for item in items)
    assert not any(t.startswith(("–", "—")) for t in texts)
    assert any(t.startswith(("–", "—")) for t in _texts(answer, frozenset({"dash-bullets"})))


@pytest.mark.parametrize(
    "answer",
    [
        "Be yourself; everyone else is already taken.\n\n— Oscar Wilde",
        "She ran the shop 1990 – 2000.\nHe ran it 2000 – 2010.",
        "– a lone dash line\nfollowed by prose.",
        "Ada Quill — potter — was born in Leeds.",
    ],
)
def test_a_lone_dash_line_or_a_dash_inside_a_line_is_not_a_list(answer: str) -> None:
    assert read_formats(answer) == answer


@pytest.mark.parametrize(
    "text",
    [
        "INSERT INTO t (a) VALUES (1" + " " * 20_000 + "x",  # 2,000 spaces took > 20 s before
        "'''Ada''' was born.\n== " + " " * 20_000 + "x",  # 2,000 spaces took 22 s before
        "'''Ada''' was born. " + "<ref>" * 4_000,  # 0.9 s before
        "{{Infobox person | name = " + "[[" * 10_000 + "x",  # 5.7 s before
    ],
    ids=["sql-insert-spaces", "wiki-heading-spaces", "unclosed-refs", "unclosed-links"],
)
def test_hostile_text_in_a_notation_is_left_as_written_in_linear_time(text: str) -> None:
    # The answer is the model's, and a user can make the model write anything: these once backtracked for
    # seconds to minutes on one answer (a pattern's spaces or scan matched more than one way); each is read once.
    assert read_formats(text) == text


# --- CSV fences (csv-fences) --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("```csv\nname,role,born\nAda Quill,potter,1815\nAda Quill,poet,1850\n```", ["| Ada Quill | poet | 1850 |"]),
        ("Here:\n\n```tsv\nname\tborn\nAda Quill\t1815\n```\n\nDone.", ["| name | born |", "| Ada Quill | 1815 |"]),
        ("```\nyear,event,place\n1815,born,Leeds\n1852,died,York\n```", ["| 1852 | died | York |"]),
        ('```CSV\nname,award\n"Quill, Ada","Hale Prize (2001)"\n```', ["| Quill, Ada | Hale Prize (2001) |"]),
    ],
)
def test_a_fence_of_separated_rows_is_a_table(text: str, parts: list[str]) -> None:
    made = read_formats(text)
    assert all(p in made for p in parts), made
    assert "```" not in made


@pytest.mark.parametrize(
    "text",
    [
        "```python\nx = f(a, b, c)\ny = g(a, b, c)\nz = h(a, b, c)\n```",  # code in a fence of another language
        "```csv\nname,born\nAda Quill,1815,Leeds\n```",  # rows of unequal length
        "```\nShe was born in Leeds, in 1815.\nShe died in York, in 1852, aged 37.\nOne more, line, here\n```",
    ],
)
def test_a_fence_of_code_or_prose_stays_a_fence(text: str) -> None:
    assert read_formats(text) == text


def test_a_csv_fence_of_namesakes_is_a_row_per_person() -> None:
    text = "```csv\nname,role,born\nAda Quill,potter,1815\nAda Quill,poet,1850\n```"
    assert "| Ada Quill | potter | 1815 |" in read_formats(text)
    assert read_formats(text, frozenset({"csv-fences"})).startswith("```csv")  # off: still a fence


# --- tab-separated rows (tab-rows) --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        (
            "Ada Quill — career\n\nYear(s)\tRole / event\tPlace\n1963\tBorn\tLeeds, England\n—\tStudied law\tYork",
            ["| Year(s) | Role / event | Place |", "| 1963 | Born | Leeds, England |", "| — | Studied law | York |"],
        ),
        (
            "When\tWhat\n2001\tPhD, Leiden\n2005\tPostdoc, Kyoto",
            ["| 2001 | PhD, Leiden |", "| 2005 | Postdoc, Kyoto |"],
        ),
        ("Name\tBorn\tField\nAda Quill\t1815\tpottery\nAda Quill\t1850\tpoetry\n", ["| Ada Quill | 1850 | poetry |"]),
    ],
)
def test_tab_separated_lines_under_a_header_are_a_table(text: str, parts: list[str]) -> None:
    made = read_formats(text)
    assert all(p in made for p in parts), made


@pytest.mark.parametrize(
    "text",
    [
        "1963\tBorn\tLeeds\n1990\tPhD\tYork\n2001\tChair\tHull",  # no header: the first row is data
        "Year\tEvent\n1963\tBorn\tLeeds\n1990\tPhD",  # unequal cell counts
        "She was born.\tThen she left.\n\nShe wrote.\tShe died.",  # two lines, apart
    ],
)
def test_tabbed_lines_that_are_no_table_stay(text: str) -> None:
    assert read_formats(text) == text


# --- dotted timelines (dotted-timelines) --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        (
            "1969 · born in Leeds\n1996 → 2004 · planning department, York\n2020 → now · visiting professor",
            ["| 1969 | born in Leeds |", "| 1996–2004 | planning department, York |", "| since 2020 | visiting prof"],
        ),
        ("1815 • born\n1833 – 1840 • studied in Paris\n1852 • died in York", ["| 1833–1840 | studied in Paris |"]),
        (
            "**Timeline**\n\n2001 -> 2005 · PhD, Leiden\n2006 · postdoc\n2010 to present · chair",
            ["| since 2010 | chair |"],
        ),
    ],
)
def test_dotted_dated_lines_are_a_timeline_table(text: str, parts: list[str]) -> None:
    made = read_formats(text)
    assert all(p in made for p in parts), made
    assert read_formats(text, frozenset({"dotted-timelines"})) == text


@pytest.mark.parametrize(
    "text",
    [
        "1969 · born in Leeds\n1996 · moved to York",  # two lines
        "Price · £20\nSize · large\nColour · red",  # no years
        "In 1969 · she was born\nIn 1996 · she moved\nIn 2004 · she left",  # a word before the year
    ],
)
def test_lines_that_are_no_dotted_timeline_stay(text: str) -> None:
    assert read_formats(text) == text


# --- slash-separated fields (slash-fields) --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "lines"),
    [
        (
            "Motor: 350 W rear hub / Top speed: 25 km/h / Battery: 468 Wh",
            ["Motor: 350 W rear hub", "Top speed: 25 km/h", "Battery: 468 Wh"],
        ),
        ("Weight: 16.5 kg / Water: IPX5 / Fold: ~3 s", ["Weight: 16.5 kg", "Water: IPX5", "Fold: ~3 s"]),
        ("Price at launch: €549 / Warranty: 2 years", ["Price at launch: €549", "Warranty: 2 years"]),
        ("- Born: 1903 / Died: 1937", ["- Born: 1903", "Died: 1937"]),
    ],
)
def test_labelled_fields_parted_by_slashes_are_a_line_each(line: str, lines: list[str]) -> None:
    assert read_formats(f"Tessaly Drift S3\n{line}\nMade in Spain.").split("\n") == [
        "Tessaly Drift S3",
        *lines,
        "Made in Spain.",
    ]
    assert read_formats(line, frozenset({"slash-fields"})) == line


@pytest.mark.parametrize(
    "line",
    [
        "Top speed: 25 km/h and a range of 45 km/30 mi",  # slashes with no spaces round them
        "She was a singer / songwriter and a producer.",  # no labels
        "Roles: singer / songwriter / producer",  # one label, a slash between values
        "1/6 Thread on a boxer: born 1909 / died 1971",  # the first part is no field
    ],
)
def test_a_slash_without_a_label_on_each_side_parts_nothing(line: str) -> None:
    assert read_formats(line) == line


# --- thread counters (thread-counters) ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("thread", "read"),
    [
        ("1/6 Born in Scranton.\n\n2/6 Died in 1971. /end", "Born in Scranton.\n\nDied in 1971."),
        ("1/3 She sang.\n2/3 She wrote.\n3/3 She retired.", "She sang.\nShe wrote.\nShe retired."),
        (
            "Intro line\n\n4/10 Retired in 1941: 61 wins.\n\n5/10 Coached.",
            "Intro line\n\nRetired in 1941: 61 wins.\n\nCoached.",
        ),
    ],
)
def test_a_threads_post_counters_are_no_words_of_its_claims(thread: str, read: str) -> None:
    assert read_formats(thread) == read
    assert read_formats(thread, frozenset({"thread-counters"})) == thread
