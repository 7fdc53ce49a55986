"""Text helpers of the store: passages on sentence boundaries, retrieval tokens and page-local BM25.

Passages are cut with a regular expression rather than a full sentence splitter: importing a
Wikipedia dump must run at tens of thousands of passages per second.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator, Sequence

from vocabulary import RETRIEVAL_STOPWORDS
from vocabulary import fold_name as fold

MIN_WORDS = 100
TARGET_WORDS = 200
MAX_WORDS = 250

_SENTENCE_END = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"')\]]))\s+(?=[\"'(\[]?[A-Z0-9])|\n\s*\n|\n")
_WORD = re.compile(r"\w+")
_NON_ASCII_LETTER = re.compile(r"[^\W\x00-\x7f]")
STOPWORDS = RETRIEVAL_STOPWORDS


def _lower(text: str) -> str:
    # fold() without collapsing spaces: only word characters matter to the tokenizer.
    return text.lower() if text.isascii() else fold(text)


def sentences(text: str) -> Iterator[str]:
    """Sentences (or lines) of ``text``, stripped, empty ones dropped."""
    for part in _SENTENCE_END.split(text):
        part = part.strip()
        if part:
            yield part


def split_passages(text: str, target: int = TARGET_WORDS, max_words: int = MAX_WORDS) -> list[str]:
    """Cut ``text`` into passages of about ``MIN_WORDS``-``max_words`` words on sentence boundaries.

    A text of at most ``max_words`` words stays one passage; a sentence longer than ``max_words`` is
    cut between words.
    """
    words = text.split()
    if len(words) <= max_words:
        return [" ".join(words)] if words else []
    out: list[str] = []
    current: list[str] = []
    for sentence in sentences(text):
        sw = sentence.split()
        while len(sw) > max_words:
            if current:
                out.append(" ".join(current))
                current = []
            out.append(" ".join(sw[:target]))
            sw = sw[target:]
        if current and len(current) + len(sw) > target and len(current) >= MIN_WORDS:
            out.append(" ".join(current))
            current = []
        elif current and len(current) + len(sw) > max_words:
            out.append(" ".join(current))
            current = []
        current.extend(sw)
    if current:
        if out and len(current) < MIN_WORDS // 2 and len(out[-1].split()) + len(current) <= max_words:
            out[-1] = f"{out[-1]} {' '.join(current)}"
        else:
            out.append(" ".join(current))
    return out


def _stem(token: str) -> str:
    if len(token) > 4 and token.endswith("ies"):
        return token[:-3] + "y"
    if len(token) > 3 and token.endswith("s") and not token.endswith(("ss", "us", "is")):
        return token[:-1]
    return token


def terms(text: str) -> list[str]:
    """Retrieval terms of ``text``: folded words without stop words, lightly stemmed."""
    return [_stem(t) for t in _WORD.findall(_lower(text)) if t not in STOPWORDS and (len(t) > 1 or t.isdigit())]


def bm25_scores(query: str, docs: Sequence[str], k1: float = 1.2, b: float = 0.75) -> list[float]:
    """BM25 of ``query`` against each of ``docs``, with document frequencies taken from ``docs`` alone.

    score(d) = Σ_t idf(t) · tf(t,d)·(k1+1) / (tf(t,d) + k1·(1 − b + b·|d|/avgdl)),
    idf(t) = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5)).
    """
    q = set(terms(query))
    if not q or not docs:
        return [0.0] * len(docs)
    counts = [Counter(terms(d)) for d in docs]
    lengths = [sum(c.values()) for c in counts]
    avgdl = (sum(lengths) / len(lengths)) or 1.0
    n = len(docs)
    idf = {t: math.log(1.0 + (n - df + 0.5) / (df + 0.5)) for t in q if (df := sum(1 for c in counts if t in c))}
    scores = []
    for c, dl in zip(counts, lengths, strict=True):
        s = 0.0
        for t, w in idf.items():
            tf = c.get(t, 0)
            if tf:
                s += w * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl))
        scores.append(s)
    return scores


def folded_words(text: str) -> str:
    """The words of ``text`` that hold a letter outside ASCII, transliterated, once each: what the store
    indexes beside the text, so that "Wladyslaw" finds "Władysław" and "Strasse" "Straße" (SQLite's
    ``remove_diacritics`` folds "é" but leaves "ł", "ø", "ß", "æ" and other scripts as they are).

    >>> folded_words("Władysław Szpilman was born in Sosnowiec; Władysław studied in Wrocław.")
    'wladyslaw wroclaw'
    """
    if text.isascii():
        return ""
    return " ".join(dict.fromkeys(fold(w) for w in dict.fromkeys(_non_ascii_words(text))))


def _non_ascii_words(text: str) -> Iterator[str]:
    # From each letter outside ASCII out to its word's ends: a passage is read once, not word by word
    # (a third of the time of splitting it into words, and nothing to do past its dashes and quotes).
    end = 0
    for m in _NON_ASCII_LETTER.finditer(text):
        if m.start() < end:
            continue
        start = m.start()
        while start and (text[start - 1].isalnum() or text[start - 1] == "_"):
            start -= 1
        word = _WORD.match(text, start)
        assert word is not None
        end = word.end()
        yield word.group(0)


def fts_terms(query: str, max_terms: int = 16) -> list[str]:
    """The distinct words of ``query`` as the FTS index holds them (folded, unstemmed), stop words dropped."""
    seen: dict[str, None] = {}
    for t in _WORD.findall(fold(query)):
        if t not in STOPWORDS and len(seen) < max_terms:
            seen.setdefault(t)
    return list(seen)


def bm25_with_idf(idf: dict[str, float], doc: str, k1: float = 1.2, b: float = 0.75, avgdl: float = 100.0) -> float:
    """BM25 of one document for terms whose idf is known (index-form terms, see ``fts_terms``)."""
    if not idf:
        return 0.0
    tokens = _WORD.findall(_lower(doc))
    counts = Counter(t for t in tokens if t in idf)
    norm = k1 * (1 - b + b * len(tokens) / avgdl)
    return sum(idf[t] * tf * (k1 + 1) / (tf + norm) for t, tf in counts.items())
