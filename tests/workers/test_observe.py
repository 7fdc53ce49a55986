"""What a worker's /metrics counts per model: dashboards and drift alerts read FActScore and D-FActScore of
verifiable answers only, with coverage beside them, so out-of-store traffic does not look like model drift."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from prometheus_client import CollectorRegistry

from knowledge.store import Store
from schemas.messages import ResultMessage
from scoring.pipeline import check
from workers.metrics import make_metrics
from workers.scoring_stage import observe

CHECKED = (
    "Dick Hanley was an American football coach. He coached Northwestern University from 1927 to 1934 and died in 1970."
)
# Nobody of this name is in the demo store, and a help-desk answer is about no page of it.
OUT_OF_STORE = "Marie Curie was a Polish-French physicist who won the Nobel Prize in Physics in 1903."
NOT_ABOUT_A_PAGE = (
    "The Nimbus AX3200 is a dual-band home router released in 2021. Its web interface is reached at "
    "192.168.8.1, and its reset button is on the back."
)


def _sample(registry: CollectorRegistry, name: str, **labels: str) -> float:
    value = registry.get_sample_value(name, labels)
    return 0.0 if value is None else value


def test_unverifiable_answers_count_towards_coverage_not_scores(demo_kb: Path) -> None:
    registry = CollectorRegistry()
    metrics = make_metrics(registry)
    with Store.open(demo_kb) as store:
        results = {
            text: check(text, kb=store, name=name)
            for text, name in ((CHECKED, "Dick Hanley"), (OUT_OF_STORE, "Marie Curie"), (NOT_ABOUT_A_PAGE, None))
        }
    assert results[CHECKED].status == "checked" and results[CHECKED].factscore is not None
    for text in (OUT_OF_STORE, NOT_ABOUT_A_PAGE):
        assert results[text].status == "unverifiable"
        assert results[text].factscore is None and results[text].dfactscore is None
    for i, result in enumerate(results.values()):
        message = ResultMessage(request_id=f"r{i}", model="model-a", check=result, scored_at=datetime.now(UTC))
        observe(message, metrics)
    labels = {"source": "proxy", "model": "model-a"}
    assert _sample(registry, "factsentry_worker_answers_total", status="checked", **labels) == 1
    assert _sample(registry, "factsentry_worker_answers_total", status="unverifiable", **labels) == 2
    # scores: the verifiable answer only; coverage: every answer checked, the unverifiable ones at their share
    assert _sample(registry, "factsentry_worker_factscore_count", **labels) == 1
    assert _sample(registry, "factsentry_worker_dfactscore_count", **labels) == 1
    assert _sample(registry, "factsentry_worker_coverage_count", **labels) == 3
    covered = sum(r.coverage or 0.0 for r in results.values())
    assert _sample(registry, "factsentry_worker_coverage_sum", **labels) == covered
    assert (results[CHECKED].coverage or 0.0) > (results[OUT_OF_STORE].coverage or 0.0)
