"""Train the offline verifier's stance model on the dev halves in ``shared/data`` (seeded, reproducible).

    .venv/bin/python scripts/train_verifier.py [--data ../shared/data] [--out scoring/verifier/weights.json]

Training pairs:
- Factcheck-Bench: every (claim, auto-evidence passage) with its human stance label
  (complete support / partial support / refute / irrelevant).
- WiCE (optional, ``--wice``): the claim against its gold supporting sentences (support or partial
  by the claim label) and against a few other sentences of the cited article (irrelevant).

It reports cross-validated figures (folds grouped by answer, so no claim of a held-out answer is
seen in training), then fits on everything and writes the weights with a note of what they saw.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import minimize

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evaluation import datasets  # noqa: E402
from evaluation.metrics import classification_report  # noqa: E402
from schemas.enums import Stance  # noqa: E402
from scoring.verifier import ClaimDecision, OfflineVerifier  # noqa: E402
from scoring.verifier.features import FEATURE_NAMES, pair_features  # noqa: E402
from scoring.verifier.model import SoftmaxModel, softmax  # noqa: E402

Array = NDArray[np.float64]
LABELS = (Stance.SUPPORT.value, Stance.PARTIAL.value, Stance.REFUTE.value, Stance.IRRELEVANT.value)
FCB_LABEL = {
    "completely-support": Stance.SUPPORT.value,
    "partially-support": Stance.PARTIAL.value,
    "refute": Stance.REFUTE.value,
    "irrelevant": Stance.IRRELEVANT.value,
}
TO_3 = {"support": "support", "partial": "support", "refute": "refute", "irrelevant": "irrelevant"}


@dataclass
class PairSet:
    x: Array
    y: NDArray[np.int64]
    groups: NDArray[np.int64]  # fold groups (Factcheck-Bench answer id; WiCE rows get their own ids)
    source: list[str]  # "fcb" or "wice"
    claim_index: NDArray[np.int64]  # which Factcheck-Bench claim a pair belongs to (-1 for WiCE)


def fcb_pairs(claims: Sequence[datasets.FcbClaim]) -> PairSet:
    xs, ys, groups, claim_index = [], [], [], []
    for ci, c in enumerate(claims):
        if len(c.stances) != len(c.evidence):  # a few claims have no stance labels
            continue
        xs.append(pair_features(c.claim, c.evidence))
        ys += [LABELS.index(FCB_LABEL[s]) for s in c.stances]
        groups += [c.doc_id] * len(c.evidence)
        claim_index += [ci] * len(c.evidence)
    n = len(ys)
    return PairSet(np.vstack(xs), np.array(ys), np.array(groups), ["fcb"] * n, np.array(claim_index))


def wice_pairs(claims: Sequence[datasets.WiceClaim], rng: np.random.Generator, offset: int) -> PairSet:
    xs, ys, groups = [], [], []
    for i, c in enumerate(claims):
        gold = sorted({j for group in c.supporting for j in group if j < len(c.evidence)})
        passages: list[str] = []
        labels: list[int] = []
        if gold and c.label != "not_supported":
            passages.append(" ".join(c.evidence[j] for j in gold))
            labels.append(LABELS.index("support" if c.label == "supported" else "partial"))
        others = [j for j in range(len(c.evidence)) if j not in gold]
        for j in rng.choice(others, size=min(2, len(others)), replace=False) if others else []:
            passages.append(" ".join(c.evidence[j : j + 3]))
            labels.append(LABELS.index("irrelevant"))
        if not passages:
            continue
        xs.append(pair_features(c.claim, passages))
        ys += labels
        groups += [offset + i] * len(passages)
    n = len(ys)
    return PairSet(np.vstack(xs), np.array(ys), np.array(groups), ["wice"] * n, np.full(n, -1))


def concat(a: PairSet, b: PairSet) -> PairSet:
    return PairSet(
        np.vstack([a.x, b.x]),
        np.concatenate([a.y, b.y]),
        np.concatenate([a.groups, b.groups]),
        a.source + b.source,
        np.concatenate([a.claim_index, b.claim_index]),
    )


def fit(x: Array, y: NDArray[np.int64], *, l2: float, hidden: int, seed: int, balance: float) -> SoftmaxModel:
    """Softmax regression (or one tanh layer) by L-BFGS on class-weighted cross-entropy plus L2."""
    k = len(LABELS)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = (x - mean) / scale
    counts = np.bincount(y, minlength=k).astype(float)
    class_w = (counts.sum() / (k * np.maximum(counts, 1.0))) ** balance
    w = class_w[y]
    w = w / w.mean()
    onehot = np.eye(k)[y]
    d = z.shape[1]
    rng = np.random.default_rng(seed)
    shapes: list[tuple[int, ...]] = [(hidden, k), (k,)] if hidden else [(d, k), (k,)]
    if hidden:
        shapes = [(d, hidden), (hidden,), *shapes]
    sizes = [int(np.prod(s)) for s in shapes]

    def unpack(theta: Array) -> list[Array]:
        parts, at = [], 0
        for shape, size in zip(shapes, sizes, strict=True):
            parts.append(theta[at : at + size].reshape(shape))
            at += size
        return parts

    def loss(theta: Array) -> tuple[float, Array]:
        params = unpack(theta)
        if hidden:
            w1, b1, w2, b2 = params
            h = np.tanh(z @ w1 + b1)
        else:
            w2, b2 = params
            h = z
        p = softmax(h @ w2 + b2)
        nll = -float(np.sum(w * np.log(np.clip((p * onehot).sum(axis=1), 1e-12, None)))) / len(y)
        reg = 0.5 * l2 * float(sum(np.sum(m**2) for m in params[::2]))
        g_logits = (p - onehot) * w[:, None] / len(y)
        g_w2 = h.T @ g_logits + l2 * w2
        g_b2 = g_logits.sum(axis=0)
        if not hidden:
            return nll + reg, np.concatenate([g_w2.ravel(), g_b2])
        g_h = (g_logits @ w2.T) * (1 - h**2)
        g_w1 = z.T @ g_h + l2 * w1
        g_b1 = g_h.sum(axis=0)
        return nll + reg, np.concatenate([g_w1.ravel(), g_b1, g_w2.ravel(), g_b2])

    theta0 = rng.normal(0.0, 0.1, size=sum(sizes))
    result = minimize(loss, theta0, jac=True, method="L-BFGS-B", options={"maxiter": 2000})
    params = unpack(result.x)
    if hidden:
        w1, b1, w2, b2 = params
        return SoftmaxModel(LABELS, FEATURE_NAMES, mean, scale, w2, b2, w1, b1)
    w2, b2 = params
    return SoftmaxModel(LABELS, FEATURE_NAMES, mean, scale, w2, b2)


def folds(groups: NDArray[np.int64], k: int, seed: int) -> list[NDArray[np.int64]]:
    unique = np.unique(groups)
    rng = np.random.default_rng(seed)
    rng.shuffle(unique)
    return [np.isin(groups, part).nonzero()[0] for part in np.array_split(unique, k)]


def stance3(p: Array) -> list[str]:
    return [TO_3[LABELS[i]] for i in p.argmax(axis=1)]


def claim_verdicts(
    probs: Array, pairs: PairSet, claims: Sequence[datasets.FcbClaim], decision: ClaimDecision
) -> tuple[list[str], list[str]]:
    gold, pred = [], []
    for ci, c in enumerate(claims):
        if c.label == "unknown":
            continue
        rows = probs[pairs.claim_index == ci]
        if len(rows) == 0:
            continue
        support = float((rows[:, 0] + rows[:, 1]).max())
        refute = float(rows[:, 2].max())
        is_false = (refute >= decision.refute and refute >= support) or support < decision.support
        gold.append(c.label)
        pred.append("false" if is_false else "true")
    return gold, pred


def tune_decision(probs: Array, pairs: PairSet, claims: Sequence[datasets.FcbClaim]) -> ClaimDecision:
    """Thresholds that maximise false-class F1 (used inside the CV folds only on their training part)."""
    best, best_f1 = ClaimDecision(), -1.0
    for s in np.arange(0.30, 0.91, 0.05):
        for r in np.arange(0.20, 0.81, 0.05):
            d = ClaimDecision(support=round(float(s), 2), refute=round(float(r), 2))
            gold, pred = claim_verdicts(probs, pairs, claims, d)
            f1 = classification_report(gold, pred)["false"]["f1"]
            if f1 > best_f1:
                best, best_f1 = d, f1
    return best


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--out", type=Path, default=ROOT / "scoring" / "verifier" / "weights.json")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--l2", type=float, default=0.01)
    parser.add_argument("--hidden", type=int, default=0, help="units of a tanh hidden layer (0: linear)")
    parser.add_argument("--balance", type=float, default=0.5, help="class-weight exponent (0: none, 1: balanced)")
    parser.add_argument("--wice", action="store_true", help="add WiCE gold-sentence pairs to the training data")
    parser.add_argument("--dry-run", action="store_true", help="report cross-validation only; write nothing")
    args = parser.parse_args(argv)

    rng = np.random.default_rng(args.seed)
    claims = datasets.factcheck_bench(args.data)
    fcb = fcb_pairs(claims)
    pairs = fcb
    if args.wice:
        pairs = concat(fcb, wice_pairs(datasets.wice(args.data), rng, offset=10**6))
    kw = {"l2": args.l2, "hidden": args.hidden, "seed": args.seed, "balance": args.balance}

    # Cross-validation: folds over Factcheck-Bench answers; WiCE pairs always stay in training.
    is_fcb = np.array([s == "fcb" for s in pairs.source])
    oof = np.zeros((len(fcb.y), len(LABELS)))
    claim_gold: list[str] = []
    claim_pred: list[str] = []
    for test in folds(fcb.groups, args.folds, args.seed):
        train = np.setdiff1d(np.arange(len(pairs.y)), test)
        model = fit(pairs.x[train], pairs.y[train], **kw)
        oof[test] = model.probabilities(fcb.x[test])
        test_claims = set(fcb.claim_index[test].tolist())
        train_rows = np.setdiff1d(np.arange(len(fcb.y)), test)
        train_probs = np.zeros_like(oof)
        train_probs[train_rows] = model.probabilities(fcb.x[train_rows])
        train_claims = [c if i not in test_claims else _unknown(c) for i, c in enumerate(claims)]
        decision = tune_decision(train_probs, fcb, train_claims)
        held = [c if i in test_claims else _unknown(c) for i, c in enumerate(claims)]
        gold, pred = claim_verdicts(oof, fcb, held, decision)
        claim_gold += gold
        claim_pred += pred
    gold3 = [TO_3[LABELS[i]] for i in fcb.y]
    report3 = classification_report(gold3, stance3(oof))
    report_claims = classification_report(claim_gold, claim_pred)
    print(f"pairs: {len(fcb.y)} Factcheck-Bench" + (f" + {int((~is_fcb).sum())} WiCE" if args.wice else ""))
    print(
        f"CV stance (3 labels): accuracy {report3['accuracy']:.3f} macro-F1 {report3['macro_f1']:.3f}  "
        + "  ".join(f"{k} F1 {report3[k]['f1']:.3f}" for k in ("support", "refute", "irrelevant"))
    )
    print(
        f"CV claims (false positive): P {report_claims['false']['precision']:.3f} "
        f"R {report_claims['false']['recall']:.3f} F1 {report_claims['false']['f1']:.3f}"
    )
    if args.dry_run:
        return 0

    model = fit(pairs.x, pairs.y, **kw)
    decision = tune_decision(model.probabilities(fcb.x), fcb, claims)
    meta = {
        "trained_on": "Factcheck-Bench dev claim-evidence stance pairs"
        + (" + WiCE dev gold-sentence pairs" if args.wice else ""),
        "pairs": len(pairs.y),
        "seed": args.seed,
        "l2": args.l2,
        "hidden": args.hidden,
        "balance": args.balance,
        "cv": {
            "stance3_accuracy": round(report3["accuracy"], 4),
            "stance3_macro_f1": round(report3["macro_f1"], 4),
            "false_claim_f1": round(report_claims["false"]["f1"], 4),
        },
        "claim_decision": {"support": decision.support, "refute": decision.refute},
    }
    model = SoftmaxModel(
        model.labels, model.features, model.mean, model.scale, model.weight, model.bias,
        model.hidden_weight, model.hidden_bias, meta,
    )  # fmt: skip
    args.out.write_text(json.dumps(model.to_json(), indent=1) + "\n")
    verifier = OfflineVerifier.load(args.out)
    print(f"wrote {args.out} ({verifier.version}), claim decision {decision}")
    return 0


def _unknown(c: datasets.FcbClaim) -> datasets.FcbClaim:
    """The claim with its label hidden, so it takes no part in a verdict tally."""
    return datasets.FcbClaim(
        c.doc_id, c.claim, "unknown", c.evidence, c.stances, c.response, c.revised_response, c.prompt
    )


if __name__ == "__main__":
    sys.exit(main())
