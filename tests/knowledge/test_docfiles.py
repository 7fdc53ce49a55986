"""A folder of markdown, HTML and plain-text documents as a knowledge store (``factsentry kb import DIR``)."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest

from factsentry.cli import main
from knowledge import docfiles
from knowledge.docfiles import DocumentError, read_document
from knowledge.errors import ImportFormatError
from knowledge.importers import guess_format, import_path
from knowledge.store import Store

RESET_MD = """---
title: Acme Router X2 reset
aliases: [X2 factory reset, Reset the X2]
---
# Resetting the Acme Router X2

The **Acme Router X2** can be reset to its _factory settings_. See [the manual](https://acme.example/x2)
for the ![diagram](img/x2.png) details.

## Steps

1. Unplug the router for 10 seconds.
2. Hold the *reset* button for `15` seconds
- [x] Wait until the LED turns green

| Setting | Default |
|---|---|
| SSID | Acme-X2 |
| Password | printed on the label |

```sh
curl http://192.168.0.1/status
```
"""

MESH_MD = """Acme Mesh Node M1
=================

The M1 extends an X2 network by up to 150 square metres. Set `mesh_mode` to \\*auto\\*.

Pairing
-------

Press <kbd>WPS</kbd> on the X2, then on the M1, within two minutes.
"""

FIRMWARE_MD = """Firmware 4.2 adds WPA3 to the Acme Router X2.

It was released in May 2024.
"""

WARRANTY_HTML = """<!doctype html>
<html><head><title>Acme warranty</title>
<style>body { color: red }</style><script>alert("Every router is free")</script></head>
<body><nav><a href="/">Home</a> | <a href="/support">Support</a></nav>
<h1>Warranty of Acme routers</h1>
<p>Every Acme router carries a two-year warranty &amp; free repairs.</p>
<ul><li>Claims need the receipt</li><li>Shipping is free in the EU</li></ul>
<h2>Exclusions</h2><p>Water damage is not covered.<br>Nor is a broken antenna.</p>
<noscript>Enable JavaScript</noscript>
</body></html>
"""

RETURNS_HTML = """<html><body>
<h1>Returns</h1>
<table><tr><th>Item</th><th>Window</th></tr><tr><td>Router</td><td>30 days</td></tr></table>
<pre>RMA-0000
RMA-9999</pre>
</body></html>
"""

HOURS_TXT = """Opening hours

The support desk answers calls from 9 am to 5 pm,
Monday to Friday.

On public holidays it is closed.
"""


def _docs_folder(root: Path) -> Path:
    """3 markdown, 2 HTML and 1 text documents, a JSONL file, one broken document and files to ignore."""
    folder = root / "help-center"
    folder.mkdir()
    (folder / "reset-router.md").write_text(RESET_MD, encoding="utf-8")
    (folder / "mesh_node.markdown").write_text(MESH_MD, encoding="utf-8")
    (folder / "firmware-4.2.md").write_text(FIRMWARE_MD, encoding="utf-8")
    (folder / "warranty.html").write_text(WARRANTY_HTML, encoding="utf-8")
    (folder / "returns.htm").write_text(RETURNS_HTML, encoding="utf-8")
    (folder / "support_hours.txt").write_text(HOURS_TXT, encoding="utf-8")
    (folder / "pages.jsonl").write_text(json.dumps({"title": "Acme Networks", "text": "A router maker."}) + "\n")
    (folder / "broken.md").write_bytes(b"# Broken\n\nLatin-1 text: caf\xe9\n")
    (folder / ".draft.md").write_text("# Draft\n\nNot published.\n")
    (folder / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (folder / "archive").mkdir()
    (folder / "archive" / "old.md").write_text("# Old\n\nGone.\n")
    return folder


def _doc(tmp_path: Path, name: str, text: str) -> docfiles.Document:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return read_document(path)


def test_markdown_title_aliases_sections_and_markup_removed(tmp_path: Path) -> None:
    doc = _doc(tmp_path, "reset-router.md", RESET_MD)
    assert doc.title == "Acme Router X2 reset"
    assert doc.aliases == ["X2 factory reset", "Reset the X2"]
    assert doc.sections == [
        [
            "Resetting the Acme Router X2.",
            "The Acme Router X2 can be reset to its factory settings. See the manual for the details.",
        ],
        [
            "Steps.",
            "Unplug the router for 10 seconds.",
            "Hold the reset button for 15 seconds.",
            "Wait until the LED turns green.",
            "Setting: SSID; Default: Acme-X2.",
            "Setting: Password; Default: printed on the label.",
            "curl http://192.168.0.1/status.",
        ],
    ]
    page = doc.page()
    assert len(page.passages) == 2  # one per section: a passage never spans a heading
    assert page.passages[1].startswith("Steps. Unplug the router")


def test_markdown_setext_headings_escapes_inline_html_and_snake_case(tmp_path: Path) -> None:
    doc = _doc(tmp_path, "mesh_node.markdown", MESH_MD)
    assert doc.title == "Acme Mesh Node M1"
    assert doc.sections == [
        [
            "Acme Mesh Node M1.",
            "The M1 extends an X2 network by up to 150 square metres. Set mesh_mode to *auto*.",
        ],
        ["Pairing.", "Press WPS on the X2, then on the M1, within two minutes."],
    ]


@pytest.mark.parametrize(
    ("name", "text", "title"),
    [
        ("firmware-4.2.md", FIRMWARE_MD, "firmware 4.2"),  # no heading: the file name
        ("Guest_Wi-Fi.md", "Guests get their own network.\n", "Guest Wi Fi"),
        ("notes.md", "---\nentity: Acme Cloud\n---\nSyncs settings nightly.\n", "Acme Cloud"),
        ("faq.md", "Intro line.\n\n## What is X2?\n\nA router.\n", "What is X2?"),
    ],
)
def test_markdown_title_from_front_matter_first_heading_or_file_name(
    tmp_path: Path, name: str, text: str, title: str
) -> None:
    assert _doc(tmp_path, name, text).title == title


def test_html_text_without_scripts_styles_or_navigation(tmp_path: Path) -> None:
    doc = _doc(tmp_path, "warranty.html", WARRANTY_HTML)
    assert doc.title == "Acme warranty"
    text = " ".join(doc.page().passages)
    for hidden in ("alert", "color", "Home", "Support", "JavaScript", "<", "&amp;"):
        assert hidden not in text
    assert doc.sections == [
        [
            "Warranty of Acme routers.",
            "Every Acme router carries a two-year warranty & free repairs.",
            "Claims need the receipt.",
            "Shipping is free in the EU.",
        ],
        ["Exclusions.", "Water damage is not covered.", "Nor is a broken antenna."],
    ]


def test_html_title_from_first_h1_then_file_name_and_tables_and_pre_lines(tmp_path: Path) -> None:
    doc = _doc(tmp_path, "returns.htm", RETURNS_HTML)
    assert doc.title == "Returns"
    assert doc.sections == [["Returns.", "Item, Window.", "Router, 30 days.", "RMA-0000.", "RMA-9999."]]
    assert _doc(tmp_path, "cables.html", "<p>Use the blue cable.</p>").title == "cables"


def test_plain_text_paragraphs_and_a_short_first_line_as_heading(tmp_path: Path) -> None:
    doc = _doc(tmp_path, "support_hours.txt", HOURS_TXT)
    assert doc.title == "Opening hours"
    assert doc.sections == [
        [
            "Opening hours.",
            "The support desk answers calls from 9 am to 5 pm, Monday to Friday.",
            "On public holidays it is closed.",
        ]
    ]
    # A first line that is a sentence, or the only paragraph, is text: the title is the file name.
    assert _doc(tmp_path, "desk.txt", "The desk is on floor 2.\n\nIt opens at 9.\n").title == "desk"
    assert _doc(tmp_path, "badge.txt", "Badge office\n").title == "badge"


@pytest.mark.parametrize(
    ("name", "content", "line", "reason"),
    [
        ("latin1.md", b"# Caf\n\nline two\ncaf\xe9\n", 4, "not UTF-8 text"),
        ("front.md", b"---\ntitle: [unclosed\n---\nText.\n", 2, "front matter is not YAML"),
        ("list.md", b"---\n- a\n- b\n---\nText.\n", 1, "front matter is not a mapping"),
        ("aliases.md", b"---\naliases: {a: 1}\n---\nText.\n", 1, '"aliases" must be a list of strings'),
        ("image-only.md", b"![logo](logo.png)\n", 1, "no text left"),
        ("scripts.html", b"<script>var a = 1;</script><style>p{}</style>", 1, "no text left"),
        ("nul.txt", b"text\n\x00\x01", 2, "binary file"),
    ],
)
def test_a_bad_document_names_its_line_and_reason(
    tmp_path: Path, name: str, content: bytes, line: int, reason: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(DocumentError, match=reason) as caught:
        read_document(path)
    assert caught.value.line == line


def test_a_document_over_the_size_cap_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(docfiles, "MAX_DOC_BYTES", 100)
    path = tmp_path / "big.md"
    path.write_text("word " * 30)
    with pytest.raises(DocumentError, match="larger than"):
        read_document(path)


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("a.md", b"# A", "docs"),
        ("a.markdown", b"A", "docs"),
        ("a.html", b"<p>A</p>", "docs"),
        ("a.htm", b"<p>A</p>", "docs"),
        ("a.txt", b"Plain\twords with a tab.\nMore.", "docs"),
        ("psgs.txt", b"1\tDick Hanley was a coach.\tDick Hanley\n", "dpr"),
    ],
)
def test_guess_format_of_documents(tmp_path: Path, name: str, content: bytes, expected: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    assert guess_format(path) == expected


def test_a_mixed_folder_imports_every_document_and_skips_the_bad_one_by_name(tmp_path: Path) -> None:
    folder = _docs_folder(tmp_path)
    problems: list[str] = []
    with Store(tmp_path / "kb.sqlite3") as store:
        report = import_path(folder, store, on_problem=problems.append)
        assert (report.pages, report.bad_lines) == (7, 1)  # 3 md + 2 html + 1 txt + 1 jsonl page
        assert problems == [f"{folder / 'broken.md'}:3: not UTF-8 text (invalid continuation byte at byte 27)"]
        for title in (
            "Acme Router X2 reset",
            "Acme Mesh Node M1",
            "firmware 4.2",
            "Acme warranty",
            "Returns",
            "Opening hours",
            "Acme Networks",
        ):
            assert store.page(title), title
        assert store.stats()["entities"] == 7
        assert store.candidates("X2 factory reset")[0].title == "Acme Router X2 reset"
        passages = [p.text for p in store.page("Acme warranty")]
        assert passages == [
            "Warranty of Acme routers. Every Acme router carries a two-year warranty & free repairs. "
            "Claims need the receipt. Shipping is free in the EU.",
            "Exclusions. Water damage is not covered. Nor is a broken antenna.",
        ]


def test_reimport_replaces_only_the_changed_document(tmp_path: Path) -> None:
    folder = _docs_folder(tmp_path)
    with Store(tmp_path / "kb.sqlite3") as store:
        first = import_path(folder, store)
        again = import_path(folder, store)
        assert (again.pages, again.unchanged, again.version) == (0, 7, first.version)
        (folder / "support_hours.txt").write_text(HOURS_TXT.replace("5 pm", "6 pm"), encoding="utf-8")
        changed = import_path(folder, store)
        assert (changed.pages, changed.unchanged) == (1, 6)
        assert changed.version != first.version
        assert "9 am to 6 pm" in " ".join(p.text for p in store.page("Opening hours"))


def test_format_limits_a_folder_to_one_kind_and_refuses_file_only_formats(tmp_path: Path) -> None:
    folder = _docs_folder(tmp_path)
    assert import_path(folder, Store.in_memory(), "docs").pages == 6
    assert import_path(folder, Store.in_memory(), "jsonl").pages == 1
    with pytest.raises(ImportFormatError, match="jsonl or docs"):
        import_path(folder, Store.in_memory(), "dpr")
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "logo.png").write_bytes(b"\x89PNG")
    with pytest.raises(ImportFormatError, match=r"no \.jsonl files and no documents"):
        import_path(empty, Store.in_memory())


def test_cli_imports_the_folder_then_checks_help_desk_answers_against_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _docs_folder(tmp_path)
    db = tmp_path / "help.sqlite3"
    assert main(["kb", "import", str(folder), "--db", str(db), "--json"]) == 0
    out, err = capsys.readouterr()
    report = orjson.loads(out)
    assert (report["pages"], report["bad_lines"]) == (7, 1)
    assert f"skipped {folder / 'broken.md'}:3: not UTF-8 text" in err

    answers = {
        "right.txt": "Every Acme router carries a two-year warranty. Water damage is not covered. "
        "Claims need the receipt.",
        "wrong.txt": "Every Acme router carries a five-year warranty. Water damage is covered.",
        "hours.txt": "The support desk answers calls from 9 am to 5 pm, Monday to Friday. "
        "It is closed on public holidays.",
        "hours-wrong.txt": "The support desk answers calls around the clock, seven days a week.",
    }
    results = {}
    for name, text in answers.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        subject = "Opening hours" if name.startswith("hours") else "Acme warranty"
        assert main(["check", "--kb", str(db), "--name", subject, "--text", str(tmp_path / name), "--json"]) == 0
        results[name] = orjson.loads(capsys.readouterr().out)
    for name, entity in (("right.txt", "Acme warranty"), ("hours.txt", "Opening hours")):
        result = results[name]
        assert result["status"] == "checked" and [g["entity"] for g in result["groups"]] == [entity]
        assert result["dfactscore"] == 1.0 and result["coverage"] == 1.0
    for name in ("wrong.txt", "hours-wrong.txt"):
        result = results[name]
        assert result["status"] == "checked" and result["dfactscore"] == 0.0
        assert {f["verdict"] for g in result["groups"] for f in g["facts"]} == {"not_supported"}


def test_cli_exits_1_when_no_document_is_usable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "a.md").write_bytes(b"\xff\xfe")
    (folder / "b.html").write_text("<script>x()</script>")
    assert main(["kb", "import", str(folder), "--db", str(tmp_path / "kb.sqlite3"), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert f"skipped {folder / 'a.md'}:1: not UTF-8 text" in err
    assert f"skipped {folder / 'b.html'}:1: no text left after removing the markup" in err
    assert "nothing usable imported" in err
