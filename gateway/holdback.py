"""Sentence hold-back streaming (policy ``stream: holdback``, block and revise modes).

Instead of holding a streamed answer whole until its verdict, each sentence goes to the client as
soon as its facts are verified. While the upstream streams, complete sentences are collected; the
answer so far (everything already decided plus the new sentences) is checked like a generation of
its own (``partial_of`` = the request id), so facts about a person are judged within that person's
group as the answer has built it; then each new sentence is decided:

- it passes when the share of its check-worthy facts that the entity of its group supports (its
  D-FActScore) reaches the policy's threshold, or when the answer cannot be judged and
  ``on_unverifiable`` is not ``block``;
- under **block**, the first sentence that fails ends the answer: nothing after it is released and
  the stream ends with a refusal delta and ``finish_reason: content_filter``;
- under **revise**, a failing sentence is left out and the stream goes on.

Without a verdict (timeout, pipeline down) the policy's ``on_timeout`` / ``on_unavailable`` decide,
as everywhere: closed fails the sentences, open releases them (counted as released unchecked). One
check runs at a time; sentences completed meanwhile are checked together in the next one. When the
upstream ends, the whole answer is checked under the request's own id: that is the verdict of the
final chunk and of ``/v1/results/{id}``. Every chunk keeps one stream id.

Tool calls (an agent's ``tool_calls`` deltas) are not text to check: they are held until the answer is
decided, then released whole before the finishing chunk (``finish_reason`` the upstream's, ``tool_calls``) —
unless the answer was stopped, as a buffered stream's block drops them with the text it withholds.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from gateway import sse
from gateway.errors import GatewayError
from gateway.policy import Action, PolicySpec
from gateway.release import Release, final_chunks
from schemas.enums import Policy, Verdict, Worthiness
from schemas.messages import ResultMessage

# A sentence ends at . ! ? (then closing quotes or brackets) before white space, or at a line break.
_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+|\n+")
# Words whose full stop does not end a sentence; single capitals (initials) neither.
_ABBREVIATIONS = frozenset(
    "mr mrs ms dr prof st jr sr vs etc inc ltd co corp no vol fig gen col lt sgt capt rev hon mt ft e.g i.e u.s".split()
)
# The marker that ends a stopped answer (a refusal delta), saying why the rest was withheld.
WITHHELD = " [The rest of this answer was withheld: {reason}.]"
WITHHELD_REASONS = {
    "conflated": "it merges different people into one",
    "unsupported": "it states facts its sources do not support",
    "unverifiable": "it could not be checked against the knowledge this assistant relies on",
    "partial": "it is longer than the fact-checker reads",
    "timeout": "it could not be fact-checked in time",
    "failed": "it could not be fact-checked (the check failed)",
    "unavailable": "it could not be fact-checked (the fact-checker is unavailable)",
}


def withheld(reason: str) -> str:
    """The marker of a stopped answer for ``reason`` (a key of ``WITHHELD_REASONS``)."""
    return WITHHELD.format(reason=WITHHELD_REASONS.get(reason, WITHHELD_REASONS["unavailable"]))


Judge = Callable[[str, str, bool], Awaitable[tuple[ResultMessage | None, str, Action]]]


def split_complete(pending: str) -> tuple[list[str], str]:
    """The complete sentences at the start of ``pending`` (each with its trailing white space) and the rest."""
    pieces: list[str] = []
    start = 0
    for m in _END.finditer(pending):
        if not m.group().startswith("\n"):
            words = pending[start : m.start()].split()
            last = words[-1].rstrip(".!?\"')]").lower() if words else ""
            if last in _ABBREVIATIONS or (len(last) == 1 and last.isalpha()):
                continue
        if pending[start : m.end()].strip():
            pieces.append(pending[start : m.end()])
            start = m.end()
    return pieces, pending[start:]


@dataclass
class Decided:
    released: list[str] = field(default_factory=list)
    dropped: int = 0
    stopped: bool = False
    reason: str = ""  # why the last sentence withheld was (a key of WITHHELD_REASONS)
    unchecked: int = 0  # sentences released without a verdict (on_timeout/on_unavailable open)


class Holdback:
    """Decides sentences in order; ``judge(text, request_id, final)`` checks the answer so far."""

    def __init__(self, spec: PolicySpec, request_id: str, judge: Judge) -> None:
        self.spec = spec
        self.request_id = request_id
        self.judge = judge
        self.checked = ""  # the answer as far as checked (decided sentences, released or not)
        self.seen_sentences = 0  # sentences the checker read in that text
        self.checks = 0
        self.decided = Decided()
        self.last: tuple[ResultMessage | None, str, Action] | None = None
        self.last_id = request_id

    async def check(self, pieces: list[str], final: bool) -> list[str]:
        """Check ``pieces`` (appended to what is checked) and return the ones to release."""
        if self.decided.stopped or not pieces:
            return []
        text = self.checked + "".join(pieces)
        self.checks += 1
        rid = self.request_id if final else f"{self.request_id}.h{self.checks}"
        result, status, action = await self.judge(text, rid, final)
        self.last, self.last_id = (result, status, action), rid
        why, unchecked = self._failing(pieces, result, status, action)
        self.checked = text
        if result is not None:
            self.seen_sentences = len(result.check.sentences)
        out: list[str] = []
        for i, (piece, reason) in enumerate(zip(pieces, why, strict=True)):
            if reason is None:
                out.append(piece)
                self.decided.unchecked += i in unchecked
                continue
            self.decided.reason = reason
            if self.spec.mode is Policy.BLOCK:
                self.decided.stopped = True
                break
            self.decided.dropped += 1
        self.decided.released += out
        return out

    def _failing(
        self, pieces: list[str], result: ResultMessage | None, status: str, action: Action
    ) -> tuple[list[str | None], set[int]]:
        """Why each of ``pieces`` may not go (a key of ``WITHHELD_REASONS``, None when it goes), and which of
        them go unchecked (the operator's open setting).

        ``policy.decide``'s ``action`` on the answer so far is asked first, and only then which sentences its
        verdict clears: without a verdict, pieces go only where the operator opened it; with a partial one, a
        sentence past what the checker read goes only on on_unavailable open, never because nothing refuted
        it. Either way it is counted."""
        n = len(pieces)
        if result is None:
            if action is Action.PASS:  # the operator's on_timeout / on_unavailable = open
                return [None] * n, set(range(n))
            return [status if status in WITHHELD_REASONS else "unavailable"] * n, set()
        check = result.check
        if check.abstained:
            why: list[str | None] = [None] * n
        elif check.unverifiable:
            why = [None if self.spec.on_unverifiable != "block" else "unverifiable"] * n
        else:
            why = self._by_sentence(pieces, result)
        if check.partial:
            unread = {i for i, no in enumerate(self._unread(pieces, check.checked_chars)) if no}
            if action is not Action.PASS:
                for i in unread:
                    why[i] = why[i] or "partial"
            return why, unread
        if action is not Action.PASS and self.spec.mode is Policy.BLOCK and not any(why):
            # The answer so far does not clear though no new sentence fails on its own (the new text moved a
            # group to another person, and sentences already out no longer hold): block stops here.
            return ["conflated" if any(g.conflated for g in check.groups) else "unsupported"] * n, set()
        return why, set()

    def _unread(self, pieces: list[str], checked_chars: int | None) -> list[bool]:
        """Which of ``pieces`` (appended to the text checked before) end past the first ``checked_chars``."""
        if checked_chars is None:
            return [True] * len(pieces)
        offset = len(self.checked)
        unread: list[bool] = []
        for piece in pieces:
            unread.append(offset + len(piece.rstrip()) > checked_chars)
            offset += len(piece)
        return unread

    def _by_sentence(self, pieces: list[str], result: ResultMessage) -> list[str | None]:
        """Sentence by sentence: a piece passes when, for each checker sentence in it, the share of its
        check-worthy facts its group's entity supports (its D-FActScore) reaches the threshold."""
        check = result.check
        # The checker's sentences from the first one not read before; the last one read before is read
        # again in case the new text continued it (a boundary the stream guessed wrong).
        first_new = max(0, self.seen_sentences - 1) if self.seen_sentences else 0
        supported: dict[int, list[bool]] = {}  # checker sentence -> its check-worthy facts, supported or not
        merged: set[int] = set()  # checker sentences with a fact in a group that merges people
        for group in check.groups:
            for fact in group.facts:
                if fact.sentence_index >= first_new and fact.worthiness is Worthiness.FACTUAL:
                    verdict = fact.verdict_linked or fact.verdict
                    supported.setdefault(fact.sentence_index, []).append(verdict is Verdict.SUPPORTED)
                    if group.conflated:
                        merged.add(fact.sentence_index)
        why: list[str | None] = [None] * len(pieces)
        for index, flags in supported.items():
            if sum(flags) / len(flags) >= self.spec.threshold:
                continue
            reason = "conflated" if index in merged else "unsupported"
            sentence = check.sentences[index] if index < len(check.sentences) else ""
            owner = _owner(sentence, pieces)
            if owner is None:
                if index >= self.seen_sentences:  # a new sentence not found in any piece: fail them all
                    return [reason] * len(pieces)
                continue  # an already released sentence, read again
            why[owner] = why[owner] or reason
        return why


def _owner(sentence: str, pieces: list[str]) -> int | None:
    """The piece that holds the checker's ``sentence`` (compared on its words)."""
    words = sentence.split()
    probe = " ".join(words[:8])
    for i, piece in enumerate(pieces):
        if probe and probe in " ".join(piece.split()):
            return i
    return None


async def stream(
    chunks: AsyncIterator[dict[str, Any]],
    first: dict[str, Any] | None,
    holdback: Holdback,
    *,
    stream_id: str,
    model: str,
    created: int,
    on_done: Callable[[str], Awaitable[Release]],
    usage: Callable[[], dict[str, Any] | None] = lambda: None,
    on_closed: Callable[[str, bool, str], None] = lambda text, checked, outcome: None,
) -> AsyncGenerator[dict[str, Any], None]:
    """The chunks of the sentences released as they are decided, then the last chunks (the route renders them:
    gateway/sse.py for chat completions, gateway/responses.py for the Responses API).

    ``on_done(full_text)`` returns what the release gate makes of the decided answer: the stop marker (a
    refusal) if the answer was stopped, the finish and the verdict (gateway/release.py renders them); ``usage()``
    the upstream's usage for the last chunk, when the client asked for it. ``on_closed(text_received,
    final_check_started, outcome)`` runs instead of ``on_done`` when the stream ends early: the client went away
    (``client_closed``) or the upstream failed (that error's outcome)."""
    base = {"id": stream_id, "object": "chat.completion.chunk", "created": created, "model": model}
    sent_role = False

    def content(text: str) -> dict[str, Any]:
        nonlocal sent_role
        delta: dict[str, Any] = {"content": text}
        if not sent_role:
            delta["role"] = "assistant"
            sent_role = True
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}

    pending = ""
    received: list[str] = []
    waiting: list[str] = []
    upstream_done = False
    checking: asyncio.Task[list[str]] | None = None
    reading: asyncio.Task[dict[str, Any] | None] | None = None

    async def next_chunk() -> dict[str, Any] | None:
        return await anext(chunks, None)

    calls: list[dict[str, Any]] = []  # the tool call deltas, held until the answer is decided
    upstream_finish: list[str] = []

    def hold_calls(chunk: dict[str, Any]) -> None:
        for choice in chunk.get("choices") or []:
            if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta")
            parts = (
                {k: delta[k] for k in ("tool_calls", "function_call") if delta.get(k)}
                if isinstance(delta, dict)
                else {}
            )
            if parts:
                calls.append({**base, "choices": [{"index": 0, "delta": parts, "finish_reason": None}]})
            if isinstance(choice.get("finish_reason"), str):
                upstream_finish.append(choice["finish_reason"])

    if first is not None:
        received.append(sse.delta_text(first))
        pending = received[-1]
        hold_calls(first)
    finished = final_started = False
    outcome = "client_closed"
    try:
        while True:
            pieces, pending = split_complete(pending)
            waiting += pieces
            if checking is None and waiting and not upstream_done:
                checking = asyncio.create_task(holdback.check(waiting, final=False))
                waiting = []
            if upstream_done and checking is None:
                break
            if reading is None and not upstream_done:
                reading = asyncio.create_task(next_chunk())
            done, _ = await asyncio.wait([t for t in (checking, reading) if t], return_when=asyncio.FIRST_COMPLETED)
            if checking in done:
                for piece in checking.result():
                    yield content(piece)
                checking = None
                if holdback.decided.stopped:
                    break
            if reading in done:
                chunk = reading.result()
                reading = None
                if chunk is None:
                    upstream_done = True
                else:
                    text = sse.delta_text(chunk)
                    received.append(text)
                    pending += text
                    hold_calls(chunk)
        if not holdback.decided.stopped:
            # The end: the sentences still waiting and the unfinished tail, checked with the whole answer.
            tail = [*waiting, pending] if pending.strip() else waiting
            final_started = True
            for piece in await holdback.check(tail, final=True):
                yield content(piece)
        finished = True
    except GatewayError as e:
        outcome = e.outcome
        raise
    finally:
        if not finished:  # the client went away (or the upstream failed): the answer is still accounted for
            on_closed("".join(received), final_started, outcome)
        for task in (checking, reading):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
    rel = await on_done("".join(received))
    if calls and rel.refusal is None:  # released whole once the answer is decided (see the module's text)
        if not sent_role:
            calls[0]["choices"][0]["delta"] = {"role": "assistant", **calls[0]["choices"][0]["delta"]}
            sent_role = True
        for chunk in calls:
            yield chunk
    finish = upstream_finish[-1] if calls and rel.refusal is None and upstream_finish else None
    for chunk in final_chunks(rel, base, with_role=not sent_role, usage=usage(), finish=finish):
        yield chunk
