"""What a scoring process keeps between checks is bounded and lean (issue #31 item 8: worker memory)."""

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


def test_per_passage_caches_keep_at_most_1024_passages() -> None:
    from scoring import meaning
    from scoring.verifier import features

    for cached in (features._windows, meaning._clauses):
        cached.cache_clear()
        for i in range(1100):
            cached(f"Passage {i} says that Ada Lovelace was born in {1000 + i}. She wrote notes.")
        info = cached.cache_info()
        assert (info.currsize, info.maxsize, info.misses) == (1024, 1024, 1100)
        cached.cache_clear()
