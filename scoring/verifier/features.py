"""Features of claim–passage agreement for the offline stance model.

One row per (claim, passage) pair. Word weights are BM25-style inverse document frequencies over
the passages scored together (the retrieved set), so a word every passage shares (usually the
topic's name) counts less than the one that pins the claim down. With fewer than three passages
every word weighs the same.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import lru_cache
from itertools import pairwise

import numpy as np
from numpy.typing import NDArray

from scoring.verifier.text import Analysis, analyse, analyse_pair, opposites, split_sentences

FEATURE_NAMES: tuple[str, ...] = (
    "coverage",  # share of the claim's content stems found in the passage
    "coverage_best",  # the same, against the best sentence (or pair of adjacent sentences)
    "idf_coverage",  # idf-weighted coverage against the passage
    "idf_coverage_best",  # idf-weighted coverage against the best sentence
    "name_coverage",  # share of the claim's capitalised words found in the passage
    "name_coverage_best",  # ... in the best sentence
    "no_names",  # 1 when the claim has no capitalised word
    "bigram_coverage",  # share of the claim's content bigrams found in the passage
    "bigram_coverage_best",
    "missing_idf_max",  # weight of the most informative claim word the passage lacks (0..1)
    "best_precision",  # share of the best sentence's content words that the claim has
    "claim_has_numbers",
    "number_match",  # share of the claim's numbers found in the passage
    "number_conflict",  # claim's numbers absent from the best sentence although it has numbers
    "year_conflict",  # claim's years absent from the passage although the passage has years
    "month_conflict",
    "negation_mismatch",  # exactly one of claim and best sentence negated
    "replaced_name",  # best sentence matches most words but a claim name is missing there
    "names_missing",  # how many of the claim's names the passage lacks
    "other_names_best",  # log(1 + names in the best sentence that the claim does not have)
    "number_other",  # best sentence has numbers the claim lacks and lacks some of the claim's
    "superlative",  # the claim has a superlative ("first", "oldest", "only")
    "opposite",  # the best sentence has the opposite of a claim word ("died" for "alive")
    "log_passage_len",
    "log_claim_len",
    "predicate_coverage",  # share of the claim's content stems besides its subject's name found in the passage
    "predicate_coverage_best",  # ... in the sentence (or pair) that has most of them
)


def _idf(claim: Analysis, passages: Sequence[Analysis]) -> dict[str, float]:
    n = len(passages)
    weights: dict[str, float] = {}
    for word in claim.content:
        if n < 3:
            weights[word] = 1.0
            continue
        df = sum(1 for p in passages if word in p.content)
        weights[word] = math.log(1.0 + (n - df + 0.5) / (df + 0.5))
    top = max(weights.values(), default=1.0) or 1.0
    return {w: v / top + 0.05 for w, v in weights.items()}


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def _weighted(words: frozenset[str], found: frozenset[str], idf: dict[str, float], total: float) -> float:
    """Share of the idf weight of ``words`` (``total``, their weights summed) that ``found`` holds."""
    # fsum is exact, so the result does not depend on set iteration order (string hashing is salted
    # per process); a plain sum could break ties between sentences differently from run to run.
    return math.fsum(idf[w] for w in words & found) / total if total else 0.0


# A page passage's windows hold about 50 KB: 8,192 of them could take a process ~400 MB; 1,000 AmbigBio dev
# answers read 674 passages, an answer a few dozen (issue #31: a worker's memory).
@lru_cache(maxsize=1024)
def _windows(text: str) -> tuple[Analysis, ...]:
    """Each sentence and each pair of adjacent sentences (a fact often spans two).

    Cached: every fact checked against a page reads the same passages.
    """
    sentences = split_sentences(text) or [text]
    windows = [analyse(s) for s in sentences]
    windows += [analyse_pair(a, b) for a, b in pairwise(sentences)]
    # A negated sentence's clauses are windows too: "She worked only from living plants and never painted from
    # photographs" denies the photographs, not the plants, and the best window of a claim about the plants
    # should not carry the other clause's "never".
    for sentence, window in zip(sentences, windows, strict=False):
        if window.negated:
            windows += [analyse(clause) for clause in _clauses(sentence)]
    return tuple(windows)


# Where a sentence's clauses meet: a semicolon, a conjunction after a comma, a bare "and"/"but" between words, and
# a full stop the sentence splitter kept (after initials: "catalogued under her initials, M. L.-B. She received").
_CLAUSE_BREAK = re.compile(
    r";\s*|,\s*(?:and|but|while|whereas|though|although|yet)\s+|\s+(?:and|but)\s+|(?<=\.)\s+(?=(?:She|He|They|It|Her|His)\b)"
)


def _clauses(sentence: str) -> list[str]:
    """The clauses of ``sentence`` (none when it has one)."""
    parts = [part.strip() for part in _CLAUSE_BREAK.split(sentence)]
    parts = [part for part in parts if part]
    return parts if len(parts) > 1 else []


_COLUMN = {name: i for i, name in enumerate(FEATURE_NAMES)}
# Columns computed together, each group only when some of its columns is asked for: the predicate columns take
# one more pass over every window of a page, which weights that do not read them should not pay for.
_PREDICATE = frozenset(("predicate_coverage", "predicate_coverage_best"))
_BASE = len(FEATURE_NAMES) - len(_PREDICATE)  # the columns before the predicate group
assert all(_COLUMN[name] >= _BASE for name in _PREDICATE)


def pair_features(claim: str, passages: Sequence[str], names: Sequence[str] = FEATURE_NAMES) -> NDArray[np.float64]:
    """Feature matrix of shape ``(len(passages), len(names))`` for one claim: the columns ``names`` (by default
    all of :data:`FEATURE_NAMES`), in that order. A group of columns none of ``names`` asks for is not computed."""
    unknown = [name for name in names if name not in _COLUMN]
    if unknown:
        raise ValueError(f"unknown feature columns {unknown}; known: {list(FEATURE_NAMES)}")
    rows = _pair_rows(claim, passages, predicate=not _PREDICATE.isdisjoint(names))
    if tuple(names) == FEATURE_NAMES:
        return rows
    out: NDArray[np.float64] = rows[:, [_COLUMN[name] for name in names]]
    return out


def _pair_rows(claim: str, passages: Sequence[str], predicate: bool) -> NDArray[np.float64]:
    """All of :data:`FEATURE_NAMES` for each passage; the predicate columns stay 0 unless ``predicate``."""
    c = analyse(claim)
    full = [analyse(p) for p in passages]
    idf = _idf(c, full)
    rows = np.zeros((len(passages), len(FEATURE_NAMES)), dtype=np.float64)
    opposite = opposites()
    n_content = len(c.content)
    claim_bigrams = c.bigrams
    total = math.fsum(idf[w] for w in c.content)  # once per claim, not once per window
    # What the claim says of its subject: a page that has the subject's name and nothing else does not support
    # "Harlan Beckwith set a record" (with fewer than three passages every word weighs the same, so the name
    # alone would be two thirds of the coverage). A claim that is all name is read whole.
    said = (c.content - c.subject) or c.content
    for i, (text, p) in enumerate(zip(passages, full, strict=True)):
        windows = _windows(text)
        # A page goes on about its subject as "she" once it has named her: the claim's subject, where the passage
        # opens by naming it, is read into every window, so the best sentence of "X never married" is "She never
        # married." and not the opening sentence that has X's whole name (whose missing "never" read as a
        # contradiction). A passage that opens otherwise (a later chunk of a long page) carries nothing.
        carried = c.subject if c.subject and c.subject <= windows[0].content else frozenset()

        # Among windows that hold as much of the claim's words, one that agrees with it on negation is its reading;
        # among windows that hold all of them, first one that has more of its numbers ("the sixth president" is
        # read against "was the sixth president", not against "its president from 1901", which the subject carried
        # into it made as full; a window holding only part of the claim is not chosen for a number it shares).
        def fit(s: Analysis, carried: frozenset[str] = carried) -> tuple[float, int, bool, int]:
            covered = _weighted(c.content, s.content | carried, idf, total)
            numbers = len(c.numbers & s.numbers) if covered >= 1.0 - 1e-9 else 0
            return (covered, numbers, s.negated == c.negated, -len(s.content))

        best = max(windows, key=fit)
        best_content = best.content | carried
        missing = c.content - p.content
        name_best = _share(len(c.names & best_content), len(c.names))
        cov_best = _share(len(c.content & best_content), n_content)
        rows[i, :_BASE] = (
            _share(len(c.content & p.content), n_content),
            cov_best,
            _weighted(c.content, p.content, idf, total),
            _weighted(c.content, best_content, idf, total),
            _share(len(c.names & p.content), len(c.names)) if c.names else 1.0,
            name_best if c.names else 1.0,
            float(not c.names),
            _share(len(claim_bigrams & p.bigrams), len(claim_bigrams)),
            _share(len(claim_bigrams & best.bigrams), len(claim_bigrams)),
            max((idf[w] for w in missing), default=0.0),
            _share(len(c.content & best_content), len(best_content)),
            float(bool(c.numbers)),
            _share(len(c.numbers & p.numbers), len(c.numbers)),
            float(bool(c.numbers) and bool(best.numbers) and not (c.numbers & best.numbers)),
            float(bool(c.years) and bool(p.years) and not (c.years <= p.years)),
            float(bool(c.months) and bool(p.months) and not (c.months & p.months)),
            float(c.negated != best.negated),
            float(bool(c.names) and cov_best >= 0.5 and name_best < 1.0),
            float(len(c.names - p.content)),
            math.log1p(len(best.names - c.content)),
            float(bool(c.numbers) and bool(best.numbers - c.numbers) and not c.numbers <= best.numbers),
            float(c.superlative),
            float(any(opposite.get(w, frozenset()) & best.content for w in c.content - best_content)),
            math.log1p(len(p.tokens)),
            math.log1p(len(c.tokens)),
        )
        if predicate:
            rows[i, _BASE:] = (
                _share(len(said & p.content), len(said)),
                _share(max((len(said & w.content) for w in windows), default=0), len(said)),
            )
    return rows


CLAIM_FEATURE_NAMES: tuple[str, ...] = (
    "max_support",  # the stance model's best P(support) over the passages
    "max_refute",
    "mean_irrelevant",
    "max_idf_coverage",
    "max_coverage_best",
    "names_missing_all",  # the claim's names that no passage has
    "numbers_missing_all",  # 1 when some number of the claim is in no passage
    "share_missing_all",  # share of the claim's content words that no passage has
    "any_year_conflict",
    "any_number_other",
    "claim_has_numbers",
    "superlative",
    "log_claim_len",
)


# The pair columns :func:`claim_features` reads.
CLAIM_PAIR_COLUMNS: tuple[str, ...] = ("idf_coverage", "coverage_best", "year_conflict", "number_other")


def claim_features(
    claim: str, passages: Sequence[str], pairs: NDArray[np.float64], support: NDArray[np.float64],
    refute: NDArray[np.float64], irrelevant: NDArray[np.float64], names: Sequence[str] = FEATURE_NAMES,
) -> NDArray[np.float64]:  # fmt: skip
    """One row of :data:`CLAIM_FEATURE_NAMES` for a claim, from its passages, their pair features (the columns
    ``names``, which must include :data:`CLAIM_PAIR_COLUMNS`) and stances."""
    c = analyse(claim)
    full = [analyse(p) for p in passages]
    words: frozenset[str] = frozenset().union(*(p.content for p in full))
    numbers: frozenset[str] = frozenset().union(*(p.numbers for p in full))
    column = {name: i for i, name in enumerate(names)}

    def best(name: str) -> float:
        return float(pairs[:, column[name]].max()) if len(pairs) else 0.0

    return np.array(
        [
            float(support.max()) if len(support) else 0.0,
            float(refute.max()) if len(refute) else 0.0,
            float(irrelevant.mean()) if len(irrelevant) else 1.0,
            best("idf_coverage"),
            best("coverage_best"),
            float(len(c.names - words)),
            float(bool(c.numbers - numbers)),
            _share(len(c.content - words), len(c.content)),
            best("year_conflict"),
            best("number_other"),
            float(bool(c.numbers)),
            float(c.superlative),
            math.log1p(len(c.tokens)),
        ],
        dtype=np.float64,
    )
