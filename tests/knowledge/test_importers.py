"""Importers on small files written by the tests, and the ``factsentry kb`` command."""

from __future__ import annotations

import gzip
import itertools
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import orjson
import psutil
import pytest

from factsentry.cli import main
from knowledge.errors import ImportFormatError
from knowledge.importers import FACTSCORE_SEPARATOR, guess_format, import_path
from knowledge.store import Store


def _jsonl(path: Path, rows: list[object]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")
    return path


def test_jsonl_pages_aliases_and_bad_lines(tmp_path: Path) -> None:
    src = _jsonl(
        tmp_path / "pages.jsonl",
        [
            {"title": "Dick Hanley (swimmer)", "text": "He won silver in 1956.", "aliases": ["Richard Hanley"]},
            "{not json",
            {"title": "", "text": "no title"},
            {"title": "No Text"},
            {"title": "Bad Aliases", "text": "x", "aliases": "Richard"},
            {"title": "Two Passages", "text": ["First passage.", "Second passage."]},
            "",
            {"title": "Blank", "text": "   "},
            ["a", "list"],
        ],
    )
    store = Store.in_memory()
    report = import_path(src, store)
    assert (report.pages, report.passages, report.bad_lines) == (2, 3, 6)
    assert [p.split(": ", 1)[0].rsplit(":", 1)[1] for p in report.problems] == ["2", "3", "4", "5", "8", "9"]
    assert report.problems[0].startswith(f"{src}:2: not JSON")
    assert [c.title for c in store.candidates("Richard Hanley")] == ["Dick Hanley (swimmer)"]
    assert [p.text for p in store.page("Two Passages")] == ["First passage.", "Second passage."]


def test_jsonl_long_text_is_cut_into_passages(tmp_path: Path) -> None:
    text = " ".join(f"Sentence number {i} has exactly seven words." for i in range(100))
    src = _jsonl(tmp_path / "long.jsonl", [{"title": "Long Page", "text": text}])
    store = Store.in_memory()
    import_path(src, store)
    page = store.page("Long Page")
    assert len(page) == 4 and all(140 <= len(p.text.split()) <= 250 for p in page[:-1])
    assert " ".join(p.text for p in page) == text


def test_directory_of_jsonl_files_and_gzip(tmp_path: Path) -> None:
    _jsonl(tmp_path / "a.jsonl", [{"title": "Alpha Person", "text": "A."}])
    with gzip.open(tmp_path / "b.jsonl.gz", "wt", encoding="utf-8") as f:
        f.write(json.dumps({"title": "Beta Person", "text": "B."}) + "\n")
    (tmp_path / "notes.csv").write_text("ignored")  # not a source (a .txt is a document now: test_docfiles)
    store = Store.in_memory()
    report = import_path(tmp_path, store)
    assert report.pages == 2 and store.stats()["entities"] == 2


def test_factscore_sqlite(tmp_path: Path) -> None:
    db = tmp_path / "enwiki-20230401.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE documents (title PRIMARY KEY, text)")
        conn.executemany(
            "INSERT INTO documents VALUES (?, ?)",
            [
                (
                    "Gavin Hamilton (painter)",
                    FACTSCORE_SEPARATOR.join(["<s>He was born in 1723.</s>", "<s>He died in Rome.</s>"]),
                ),
                ("Empty Page", ""),
                ("Gavin Hamilton (cricketer)", "<s>He played one Test.</s>"),
            ],
        )
    conn.close()
    assert guess_format(db) == "factscore"
    store = Store.in_memory()
    report = import_path(db, store)
    assert (report.pages, report.passages, report.bad_lines) == (2, 3, 1)
    assert [p.text for p in store.page("Gavin Hamilton (painter)")] == ["He was born in 1723.", "He died in Rome."]


def test_factscore_format_on_a_database_without_documents(tmp_path: Path) -> None:
    db = tmp_path / "other.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE things (x)")
    conn.close()
    with pytest.raises(ImportFormatError, match="documents"):
        import_path(db, Store.in_memory())


