"""Train the check-worthiness model (claim vs chatter) on the dev halves, the corpus store and our
hand-written chatter (seeded, reproducible).

    .venv/bin/python scripts/train_worthiness.py [--data ../shared/data] [--kb tests/corpus/kb]
        [--chatter scripts/data/worthiness_chatter.txt] [--out scoring/checkworthy/weights.json] [--dry-run]

Claims (label 0): Factcheck-Bench dev claims and their sentences, FActScore dev human atomic facts
(S, NS and IR: an irrelevant fact is still a fact), WiCE dev claims, the sentences of the corpus
store's pages. Chatter (label 1): the sentences of ``--chatter`` (written for this model; never the
style matrix's templates, which stay unseen). Logistic regression over hashed features
(:mod:`scoring.checkworthy`), class-balanced cross-entropy + L2, fitted by L-BFGS.

Figures are cross-validated with folds grouped by source document (an answer, a biography, a WiCE
claim, a page, a section of the chatter file), then the model is fitted on everything and written
with what it saw and the CV figures.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import sparse
from scipy.optimize import minimize

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scoring.checkworthy import DEFAULT_BUCKETS, WorthinessModel, cue_names, hashed  # noqa: E402

Array = NDArray[np.float64]
CLAIM, CHATTER = 0, 1
_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"“])")


@dataclass(frozen=True)
class Example:
    text: str
    label: int
    group: str
    source: str


def _jsonl(path: Path, limit: int | None) -> list[dict[str, Any]]:
    rows = []
    with path.open() as f:
        for line in f:
            if line.strip():
                rows.append(json.loads(line))
            if limit is not None and len(rows) >= limit:
                break
    return rows


def pronominalised(sentence: str, page: dict[str, Any]) -> str | None:
    """``sentence`` with its leading subject (the page's title or an alias, with or without "The") replaced
    by the pronoun an answer would use: "It" for a thing, "She" or "He" for a person."""
    title = re.sub(r"\s*\(.*\)$", "", page["title"])
    names = sorted({title, *(page.get("aliases") or [])}, key=len, reverse=True)
    text = page.get("text", "")
    pronoun = "She" if re.search(r"\b(?:she|her)\b", text) else "He" if re.search(r"\b(?:he|his)\b", text) else "It"
    for name in names:
        for lead in (f"The {name} ", f"{name} "):
            if sentence.startswith(lead):
                return f"{pronoun} {sentence[len(lead) :]}"
    if pronoun == "It" and re.match(r"The [a-z]+ (?:is|has|was|supports|uses|carries|lets|does)\b", sentence):
        return "It " + sentence.split(" ", 2)[2]
    return None


def load_examples(
    data: Path,
    kb: Path | None,
    chatter: Path,
    limit: int | None = None,
    all_texts: bool = False,
    claims: Path | None = None,
) -> list[Example]:
    """Every training sentence with no number or name of its own (``all_texts``: every one), deduplicated
    by text (the first source keeps it)."""
    out: list[Example] = []
    for row in _jsonl(data / "factcheck-bench" / "claims.dev.jsonl", limit):
        group = f"fcb:{row['doc_id']}"
        out.append(Example(row["claim"], CLAIM, group, "fcb-claim"))
        if row.get("sentence"):
            out.append(Example(row["sentence"], CLAIM, group, "fcb-sentence"))
    for row in _jsonl(data / "factscore" / "labeled.dev.jsonl", limit):
        group = f"factscore:{row['model']}:{row['topic']}"
        topic = row.get("topic", "")
        words = re.findall(r"\b(?:she|her|he|his)\b", str(row.get("output", "")).lower())
        pronoun = "She" if sum(w in ("she", "her") for w in words) > len(words) / 2 else "He"
        for sentence in row.get("sentences") or []:
            for fact in sentence.get("human_atomic_facts") or []:
                out.append(Example(fact["text"], CLAIM, group, f"factscore-{fact['label']}"))
                # The fact as the pipeline's gate reads it: the answer's subject not counted as a name.
                if topic and fact["text"].startswith(topic + " "):
                    told = f"{pronoun} {fact['text'][len(topic) + 1 :]}"
                    out.append(Example(told, CLAIM, group, "factscore-pronoun"))
    for row in _jsonl(data / "wice" / "claims.dev.jsonl", limit):
        out.append(Example(row["claim"], CLAIM, f"wice:{row['id']}", "wice-claim"))
    if kb is not None:
        for path in sorted(kb.glob("*.jsonl")):
            for page in _jsonl(path, limit):
                for sentence in _SPLIT.split(page.get("text", "")):
                    if len(sentence.split()) >= 3:
                        out.append(Example(sentence, CLAIM, f"kb:{page['title']}", "kb-page"))
                        # As an answer says it once the subject is named: "It supports WPA3 encryption."
                        spoken = pronominalised(sentence, page)
                        if spoken is not None:
                            out.append(Example(spoken, CLAIM, f"kb:{page['title']}", "kb-page-pronoun"))
    if claims is not None and claims.exists():
        # Hand-written claims shaped like chatter ("Don't confuse him with his brother, who was a painter."): the
        # counterweight of the chatter file's advice and generalities.
        section = "start"
        for line in claims.read_text().splitlines():
            if line.startswith("#"):
                section = line.lstrip("# ").strip() or section
            elif line.strip():
                out.append(Example(line.strip(), CLAIM, f"claims:{section}", "hand-claim"))
    section = "start"
    n_chatter = 0
    for line in chatter.read_text().splitlines():
        if line.startswith("#"):
            section = line.lstrip("# ").strip() or section
            continue
        if line.strip() and (limit is None or n_chatter < limit * 10):
            out.append(Example(line.strip(), CHATTER, f"chatter:{section}", "chatter"))
            n_chatter += 1
    seen: set[str] = set()
    unique = []
    for ex in out:
        key = ex.text.strip().lower()
        # The model decides only facts with no number or name of their own (scoring.checkworthy.gate).
        if key not in seen and (all_texts or "no-value" in cue_names(ex.text)):
            seen.add(key)
            unique.append(ex)
    return unique


def design(texts: Sequence[str], buckets: int) -> sparse.csr_matrix:
    rows, cols, vals = [], [], []
    for r, text in enumerate(texts):
        idx, val = hashed(text, buckets)
        rows += [r] * len(idx)
        cols += idx
        vals += val
    return sparse.csr_matrix((vals, (rows, cols)), shape=(len(texts), buckets))


def sample_weights(y: Array, sources: Sequence[str]) -> Array:
    """Each class weighs half; within the claims each source weighs by the square root of its size, so
    the 7,600 biography facts of FActScore do not drown the open-domain claims of Factcheck-Bench."""
    src = np.array(sources)
    out = np.zeros(len(y))
    for c in (CLAIM, CHATTER):
        in_class = y == c
        names = sorted(set(src[in_class]))
        share = {s: float(np.sqrt((src[in_class] == s).sum())) for s in names}
        total = sum(share.values()) or 1.0
        for s in names:
            mask = in_class & (src == s)
            out[mask] = 0.5 * share[s] / total / mask.sum()
    return out


def fit(x: sparse.csr_matrix, y: Array, l2: float, sample_w: Array) -> tuple[Array, float]:
    """Weighted logistic regression: minimise weighted log-loss (weights sum to 1) + l2/2 · |w|²."""

    def loss(theta: Array) -> tuple[float, Array]:
        w, b = theta[:-1], theta[-1]
        z = x @ w + b
        # log(1 + e^z) - y z, stably
        lz = np.logaddexp(0.0, z) - y * z
        value = float(sample_w @ lz) + 0.5 * l2 * float(w @ w)
        p = 1.0 / (1.0 + np.exp(-z))
        g = sample_w * (p - y)
        grad = np.concatenate([x.T @ g + l2 * w, [g.sum()]])
        return value, grad

    theta0 = np.zeros(x.shape[1] + 1)
    result = minimize(loss, theta0, jac=True, method="L-BFGS-B", options={"maxiter": 500})
    return result.x[:-1], float(result.x[-1])


def folds_by_group(groups: Sequence[str], k: int, seed: int) -> NDArray[np.int64]:
    unique = sorted(set(groups))
    random.Random(seed).shuffle(unique)
    fold_of = {g: i % k for i, g in enumerate(unique)}
    return np.array([fold_of[g] for g in groups], dtype=np.int64)


def report(y: Array, pred: Array) -> dict[str, Any]:
    out: dict[str, Any] = {"n": len(y), "accuracy": round(float((y == pred).mean()), 4)}
    for name, c in (("claim", CLAIM), ("chatter", CHATTER)):
        tp = float(((pred == c) & (y == c)).sum())
        p = tp / max(float((pred == c).sum()), 1.0)
        r = tp / max(float((y == c).sum()), 1.0)
        f1 = 2 * p * r / (p + r) if p + r else 0.0
        out[name] = {"precision": round(p, 4), "recall": round(r, 4), "f1": round(f1, 4), "n": int((y == c).sum())}
    return out


def cross_validate(
    examples: list[Example], buckets: int, l2: float, k: int, seed: int, threshold: float
) -> dict[str, Any]:
    texts = [e.text for e in examples]
    x = design(texts, buckets)
    y = np.array([e.label for e in examples], dtype=np.float64)
    folds = folds_by_group([e.group for e in examples], k, seed)
    prob = np.zeros(len(y))
    for f in range(k):
        train, test = folds != f, folds == f
        if not test.any() or len(set(y[train])) < 2:
            continue
        w, b = fit(
            x[train],
            y[train],
            l2,
            sample_weights(y[train], [e.source for e, t in zip(examples, train, strict=True) if t]),
        )
        prob[test] = 1.0 / (1.0 + np.exp(-(x[test] @ w + b)))
    pred = (prob >= threshold).astype(np.float64)
    figures = report(y, pred)
    fcb = np.array([e.source == "fcb-claim" for e in examples])
    figures["by_threshold"] = {
        f"{t:.2f}": {
            "chatter_recall": round(float((prob[y == CHATTER] >= t).mean()), 4),
            "fcb_claims_called_chatter": round(float((prob[fcb] >= t).mean()), 4) if fcb.any() else None,
            "claims_called_chatter": round(float((prob[y == CLAIM] >= t).mean()), 4),
        }
        for t in (0.5, 0.6, 0.7, 0.8, 0.9)
    }
    # The share of real claims called chatter, per source, and where the gate applies (no number or name).
    per_source: dict[str, Any] = {}
    for source in sorted({e.source for e in examples}):
        mask = np.array([e.source == source for e in examples])
        gated = mask & np.array(["no-value" in cue_names(e.text) for e in examples])
        per_source[source] = {
            "n": int(mask.sum()),
            "called_chatter": round(float(pred[mask].mean()), 4),
            "called_chatter_without_value": int((pred[gated] == 1).sum()),
            "without_value": int(gated.sum()),
        }
    figures["per_source"] = per_source
    figures["chatter_missed"] = [e.text for e, p in zip(examples, pred, strict=True) if e.label == CHATTER and not p][
        :15
    ]
    figures["claims_called_chatter"] = [
        e.text
        for e, p in zip(examples, pred, strict=True)
        if e.label == CLAIM and p and "no-value" in cue_names(e.text)
    ][:25]
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--kb", type=Path, default=ROOT / "tests" / "corpus" / "kb")
    parser.add_argument("--chatter", type=Path, default=ROOT / "scripts" / "data" / "worthiness_chatter.txt")
    parser.add_argument(
        "--claims",
        type=Path,
        default=ROOT / "scripts" / "data" / "worthiness_claims.txt",
        help="hand-written claims shaped like chatter (skipped when the file is absent)",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "scoring" / "checkworthy" / "weights.json")
    parser.add_argument("--buckets", type=int, default=DEFAULT_BUCKETS)
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--threshold", type=float, default=0.8, help="the gate's P(chatter) threshold")
    parser.add_argument("--limit", type=int, default=None, help="rows per source file (a quick run)")
    parser.add_argument(
        "--domain-only",
        action="store_true",
        help="train only on sentences with no number or name of their own (the gate's domain; measured worse)",
    )
    parser.add_argument("--dry-run", action="store_true", help="print the CV figures, write nothing")
    args = parser.parse_args(argv)

    examples = load_examples(args.data, args.kb, args.chatter, args.limit, not args.domain_only, args.claims)
    counts: dict[str, int] = {}
    for e in examples:
        counts[e.source] = counts.get(e.source, 0) + 1
    print(json.dumps({"examples": counts}, indent=None))
    cv = cross_validate(examples, args.buckets, args.l2, args.folds, args.seed, args.threshold)
    print(json.dumps({"cv": cv}, indent=2, ensure_ascii=False))
    if args.dry_run:
        return 0
    x = design([e.text for e in examples], args.buckets)
    y = np.array([e.label for e in examples], dtype=np.float64)
    w, b = fit(x, y, args.l2, sample_weights(y, [e.source for e in examples]))
    meta = {
        "trained_by": "scripts/train_worthiness.py",
        "examples": counts,
        "l2": args.l2,
        "domain_only": args.domain_only,
        "seed": args.seed,
        "folds": args.folds,
        "cv": {k: v for k, v in cv.items() if k in ("n", "accuracy", "claim", "chatter")},
    }
    model = WorthinessModel(w, b, args.threshold, meta)
    args.out.write_text(json.dumps(model.to_json(), separators=(",", ":")) + "\n")
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
