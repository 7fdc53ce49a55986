"""Verification (Factcheck-Bench steps 4–6): evidence passages of one entity, their stance towards a
fact, and the verdict.

For each (fact, entity) pair the best ``k`` passages of the entity's page are retrieved with the
query "<name> <fact>" (FActScore's Retrieve→LM query), the stance model scores each passage, and
the verdict is decided here:

- supported when the best support probability reaches ``support`` and is at least the best refute
  probability (PARTIAL when that passage's own label is partial support);
- refuted when the best refute probability reaches ``refute`` and beats the best support;
- otherwise not enough evidence (IRRELEVANT).

Verdicts are cached by (store version, model version, entity, normalised fact, settings).
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from pathlib import Path

from schemas.check import Evidence
from schemas.enums import Stance
from schemas.knowledge import Passage
from scoring.counts import count_contradicted, count_dated, count_stated
from scoring.crossed import Stated, crossed_values, fact_stated, own_values, unheard_values
from scoring.durations import dated_in
from scoring.hours import hours_bounded
from scoring.idioms import read_events
from scoring.kin import KIN_RULES
from scoring.meaning import (
    named_awards,
    negated_value_stated,
    negation_conflict,
    negation_stated,
    rank_conflict,
    unlisted_awards,
)
from scoring.measures import measure_contradicted, measure_stated
from scoring.named_roles import swapped_role
from scoring.numerals import in_digits
from scoring.protocols import DocumentGrounded, KnowledgeSource, StanceLike, StanceModel, VerdictCache
from scoring.relative_dates import resolve
from scoring.rewordings import INVERSION_RULES, REWORDING_RULES, rank_placeable, rank_placed
from scoring.roles import (
    IDIOM_ROLE,
    Value,
    contradicted_values,
    misplaced_values,
    rebound_years,
    role_rivals,
    stated_in,
    values_in_role,
)
from scoring.rules import MODEL, Rule, register, run
from scoring.subject_forms import in_page_terms
from vocabulary import FUNCTION_WORDS, RANK_PARAPHRASES, RANK_PLAIN, fold_claim
from vocabulary.fold import UPPERCASE
from vocabulary.forms import place_keys, word_keys
from vocabulary.life_events import EVENT_WORDS

NO_SHARED_CONTENT = "no-shared-content"
KEY_TERMS_MISSING = "key-terms-missing"
NAME_MISSING = "name-missing"
MISPLACED_VALUE = "misplaced-value"
CONTRADICTED_VALUE = "contradicted-value"
REBOUND_YEAR = "rebound-year"
CONTRADICTED_COUNT = "contradicted-count"
CONTRADICTED_MEASURE = "contradicted-measure"
CONTRADICTED_HOURS = "contradicted-hours"
UNHEARD_VALUE = "unheard-value"
UNMATCHED_NUMBER = "unmatched-number"
STATED_OUTRIGHT = "stated-outright"
STATED_COUNT = "stated-count"
COUNTED_DATES = "counted-dates"
STATED_MEASURE = "stated-measure"
DATED_DURATION = "dated-duration"
WORK_YEAR = "work-year"
SURNAME_READING = "surname-reading"
SUBJECT_RESPELLING = "subject-respelling"
NEGATION_MISMATCH = "negation-mismatch"
NEGATED_VALUE = "negated-value"
NEGATION_STATED = "negation-stated"
RANK_MISMATCH = "rank-mismatch"
SWAPPED_ROLE = "swapped-role"
UNLISTED_AWARD = "unlisted-award"
ROMAN_NUMERAL_TERMS = "roman-numeral-terms"
ACRONYM_TERMS = "acronym-terms"
NUMBERS_AS_CONTENT = "numbers-as-content"
WORD_FORMS = "word-forms"
NUMERAL_READING = "numeral-reading"
RELATIVE_DATE = "relative-date"
IDIOM_READING = "idiom-reading"
RANK_READING = "rank-reading"
CROSSED_VALUE = "crossed-value"

# Passages read of a page whose every relation a rule reads (a person's page is a few dozen at most).
_WHOLE_PAGE = 200

_WORK_YEAR_FACT = re.compile(r"^(?P<title>.+?) was (?:published|released|completed) in (?P<year>\d{4})\.?$")


def work_year_in(fact: str, texts: Sequence[str]) -> int | None:
    """The index of the first text that writes the fact's work with its year in parentheses, or None."""
    m = _WORK_YEAR_FACT.match(fact.strip())
    if m is None:
        return None
    title = re.escape(m.group("title").strip()).replace("\\ ", r"\s+")
    written = re.compile(rf"(?<![\w]){title}\s*\(\s*{m.group('year')}\s*\)", re.IGNORECASE)
    return next((i for i, t in enumerate(texts) if written.search(t)), None)


# Refute probability given to a fact whose value the page holds only in another role.
_MISPLACED = 0.8
# Support probability given to a fact one page sentence states outright.
_STATED = 0.75


@dataclass(frozen=True)
class VerifyConfig:
    """Thresholds and retrieval depth of the verify step."""

    support: float = 0.5
    refute: float = 0.5
    passages_k: int = 5
    evidence_k: int = 2
    # Share of a fact's key terms (numbers, proper names other than the subject's) that the passages
    # must contain for the fact to count as supported.
    key_terms: float = 0.5
    # Names of rules (``scoring.rules``) switched off.
    rules_off: frozenset[str] = frozenset()

    def on(self, name: str) -> bool:
        return name not in self.rules_off


@dataclass(frozen=True)
class EntityVerdict:
    """The verdict of one fact against one entity's page, with the passages that decided it."""

    entity: str
    stance: Stance
    support: float
    refute: float
    evidence: tuple[Evidence, ...] = ()
    # Share of the fact's key terms (years, names, places) the page mentions; None when it has none.
    key_terms: float | None = None
    # What decided the stance: the stance model (``MODEL``) or a rule's name.
    decided_by: str = MODEL

    @property
    def supported(self) -> bool:
        return self.stance in (Stance.SUPPORT, Stance.PARTIAL)

    def stamped(self, name: str) -> EntityVerdict:
        """This verdict as decided by the rule ``name``."""
        return replace(self, decided_by=name)

    @property
    def refuted(self) -> bool:
        return self.stance is Stance.REFUTE

    def to_json(self) -> bytes:
        return json.dumps(
            {
                "entity": self.entity,
                "stance": self.stance.value,
                "support": self.support,
                "refute": self.refute,
                "evidence": [e.model_dump(mode="json") for e in self.evidence],
                "key_terms": self.key_terms,
                "decided_by": self.decided_by,
            }
        ).encode()

    @classmethod
    def from_json(cls, raw: bytes) -> EntityVerdict:
        doc = json.loads(raw)
        return cls(
            entity=doc["entity"],
            stance=Stance(doc["stance"]),
            support=float(doc["support"]),
            refute=float(doc["refute"]),
            evidence=tuple(Evidence.model_validate(e) for e in doc["evidence"]),
            key_terms=doc.get("key_terms"),
            decided_by=doc.get("decided_by", MODEL),
        )


def decide(scores: list[StanceLike], config: VerifyConfig) -> tuple[Stance, float, float, int]:
    """(stance, best support, best refute, index of the deciding passage) for one fact's passages."""
    if not scores:
        return Stance.IRRELEVANT, 0.0, 0.0, -1
    best_s = max(range(len(scores)), key=lambda i: scores[i].support)
    best_r = max(range(len(scores)), key=lambda i: scores[i].refute)
    s, r = scores[best_s].support, scores[best_r].refute
    if s >= config.support and s >= r:
        stance = Stance.PARTIAL if scores[best_s].stance is Stance.PARTIAL else Stance.SUPPORT
        return stance, s, r, best_s
    if r >= config.refute and r > s:
        return Stance.REFUTE, s, r, best_r
    return Stance.IRRELEVANT, s, r, best_s


