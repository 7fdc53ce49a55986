"""The offline verifier: the stance of an evidence passage towards a claim, without any network or model hub.

A small softmax model (weights in ``weights.json`` beside this file, trained by
``scripts/train_verifier.py`` on the dev halves in ``shared/data``; see ``TRAINING.md``) reads
features of claim–passage agreement (:mod:`scoring.verifier.features`)::

    >>> verifier = OfflineVerifier.load()
    >>> [s.stance for s in verifier.score("Paris is the capital of France.", ["Paris is the capital of France."])]
    [<Stance.SUPPORT: 'support'>]
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from schemas.enums import Stance
from scoring.verifier.errors import VerifierError, WeightsError
from scoring.verifier.features import (
    CLAIM_FEATURE_NAMES,
    CLAIM_PAIR_COLUMNS,
    FEATURE_NAMES,
    claim_features,
    pair_features,
)
from scoring.verifier.model import SoftmaxModel

__all__ = [
    "DEFAULT_WEIGHTS",
    "ClaimDecision",
    "ClaimHead",
    "ClaimVerdict",
    "OfflineVerifier",
    "StanceScore",
    "VerifierError",
    "WeightsError",
]

DEFAULT_WEIGHTS = Path(__file__).with_name("weights.json")


@dataclass(frozen=True)
class StanceScore:
    """The verifier's reading of one passage: the argmax stance and the probabilities behind it."""

    stance: Stance
    support: float  # P(complete or partial support)
    refute: float
    irrelevant: float


@dataclass(frozen=True)
class ClaimDecision:
    """Thresholds that turn the stances of a claim's passages into one verdict (see :meth:`OfflineVerifier.decide`)."""

    support: float = 0.5
    refute: float = 0.5


@dataclass(frozen=True)
class ClaimHead:
    """A second small model: is a claim false, given the stances of all its passages (see ``claim_features``)."""

    model: SoftmaxModel  # labels ("true", "false")
    threshold: float = 0.5  # P(false) at or above which the claim is called false


@dataclass(frozen=True)
class ClaimVerdict:
    """The verdict on a claim from all its passages at once."""

    stance: Stance  # SUPPORT (the claim holds) or REFUTE (false or unsupported)
    false: float  # P(the claim is false or unsupported by these passages)
    scores: list[StanceScore]


