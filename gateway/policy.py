"""Policies: what the gateway does with an answer, per model from YAML and per request by header.

Example ``policies.yaml``::

    default: {mode: observe, threshold: 0.7, timeout_s: 10}
    models:
      gpt-4o: {mode: block, threshold: 0.8}                       # fails closed (the default)
      support-bot: {mode: revise, on_timeout: open, on_unavailable: open}
      kb-only-bot: {mode: block, on_unverifiable: block}           # refuse what the store cannot judge
      legal-bot: {mode: block, engine: hybrid}                     # the LLM judge decides uncertain facts
      rag-bot: {mode: block, grounding: documents}                 # a request's own documents (RAG)
      docs-bot: {mode: block, grounding: documents_and_store}      # a request's documents, and the store
      agent-bot: {mode: block, conversation: {tools: true, assistant: true}}  # tool results and earlier turns
      care-bot: {mode: revise, reask: true}                        # ask the model once to fix its answer
      new-bot: {mode: observe, shadow: {mode: block, threshold: 0.8}}  # record what block would do

``shadow: {mode: block|revise, threshold: …}`` on any policy records on every verdict what that policy
``would`` have done (``/v1/results``, ``factsentry_worker_would_total``) without enforcing it: run a check on
live traffic before promoting it. Its other fields follow the policy it sits on.

Fail-safe: under block and revise an answer is released only with a verdict that clears the
policy, or because the operator chose ``open`` for what happened instead — ``on_timeout`` (no
verdict within ``timeout_s``) or ``on_unavailable`` (no verdict can come: the generation could
not be published, the pipeline dead-lettered it, Redis is unreachable). Both default to
``closed``. Annotate never blocks; observe never waits.

Headers ``x-factsentry-policy``, ``x-factsentry-threshold`` and ``x-factsentry-timeout`` override
the model's policy for one request, by default only to make it stricter.

The decision itself (:func:`decide`, :class:`Action`) is pure and lives in schemas/policy.py, where the
workers reach it too; it is re-exported here.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gateway.conversation import ConversationEvidence
from gateway.errors import ConfigError, InvalidRequest
from schemas.enums import Policy
from schemas.messages import ResultMessage
from schemas.policy import NO_VERDICT_SETTING, Action, DecisionSpec, ShadowSpec, decide, decide_why, would


class PolicySpec(DecisionSpec):
    """A model's policy: the decision's fields (schemas/policy.py: mode, threshold, on_timeout, on_unavailable,
    on_unverifiable) and what only the gateway uses."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    timeout_s: float = Field(default=10.0, gt=0, le=600)
    # Streaming under block/revise: ``buffer`` holds the whole answer until its verdict; ``holdback``
    # releases each sentence once verified (gateway/holdback.py).
    stream: Literal["buffer", "holdback"] = "buffer"
    # The scoring engine of this model's answers (offline, llm, hybrid); None: the workers' default.
    engine: Literal["offline", "llm", "hybrid"] | None = None
    # What answers are checked against. ``store`` (the default): the knowledge store only, and a request
    # that brings its own documents is refused — a client must not bring the evidence its answer is judged
    # by unless the operator allows it. ``documents``: a request's documents (``metadata.factsentry.documents``)
    # when it has some, else the store; ``documents_and_store``: both.
    grounding: Literal["store", "documents", "documents_and_store"] = "store"
    # What of the request's own conversation is evidence for its answer (gateway/conversation.py): its tool
    # results by default, earlier assistant turns, the system text and the user's words only when switched on.
    # They are checked against with the store as the fallback, or alone under ``grounding: documents``.
    conversation: ConversationEvidence = ConversationEvidence()
    # Under block or revise, an answer below the threshold is sent back to the upstream model once, with the
    # statements the check could not support listed; the rewritten answer is checked, and the better-scoring
    # of the two is decided on as usual (one extra upstream call and one extra check at most).
    reask: bool = False
    # A policy recorded on every verdict but never enforced (``shadow: {mode: block, threshold: 0.8}``): the
    # worker decides what it would have done and stores it as the verdict's ``would``. Changes nothing a
    # client receives; fields it leaves out follow this policy.
    shadow: ShadowSpec | None = None

    def shadow_policy(self) -> DecisionSpec | None:
        """The shadow's whole decision spec (published with each generation), or None without a shadow."""
        return self.shadow.over(self) if self.shadow is not None else None


