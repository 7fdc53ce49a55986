"""A cross-encoder stance model in numpy: all-MiniLM-L6-v2 fine-tuned by ``scripts/train_stance_encoder.py``.

The weights file (``np.savez_compressed``: int8 matrices with one float32 scale per row, float32 / float16
vectors, the tokenizer's JSON and the training's ``meta``) is read once, when the first pair is scored; nothing
is fetched and torch is not used. The pair is read as ``[CLS] claim [SEP] passage [SEP]``; a passage longer than
the model's ``max_len`` tokens is cut to the run of its sentences that shares most words with the claim
(:class:`PairEncoder`, the same code the training read its pairs with).

>>> model = StanceEncoder(Path("encoder.npz"))  # doctest: +SKIP
>>> model.probabilities("He won gold in 1996.", ["He won the silver medal in 1996."])  # doctest: +SKIP
array([[0.04, 0.91, 0.05]])     # support, refute, irrelevant
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy.special import erf
from tokenizers import Tokenizer

Array = NDArray[np.float32]
LABELS = ("support", "refute", "irrelevant")
HIDDEN, HEADS, LAYERS = 384, 12, 6

_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_WORD = re.compile(r"\w+")


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if len(w) > 2}


class PairEncoder:
    """``[CLS] claim [SEP] passage [SEP]`` token ids and segment ids, at most ``max_len`` tokens."""

    def __init__(self, tokenizer: Tokenizer, max_len: int) -> None:
        self.tok = tokenizer
        self.tok.no_truncation()
        self.tok.no_padding()
        self.max_len = max_len
        cls, sep = self.tok.token_to_id("[CLS]"), self.tok.token_to_id("[SEP]")
        if cls is None or sep is None:
            raise ValueError("the tokenizer has no [CLS] / [SEP] token")
        self.cls, self.sep = cls, sep

    def ids(self, text: str) -> list[int]:
        return list(self.tok.encode(text, add_special_tokens=False).ids)

    def pair(self, claim: str, passage: str) -> tuple[list[int], list[int]]:
        c = self.ids(claim)[: self.max_len // 2]
        budget = self.max_len - len(c) - 3
        p = self.ids(passage)
        if len(p) > budget:
            p = self._focus(claim, passage, budget)
        return [self.cls, *c, self.sep, *p, self.sep], [0] * (len(c) + 2) + [1] * (len(p) + 1)

    def _focus(self, claim: str, passage: str, budget: int) -> list[int]:
        """The run of the passage's sentences that shares most words with the claim within ``budget`` tokens."""
        sentences = [s for s in _SENTENCE.split(passage) if s.strip()]
        ids = [self.ids(s) for s in sentences]
        want = _words(claim)
        shared = [len(want & _words(s)) for s in sentences]
        best, best_score = (0, 1), -1
        for i in range(len(sentences)):
            j, used, score = i, 0, 0
            while j < len(sentences) and used + len(ids[j]) <= budget:
                used += len(ids[j])
                score += shared[j]
                j += 1
            if j == i:  # one sentence longer than the budget: its start
                j, score = i + 1, shared[i]
            if score > best_score:
                best, best_score = (i, j), score
        out = [t for k in range(*best) for t in ids[k]]
        return out[:budget]


def _layer_norm(x: Array, weight: Array, bias: Array) -> Array:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    out: Array = (x - mean) / np.sqrt(var + 1e-12) * weight + bias
    return out


def _gelu(x: Array) -> Array:
    out: Array = 0.5 * x * (1.0 + erf(x / np.float32(np.sqrt(2.0))))
    return out.astype(np.float32)


