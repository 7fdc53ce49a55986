"""Policy what-if: what a candidate policy file would have done to the verdicts of a time window.

Before an operator raises a threshold or moves a model from observe to block, ``factsentry replay --policy
CANDIDATE.yaml`` answers "what would that have blocked last week?": each stored verdict is decided once
under the policy in force (``--current``, else the gateway's ``FACTSENTRY_POLICY_FILE``) and once under the
candidate, with the gateway's own :func:`gateway.policy.decide`, and the two are set side by side per model.
Nothing is re-scored unless ``--kb`` or ``--engine`` asks for fresh verdicts; then the candidate decides on
the fresh verdict and the current policy on the live one, so a store change and a policy change can be
judged together.

Only answers a policy governs count: verdicts of the direct ``/v1/factcheck`` API, hold-back checks of
part of an answer (``partial_of``) and replay runs' own verdicts are left out. Per-request header overrides
are not recorded with a verdict, so every answer is decided under its model's policy.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from gateway.policy import Action, PolicyTable, decide
from schemas.messages import ResultMessage

ACTIONS = tuple(a.value for a in Action)


def governed(result: ResultMessage) -> bool:
    """Whether a stored verdict is one a gateway policy acted on (see the module docstring)."""
    return result.run is None and result.partial_of is None and result.source != "factcheck"


@dataclass(frozen=True)
class Flip:
    """One answer the candidate policy treats otherwise than the policy in force."""

    request_id: str
    model: str
    now: str
    candidate: str
    status: str
    dfactscore: float | None
    # What the live verdict's shadow policy said (its recorded ``would``), if it had one.
    would: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "request_id": self.request_id,
            "model": self.model,
            "now": self.now,
            "candidate": self.candidate,
            "status": self.status,
            "dfactscore": self.dfactscore,
            "would": self.would,
        }


@dataclass
class Tally:
    answers: int = 0
    now: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ACTIONS, 0))
    candidate: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ACTIONS, 0))
    flips: int = 0
    # The shadow decisions recorded on the live verdicts (``ResultMessage.would``), over those that have one.
    would: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ACTIONS, 0))

    def add(self, now: Action, candidate: Action, would: str | None = None) -> None:
        self.answers += 1
        self.now[now.value] += 1
        self.candidate[candidate.value] += 1
        self.flips += now is not candidate
        if would is not None:
            self.would[would] += 1

    def summary(self) -> dict[str, Any]:
        def rates(counts: dict[str, int]) -> dict[str, float]:
            return {a: round(counts[a] / self.answers, 4) if self.answers else 0.0 for a in ACTIONS}

        return {
            "answers": self.answers,
            "now": dict(self.now),
            "candidate": dict(self.candidate),
            "now_rate": rates(self.now),
            "candidate_rate": rates(self.candidate),
            "flips": self.flips,
            "would": dict(self.would),
        }


def compare_policies(
    pairs: Iterable[tuple[ResultMessage, ResultMessage]], current: PolicyTable, candidate: PolicyTable
) -> dict[str, Any]:
    """Decide each (verdict in force, verdict for the candidate) pair under both policies.

    Without re-scoring both verdicts of a pair are the same stored one. Returns per model and overall
    the counts and rates of pass / block / revise now and under the candidate, the counts of what the shadow
    policy in force recorded on the live verdicts (``would``; a candidate that promotes that shadow flips
    exactly its would-blocks and would-revises), and every request whose action flips, in the order given.
    Shadows never change an action: a candidate's own ``shadow`` is accepted and leaves its actions as they are.

    >>> from datetime import UTC, datetime
    >>> from schemas.check import CheckResult
    >>> low = ResultMessage(request_id="r1", model="bot", scored_at=datetime.now(UTC),
    ...                     check=CheckResult(factscore=0.6, dfactscore=0.6, num_bios=1, num_entities=1))
    >>> strict = PolicyTable.model_validate({"default": {"mode": "block", "threshold": 0.8}})
    >>> report = compare_policies([(low, low)], PolicyTable(), strict)
    >>> report["overall"]["now"]["pass"], report["overall"]["candidate"]["block"], report["flips"][0]["candidate"]
    (1, 1, 'block')
    """
    models: dict[str, Tally] = {}
    overall = Tally()
    flips: list[Flip] = []
    for live, fresh in pairs:
        now = decide(current.for_model(live.model), live)
        then = decide(candidate.for_model(fresh.model), fresh)
        recorded = live.would.action if live.would is not None else None
        models.setdefault(live.model, Tally()).add(now, then, recorded)
        overall.add(now, then, recorded)
        if now is not then:
            flips.append(
                Flip(
                    live.request_id,
                    live.model,
                    now.value,
                    then.value,
                    fresh.check.status,
                    fresh.check.dfactscore,
                    recorded,
                )
            )
    return {
        "overall": overall.summary(),
        "models": {model: tally.summary() for model, tally in sorted(models.items())},
        "flips": [f.as_dict() for f in flips],
    }


def latest_governed(verdicts: Iterable[ResultMessage]) -> list[ResultMessage]:
    """The governed verdicts, one per request (the last one read wins), in the order first seen."""
    by_request: dict[str, ResultMessage] = {}
    for result in verdicts:
        if governed(result):
            by_request[result.request_id] = result
    return list(by_request.values())