class PolicyTable(BaseModel):
    model_config = ConfigDict(extra="forbid")

    default: PolicySpec = PolicySpec()
    models: dict[str, dict[str, Any]] = {}

    def for_model(self, model: str) -> PolicySpec:
        override = self.models.get(model)
        if not override:
            return self.default
        # Validated, not copied: nested settings (``shadow``) become models again.
        return PolicySpec.model_validate({**self.default.model_dump(), **override})

    @classmethod
    def load(cls, path: Path | None) -> PolicyTable:
        if path is None:
            return cls()
        try:
            raw = yaml.safe_load(path.read_text()) or {}
            table = cls.model_validate(raw)
            for name, override in table.models.items():
                PolicySpec.model_validate({**table.default.model_dump(), **override})
                table.models[name] = PolicySpec.model_validate(override).model_dump(exclude_unset=True)
        except OSError as e:
            raise ConfigError(f"cannot read policy file {path}: {e.strerror}") from e
        except (yaml.YAMLError, ValidationError) as e:
            raise ConfigError(f"invalid policy file {path}: {e}") from e
        return table


# How strict each mode is: a "stricter" override may only move right.
STRICTNESS = {Policy.OBSERVE: 0, Policy.ANNOTATE: 1, Policy.REVISE: 2, Policy.BLOCK: 3}
Override = Literal["any", "stricter", "none"]


def resolve(table: PolicyTable, model: str, headers: Mapping[str, str], override: Override = "stricter") -> PolicySpec:
    """The policy for one request: the model's, with per-request header overrides.

    ``override`` says what headers may change: ``any``; ``stricter`` (the default: a stricter
    mode, a higher threshold, and a shorter timeout only where the timeout fails closed — a
    client can never make an unchecked release more likely); ``none`` (headers are ignored).
    """
    spec = table.for_model(model)
    if override == "none":
        return spec
    update: dict[str, Any] = {}
    if (mode := headers.get("x-factsentry-policy")) is not None:
        update["mode"] = mode.strip().lower()
    if (threshold := headers.get("x-factsentry-threshold")) is not None:
        update["threshold"] = threshold
    if (timeout := headers.get("x-factsentry-timeout")) is not None:
        update["timeout_s"] = timeout
    if not update:
        return spec
    try:
        wanted = PolicySpec.model_validate({**spec.model_dump(), **update})
    except ValidationError as e:
        first = e.errors()[0]
        field = str(first["loc"][0]) if first["loc"] else "policy"
        header = {"mode": "x-factsentry-policy", "threshold": "x-factsentry-threshold"}.get(
            field, "x-factsentry-timeout"
        )
        raise InvalidRequest(
            f"invalid header {header}={update.get(field)!r}: {first['msg']}", code="invalid_policy", param=header
        ) from e
    if override == "stricter":
        for ok, header, why in (
            (STRICTNESS[wanted.mode] >= STRICTNESS[spec.mode], "x-factsentry-policy", f"looser than {spec.mode.value}"),
            (wanted.threshold >= spec.threshold, "x-factsentry-threshold", f"below the model's {spec.threshold}"),
            (wanted.timeout_s <= spec.timeout_s, "x-factsentry-timeout", f"longer than the model's {spec.timeout_s}s"),
            # A shorter wait only tightens a timeout that blocks; where it opens, it releases sooner unchecked.
            (
                wanted.timeout_s == spec.timeout_s or not _opens_on_timeout(wanted),
                "x-factsentry-timeout",
                "a shorter wait where the operator's on_timeout is open, which would release answers unchecked",
            ),
        ):
            if not ok:
                raise InvalidRequest(
                    f"header {header} may only make the policy stricter: {headers[header]!r} is {why}",
                    code="policy_override_not_allowed",
                    param=header,
                )
    return wanted


def _opens_on_timeout(spec: PolicySpec) -> bool:
    return spec.on_timeout == "open" and spec.mode in (Policy.BLOCK, Policy.REVISE)


def verdict_headers(result: ResultMessage | None, status: str = "timeout") -> dict[str, str]:
    """``x-factsentry-*`` headers describing a verdict, or why there is none (``timeout``, ``unavailable``)."""
    if result is None:
        return {"x-factsentry-status": status}
    check = result.check
    headers: dict[str, str] = {"x-factsentry-status": check.status}
    if check.coverage is not None:
        headers["x-factsentry-coverage"] = f"{check.coverage:.4f}"
    if check.factscore is not None:
        headers["x-factsentry-factscore"] = f"{check.factscore:.4f}"
    if check.dfactscore is not None:
        headers["x-factsentry-dfactscore"] = f"{check.dfactscore:.4f}"
    headers["x-factsentry-bios"] = str(check.num_bios)
    headers["x-factsentry-entities"] = str(check.num_entities)
    return headers


__all__ = [
    "NO_VERDICT_SETTING",
    "STRICTNESS",
    "Action",
    "DecisionSpec",
    "Override",
    "PolicySpec",
    "PolicyTable",
    "ShadowSpec",
    "decide",
    "decide_why",
    "resolve",
    "verdict_headers",
    "would",
]
