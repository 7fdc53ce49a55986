"""``factsentry bench scoring`` on a few AmbigBio answers: the figures exist and the llm engine stays within 3 calls."""

from __future__ import annotations

import argparse
from pathlib import Path

from factsentry.bench import scoring as bench


def test_bench_scoring_small(shared_data: Path) -> None:
    args = argparse.Namespace(
        data=shared_data / "ambigbio" / "generations.dev.jsonl", limit=4, engine="both", cpu=-1, json=True, batch=1
    )
    figures = bench.run(args)
    assert figures["answers"] == 4
    assert figures["offline_warm_answers_per_s"] > figures["offline_cold_answers_per_s"] > 0
    assert figures["offline_facts_per_answer"] > 3
    assert 2 <= figures["llm_calls_per_answer"] <= 3 and figures["llm_max_calls_per_answer"] <= 3
    assert figures["factscore_pipeline_calls_per_answer"] > 3 * figures["llm_calls_per_answer"]
    assert figures["factscore_pipeline_tokens_per_answer_est"] > figures["llm_tokens_per_answer"] > 0


def test_bench_scoring_batched_checks_the_same_facts(shared_data: Path) -> None:
    data = shared_data / "ambigbio" / "generations.dev.jsonl"
    one = bench.run(argparse.Namespace(data=data, limit=5, engine="offline", cpu=-1, json=True, batch=1))
    batched = bench.run(argparse.Namespace(data=data, limit=5, engine="offline", cpu=-1, json=True, batch=3))
    assert batched["offline_batch"] == 3
    assert batched["offline_facts_per_answer"] == one["offline_facts_per_answer"] > 3
