"""The store: candidates behind ambiguous names, passages of one page, store-wide search, versions."""

from __future__ import annotations

import contextlib
import sqlite3
import time
from pathlib import Path

import pytest

from knowledge import store as store_module
from knowledge.errors import StoreError
from knowledge.pages import Page
from knowledge.store import Store


@pytest.mark.parametrize(
    ("mention", "expected"),
    [
        ("Dick Hanley", {"Dick Hanley (swimmer)", "Dick Hanley (American football)"}),
        ("dick hanley", {"Dick Hanley (swimmer)", "Dick Hanley (American football)"}),
        ("Richard Hanley", {"Dick Hanley (swimmer)", "Dick Hanley (American football)"}),
        ("John Hemming", {"John Hemming (explorer)", "John Hemming (politician)"}),
        ("John Hemmings", {"John Heminges"}),
        (
            "Joseph F. Smith",
            {"Joseph F. Smith", "Joseph F. Smith (Pennsylvania politician)", "Joseph Fielding Smith"},
        ),
        (
            "Gavin Hamilton",
            {
                "Gavin Hamilton (painter)",
                "Gavin Hamilton (cricketer)",
                "Gavin Hamilton (bishop)",
                "Gavin Hamilton (lawyer)",
                "Gavin Hamilton, 2nd Baron Hamilton of Dalzell",
            },
        ),
        (
            "John Stewart",
            {
                "John Stewart (Northern Ireland politician)",
                "John Stewart (musician)",
                "John Stewart, Duke of Albany",
                "Jackie Stewart",
            },
        ),
        ("Nobody Atall", set()),
    ],
)
def test_candidates_list_every_entity_behind_a_name(demo_store: Store, mention: str, expected: set[str]) -> None:
    assert {c.title for c in demo_store.candidates(mention)} == expected


@pytest.mark.parametrize(
    ("mention", "first"),
    [
        ("Dick Hanley (swimmer)", "Dick Hanley (swimmer)"),
        ("Dick Hanley (American football)", "Dick Hanley (American football)"),
        ("Joseph F. Smith", "Joseph F. Smith"),  # the exact title before its namesakes
        ("Joseph Fielding Smith", "Joseph Fielding Smith"),
        ("John Stewart (musician)", "John Stewart (musician)"),
        ("Gavin Hamilton (politician)", "Gavin Hamilton, 2nd Baron Hamilton of Dalzell"),  # alias title
    ],
)
def test_candidates_put_the_named_page_first(demo_store: Store, mention: str, first: str) -> None:
    assert demo_store.candidates(mention)[0].title == first


def test_candidate_fields_and_loose_matches_rank_last(demo_store: Store) -> None:
    found = demo_store.candidates("John Stewart")
    assert found[-1].title == "Jackie Stewart"  # only through the alias "John Young Stewart"
    assert found[-1].score < found[0].score
    coach = next(c for c in demo_store.candidates("Dick Hanley") if c.disambiguator == "American football")
    assert (coach.base_name, coach.aliases) == ("Dick Hanley", ["Richard Hanley", "Richard E. Hanley"])
    assert len(demo_store.candidates("Gavin Hamilton", limit=2)) == 2


@pytest.mark.parametrize(
    ("mention", "expected"),
    [
        ("josé garcía", {"José García (painter)", "Jose Garcia (boxer)"}),
        ("Jose Garcia Jr.", {"José García (painter)", "Jose Garcia (boxer)"}),
        ("JOSE GARCIA", {"José García (painter)", "Jose Garcia (boxer)"}),
        ("Robert E. Lee", {"Robert E. Lee", "Robert Lee (writer)"}),
        ("Robert Lee", {"Robert E. Lee", "Robert Lee (writer)"}),
        ("Robert Edward Lee", {"Robert Lee (writer)", "Robert E. Lee"}),
    ],
)
def test_candidates_ignore_case_diacritics_initials_and_suffixes(mention: str, expected: set[str]) -> None:
    store = Store.in_memory(
        [
            ("José García (painter)", "A painter from Seville."),
            ("Jose Garcia (boxer)", "A boxer."),
            ("Robert E. Lee", "A general.", ["Robert Edward Lee"]),
            ("Robert Lee (writer)", "A writer."),
        ]
    )
    assert {c.title for c in store.candidates(mention)} == expected


