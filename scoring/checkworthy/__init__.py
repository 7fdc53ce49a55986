"""The check-worthiness model: does a sentence state a checkable fact, or is it chatter?

A logistic regression over hashed word uni/bigrams, word-boundary character 4-grams and a few cue
features (first/second person, modal verbs, a number or a name, a generic subject "this / these /
it's / each", evaluative words, a question), in numpy. ``weights.json`` beside this file is written
by ``scripts/train_worthiness.py`` (seeded; the same data give the same file); what it was trained
on and how well it does is in ``scoring/verifier/TRAINING.md`` ("Check-worthiness model").

>>> model = WorthinessModel.load()
>>> model.chatter("Each of these could fill a book on its own.") > 0.5
True
>>> model.chatter("She studied cello at the conservatory from 1986 to 1991.") < 0.5
True
"""

from __future__ import annotations

import json
import math
import re
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from schemas.enums import Worthiness
from scoring.rules import rule

WORTHINESS_MODEL = rule(
    "worthiness-model",
    "worthiness",
    "a fact the rules call factual but with no number or name of its own (the answer's subject aside) is "
    "chatter when the check-worthiness model says so with P(chatter) at or above its threshold: evaluations "
    "('a serious commitment'), summaries, morals, advice on sources, transitions",
)

Array = NDArray[np.float64]

WEIGHTS = Path(__file__).with_name("weights.json")
DEFAULT_BUCKETS = 1 << 14
# What the reader can do or will get with a thing is a fact about the thing ("You can back up your photos",
# "With the app you can run a speed test", "You'll need a free account"), as assistant-talk reads it: not asked.
_READER_CAN = re.compile(r"^(?:with [^,]{1,60}?,? )?you(?: can| will|'ll| need| get| must)\b", re.IGNORECASE)
# The gate's threshold for a fact with a number in words (the weights carry the default one).
STRICT_THRESHOLD = 0.9

