"""Train the offline verifier on the dev halves in ``shared/data`` (seeded, reproducible).

    .venv/bin/python scripts/train_verifier.py [--data ../shared/data] [--out scoring/verifier/weights.json]

Two small models, both softmax regressions fitted by L-BFGS on class-weighted cross-entropy + L2:
- the **stance model** on (claim, passage) pairs: every Factcheck-Bench (claim, auto-evidence)
  pair with its human stance label; with ``--wice`` also WiCE claims against their gold supporting
  sentences (support / partial by the claim label) and two other chunks of the article (irrelevant);
  with ``--factscore N`` also N FActScore atomic facts a biography against their own sentence (support)
  and two other sentences (irrelevant), and each changed (a year or number moved, or negated) against its
  sentence (refute); only the Factcheck-Bench rows are held out and scored in the cross-validation;
- the **claim head** on Factcheck-Bench claims labelled true or false: claim-level features
  (``scoring.verifier.features.claim_features``) over out-of-fold stance probabilities.

Figures are cross-validated with folds grouped by answer (no claim of a held-out answer is seen in
training), repeated over ``--repeats`` seeds; the claim head is evaluated nested (its training
stances come from an inner cross-validation). Then both are fitted on everything and written with
a note of what they saw and the CV figures.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import minimize

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evaluation import datasets  # noqa: E402
from evaluation.metrics import classification_report  # noqa: E402
from schemas.enums import Stance  # noqa: E402
from scoring.verifier import OfflineVerifier  # noqa: E402
from scoring.verifier.features import CLAIM_FEATURE_NAMES, FEATURE_NAMES, claim_features, pair_features  # noqa: E402
from scoring.verifier.model import SoftmaxModel, softmax  # noqa: E402

Array = NDArray[np.float64]
Ints = NDArray[np.int64]
LABELS = (Stance.SUPPORT.value, Stance.PARTIAL.value, Stance.REFUTE.value, Stance.IRRELEVANT.value)
CLAIM_LABELS = ("true", "false")
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
    y: Ints
    groups: Ints  # fold groups: Factcheck-Bench answer id; WiCE rows get ids of their own
    claim_index: Ints  # the Factcheck-Bench claim a pair belongs to (-1 for WiCE)


@dataclass
class Config:
    l2: float
    hidden: int
    balance: float
    claim_l2: float
    seed: int
    claim_threshold: float | None = None  # None: tuned on the training claims


def fcb_pairs(claims: Sequence[datasets.FcbClaim]) -> PairSet:
    xs, ys, groups, claim_index = [], [], [], []
    for ci, c in enumerate(claims):
        if len(c.stances) != len(c.evidence):  # a few claims have no stance labels
            continue
        xs.append(pair_features(c.claim, c.evidence))
        ys += [LABELS.index(FCB_LABEL[s]) for s in c.stances]
        groups += [c.doc_id] * len(c.evidence)
        claim_index += [ci] * len(c.evidence)
    return PairSet(np.vstack(xs), np.array(ys), np.array(groups), np.array(claim_index))


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
    return PairSet(np.vstack(xs), np.array(ys), np.array(groups), np.full(n, -1))


_YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b")
_NUMBER = re.compile(r"\b\d+\b")
_NEGATABLE = re.compile(r"\b(is|was|are|were|has|had|have)\b")


def changed(fact: str, rng: np.random.Generator) -> str | None:
    """``fact`` made false by one edit (a year or number moved, or negated); None when none applies."""
    edits = []
    if years := _YEAR.findall(fact):
        y = years[int(rng.integers(len(years)))]
        edits.append(fact.replace(y, str(int(y) + int(rng.choice([-3, -2, -1, 1, 2, 4]))), 1))
    elif numbers := _NUMBER.findall(fact):
        n = numbers[int(rng.integers(len(numbers)))]
        edits.append(re.sub(rf"\b{n}\b", str(int(n) + int(rng.integers(1, 9))), fact, count=1))
    if m := _NEGATABLE.search(fact):
        edits.append(fact[: m.end()] + " not" + fact[m.end() :])
    return edits[int(rng.integers(len(edits)))] if edits else None


_PRONOUN_SUBJECT = re.compile(r"^(?:(?P<subject>He|She|They)|(?P<owner>His|Her|Their))\b")


def named(text: str, topic: str) -> str:
    """``text`` with the pronoun it opens with written as ``topic``'s name: "She was born in Omaha" → "Marianne
    McAndrew was born in Omaha", "His father ..." → "Marianne McAndrew's father ..."; other texts unchanged."""
    m = _PRONOUN_SUBJECT.match(text)
    if m is None:
        return text
    return (topic if m.group("subject") else f"{topic}'s") + text[m.end() :]


