"""Our own development corpus: answers as chat models write them, about invented people of our own store,
each with the expectations a careful judge wrote before running the checker (``tests/corpus/``).

Every answer is checked against the whole corpus store (``kb/*.jsonl``), as a worker checks traffic;
it passes when every expectation it carries holds. Expectations (``expect``):

==================  ==========================================================================
key                 holds when
==================  ==========================================================================
status              the result's status (checked, unverifiable, abstained) is this
entity              the first group is linked to this page
num_entities        exactly this many distinct pages are the facts' sources
conflated           some group is (or no group is) flagged as merging two people
min_bios            at least this many individuals were told apart
factscore_min/max   FActScore within the bound (a null score fails a bound)
dfactscore_min/max  D-FActScore within the bound
dfs_below_fs        D-FActScore is strictly below FActScore
supported           for each substring, some fact containing it is supported by some page
not_supported       for each substring, some fact containing it is not supported by its group's page; a
                    claim of several values ("born in Leiden in 1961") also when one fact not supported
                    covers one of its values and facts of any verdict cover the rest (one wrong part
                    makes the claim wrong)
revision_keeps      each substring is still in the suggested revision
revision_drops      no substring is left in the suggested revision
==================  ==========================================================================

The figures are pass rates per kind (faithful, merged, refusal, …) and per expectation, with every
failing answer and the expectations it missed, so a fix can name the pattern it serves; and how the
suggested revisions read (:func:`revision_faults`): of the sentences a revision changed, those left with a
visible fault, and the sentences that still hedge (a revision states what the page supports).
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaluation.engines import Engine
from evaluation.errors import EvaluationError
from evaluation.progress import Outcome, Progress, silent
from evaluation.revisions import RevisionTally
from schemas.check import CheckResult, FactResult
from schemas.enums import Stance, Verdict, Worthiness

DEFAULT_CORPUS = Path(__file__).resolve().parents[1] / "tests" / "corpus"
KNOWN = {
    "status",
    "entity",
    "num_entities",
    "conflated",
    "min_bios",
    "factscore_min",
    "factscore_max",
    "dfactscore_min",
    "dfactscore_max",
    "dfs_below_fs",
    "supported",
    "not_supported",
    "revision_keeps",
    "revision_drops",
}


THRESHOLD = 0.75  # the default policy's threshold (README): correct answers blocked are counted at it
# Kinds whose answers a careful human passes unless their expectations say a value is wrong or two people are merged.
CORRECT_KINDS = ("faithful", "separated", "paraphrase", "hedged", "nickname", "names", "non-biographical")


@dataclass(frozen=True)
class Answer:
    id: str
    kind: str
    style: str
    question: str | None
    name: str | None
    answer: str
    expect: dict[str, Any]


def load(root: Path) -> tuple[list[tuple[str, str, list[str]]], list[Answer]]:
    """The corpus store's pages and the answers; a clear error for a missing or malformed file."""
    kb = root / "kb"
    if not kb.is_dir() or not (root / "answers.jsonl").is_file():
        raise EvaluationError(f"no corpus at {root}: it needs kb/*.jsonl and answers.jsonl")
    pages: list[tuple[str, str, list[str]]] = []
    for path in sorted(kb.glob("*.jsonl")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                try:
                    doc = json.loads(line)
                    pages.append((doc["title"], doc["text"], list(doc.get("aliases") or [])))
                except (ValueError, KeyError, TypeError) as e:
                    raise EvaluationError(f"{path}:{n}: not a page ({e})") from e
    answers: list[Answer] = []
    path = root / "answers.jsonl"
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            doc = json.loads(line)
            expect = dict(doc.get("expect") or {})
            unknown = set(expect) - KNOWN
            if unknown:
                raise ValueError(f"unknown expectation(s) {sorted(unknown)}")
            answers.append(
                Answer(
                    doc["id"],
                    doc["kind"],
                    doc.get("style", ""),
                    doc.get("question"),
                    doc.get("name"),
                    doc["answer"],
                    expect,
                )
            )
        except (ValueError, KeyError, TypeError) as e:
            raise EvaluationError(f"{path}:{n}: not an answer ({e})") from e
    return pages, answers


def human_passes(item: Answer) -> bool:
    """Whether a careful human would let ``item`` through a block policy: a kind that states what its pages say,
    expected to be checked, with no value expected unsupported or dropped and no merge of two people."""
    expect = item.expect
    return (
        item.kind in CORRECT_KINDS
        and expect.get("status", "checked") == "checked"
        and not expect.get("not_supported")
        and not expect.get("revision_drops")
        and not expect.get("conflated", False)
    )


def refuted(result: CheckResult) -> list[str]:
    """The check-worthy facts the evidence refutes."""
    return [
        f.text
        for g in result.groups
        for f in g.facts
        if f.worthiness is Worthiness.FACTUAL and f.stance is Stance.REFUTE and f.verdict is Verdict.NOT_SUPPORTED
    ]


def blocked(result: CheckResult | None) -> bool:
    """Whether a block policy at the default threshold would stop this answer: no score, a D-FActScore
    below the threshold, or a refuted fact."""
    if result is None or result.dfactscore is None:
        return True
    return result.dfactscore < THRESHOLD or bool(refuted(result))


def _facts(result: CheckResult) -> list[FactResult]:
    return [f for g in result.groups for f in g.facts if f.worthiness is Worthiness.FACTUAL]


def _has(facts: list[FactResult], text: str, ok: Any, answer: str = "", together: bool = False) -> bool:
    """Whether a fact for which ``ok`` holds states ``text``: in its own words, or — a record read as a
    sentence ("Awards: Lindeman Prize (1962)" → "He won Lindeman Prize in 1962") — by covering every
    word of an occurrence of ``text`` in the answer as written with the spans it was made from.
    ``together``: the facts for which ``ok`` holds may cover it between them ("in 1994 and 1997" by a
    fact for each year)."""
    needle = text.casefold()
    chosen = [f for f in facts if ok(f)]
    if any(needle in f.text.casefold() for f in chosen):
        return True
    starts = [m.start() for m in re.finditer(re.escape(needle), answer.casefold())] if answer else []
    if not starts:
        return False
    groups = [chosen] if together else [[f] for f in chosen]
    for group in groups:
        covered = {i for f in group for a, b in f.spans for i in range(a, b)}
        for s in starts:
            # Between facts, the word that joins their values is no fact's: "1994 and 1997" is covered by a
            # fact for each year, "… and 1999" by the fact of 1999.
            joins = (
                {s + m.start() + k for m in _JOIN.finditer(needle) for k in range(len(m.group()))}
                if together
                else set()
            )
            span = range(s, s + len(needle))
            if all(i in covered or i in joins or not answer[i].isalnum() for i in span) and any(
                i in covered for i in span
            ):
                return True
    return False


_JOIN = re.compile(r"\b(?:and|or)\b")
# A value of a listed claim: a number, or a capitalised word after its first word ("born in Leiden in 1961").
_CLAIM_VALUE = re.compile(r"\d[\d,.]*\d|\d|(?<=\s)[A-ZÀ-Þ][\w'’-]*")


def _not_supported(fact: FactResult) -> bool:
    return Verdict.NOT_SUPPORTED in (fact.verdict, fact.verdict_linked)


def _wrong_part(facts: list[FactResult], text: str, answer: str) -> bool:
    """Whether a claim of several values is not supported for one wrong part: a fact not supported by its group's
    page covers one of its values whole ("Leiden" of "born in Leiden in 1961"), and the facts, of any verdict,
    cover all of it ("born in 1961" supported). The writer of an expectation lists the claim as the answer says
    it; the checker's facts split it, and a supported part does not make the whole claim true."""
    if not answer:
        return False
    wrong = {i for f in facts if _not_supported(f) for a, b in f.spans for i in range(a, b)}
    if not wrong:
        return False
    covered = {i for f in facts for a, b in f.spans for i in range(a, b)}
    needle = text.casefold()
    for m in re.finditer(re.escape(needle), answer.casefold()):
        s, written = m.start(), answer[m.start() : m.end()]
        values = [range(s + v.start(), s + v.end()) for v in _CLAIM_VALUE.finditer(written)]
        if len(values) < 2:
            continue  # one value: the claim is that value's fact (``_has``)
        joins = {s + j.start() + k for j in _JOIN.finditer(needle) for k in range(len(j.group()))}
        span = range(s, m.end())
        whole = all(i in covered or i in joins or not answer[i].isalnum() for i in span)
        if whole and any(all(i in wrong for i in v) for v in values):
            return True
    return False


def judge(expect: dict[str, Any], result: CheckResult, answer: str = "") -> list[str]:
    """The expectations ``result`` misses, each as ``key: what was found`` (``answer``: the text checked,
    where a listed fact may be found by the spans of the facts made from it)."""
    missed: list[str] = []
    facts = _facts(result)
    fs, dfs = result.factscore, result.dfactscore
    if "status" in expect and result.status != expect["status"]:
        missed.append(f"status: {result.status}")
    if "entity" in expect:
        linked = result.groups[0].entity if result.groups else None
        if linked != expect["entity"]:
            missed.append(f"entity: {linked}")
    if "num_entities" in expect and result.num_entities != expect["num_entities"]:
        missed.append(f"num_entities: {result.num_entities}")
    if "conflated" in expect and any(g.conflated for g in result.groups) != expect["conflated"]:
        missed.append(f"conflated: {not expect['conflated']}")
    if "min_bios" in expect and result.num_bios < expect["min_bios"]:
        missed.append(f"min_bios: {result.num_bios}")
    for key, value, low in (
        ("factscore_min", fs, True),
        ("factscore_max", fs, False),
        ("dfactscore_min", dfs, True),
        ("dfactscore_max", dfs, False),
    ):
        if key in expect and (value is None or (value < expect[key] if low else value > expect[key])):
            missed.append(f"{key}: {value}")
    if expect.get("dfs_below_fs") and not (fs is not None and dfs is not None and dfs < fs):
        missed.append(f"dfs_below_fs: {dfs} vs {fs}")
    for text in expect.get("supported", []):
        if not _has(facts, text, lambda f: f.verdict is Verdict.SUPPORTED, answer, together=True):
            missed.append(f"supported: {text!r}")
    for text in expect.get("not_supported", []):
        if not _has(facts, text, _not_supported, answer, True) and not _wrong_part(facts, text, answer):
            missed.append(f"not_supported: {text!r}")
    revised = result.revision.text.casefold() if result.revision else None
    for text in expect.get("revision_keeps", []):
        if revised is None or text.casefold() not in revised:
            missed.append(f"revision_keeps: {text!r}")
    for text in expect.get("revision_drops", []):
        if revised is None or text.casefold() in revised:
            missed.append(f"revision_drops: {text!r}")
    return missed


def run(root: Path, engine: Engine, *, limit: int | None = None, progress: Progress = silent) -> Outcome:
    """Check every answer of the corpus (``limit``: the first N) and report pass rates per kind."""
    pages, answers = load(root)
    answers = answers[:limit] if limit else answers
    by_kind: dict[str, list[bool]] = defaultdict(list)
    by_style: dict[str, list[bool]] = defaultdict(list)
    missed_keys: Counter[str] = Counter()
    failures: list[dict[str, Any]] = []
    errors = 0
    # Which rule each abstention was decided by (an ablation moves these even where another rule then abstains).
    abstained_by: Counter[str] = Counter()
    revisions = RevisionTally()
    correct: list[str] = []
    stopped: list[str] = []
    texts = {title: body for title, body, _ in pages}
    for item in progress(answers, total=len(answers), desc="corpus answers"):
        result = engine.try_check(item.answer, pages=pages, name=item.name, question=item.question)
        if result is not None and result.abstained:
            abstained_by[result.abstained_by or "unnamed"] += 1
        revisions.add(item.id, item.answer, result, texts)
        if human_passes(item):
            correct.append(item.id)
            if blocked(result):
                stopped.append(item.id)
        missed = ["error: the check failed"] if result is None else judge(item.expect, result, item.answer)
        errors += result is None
        ok = not missed
        by_kind[item.kind].append(ok)
        by_style[item.style].append(ok)
        missed_keys.update(m.split(":", 1)[0] for m in missed)
        if missed:
            failures.append({"id": item.id, "kind": item.kind, "style": item.style, "missed": missed})
    passed = sum(ok for oks in by_kind.values() for ok in oks)

    def rates(groups: dict[str, list[bool]]) -> dict[str, dict[str, Any]]:
        return {
            k: {"n": len(v), "passed": sum(v), "rate": round(sum(v) / len(v), 3)} for k, v in sorted(groups.items())
        }

    figures: dict[str, Any] = {
        "answers": len(answers),
        "passed": passed,
        "pass_rate": round(passed / len(answers), 3) if answers else None,
        "by_kind": rates(by_kind),
        "by_style": rates(by_style),
        "missed_by_expectation": dict(missed_keys.most_common()),
        "failed_checks": errors,
        "abstained_by": dict(sorted(abstained_by.items())),
        "failures": failures,
        "revisions": revisions.figures(),
        # What keeps a team from switching on block: answers a human passes that the default policy would stop.
        "correct_answers_blocked": {
            "count": len(stopped),
            "total": len(correct),
            "rate": round(len(stopped) / len(correct), 3) if correct else None,
            "threshold": THRESHOLD,
            "kinds": list(CORRECT_KINDS),
            "ids": stopped,
        },
    }
    notes = tuple(f"{f['id']} ({f['kind']}): {'; '.join(f['missed'])}" for f in failures[:40])
    return Outcome(figures, counts={"answers": len(answers), "failed": errors}, notes=notes)


# --- how revisions read ------------------------------------------------------------------------------------

# Faults a reader sees in a revised sentence, each a way deleting words can break one:
_FAULTS = {
    # the sentence ends on a word that needs another after it: "… a composer who also.", "… in 2014 after."
    # (a preposition after a verb in -ing ends a sentence well: "… the answer you were hoping for.")
    "dangling-word": re.compile(
        r"(?<!ing )\b(?:also|so|after|before|who|which|whom|whose|that|of|to|in|on|at|with|for|from|by|the|a|an|and|or|"
        r"but|he|she|they|his|her|their|its|was|is|were|are|has|have|had)\s*[.!?:]$",
        re.IGNORECASE,
    ),
    # punctuation left beside punctuation: "caution:.", "(, 1990)"
    "stray-punctuation": re.compile(r"[:;,]\s*[.!?;]$|[:;,]\s*[.!?;,]\s|\.\s*\.|\(\s*[,.;]|,\s*\)"),
    # a subject left without its verb: "he, during which he wrote …"
    "subject-without-verb": re.compile(
        r"\b(?:he|she|they)\s*,\s+(?:during|which|who|when|where)\b|\b(?:he|she|they) (?:before|after|during) \w+ing\b",
        re.IGNORECASE,
    ),
    # a hedge's subject left behind: "I it was 1951"
    "hedge-residue": re.compile(r"\bI (?:it|he|she|they|the|a)\b"),
    "repeated-word": re.compile(r"\b(\w{2,}) \1\b", re.IGNORECASE),
    # a phrase said twice over: "Another Dick Hanley, a swimmer, was a swimmer born in 1936"
    "repeated-phrase": re.compile(r"\b((?:a|an|the) [a-z]{3,}),? (?:\w+ ){0,2}\1\b", re.IGNORECASE),
    # a fragment: a sentence that opens lowercase or on punctuation ("the registry.", ": she founded in 2012.")
    "fragment": re.compile(r"^(?:[,;:.)\]–—-]|[a-z](?![a-z]*[A-Z]))"),
    # a pronoun cut off from its verb by a comma: "It, might have sharpened …"
    "dangling-pronoun": re.compile(
        r"^(?:It|He|She|They|This|That)\s*,|\b(?:it|he|she|they),\s+(?:might|may|was|is|has|had|would|could|will|can)\b"
    ),
    # a parenthesis left empty: "born in Oslo ()"
    "empty-parenthesis": re.compile(r"\(\s*[,;]?\s*\)"),
}
_MARKUP = re.compile(r"[*_#>|`]|^\s*(?:[-•–—+]|\d+[.)])\s+", re.MULTILINE)
# A sentence ends at . ! ? before a capital, not after an initial or a short abbreviation ("b. 1965", "St. Brendan").
_SENTENCE_END = re.compile(r"(?<!\b[A-Za-z]\.)(?<!\b[A-Za-z]{2}\.)(?<=[.!?])\s+(?=[\"“A-Z])")


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", _MARKUP.sub("", text)).strip()


def sentences_of(text: str) -> list[str]:
    """The sentences of ``text`` (each line split at sentence ends), markup off. A line that goes on with a
    lower-case word after a line of prose not ended ("In 1988 she won" then "**second prize** at …") continues that
    line's sentence: prose wrapped over lines, not a sentence of its own."""
    lines: list[str] = []
    for line in text.splitlines():
        plain = _plain(line)
        previous = lines[-1] if lines else ""
        if (
            plain[:1].islower()
            and previous.strip()
            and previous.rstrip()[-1:] not in ".!?:;|"
            and not _LIST_LINE.match(line)
            and not previous.lstrip().startswith(("|", "#", "```", "~~~"))
            and not _FIELD_LINE.match(line)
        ):
            lines[-1] = f"{lines[-1].rstrip()} {line.strip()}"
        else:
            lines.append(line)
    return [p for line in lines for s in _SENTENCE_END.split(line) if (p := _plain(s))]


_FIELD_LINE = re.compile(r"^\s*[\w\"' -]{1,40}:(?:\s|$)")
# A profile's field as the measure reads it: a key of a word or two (snake_case, quoted) and its value.
_FIELD_VALUE = re.compile(r"^\s*[\"']?[a-z][a-z0-9_]*(?: [a-z0-9_]+)?[\"']?:\s+(?P<value>\S.*)$")
_LIST_LINE = re.compile(r"^\s*(?:[-*+•–—]\s|[|#]|\d+[.)]\s)")


def changed_sentences(answer: str, revised: str) -> list[str]:
    """The sentences of ``revised`` not in ``answer`` as written (markup and line breaks aside)."""
    original = _plain(answer)
    return [s for s in sentences_of(revised) if s not in original]


def revision_faults(sentence: str) -> list[str]:
    """The faults a reader sees in a revised sentence (:data:`_FAULTS`, and parentheses that do not pair). A field
    of a profile kept as fields ("born: \"1982, Vancouver\"", "award: Lakeshore Jazz Award (1999)") is read by its
    value: a lower-case key is no fragment, a value left opening on a comma (", Cork, Ireland") is one."""
    field = _FIELD_VALUE.match(sentence)
    if field is not None:
        sentence = field.group("value").strip().strip("\"'").strip()
        if not sentence:
            return []
    # A field's value is a phrase, not a sentence: it may open lower-case ("hedged", "born in 1958"), not on
    # punctuation.
    found = [
        name for name, pattern in _FAULTS.items() if pattern.search(sentence) and (field is None or name != "fragment")
    ]
    if field is not None and re.match(r"[,;:.)\]–—-]", sentence):
        found.append("fragment")
    if sentence.count("(") != sentence.count(")"):
        found.append("unpaired-parenthesis")
    return found