def test_dpr_tsv_groups_consecutive_passages(tmp_path: Path) -> None:
    tsv = tmp_path / "psgs_w100.tsv"
    tsv.write_text(
        "id\ttext\ttitle\n"
        '1\t"Dick Hanley was an American football coach. He said ""win""."\tDick Hanley (American football)\n'
        "2\tHe coached Northwestern from 1927 to 1934.\tDick Hanley (American football)\n"
        "3\tonly two fields\n"
        "4\tHe swam at the 1956 Olympics.\tDick Hanley (swimmer)\n"
        "5\t\tEmpty Text\n",
        encoding="utf-8",
    )
    store = Store.in_memory()
    report = import_path(tsv, store)
    assert (report.pages, report.passages, report.bad_lines) == (2, 3, 2)
    assert [p.rsplit(":", 2)[1] for p in report.problems] == ["4", "6"]
    assert [p.text for p in store.page("Dick Hanley (American football)")] == [
        'Dick Hanley was an American football coach. He said "win".',
        "He coached Northwestern from 1927 to 1934.",
    ]


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("pages.jsonl", b'{"title": "x"}', "jsonl"),
        ("pages.json", b"[]", "jsonl"),
        ("psgs.tsv", b"id\ttext\ttitle", "dpr"),
        ("dump", b'  {"title": "x", "text": "y"}', "jsonl"),
        ("dump", b"1\ttext\ttitle", "dpr"),
        ("dump", b"SQLite format 3\x00" + bytes(100), "factscore"),
    ],
)
def test_guess_format(tmp_path: Path, name: str, content: bytes, expected: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    assert guess_format(path) == expected


def test_guess_format_gives_up_with_the_choices(tmp_path: Path) -> None:
    path = tmp_path / "mystery.bin"
    path.write_bytes(b"plain words only")
    with pytest.raises(ImportFormatError, match="jsonl, factscore, dpr"):
        guess_format(path)


def test_cli_import_search_and_exit_codes(tmp_path: Path, demo_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "var" / "kb.sqlite3"
    assert main(["kb", "import", str(demo_dir), "--db", str(db), "--quiet"]) == 0
    assert main(["kb", "import", str(demo_dir), "--db", str(db), "--json"]) == 0  # idempotent re-import
    report = orjson.loads(capsys.readouterr().out)
    assert (report["pages"], report["unchanged"], report["bad_lines"]) == (0, 17, 0)

    assert main(["kb", "search", "Dick Hanley", "--db", str(db), "--json"]) == 0
    found = orjson.loads(capsys.readouterr().out)["candidates"]
    assert {(c["title"], c["base_name"], c["disambiguator"]) for c in found} == {
        ("Dick Hanley (swimmer)", "Dick Hanley", "swimmer"),
        ("Dick Hanley (American football)", "Dick Hanley", "American football"),
    }
    assert all(len(c["passages"]) == 1 and "Dick Hanley" in c["passages"][0] for c in found)

    bad = _jsonl(tmp_path / "bad.jsonl", ["nope", {"title": "t"}])
    assert main(["kb", "import", str(bad), "--db", str(tmp_path / "empty.sqlite3"), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "bad.jsonl:1: not JSON" in err and "bad.jsonl:2:" in err and "nothing usable" in err

    assert main(["kb", "search", "x", "--db", str(tmp_path / "missing.sqlite3")]) == 1
    assert "no knowledge store" in capsys.readouterr().err
    assert main(["kb", "import", str(tmp_path / "nowhere.jsonl"), "--db", str(db)]) == 1
    assert "does not exist" in capsys.readouterr().err


def _page_line(title: str, size: int) -> bytes:
    """A JSONL page line of exactly ``size`` bytes, newline included."""
    head, tail = f'{{"title": "{title}", "text": "'.encode(), b'"}\n'
    return head + b"x" * (size - len(head) - len(tail)) + tail


@pytest.mark.parametrize("suffix", [".jsonl", ".jsonl.gz"])
def test_a_line_at_the_cap_is_read_and_one_byte_more_stops_the_import(tmp_path: Path, suffix: str) -> None:
    cap = 4096
    src = tmp_path / f"pages{suffix}"
    data = _page_line("At Cap", cap) + _page_line("Over Cap", cap + 1)
    src.write_bytes(gzip.compress(data) if suffix.endswith(".gz") else data)
    with pytest.raises(ImportFormatError) as info:
        import_path(src, Store.in_memory(), max_line_bytes=cap)
    assert str(info.value).startswith(f"{src}:2: line longer than the 4096 bytes cap; import stopped here")
    ok = tmp_path / f"ok{suffix}"
    ok.write_bytes(gzip.compress(data[:cap]) if suffix.endswith(".gz") else data[:cap])
    store = Store.in_memory()
    assert import_path(ok, store, max_line_bytes=cap).pages == 1
    assert len(" ".join(p.text for p in store.page("At Cap"))) > cap - 40


@pytest.mark.parametrize(
    ("content", "line", "reason"),
    [
        ("1\tshort\tA\n2\t" + "y" * 5000 + "\tB\n", 2, "line longer than the 4096 bytes cap"),
        # One quoted field over many short lines: the field is capped too.
        ('1\t"' + "z\n" * 3000 + '"\tC\n', 2049, "field larger than field limit (4096)"),
    ],
)
def test_dpr_lines_and_fields_are_capped(tmp_path: Path, content: str, line: int, reason: str) -> None:
    tsv = tmp_path / "psgs.tsv.gz"
    tsv.write_bytes(gzip.compress(content.encode()))
    with pytest.raises(ImportFormatError) as info:
        import_path(tsv, Store.in_memory(), "dpr", max_line_bytes=4096)
    assert str(info.value).startswith(f"{tsv}:{line}: {reason}")


def _peak_rss_mb(args: list[str], cwd: Path) -> tuple[int, str, float]:
    """Run ``factsentry`` with ``args``; its exit code, stderr and peak resident memory in MB (this child only)."""
    proc = subprocess.Popen([str(Path(sys.executable).parent / "factsentry"), *args], cwd=cwd, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    with proc.stderr:
        err = proc.stderr.read().decode()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, err, usage.ru_maxrss / 1024  # ru_maxrss is in KiB on Linux


def test_kb_import_of_a_gzip_bomb_stops_at_the_cap_in_bounded_memory(tmp_path: Path, demo_dir: Path) -> None:
    """100 KB of gzip inflating to one 100 MB line: one error line, and memory grows by far less than the line."""
    line_mb = 100
    bomb = tmp_path / "bomb.jsonl.gz"
    with gzip.open(bomb, "wb") as f:
        f.write(b'{"title": "Small Page", "text": "A small page."}\n{"title": "Bomb", "text": "')
        chunk = b"a" * (1 << 20)
        for _ in range(line_mb):
            f.write(chunk)
        f.write(b'"}\n')
    assert bomb.stat().st_size < 1 << 20
    code, err, baseline = _peak_rss_mb(["kb", "import", str(demo_dir), "--db", "demo.sqlite3", "--quiet"], tmp_path)
    assert (code, err) == (0, "")
    code, err, peak = _peak_rss_mb(["kb", "import", str(bomb), "--db", "bomb.sqlite3", "--quiet"], tmp_path)
    assert code == 1
    assert err.splitlines() == [
        f"factsentry kb: {bomb}:2: line longer than the 16 MiB cap; import stopped here "
        "(kb import --max-line-mb raises the cap for a trusted source)"
    ]
    # Reading up to the 16 MiB cap costs about twice the cap; the whole line would cost several times 100 MB.
    assert peak - baseline < line_mb / 2, f"peak {peak:.0f} MB against {baseline:.0f} MB for a small import"


def test_kb_import_cap_is_a_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "pages.jsonl"
    src.write_bytes(_page_line("Big Page", 3 * 1024 * 1024))
    db = tmp_path / "kb.sqlite3"
    assert main(["kb", "import", str(src), "--db", str(db), "--quiet", "--max-line-mb", "2"]) == 1
    assert "line longer than the 2 MiB cap" in capsys.readouterr().err
    assert main(["kb", "import", str(src), "--db", str(db), "--quiet", "--max-line-mb", "4"]) == 0
    assert main(["kb", "import", str(src), "--db", str(db), "--max-line-mb", "0"]) == 1
    assert "--max-line-mb 0: must be above 0" in capsys.readouterr().err


def _dpr_corpus(path: Path) -> Path:
    """A DPR TSV of 300 pages (shared base names, one non-ASCII title) and two bad lines."""
    rows = ["id\ttext\ttitle"]
    for i in range(300):
        title = f"Vera Nilsson ({i})" if i % 3 else f"Zoë Aalto {i}"
        for j in range(1 + i % 4):
            rows.append(
                f"{len(rows)}\t{title.split(' (')[0]} moved to Örebro in {1900 + i + j}. Page {i} part {j}.\t{title}"
            )
        if i in (7, 150):
            rows.append("bad line without tabs")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def _contents(store: Store) -> list[tuple[str, list[str]]]:
    titles = sorted(c.title for c in store.candidates("Vera Nilsson", limit=1000))
    titles += sorted(c.title for c in store.candidates("Zoe Aalto", limit=1000))
    return [(t, [p.text for p in store.page(t)]) for t in titles]


def test_the_reader_process_imports_what_the_reader_thread_does(tmp_path: Path) -> None:
    src = _dpr_corpus(tmp_path / "psgs.tsv")
    problems: dict[str, list[str]] = {"thread": [], "process": []}
    stores = {}
    for how, min_bytes in (("thread", 1 << 40), ("process", 0)):
        stores[how] = Store(tmp_path / f"{how}.sqlite3")
        report = import_path(src, stores[how], "dpr", process_min_bytes=min_bytes, on_problem=problems[how].append)
        assert (report.pages, report.passages, report.bad_lines) == (300, 750, 2)
    assert problems["process"] == problems["thread"] and len(problems["thread"]) == 2
    assert stores["process"].version.split("-")[0] == stores["thread"].version.split("-")[0]
    assert _contents(stores["process"]) == _contents(stores["thread"])
    for query in ("moved to Orebro in 1950", "Zoë Aalto 12", "part 3"):
        assert stores["process"].search(query, k=10) == stores["thread"].search(query, k=10)
    assert stores["process"].passages("Vera Nilsson (10)", "1912") == stores["thread"].passages(
        "Vera Nilsson (10)", "1912"
    )


def test_an_error_in_the_reader_process_stops_the_import_with_its_message(tmp_path: Path) -> None:
    src = tmp_path / "pages.jsonl"
    src.write_bytes(_page_line("At Cap", 4096) + _page_line("Over Cap", 4097))
    with pytest.raises(ImportFormatError) as info:
        import_path(src, Store.in_memory(), max_line_bytes=4096, process_min_bytes=0)
    assert str(info.value).startswith(f"{src}:2: line longer than the 4096 bytes cap")


def test_a_consumer_that_stops_early_ends_the_reader_process(tmp_path: Path) -> None:
    from knowledge.readahead import read_in_process

    def children() -> set[int]:
        return {p.pid for p in psutil.Process().children() if p.is_running() and p.status() != psutil.STATUS_ZOMBIE}

    src = _dpr_corpus(tmp_path / "psgs.tsv")
    before = children()  # session fixtures may run servers of their own
    pages = read_in_process("knowledge.importers:read_sources", [src], ["dpr"], lambda *a: None, None, 1 << 20, chunk=8)
    first = [page.title for page, _ in itertools.islice(pages, 3)]
    assert first == ["Zoë Aalto 0", "Vera Nilsson (1)", "Vera Nilsson (2)"]
    assert len(children() - before) == 1
    pages.close()  # the generator's finally: the process is killed and reaped, not left behind
    assert children() - before == set()