def factscore_pairs(
    bios: Sequence[datasets.FactscoreBio],
    rng: np.random.Generator,
    offset: int,
    per_bio: int,
    names: bool = False,
    page_negatives: int = 0,
) -> PairSet:
    """Generated pairs: a human atomic fact against the sentence it was written from (support) and two other
    sentences of its biography (irrelevant); the fact changed against its sentence (refute).

    With ``names``, the facts and sentences that open with a pronoun name the biography's subject instead, as
    the pipeline's facts and a person's page do: then the other sentences share the subject's name with the
    fact and say something else, as a namesake's page does.
    """
    xs, ys, groups = [], [], []
    for b, bio in enumerate(bios):

        def subject(text: str, topic: str = bio.topic) -> str:
            return named(text, topic) if names else text

        sentences = [subject(s.text) for s in bio.sentences]
        facts = [(subject(f), subject(s.text)) for s in bio.sentences for f in s.facts if len(f.split()) >= 4]
        for k, i in enumerate(rng.permutation(len(facts))[:per_bio]):
            fact, source = facts[int(i)]
            others = [t for t in sentences if t != source]
            picked = [others[int(j)] for j in rng.permutation(len(others))[:2]]
            xs.append(pair_features(fact, [source, *picked]))
            ys += [LABELS.index("support")] + [LABELS.index("irrelevant")] * len(picked)
            groups += [offset + b] * (1 + len(picked))
            if names and others and k < page_negatives:
                # as the pipeline reads a fact against its subject's one page: the biography without the fact's
                # sentence has the subject's name and not the fact, as a namesake's page does
                xs.append(pair_features(fact, [" ".join(others)]))
                ys.append(LABELS.index("irrelevant"))
                groups.append(offset + b)
            if (false := changed(fact, rng)) is not None:
                xs.append(pair_features(false, [source, *picked])[:1])
                ys.append(LABELS.index("refute"))
                groups.append(offset + b)
    return PairSet(np.vstack(xs), np.array(ys), np.array(groups), np.full(len(ys), -1))


def ambigbio_pairs(
    items: Sequence[datasets.AmbigGeneration], rng: np.random.Generator, offset: int, per_item: int, negatives: int
) -> PairSet:
    """Weak supervision from the D-FActScore paper's automatic atom labels (``supported_any``).

    Which passage supported an atom is not recorded, so each sampled atom is paired with the item's
    passage that covers it best (idf-weighted): SUPPORT when the paper found the atom supported,
    IRRELEVANT otherwise. Up to ``per_item`` supported and ``negatives`` unsupported atoms per item.
    """
    coverage = FEATURE_NAMES.index("idf_coverage")
    xs, ys, groups = [], [], []
    names = {name: i for i, name in enumerate(sorted({item.name for item in items}))}
    for item in items:
        passages = list(dict.fromkeys(p.text for p in item.passages))
        if not passages:
            continue
        good = [a for a, ok in item.reference_atoms if ok]
        bad = [a for a, ok in item.reference_atoms if not ok]
        picked = [(a, "support") for a in _sample(good, per_item, rng)]
        picked += [(a, "irrelevant") for a in _sample(bad, negatives, rng)]
        for atom, label in picked:
            rows = pair_features(atom, passages)
            xs.append(rows[int(rows[:, coverage].argmax())][None, :])
            ys.append(LABELS.index(label))
            groups.append(offset + names[item.name])  # an AmbigBio name never straddles folds
    return PairSet(np.vstack(xs), np.array(ys), np.array(groups), np.full(len(ys), -1))


def _sample(values: list[str], k: int, rng: np.random.Generator) -> list[str]:
    if len(values) <= k:
        return values
    return [values[i] for i in sorted(rng.choice(len(values), size=k, replace=False))]


