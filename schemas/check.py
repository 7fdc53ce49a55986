"""The result of checking one answer: facts, groups, scores and the suggested revision.

Every engine (offline, llm, nli) returns this same shape; ``factsentry check --json``,
``POST /v1/factcheck`` and the results topic all carry it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, computed_field

from schemas.enums import Stance, Verdict, Worthiness


class Evidence(BaseModel):
    title: str
    text: str
    stance: Stance | None = None
    score: float | None = None
    # The request's document the passage is from, by its id: a tool message's ``tool_call_id``, or
    # ``messages[i]`` for another message of the conversation (None for the store's passages).
    document: str | None = None


class FactResult(BaseModel):
    text: str
    sentence_index: int = 0
    worthiness: Worthiness = Worthiness.FACTUAL
    verdict: Verdict
    stance: Stance
    # Verdict against the group's linked entity only (D-FActScore); ``verdict`` is against any page.
    verdict_linked: Verdict | None = None
    # Titles of every entity whose page supports the fact on its own (without context).
    entity_supporting: list[str] = []
    confidence: float | None = None
    evidence: list[Evidence] = []
    # What decided the verdict: "model" (the stance model) or the name of a rule (scoring/RULES.md).
    decided_by: str | None = None
    # Character spans [start, end) of the answer as written that the fact was made from (its words;
    # its whole sentence where the engine cannot tell).
    spans: list[tuple[int, int]] = []
    # The answer hedged this claim ("I believe …", "if I recall correctly"); it was checked all the same.
    hedged: bool = False


class FactGroup(BaseModel):
    """Facts about one perceived individual, linked to one entity of the knowledge store."""

    mention: str | None = None
    entity: str | None = None
    conflated: bool = False
    facts: list[FactResult] = []


class Edit(BaseModel):
    kind: Literal["delete", "replace", "separate", "keep"]
    original: str
    replacement: str | None = None
    reason: str | None = None
    # How the edit came to be offered (scoring/RULES.md): "rechecked-revision" when the revised answer was
    # checked again and kept, "delete-failing" when the re-check rejected it and the failing facts were deleted.
    decided_by: str | None = None


class Revision(BaseModel):
    text: str
    edits: list[Edit] = []
    # Why the re-check of the first revision rejected it (empty when it was kept or not re-checked).
    rejected: list[str] = []


class CheckResult(BaseModel):
    abstained: bool = False
    # The rule that decided the abstention (scoring/RULES.md: decline, refusal, clarification,
    # only-assistant-talk, declined-without-evidence; "empty" for an empty answer).
    abstained_by: str | None = None
    # No page of the knowledge store is about anyone the answer describes (a person missing from the
    # store, a non-biographical answer): the answer cannot be judged, so FActScore and D-FActScore are
    # null rather than 0 and policies follow ``on_unverifiable``.
    unverifiable: bool = False
    # Why the answer is unverifiable when it is for a reason other than the store: "language", written in a
    # language the engine does not read (``language`` names it; scoring.language).
    reason: Literal["language"] | None = None
    # The answer's main language as detected (ISO 639-1 code); None when it was too short to tell.
    language: str | None = None
    coverage: float | None = Field(
        default=None, description="share of check-worthy facts on which some page of the store takes a stance"
    )
    factscore: float | None = Field(default=None, description="share of facts supported by any page")
    dfactscore: float | None = Field(default=None, description="share supported by the group's linked entity")
    num_facts: int = 0
    num_bios: int = 0
    num_entities: int = 0
    groups: list[FactGroup] = []
    # The sentences the checker read, in order: ``FactResult.sentence_index`` points into this list.
    sentences: list[str] = []
    # Where each sentence is in the answer as written: [start, end) character offsets.
    sentence_spans: list[tuple[int, int]] = []
    revision: Revision | None = None
    engine: str = "offline"
    # What the facts were checked against: the knowledge store, the request's own documents, or both.
    grounding: Literal["store", "documents", "documents_and_store"] = "store"
    # The LLM judge of the llm and hybrid engines (a model_name of the operator's model list).
    llm_model: str | None = None
    llm_calls: int = 0
    llm_tokens: int = 0
    # LLM calls that failed or whose reply could not be read, and were asked again.
    llm_errors: int = 0
    # What the engine's validations rejected of the judge's replies, by check (a verdict whose quote is in
    # no passage, a decomposed fact with a value the answer does not have, a refused revision, ...).
    llm_rejected: dict[str, int] = {}
    # Of ``llm_tokens``, the prompts' and the replies'; and the judge calls' cost in US dollars (litellm's
    # cost map; null when the judge's model is not in it).
    llm_prompt_tokens: int = 0
    llm_completion_tokens: int = 0
    llm_cost_usd: float | None = None
    # Judge calls answered from the cache (same prompt, judge model and prompt version), not made again.
    llm_cached_calls: int = 0
    # Only the first ``checked_chars`` characters were checked (the worker's size budget): the rest is
    # unchecked, so a partial verdict never clears an answer under block or revise.
    partial: bool = False
    checked_chars: int | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def status(self) -> Literal["abstained", "unverifiable", "checked"]:
        return "abstained" if self.abstained else "unverifiable" if self.unverifiable else "checked"
