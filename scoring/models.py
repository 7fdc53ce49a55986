"""The models a check loads once per process: the stance model (the packaged offline model, or an NLI model the
caller names) and the spaCy pipeline (``scoring.nlp``)."""

from __future__ import annotations

import threading
from pathlib import Path

from scoring import nlp
from scoring.protocols import StanceModel
from scoring.verifier import OfflineVerifier
from scoring.verifier.nli import NLIStanceModel

_verifier_lock = threading.Lock()
_default_verifier: StanceModel | None = None
_nli_model_dir: Path | None = None


def use_nli_model(directory: Path | None) -> None:
    """Make the NLI model in ``directory`` (``scoring.verifier.nli``) the stance model of every check in this
    process that is given none; None: the packaged offline model. The caller reads the setting (a worker's
    ``FACTSENTRY_NLI_MODEL_DIR``); it takes effect at the next :func:`default_verifier`."""
    global _default_verifier, _nli_model_dir
    with _verifier_lock:
        if directory != _nli_model_dir:
            _nli_model_dir, _default_verifier = directory, None


def default_verifier() -> StanceModel:
    """The stance model, loaded once per process: the NLI model :func:`use_nli_model` names, else the packaged
    offline model."""
    global _default_verifier
    with _verifier_lock:
        if _default_verifier is None:
            if _nli_model_dir is not None:
                _default_verifier = NLIStanceModel.load(_nli_model_dir)
            else:
                _default_verifier = OfflineVerifier.load()
        return _default_verifier


def warm_up() -> None:
    """Load what a first check would load on demand (the spaCy pipeline, the stance model) and run each
    once. A worker also runs a whole check before it reports ready (``workers.scoring_stage``)."""
    nlp.parse(["Ada Lovelace was an English mathematician. She was born in London in 1815."])
    default_verifier().score("Ada Lovelace was born in 1815.", ["Ada Lovelace was born in London in 1815."])
