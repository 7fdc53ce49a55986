"""Diagram and game notations pasted in a fence (scoring/segment/diagrams.py): an SGF record's comments, a PlantUML
Gantt chart's tasks, a Graphviz graph's labels read as markdown; their syntax, ids and codes no claims. Each reading:
three phrasings it reads, three look-alikes it leaves (prose that names the notation among them)."""

from __future__ import annotations

import pytest

from scoring.segment.diagrams import abc_headers, dot_graphs, gantt_charts, rtf_documents, sgf_comments
from scoring.segment.formats import read_formats


def _fence(code: str, language: str = "") -> str:
    return f"Here it is:\n\n```{language}\n{code}\n```\n\nHope it helps."


@pytest.mark.parametrize(
    ("code", "language", "said", "gone"),
    [
        (
            "(;GM[1]SZ[9]GN[Ada Quill]\n;B[ee]C[Born in Leeds, 1951.]\n;W[cc]C[Died 2011.])",
            "",
            "Born in Leeds, 1951.",
            "B[ee]",
        ),
        (
            "(;FF[4]CA[UTF-8]GC[She wed in 1835.]PB[Ada]PW[Will];B[aa];W[bb]C[A brief \\] aside.])",
            "sgf",
            "She wed in 1835.",
            "PB[",
        ),
        (
            "(;GM[1]\n;B[dd]C[1. Potter from 1970, \\\nin York.]\n(;W[ee]C[2. Kiln group.])(;W[ff]))",
            "text",
            "1. Potter from 1970, in York.",
            "W[ee]",
        ),
    ],
)
def test_an_sgf_record_is_read_as_its_comments(code: str, language: str, said: str, gone: str) -> None:
    made = sgf_comments(_fence(code, language))
    assert made is not None and said in made and gone not in made
    assert made.startswith("Here it is:") and made.endswith("Hope it helps.")


@pytest.mark.parametrize(
    "text",
    [
        "Save it as `story.sgf`; each C[] comment shows as you step through the moves.",
        _fence("(;GM[1]SZ[9];B[ee];W[cc])"),  # a game with no comment says nothing
        _fence("(define (square x) (* x x))", "scheme"),
    ],
)
def test_what_is_no_commented_sgf_record_is_left(text: str) -> None:
    assert sgf_comments(text) is None


@pytest.mark.parametrize(
    ("code", "said", "gone"),
    [
        (
            "@startgantt\nprintscale yearly\nProject starts 1999-01-01\n[Retires] happens 2022-06-01\n@endgantt",
            "- 2022: Retires",
            "Project starts",
        ),
        (
            "@startgantt\n-- Career --\n[Coach, juniors] as [C] starts 2005-03-01 and lasts 730 days\n@endgantt",
            "- from 2005-03-01: Coach, juniors",
            "730",
        ),
        (
            "@startgantt\ntitle Ada Quill\n[Post, Royal Society] starts 1840/01/01 and ends 1852/12/31\nnote bottom\n"
            "  Married W. King\nend note\n@endgantt",
            "- 1840/01/01–1852/12/31: Post, Royal Society",
            "note bottom",
        ),
    ],
)
def test_a_gantt_chart_is_read_as_dated_items(code: str, said: str, gone: str) -> None:
    made = gantt_charts(_fence(code, "plantuml"))
    assert made is not None and said in made and gone not in made


@pytest.mark.parametrize(
    "text",
    [
        "I drew it as a PlantUML Gantt chart: each phase starts in its year and lasts until the next.",
        _fence("@startuml\nAlice -> Bob: hello\n@enduml", "plantuml"),
        _fence("@startgantt\nProject starts 2020-01-01\nsaturday are closed\n@endgantt", "plantuml"),
    ],
)
def test_what_is_no_gantt_chart_of_tasks_is_left(text: str) -> None:
    assert gantt_charts(text) is None


@pytest.mark.parametrize(
    ("code", "said", "gone"),
    [
        (
            'digraph G {\n  rankdir=LR;\n  a [label="Born 1962, Ísafjörður", fillcolor="#d6eaf8"];\n  a -> b;\n}',
            "- Born 1962, Ísafjörður",
            "fillcolor",
        ),
        (
            'graph Life {\n  subgraph cluster_x {\n    label="Biologist";\n    p [label="PhD 1991\\n(cod)"]\n  }\n}',
            "### Biologist\n\n- PhD 1991 (cod)",
            "cluster_x",
        ),
        (
            'strict digraph {\n  node [shape=box]\n  x -> y [label="then"]\n  y [label="Prize, 2008\\n46 cruises"]\n}',
            "- Prize, 2008; 46 cruises",
            "then",
        ),
    ],
)
def test_a_dot_graph_is_read_as_its_labels(code: str, said: str, gone: str) -> None:
    made = dot_graphs(_fence(code, "dot"))
    assert made is not None and said in made and gone not in made


