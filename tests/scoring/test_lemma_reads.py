"""The parse leaves spaCy's lemmatizer out (``scoring.nlp.parse``): a rule that read ``token.lemma_`` directly
would get an empty lemma and silently never fire. Lemmas are read through ``scoring.nlp.lemma``."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_no_step_reads_a_lemma_the_parse_did_not_set() -> None:
    readers = [
        f"{path.relative_to(ROOT)}:{n}"
        for package in ("scoring", "evaluation", "workers", "gateway", "knowledge")
        for path in sorted((ROOT / package).rglob("*.py"))
        if path.name != "nlp.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\.lemma_\b", line)
    ]
    assert readers == []


def test_a_lemma_read_through_nlp_is_the_pipelines() -> None:
    from scoring import nlp

    doc = nlp.parse_one("She is a novelist, born in Lagos and raised in Seville.")
    assert [nlp.lemma(t) for t in doc if t.text in ("is", "born", "raised")] == ["be", "bear", "raise"]
