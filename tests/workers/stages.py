"""Small real stages for testing the generic runner (any handler is a fair test of the runner)."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from pydantic import BaseModel

from schemas.messages import GenerationMessage
from workers.errors import RetriableError, WorkerError
from workers.settings import WorkerSettings
from workers.stage import Context, Stage


class WordCount(BaseModel):
    request_id: str
    words: int


# When the handling of each request id first started (time.monotonic(); tests use ids of their own).
STARTED: dict[str, float] = {}


class Poisoned(WorkerError):
    """Raised for answers containing POISON: never retriable."""


async def count_words(batch: list[GenerationMessage], ctx: Context) -> list[WordCount | BaseException | None]:
    """Counts the words of each answer. Test hooks in the answer text:

    ``FLAKY<n>`` fails with a retriable error on the first n attempts of that request;
    ``POISON`` raises a non-retriable error for the whole call; ``SLOW<s>`` sleeps s seconds.
    """
    attempts: Counter[str] = ctx.state.setdefault("attempts", Counter())
    results: list[WordCount | BaseException | None] = []
    for message in batch:
        attempts[message.request_id] += 1
        STARTED.setdefault(message.request_id, time.monotonic())
        if "POISON" in message.answer:
            raise Poisoned(f"poisoned answer in {message.request_id}")
        for word in message.answer.split():
            if word.startswith("SLOW"):
                await asyncio.sleep(float(word[4:]))
        flaky = next((int(w[5:]) for w in message.answer.split() if w.startswith("FLAKY")), 0)
        if attempts[message.request_id] <= flaky:
            results.append(RetriableError(f"transient failure {attempts[message.request_id]} of {message.request_id}"))
            continue
        results.append(WordCount(request_id=message.request_id, words=len(message.answer.split())))
    return results


_stuck_pool = ThreadPoolExecutor(1, thread_name_prefix="stuck-check")


async def stuck_words(batch: list[GenerationMessage], ctx: Context) -> list[WordCount | BaseException | None]:
    """Like a check that never returns: a pool thread busy for ``STUCK<s>`` seconds (a thread cannot be stopped)."""
    for message in batch:
        for word in message.answer.split():
            if word.startswith("STUCK"):
                await asyncio.get_running_loop().run_in_executor(_stuck_pool, time.sleep, float(word[5:]))
    return [WordCount(request_id=m.request_id, words=len(m.answer.split())) for m in batch]


def stuck(settings: WorkerSettings) -> Stage[GenerationMessage, WordCount]:
    """generations → word counts, with a handler thread that can be stuck."""
    return dataclasses.replace(word_count(settings), name="stuck", handle=stuck_words)


def word_count(settings: WorkerSettings) -> Stage[GenerationMessage, WordCount]:
    """generations → word counts, keyed by request id."""
    return Stage(
        name="word-count",
        input_topic=settings.generations_topic,
        output_topic=settings.results_topic,
        input_model=GenerationMessage,
        output_model=WordCount,
        handle=count_words,
        key=lambda out: out.request_id,
    )


async def words_to_redis(outputs: list[WordCount], ctx: Context) -> None:
    """Also keep each count in Redis (a second destination, written before the commit)."""
    for out in outputs:
        await ctx.redis.set(f"{ctx.settings.redis_prefix}:words:{out.request_id}", out.words)


def word_count_to_redis(settings: WorkerSettings) -> Stage[GenerationMessage, WordCount]:
    """generations → word counts on the output topic and in Redis."""
    return dataclasses.replace(word_count(settings), name="word-count-redis", deliver=words_to_redis)
