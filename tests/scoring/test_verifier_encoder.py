"""The cross-encoder's numpy run time (scoring/verifier/encoder.py) on weights and a tokenizer made here: the
pair layout, the cut of a long passage, the lazy load and the shape of what it returns."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from tokenizers import Tokenizer
from tokenizers.models import WordLevel
from tokenizers.pre_tokenizers import Whitespace

from scoring.verifier.encoder import HIDDEN, LAYERS, PairEncoder, StanceEncoder

WORDS = "[PAD] [UNK] [CLS] [SEP] ada was born in 1815 she wrote notes the weather is mild paris . gold won".split()


def tokenizer() -> Tokenizer:
    tok = Tokenizer(WordLevel({w: i for i, w in enumerate(WORDS)}, unk_token="[UNK]"))
    tok.pre_tokenizer = Whitespace()
    return tok


def weights(path: Path, max_len: int = 16) -> Path:
    rng = np.random.default_rng(0)
    arrays: dict[str, np.ndarray] = {}

    def matrix(name: str, rows: int, cols: int) -> None:
        a = rng.normal(0, 0.05, (rows, cols)).astype(np.float32)
        scale = np.abs(a).max(axis=1, keepdims=True) / 127.0
        arrays[f"{name}.q"] = np.round(a / scale).astype(np.int8)
        arrays[f"{name}.s"] = scale.ravel().astype(np.float32)

    matrix("word.weight", len(WORDS), HIDDEN)
    matrix("position.weight", 512, HIDDEN)
    arrays["segment.weight"] = rng.normal(0, 0.05, (2, HIDDEN)).astype(np.float32)
    arrays["ln.weight"], arrays["ln.bias"] = np.ones(HIDDEN, np.float32), np.zeros(HIDDEN, np.float32)
    for i in range(LAYERS):
        for part, (rows, cols) in {
            "q": (HIDDEN, HIDDEN), "k": (HIDDEN, HIDDEN), "v": (HIDDEN, HIDDEN), "o": (HIDDEN, HIDDEN),
            "up": (1536, HIDDEN), "down": (HIDDEN, 1536),
        }.items():  # fmt: skip
            matrix(f"layers.{i}.{part}.weight", rows, cols)
            arrays[f"layers.{i}.{part}.bias"] = np.zeros(rows, np.float16)
        for ln in ("ln1", "ln2"):
            arrays[f"layers.{i}.{ln}.weight"] = np.ones(HIDDEN, np.float32)
            arrays[f"layers.{i}.{ln}.bias"] = np.zeros(HIDDEN, np.float32)
    arrays["head.weight"] = rng.normal(0, 0.5, (3, HIDDEN)).astype(np.float32)
    arrays["head.bias"] = np.array([0.0, -1.0, 1.0], np.float32)
    arrays["meta"] = np.frombuffer(json.dumps({"max_len": max_len}).encode(), dtype=np.uint8)
    arrays["tokenizer"] = np.frombuffer(tokenizer().to_str().encode(), dtype=np.uint8)
    files: dict[str, Any] = arrays
    np.savez_compressed(path, **files)
    return path


def test_pair_layout_is_cls_claim_sep_passage_sep() -> None:
    enc = PairEncoder(tokenizer(), 32)
    ids, segments = enc.pair("ada was born", "she wrote notes")
    assert [WORDS[i] for i in ids] == ["[CLS]", "ada", "was", "born", "[SEP]", "she", "wrote", "notes", "[SEP]"]
    assert segments == [0, 0, 0, 0, 0, 1, 1, 1, 1]


def test_a_long_passage_is_cut_to_the_sentences_sharing_the_claims_words() -> None:
    enc = PairEncoder(tokenizer(), 12)
    passage = "the weather is mild . the weather is mild . ada was born in 1815 . she wrote notes ."
    ids, _ = enc.pair("ada born 1815", passage)
    words = [WORDS[i] for i in ids]
    assert len(ids) <= 12
    assert words[5:10] == ["ada", "was", "born", "in", "1815"]
    assert "weather" not in words


def test_probabilities_per_passage_sum_to_one_and_the_file_is_read_at_first_use(tmp_path: Path) -> None:
    path = weights(tmp_path / "encoder.npz")
    model = StanceEncoder(path)
    assert model._w is None  # nothing read yet
    probs = model.probabilities("ada was born in 1815", ["ada was born in 1815 .", "the weather is mild", "gold"])
    assert probs.shape == (3, 3)
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-5)
    assert model._w is not None and model.meta["max_len"] == 16
    # batching does not change a row: one passage alone scores as it did among three
    alone = StanceEncoder(path, batch_size=1).probabilities("ada was born in 1815", ["the weather is mild"])
    assert alone[0] == pytest.approx(probs[1], abs=1e-5)
    assert model.probabilities("ada", []).shape == (0, 3)
