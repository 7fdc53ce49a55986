"""A request's documents as a knowledge source: which pages they make, what is a candidate, where a
passage look-up goes, and the version every cache key holds."""

from __future__ import annotations

from knowledge.documents import CONTEXT, DocumentSource
from knowledge.store import Store
from scoring.pipeline import check

MANUAL = ("Harrow kettle manual", "The Harrow K2 kettle holds 1.7 litres. It boils a full load in four minutes.")
WARRANTY = ("Harrow warranty", "The Harrow K2 has a warranty of 24 months.")


def test_each_source_is_one_page_and_a_candidate_whatever_the_mention() -> None:
    docs = DocumentSource.of([MANUAL, WARRANTY, ("Harrow kettle manual", "Descale it every month.")])
    titles = [d.title for d in docs.documents]
    assert titles == ["Harrow kettle manual", "Harrow warranty"]  # the same title twice: chunks of one page
    manual = [p.text for p in docs.passages("Harrow kettle manual", "descale", k=5)]
    assert manual[0] == "Descale it every month." and len(manual) == 2
    assert docs.passages("Somebody else", "kettle") == []


def test_entity_names_the_source_and_untitled_documents_share_one() -> None:
    docs = DocumentSource.of([(*MANUAL, "Harrow K2"), (*WARRANTY, "Harrow K2"), ("", "Kettles boil water."), ("", "x")])
    assert [d.title for d in docs.documents] == ["Harrow K2", CONTEXT]
    assert {p.text for p in docs.passages("Harrow K2", "warranty", k=5)} >= {WARRANTY[1]}


def test_the_store_is_consulted_only_when_given_and_a_shared_title_is_the_documents() -> None:
    store = Store.in_memory([("Harrow warranty", "The Harrow K2 has a ten-year warranty."), ("Ada Lind", "A poet.")])
    alone = DocumentSource.of([WARRANTY])
    both = DocumentSource.of([WARRANTY], store)
    assert alone.candidates("Ada Lind") == [] and [r.title for r in both.candidates("Ada Lind")] == ["Ada Lind"]
    assert [p.text for p in both.passages("Harrow warranty", "warranty")] == [WARRANTY[1]]
    assert [p.text for p in both.passages("Ada Lind", "poet")] == ["A poet."]
    assert alone.version.startswith("docs-") and both.version == f"{alone.version}+{store.version}"


def test_the_version_follows_the_documents_content() -> None:
    a = DocumentSource.of([MANUAL]).version
    assert a == DocumentSource.of([MANUAL]).version
    assert a != DocumentSource.of([(MANUAL[0], MANUAL[1] + " It is red.")]).version
    assert a != DocumentSource.of([("Other title", MANUAL[1])]).version


def test_an_answer_with_documents_is_judged_by_them_never_unverifiable() -> None:
    docs = DocumentSource.of([(*MANUAL, "Harrow K2"), (*WARRANTY, "Harrow K2")])
    good = check("The Harrow K2 holds 1.7 litres and has a warranty of 24 months.", kb=docs)
    assert (good.status, good.grounding, good.dfactscore) == ("checked", "documents", 1.0)
    assert [g.entity for g in good.groups] == ["Harrow K2"]
    off = check("Ada Lind was a Norwegian poet born in 1902.", kb=docs)
    assert (off.status, off.factscore, off.dfactscore) == ("checked", 0.0, 0.0)  # ungrounded, not "unverifiable"
    store_only = check("Ada Lind was a Norwegian poet born in 1902.", kb=Store.in_memory([MANUAL]))
    assert store_only.status == "unverifiable" and store_only.grounding == "store"