def fit(
    x: Array,
    y: Ints,
    *,
    labels: Sequence[str],
    features: Sequence[str],
    l2: float,
    hidden: int = 0,
    seed: int = 0,
    balance: float = 0.5,
) -> SoftmaxModel:
    """Softmax regression (or one tanh layer) by L-BFGS on class-weighted cross-entropy plus L2.

    Class c weighs (n / (k · n_c)) ** balance: 0 leaves the classes as they come, 1 balances them.
    """
    k = len(labels)
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
    shapes: list[tuple[int, ...]] = [(d, hidden), (hidden,), (hidden, k), (k,)] if hidden else [(d, k), (k,)]
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

    theta0 = np.random.default_rng(seed).normal(0.0, 0.1, size=sum(sizes))
    params = unpack(minimize(loss, theta0, jac=True, method="L-BFGS-B", options={"maxiter": 3000}).x)
    if hidden:
        w1, b1, w2, b2 = params
        return SoftmaxModel(tuple(labels), tuple(features), mean, scale, w2, b2, w1, b1)
    w2, b2 = params
    return SoftmaxModel(tuple(labels), tuple(features), mean, scale, w2, b2)


def fit_stance(pairs: PairSet, rows: Ints, cfg: Config) -> SoftmaxModel:
    return fit(
        pairs.x[rows], pairs.y[rows], labels=LABELS, features=FEATURE_NAMES,
        l2=cfg.l2, hidden=cfg.hidden, seed=cfg.seed, balance=cfg.balance,
    )  # fmt: skip


def folds(groups: Ints, k: int, seed: int) -> list[Ints]:
    """``k`` disjoint index sets covering ``groups``, whole groups at a time, shuffled by ``seed``."""
    unique = np.unique(groups)
    np.random.default_rng(seed).shuffle(unique)
    return [np.isin(groups, part).nonzero()[0] for part in np.array_split(unique, k)]


def out_of_fold(pairs: PairSet, rows: Ints, cfg: Config, k: int) -> Array:
    """Stance probabilities for ``rows``, each from a model that did not see its answer."""
    probs = np.zeros((len(pairs.y), len(LABELS)))
    fcb_rows = rows[pairs.claim_index[rows] >= 0]
    for part in folds(pairs.groups[fcb_rows], k, cfg.seed):
        test = fcb_rows[part]
        train = np.setdiff1d(rows, test)
        probs[test] = fit_stance(pairs, train, cfg).probabilities(pairs.x[test])
    return probs


def claim_matrix(
    claims: Sequence[datasets.FcbClaim], pairs: PairSet, probs: Array, which: Sequence[int]
) -> tuple[Array, Ints]:
    """Claim features and labels (1 = false) of the labelled claims ``which``, from stance ``probs``."""
    xs, ys = [], []
    for ci in which:
        c = claims[ci]
        rows = pairs.claim_index == ci
        p = probs[rows]
        xs.append(
            claim_features(c.claim, c.evidence, pairs.x[rows], p[:, 0] + p[:, 1], p[:, 2], p[:, 3])
            if rows.any()
            else claim_features(c.claim, c.evidence, pair_features(c.claim, c.evidence), *_flat(len(c.evidence)))
        )
        ys.append(CLAIM_LABELS.index(c.label))
    return np.vstack(xs), np.array(ys)


def _flat(n: int) -> tuple[Array, Array, Array]:
    """Stances for a claim without labelled pairs in training: nothing known (uniform)."""
    return np.full(n, 0.5), np.full(n, 0.25), np.full(n, 0.25)


def fit_claim_head(x: Array, y: Ints, cfg: Config) -> tuple[SoftmaxModel, float]:
    """The claim head, and the P(false) threshold that maximises false-class F1 on its training claims."""
    model = fit(x, y, labels=CLAIM_LABELS, features=CLAIM_FEATURE_NAMES, l2=cfg.claim_l2, balance=1.0)
    if cfg.claim_threshold is not None and cfg.claim_threshold >= 0:
        return model, cfg.claim_threshold
    p_false = model.probabilities(x)[:, 1]
    gold = [CLAIM_LABELS[i] for i in y]
    best, best_f1 = 0.5, -1.0
    for t in np.arange(0.30, 0.71, 0.025):
        f1 = classification_report(gold, ["false" if p >= t else "true" for p in p_false])["false"]["f1"]
        if f1 > best_f1:
            best, best_f1 = round(float(t), 3), f1
    return model, best


