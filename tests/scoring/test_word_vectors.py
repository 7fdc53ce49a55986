"""Static word vectors (scoring.verifier.words) and the soft-coverage feature they give the stance model."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from scoring.verifier.errors import WeightsError
from scoring.verifier.features import FEATURE_NAMES, pair_features, soft_coverage
from scoring.verifier.text import analyse
from scoring.verifier.words import WordVectors, quantise

SOFT = FEATURE_NAMES.index("soft_coverage_best")


@pytest.mark.parametrize(
    ("word", "near", "far"),
    [
        ("doctorate", "phd", "goalkeeper"),
        ("novelist", "writer", "harbour"),
        ("roughly", "around", "married"),
    ],
)
def test_a_word_is_closer_to_its_synonym_than_to_an_unrelated_word(word: str, near: str, far: str) -> None:
    vectors = WordVectors.load()
    assert vectors.similarity(word, near) > 0.5 > vectors.similarity(word, far)


def test_a_word_has_cosine_one_with_itself_and_zero_without_a_vector() -> None:
    vectors = WordVectors.load()
    assert vectors.similarity("Doctorate", "doctorate") == 1.0
    assert vectors.similarity("doctorate", "zzqxv") == 0.0
    assert vectors.closest(["doctorate", "zzqxv", "born"], ["phd", "born"])[1:] == [0.0, 1.0]


def test_quantised_rows_keep_their_direction() -> None:
    matrix = np.random.default_rng(0).normal(size=(20, 16))
    rows, scale = quantise(matrix)
    back = rows * scale[:, None]
    cos = (back * matrix).sum(axis=1) / np.linalg.norm(back, axis=1) / np.linalg.norm(matrix, axis=1)
    assert rows.dtype == np.int8 and cos.min() > 0.999


@pytest.mark.parametrize("content", [None, b"not a zip file"])
def test_a_missing_or_broken_table_raises(tmp_path: Path, content: bytes | None) -> None:
    path = tmp_path / "words.npz"
    if content is None:
        with pytest.raises(WeightsError, match="no word vectors"):
            WordVectors.load(path)
        return
    path.write_bytes(content)
    with pytest.raises(WeightsError, match="cannot read word vectors"):
        WordVectors.load(path).vector("phd")


@pytest.mark.parametrize(
    ("claim", "paraphrase", "unrelated"),
    [
        ("He earned a doctorate in 1988.", "He received his PhD in 1988.", "He played in goal in 1988."),
        ("She is a novelist.", "She is a writer.", "She is a harbour pilot."),
        ("He painted roughly 600 works.", "He painted around 600 works.", "He sold 600 boats."),
    ],
)
def test_a_paraphrase_is_covered_more_than_an_unrelated_sentence(claim: str, paraphrase: str, unrelated: str) -> None:
    assert soft_coverage(claim, analyse(paraphrase)) > soft_coverage(claim, analyse(unrelated))
    assert pair_features(claim, [paraphrase])[0, SOFT] > pair_features(claim, [unrelated])[0, SOFT]


def test_names_and_numbers_are_never_matched_by_meaning() -> None:
    # "Paris" and "London" are close in meaning; a name must be met as written, so neither counts
    assert soft_coverage("She lived in Paris.", analyse("She lived in London.")) == 1.0  # only "lived" is plain
    assert soft_coverage("She was born in 1961.", analyse("She was born in 1962.")) == 1.0
    assert soft_coverage("She farmed barley.", analyse("She is a famous barrister.")) < 0.5
