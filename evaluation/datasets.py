"""Readers for the evaluation sets in ``shared/data`` (see its README): typed rows, nothing else.

The files are read from a folder given by the caller; nothing from them is ever copied into the
repository.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaluation.errors import DataError

SETS: dict[str, str] = {
    "factcheck-bench": "factcheck-bench/claims.dev.jsonl",
    "wice": "wice/claims.dev.jsonl",
    "ambigbio": "ambigbio/generations.dev.jsonl",
    "factscore": "factscore/labeled.dev.jsonl",
}

# Factcheck-Bench's four stance labels, and the three-label space the paper reports (support merged).
FCB_STANCES = ("completely-support", "partially-support", "refute", "irrelevant")
FCB_TO_3 = {"completely-support": "support", "partially-support": "support", "refute": "refute"}


@dataclass(frozen=True)
class FcbClaim:
    doc_id: int
    claim: str
    label: str  # true / false / unknown
    evidence: tuple[str, ...]
    stances: tuple[str, ...]  # one of FCB_STANCES per evidence passage
    response: str
    revised_response: str
    prompt: str


@dataclass(frozen=True)
class WiceClaim:
    id: str
    claim: str
    label: str  # supported / partially_supported / not_supported
    evidence: tuple[str, ...]
    supporting: tuple[tuple[int, ...], ...]  # sets of gold sentence indices


@dataclass(frozen=True)
class AmbigPassage:
    title: str
    text: str


@dataclass(frozen=True)
class AmbigGeneration:
    qid: int
    name: str
    question: str
    model_run: str
    output: str
    passages: tuple[AmbigPassage, ...]
    reference_factscore: float | None
    reference_dfactscore: float | None
    # The paper's atomic facts with its automatic label (supported by any page), for weak supervision.
    reference_atoms: tuple[tuple[str, bool], ...] = ()


@dataclass(frozen=True)
class FactscoreSentence:
    text: str
    facts: tuple[str, ...]
    labels: tuple[str, ...]


@dataclass(frozen=True)
class FactscoreBio:
    model: str
    topic: str
    output: str
    sentences: tuple[FactscoreSentence, ...]


def path_of(root: Path, name: str) -> Path:
    """The dev file of set ``name`` under ``root``; a missing file raises :class:`DataError`."""
    if name not in SETS:
        raise DataError(f"unknown evaluation set {name!r}; choose one of {', '.join(SETS)}")
    path = root / SETS[name]
    if not path.is_file():
        raise DataError(f"{path} not found; pass --data with the folder that holds {SETS[name]}")
    return path


def _rows(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                yield json.loads(line)
            except ValueError as e:
                raise DataError(f"{path}:{number} is not JSON: {e}") from e


def _fail(path: Path, row: dict[str, Any], e: Exception) -> DataError:
    return DataError(f"{path}: row {str(row)[:80]!r} lacks a field: {e!r}")


def factcheck_bench(root: Path) -> list[FcbClaim]:
    path = path_of(root, "factcheck-bench")
    out: list[FcbClaim] = []
    for row in _rows(path):
        try:
            out.append(
                FcbClaim(
                    doc_id=int(row["doc_id"]),
                    claim=row["claim"],
                    label=row["label"],
                    evidence=tuple(row["auto_evidence"]),
                    stances=tuple(row["stance_claim_autoEvid"]),
                    response=row.get("response") or "",
                    revised_response=row.get("revised_response") or "",
                    prompt=row.get("prompt") or "",
                )
            )
        except (KeyError, TypeError, ValueError) as e:
            raise _fail(path, row, e) from e
    return out


def wice(root: Path) -> list[WiceClaim]:
    path = path_of(root, "wice")
    out: list[WiceClaim] = []
    for row in _rows(path):
        try:
            out.append(
                WiceClaim(
                    id=str(row["id"]),
                    claim=row["claim"],
                    label=row["label"],
                    evidence=tuple(row["evidence"]),
                    supporting=tuple(tuple(int(i) for i in group) for group in row.get("supporting_sentences") or []),
                )
            )
        except (KeyError, TypeError, ValueError) as e:
            raise _fail(path, row, e) from e
    return out


def ambigbio(root: Path) -> list[AmbigGeneration]:
    path = path_of(root, "ambigbio")
    out: list[AmbigGeneration] = []
    for row in _rows(path):
        try:
            ref = row.get("reference") or {}
            out.append(
                AmbigGeneration(
                    qid=int(row["qid"]),
                    name=row["name"],
                    question=row.get("question") or "",
                    model_run=row["model_run"],
                    output=row["output"],
                    passages=tuple(AmbigPassage(title=p["title"], text=p["text"]) for p in row["passages"]),
                    reference_factscore=ref.get("factscore"),
                    reference_dfactscore=ref.get("dfactscore"),
                    reference_atoms=tuple(
                        (a["atom"], bool(a.get("supported_any"))) for a in ref.get("atoms") or [] if a.get("atom")
                    ),
                )
            )
        except (KeyError, TypeError, ValueError) as e:
            raise _fail(path, row, e) from e
    return out


def factscore(root: Path) -> list[FactscoreBio]:
    path = path_of(root, "factscore")
    out: list[FactscoreBio] = []
    for row in _rows(path):
        try:
            sentences = tuple(
                FactscoreSentence(
                    text=s["text"],
                    facts=tuple(f["text"] for f in s.get("human_atomic_facts") or []),
                    labels=tuple(f.get("label", "") for f in s.get("human_atomic_facts") or []),
                )
                for s in row["sentences"]
            )
            out.append(
                FactscoreBio(model=row.get("model", ""), topic=row["topic"], output=row["output"], sentences=sentences)
            )
        except (KeyError, TypeError, ValueError) as e:
            raise _fail(path, row, e) from e
    return out
