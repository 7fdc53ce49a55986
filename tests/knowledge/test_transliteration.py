"""The store finds names and words however their letters are written: transliterated keys and index."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest

from knowledge import store as store_module
from knowledge.errors import StoreError
from knowledge.store import Store
from knowledge.text import folded_words

PAGES = [
    (
        "Władysław Kowalczyk (cellist)",
        "Władysław Kowalczyk (born 1961 in Wrocław) is a Polish cellist who teaches in Łódź.",
        ["Władek Kowalczyk"],
    ),
    ("Władysław Kowalczyk (footballer)", "Władysław Kowalczyk (born 1978 in Gdańsk) is a Polish striker.", []),
    ("Wladimir Kowalski", "Wladimir Kowalski is a Russian chess player born in Moscow.", []),
    ("Søren Ødegaard", "Søren Ødegaard is a Danish painter who lived on the island of Ærø.", []),
    ("Gustav Straße", "Gustav Straße is a German architect; his Großmarkthalle opened in 1928.", []),
    ("Þórður Guðjónsson", "Þórður Guðjónsson is an Icelandic footballer from Akranes.", []),
    ("Мстислав Ростропович", "Мстислав Ростропович was a cellist and conductor born in Baku.", []),
]


@pytest.fixture(scope="module")
def store() -> Store:
    return Store.in_memory(PAGES)


@pytest.mark.parametrize(
    ("mention", "titles"),
    [
        ("Wladyslaw Kowalczyk", ["Władysław Kowalczyk (cellist)", "Władysław Kowalczyk (footballer)"]),
        ("WŁADYSŁAW KOWALCZYK", ["Władysław Kowalczyk (cellist)", "Władysław Kowalczyk (footballer)"]),
        ("Wladek Kowalczyk", ["Władysław Kowalczyk (cellist)"]),  # by its alias
        ("Wladyslaw Kowalczyk (cellist)", ["Władysław Kowalczyk (cellist)", "Władysław Kowalczyk (footballer)"]),
        ("Soren Odegaard", ["Søren Ødegaard"]),
        ("Gustav Strasse", ["Gustav Straße"]),
        ("Thordur Gudjonsson", ["Þórður Guðjónsson"]),
        ("Mstislav Rostropovich", ["Мстислав Ростропович"]),
        # look-alikes that are other names find nothing
        ("Wladimir Kowalczyk", []),
        ("Wladyslaw Kowalski", []),
        ("Soren Odegard", []),
        ("Gustav Strase", []),
    ],
)
def test_candidates_match_names_without_their_diacritics(store: Store, mention: str, titles: list[str]) -> None:
    assert [c.title for c in store.candidates(mention)] == titles


@pytest.mark.parametrize(
    ("query", "title"),
    [
        ("Wladyslaw Kowalczyk Wroclaw cellist", "Władysław Kowalczyk (cellist)"),
        ("teaches in Lodz", "Władysław Kowalczyk (cellist)"),
        ("striker born in Gdansk", "Władysław Kowalczyk (footballer)"),
        ("painter on the island of Aero", "Søren Ødegaard"),
        ("Grossmarkthalle 1928", "Gustav Straße"),
        ("Rostropovich conductor", "Мстислав Ростропович"),
        ("Władysław Wrocław", "Władysław Kowalczyk (cellist)"),  # the written form still finds itself
    ],
)
def test_search_finds_words_however_their_letters_are_written(store: Store, query: str, title: str) -> None:
    found = store.search(query, k=3)
    assert found and found[0].title == title


def test_search_and_page_return_the_text_as_written(store: Store) -> None:
    [best] = store.search("Grossmarkthalle", k=1)
    assert best.text == "Gustav Straße is a German architect; his Großmarkthalle opened in 1928."
    assert [p.text for p in store.page("Søren Ødegaard")] == [PAGES[3][1]]
    # the passages of a page rank by the same folded words
    assert store.passages("Władysław Kowalczyk (cellist)", "born in Wroclaw")[0].score > 0


def test_a_replaced_page_leaves_no_stale_folded_words() -> None:
    store = Store.in_memory([("Jan Nowak", "Jan Nowak was born in Wrocław.")])
    assert [p.title for p in store.search("Wroclaw")] == ["Jan Nowak"]
    store.add_pages([("Jan Nowak", "Jan Nowak was born in Kraków.")])
    assert store.search("Wroclaw") == []
    assert [p.title for p in store.search("Krakow")] == ["Jan Nowak"]
    store._conn.execute("INSERT INTO passages(passages) VALUES ('integrity-check')")


def _old_store(path: Path, meta: list[tuple[str, str]]) -> None:
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.executescript(store_module._SCHEMA)
        conn.executemany("INSERT INTO meta(key, value) VALUES (?, ?)", meta)


@pytest.mark.parametrize(
    ("meta", "message"),
    [
        ([("schema_version", "2")], "of schema 2, this factsentry reads schema 3: delete it and import again"),
        ([("schema_version", "3")], "transliteration None, this factsentry by anyascii-"),
        ([("schema_version", "3"), ("fold", "anyascii-0.1/1")], "transliteration anyascii-0.1/1, this factsentry"),
    ],
)
def test_a_store_keyed_another_way_is_refused_with_how_to_rebuild_it(
    tmp_path: Path, meta: list[tuple[str, str]], message: str
) -> None:
    # A store imported before (or under another transliteration) keys names another way: reading it would
    # half-match, and its verdicts were cached against other keys. Re-importing gives it a new version.
    path = tmp_path / "old.sqlite3"
    _old_store(path, meta)
    with pytest.raises(StoreError, match=message.replace("(", r"\(")):
        Store.open(path)


def test_a_store_made_now_opens_again(tmp_path: Path) -> None:
    path = tmp_path / "kb.sqlite3"
    with Store(path) as store:
        store.add_pages(PAGES)
        version = store.version
    with Store.open(path) as again:
        assert again.version == version
        assert [c.title for c in again.candidates("Soren Odegaard")] == ["Søren Ødegaard"]


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("An ASCII passage.", ""),
        ("Paris 2005–2009 — “quoted”", ""),  # punctuation outside ASCII is no word
        ("Władysław went to Wrocław, then Władysław left.", "wladyslaw wroclaw"),  # each word once
        ("Zürich, 北京 and Straße_7", "zurich beijing strasse 7"),
        ("naïve café", "naive cafe"),  # also what the tokenizer folds itself: harmless twice
    ],
)
def test_folded_words_are_the_transliterated_non_ascii_words(text: str, folded: str) -> None:
    assert folded_words(text) == folded
