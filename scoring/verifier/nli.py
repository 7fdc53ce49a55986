"""A user's own NLI model as the stance model: a Hugging Face sequence-classification directory, on the CPU.

``FACTSENTRY_NLI_MODEL_DIR=/models/my-nli`` makes it the stance model of every check in the process
(workers, ``factsentry check``, ``/v1/factcheck``); the directory is what ``save_pretrained`` writes
(config, weights, tokenizer). Its labels are read from ``config.id2label``: a label containing
``entail`` is support, ``contradict`` refute, ``neutral`` (or ``not_entail``) irrelevant; a model
with two labels (entailment / not entailment) has no refute. Pairs are scored in batches of
``batch_size`` (passage as premise, claim as hypothesis, truncated to ``max_length`` tokens).
It needs the ``nli`` extra (torch, transformers): ``pip install 'factsentry[nli]'``.

>>> model = NLIStanceModel.load(Path("/models/my-nli"))  # doctest: +SKIP
>>> model.score("Ada Lovelace was born in 1815.", ["Ada Lovelace (1815–1852) was a mathematician."])  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from schemas.enums import Stance
from scoring.errors import ModelUnavailableError
from scoring.verifier import StanceScore


def _role(label: str) -> str | None:
    name = label.lower().replace("-", "_")
    if "not_entail" in name or "non_entail" in name or "neutral" in name:
        return "irrelevant"
    if "entail" in name:
        return "support"
    if "contradict" in name:
        return "refute"
    return None


@dataclass
class NLIStanceModel:
    """``StanceModel`` over a sequence-classification model: P(support), P(refute), P(irrelevant) per passage."""

    path: Path
    tokenizer: Any
    model: Any
    roles: dict[int, str]
    version: str
    batch_size: int = 16
    max_length: int = 256
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def load(cls, path: Path, batch_size: int = 16, max_length: int = 256) -> NLIStanceModel:
        if not path.is_dir():
            raise ModelUnavailableError(f"FACTSENTRY_NLI_MODEL_DIR {path}: no such directory")
        try:
            from transformers import AutoModelForSequenceClassification, AutoTokenizer
        except ImportError as e:
            raise ModelUnavailableError(
                f"the nli stance model needs torch and transformers ({e}); install factsentry[nli]"
            ) from e
        try:
            tokenizer = AutoTokenizer.from_pretrained(path)
            model = AutoModelForSequenceClassification.from_pretrained(path)
        except (OSError, ValueError) as e:
            raise ModelUnavailableError(
                f"FACTSENTRY_NLI_MODEL_DIR {path}: not a sequence-classification model: {e}"
            ) from e
        model.eval()
        labels = {int(i): str(name) for i, name in model.config.id2label.items()}
        roles = {i: role for i, name in labels.items() if (role := _role(name)) is not None}
        if "support" not in roles.values() or len(roles) != len(labels):
            raise ModelUnavailableError(
                f"FACTSENTRY_NLI_MODEL_DIR {path}: labels {sorted(labels.values())} are not NLI labels; set "
                "config.id2label to entailment / neutral / contradiction"
            )
        return cls(path, tokenizer, model, roles, _version(path), batch_size, max_length)

    def score(self, claim: str, passages: Sequence[str]) -> list[StanceScore]:
        """One :class:`StanceScore` per passage, in order (batched; safe to call from several threads)."""
        import torch

        out: list[StanceScore] = []
        for start in range(0, len(passages), self.batch_size):
            batch = list(passages[start : start + self.batch_size])
            encoded = self.tokenizer(
                batch,
                [claim] * len(batch),
                truncation=True,
                max_length=self.max_length,
                padding=True,
                return_tensors="pt",
            )
            with self._lock, torch.no_grad():
                probs = torch.softmax(self.model(**encoded).logits, dim=-1).tolist()
            for row in probs:
                by_role = {"support": 0.0, "refute": 0.0, "irrelevant": 0.0}
                for i, p in enumerate(row):
                    by_role[self.roles[i]] += float(p)
                stance = max(by_role, key=lambda r: by_role[r])
                out.append(
                    StanceScore(
                        stance={"support": Stance.SUPPORT, "refute": Stance.REFUTE}.get(stance, Stance.IRRELEVANT),
                        support=by_role["support"],
                        refute=by_role["refute"],
                        irrelevant=by_role["irrelevant"],
                    )
                )
        return out


def _version(path: Path) -> str:
    """Changes whenever the model's files do (verdict cache keys include it)."""
    digest = hashlib.sha256()
    for f in sorted(p for p in path.iterdir() if p.is_file()):
        stat = f.stat()
        digest.update(f"{f.name}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    return f"nli:{path.name}:{digest.hexdigest()[:16]}"