_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?|[?!:;]")
_FIRST = re.compile(r"\b(?:i|me|my|mine|myself|we|us|our|i'm|i'd|i'll|i've|let's)\b")
_SECOND = re.compile(r"\b(?:you|your|yours|yourself|you're|you'd|you'll|you've)\b")
_MODAL = re.compile(r"\b(?:would|could|might|may|should|must|can|ought)\b|'d\b")
_GENERIC = re.compile(
    r"^(?:this|these|that|those|it|it's|its|each|all|both|such|any|anything|something|everything|there's|"
    r"that's|what)\b"
)
_EVALUATIVE = re.compile(
    r"\b(?:remarkable|impressive|admirable|fascinating|interesting|amazing|incredible|inspiring|great|good|"
    r"best|worth|serious|rare|unusual|striking|lovely|sad|shame|pity|hard|difficult|easy|tricky|nice|"
    r"wonderful|excellent|useful|wise|reliable|important|common|complicated|surprising|admire|deserves?)\b"
)
# An activity as the subject ("Running a service like that ... is"): most often evaluated, not reported.
_GERUND = re.compile(r"^[a-z]+ing\b(?! (?:to|in|on|at|of|from|for|with|by)\b)")
_DIGIT = re.compile(r"\d")
# Counts in words ("one" left out: it is as often a pronoun, "every one of these").
_COUNTS = (
    "two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|[a-z]+teen|twenty|thirty|forty|"
    "fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|dozen"
)
_CARDINAL = re.compile(rf"\b(?:{_COUNTS})\b")
# Any number in words, ordinals and "once"/"twice" included.
_NUMBER_WORD = re.compile(rf"\b(?:one|{_COUNTS}|first|second|third|once|twice)\b")
# A capitalised word that does not start the sentence: most often a name.
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-zà-ÿ]")


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens, digits folded to ``0`` (a year is a year, whichever one)."""
    return [re.sub(r"\d", "0", t) for t in _TOKEN.findall(text.lower())]


def cue_names(text: str) -> list[str]:
    """The cue features that hold for ``text`` (on the original case for names)."""
    low = text.strip().lower()
    words = _TOKEN.findall(low)
    cues = []
    for name, pattern in (
        ("first-person", _FIRST),
        ("second-person", _SECOND),
        ("modal", _MODAL),
        ("evaluative", _EVALUATIVE),
        ("digit", _DIGIT),
    ):
        if pattern.search(low):
            cues.append(name)
    if _GENERIC.match(low):
        cues.append("generic-subject")
    if _NUMBER_WORD.search(low):
        cues.append("number-word")
    if _GERUND.match(low):
        cues.append("gerund-subject")
    if _NAME.search(text.strip()):
        cues.append("name")
    if not _DIGIT.search(low) and not _NAME.search(text.strip()):
        cues.append("no-value")
    if low.endswith("?"):
        cues.append("question")
    if low.endswith("!"):
        cues.append("exclamation")
    cues.append(f"length-{min(len(words) // 4, 6)}")
    return cues


def feature_keys(text: str) -> list[str]:
    """Every feature key of ``text``: words, word pairs, character 4-grams within words, cues."""
    toks = tokens(text)
    keys = [f"w:{t}" for t in toks]
    padded = ["<s>", *toks, "</s>"]
    keys += [f"b:{a} {b}" for a, b in pairwise(padded)]
    for t in toks:
        if t.isalpha() or "'" in t:
            w = f" {t} "
            keys += [f"c:{w[i : i + 4]}" for i in range(max(1, len(w) - 3))]
    keys += [f"cue:{c}" for c in cue_names(text)]
    return keys


def hashed(text: str, buckets: int) -> tuple[list[int], list[float]]:
    """Sparse feature vector of ``text``: bucket indices (crc32, so stable across processes) and values,
    term counts scaled to unit length."""
    counts: dict[int, float] = {}
    for key in feature_keys(text):
        index = zlib.crc32(key.encode()) % buckets
        counts[index] = counts.get(index, 0.0) + 1.0
    norm = math.sqrt(math.fsum(v * v for v in counts.values())) or 1.0
    indices = sorted(counts)
    return indices, [counts[i] / norm for i in indices]


@dataclass(frozen=True)
class WorthinessModel:
    """``chatter(text) = sigmoid(bias + weight · x(text))``: the probability that ``text`` is chatter,
    opinion or assistant talk rather than a checkable claim."""

    weight: Array
    bias: float
    threshold: float = 0.5
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def buckets(self) -> int:
        return int(self.weight.shape[0])

    @cached_property
    def _weights(self) -> list[float]:
        # A plain list: indexing a few dozen entries is cheaper than a numpy gather for one sentence.
        out: list[float] = self.weight.tolist()
        return out

    def chatter(self, text: str) -> float:
        indices, values = hashed(text, self.buckets)
        w = self._weights
        z = self.bias + math.fsum(w[i] * v for i, v in zip(indices, values, strict=True))
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))

    def is_chatter(self, text: str) -> bool:
        return self.chatter(text) >= self.threshold

    def chatter_many(self, texts: Iterable[str]) -> list[float]:
        return [self.chatter(t) for t in texts]

    def to_json(self) -> dict[str, Any]:
        return {
            "buckets": self.buckets,
            "bias": round(self.bias, 6),
            "threshold": self.threshold,
            "weight": [round(float(w), 4) for w in self.weight],
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> WorthinessModel:
        try:
            weight = np.asarray(doc["weight"], dtype=np.float64)
            model = cls(weight, float(doc["bias"]), float(doc.get("threshold", 0.5)), dict(doc.get("meta") or {}))
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(
                f"worthiness weights are malformed: {e!r}; retrain with scripts/train_worthiness.py"
            ) from e
        if weight.ndim != 1 or weight.shape[0] != int(doc.get("buckets") or weight.shape[0]) or weight.shape[0] < 2:
            raise ValueError(f"worthiness weights have shape {weight.shape}; retrain with scripts/train_worthiness.py")
        return model

    @classmethod
    def load(cls, path: Path | None = None) -> WorthinessModel:
        if path is None:
            return _packaged()
        return cls.from_json(json.loads(path.read_text()))


@lru_cache(maxsize=1)
def _packaged() -> WorthinessModel:
    return WorthinessModel.from_json(json.loads(WEIGHTS.read_text()))


@lru_cache(maxsize=8192)
def _packaged_chatter(text: str) -> float:
    """The packaged model's :meth:`WorthinessModel.chatter`, once per text: a revision's re-check gates again every
    fact the revision kept."""
    return _packaged().chatter(text)


def gate(
    worthiness: Worthiness,
    by: str | None,
    fact: str,
    bare: str | None = None,
    rules_off: frozenset[str] | None = None,
    model: WorthinessModel | None = None,
) -> tuple[Worthiness, str | None]:
    """The final say on a fact the rules left factual: with no value of its own (``bare``: the fact without
    its subject's name, which is what the model reads) and the model sure it is chatter, it is not a claim
    (decided by ``worthiness-model``); every other fact keeps the rules' class."""
    if rules_off is None:
        rules_off = frozenset()  # config is passed in: scoring/ reads no environment
    if worthiness is not Worthiness.FACTUAL or WORTHINESS_MODEL in rules_off:
        return worthiness, by
    own = (bare if bare is not None else fact).strip()
    if _DIGIT.search(own) or _NAME.search(own) or re.search(r"\b[A-Z]{2,}\b|[\"“]", own):
        return worthiness, by
    # The model reads what the fact says of its own: a subject's name the decontextualiser put in ("Edda
    # Marlowe's persistence is something to admire") would read as a claim (most claims it saw name someone).
    if _READER_CAN.match(own) or _READER_CAN.match(fact.strip()):
        return worthiness, by
    # A count in words is a value of the fact's own, as a digit is ("a ten-year warranty", "went on to have two
    # sons"): checked, never gated (the model once called "It comes with a ten-year warranty" chatter).
    if _CARDINAL.search(own.lower()):
        return worthiness, by
    chatter = model.chatter(own) if model is not None else _packaged_chatter(own)
    model = model or _packaged()
    # An ordinal or "once"/"twice" may be the fact's value ("won it twice") or a transition ("First, …"): the
    # model must be surer there.
    threshold = max(model.threshold, STRICT_THRESHOLD) if _NUMBER_WORD.search(own.lower()) else model.threshold
    if chatter >= threshold:
        return Worthiness.NOT_A_CLAIM, WORTHINESS_MODEL
    return worthiness, by
