"""Reask: an answer that did not clear is sent back to its model once, and the rewrite checked.

Under block or revise with ``reask: true`` (non-streamed requests), the statements the check could not
support are listed to the model with the instruction to correct or leave them out. The rewrite is decided on
when it clears the threshold or scores a higher D-FActScore; otherwise the first answer's verdict stands.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any

from gateway.errors import GatewayError
from gateway.policy import Action, decide
from gateway.release import unsupported_statements
from gateway.request import ChatCall, new_request_id
from gateway.state import Gateway
from gateway.upstream import Completion
from schemas.messages import ResultMessage

log = logging.getLogger(__name__)


# What the model is told when its answer is sent back under a reask policy.
REASK_PROMPT = (
    "An automatic fact-check could not confirm these statements in your previous answer:\n{facts}\n"
    "Rewrite your answer to the same question: correct or leave out these statements, keep what is right, "
    "and do not add claims you are not sure of. Reply with the new answer only."
)
# At most this many statements are listed (the worst first, in answer order).
REASK_MAX_FACTS = 12


@dataclass
class Reask:
    """What came of sending an answer back once: ``won`` holds the rewrite's completion, verdict, status and
    action when the rewrite is the one decided on."""

    outcome: str
    listed: int = 0
    request_id: str | None = None
    upstream_s: float = 0.0
    dfactscore: float | None = None
    won: tuple[Completion, ResultMessage, str, Action] | None = None

    def body(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "statements_listed": self.listed,
            "request_id": self.request_id,
            "dfactscore": self.dfactscore,
        }


async def reask(gw: Gateway, call: ChatCall, first: Completion, result: ResultMessage) -> Reask:
    """Send an answer that did not clear back to the model once, with the statements the check could not
    support, and check the rewrite. The rewrite is decided on only when it clears, or scores a higher
    D-FActScore than the first; otherwise — no verdict for it, an upstream error — the first answer's
    verdict and action stand, so a reask never releases anything the policy would not."""
    model, spec = call.model, call.spec
    statements = unsupported_statements(result)[:REASK_MAX_FACTS]
    if not statements:
        gw.metrics.reasks.labels(model, "kept").inc()
        return Reask("nothing_listed")
    prompt = REASK_PROMPT.format(facts="\n".join(f"- {s}" for s in statements))
    turns = [*call.messages, {"role": "assistant", "content": first.text}, {"role": "user", "content": prompt}]
    t0 = time.perf_counter()
    try:
        second = await call.upstream.complete({**call.body, "messages": turns})
    except GatewayError as e:
        gw.metrics.reasks.labels(model, "upstream_error").inc()
        log.warning("reask of a %s answer failed upstream (%s): the first verdict stands", model, e)
        return Reask("upstream_error", len(statements), upstream_s=time.perf_counter() - t0)
    upstream_s = time.perf_counter() - t0
    rid = new_request_id()
    # The rewrite answers the user's question (its ``question``), not the fact-check's prompt.
    message = call.generation(second.text, second.usage, stream=False, request_id=rid, messages=turns)
    outcome = await gw.verdict(rid, spec.timeout_s, gw.publisher.publish(message))
    if outcome.result is None or outcome.result.check.partial:
        # No whole verdict for the rewrite: it cannot replace an answer that has one, whatever the
        # operator's open settings would do with an answer that had none. A broker or Redis that is down
        # is named so, as chat completions name it.
        missing = "unavailable" if outcome.status == "unavailable" else "no_verdict"
        gw.metrics.reasks.labels(model, missing).inc()
        return Reask(missing, len(statements), rid, upstream_s)
    second_result = outcome.result
    action = decide(spec, second_result, outcome.status)
    score = second_result.check.dfactscore
    before = result.check.dfactscore
    better = action is Action.PASS or (score is not None and (before is None or score > before))
    if not better:
        gw.metrics.reasks.labels(model, "kept").inc()
        return Reask("kept", len(statements), rid, upstream_s, score)
    gw.metrics.reasks.labels(model, "improved").inc()
    won = (second, second_result, outcome.status, action)
    return Reask("improved", len(statements), rid, upstream_s, score, won)