class StanceEncoder:
    """P(support), P(refute), P(irrelevant) of passages towards a claim; the weights are read at first use."""

    def __init__(self, path: Path, batch_size: int = 16) -> None:
        self.path = path
        self.batch_size = batch_size
        self._w: dict[str, Array] | None = None
        self._enc: PairEncoder | None = None
        self.meta: dict[str, Any] = {}
        self._lock = threading.Lock()

    def _load(self) -> tuple[dict[str, Array], PairEncoder]:
        with self._lock:
            if self._w is None or self._enc is None:
                raw = np.load(self.path)
                w: dict[str, Array] = {}
                for name in raw.files:
                    if name.endswith(".q"):
                        base = name[:-2]
                        w[base] = (raw[name].astype(np.float32) * raw[f"{base}.s"][:, None]).astype(np.float32)
                    elif not name.endswith(".s") and name not in ("meta", "tokenizer"):
                        w[name] = raw[name].astype(np.float32)
                # torch's Linear keeps (out, in): transposed once for x @ W
                for name in list(w):
                    if name.startswith("layers.") and name.endswith(".weight") and w[name].ndim == 2:
                        w[name] = np.ascontiguousarray(w[name].T)
                w["head.weight"] = np.ascontiguousarray(w["head.weight"].T)
                self.meta = json.loads(raw["meta"].tobytes().decode())
                tokenizer = Tokenizer.from_str(raw["tokenizer"].tobytes().decode())
                self._enc = PairEncoder(tokenizer, int(self.meta["max_len"]))
                self._w = w
            return self._w, self._enc

    def probabilities(self, claim: str, passages: Sequence[str]) -> Array:
        """Rows of (support, refute, irrelevant) probabilities, one per passage, in order."""
        if not passages:
            return np.zeros((0, 3), dtype=np.float32)
        w, enc = self._load()
        encoded = [enc.pair(claim, p) for p in passages]
        out = np.zeros((len(encoded), 3), dtype=np.float32)
        for start in range(0, len(encoded), self.batch_size):
            out[start : start + self.batch_size] = self._forward(w, encoded[start : start + self.batch_size])
        return out

    @staticmethod
    def _forward(w: dict[str, Array], encoded: Sequence[tuple[list[int], list[int]]]) -> Array:
        b, t = len(encoded), max(len(ids) for ids, _ in encoded)
        ids = np.zeros((b, t), dtype=np.int64)
        seg = np.zeros((b, t), dtype=np.int64)
        mask = np.zeros((b, t), dtype=np.float32)
        for i, (a, s) in enumerate(encoded):
            ids[i, : len(a)] = a
            seg[i, : len(s)] = s
            mask[i, : len(a)] = 1.0
        x = w["word.weight"][ids] + w["position.weight"][:t][None] + w["segment.weight"][seg]
        x = _layer_norm(x, w["ln.weight"], w["ln.bias"])
        bias = ((1.0 - mask) * -1e4)[:, None, None, :]
        hd = HIDDEN // HEADS
        for i in range(LAYERS):
            p = f"layers.{i}."

            def heads(z: Array) -> Array:
                out: Array = z.reshape(b, t, HEADS, hd).transpose(0, 2, 1, 3)
                return out

            q = heads(x @ w[p + "q.weight"] + w[p + "q.bias"])
            k = heads(x @ w[p + "k.weight"] + w[p + "k.bias"])
            v = heads(x @ w[p + "v.weight"] + w[p + "v.bias"])
            att = q @ k.transpose(0, 1, 3, 2) / np.float32(np.sqrt(hd)) + bias
            att = np.exp(att - att.max(-1, keepdims=True))
            att /= att.sum(-1, keepdims=True)
            ctx = (att @ v).transpose(0, 2, 1, 3).reshape(b, t, HIDDEN)
            x = _layer_norm(x + ctx @ w[p + "o.weight"] + w[p + "o.bias"], w[p + "ln1.weight"], w[p + "ln1.bias"])
            h = _gelu(x @ w[p + "up.weight"] + w[p + "up.bias"])
            x = _layer_norm(x + h @ w[p + "down.weight"] + w[p + "down.bias"], w[p + "ln2.weight"], w[p + "ln2.bias"])
        pooled = (x * mask[:, :, None]).sum(1) / mask.sum(1, keepdims=True)
        logits = pooled @ w["head.weight"] + w["head.bias"]
        logits -= logits.max(-1, keepdims=True)
        e = np.exp(logits)
        out: Array = (e / e.sum(-1, keepdims=True)).astype(np.float32)
        return out
