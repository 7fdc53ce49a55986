"""The pure policy decision, shared by the gateway (which enforces it) and the workers (which record what a
shadow policy would have done): the fields a decision needs, :func:`decide`, and the ``would`` record.

The gateway's ``PolicySpec`` (gateway/policy.py) extends :class:`DecisionSpec` with what only the gateway
uses (timeouts, streaming, engine, grounding, reask) and a ``shadow``. Under observe the gateway does not wait
for verdicts, so it puts the shadow's whole decision spec on the generation it publishes
(``GenerationMessage.shadow``) and the worker decides with this same function: both sides agree by
construction. No I/O here.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from schemas.enums import Policy

if TYPE_CHECKING:
    from schemas.messages import ResultMessage


class Action(str, Enum):
    PASS = "pass"
    BLOCK = "block"
    REVISE = "revise"


class DecisionSpec(BaseModel):
    """What :func:`decide` reads of a policy."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    mode: Policy = Policy.OBSERVE
    threshold: float = Field(default=0.7, ge=0.0, le=1.0)
    on_timeout: Literal["open", "closed"] = "closed"
    on_unavailable: Literal["open", "closed"] = "closed"
    # The verdict says the store cannot judge the answer (nobody in it is about anyone the answer
    # describes): pass and annotate release it with the verdict attached, block refuses it.
    on_unverifiable: Literal["pass", "annotate", "block"] = "pass"


class ShadowSpec(BaseModel):
    """A policy evaluated on every verdict but never enforced: ``shadow: {mode: block, threshold: 0.8}``.

    Fields left out follow the enforced policy (its threshold, its ``on_unverifiable``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    mode: Literal[Policy.REVISE, Policy.BLOCK]
    threshold: float | None = Field(default=None, ge=0.0, le=1.0)
    on_unverifiable: Literal["pass", "annotate", "block"] | None = None

    def over(self, enforced: DecisionSpec) -> DecisionSpec:
        """The decision spec of this shadow on top of ``enforced``."""
        update: dict[str, object] = {"mode": self.mode}
        if self.threshold is not None:
            update["threshold"] = self.threshold
        if self.on_unverifiable is not None:
            update["on_unverifiable"] = self.on_unverifiable
        fields = {name: getattr(enforced, name) for name in DecisionSpec.model_fields}
        return DecisionSpec.model_validate({**fields, **update})


class Would(BaseModel):
    """What a shadow policy would have done with an answer (``ResultMessage.would``): never enforced."""

    model_config = ConfigDict(extra="forbid")

    action: Literal["pass", "revise", "block"]
    # Why, one of ``REASONS``.
    reason: str
    mode: str
    threshold: float


# Why a decision came out as it did. Without a verdict: its status (timeout, failed, unavailable).
REASONS = (
    "cleared",  # D-FActScore at or above the threshold
    "not_enforced",  # observe and annotate never withhold an answer
    "abstained",  # nothing in the answer to check
    "unverifiable",  # the store cannot judge the answer (on_unverifiable decides)
    "no_score",  # checked, but no D-FActScore to hold against the threshold
    "partial",  # part of the answer was left unchecked: it cannot clear the whole under block or revise
    "conflated",  # below the threshold, and the answer merges different people into one
    "unsupported",  # below the threshold: statements its sources do not support
    "timeout",
    "failed",
    "unavailable",
)

# Why there is no verdict, and which operator setting decides what then happens.
NO_VERDICT_SETTING = {"timeout": "on_timeout", "failed": "on_unavailable", "unavailable": "on_unavailable"}


def decide_why(spec: DecisionSpec, result: ResultMessage | None, status: str = "timeout") -> tuple[Action, str]:
    """:func:`decide` with its reason (one of ``REASONS``)."""
    guarding = spec.mode in (Policy.BLOCK, Policy.REVISE)
    if result is None:
        reason = status if status in NO_VERDICT_SETTING else "unavailable"
        if not guarding:
            return Action.PASS, reason
        setting = NO_VERDICT_SETTING.get(status, "on_unavailable")
        return (Action.PASS if getattr(spec, setting) == "open" else Action.BLOCK), reason
    check = result.check
    if guarding and check.partial:
        return (Action.PASS if spec.on_unavailable == "open" else Action.BLOCK), "partial"
    if not guarding:
        return Action.PASS, "not_enforced"
    if check.abstained:
        return Action.PASS, "abstained"
    if check.unverifiable:
        return (Action.BLOCK if spec.on_unverifiable == "block" else Action.PASS), "unverifiable"
    if check.dfactscore is None:
        return Action.PASS, "no_score"
    if check.dfactscore >= spec.threshold:
        return Action.PASS, "cleared"
    reason = "conflated" if any(g.conflated for g in check.groups) else "unsupported"
    if spec.mode is Policy.REVISE and check.revision is not None and check.revision.text.strip():
        return Action.REVISE, reason
    return Action.BLOCK, reason


def decide(spec: DecisionSpec, result: ResultMessage | None, status: str = "timeout") -> Action:
    """What to do with an answer once its verdict is known.

    Without a verdict (``status`` says why: ``timeout``, ``failed`` — the pipeline gave up on it or it
    was never published —, ``unavailable`` — Redis unreachable) block and revise follow the operator's
    ``on_timeout`` / ``on_unavailable``; anything else fails closed.
    """
    return decide_why(spec, result, status)[0]


def would(shadow: DecisionSpec, result: ResultMessage | None, status: str = "timeout") -> Would:
    """What the shadow policy ``shadow`` would have done with ``result`` (or without a verdict, ``status``)."""
    action, reason = decide_why(shadow, result, status)
    return Would(action=action.value, reason=reason, mode=shadow.mode.value, threshold=shadow.threshold)
