"""A small softmax classifier (multinomial logistic regression, optionally one tanh hidden layer) in numpy.

Weights live in a JSON document::

    {"labels": [...], "features": [...], "mean": [...], "scale": [...],
     "hidden": {"weight": [[...]], "bias": [...]} | null,
     "weight": [[...]], "bias": [...], "meta": {...}}

``probabilities(x) = softmax(h(z) @ weight + bias)`` with ``z = (x - mean) / scale`` and ``h`` the
identity or ``tanh(z @ hidden.weight + hidden.bias)``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from scoring.verifier.errors import WeightsError

Array = NDArray[np.float64]


def softmax(logits: Array) -> Array:
    """Row-wise softmax, shifted by the row maximum for stability."""
    shifted = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    out: Array = exp / exp.sum(axis=1, keepdims=True)
    return out


@dataclass(frozen=True)
class SoftmaxModel:
    """Standardise, optionally apply one tanh layer, then a linear softmax layer."""

    labels: tuple[str, ...]
    features: tuple[str, ...]
    mean: Array
    scale: Array
    weight: Array
    bias: Array
    hidden_weight: Array | None = None
    hidden_bias: Array | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def hidden(self, x: Array) -> Array:
        """The representation the softmax layer sees."""
        z = (x - self.mean) / self.scale
        if self.hidden_weight is None or self.hidden_bias is None:
            return z
        out: Array = np.tanh(z @ self.hidden_weight + self.hidden_bias)
        return out

    def probabilities(self, x: Array) -> Array:
        """Class probabilities, shape ``(n, len(labels))``."""
        if x.ndim != 2 or x.shape[1] != len(self.features):
            raise ValueError(f"expected a matrix with {len(self.features)} columns, got shape {x.shape}")
        if x.shape[0] == 0:
            return np.zeros((0, len(self.labels)))
        return softmax(self.hidden(x) @ self.weight + self.bias)

    def to_json(self) -> dict[str, Any]:
        hidden = None
        if self.hidden_weight is not None and self.hidden_bias is not None:
            hidden = {"weight": _round(self.hidden_weight), "bias": _round(self.hidden_bias)}
        return {
            "labels": list(self.labels),
            "features": list(self.features),
            "mean": _round(self.mean),
            "scale": _round(self.scale),
            "hidden": hidden,
            "weight": _round(self.weight),
            "bias": _round(self.bias),
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> SoftmaxModel:
        """Build from :meth:`to_json` output; a malformed document raises :class:`WeightsError`."""
        try:
            hidden = doc.get("hidden")
            model = cls(
                labels=tuple(doc["labels"]),
                features=tuple(doc["features"]),
                mean=np.asarray(doc["mean"], dtype=np.float64),
                scale=np.asarray(doc["scale"], dtype=np.float64),
                weight=np.asarray(doc["weight"], dtype=np.float64),
                bias=np.asarray(doc["bias"], dtype=np.float64),
                hidden_weight=None if hidden is None else np.asarray(hidden["weight"], dtype=np.float64),
                hidden_bias=None if hidden is None else np.asarray(hidden["bias"], dtype=np.float64),
                meta=dict(doc.get("meta") or {}),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise WeightsError(f"verifier weights are malformed: {e!r}; retrain with scripts/train_verifier.py") from e
        width = model.weight.shape[0]
        expected = len(model.features) if model.hidden_weight is None else model.hidden_weight.shape[1]
        if width != expected or model.weight.shape[1] != len(model.labels):
            raise WeightsError(
                f"verifier weights have shape {model.weight.shape}, expected ({expected}, {len(model.labels)})"
            )
        return model

    @property
    def digest(self) -> str:
        """A short content hash: changes whenever any weight changes."""
        blob = json.dumps(self.to_json(), sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()[:12]


def _round(a: Array) -> Any:
    return np.round(a, 6).tolist()