@pytest.mark.parametrize(
    "text",
    [
        "Render it with `dot -Tpng g.dot`: the digraph has one node per stage, labelled with its year.",
        _fence("digraph G {\n  a -> b -> c;\n}", "dot"),  # no label: ids say nothing, nothing to read
        _fence("graph = build_graph(nodes)\nprint(graph)", "python"),
    ],
)
def test_what_is_no_labelled_dot_graph_is_left(text: str) -> None:
    assert dot_graphs(text) is None


def test_the_readings_run_first_in_read_formats() -> None:
    made = read_formats(_fence('digraph G { a [label="Born 1962"]; }', "dot"))
    assert "- Born 1962" in made and "digraph" not in made


@pytest.mark.parametrize(
    ("code", "language", "said", "gone"),
    [
        (
            "{\\rtf1\\ansi\\deff0\n{\\fonttbl{\\f0 Georgia;}{\\f1 Arial;}}\n\\f0\\fs28\\b Ada Quill\\b0\\par\n"
            "\\fs22 She was born in 1815.\\par\n}",
            "rtf",
            "Ada Quill\n\nShe was born in 1815.",
            "Georgia",
        ),
        (
            "{\\rtf1{\\*\\generator Word;}{\\info{\\author X}}Ren\\'e9e wed in 1835\\par}",
            "",
            "Renée wed in 1835",
            "Word",
        ),
        (
            "{\\rtf1\\uc1 Ada Pra\\u382?\\'e1kov\\'e1 \\{b. 1815\\} \\i poet\\i0\\line in York\\par}",
            "text",
            "Ada Pražákov",
            "\\i",
        ),
    ],
)
def test_an_rtf_document_is_read_as_its_text(code: str, language: str, said: str, gone: str) -> None:
    made = rtf_documents(_fence(code, language))
    assert made is not None and said in made and gone not in made


@pytest.mark.parametrize(
    "text",
    [
        "Save it with the `.rtf` extension; Word reads {\\rtf1 …} files as formatted text.",
        _fence('{ "rtf": true, "born": 1815 }', "json"),
        _fence("\\documentclass{article}\n\\begin{document}Ada\\end{document}", "latex"),
    ],
)
def test_what_is_no_rtf_document_is_left(text: str) -> None:
    assert rtf_documents(text) is None


@pytest.mark.parametrize(
    ("code", "said", "gone"),
    [
        (
            "X:1\nT:The Miller's Reel\nH:Learned the fiddle at his mother's knee\nH:by the age of eleven.\nM:4/4\nK:D\n"
            "|:ABcd efge:|",
            "Learned the fiddle at his mother's knee by the age of eleven.",
            "M:4/4",
        ),
        (
            "%abc-2.1\nX:3\nT:[tune title]\nN:Taught two hundred pupils.\n+:Died in 1994.\nL:1/8\nK:G",
            "Taught two hundred pupils. Died in 1994.",
            "[tune title]",
        ),
        (
            "X:1\nT:Reel\nC:trad.\nH:Started a band in 1946.\nN:A postman by trade.\nK:Ador",
            "A postman by trade.",
            "Ador",
        ),
    ],
)
def test_an_abc_header_is_read_as_its_history_and_notes(code: str, said: str, gone: str) -> None:
    made = abc_headers(_fence(code, "abc"))
    assert made is not None and said in made and gone not in made


@pytest.mark.parametrize(
    "text",
    [
        "In ABC, H: is the history field and N: is for notes; K: gives the key.",
        _fence("X:1\nT:Reel\nM:4/4\nK:D\n|:ABcd efge:|", "abc"),  # a tune with no history or note
        _fence("Name: Ada\nX: 12\nNote: born 1815", ""),  # no key field: no tune
    ],
)
def test_what_is_no_abc_header_with_prose_is_left(text: str) -> None:
    assert abc_headers(text) is None
