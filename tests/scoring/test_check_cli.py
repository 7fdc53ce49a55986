"""``factsentry check`` in-process: JSON shape, human tables, user errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from factsentry.cli import main
from knowledge.importers import import_path
from knowledge.store import Store

ANSWER = (
    "Dick Hanley was an American swimmer and football coach. He was born in 1936 and swam for the United States "
    "at the 1956 Summer Olympics in Melbourne. He was head football coach at Northwestern University from 1927 "
    "to 1934. He died in 1970."
)


@pytest.fixture(scope="module")
def kb_file(tmp_path_factory: pytest.TempPathFactory, repo_root: Path) -> Path:
    path = tmp_path_factory.mktemp("kb") / "demo.sqlite3"
    with Store(path) as store:
        import_path(repo_root / "knowledge" / "demo", store)
    return path


@pytest.fixture
def answer_file(tmp_path: Path) -> Path:
    path = tmp_path / "answer.txt"
    path.write_text(ANSWER)
    return path


def test_json_output(kb_file: Path, answer_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", "--kb", str(kb_file), "--name", "Dick Hanley", "--text", str(answer_file), "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0
    assert {"abstained", "factscore", "dfactscore", "num_bios", "num_entities", "groups", "revision"} <= set(doc)
    assert doc["num_bios"] == 1 and doc["num_entities"] == 2 and doc["dfactscore"] < doc["factscore"]
    fact = doc["groups"][0]["facts"][0]
    assert {"text", "verdict", "stance", "entity_supporting", "evidence"} <= set(fact)
    assert {"title", "text"} <= set(fact["evidence"][0])
    assert doc["revision"]["text"] and doc["revision"]["edits"]


def test_human_output_from_stdin(
    kb_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(ANSWER))
    monkeypatch.setenv("COLUMNS", "160")
    assert main(["check", "--kb", str(kb_file), "--text", "-"]) == 0
    out = capsys.readouterr().out
    assert "D-FActScore" in out and "CONFLATED" in out and "suggested revision" in out
    assert "Dick Hanley (American football)" in out


def test_abstained_answer(kb_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "a.txt"
    path.write_text("I'm sorry, but I could not find any information about Dick Hanley.")
    assert main(["check", "--kb", str(kb_file), "--text", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["abstained"] is True and doc["factscore"] is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--kb", "/nonexistent/kb.sqlite3", "--text", "-"], "no such store"),
        (["--text", "/nonexistent/answer.txt"], "no such file"),
    ],
)
def test_user_errors(kb_file: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    if "--kb" not in args:
        args = ["--kb", str(kb_file), *args]
    assert main(["check", *args]) == 1
    assert message in capsys.readouterr().err


ICONV = "convert it first, e.g. iconv -t UTF-8"
BINARY = [
    (b"Dick Hanley was born in 1936.\x00\x00\x00", "binary input (a NUL character at offset 29); give UTF-8 text"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", f"not UTF-8 text (byte 0x89 at offset 0); {ICONV}"),
    (b"Dick Hanley ate cr\xe8me br\xfbl\xe9e.", f"not UTF-8 text (byte 0xe8 at offset 18); {ICONV}"),
]


@pytest.mark.parametrize("via", ["file", "stdin"])
@pytest.mark.parametrize(("data", "message"), BINARY)
def test_binary_input_is_one_line_of_error_without_a_traceback(
    kb_file: Path, tmp_path: Path, via: str, data: bytes, message: str
) -> None:
    answer = tmp_path / "answer.bin"
    answer.write_bytes(data)
    source = str(answer) if via == "file" else "-"
    proc = subprocess.run(
        [str(Path(sys.executable).parent / "factsentry"), "check", "--kb", str(kb_file), "--text", source],
        input=data,
        capture_output=True,
        check=False,
        timeout=120,
    )
    err = proc.stderr.decode()
    assert (proc.returncode, proc.stdout) == (1, b"")
    assert err.splitlines() == [f"factsentry check: --text {source}: {message}"]


def test_a_utf8_byte_order_mark_is_not_part_of_the_answer(
    kb_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain, marked = tmp_path / "plain.txt", tmp_path / "marked.txt"
    plain.write_bytes(ANSWER.encode())
    marked.write_bytes(b"\xef\xbb\xbf" + ANSWER.encode())
    results = []
    for path in (plain, marked):
        assert main(["check", "--kb", str(kb_file), "--text", str(path), "--json", "--no-revise"]) == 0
        results.append(json.loads(capsys.readouterr().out))
    assert results[0]["groups"] == results[1]["groups"]
    assert results[1]["groups"][0]["facts"][0]["text"][0] != "\ufeff"


def test_fail_under_gates_a_ci_job_on_d_factscore(
    kb_file: Path, answer_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["check", "--kb", str(kb_file), "--name", "Dick Hanley", "--text", str(answer_file), "--json"]
    assert main(base) == 0
    score = json.loads(capsys.readouterr().out)["dfactscore"]
    assert 0.0 < score < 1.0
    assert main([*base, "--fail-under", f"{score - 0.01:.4f}"]) == 0
    capsys.readouterr()
    assert main([*base, "--fail-under", f"{score + 0.01:.4f}"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"factsentry check: D-FActScore {score:.3f} is below --fail-under {score + 0.01:.4f}".rstrip("0")]
    assert main([*base, "--fail-under", "1.5"]) == 1
    assert "between 0 and 1" in capsys.readouterr().err


def test_up_takes_its_port_and_host_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from factsentry.cli import build_parser

    monkeypatch.setenv("FACTSENTRY_PORT", "18080")
    monkeypatch.setenv("FACTSENTRY_HOST", "127.0.0.2")
    args = build_parser().parse_args(["up"])
    assert (args.port, args.host) == (18080, "127.0.0.2")
    assert build_parser().parse_args(["up", "--port", "9000"]).port == 9000  # the flag wins
    monkeypatch.setenv("FACTSENTRY_PORT", "eighty")
    assert main(["up"]) == 1


def test_documents_are_checked_against_instead_of_or_beside_a_store(
    kb_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "docs.jsonl"
    docs.write_text(
        json.dumps({"title": "Harrow manual", "entity": "Harrow K2", "text": "The Harrow K2 kettle holds 1.7 litres."})
        + "\n"
        + json.dumps(
            {"title": "Harrow warranty", "entity": "Harrow K2", "text": "The Harrow K2 has a 24-month warranty."}
        )
    )
    answer = tmp_path / "a.txt"
    answer.write_text("The Harrow K2 holds 2.5 litres.")
    assert main(["check", "--documents", str(docs), "--text", str(answer), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["grounding"], doc["status"], doc["factscore"]) == ("documents", "checked", 0.0)
    assert [g["entity"] for g in doc["groups"]] == ["Harrow K2"]
    # Beside the store, an answer about a person of the store is checked against the store's page.
    answer.write_text(ANSWER)
    listed = tmp_path / "docs.json"
    listed.write_text(json.dumps([{"title": "Harrow manual", "text": "The Harrow K2 kettle holds 1.7 litres."}]))
    assert main(["check", "--kb", str(kb_file), "--documents", str(listed), "--text", str(answer), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["grounding"] == "documents_and_store" and doc["num_entities"] == 2


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"title": "no text"}', "document 1: text: Field required"),
        ("[]", "no documents"),
        ("{not json", "not JSON or JSON lines"),
    ],
)
def test_bad_documents_are_one_line_of_error(
    tmp_path: Path, content: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "docs.jsonl"
    docs.write_text(content)
    answer = tmp_path / "a.txt"
    answer.write_text("The Harrow K2 holds 2.5 litres.")
    assert main(["check", "--documents", str(docs), "--text", str(answer)]) == 1
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_neither_a_store_nor_documents_is_a_user_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--text", "-"]) == 1
    assert "give --kb" in capsys.readouterr().err


UNVERIFIABLE = [
    "The Acme warranty lasts two years. Water damage is not covered.",
    "To reset your router, hold the reset button for 15 seconds until the light turns green.",
    "Zorblat Quintavius was a Martian poet. He was born in 2301 and wrote twelve books.",
]


@pytest.mark.parametrize("text", UNVERIFIABLE)
def test_plain_output_says_unverifiable_with_its_coverage(
    kb_file: Path, tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = tmp_path / "a.txt"
    answer.write_text(text)
    assert main(["check", "--kb", str(kb_file), "--text", str(answer)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert out.startswith("unverifiable FActScore — D-FActScore — coverage 0.0% ")
    assert "unverifiable: no page speaks to what the answer describes (coverage 0.0% of its check-worthy facts)" in out


def test_plain_output_of_a_checked_answer_says_checked_and_its_coverage(
    kb_file: Path, answer_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--kb", str(kb_file), "--name", "Dick Hanley", "--text", str(answer_file)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert out.startswith("checked FActScore ") and " coverage " in out and "unverifiable" not in out


@pytest.mark.parametrize("text", UNVERIFIABLE)
def test_fail_under_fails_an_unverifiable_answer_unless_allowed_and_says_why(
    kb_file: Path, tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = tmp_path / "a.txt"
    answer.write_text(text)
    base = ["check", "--kb", str(kb_file), "--text", str(answer), "--json", "--fail-under", "0.5"]
    assert main(base) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["status"] == "unverifiable"
    assert captured.err.splitlines() == [
        "factsentry check: the answer is unverifiable (coverage 0.0%), so it has no D-FActScore to compare with "
        "--fail-under 0.5; it fails (--allow-unverifiable lets such answers pass)"
    ]
    assert main([*base, "--allow-unverifiable"]) == 0
    assert capsys.readouterr().err.splitlines() == [
        "factsentry check: the answer is unverifiable (coverage 0.0%), so it has no D-FActScore; it passes "
        "--fail-under 0.5 because of --allow-unverifiable"
    ]


def test_fail_under_passes_an_abstention_and_a_score_at_the_bound_saying_why(
    kb_file: Path, answer_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    refusal = tmp_path / "refusal.txt"
    refusal.write_text("I'm sorry, I can't help with that.")
    assert main(["check", "--kb", str(kb_file), "--text", str(refusal), "--json", "--fail-under", "0.9"]) == 0
    assert capsys.readouterr().err.splitlines() == [
        "factsentry check: the answer abstains (declines to answer): nothing to score; it passes --fail-under 0.9"
    ]
    base = ["check", "--kb", str(kb_file), "--name", "Dick Hanley", "--text", str(answer_file), "--json"]
    assert main(base) == 0
    score = json.loads(capsys.readouterr().out)["dfactscore"]
    assert main([*base, "--fail-under", f"{score - 0.001:.4f}"]) == 0
    assert capsys.readouterr().err.splitlines() == [
        f"factsentry check: D-FActScore {score:.3f} is at or above --fail-under {score - 0.001:.4f}".rstrip("0")
        + ": passes"
    ]
    assert main([*base, "--fail-under", "0"]) == 0
    assert capsys.readouterr().err.splitlines() == [
        f"factsentry check: D-FActScore {score:.3f} is at or above --fail-under 0: passes"
    ]


def test_allow_unverifiable_needs_fail_under(
    kb_file: Path, answer_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--kb", str(kb_file), "--text", str(answer_file), "--allow-unverifiable"]) == 1
    assert "--allow-unverifiable goes with --fail-under" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("answer", "code"),
    [
        (
            "Clara Schumann war eine deutsche Pianistin und Komponistin. Sie wurde 1819 in Leipzig geboren und "
            "heiratete 1840 den Komponisten Robert Schumann.",
            "de",
        ),
        (
            "Dick Hanley était un entraîneur de football américain. Il a dirigé l'équipe de l'université "
            "Northwestern de 1927 à 1934 et il est mort en 1970.",
            "fr",
        ),
    ],
)
def test_an_answer_in_another_language_is_said_to_be_unverifiable(
    kb_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], answer: str, code: str
) -> None:
    path = tmp_path / "answer.txt"
    path.write_text(answer)
    assert main(["check", "--kb", str(kb_file), "--text", str(path), "--fail-under", "0.9"]) == 1
    assert "unverifiable, so it has no D-FActScore" in capsys.readouterr().err
    assert (
        main(["check", "--kb", str(kb_file), "--text", str(path), "--fail-under", "0.9", "--allow-unverifiable"]) == 0
    )
    out = capsys.readouterr().out
    assert f"written in '{code}'" in out and "not scored" in out and "FActScore" not in out
    assert main(["check", "--kb", str(kb_file), "--text", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["status"], doc["reason"], doc["language"], doc["dfactscore"]) == (
        "unverifiable",
        "language",
        code,
        None,
    )