class OfflineVerifier:
    """Stance of passages towards a claim from lexical, number/date, negation and name agreement features."""

    def __init__(
        self,
        model: SoftmaxModel,
        decision: ClaimDecision | None = None,
        claim_head: ClaimHead | None = None,
        version: str | None = None,
    ) -> None:
        unknown_features = [f for f in model.features if f not in FEATURE_NAMES]
        if unknown_features:
            raise WeightsError(
                f"verifier weights were trained on features {unknown_features} that the code does not compute "
                f"({list(FEATURE_NAMES)}); retrain with scripts/train_verifier.py"
            )
        unknown = set(model.labels) - {s.value for s in Stance}
        if unknown:
            raise WeightsError(f"verifier weights have unknown labels {sorted(unknown)}")
        if claim_head is not None and tuple(claim_head.model.features) != CLAIM_FEATURE_NAMES:
            raise WeightsError("verifier claim-head weights do not fit the claim features; retrain")
        self.model = model
        self.decision = decision or ClaimDecision()
        self.claim_head = claim_head
        self.version = version or f"offline-{model.digest}"
        self._index = {Stance(label): i for i, label in enumerate(model.labels)}
        # Only the columns the weights name are computed (weights trained before a feature was added read the
        # ones they know), first the stance model's in its order, then those the claim head reads besides.
        extra = [] if claim_head is None else [f for f in CLAIM_PAIR_COLUMNS if f not in model.features]
        self._names: tuple[str, ...] = (*model.features, *extra)
        self._stance_width = len(model.features)

    @classmethod
    def load(cls, path: Path | None = None) -> OfflineVerifier:
        """Load weights from ``path`` (default: the weights packaged beside this module)."""
        path = path or DEFAULT_WEIGHTS
        try:
            doc = json.loads(path.read_text())
        except (OSError, ValueError) as e:
            raise WeightsError(f"cannot read verifier weights {path}: {e}") from e
        return cls.from_json(doc)

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> OfflineVerifier:
        """Build from a weights document: the stance model, plus an optional ``claim`` head and ``meta``."""
        model = SoftmaxModel.from_json(doc)
        rule = model.meta.get("claim_decision") or {}
        decision = ClaimDecision(support=float(rule.get("support", 0.5)), refute=float(rule.get("refute", 0.5)))
        head = None
        if doc.get("claim"):
            head = ClaimHead(SoftmaxModel.from_json(doc["claim"]), float(doc["claim"].get("threshold", 0.5)))
        digest = hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:12]
        return cls(model, decision, head, version=f"offline-{digest}")

    def score(self, claim: str, passages: Sequence[str]) -> list[StanceScore]:
        """One :class:`StanceScore` per passage, in order."""
        if not passages:
            return []
        return self._scores(pair_features(claim, passages, self._names))

    def _scores(self, pairs: np.ndarray[Any, Any]) -> list[StanceScore]:
        if len(pairs) == 0:
            return []
        probs = self.model.probabilities(pairs[:, : self._stance_width])
        labels = [Stance(label) for label in self.model.labels]
        support_cols = [i for s, i in self._index.items() if s in (Stance.SUPPORT, Stance.PARTIAL)]
        refute_col = self._index.get(Stance.REFUTE)
        irrelevant_col = self._index.get(Stance.IRRELEVANT)
        out: list[StanceScore] = []
        for row in probs:
            out.append(
                StanceScore(
                    stance=labels[int(row.argmax())],
                    support=float(row[support_cols].sum()),
                    refute=float(row[refute_col]) if refute_col is not None else 0.0,
                    irrelevant=float(row[irrelevant_col]) if irrelevant_col is not None else 0.0,
                )
            )
        return out

    def verify(self, claim: str, passages: Sequence[str]) -> ClaimVerdict:
        """Is ``claim`` true given ``passages`` (all of them together)?

        With a claim head in the weights, a second model reads the passages' stances with claim-level
        evidence (names or numbers of the claim that no passage has); without one, :meth:`decide`.
        """
        pairs = pair_features(claim, passages, self._names) if passages else np.zeros((0, len(self._names)))
        scores = self._scores(pairs)
        if self.claim_head is None:
            stance = self.decide(scores)
            p_false = 0.0 if stance is Stance.SUPPORT else 1.0
            return ClaimVerdict(Stance.SUPPORT if stance is Stance.SUPPORT else Stance.REFUTE, p_false, scores)
        row = claim_features(
            claim,
            passages,
            pairs,
            np.array([s.support for s in scores]),
            np.array([s.refute for s in scores]),
            np.array([s.irrelevant for s in scores]),
            self._names,
        )
        probs = self.claim_head.model.probabilities(row[None, :])[0]
        p_false = float(probs[list(self.claim_head.model.labels).index("false")])
        stance = Stance.REFUTE if p_false >= self.claim_head.threshold else Stance.SUPPORT
        return ClaimVerdict(stance, p_false, scores)

    def decide(self, scores: Sequence[StanceScore]) -> Stance:
        """One verdict for a claim from its passages' scores: REFUTE, SUPPORT or IRRELEVANT (not enough evidence).

        A claim is refuted when some passage refutes it with probability at least ``decision.refute``
        (and more strongly than any passage supports it); supported when some passage supports it
        with probability at least ``decision.support``.
        """
        if not scores:
            return Stance.IRRELEVANT
        best_support = max(s.support for s in scores)
        best_refute = max(s.refute for s in scores)
        if best_refute >= self.decision.refute and best_refute >= best_support:
            return Stance.REFUTE
        if best_support >= self.decision.support:
            return Stance.SUPPORT
        return Stance.IRRELEVANT
