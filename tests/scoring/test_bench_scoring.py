"""``factsentry bench scoring`` on a few AmbigBio answers: the figures exist and the llm engine stays within 3 calls."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from factsentry.bench import scoring as bench


def test_bench_scoring_small(shared_data: Path) -> None:
    args = argparse.Namespace(
        data=shared_data / "ambigbio" / "generations.dev.jsonl", limit=4, engine="both", cpu=-1, json=True, batch=1
    )
    figures = bench.run(args)
    assert figures["answers"] == 4
    assert figures["offline_warm_answers_per_s"] > figures["offline_cold_answers_per_s"] > 0
    assert figures["offline_warm_answers_per_cpu_s"] > figures["offline_cold_answers_per_cpu_s"] > 0
    assert figures["offline_facts_per_answer"] > 3
    # Cold, every answer's sentences are parsed (one spaCy batch at least); warm, none is.
    assert figures["offline_cold_spacy_batches_per_answer"] >= 1
    assert figures["offline_cold_spacy_texts_per_answer"] >= figures["offline_cold_spacy_batches_per_answer"]
    assert 0 < figures["offline_cold_spacy_cpu_share"] < 1
    assert figures["offline_warm_spacy_batches_per_answer"] == figures["offline_warm_spacy_texts_per_answer"] == 0
    assert figures["offline_warm_spacy_cpu_share"] == 0
    assert 2 <= figures["llm_calls_per_answer"] <= 3 and figures["llm_max_calls_per_answer"] <= 3
    assert figures["factscore_pipeline_calls_per_answer"] > 3 * figures["llm_calls_per_answer"]
    assert figures["factscore_pipeline_tokens_per_answer_est"] > figures["llm_tokens_per_answer"] > 0


def test_bench_scoring_batched_checks_the_same_facts(shared_data: Path) -> None:
    data = shared_data / "ambigbio" / "generations.dev.jsonl"
    one = bench.run(argparse.Namespace(data=data, limit=5, engine="offline", cpu=-1, json=True, batch=1))
    batched = bench.run(argparse.Namespace(data=data, limit=5, engine="offline", cpu=-1, json=True, batch=3))
    assert batched["offline_batch"] == 3
    assert batched["offline_facts_per_answer"] == one["offline_facts_per_answer"] > 3


def test_bench_scoring_length_sweep_prints_time_per_character(shared_data: Path) -> None:
    data = shared_data / "ambigbio" / "generations.dev.jsonl"
    args = argparse.Namespace(
        data=data, lengths=[300, 900], shapes=list(bench.SHAPES), max_sentences=0, cpu=-1, json=True
    )
    figures = bench.run(args)
    assert figures["max_sentences"] is None
    for shape in bench.SHAPES:
        for length in (300, 900):
            key = f"{shape}_{length}"
            assert figures[f"{key}_answers"] == 20  # short lengths: the mean of 20 answers
            assert length // 2 < figures[f"{key}_chars"] <= length
            assert figures[f"{key}_facts"] > 0 and figures[f"{key}_groups"] >= 1
            assert figures[f"{key}_seconds"] > 0 and figures[f"{key}_wall_seconds"] > 0  # CPU and wall clock
            chars, seconds = figures[f"{key}_chars"], figures[f"{key}_seconds"]
            per_1k = seconds * 1e6 / chars
            # The mean seconds are printed to 0.1 ms and the mean characters to 0.1: both roundings, at most.
            rounding = per_1k * (0.05e-3 / seconds + 0.05 / chars) + 0.01
            assert figures[f"{key}_ms_per_1k_chars"] == pytest.approx(per_1k, abs=rounding)
        small, large = (figures[f"{shape}_{n}_ms_per_1k_chars"] for n in (300, 900))
        assert abs(figures[f"{shape}_per_char_ratio"] - large / small) <= 0.05 * large / small + 0.01
        assert isinstance(figures[f"{shape}_fitted_exponent"], float)
        assert isinstance(figures[f"{shape}_exponent_largest_two"], float)


@pytest.mark.parametrize(
    ("shape", "blank_lines", "renamed", "third"),
    [
        ("bios", True, False, "Emmy Noether"),
        ("one-paragraph", False, False, "Emmy Noether"),
        ("one-name", True, True, "Ada Byron"),
        ("one-person", True, False, "He"),
    ],
)
def test_long_answer_is_made_of_answers_in_its_shape(shape: str, blank_lines: bool, renamed: bool, third: str) -> None:
    rows = [
        {"name": "Ada Byron", "output": "Ada Byron was a mathematician. Byron's notes were published in 1843."},
        {"name": "Carl Gauss", "output": "Carl Gauss was born in 1777. Gauss died in Göttingen."},
        {"name": "Emmy Noether", "output": "Emmy Noether was an algebraist. She died in 1935."},
    ]
    text, used = bench.long_answer(rows, 110, shape)  # two answers, cut at the last sentence end before 110
    assert [r["name"] for r in used] == ["Ada Byron", "Carl Gauss"]
    assert len(text) <= 110 and text.startswith("Ada Byron was") and text.endswith("was born in 1777.")
    assert ("\n\n" in text) is blank_lines
    assert ("Gauss" not in text and "Ada Byron was born in 1777." in text) is renamed
    whole, _ = bench.long_answer(rows, 10_000, shape)
    assert whole.endswith(f"{third} was an algebraist. She died in 1935.")


def test_one_person_writes_later_answers_names_as_he() -> None:
    rows = [
        {"name": "Ada Byron", "output": "Ada Byron was a mathematician."},
        {"name": "Carl F. Gauss", "output": "Carl Gauss was born in 1777. In 1807 Gauss's book appeared."},
    ]
    text, _ = bench.long_answer(rows, 1000, "one-person")
    assert text == "Ada Byron was a mathematician.\n\nHe was born in 1777. In 1807 his book appeared."
    assert bench._as_pronoun("Of Gauss's law. Carl F. Gauss taught", "Carl Gauss") == "Of his law. He taught"


def test_renamed_gives_the_name_and_its_words_to_another() -> None:
    text = "Carl F. Gauss was born in 1777. Gauss's law; Gaussian curves. Carl taught. Carlo"
    assert bench._renamed(text, "Carl F. Gauss", "Ada Byron") == (
        "Ada Byron was born in 1777. Byron's law; Byron curves. Ada taught. Ada"
    )


@pytest.mark.parametrize(
    ("points", "exponent"),
    [([(1000, 0.1), (10000, 1.0), (100000, 10.0)], 1.0), ([(1000, 0.01), (2000, 0.04), (4000, 0.16)], 2.0)],
)
def test_fitted_exponent_of_seconds_by_size(points: list[tuple[int, float]], exponent: float) -> None:
    assert bench.fitted_exponent(points) == pytest.approx(exponent)


@pytest.mark.parametrize(
    ("text", "lengths"), [("1000,200", [200, 1000]), ("500, 500,100000", [500, 100000]), ("100", [100])]
)
def test_lengths_option(text: str, lengths: list[int]) -> None:
    assert bench._lengths(text) == lengths


@pytest.mark.parametrize("text", ["", "99,1000", "1k", "one-name"])
def test_lengths_option_rejects(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        bench._lengths(text)


def test_shapes_option() -> None:
    assert bench._shapes("one-name, bios,one-name") == ["one-name", "bios"]
    with pytest.raises(argparse.ArgumentTypeError, match="shapes are bios, one-paragraph, one-name"):
        bench._shapes("bio")
