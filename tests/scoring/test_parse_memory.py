"""A cached parse keeps its annotation but not the embedding layer's tensor (issue #31 item 8: worker memory)."""

from __future__ import annotations

from scoring import nlp

SENTENCE = "Marie Curie was born in Warsaw in 1867 and moved to Paris."


def test_the_pipeline_itself_leaves_a_tensor_on_the_doc() -> None:
    doc = nlp.get_nlp()(SENTENCE)
    assert doc.tensor.shape[0] == len(doc)
    assert doc.tensor.size > 0


def test_cached_parses_hold_no_tensor_and_keep_their_annotation() -> None:
    (doc,) = nlp.parse([SENTENCE])
    assert doc.tensor.size == 0
    assert nlp.parse([SENTENCE])[0] is doc  # the cached parse, not a new one
    assert [t.dep_ for t in doc if t.text == "born"] == ["ROOT"]
    assert [t.pos_ for t in doc if t.text in ("Warsaw", "Paris")] == ["PROPN", "PROPN"]
    assert {(e.text, e.label_) for e in doc.ents} >= {("Warsaw", "GPE"), ("1867", "DATE"), ("Paris", "GPE")}
