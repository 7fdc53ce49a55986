"""LLM revision in one call (Factcheck-Bench steps 7–8): the answer, the verdict of every fact, and the
evidence values; the model returns the revised answer and its edits as JSON.

>>> text, edits = parse_revise(
...     '{"revised": "Dick Hanley died in 1970.", "edits": [{"kind": "delete", "original": "He won gold."}]}'
... )
>>> text, [(e.kind, e.original, e.replacement) for e in edits]
('Dick Hanley died in 1970.', [('delete', 'He won gold.', None)])
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from schemas.check import Edit
from scoring.errors import LLMOutputError
from scoring.llm.decompose import values_not_in
from scoring.llm.fence import data_rule, fence, nonce
from scoring.llm.verify import normalise

Message = dict[str, str]

PROMPT_VERSION = "revise-2"

SYSTEM = (
    "You revise answers after a fact check. Keep the original order, wording and style; change only what the "
    "check found wrong. Never add a claim that is not in the answer or in the evidence given. Answer with JSON only."
)


@dataclass(frozen=True)
class CheckedFact:
    """A fact and what the check found: ``supported``, ``refuted`` (its page says otherwise), ``unsupported``
    (no page says it) or ``other`` (true of another person, ``entity``); ``evidence`` is the passage its
    verdict cites."""

    text: str
    status: str
    entity: str | None = None
    evidence: str = ""


_TAGS = {"supported": "SUPPORTED", "refuted": "REFUTED", "unsupported": "NOT SUPPORTED"}


def build_revise_request(answer: str, facts: Sequence[CheckedFact], mode: str = "separate") -> list[Message]:
    """The revision prompt: edit wrong facts, and separate (or drop) facts about another person. The answer,
    the facts and the evidence are fenced data."""
    check: list[str] = []
    for f in facts:
        tag = f"ABOUT {f.entity}" if f.status == "other" else _TAGS.get(f.status, f.status.upper())
        check.append(f"- [{tag}] {' '.join(f.text.split())}")
        if f.status != "supported" and f.evidence:
            check.append(f"    evidence: {' '.join(f.evidence.split())[:2000]}")
    n = nonce(answer, *check)
    merge = (
        "For facts ABOUT another person, move them into a separate paragraph that names that person by the "
        "title given (for example 'Dick Hanley (swimmer)'), and name the main person by their own title."
        if mode == "separate"
        else "Delete the facts ABOUT another person."
    )
    lines = [
        "Answer:",
        fence(answer, n),
        "",
        "Fact check:",
        fence("\n".join(check), n),
        "",
        "Rules: replace the wrong value (a date, number, place or name) of each REFUTED claim with the value in "
        f"its evidence, or delete the claim; delete each NOT SUPPORTED claim. {merge} Keep everything SUPPORTED "
        "as written.",
        'Answer with JSON only: {"revised": "<the revised answer>", "edits": [{"kind": "delete|replace|separate", '
        '"original": "<claim>", "replacement": "<new text or null>"}]}',
    ]
    return [{"role": "system", "content": f"{SYSTEM} {data_rule(n)}"}, {"role": "user", "content": "\n".join(lines)}]


_REFUSAL = re.compile(
    r"^\W*(?:i'?m sorry|i am sorry|sorry\b|i apologi[sz]e|unfortunately\b|as an ai\b|i (?:can(?:not|'?t)|won'?t|"
    r"am unable|'?m unable|am not able|'?m not able|do not feel comfortable)\b)"
    r"|\b(?:i (?:can(?:not|'?t)|won'?t) (?:help|assist|comply|do that|revise|provide)|against my guidelines)\b",
    re.I,
)
_MARKER = re.compile(r"<<<(?:DATA|END) [0-9a-f]{12}>>>")
_WORD = re.compile(r"[a-z]{4,}")


def revision_problem(
    revised: str,
    answer: str,
    facts: Sequence[CheckedFact],
    evidence: Sequence[str],
    titles: Sequence[str],
    mode: str = "separate",
) -> str | None:
    """Why the judge's revision may not be used, or None. It may not be a refusal (``refusal``), show the
    prompt's fences (``fence-leak``), leave a wrong answer as it was (``unchanged``), keep a value found only
    in wrong facts (``kept-refuted-value``), add a number or name found neither in the answer, the evidence
    nor a page title (``new-value``), lose most of the supported facts' numbers and names
    (``dropped-supported``), or add more than a few words found in none of them (``new-claim``)."""
    if _REFUSAL.search(revised[:300]):
        return "refusal"
    if _MARKER.search(revised):
        return "fence-leak"
    wrong = [f for f in facts if f.status != "supported" and not (f.status == "other" and mode == "separate")]
    if wrong and normalise(revised) == normalise(answer):
        return "unchanged"
    kept = " ".join(f.text for f in facts if f.status == "supported" or (f.status == "other" and mode == "separate"))
    allowed = " ".join([kept, *evidence, *titles])
    for f in wrong:
        # Its values that nothing kept and no evidence has: the wrong part of the claim.
        if any(not values_not_in(value, revised) for value in values_not_in(f.text, allowed)):
            return "kept-refuted-value"
    if values_not_in(revised, " ".join([answer, *evidence, *titles])):
        return "new-value"
    # What was supported stays: a revision that loses most of the supported facts' values rewrote the answer.
    values = {v for f in facts if f.status == "supported" for v in values_not_in(f.text, "")}
    lost = [v for v in values if values_not_in(v, revised)]
    if values and len(lost) * 2 > len(values):
        return "dropped-supported"
    known = set(_WORD.findall(" ".join([answer, *evidence, *titles]).lower()))
    new = [w for w in _WORD.findall(revised.lower()) if w not in known]
    if len(new) > max(3, len(_WORD.findall(revised.lower())) // 10):
        return "new-claim"
    return None


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
