"""Short runs of ``factsentry eval`` (the first few items of each dev set) through the real CLI."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from evaluation import factcheck_bench
from evaluation.engines import Engine
from factsentry.cli import main

# The exact shape the issue gives for each set's --json object (leaves are numbers or null).
SHAPES: dict[str, dict[str, Any]] = {
    "factcheck-bench": {
        # the packaged verifier was trained on this set: its cross-validated figures come first
        "cross_validated": {
            "stance": {"accuracy": 0, "macro_f1": 0},
            "verification": {"false": {"precision": 0, "recall": 0, "f1": 0}},
        },
        "stance": {"accuracy": 0, "macro_f1": 0},
        "verification": {
            "false": {"precision": 0, "recall": 0, "f1": 0},
            "true": {"precision": 0, "recall": 0, "f1": 0},
        },
        "revision": {"edit_distance": 0, "word_overlap": 0},
    },
    "wice": {"binary": {"accuracy": 0, "f1": 0}, "three_way": {"accuracy": 0, "macro_f1": 0}},
    "factscore": {"decomposition": {"count_diff_mean": 0, "word_overlap": 0}},
}


def _shape(obj: Any) -> Any:
    return {k: _shape(v) for k, v in obj.items()} if isinstance(obj, dict) else 0


def _leaves(obj: Any) -> list[Any]:
    return [x for v in obj.values() for x in _leaves(v)] if isinstance(obj, dict) else [obj]


def _eval_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["eval", *argv, "--json"]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


@pytest.mark.parametrize("name", ["factcheck-bench", "wice", "factscore"])
def test_short_run_json_has_the_issue_shape(name: str, shared_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = _eval_json(capsys, name, "--data", str(shared_data), "--limit", "3")
    assert _shape(result) == SHAPES[name]
    numbers = [x for x in _leaves(result) if x is not None]
    assert numbers, "every figure is null"
    for x in numbers:
        assert isinstance(x, float | int) and x >= 0.0


@pytest.mark.parametrize(
    ("name", "ranged"),
    [
        ("factcheck-bench", ["stance.accuracy", "stance.macro_f1", "verification.false.f1", "verification.true.f1"]),
        ("wice", ["binary.accuracy", "binary.f1", "three_way.accuracy", "three_way.macro_f1"]),
        ("factscore", ["decomposition.word_overlap"]),
    ],
)
def test_short_run_rates_lie_in_unit_interval(
    name: str, ranged: list[str], shared_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    result = _eval_json(capsys, name, "--data", str(shared_data), "--limit", "3")
    for dotted in ranged:
        value: Any = result
        for part in dotted.split("."):
            value = value[part]
        assert 0.0 <= value <= 1.0, dotted


def test_stance_figures_on_a_few_claims_are_the_verifier_s(
    shared_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three claims carry 15 labelled pairs; accuracy is a multiple of 1/15."""
    result = _eval_json(capsys, "factcheck-bench", "--data", str(shared_data), "--limit", "3")
    assert (result["stance"]["accuracy"] * 15) == pytest.approx(round(result["stance"]["accuracy"] * 15))


def test_a_verifier_trained_on_the_set_reports_its_cross_validated_figures_first(
    shared_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["eval", "factcheck-bench", "--data", str(shared_data), "--limit", "3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert next(iter(result)) == "cross_validated"
    cv = Engine().verifier.model.meta["cv"]
    assert result["cross_validated"]["stance"]["macro_f1"] == cv["stance3_macro_f1"]["mean"]
    assert result["cross_validated"]["verification"]["false"]["f1"] == cv["false_f1"]["mean"]
    # the in-sample figures of these three claims are not the cross-validated ones
    assert result["stance"]["macro_f1"] != result["cross_validated"]["stance"]["macro_f1"]
    assert main(["eval", "factcheck-bench", "--data", str(shared_data), "--limit", "3"]) == 0
    table = capsys.readouterr().out
    rows = [line.split("│")[1].strip() for line in table.splitlines() if line.count("│") >= 3]
    assert rows[0] == "cross_validated.stance.accuracy" and "in-sample" in table


def test_a_verifier_not_trained_on_the_set_has_no_cross_validated_figures(
    shared_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = Engine()
    meta = {"trained_on": "WiCE dev", "cv": {"false_f1": {"mean": 0.9}}}
    monkeypatch.setattr(engine.verifier, "model", dataclasses.replace(engine.verifier.model, meta=meta))
    outcome = factcheck_bench.run(shared_data, engine, limit=3)
    assert "cross_validated" not in outcome.result and outcome.notes == ()
    assert list(outcome.result) == ["stance", "verification", "revision"]


def test_table_shows_published_numbers_beside_ours(shared_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "factcheck-bench", "--data", str(shared_data), "--limit", "3"]) == 0
    out = capsys.readouterr().out
    assert "stance.macro_f1" in out
    assert "RoBERTa-large-MNLI 0.512" in out
    assert "measured on 15 pairs" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["eval", "wice", "--data", "/nonexistent/data"], "no data folder at /nonexistent/data"),
        (["eval", "wice", "--limit", "0"], "--limit must be at least 1"),
    ],
)
def test_user_mistakes_fail_in_one_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1


def test_missing_set_file_names_the_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "wice", "--data", str(tmp_path)]) == 1
    assert f"{tmp_path}/wice/claims.dev.jsonl not found" in capsys.readouterr().err


RUN_KEYS = {"factscore", "dfactscore", "num_bios", "num_entities", "reference_factscore", "reference_dfactscore"}


def test_ambigbio_short_run_checks_one_answer_of_every_run(
    shared_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    result = _eval_json(capsys, "ambigbio", "--data", str(shared_data), "--limit", "1")
    assert set(result) == {"runs", "pearson_dfs", "kendall_tau"}
    runs = result["runs"]
    assert len(runs) >= 2
    for name, row in runs.items():
        assert set(row) == RUN_KEYS, name
        assert 0.0 <= row["reference_dfactscore"] <= 1.0
        if row["factscore"] is not None:
            # D-FActScore verifies each fact against one entity only: it never exceeds FActScore
            assert 0.0 <= row["dfactscore"] <= row["factscore"] <= 1.0
            assert row["num_bios"] >= 1
    for key in ("pearson_dfs", "kendall_tau"):
        assert result[key] is None or -1.0 <= result[key] <= 1.0


def test_factcheck_bench_revision_is_measured_with_the_pipeline(
    shared_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    result = _eval_json(capsys, "factcheck-bench", "--data", str(shared_data), "--limit", "3")
    revision = result["revision"]
    assert 0.0 <= revision["edit_distance"] <= 1.0
    assert 0.0 < revision["word_overlap"] <= 1.0
