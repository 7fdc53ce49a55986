"""Org-mode outlines and unified diffs read as the markdown they stand for (scoring/segment/org.py, the
``org-outline`` reading; scoring/segment/diffs.py, the ``diff-edits`` reading): phrasings each reads, look-alikes each
must leave alone."""

from __future__ import annotations

import pytest

from scoring.segment.formats import read_formats
from scoring.sentences import split_sentences


def _texts(answer: str, rules_off: frozenset[str] = frozenset()) -> list[str]:
    return [s.text for s in split_sentences(answer, rules_off)]


# --- Org-mode outlines (org-outline) -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        (
            "```org\n#+TITLE: Ada Quill\n#+FILETAGS: :potters:\n* Profile\n- Born :: 1951, Leeds\n* Career\n"
            "** DONE Head of the Kiln Group <2001>--<2019>\n   - she led it\n```",
            ["# Ada Quill", "## Profile", "- Born: 1951, Leeds", "### Head of the Kiln Group 2001–2019"],
        ),
        (
            "#+TITLE: Kenji Sato\n* Works\n** /Blue Jar/ (1980)\n** TODO [#A] Check the prize year :todo:\n"
            "* Honours\n- Hamada Prize, *1988*",
            ["# Kenji Sato", "### Blue Jar (1980)", "### Check the prize year", "- Hamada Prize, **1988**"],
        ),
        (
            "Here is the outline:\n\n```\n#+TITLE: Lina Berg\n* Education\n:PROPERTIES:\n:ID: 42\n:END:\n"
            "** PhD, Oslo [2004-06-01 Tue]\n* Career\n```",
            ["# Lina Berg", "## Education", "### PhD, Oslo 2004-06-01", "## Career"],
        ),
    ],
)
def test_an_org_outline_is_read_as_markdown(text: str, lines: list[str]) -> None:
    made = read_formats(text).split("\n")
    assert all(line in made for line in lines), made
    assert not any(t.startswith(("*", "#+")) or "DONE" in t or "::" in t or ":ID:" in t for t in _texts(text))
    assert read_formats(text, frozenset({"org-outline"})) == text


@pytest.mark.parametrize(
    "text",
    [
        "* Born 1951 in Leeds\n* Studied in York\n* Died 2011",  # markdown's own "*" bullets
        "```python\n#+TITLE: not org\n* x\n* y\n```",  # a fence of code
        "#+TITLE: Ada\nShe was a potter.",  # a keyword, no headlines
        "**Career** — she taught in York.\n**Honours** — Hamada Prize.",  # bold labels
    ],
)
def test_text_that_is_no_org_outline_stays(text: str) -> None:
    assert read_formats(text) == text


# --- unified diffs (diff-edits) ------------------------------------------------------------------------------------

DIFF = (
    "My edits:\n\n```diff\n--- draft.md\n+++ revised.md\n@@ -1,3 +1,3 @@\n-Ada Quill was born in 1952.\n"
    "+Ada Quill was born in 1951 in Leeds.\n She founded the Kiln Group.\n-She won a prize.\n+She won the Hamada Prize "
    "in 1988.\n```"
)


@pytest.mark.parametrize(
    ("text", "kept", "gone"),
    [
        (
            DIFF,
            [
                "Ada Quill was born in 1951 in Leeds.",
                "She founded the Kiln Group.",
                "She won the Hamada Prize in 1988.",
            ],
            ["1952", "She won a prize."],
        ),
        (
            "```patch\n@@ -4,2 +4,2 @@\n He taught in York.\n-He retired in 2001.\n+He retired in 2003.\n```",
            ["He taught in York.", "He retired in 2003."],
            ["2001"],
        ),
        (
            "```\n@@ -1 +1,2 @@\n-Lina Berg is a singer.\n+Lina Berg is a Norwegian singer.\n"
            "+She was born in 1970.\n```",
            ["Lina Berg is a Norwegian singer.", "She was born in 1970."],
            ["Lina Berg is a singer."],
        ),
    ],
)
def test_a_diff_is_read_as_the_text_it_leaves(text: str, kept: list[str], gone: list[str]) -> None:
    texts = _texts(text)
    assert all(k in texts for k in kept), texts
    assert not any(g in t for g in gone for t in texts), texts
    assert not any(t.startswith(("@@", "---", "+++")) for t in texts), texts
    assert read_formats(text, frozenset({"diff-edits"})) == text


@pytest.mark.parametrize(
    "text",
    [
        "```\n- born 1951\n- died 2011\n+ a note\n```",  # a fence of list items, no hunk header
        "```python\n@@ -1 +1 @@\nx = 1\n```",  # a fence of code
        "She changed -1 to +1 in @@ notation.",  # prose
        "```diff\n- born 1951\n+ born 1952\n```",  # no hunk header: no unified diff
    ],
)
def test_what_is_no_unified_diff_stays(text: str) -> None:
    assert read_formats(text) == text


# --- telegrams (telegram-stops) ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        (
            "ADA QUILL POTTER STOP BORN LEEDS NINETEEN FIFTY ONE STOP WED KENJI SATO STOP",
            ["ADA QUILL POTTER.", "BORN LEEDS 1951.", "WED KENJI SATO."],
        ),
        (
            "KENJI SATO STOP.\nFOUNDED KILN GROUP NINETEEN SEVENTY SEVEN STOP HAMADA PRIZE TWO THOUSAND AND EIGHT STOP",
            ["KENJI SATO.", "FOUNDED KILN GROUP 1977.", "HAMADA PRIZE 2008."],
        ),
        (
            "Here it is as a telegram:\n\nLINA BERG SINGER STOP OSLO STOP TWELVE ALBUMS STOP",
            ["LINA BERG SINGER.", "OSLO.", "12 ALBUMS."],
        ),
    ],
)
def test_a_telegrams_stops_end_its_sentences(text: str, sentences: list[str]) -> None:
    texts = _texts(text)
    assert all(s in texts for s in sentences), texts
    assert read_formats(text, frozenset({"telegram-stops"})) == text


@pytest.mark.parametrize(
    "text",
    [
        "**STOP 6 — THE LIFEBOAT STATION**\n\nSTOP 7 — THE PIER",  # a tour's numbered stops
        "ADA QUILL POTTER STOP BORN LEEDS 1951",  # one STOP
        "She told the band to stop. Then STOP came the sign, and STOP it said.",  # prose, not in capitals
        "WARNING: DO NOT STOP THE ENGINE WHILE THE PUMP RUNS",  # one stop, no telegram
    ],
)
def test_what_is_no_telegram_stays(text: str) -> None:
    assert read_formats(text) == text
