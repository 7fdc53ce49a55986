"""A worker counts answers by their detected language, in a bounded label, whatever their status."""

from __future__ import annotations

from datetime import UTC, datetime

from prometheus_client import CollectorRegistry

from knowledge.store import Store
from schemas.check import CheckResult
from schemas.messages import ResultMessage
from scoring.pipeline import check
from workers.metrics import make_metrics
from workers.scoring_stage import observe

ANSWERS = {
    "english": "Władysław Kowalczyk is a Polish cellist born in Wrocław in 1961. He studied at the Karol Lipiński "
    "Academy of Music and won the Grand Prix of the Budapest Cello Competition in 1986.",
    "french": "Jean-Baptiste Lemoine est un peintre français né à Aix-en-Provence en 1881. Il a étudié à l'École "
    "des Beaux-Arts de Paris et a exposé au Salon des Indépendants. Il est mort en 1958.",
    "german": "Clara Schumann war eine deutsche Pianistin und Komponistin. Sie wurde 1819 in Leipzig geboren und "
    "heiratete 1840 den Komponisten Robert Schumann.",
    "short": "Born in Wrocław.",
}


def test_answers_are_counted_per_language() -> None:
    registry = CollectorRegistry()
    metrics = make_metrics(registry)
    store = Store.in_memory([("Władysław Kowalczyk", "Władysław Kowalczyk is a Polish cellist.", [])])
    results = {key: check(text, kb=store) for key, text in ANSWERS.items()}
    results["made-up"] = CheckResult(language="xx-not-a-code")  # a code outside the detector's set
    for i, result in enumerate(results.values()):
        message = ResultMessage(request_id=f"r{i}", model="m", check=result, scored_at=datetime.now(UTC))
        observe(message, metrics)
    # a hold-back check of part of an answer is not an answer
    partial = ResultMessage(request_id="p", model="m", check=results["french"], scored_at=datetime.now(UTC))
    observe(partial.model_copy(update={"partial_of": "r1"}), metrics)

    def count(language: str) -> float:
        labels = {"source": "proxy", "model": "m", "language": language}
        return registry.get_sample_value("factsentry_worker_answer_languages_total", labels) or 0.0

    assert [count(code) for code in ("en", "fr", "de", "und", "other")] == [1, 1, 1, 1, 1]
    assert results["french"].status == results["german"].status == "unverifiable"
    assert registry.get_sample_value(
        "factsentry_worker_answers_total", {"source": "proxy", "model": "m", "status": "unverifiable"}
    ) == sum(r.status == "unverifiable" for r in results.values())