@pytest.mark.parametrize(
    ("mention", "expected"),
    [
        # A title before the name: the page goes by the bare name.
        ("Metropolitan Hilarion", {"Hilarion", "Hilarion (Alfeyev)"}),
        ("Sir Hilarion", {"Hilarion", "Hilarion (Alfeyev)"}),
        # A short word may be letters, and letters a word; a bare name may be a page's "The …".
        ("Do", {"D.O. (entertainer)", "The DO"}),
        ("DO", {"D.O. (entertainer)", "The DO"}),
        ("D.O.", {"D.O. (entertainer)"}),
        ("The Hilarion", {"Hilarion", "Hilarion (Alfeyev)"}),
        # Nothing looser for a plain two-word name, and a title alone is no name.
        ("Hilarion Alfeyev", set()),
        ("Metropolitan", set()),
    ],
)
def test_candidates_read_titles_letters_and_articles_loosely(mention: str, expected: set[str]) -> None:
    store = Store.in_memory(
        [
            ("Hilarion", "An anchorite of the fourth century."),
            ("Hilarion (Alfeyev)", "A bishop of the Russian Orthodox Church."),
            ("D.O. (entertainer)", "A South Korean singer."),
            ("The DO", "A monthly magazine."),
            ("Dolores Park", "A park."),
        ]
    )
    found = store.candidates(mention)
    assert {c.title for c in found} == expected
    exact = store.candidates("Hilarion")
    assert exact[0].title == "Hilarion" and all(c.score < exact[0].score for c in found)


@pytest.mark.parametrize(
    ("title", "query", "expected_first"),
    [
        ("Dick Hanley (American football)", "He was head coach at Northwestern", "Northwestern"),
        ("Dick Hanley (American football)", "He coached at Haskell", "Haskell"),
        ("Dick Hanley (American football)", "He served in the Marine Corps", "Marine"),
        ("Dick Hanley (American football)", "zeppelins", "player and coach"),  # no shared word: page order
    ],
)
def test_passages_rank_within_one_page(title: str, query: str, expected_first: str) -> None:
    store = Store.in_memory()
    text = Page.of(title, "").passages  # empty
    assert text == ()
    store.add_pages(
        [
            (
                title,
                [
                    "Dick Hanley was an American football player and coach.",
                    "He was head coach at the Haskell Institute from 1922 to 1926.",
                    "He was head coach at Northwestern University from 1927 to 1934.",
                    "He served in the Marine Corps during the Second World War.",
                ],
            )
        ]
    )
    found = store.passages(title, query, k=2)
    assert len(found) == 2
    assert expected_first in found[0].text
    assert all(p.title == title for p in found)
    assert found[0].score >= found[1].score


def test_passages_of_unknown_title_and_whole_page(demo_store: Store) -> None:
    assert demo_store.passages("Dick Hanley (astronaut)", "born 1936") == []
    page = demo_store.page("Dick Hanley (swimmer)")
    assert len(page) == 1 and "1956" in page[0].text
    assert demo_store.passages("Dick Hanley (swimmer)", "completely unrelated words", k=5) == page


@pytest.mark.parametrize(
    ("query", "expected_title"),
    [
        ("Kingston Trio Daydream Believer", "John Stewart (musician)"),
        ("First Folio Condell", "John Heminges"),
        ("Royal Geographical Society director", "John Hemming (explorer)"),
        ("Birmingham Yardley Liberal Democrat", "John Hemming (politician)"),
        ("Bishop of Galloway consecrated 1610", "Gavin Hamilton (bishop)"),
        ("Abscam Lederer special election", "Joseph F. Smith (Pennsylvania politician)"),
    ],
)
def test_search_finds_the_page_across_the_store(demo_store: Store, query: str, expected_title: str) -> None:
    found = demo_store.search(query, k=3)
    assert found[0].title == expected_title
    assert found[0].score > 0