def labelled(claims: Sequence[datasets.FcbClaim], pairs: PairSet, pair_rows: Ints) -> list[int]:
    """Indices of the true/false claims among those with pairs in ``pair_rows``."""
    seen = set(pairs.claim_index[pair_rows].tolist())
    return [i for i, c in enumerate(claims) if c.label in CLAIM_LABELS and i in seen]


def cross_validate(
    claims: Sequence[datasets.FcbClaim], pairs: PairSet, cfg: Config, k: int
) -> dict[str, float]:  # fmt: skip
    """One repeat of grouped CV: stance figures on held-out pairs, claim figures on held-out claims."""
    is_fcb = pairs.claim_index >= 0
    stance_gold: list[str] = []
    stance_pred: list[str] = []
    claim_gold: list[str] = []
    claim_pred: list[str] = []
    everything = np.arange(len(pairs.y))
    for part in folds(pairs.groups[is_fcb], k, cfg.seed):
        test = everything[is_fcb][part]
        train = np.setdiff1d(everything, test)
        model = fit_stance(pairs, train, cfg)
        probs = np.zeros((len(pairs.y), len(LABELS)))
        probs[test] = model.probabilities(pairs.x[test])
        stance_gold += [TO_3[LABELS[i]] for i in pairs.y[test]]
        stance_pred += [TO_3[LABELS[i]] for i in probs[test].argmax(axis=1)]
        inner = out_of_fold(pairs, train, cfg, k)
        head, threshold = fit_claim_head(*claim_matrix(claims, pairs, inner, labelled(claims, pairs, train)), cfg)
        x_test, y_test = claim_matrix(claims, pairs, probs, labelled(claims, pairs, test))
        claim_gold += [CLAIM_LABELS[i] for i in y_test]
        claim_pred += ["false" if p >= threshold else "true" for p in head.probabilities(x_test)[:, 1]]
    stance = classification_report(stance_gold, stance_pred, ("support", "refute", "irrelevant"))
    verdict = classification_report(claim_gold, claim_pred, CLAIM_LABELS)
    return {
        "stance3_accuracy": stance["accuracy"],
        "stance3_macro_f1": stance["macro_f1"],
        "support_f1": stance["support"]["f1"],
        "refute_f1": stance["refute"]["f1"],
        "irrelevant_f1": stance["irrelevant"]["f1"],
        "false_precision": verdict["false"]["precision"],
        "false_recall": verdict["false"]["recall"],
        "false_f1": verdict["false"]["f1"],
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--out", type=Path, default=ROOT / "scoring" / "verifier" / "weights.json")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=3, help="CV repeats with seeds seed, seed+1, ...")
    parser.add_argument("--l2", type=float, default=0.01)
    parser.add_argument("--claim-l2", type=float, default=1.0)
    parser.add_argument("--claim-threshold", type=float, default=0.5, help="P(false) threshold (negative: tuned)")
    parser.add_argument("--hidden", type=int, default=0, help="units of a tanh hidden layer (0: linear)")
    parser.add_argument("--balance", type=float, default=0.5, help="class-weight exponent (0: none, 1: balanced)")
    parser.add_argument("--wice", action="store_true", help="add WiCE gold-sentence pairs to the stance training")
    parser.add_argument(
        "--ambigbio", type=int, default=0, metavar="N",
        help="weak supervision: N supported AmbigBio atoms per answer (0: none)",
    )  # fmt: skip
    parser.add_argument(
        "--factscore", type=int, default=4, metavar="N", help="FActScore pairs: N facts a bio (0: none)"
    )
    parser.add_argument(
        "--factscore-names", action="store_true", help="FActScore pairs name the subject where they say he / she"
    )
    parser.add_argument(
        "--factscore-page-negatives", type=int, default=0, metavar="K",
        help="with --factscore-names: K facts a bio also against the bio without their sentence (irrelevant)",
    )  # fmt: skip
    parser.add_argument("--ambigbio-unsupported", type=int, default=0, metavar="N", help="unsupported atoms per answer")
    parser.add_argument("--ambigbio-names", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--dry-run", action="store_true", help="report cross-validation only; write nothing")
    args = parser.parse_args(argv)

    claims = datasets.factcheck_bench(args.data)
    pairs = fcb_pairs(claims)
    n_fcb = len(pairs.y)
    if args.wice:
        extra = wice_pairs(datasets.wice(args.data), np.random.default_rng(args.seed), offset=10**6)
        pairs = PairSet(
            np.vstack([pairs.x, extra.x]),
            np.concatenate([pairs.y, extra.y]),
            np.concatenate([pairs.groups, extra.groups]),
            np.concatenate([pairs.claim_index, extra.claim_index]),
        )
    n_wice = len(pairs.y) - n_fcb
    if args.factscore:
        extra = factscore_pairs(
            datasets.factscore(args.data),
            np.random.default_rng(args.seed),
            offset=3 * 10**6,
            per_bio=args.factscore,
            names=args.factscore_names,
            page_negatives=args.factscore_page_negatives,
        )
        pairs = PairSet(
            np.vstack([pairs.x, extra.x]),
            np.concatenate([pairs.y, extra.y]),
            np.concatenate([pairs.groups, extra.groups]),
            np.concatenate([pairs.claim_index, extra.claim_index]),
        )
    n_factscore = len(pairs.y) - n_fcb - n_wice
    if args.ambigbio:
        items = datasets.ambigbio(args.data)
        if args.ambigbio_names is not None:  # only the names listed in this file (one a line)
            keep = set(args.ambigbio_names.read_text().splitlines())
            items = [item for item in items if item.name in keep]
        negatives = args.ambigbio if args.ambigbio_unsupported is None else args.ambigbio_unsupported
        extra = ambigbio_pairs(
            items, np.random.default_rng(args.seed), offset=2 * 10**6, per_item=args.ambigbio, negatives=negatives
        )
        pairs = PairSet(
            np.vstack([pairs.x, extra.x]),
            np.concatenate([pairs.y, extra.y]),
            np.concatenate([pairs.groups, extra.groups]),
            np.concatenate([pairs.claim_index, extra.claim_index]),
        )
    sources = [f"{n_fcb} Factcheck-Bench"]
    sources += [f"{n_wice} WiCE"] if n_wice else []
    sources += [f"{n_factscore} FActScore (generated)"] if n_factscore else []
    sources += [f"{len(pairs.y) - n_fcb - n_wice - n_factscore} AmbigBio (weak)"] if args.ambigbio else []
    print("pairs: " + " + ".join(sources))

    runs = []
    for r in range(args.repeats):
        cfg = Config(args.l2, args.hidden, args.balance, args.claim_l2, args.seed + r, args.claim_threshold)
        runs.append(cross_validate(claims, pairs, cfg, args.folds))
    cv: dict[str, Any] = {}
    for key in runs[0]:
        values = np.array([run[key] for run in runs])
        cv[key] = {"mean": round(float(values.mean()), 4), "sd": round(float(values.std()), 4)}
        print(f"CV {key:18s} {values.mean():.3f} ± {values.std():.3f}")
    if args.dry_run:
        return 0

    cfg = Config(args.l2, args.hidden, args.balance, args.claim_l2, args.seed, args.claim_threshold)
    everything = np.arange(len(pairs.y))
    stance = fit_stance(pairs, everything, cfg)
    oof = out_of_fold(pairs, everything, cfg, args.folds)
    head, threshold = fit_claim_head(*claim_matrix(claims, pairs, oof, labelled(claims, pairs, everything)), cfg)
    meta = {
        "trained_on": "Factcheck-Bench dev: claim-evidence stance pairs and true/false claims"
        + (" + WiCE dev gold-sentence pairs" if args.wice else "")
        + (f" + FActScore dev facts vs their sentences ({args.factscore} a bio, generated)" if args.factscore else "")
        + (", the subject named for he / she" if args.factscore and args.factscore_names else "")
        + (
            f" + AmbigBio dev atoms (weak: the paper's supported_any, {args.ambigbio} + {args.ambigbio} per answer)"
            if args.ambigbio
            else ""
        ),
        "pairs": len(pairs.y),
        "seed": args.seed,
        "l2": args.l2,
        "claim_l2": args.claim_l2,
        "hidden": args.hidden,
        "balance": args.balance,
        "cv": cv,
    }
    stance = SoftmaxModel(
        stance.labels, stance.features, stance.mean, stance.scale, stance.weight, stance.bias,
        stance.hidden_weight, stance.hidden_bias, meta,
    )  # fmt: skip
    doc = stance.to_json() | {"claim": head.to_json() | {"threshold": threshold}}
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    verifier = OfflineVerifier.load(args.out)
    print(f"wrote {args.out} ({verifier.version}); claim head threshold {threshold}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
