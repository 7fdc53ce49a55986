"""LLM revision in one call (Factcheck-Bench steps 7–8): the answer, the verdict of every fact, and the
evidence values; the model returns the revised answer and its edits as JSON.

>>> parse_revise('{"revised": "Dick Hanley died in 1970.", "edits": [{"kind": "delete", "original": "He won gold."}]}')
('Dick Hanley died in 1970.', [Edit(kind='delete', original='He won gold.', replacement=None, reason=None)])
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from schemas.check import Edit
from scoring.errors import LLMOutputError

Message = dict[str, str]

SYSTEM = (
    "You revise answers after a fact check. Keep the original order, wording and style; change only what the "
    "check found wrong. Never add a claim that is not in the list of supported facts. Answer with JSON only."
)


@dataclass(frozen=True)
class CheckedFact:
    """A fact and what the check found: ``supported``, ``other`` (true of another person) or ``unsupported``."""

    text: str
    status: str
    entity: str | None = None
    evidence: str = ""


def build_revise_request(answer: str, facts: Sequence[CheckedFact], mode: str = "separate") -> list[Message]:
    """The revision prompt: edit unsupported facts, and separate (or drop) facts about another person."""
    lines = ["Answer:", answer.strip(), "", "Fact check:"]
    for f in facts:
        tag = {"supported": "SUPPORTED", "other": f"ABOUT {f.entity}", "unsupported": "NOT SUPPORTED"}.get(
            f.status, f.status.upper()
        )
        lines.append(f"- [{tag}] {f.text}")
        if f.status != "supported" and f.evidence:
            lines.append(f"    evidence: {f.evidence.strip()[:300]}")
    merge = (
        "For facts ABOUT another person, move them into a separate paragraph that names that person by the "
        "title given (for example 'Dick Hanley (swimmer)'), and name the main person by their own title."
        if mode == "separate"
        else "Delete the facts ABOUT another person."
    )
    lines += [
        "",
        "Rules: delete each NOT SUPPORTED claim, or replace its wrong value (a date, number, place or name) with "
        f"the value in its evidence. {merge} Keep everything SUPPORTED as written.",
        'Answer with JSON only: {"revised": "<the revised answer>", "edits": [{"kind": "delete|replace|separate", '
        '"original": "<claim>", "replacement": "<new text or null>"}]}',
    ]
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "\n".join(lines)}]


def parse_revise(raw: str) -> tuple[str, list[Edit]]:
    """(revised text, edits). A plain-text answer is taken as the revised text without edits.

    Raises :class:`LLMOutputError` when the answer is empty or its JSON has no revised text.
    """
    text = re.sub(r"^\s*```(?:json)?\s*|\s*```\s*$", "", raw.strip(), flags=re.M).strip()
    if not text:
        raise LLMOutputError("revise", "empty answer", raw)
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end < start:
        body = re.sub(r"^(?:here is|revised(?: answer)?)\s*[^:\n]*:\s*", "", text, flags=re.I)
        return body.strip(), []
    try:
        doc = json.loads(text[start : end + 1])
    except ValueError:
        try:
            doc = json.loads(re.sub(r",\s*([}\]])", r"\1", text[start : end + 1]))
        except ValueError as err:
            raise LLMOutputError("revise", f"the JSON does not parse: {err}", raw) from err
    revised = doc.get("revised") or doc.get("revision") or doc.get("text") if isinstance(doc, dict) else None
    if not isinstance(revised, str) or not revised.strip():
        raise LLMOutputError("revise", "no revised text in the JSON", raw)
    edits: list[Edit] = []
    for item in doc.get("edits") or []:
        if not isinstance(item, dict) or not item.get("original"):
            continue
        kind = str(item.get("kind", "delete")).lower()
        if kind not in ("delete", "replace", "separate", "keep"):
            kind = "replace" if item.get("replacement") else "delete"
        replacement = item.get("replacement")
        edits.append(
            Edit.model_validate(
                {
                    "kind": kind,
                    "original": str(item["original"]),
                    "replacement": str(replacement) if replacement not in (None, "", "null") else None,
                    "reason": str(item["reason"]) if item.get("reason") else None,
                }
            )
        )
    return revised.strip(), edits
