"""The warm-up a worker runs before it reports ready: one whole check, and a lookup per thread in its store."""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from knowledge.store import Store
from scoring.engines import build_checker
from scoring.pipeline import default_verifier
from workers.scoring_stage import _WARM_ANSWER, _WARM_PAGES, _warm_up, warm_up


def _connected(store: Store) -> bool:
    return getattr(store._local, "conn", None) is not None


def test_the_made_up_answer_takes_the_correcting_and_separating_paths() -> None:
    with Store.in_memory(_WARM_PAGES) as store:
        result = build_checker("offline", stance_model=default_verifier()).check(
            _WARM_ANSWER, kb=store, question="Tell me a bio of Orla Fenwick."
        )
    assert result.revision is not None
    kinds = {e.kind for e in result.revision.edits}
    assert {"replace", "separate"} <= kinds  # a wrong year corrected, the rower's medal moved out
    assert any("1979" in e.replacement for e in result.revision.edits if e.kind == "replace")
    assert 0 < result.factscore < 1


def test_warm_up_opens_this_threads_connection_to_the_store(tmp_path: Path) -> None:
    path = tmp_path / "kb.sqlite3"
    with Store(path) as store:
        store.add_pages([("Ada Lovelace", "Ada Lovelace was an English mathematician.", [])])
    store = Store(path)
    try:
        seen: list[bool] = []
        worker = threading.Thread(
            target=lambda: (seen.append(_connected(store)), warm_up(store), seen.append(_connected(store)))
        )
        worker.start()
        worker.join()
        assert seen == [False, True]
        assert not _connected(store)  # only the thread that warmed up has one
    finally:
        store.close()


def test_a_pools_warm_ups_run_one_on_each_thread(tmp_path: Path) -> None:
    path = tmp_path / "kb.sqlite3"
    with Store(path) as store:
        store.add_pages([("Ada Lovelace", "Ada Lovelace was an English mathematician.", [])])
    store = Store(path)
    names: set[str] = set()

    def warm(together: threading.Barrier) -> bool:
        _warm_up(store, together)
        names.add(threading.current_thread().name)
        return _connected(store)

    try:
        with ThreadPoolExecutor(3) as pool:
            together = threading.Barrier(3)
            connected = list(pool.map(warm, [together] * 3))
        assert connected == [True, True, True]
        assert len(names) == 3
    finally:
        store.close()


def test_a_scoring_process_collects_its_youngest_garbage_less_often() -> None:
    import gc

    from workers.scoring_stage import GC_YOUNG_THRESHOLD, collect_less_often

    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        collect_less_often()
        assert gc.get_threshold() == (GC_YOUNG_THRESHOLD, 10, 10)  # the older generations as they were
    finally:
        gc.set_threshold(*before)


def test_a_warm_up_check_that_fails_costs_the_speed_up_not_the_worker(caplog: pytest.LogCaptureFixture) -> None:
    class Unreadable:
        def candidates(self, mention: str, limit: int = 20) -> list[object]:
            raise OSError("disk I/O error")

    with caplog.at_level(logging.WARNING, logger="workers.scoring_stage"):
        warm_up(Unreadable())  # type: ignore[arg-type]
    assert [r.getMessage() for r in caplog.records] == ["the warm-up check failed; the first real check will be slower"]


def test_a_thread_pool_replaced_after_a_late_check_warms_up_each_thread(tmp_path: Path) -> None:
    from types import SimpleNamespace

    from workers.kb import Knowledge
    from workers.scoring_stage import _replace_executor

    path = tmp_path / "kb.sqlite3"
    with Store(path) as store:
        store.add_pages([("Ada Lovelace", "Ada Lovelace was an English mathematician.", [])])
    store = Store(path)
    old = ThreadPoolExecutor(2)
    ctx = SimpleNamespace(
        settings=SimpleNamespace(concurrency=2, executor="thread"),
        state={"executor": old, "knowledge": Knowledge(store=store, source=store, verdicts=None)},
    )
    try:
        _replace_executor(ctx, "a check over the time budget")  # type: ignore[arg-type]
        new = ctx.state["executor"]
        assert new is not old
        together = threading.Barrier(2)

        def first_check() -> tuple[str, bool]:
            together.wait(timeout=30)  # one on each thread of the pool
            return threading.current_thread().name, _connected(store)

        seen = [f.result(timeout=60) for f in [new.submit(first_check) for _ in range(2)]]
        assert len({name for name, _ in seen}) == 2
        assert all(connected for _, connected in seen)  # each thread ran its warm-up before the checks
        new.shutdown()
    finally:
        store.close()
