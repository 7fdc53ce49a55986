"""Static word vectors for soft matching: how close in meaning a claim's word is to a passage's words.

``words.npz`` beside this file is written by ``scripts/word_vectors.py`` from all-MiniLM-L6-v2 (each
vocabulary word read alone through the encoder, mean-pooled, projected on 128 principal components; see
``TRAINING.md``): 21k lower-case English words, int8 with one scale per word, read on first use. numpy
only at run time.

>>> vectors = WordVectors.load()
>>> vectors.similarity("doctorate", "phd") > vectors.similarity("doctorate", "goalkeeper")
True
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from scoring.verifier.errors import WeightsError

DEFAULT_WORDS = Path(__file__).with_name("words.npz")


def quantise(matrix: NDArray[Any]) -> tuple[NDArray[np.int8], NDArray[np.float32]]:
    """int8 rows and one float32 scale per row (symmetric): ``matrix ≈ rows * scale[:, None]``."""
    m = np.asarray(matrix, dtype=np.float64)
    scale = np.abs(m).max(axis=1) / 127.0
    scale[scale == 0] = 1.0
    rows = np.clip(np.rint(m / scale[:, None]), -127, 127).astype(np.int8)
    return rows, scale.astype(np.float32)


class WordVectors:
    """Unit vectors of lower-case words; a word not in the table has none."""

    def __init__(self, path: Path = DEFAULT_WORDS) -> None:
        self.path = path
        self._index: dict[str, int] | None = None
        self._vectors: NDArray[np.float32] | None = None
        self._lock = threading.Lock()

    @classmethod
    def load(cls, path: Path | None = None) -> WordVectors:
        """The packaged table (or the one at ``path``), read on first use; a missing file raises now."""
        vectors = cls(path or DEFAULT_WORDS)
        if not vectors.path.is_file():
            raise WeightsError(f"no word vectors at {vectors.path}; write them with scripts/word_vectors.py")
        return vectors

    def _table(self) -> tuple[dict[str, int], NDArray[np.float32]]:
        with self._lock:
            if self._index is None or self._vectors is None:
                try:
                    with np.load(self.path) as doc:
                        words, rows, scale = doc["words"], doc["vectors"], doc["scale"]
                except (OSError, ValueError, KeyError) as e:
                    raise WeightsError(f"cannot read word vectors {self.path}: {e}") from e
                unit = rows.astype(np.float32) * scale[:, None]
                self._vectors = unit / np.linalg.norm(unit, axis=1, keepdims=True)
                self._index = {str(w): i for i, w in enumerate(words)}
            return self._index, self._vectors

    def vector(self, word: str) -> NDArray[np.float32] | None:
        index, vectors = self._table()
        at = index.get(word.lower())
        return None if at is None else vectors[at]

    def similarity(self, a: str, b: str) -> float:
        """Cosine of the two words' vectors; 1.0 for the same word, 0.0 when either has none."""
        if a.lower() == b.lower():
            return 1.0
        va, vb = self.vector(a), self.vector(b)
        return 0.0 if va is None or vb is None else float(va @ vb)

    def closest(self, words: Iterable[str], others: Iterable[str]) -> list[float]:
        """For each of ``words``, its best cosine with any of ``others`` (1.0 for a word ``others`` has)."""
        pool = {o.lower() for o in others}
        found = [v for o in sorted(pool) if (v := self.vector(o)) is not None]
        matrix = np.vstack(found) if found else np.zeros((0, 1), dtype=np.float32)
        out = []
        for word in words:
            v = self.vector(word)
            if word.lower() in pool:
                out.append(1.0)
            elif v is None or not found:
                out.append(0.0)
            else:
                out.append(float((matrix @ v).max()))
        return out


@lru_cache(maxsize=1)
def packaged() -> WordVectors:
    """The packaged table, shared by every verifier in the process."""
    return WordVectors.load()