def test_search_with_only_stop_words_is_empty(demo_store: Store) -> None:
    assert demo_store.search("the of and", k=3) == []


def test_reimport_is_idempotent_and_changes_replace_pages(tmp_path: Path) -> None:
    with Store(tmp_path / "kb.sqlite3") as store:
        assert store.version == "0000000000000000-0"
        assert store.add_pages([("Ada Lovelace", "She wrote a program.", ["Augusta Ada King"])]) == 1
        v1 = store.version
        assert store.add_pages([("Ada Lovelace", "She wrote a program.", ["Augusta Ada King"])]) == 0
        assert store.version == v1
        time.sleep(1.05)  # the import time in the version has one-second resolution
        assert store.add_pages([("Ada Lovelace", ["She worked with Babbage.", "She died in 1852."], [])]) == 1
        v2 = store.version
        assert v2 != v1 and v2.split("-")[0] != v1.split("-")[0]
        assert [p.text for p in store.page("Ada Lovelace")] == ["She worked with Babbage.", "She died in 1852."]
        assert store.candidates("Augusta Ada King") == []  # the old alias is gone with the old page
        assert store.search("program", k=3) == []  # so is the old passage's index entry
        assert store.stats() == {"entities": 1, "passages": 2, "version": v2}


def test_same_title_twice_in_one_import_is_one_page() -> None:
    store = Store.in_memory(
        [
            ("Dick Hanley (swimmer)", ["He swam in 1956."], []),
            ("Other Person", ["Unrelated."], []),
            ("Dick Hanley (swimmer)", ["He was born in 1936."], ["Richard Hanley"]),
            ("Dick Hanley (swimmer)", ["He swam in 1956."], []),  # an exact repeat adds nothing
        ]
    )
    assert [p.text for p in store.page("Dick Hanley (swimmer)")] == ["He swam in 1956.", "He was born in 1936."]
    assert [c.title for c in store.candidates("Richard Hanley")] == ["Dick Hanley (swimmer)"]


def test_version_reflects_content_not_history(tmp_path: Path) -> None:
    pages = [("A Person", "Text one."), ("B Person", "Text two.")]
    with Store(tmp_path / "a.sqlite3") as a, Store(tmp_path / "b.sqlite3") as b:
        a.add_pages(pages)
        b.add_pages(reversed(pages))
        assert a.version.split("-")[0] == b.version.split("-")[0]


def test_a_tiny_in_memory_store_takes_milliseconds() -> None:
    rows = [
        (f"Person {i} (role {j})", [f"Passage {i} {j} {n}." for n in range(3)], []) for i in range(5) for j in range(2)
    ]
    started = time.perf_counter()
    for _ in range(20):
        store = Store.in_memory(rows)
        store.candidates("Person 3")
        store.close()
    assert (time.perf_counter() - started) / 20 < 0.02


def test_open_requires_an_existing_store(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no knowledge store"):
        Store.open(tmp_path / "missing.sqlite3")
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="not a usable knowledge store"):
        Store.open(bad)


def test_reads_from_many_threads(demo_store: Store) -> None:
    from concurrent.futures import ThreadPoolExecutor

    names = ["Dick Hanley", "John Hemming", "Gavin Hamilton", "John Stewart"] * 25
    with ThreadPoolExecutor(4) as pool:
        counts = list(pool.map(lambda n: len(demo_store.candidates(n)), names))
    assert counts == [2, 2, 5, 4] * 25


def test_optimize_keeps_search_results(demo_store: Store) -> None:
    before = demo_store.search("Kingston Trio Daydream Believer", k=3)
    demo_store.optimize()
    assert demo_store.search("Kingston Trio Daydream Believer", k=3) == before
    assert before[0].title == "John Stewart (musician)"


