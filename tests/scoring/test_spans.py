"""Facts and sentences carry character spans of the answer as written (markdown, bullets, citations and
wraps included), whatever engine made them."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from knowledge.store import Store
from scoring.engines import build_checker
from scoring.pipeline import check
from scoring.spans import align, char_spans, sentence_span
from tests.scoring.test_llm import HANLEY, ScriptedModel

MARKDOWN = """## Dick Hanley

**Dick Hanley** was an American football coach [1].

- He was head coach at *Northwestern University* from 1927 to 1934.
- He died in 1970 in
  Chicago, Illinois.
"""


def _words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z0-9]+", text))


def test_offline_facts_point_at_their_words_in_a_markdown_answer(demo_kb: Store) -> None:
    result = check(MARKDOWN, kb=demo_kb, name="Dick Hanley")
    facts = [f for g in result.groups for f in g.facts]
    assert facts
    for fact in facts:
        assert fact.spans, fact.text
        written = _words(" ".join(MARKDOWN[s:e] for s, e in fact.spans))
        # The span holds the fact's words as written (the subject may be "He" there), and little else.
        assert {w for w in _words(fact.text) if w.isdigit()} <= written, (written, fact.text)
        assert len(written & _words(fact.text)) >= 0.6 * len(written), (written, fact.text)
    died = next(f for f in facts if "1970" in f.text)
    assert any("1970" in MARKDOWN[s:e] for s, e in died.spans)
    assert any("Chicago" in MARKDOWN[s:e] for f in facts for s, e in f.spans)
    tenure = next(f for f in facts if "1927" in f.text)
    assert "Northwestern University* from 1927 to 1934" in " ".join(MARKDOWN[s:e] for s, e in tenure.spans)
    for sentence, (s, e) in zip(result.sentences, result.sentence_spans, strict=True):
        assert _words(sentence) == _words(MARKDOWN[s:e]) - {"1"}, (sentence, MARKDOWN[s:e])


def test_llm_facts_point_at_their_sentence(demo_kb: Store) -> None:
    result = build_checker("llm", complete=ScriptedModel().complete).check(HANLEY, kb=demo_kb, name="Dick Hanley")
    born = next(f for g in result.groups for f in g.facts if "1936" in f.text)
    (start, end) = born.spans[0]
    assert HANLEY[start:end] == "He was born in 1936 and won a silver medal at the 1956 Olympics."


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.text(alphabet="abc XY.*[]1-\n", min_size=1, max_size=30),
        min_size=1,
        max_size=5,
    )
)
@example(["X[X", "X[1"])  # a word not ahead that stands earlier: found forward only, outside a table
def test_alignment_stays_inside_the_answer_and_in_order(parts: list[str]) -> None:
    answer = " ".join(parts)
    sentences = [re.sub(r"[*\[\]\s]+", " ", p).strip() for p in parts]
    maps = align(answer, sentences)
    last = -1
    for sentence, offsets in zip(sentences, maps, strict=True):
        assert len(offsets) == len(sentence)
        for ch, o in zip(sentence, offsets, strict=True):
            if o >= 0:
                assert answer[o] == ch and o > last
                last = o
        s, e = sentence_span(offsets)
        assert 0 <= s <= e <= len(answer)
        for a, b in char_spans(offsets, [(0, len(sentence))], answer):
            assert s <= a < b <= e


def test_alignment_looks_no_further_than_what_cleaning_removes() -> None:
    # The second sentence is read without its markup; its words are found where it stands, never in the
    # copy of it that the answer quotes much later.
    gap = " ".join(["filler"] * 20)
    answer = f"He was born in 1936. He **died** in 1970 [3]. {gap}. He died in 1970."
    maps = align(answer, ["He was born in 1936.", "He died in 1970.", f"{gap}.", "He died in 1970."])
    spans = [sentence_span(m) for m in maps]
    assert [answer[s:e] for s, e in spans] == [
        "He was born in 1936.",
        "He **died** in 1970 [3].",
        f"{gap}.",
        "He died in 1970.",
    ]
    assert spans[3][0] == len(answer) - len("He died in 1970.")


def test_a_table_read_column_by_column_points_at_each_cell() -> None:
    """The second person's rows are read after the first person's last row: each is found in its own row, not
    lost past the end of the table."""
    answer = (
        "| | Ada (physicist) | Ada (novelist) |\n|---|---|---|\n"
        "| Born | 1979, Valencia | 1984, Lagos |\n| Award | Harrowgate Prize (2016) | Marquardt Prize (2018) |\n"
    )
    sentences = [
        "Born: 1979, Valencia",
        "Award: Harrowgate Prize (2016)",
        "Born: 1984, Lagos",
        "Award: Marquardt Prize (2018)",
    ]
    maps = align(answer, sentences)
    for sentence, offsets in zip(sentences, maps, strict=True):
        value = sentence.split(": ", 1)[1]
        start = sentence.index(value)
        assert [answer[a:b] for a, b in char_spans(offsets, [(start, len(sentence))], answer)] == [value]