@lru_cache(maxsize=1)
def code_version() -> str:
    """A digest of the code that decides verdicts (``scoring/`` and ``vocabulary/`` sources, the stance
    weights): part of every verdict cache key, so a worker running other rules never reads verdicts cached by
    another version from a shared Redis."""
    digest = hashlib.sha256()
    for package in (Path(__file__).parent, Path(__file__).parent.parent / "vocabulary"):
        for path in sorted(package.rglob("*")):
            if path.suffix in (".py", ".json") and path.is_file():
                digest.update(path.relative_to(package.parent).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


@lru_cache(maxsize=8192)
def _folded_passage(text: str) -> str:
    return " " + fold_claim(text) + " "


@dataclass
class EvidenceVerifier:
    """Verifies facts against entities of one knowledge source; one instance per checked answer.

    A page with fewer than ``passages_k`` passages is fetched once and reused for every fact.
    Thread-safe for reading; the instance is not shared between answers.
    """

    kb: KnowledgeSource
    model: StanceModel
    cache: VerdictCache | None = None
    config: VerifyConfig = field(default_factory=VerifyConfig)
    calls: int = 0
    cache_hits: int = 0
    _pages: dict[str, list[Passage] | None] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    # The store's version, read once: one answer's verdicts are keyed by the store it was checked against.
    _version: str | None = None
    # What every cache key of this verifier starts and ends with (``_key``).
    _key_ends: tuple[str, str] | None = None
    # Cached verdicts read ahead (``prefetch``) or written in this check, and the keys known to be missing;
    # verdicts computed here go to the cache together, at ``flush``.
    _read: dict[str, bytes] = field(default_factory=dict)
    _missing: set[str] = field(default_factory=set)
    _unsaved: dict[str, bytes] = field(default_factory=dict)
    # Titles of the request's own documents when the source is one (``DocumentGrounded``), read once: a check of
    # a runtime protocol costs tens of microseconds, and every (fact, page) case asks.
    _documents: frozenset[str] | None = None
    # Verdicts by cache key as objects, with a cache: those this verifier computed or read (what the cache serves
    # for those keys) and, for the re-check of a revision, those its check had. A verdict found here is neither
    # read from the cache nor decoded again.
    known: dict[str, EntityVerdict] = field(default_factory=dict)
    # Whole pages and the titles of namesakes' pages, read once per answer (``crossed-value``).
    _whole: dict[str, list[Passage]] = field(default_factory=dict)
    _namesakes: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def own_document(self, entity: str) -> bool:
        """Whether ``entity`` is one of the request's own documents (a tool's output, a retrieved document)."""
        if self._documents is None:
            kb = self.kb
            titles = [d.title for d in kb.documents] if isinstance(kb, DocumentGrounded) else []
            self._documents = frozenset(titles)
        return entity in self._documents

    def whole_page(self, entity: str) -> list[Passage]:
        """Every passage of the page ``entity`` (read once per answer)."""
        with self._lock:
            known = self._whole.get(entity)
        if known is None:
            known = self.kb.passages(entity, base_name(entity), k=_WHOLE_PAGE)
            with self._lock:
                self._whole[entity] = known
        return known

    def namesakes(self, entity: str) -> tuple[str, ...]:
        """Titles of the store's other pages with the same name as ``entity``'s ("Callum Rennick (rower)" for
        "Callum Rennick (bishop)"): a function of the store, so verdicts that read them stay cacheable by it."""
        with self._lock:
            known = self._namesakes.get(entity)
        if known is None:
            base = base_name(entity)
            key = fold_claim(base)
            known = tuple(
                r.title for r in self.kb.candidates(base) if r.title != entity and fold_claim(r.base_name) == key
            )
            with self._lock:
                self._namesakes[entity] = known
        return known

    def _key(self, fact: str, entity: str) -> str:
        """The cache key of ``fact`` against ``entity``: ``verdict/4``, the code, store and model versions, the
        entity, the folded fact, the settings and the rules switched off, joined by ``\x1f``. What does not depend
        on the fact or the entity is joined once per verifier (every (fact, page) case asks for a key)."""
        ends = self._key_ends
        if ends is None:
            c = self.config
            if self._version is None:
                self._version = self.kb.version
            head = "\x1f".join(("verdict/4", code_version(), self._version, self.model.version))
            tail = "\x1f".join((f"{c.support}:{c.refute}:{c.passages_k}:{c.key_terms}", ",".join(sorted(c.rules_off))))
            ends = self._key_ends = (head, tail)
        return "\x1f".join((ends[0], entity, fold_claim(fact), ends[1]))

    def prefetch(self, pairs: Iterable[tuple[str, str]]) -> None:
        """Read the cached verdicts of these (fact, entity) pairs in one round trip (a cache with ``get_many``),
        instead of one per :meth:`against`."""
        get_many = getattr(self.cache, "get_many", None)
        if get_many is None:
            return
        with self._lock:
            keys = list(dict.fromkeys(self._key(f, e) for f, e in pairs))
            known = self.known
            keys = [
                k
                for k in keys
                if k not in known and k not in self._read and k not in self._missing and k not in self._unsaved
            ]
        if not keys:
            return
        values = get_many(keys)
        with self._lock:
            for key, raw in zip(keys, values, strict=True):
                if raw is None:
                    self._missing.add(key)
                else:
                    self._read[key] = raw

    def _cached(self, key: str) -> bytes | None:
        assert self.cache is not None
        with self._lock:
            raw = self._unsaved.get(key) or self._read.get(key)
            if raw is not None or key in self._missing:
                return raw
        return self.cache.get(key)

    def against(self, fact: str, entity: str, name: str) -> EntityVerdict:
        """The verdict of ``fact`` against the page ``entity`` (``name`` goes into the retrieval query)."""
        key = self._key(fact, entity)
        found = self.known.get(key)
        if found is not None:
            return found
        if self.cache is not None:
            raw = self._cached(key)
            if raw is not None:
                try:
                    verdict = EntityVerdict.from_json(raw)
                    self.cache_hits += 1
                    self.known[key] = verdict
                    return verdict
                except (ValueError, KeyError):
                    pass
        verdict = self._compute(fact, entity, name)
        if self.cache is not None:  # without a cache, a verdict is computed at each ask, as it always was
            self.known[key] = verdict
            with self._lock:
                self._unsaved[key] = verdict.to_json()
            if getattr(self.cache, "set_many", None) is None:
                self.flush()
        return verdict

    def flush(self) -> None:
        """Write the verdicts computed since the last flush to the cache (together, where it can)."""
        with self._lock:
            items, self._unsaved = list(self._unsaved.items()), {}
            self._read.update(items)
        if not items or self.cache is None:
            return
        set_many = getattr(self.cache, "set_many", None)
        if set_many is not None:
            set_many(items)
        else:
            for key, value in items:
                self.cache.set(key, value)

    def _passages(self, fact: str, entity: str, name: str) -> list[Passage]:
        k = self.config.passages_k
        with self._lock:
            known = self._pages.get(entity, ...)
        if known is ...:
            first = self.kb.passages(entity, f"{name} {fact}", k=k)
            with self._lock:
                self._pages[entity] = first if len(first) < k else None
            return first
        if known is not None:
            return known
        return self.kb.passages(entity, f"{name} {fact}", k=k)

    def _compute(self, fact: str, entity: str, name: str) -> EntityVerdict:
        passages = self._passages(fact, entity, name)
        if not passages:
            return EntityVerdict(entity, Stance.IRRELEVANT, 0.0, 0.0, decided_by="no-passages")
        case = VerifyCase(self, fact, entity, name, passages)
        return run(VERIFY_RULES, case, self.config.rules_off) or case.model_verdict()


_STOP = FUNCTION_WORDS

_DISAMBIGUATOR = re.compile(r"\s*\([^()]*\)\s*$")


def base_name(title: str) -> str:
    """A page title without its disambiguator: "Callum Rennick (bishop)" → "Callum Rennick"."""
    return _DISAMBIGUATOR.sub("", title).strip() or title


def _surname_reading(fact: str, name: str) -> str:
    """``fact`` with a long subject name (three words or more, or a hyphenated one) cut to its last word."""
    words = name.split()
    if name not in fact or len(words) < 2 or (len(words) < 3 and "-" not in name):
        return fact
    return fact.replace(name, words[-1], 1)


def _content(w: str) -> bool:
    return len(w) > 2 and w not in _STOP


@lru_cache(maxsize=8192)
def _content_words(text: str) -> frozenset[str]:
    """The words of ``text`` a fact can be about: words of three letters or more that are not function words
    ("nine", "1952", "organist")."""
    return frozenset(w for w in re.findall(r"\w+", fold_claim(text)) if _content(w))


@lru_cache(maxsize=8192)
def _counted(text: str) -> frozenset[tuple[str, str]]:
    """The numbers of ``text`` in digits, spelled-out ones too ("47", "eleven" as "11", "20.31" as "20" and "31"),
    each with the content word it counts when one follows it: "nine hours" is ("9", "hour"), "9 losses" is ("9",
    "losse"); a number with none ("at the age of 11") is (number, "")."""
    words = re.findall(r"\w+", fold_claim(in_digits(text)))
    out: set[tuple[str, str]] = set()
    for i, w in enumerate(words):
        if w.isdigit():
            after = words[i + 1] if i + 1 < len(words) else ""
            noun = after if _content(after) and not after.isdigit() else ""
            out.add((w, noun[:-1] if noun.endswith("s") else noun))
    return frozenset(out)


def _shares_number(fact: str, name: str, texts: list[str]) -> bool:
    """Whether a number of the fact (beyond the name's) is a number of the passages counting the same thing: one
    the fact gives no noun ("aged 18", "a best of 20.31") or the noun a passage gives it ("nine hours" and "9
    hours", not "9 losses"): a short number alone is on every page."""
    own = {n for n, _ in _counted(name)}
    counted = [(n, noun) for n, noun in _counted(fact) if n not in own]
    if not counted:
        return False
    held = set().union(*(_counted(t) for t in texts))
    numbers = {n for n, _ in held}
    return any(n in numbers and (not noun or (n, noun) in held) for n, noun in counted)


def _keys_of(words: Iterable[str], keys: Callable[[str], frozenset[str]] = word_keys) -> frozenset[str]:
    """The keys of ``words`` (``vocabulary.forms``): a word's plural, its place or people, its field."""
    return frozenset().union(*(keys(w) for w in words))


@lru_cache(maxsize=8192)
def _text_keys(text: str, places: bool = False) -> frozenset[str]:
    """The keys of every word of a passage (``_keys_of``; a place's forms alone with ``places``), read once however
    many facts are checked against it."""
    return _keys_of(re.findall(r"\w+", fold_claim(text)), place_keys if places else word_keys)


def _shares_content(fact: str, name: str, passages: list[Passage], off: frozenset[str] = frozenset()) -> bool:
    words = _content_words(fact) - _content_words(name)
    if not words and not _counted(fact):
        return True
    if words and any(words & _content_words(p.text) for p in passages):
        return True
    if words and WORD_FORMS not in off:
        # a place's forms only: a plural shared ("immigrants") lets a wrong nationality reach the model
        keys = _keys_of(words, place_keys)
        if any(keys & _text_keys(p.text, True) for p in passages):
            return True
    return NUMBERS_AS_CONTENT not in off and _shares_number(fact, name, [p.text for p in passages])


# Capitalised words too common in names of institutions to tell two pages apart.
_GENERIC = frozenset(
    "university college school church party prize award awards society company club team national royal united "
    "states kingdom city county house army navy air force court council congress parliament senate cup league "
    "championship olympics olympic games institute academy museum hospital department ministry board association "
    "corporation group science sciences technology arts american british english french german scottish irish canadian "
    "australian new north south "
    "east west saint st sir mr mrs dr the a an in on of and he she his her".split()
)


# A sequel or a regnal number ("Creed II", "George III") is as exact as a year.
_ROMAN = re.compile(r"(?:II|III|IV|VI|VII|VIII|IX|XI|XII)")
_WORD = re.compile(r"[\w'’.-]+")
_POSSESSIVE = re.compile(r"['’]s$")
_YEARISH = re.compile(r"\d{3,4}s?")


def _key_terms(fact: str, name: str, off: frozenset[str] | None = None) -> frozenset[str]:
    """Numbers and capitalised words of ``fact`` other than the subject's name and generic words."""
    return _fact_key_terms(fact, name, frozenset() if off is None else off)


@lru_cache(maxsize=8192)
def _fact_key_terms(fact: str, name: str, off: frozenset[str]) -> frozenset[str]:
    """:func:`_key_terms`, once per fact: it is checked against every candidate page."""
    name_words = set(fold_claim(name).split())
    words = _WORD.findall(fact)
    out: set[str] = set()
    for i, w in enumerate(words):
        w = _POSSESSIVE.sub("", w).strip(".'’-")
        if not w:
            continue
        folded = fold_claim(w)
        if folded in name_words or folded in _GENERIC or set(folded.split()) <= name_words:
            continue  # a hyphenated name folds into its parts ("Ferrán-Okafor" is "ferran okafor")
        roman = ROMAN_NUMERAL_TERMS not in off and _ROMAN.fullmatch(w)
        if _YEARISH.fullmatch(w) or roman or (i > 0 and w[:1].isupper() and len(w) > 2):
            out.add(folded)
    return frozenset(out)


# Two capitalised words or more, with the small words names carry between them ("Bank of England").
_NAME_RUN = re.compile(rf"{UPPERCASE}[\w'’-]*(?:\s+(?:of|the|for|and|de|in|on)?\s*{UPPERCASE}[\w'’-]*)+")
# The same without "in" / "on" between the words, for initials ("Massachusetts Institute of Technology").
_INITIALLED_RUN = re.compile(rf"{UPPERCASE}[\w'’-]*(?:\s+(?:of|the|and|for|de)?\s*{UPPERCASE}[\w'’-]*)+")


def _name_missing(fact: str, name: str, passages: list[Passage]) -> bool:
    """Whether the fact names something (two capitalised words or more, not at its start and not the subject's
    name) of which the passages have no distinctive word: every word of the name is generic ("Prize", "Cup")
    or missing."""
    return bool(_missing_names(fact, name, tuple(_folded_passage(p.text) for p in passages)))


@lru_cache(maxsize=8192)
def _missing_names(fact: str, name: str, texts: tuple[str, ...]) -> tuple[str, ...]:
    name_words = set(fold_claim(name).split())
    out: list[str] = []
    for m in _NAME_RUN.finditer(fact):
        if m.start() == 0:
            continue
        words = {fold_claim(_POSSESSIVE.sub("", w)) for w in m.group(0).split() if w[:1].isupper()}
        own = {w for w in words if w and w not in name_words and w not in _GENERIC and len(w) > 2}
        if own and not any(f" {w} " in text for w in own for text in texts):
            out.append(m.group(0))
    return tuple(out)


def _acronyms(passages: list[Passage]) -> set[str]:
    """Initials of the passages' capitalised names: "Massachusetts Institute of Technology" -> "mit"."""
    return set().union(*(_passage_acronyms(p.text) for p in passages))


@lru_cache(maxsize=8192)
def _passage_acronyms(text: str) -> frozenset[str]:
    """:func:`_acronyms` of one passage, read once however many facts are checked against it."""
    return frozenset(
        "".join(w[0] for w in m.group(0).split() if w[:1].isupper()).lower() for m in _INITIALLED_RUN.finditer(text)
    )


# Second parts of a compound that says how its first part bears on the person: "Scranton-born", "Lisbon-based".
_COMPOUND_TAILS = frozenset("born based raised bred educated trained grown".split())


def _parts_found(term: str, texts: list[str]) -> bool:
    """Whether a hyphenated term's name parts are all in the passages, however they join them: "scranton-born"
    by "born in Scranton", "nigerian-spanish" by "of Spanish and Nigerian descent"."""
    if "-" not in term and " " not in term:  # folding turns a hyphen into a space
        return False
    parts = [p for p in re.split(r"[-\s]+", term) if p and p not in _COMPOUND_TAILS]
    return bool(parts) and all(any(re.search(rf"(?<!\w){re.escape(p)}(?!\w)", text) for text in texts) for p in parts)


def _key_terms_found(fact: str, name: str, passages: list[Passage], off: frozenset[str] | None = None) -> float | None:
    """Share of the fact's key terms that appear (as words) in the passages; None when it has none.

    Numbers (and regnal or sequel numbers) are exact: one the passages never mention makes the share 0.
    """
    off = frozenset() if off is None else off
    terms = _key_terms(fact, name, off)
    if not terms:
        return None
    texts = [_folded_passage(p.text) for p in passages]
    found = {t for t in terms if any(f" {t} " in text for text in texts) or _parts_found(t, texts)}
    if WORD_FORMS not in off and terms - found:
        keys = frozenset().union(*(_text_keys(p.text) for p in passages))
        found |= {t for t in terms - found if t.isalpha() and word_keys(t) & keys}
    if ACRONYM_TERMS not in off:
        short = {t for t in terms - found if t.isalpha() and 2 <= len(t) <= 5}
        found |= short & _acronyms(passages) if short else set()
    roman = ROMAN_NUMERAL_TERMS not in off
    if any((t[:1].isdigit() or (roman and _ROMAN.fullmatch(t.upper()))) and t not in found for t in terms):
        return 0.0
    return len(found) / len(terms)


@dataclass
class _ModelReading:
    """The stance model's scores of the passages for the reading of the fact it supports best."""

    scores: list[StanceLike]
    stance: Stance
    support: float
    refute: float
    best: int
    decided_by: str


@dataclass(frozen=True)
class _Claim:
    """Another reading of the fact for the stance model (a verify reading rule's decision)."""

    text: str
    decided_by: str = ""

    def stamped(self, name: str) -> _Claim:
        return replace(self, decided_by=name)


@dataclass
class VerifyCase:
    """One fact against one entity's passages: what the verify rules read. The stance model is asked once,
    when a rule or the final verdict first needs it (a rule that decides before it saves the call)."""

    verifier: EvidenceVerifier
    fact: str
    entity: str
    name: str
    passages: list[Passage]
    _model: _ModelReading | None = None

    @property
    def config(self) -> VerifyConfig:
        return self.verifier.config

    @cached_property
    def texts(self) -> list[str]:
        return [p.text for p in self.passages]

    @cached_property
    def exact(self) -> bool:
        """Whether the page is one of the request's own documents (a tool's output, a retrieved document): its
        numbers are data to be read exactly, not prose that may round them."""
        return self.verifier.own_document(self.entity)

    @property
    def names(self) -> tuple[str, str]:
        """The subject as the answer names it and the page's title."""
        return (self.name, self.entity)

    @cached_property
    def keys(self) -> float | None:
        return _key_terms_found(self.fact, self.name, self.passages, self.config.rules_off)

    def model(self) -> _ModelReading:
        """The stance model's reading: the fact's, or a better-supported one of ``VERIFY_READINGS``."""
        if self._model is not None:
            return self._model
        v = self.verifier
        v.calls += 1
        scores = list(v.model.score(self.fact, self.texts))
        decided_by = MODEL
        for reading in VERIFY_READINGS:
            claim = run((reading,), self, self.config.rules_off)
            if claim is None or claim.text == self.fact:
                continue
            other = list(v.model.score(claim.text, self.texts))
            if max(x.support for x in other) > max(x.support for x in scores):
                scores, decided_by = other, claim.decided_by
        stance, s, r, best = decide(scores, self.config)
        self._model = _ModelReading(scores, stance, s, r, best, decided_by)
        return self._model

    def model_verdict(self) -> EntityVerdict:
        m = self.model()
        return self._verdict(m.stance, m.support, m.best, m.decided_by)

    def _verdict(self, stance: Stance, s: float, best: int, decided_by: str) -> EntityVerdict:
        m = self.model()
        scores = m.scores
        order = sorted(range(len(scores)), key=lambda i: -max(scores[i].support, scores[i].refute))
        if best >= 0:
            order.remove(best)
            order.insert(0, best)
        evidence = tuple(
            Evidence(
                title=self.passages[i].title,
                text=self.passages[i].text,
                stance=scores[i].stance,
                score=round(float(scores[i].support if scores[i].support >= scores[i].refute else scores[i].refute), 4),
            )
            for i in order[: self.config.evidence_k]
        )
        return EntityVerdict(self.entity, stance, round(s, 4), round(m.refute, 4), evidence, self.keys, decided_by)

    def supported_at(self, index: int) -> EntityVerdict:
        """Supported by the page sentence at ``index``, whatever the model said (its scores stay as evidence)."""
        return self._verdict(Stance.SUPPORT, max(self.model().support, _STATED), index, MODEL)

    def stated_by(self, index: int) -> EntityVerdict:
        """Supported by the passage at ``index``, the model not asked."""
        ordered = [self.passages[index]] + [p for i, p in enumerate(self.passages) if i != index]
        evidence = tuple(
            Evidence(title=p.title, text=p.text, stance=Stance.SUPPORT, score=_STATED)
            for p in ordered[: self.config.evidence_k]
        )
        return EntityVerdict(self.entity, Stance.SUPPORT, _STATED, 0.0, evidence, self.keys)

    def not_enough(self, with_evidence: bool = True) -> EntityVerdict:
        """Not enough evidence, the model not asked; the passages are kept as evidence (revision looks for the
        right value in them)."""
        if not with_evidence:
            return EntityVerdict(self.entity, Stance.IRRELEVANT, 0.0, 0.0)
        evidence = tuple(Evidence(title=p.title, text=p.text) for p in self.passages[: self.config.evidence_k])
        return EntityVerdict(self.entity, Stance.IRRELEVANT, 0.0, 0.0, evidence, self.keys)

    def refuted(self, holds: Callable[[str], bool]) -> EntityVerdict:
        """Refuted, with the passages that hold what refutes it first as the evidence; the model not asked."""
        held = [p for p in self.passages if holds(p.text)]
        ordered = held + [p for p in self.passages if p not in held]
        evidence = tuple(
            Evidence(title=p.title, text=p.text, stance=Stance.REFUTE, score=_MISPLACED)
            for p in ordered[: self.config.evidence_k]
        )
        return EntityVerdict(self.entity, Stance.REFUTE, 0.0, _MISPLACED, evidence, self.keys)


VerifyRule = Rule[VerifyCase, EntityVerdict]


def _no_shared_content(c: VerifyCase) -> EntityVerdict | None:
    # No passage shares a content word with the fact (beyond the name): nothing can support it.
    if _shares_content(c.fact, c.name, c.passages, c.config.rules_off):
        return None
    return c.not_enough(with_evidence=False)


# A number written in digits: "129.0", "1,250", "4417" of "A-4417", each part of "2026-11-18".
_DIGITS = re.compile(r"\d+(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")


@lru_cache(maxsize=8192)
def digit_numbers(text: str) -> frozenset[float]:
    """The values of the numbers ``text`` writes in digits ("129.0" and "129" are one value).

    >>> sorted(digit_numbers("Order A-4417 came to 1,250.5 EUR on 2026-11-18."))
    [11.0, 18.0, 1250.5, 2026.0, 4417.0]
    """
    return frozenset(float(m.group(0).replace(",", "")) for m in _DIGITS.finditer(text))


def _numeric_words(text: str) -> frozenset[str]:
    return frozenset(w for w in _content_words(text) if not w.isdigit())


def _unmatched_number(c: VerifyCase) -> EntityVerdict | None:
    # "That is 193.86 USD" against a tool's output "converted amount: 139.86 … to: USD": a request's own document
    # gives numbers exactly, so one the fact writes and the document does not is another value, not a rounding.
    if not c.exact:
        return None
    numbers = digit_numbers(c.fact) - digit_numbers(c.name)
    if not numbers or numbers <= frozenset().union(*(digit_numbers(t) for t in c.texts)):
        return None
    words = _numeric_words(c.fact) - _numeric_words(c.name)
    beside = [t for t in c.texts if digit_numbers(t) and words & _numeric_words(t)]
    return c.refuted(lambda t: t in beside) if beside else None


def _key_terms_missing(c: VerifyCase) -> EntityVerdict | None:
    # The page never mentions the fact's years, or most of its names and places: it cannot say this ("served
    # at Willamette University" vs a page without it).
    return c.not_enough() if c.keys is not None and c.keys < c.config.key_terms else None


def _name_missing_rule(c: VerifyCase) -> EntityVerdict | None:
    # The pages never name the prize, club or work the fact names: whatever else they share with it (a year,
    # the subject), they do not say this ("won the Lindeman Prize in 2012" against a page whose 2012 is a cup win).
    return c.not_enough() if _name_missing(c.fact, c.name, c.passages) else None


def _refuting_values(
    find: Callable[..., list[Value]], idioms: str = ""
) -> Callable[[VerifyCase], EntityVerdict | None]:
    """A rule that refutes the fact when ``find`` returns the fact's values the page gives another role or
    another value; the passages holding them come first as evidence. ``idioms`` names the rule that reads a life's
    event told in an idiom in its plain words' role (``find`` is told whether it is on)."""

    def apply(c: VerifyCase) -> EntityVerdict | None:
        if idioms:
            found = find(c.fact, c.texts, c.names, c.config.on(idioms))
        else:
            found = find(c.fact, c.texts, c.names)
        if not found:
            return None
        values = [v.text for v in found]
        return c.refuted(lambda t: any(v in _folded_passage(t) for v in values))

    return apply


def _contradicted_count(c: VerifyCase) -> EntityVerdict | None:
    # "described five previously unknown species" where the page counts three of them.
    nouns = [m.noun for m in count_contradicted(c.fact, c.texts, c.names)]
    return c.refuted(lambda t: any(n in t.lower() for n in nouns)) if nouns else None


def _contradicted_measure(c: VerifyCase) -> EntityVerdict | None:
    # "a 214-metre core" where the page has "a core 412 metres long".
    units = [m.unit for m in measure_contradicted(c.fact, c.texts, c.names)]
    return c.refuted(lambda t: any(u in t.lower() for u in units)) if units else None


def _unlisted_award(c: VerifyCase) -> EntityVerdict | None:
    # "won the PSA Player of the Year award" where the page lists her awards and none is that one.
    if not named_awards(c.fact):
        return None
    found = unlisted_awards(c.fact, c.texts, c.names, frozenset(_acronyms(c.passages)))
    return c.not_enough() if found else None


def _conflicting(
    find: Callable[[str, list[str], tuple[str, str]], int | None],
) -> Callable[[VerifyCase], EntityVerdict | None]:
    """A rule that refutes the fact when ``find`` returns the passage whose clause says it otherwise (the other
    polarity, another rank); that passage leads the evidence."""

    def apply(c: VerifyCase) -> EntityVerdict | None:
        at = find(c.fact, c.texts, c.names)
        if at is None:
            return None
        held = c.passages[at].text
        return c.refuted(lambda t: t == held)

    return apply


def _crossed_value(c: VerifyCase) -> EntityVerdict | None:
    # "the bishop was born in Chester" where the bishop's page has Paisley and his namesake the rower's Chester:
    # a value crossed between namesakes. The page's own value leads the evidence (revision puts it in).
    if c.exact or not fact_stated(c.fact):
        return None
    v = c.verifier
    titles = v.namesakes(c.entity)
    if not titles:
        return None
    base = base_name(c.entity)
    page = v.whole_page(c.entity)
    texts = [p.text for p in page]
    found = crossed_values(c.fact, texts, [[p.text for p in v.whole_page(t)] for t in titles], base)
    if not found:
        return None
    return _refuted_by_own_values(c, found, page, texts, base)


def _refuted_by_own_values(
    c: VerifyCase, found: list[Stated], page: list[Passage], texts: list[str], base: str
) -> EntityVerdict:
    """Refuted, the page's passages holding its own values of the claims ``found`` leading the evidence."""
    values = [value for claim in found for value in own_values(claim, texts, base)]
    held = [p for p in page if any(value in p.text for value in values)]
    ordered = held + [p for p in c.passages if p not in held]
    evidence = tuple(
        Evidence(title=p.title, text=p.text, stance=Stance.REFUTE, score=_MISPLACED)
        for p in ordered[: c.config.evidence_k]
    )
    return EntityVerdict(c.entity, Stance.REFUTE, 0.0, _MISPLACED, evidence, c.keys)


def _unheard_value(c: VerifyCase) -> EntityVerdict | None:
    # "born in Tampere, Finland" where the page has "born 1949 in Oulu, Finland" and no Tampere anywhere: the
    # region the two share let the model support it. The page's own value leads the evidence.
    if c.exact or not fact_stated(c.fact):
        return None
    base = base_name(c.entity)
    page = c.verifier.whole_page(c.entity)
    texts = [p.text for p in page]
    found = unheard_values(c.fact, texts, base)
    if not found:
        return None
    return _refuted_by_own_values(c, found, page, texts, base)


def _negated_value(c: VerifyCase) -> EntityVerdict | None:
    # "was not born in Bergen" where the page says "born 1961 in Oslo": the page gives another value.
    at = negated_value_stated(c.fact, c.texts, c.names)
    return c.stated_by(at) if at is not None else None


def _negation_stated(c: VerifyCase) -> EntityVerdict | None:
    # "never married" where the page says "She never owned a car and never married": the stance model reads two
    # negations no better than one; a page clause about the subject that negates every predicate word says it.
    at = negation_stated(c.fact, c.texts, c.names)
    return c.stated_by(at) if at is not None else None


def _stated_by(test: Callable[[str, list[str], tuple[str, str]], bool]) -> Callable[[VerifyCase], EntityVerdict | None]:
    """A rule that supports the fact the model did not fully support when ``test`` finds a page sentence that
    states it; the first such sentence leads the evidence."""

    def apply(c: VerifyCase) -> EntityVerdict | None:
        if c.model().stance is Stance.SUPPORT or not test(c.fact, c.texts, c.names):
            return None
        at = [i for i, t in enumerate(c.texts) if test(c.fact, [t], c.names)]
        return c.supported_at(at[0]) if at else None

    return apply


def _numeral_reading(c: VerifyCase) -> EntityVerdict | None:
    # "installed forty-eight gas sensors" read as "installed 48 gas sensors" where the page writes digits: the
    # reading's verdict where a rule or the model supports it, or a rule refutes it; else the fact's own.
    digits = in_digits(c.fact)
    if digits == c.fact:
        return None
    # A page that spells the number as the fact does ("a three-year warranty") is read as written, not in digits.
    spelled = set(re.findall(r"[a-z]+", c.fact.lower())) - set(re.findall(r"[a-z]+", digits.lower()))
    if spelled and any(spelled <= set(re.findall(r"[a-z]+", t.lower())) for t in c.texts):
        return None
    # The fact's own verdict stands where a rule decides it (the rules after this one say so again, by their names);
    # the model's, which reads "forty-four" no better than "forty-three", gives way to the reading's.
    own = run(VERIFY_RULES[1:], c, c.config.rules_off) or c.model_verdict()
    if own.decided_by != MODEL and own.stance in (Stance.SUPPORT, Stance.REFUTE):
        return None
    return _read_as(c, digits, refuted_by_model=False)


def _read_as(c: VerifyCase, reading: str, *, refuted_by_model: bool) -> EntityVerdict | None:
    """The verdict of ``c``'s fact read as ``reading`` (digits for spelled numbers, plain words for an idiom, a year
    for a relative date), by every verify rule and then the model, where it supports the fact or refutes it (by the
    model too only if ``refuted_by_model``); else None."""
    other = VerifyCase(c.verifier, reading, c.entity, c.name, c.passages)
    verdict = run(VERIFY_RULES, other, c.config.rules_off) or other.model_verdict()
    if verdict.stance is Stance.SUPPORT or (
        verdict.stance is Stance.REFUTE and (refuted_by_model or verdict.decided_by != MODEL)
    ):
        return verdict
    return None


def _idiom_reading(c: VerifyCase) -> EntityVerdict | None:
    # "left us in 2015" read as "died in 2015": a rule that reads "left" as a move (misplaced-value) decides the
    # idiom wrongly; the plain reading's verdict counts where it is supported or a rule refutes it.
    plain, events = read_events(c.fact, c.names, c.texts)
    if plain == c.fact:
        return None
    # The stance model supports "retired in 1961" where the page's sentence has "won the title in 1961 and retired
    # in 1972": the reading's support counts only where each of its years and places stands beside the event, and
    # a year or place of the event's on the page where the fact's stands beside none refutes it.
    words = [w for e in events for w in EVENT_WORDS[e]]
    if not values_in_role(plain, words, c.texts, c.names):
        rivals = role_rivals(plain, words, c.texts, c.names)
        return c.refuted(lambda t: any(r in _folded_passage(t) for r in rivals)) if rivals else None
    return _read_as(c, plain, refuted_by_model=False)


_RANK_PARAPHRASES: tuple[tuple[re.Pattern[str], int, str], ...] = tuple(
    (re.compile(r"\b" + pattern + r"\b", re.IGNORECASE), level, kind) for pattern, level, kind in RANK_PARAPHRASES
)


def rank_readings(fact: str) -> tuple[str, ...]:
    """``fact`` with a rank said in other words in the plain words a page writes for it (``vocabulary.RANK_PLAIN``),
    one reading a plain wording; empty when it says no rank so.

    >>> rank_readings("She finished behind only one skier.")[0]
    'She finished second.'
    >>> rank_readings("He fell one round short of the final in 2004.")
    ('He reached the semi-finals in 2004.',)
    """
    for pattern, level, kind in _RANK_PARAPHRASES:
        m = pattern.search(fact)
        if m is not None:
            said = m.group(0).lower()
            return tuple(
                fact[: m.start()] + plain + fact[m.end() :] for plain in RANK_PLAIN[(level, kind)] if plain != said
            )
    return ()


def _rank_reading(c: VerifyCase) -> EntityVerdict | None:
    # "finished behind only one skier" read as "finished second" (then "was runner-up", "won the silver medal"):
    # the first reading supported counts; else one a rule refutes ("came in just behind the winner" where the page
    # gives the first prize: rank-mismatch); else the fact's own.
    refuted: EntityVerdict | None = None
    for reading in rank_readings(c.fact):
        verdict = _read_as(c, reading, refuted_by_model=False)
        if verdict is None:
            continue
        if verdict.stance is Stance.SUPPORT:
            # The stance model supports "in 1950 she won second prize at the Connacht Championship" where the page
            # has second prize at another event that year: a reading with names or years to place its rank by
            # counts only where a page clause gives the rank nearest them.
            if rank_placeable(reading, c.names) and not rank_placed(reading, c.texts, c.names):
                continue
            return verdict
        refuted = refuted or verdict
    return refuted


def _relative_date(c: VerifyCase) -> EntityVerdict | None:
    # "passed to his daughter five years before his death" read as "passed to his daughter in 1948" where the page
    # dates his death 1953: that reading's verdict counts, so a wrong relative date is refuted or not supported.
    reading = resolve(c.fact, c.texts)
    if reading is None:
        return None
    verdict = _read_as(c, reading, refuted_by_model=True)
    if verdict is not None:
        return verdict
    return c.not_enough()


def _work_year(c: VerifyCase) -> EntityVerdict | None:
    if c.model().stance is Stance.SUPPORT:
        return None
    dated = work_year_in(c.fact, c.texts)
    return c.supported_at(dated) if dated is not None else None


# The verify step's rules in their precedence: the first that decides gives the verdict; when none does, the
# stance model's does. Rules before the first that asks the model (``stated-outright``) decide without it.
VERIFY_RULES: tuple[VerifyRule, ...] = register(
    Rule(
        NUMERAL_READING,
        "verify",
        "a fact that spells a number out ('forty-eight gas sensors', 'twelve hundred pieces', 'born in nineteen "
        "forty-seven', 'finished in '92', 'nine millennia') is also read with the number in digits ('48', '1,200', "
        "'1947', '1992', '9,000 years'); that reading's verdict counts where it is supported, or refuted by a "
        "rule",
        ("installed forty-eight gas sensors", "a service of twelve hundred pieces", "born in nineteen forty-seven"),
        _numeral_reading,
    ),
    Rule(
        RELATIVE_DATE,
        "verify",
        "a date given relative to another event ('five years before his death', 'two years after the strike', 'a "
        "couple of years after finishing') is read as the year the page's one date of that event makes it ('in "
        "1948'); that reading's verdict counts (not supported where it is neither supported nor refuted)",
        ("five years before his death", "two years after the strike", "a couple of years after finishing"),
        _relative_date,
    ),
    *INVERSION_RULES,
    Rule(
        IDIOM_READING,
        "verify",
        "a fact that tells a life's event in an idiom ('left us in 2015', 'came into the world in 1938', 'tied the "
        "knot with …', 'hung up his boots') is also read in the plain words a page writes ('died', 'was born', "
        "'married', 'retired'); that reading's verdict counts where it is supported, or refuted by a rule",
        ("left us in 2015", "came into the world in 1938", "tied the knot with Bernard Hollis", "hung up his boots"),
        _idiom_reading,
    ),
    Rule(
        RANK_READING,
        "verify",
        "a fact that gives a rank in other words ('finished behind only one skier', 'came in just behind the "
        "winner', 'stood on the lowest step of the podium', 'fell one round short of the final') is also read in "
        "the plain words a page writes ('finished second', 'won the bronze medal', 'reached the semi-finals'); "
        "the first reading supported counts, else one a rule refutes",
        (
            "finished behind only one skier",
            "came in just behind the winner",
            "stood on the lowest step of the podium",
            "fell one round short of the final",
        ),
        _rank_reading,
    ),
    *REWORDING_RULES,
    Rule(
        NEGATION_MISMATCH,
        "verify",
        "a page clause says the fact's predicate with the other polarity ('It supports Z-Wave natively' and 'It "
        "does not support Z-Wave'; 'has never married' and 'She has been married to …'; 'remained unmarried'), "
        "and no clause says it with the fact's: refuted",
        ("It supports Z-Wave natively", "has never married", "was not born in Oslo", "remained unmarried"),
        _conflicting(negation_conflict),
    ),
    Rule(
        NEGATED_VALUE,
        "verify",
        "a negated fact with a year (or, for a birth or a death, a place) where a page clause says its predicate, "
        "not negated, with another one and none with the fact's ('was not born in Bergen' and 'born 1961 in "
        "Oslo'; 'did not receive the Lindeman Prize in 2001' and 'received the Lindeman Prize in 1999'): "
        "supported, the model not asked",
        (
            "was not born in Bergen",
            "was born not in Bergen",
            "was not born in 1970",
            "did not receive the Lindeman Prize in 2001",
        ),
        _negated_value,
    ),
    Rule(
        NEGATION_STATED,
        "verify",
        "a negated fact ('never married', 'did not travel outside England', 'remained unmarried') where a page "
        "clause about the subject (named, or a personal pronoun in its sentence) negates every predicate word and "
        "the fact's names and numbers ('She never owned a car and never married'), no clause says it with the "
        "other polarity and none times the negation ('did not marry until 1960'): supported, the model not asked",
        ("never married", "did not travel outside England", "remained unmarried", "never gave an interview"),
        _negation_stated,
    ),
    *KIN_RULES,
    Rule(
        CROSSED_VALUE,
        "verify",
        "the fact gives a relation that holds one value per person (born or died in a year or a place, a "
        "nationality, a spouse, the year of a named award) a value the page does not give it while giving another, "
        "and a namesake's page (the same name, another person) gives the fact's value for it ('the bishop was born "
        "in Chester' where the bishop's page has Paisley and the rower's Chester); a negated or contrastive fact "
        "('cannot be the diplomat born in 1961', 'unlike the other, born in Leiden') claims no value: refuted, the "
        "model not asked",
        (
            "Callum Rennick is a bishop, born in Chester in 1947",
            "Rosalind Achterberg was born in Leiden",
            "was married to Mateusz Olech, drummer",
            "received the Birkeland Medal in 2009",
        ),
        _crossed_value,
    ),
    Rule(
        NO_SHARED_CONTENT,
        "verify",
        "no passage shares a content word with the fact: not enough evidence, model not asked",
        ("painted watercolours", "played the oboe", "bred racehorses"),
        _no_shared_content,
    ),
    Rule(
        UNMATCHED_NUMBER,
        "verify",
        "against a request's own document (a tool's output, a retrieved document), a number the fact writes in "
        "digits that no passage of the document holds, where a passage sharing a word of the fact gives numbers "
        "('That is 193.86 USD' against 'The converted amount is 139.86 … The to is USD'): refuted",
        ("That is 193.86 USD", "placed on 17 November 2026", "weighs 4.3 kg"),
        _unmatched_number,
    ),
    Rule(
        KEY_TERMS_MISSING,
        "verify",
        "the pages lack the fact's years, or most of its names and places: not enough evidence, model not asked",
        ("died in 1952", "served at Willamette University", "won the Tampere Open in 1988"),
        _key_terms_missing,
    ),
    Rule(
        NAME_MISSING,
        "verify",
        "the pages have no word of a name the fact gives (a prize, a club, a work of two capitalised words or "
        "more, 'won the Lindeman Prize' against a page without 'Lindeman'): not enough evidence, model not asked",
        ("won the Lindeman Prize in 1970", "joined Kjellvik FK in 2014", "wrote Harbour Lights"),
        _name_missing_rule,
    ),
    Rule(
        UNLISTED_AWARD,
        "verify",
        "the fact says the subject received an award ('won the PSA Player of the Year award', 'received the Grieg "
        "Medal of Honour') whose distinctive words no page sentence holds together, where the page lists the "
        "person's awards: not enough evidence, model not asked",
        (
            "won the PSA Player of the Year award",
            "received the Grieg Medal of Honour",
            "was named Norwegian Musician of the Year",
        ),
        _unlisted_award,
    ),
    Rule(
        RANK_MISMATCH,
        "verify",
        "a page sentence holding the fact's names and numbers gives another rank than the fact's ('won first prize "
        "at the Vestfold Competition' and 'won second prize at the Vestfold Competition'; gold and silver; winner "
        "and runner-up; champion and finalist), and none gives the fact's: refuted",
        ("won first prize at the Vestfold Competition", "took gold at the 1996 Games", "was the Tampere Open champion"),
        _conflicting(rank_conflict),
    ),
    Rule(
        SWAPPED_ROLE,
        "verify",
        "the fact gives a person it names an occupation beside the name ('married to the pianist Kari Bråthen', "
        "'Ruth Ellison, a nurse') where a page gives them another one the same way ('the soprano Kari Bråthen'), "
        "neither a form or a field of the other ('musician' for 'pianist'), and no page sentence naming them "
        "holds the fact's: refuted",
        (
            "was married to the pianist Kari Bråthen",
            "is married to the former marathon runner Mercy Chebet",
            "is married to Ruth Ellison, a nurse",
        ),
        _conflicting(swapped_role),
    ),
    Rule(
        MISPLACED_VALUE,
        "verify",
        "the page holds the fact's year or place only in another role (born 1852 where 1852 is the death "
        "year): refuted",
        ("born in 1852 (died 1852)", "joined the club in 1958 (born 1958)", "born in Oslo (died in Oslo)"),
        _refuting_values(misplaced_values, IDIOM_ROLE),
    ),
    Rule(
        CONTRADICTED_VALUE,
        "verify",
        "the page never gives the fact's year or place beside the fact's words, and gives another one there "
        "('retired in 2021' where the page has 'retirement … in 2023'): refuted",
        ("retired in 2021", "founded the Clearsight Eye Hospital in Lagos", "Bramwell University in Madrid"),
        _refuting_values(contradicted_values),
    ),
    Rule(
        REBOUND_YEAR,
        "verify",
        "a page sentence naming what the fact names gives the fact's year to another predicate and the fact's "
        "own predicate another year ('won the Meridian Ocean Race in 2014' where the page says 'competed in the "
        "Meridian Ocean Race in 2014, finishing fourth, and won it in 2018'), and no page clause gives the year "
        "to the fact's predicate: refuted",
        ("won the Meridian Ocean Race in 2014", "left the club in 2016", "won it in 2014"),
        _refuting_values(rebound_years),
    ),
    Rule(
        CONTRADICTED_COUNT,
        "verify",
        "no page sentence counts the fact's noun with its number, and one counts it with another beside a word "
        "of the fact ('translated into 15 languages' and 'translated into eleven languages'): refuted",
        ("translated into 15 languages", "described five species", "won 31 caps"),
        _contradicted_count,
    ),
    Rule(
        CONTRADICTED_MEASURE,
        "verify",
        "no page sentence gives the fact's measure, and one gives its unit another number beside a word of the "
        "fact ('a 214-metre core' where the page has 'a core 412 metres long'): refuted",
        ("a 214-metre core", "ran 20.13 seconds", "sailed solo in 49 days"),
        _contradicted_measure,
    ),
    Rule(
        CONTRADICTED_HOURS,
        "verify",
        "the fact says every hour or every day ('answers calls around the clock', 'open seven days a week') and a "
        "page sentence sharing a word of it bounds the hours or the days ('from 9 am to 5 pm', 'Monday to "
        "Friday'), no page saying every hour or day: refuted",
        ("answers calls around the clock", "is open 24/7", "answers calls seven days a week"),
        _conflicting(lambda fact, texts, names: hours_bounded(fact, texts)),
    ),
    Rule(
        UNHEARD_VALUE,
        "verify",
        "the fact gives a relation that holds one value per person (born or died in a year or a place, a "
        "nationality, a spouse, the year of a named award) a value the page never writes (no word of it anywhere "
        "on the page) while giving the relation another ('born in Tampere, Finland' where the page has 'born 1949 "
        "in Oulu, Finland'): refuted, the model not asked; a value the page writes elsewhere is left to the model",
        (
            "was born in Tampere, Finland",
            "died in Lyon, France, in 1990",
            "is married to the painter Ilse Brandt",
        ),
        _unheard_value,
    ),
    Rule(
        STATED_OUTRIGHT,
        "verify",
        "one page sentence holds every value and predicate word of the fact: supported whatever the model said",
        ("won the championship in 1992", "her first book", "played end at Purdue"),
        _stated_by(stated_in),
    ),
    Rule(
        STATED_COUNT,
        "verify",
        "one page sentence counts the fact's noun with the fact's number, beside its names ('won 23 caps for "
        "Norway' and 'earned 23 caps for the Norway national team'): supported whatever the model said",
        ("won 23 caps for Norway", "has carried fourteen books", "published in nine translations"),
        _stated_by(count_stated),
    ),
    Rule(
        COUNTED_DATES,
        "verify",
        "one page sentence dates, one year each, as many of the thing as the fact counts ('won two Swedish titles "
        "with IK Norrvik' and 'winning the Swedish championship with the club in 1994 and 1997'; 'a two-time "
        "Olympian' and 'at the 2004 Summer Olympics … and again at the 2008 Summer Olympics'): supported "
        "whatever the model said",
        ("won two Swedish titles", "a two-time Olympian", "won three league titles"),
        _stated_by(count_dated),
    ),
    Rule(
        STATED_MEASURE,
        "verify",
        "the page gives every measure of the fact, the same number in the same unit ('20.31 seconds', '94 days'), "
        "one of them beside a word of the fact: supported whatever the model said",
        ("His fastest 200 m was 20.31 seconds", "sailed solo in 94 days", "up to 3,200 Mbps"),
        _stated_by(measure_stated),
    ),
    Rule(
        DATED_DURATION,
        "verify",
        "a length of time ('for eight years', 'nearly three decades') that one page sentence dates with a range of "
        "that length, beside the fact's names and most of its words: supported whatever the model said",
        ("spent 32 years as a consultant", "for eight years", "nearly three decades"),
        _stated_by(dated_in),
    ),
    Rule(
        WORK_YEAR,
        "verify",
        "a work's year read from the answer's parenthesis ('The Ninth Window was released in 2013') is what a "
        "page says that writes the title with that year in parentheses ('The Ninth Window (2013), a "
        "psychological thriller, …'): supported whatever the model said",
        (
            "The Ninth Window was released in 2013",
            "Kite Season was released in 2019",
            "Marsh Light was completed in 1958",
        ),
        _work_year,
    ),
)


def _surname_claim(c: VerifyCase) -> _Claim | None:
    # "Hiroshi Tanabe-Whitlock won the Bradfield Award": the stance model reads a long name as words the page
    # must hold; the name is no evidence either way, so the better reading counts.
    short = _surname_reading(c.fact, c.name)
    return _Claim(short) if short != c.fact else None


def _respelt_claim(c: VerifyCase) -> _Claim | None:
    # The subject spelt as the page spells it ("Raúl González" for "Raul Gonzalez"): the name's form is no
    # evidence either way, so the reading the model finds better placed counts.
    claim = in_page_terms(c.fact, c.name, c.entity, c.texts)
    return _Claim(claim) if claim != c.fact else None


# Other readings of the fact the stance model also scores, in this order; the better-supported one counts
# (strictly better than the fact's own and the readings before it) and names the verdict.
VERIFY_READINGS: tuple[Rule[VerifyCase, _Claim], ...] = register(
    Rule(
        SURNAME_READING,
        "verify",
        "a fact whose subject has a name of three words or more, or a hyphenated one ('Hiroshi Tanabe-Whitlock'), "
        "is also scored with the last word of the name alone; the better-supported reading counts",
        ("Hiroshi Tanabe-Whitlock won the Bradfield Award", "Maria del Carmen Ruiz taught at Seville"),
        _surname_claim,
    ),
    Rule(
        SUBJECT_RESPELLING,
        "verify",
        "the fact is also scored with the subject spelt as the page spells it; the better-supported reading counts",
        ("Raul Gonzalez for Raúl González", "Ines Muller for Inés Müller", "Francois Lefevre for François Lefèvre"),
        _respelt_claim,
    ),
)

# Options of the key-term share (``key-terms-missing``): what counts as a key term and what finds one.
KEY_TERM_RULES: tuple[Rule[object, EntityVerdict], ...] = register(
    Rule(
        WORD_FORMS,
        "verify",
        "for key-terms-missing, a key term matches its other forms on the page (vocabulary.forms): a plural "
        "('Olympic Games' and 'Olympics'), a place and its people or adjective ('East Africa' and 'East African', "
        "'Norway' and 'Norwegian'); for no-shared-content, a place's forms alone ('came from Russia' and 'her "
        "Russian mother')",
        ("nobody in East Africa could beat him", "went to two Olympic Games", "her mum came from Russia"),
    ),
    Rule(
        NUMBERS_AS_CONTENT,
        "verify",
        "for no-shared-content, a number the fact shares with a passage, in digits or spelled out ('aged "
        "eighteen' and 'at the age of 18', 'a best of 20.31' and '20.31 seconds'), is shared content where it "
        "counts the same noun there or none ('nine hours' is not '9 losses')",
        ("aged eighteen", "a best of 20.31", "picked up a bow at eleven"),
    ),
    Rule(
        ROMAN_NUMERAL_TERMS,
        "verify",
        "a sequel or regnal number (Creed II, George III) is a key term as exact as a year",
        ("Suite II", "Creed II", "George III"),
    ),
    Rule(
        ACRONYM_TERMS,
        "verify",
        "a short capitalised key term matches the initials of a name on the page (MIT)",
        ("NIO", "MIT", "UCLA"),
    ),
)