def test_search_with_only_common_words_finds_passages_holding_them_all() -> None:
    # 1,000 passages: "alpha" and "beta" each in about half of them, together in only three.
    rows = []
    for i in range(1000):
        words = {0: "alpha", 1: "beta"}.get(i % 2, "")
        if i in (100, 501, 777):
            words = "alpha beta"
        rows.append((f"Person {i}", [f"Entry {i} about {words} and filler words"]))
    store = Store.in_memory(rows)
    found = store.search("alpha beta", k=5)
    assert sorted(p.title for p in found) == ["Person 100", "Person 501", "Person 777"]


def _store_as_made_before_16k_pages(path: Path) -> None:
    # What Store() wrote before 16 KiB pages: the same schema in 4 KiB pages, FTS5 leaves of the default size.
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("PRAGMA page_size=4096")
        conn.execute("PRAGMA journal_mode=WAL")
        conn.executescript(store_module._SCHEMA)
        conn.execute("INSERT INTO passages(passages, rank) VALUES ('hashsize', ?)", (16 << 20,))
        conn.executemany(
            "INSERT INTO meta(key, value) VALUES (?, ?)",
            [("schema_version", store_module.SCHEMA_VERSION), ("fold", store_module.FOLD_VERSION)],
        )


def _layout(store: Store) -> tuple[int, dict[str, int]]:
    conn = store._conn
    config = {str(k): int(v) for k, v in conn.execute("SELECT k, v FROM passages_config") if k != "version"}
    return int(conn.execute("PRAGMA page_size").fetchone()[0]), config


def _many_pages(n_pages: int) -> list[tuple[str, list[str], list[str]]]:
    # Enough text that every index segment spans several leaves of either size.
    words = [f"w{i:04d}" for i in range(1500)]
    pages = []
    for i in range(n_pages):
        passages = [
            " ".join(words[(i * 7 + j * 13 + k * k) % len(words)] for k in range(60)) + f" born {1800 + i % 200}."
            for j in range(1 + i % 4)
        ]
        pages.append((f"Person {i % 150} (role {i // 150})", passages, [f"Alias {i}"] if i % 10 == 0 else []))
    return pages


def test_new_stores_use_16k_pages_and_stores_made_before_keep_working(tmp_path: Path) -> None:
    pages = _many_pages(1200)
    older_path = tmp_path / "older.sqlite3"
    _store_as_made_before_16k_pages(older_path)
    with Store(tmp_path / "new.sqlite3") as new, Store.open(older_path) as older:
        assert new.add_pages(pages) == older.add_pages(pages) == 1200
        assert _layout(new) == (16384, {"hashsize": 16 << 20, "pgsz": 16000})
        assert _layout(older) == (4096, {"hashsize": 16 << 20})
        # a later import replaces and extends pages in either layout
        changed = [("Person 3 (role 0)", ["w0001 w0002 replaced."], []), ("Person 999 (role 9)", ["New one."], [])]
        assert new.add_pages(changed) == older.add_pages(changed) == 2
        assert new.stats() == older.stats()
        assert new.stats()["passages"] == sum(len(p) for _, p, _ in pages) - 4 + 1 + 1
        for store in (new, older):
            store._conn.execute("INSERT INTO passages(passages) VALUES ('integrity-check')")
        queries = ["w0001 w0777 born 1850", "w0042", "w1499 w0003 w0500", "born 1999", "replaced", "new one"]
        for query in queries:
            assert new.search(query, k=10) == older.search(query, k=10)
            assert new.passages("Person 7 (role 1)", query) == older.passages("Person 7 (role 1)", query)
        assert new.search("w0042", k=10)[0].text.count("w0042") >= 1
        assert [p.text for p in new.page("Person 3 (role 0)")] == ["w0001 w0002 replaced."]
        assert new.candidates("Person 12") == older.candidates("Person 12")
        assert len(new.candidates("Person 12")) == 8
