"""The scoring stage: ``factsentry.generations.v1`` → ``scoring.pipeline.check`` → ``factsentry.results.v1`` + Redis.

Each generation is checked against the knowledge store with its ``name`` and ``question`` (the
question falls back to the last user message), or against the documents it carries (and the store
too under ``grounding: documents_and_store``). Scoring is CPU work, so it runs off the event
loop: in a thread pool (``executor=thread``, the default; the store serves each thread its own
SQLite connection) or in a pool of spawned processes (``executor=process``; each opens the
store and the cache itself), ``concurrency`` wide. Each verdict is produced to the results topic
keyed by request id and written to Redis (``ResultStore.put``, which also wakes gateway waiters)
before the batch is committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import logging
import multiprocessing
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bus.results import ResultStore
from knowledge.documents import DocumentSource
from knowledge.store import Store
from schemas.check import CheckResult
from schemas.enums import Policy
from schemas.messages import GenerationMessage, ResultMessage
from schemas.policy import would
from scoring.language import language_label
from workers.errors import EngineUnavailable, OverBudget, RetriableError, ScoringUnavailable
from workers.kb import Knowledge, open_knowledge, resolve_kb_path
from workers.metrics import Outcome, WorkerMetrics
from workers.settings import WorkerSettings
from workers.stage import Context, Stage
from workers.tracing import StepTime, record_check, span_of, timed, timing

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class EngineOptions:
    """What each scoring thread or process builds its checkers from (picklable)."""

    default: str = "offline"
    models_file: Path | None = None
    judge_model: str | None = None
    judge_timeout_s: float = 30.0
    judge_call_retries: int = 3
    hybrid_llm_steps: frozenset[str] = frozenset()
    rules_off: frozenset[str] = frozenset()
    nli_model_dir: Path | None = None
    parse_cache_size: int = 4_000
    # Time each step of a check (tracing on: workers/tracing.py).
    timed: bool = False

    @classmethod
    def of(cls, settings: WorkerSettings, timed: bool = False) -> EngineOptions:
        steps = frozenset(s for s in settings.hybrid_llm_steps.split(",") if s)
        return cls(
            settings.engine,
            settings.models_file,
            settings.judge_model,
            settings.judge_timeout_s,
            settings.judge_call_retries,
            steps,
            frozenset(r.strip() for r in settings.rules_off.split(",") if r.strip()),
            settings.nli_model_dir,
            settings.parse_cache_size,
            timed,
        )


def build_checkers(options: EngineOptions) -> dict[str, Any]:
    """The checker of every engine this worker can run: ``offline`` always, ``llm`` and ``hybrid`` when an LLM
    judge is configured. Raises :class:`ScoringUnavailable` (the worker does not start) on a bad setting."""
    try:
        from scoring.engines import build_checker, engine_names, get_engine
        from scoring.errors import ScoringError
        from scoring.llm.client import LiteLLMJudge
        from scoring.llm.steps import LLMConfig
        from scoring.pipeline import default_config, use_nli_model
        from scoring.rules import UnknownRule
    except ImportError as e:
        raise ScoringUnavailable(f"the scoring pipeline cannot be loaded: {e}") from e
    try:
        config = default_config(options.rules_off)  # FACTSENTRY_RULES_OFF names only rules that exist
    except UnknownRule as e:
        raise ScoringUnavailable(f"FACTSENTRY_RULES_OFF: {e}") from e
    use_nli_model(options.nli_model_dir)  # the stance model of every check here (and in each spawned process)
    try:
        default = get_engine(options.default)
        judge = None
        if options.judge_model:
            if options.models_file is None:
                raise ScoringUnavailable("FACTSENTRY_JUDGE_MODEL needs FACTSENTRY_MODELS_FILE (the litellm model list)")
            judge = LiteLLMJudge.load(options.models_file, options.judge_model, options.judge_timeout_s)
        elif default.needs_judge:
            raise ScoringUnavailable(
                f"FACTSENTRY_ENGINE={default.name} calls an LLM judge: set FACTSENTRY_JUDGE_MODEL to a model_name "
                "of FACTSENTRY_MODELS_FILE"
            )
        llm = LLMConfig(call_retries=options.judge_call_retries, hybrid_llm_steps=options.hybrid_llm_steps)
        checkers = {
            name: build_checker(name, config=config, complete=judge, llm=llm, judge=options.judge_model)
            for name in engine_names()
            if judge is not None or not get_engine(name).needs_judge
        }
        return {name: timed(c) for name, c in checkers.items()} if options.timed else checkers
    except ScoringError as e:
        raise ScoringUnavailable(f"FACTSENTRY_ENGINE: {e}") from e


def question_of(message: GenerationMessage) -> str | None:
    """The question an answer replies to: the message's own, else the last user message's text."""
    if message.question:
        return message.question
    for chat in reversed(message.messages):
        if chat.role != "user":
            continue
        if isinstance(chat.content, str):
            return chat.content or None
        if isinstance(chat.content, list):
            parts = [p.get("text", "") for p in chat.content if isinstance(p, dict) and p.get("type") == "text"]
            return " ".join(p for p in parts if p) or None
    return None


# A generation's documents as the executor takes them (picklable): (title, text, entity, id) rows, and
# whether the store is used as well.
Grounding = tuple[list[tuple[str, str, str, str]], bool]


def grounding_of(message: GenerationMessage) -> Grounding | None:
    if not message.documents:
        return None
    rows = [(d.title, d.text, d.entity, d.id) for d in message.documents]
    return rows, message.grounding == "documents_and_store"


class Scorer:
    """Checks one answer against the knowledge store with its engine; this is what runs on the executor."""

    def __init__(self, knowledge: Knowledge, checkers: dict[str, Any], default: str) -> None:
        self.knowledge = knowledge
        self.checkers = checkers
        self.default = default

    def __call__(
        self,
        text: str,
        name: str | None,
        question: str | None,
        engine: str | None = None,
        documents: Grounding | None = None,
    ) -> tuple[CheckResult, float]:
        engine = engine or self.default
        checker = self.checkers.get(engine)
        if checker is None:
            raise EngineUnavailable(
                f"engine {engine!r} is not available on this worker (it runs {', '.join(sorted(self.checkers))}; "
                "llm and hybrid need FACTSENTRY_JUDGE_MODEL)"
            )
        start = time.perf_counter()
        knowledge = self.knowledge
        if documents is None:
            result = checker.check(text, kb=knowledge.source, name=name, question=question, cache=knowledge.verdicts)
            return result, (time.perf_counter() - start) * 1000
        # A request's own documents: checked against them (and the store), in memory; their verdicts are not
        # written to the shared cache, so one tenant's documents never outlive its request there.
        rows, with_store = documents
        source = DocumentSource.of(rows, knowledge.source if with_store else None)
        try:
            result = checker.check(text, kb=source, name=name, question=question)
            source.name_evidence(result)  # a tool message's evidence names its tool_call_id
        finally:
            source.close()
        return result, (time.perf_counter() - start) * 1000

    def prepare(self, texts: list[str], engines: list[str | None]) -> None:
        """Parse the sentences of a batch's answers together, each with its engine's checker
        (``Checker.prepare``); the checks that follow find their parses cached."""
        by_engine: dict[str, list[str]] = {}
        for text, engine in zip(texts, engines, strict=True):
            by_engine.setdefault(engine or self.default, []).append(text)
        for engine, some in by_engine.items():
            checker = self.checkers.get(engine)
            if checker is not None:
                checker.prepare(some)


# One scorer per pool process, made by the pool's initializer.
_process_scorer: Scorer | None = None

# The collector's youngest generation is collected after this many allocations (Python's default: 700). A
# scoring process holds a large, long-lived heap (the spaCy pipeline, cached parses), and a check allocates
# many short-lived objects: with the default, 200 cold checks of AmbigBio answers ran 429 collections, 7.8 %
# of their CPU time; with 20,000, 13 collections and 2.2 % (issue #12), with the same peak memory.
GC_YOUNG_THRESHOLD = 20_000


def collect_less_often() -> None:
    """Set the collector's youngest threshold to ``GC_YOUNG_THRESHOLD`` (the older ones are left as they are);
    done in every process that scores (the worker, each process of a process pool)."""
    _, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, middle, old)


def bound_parse_cache(size: int) -> None:
    """Keep at most ``size`` parsed sentences in this process's parse cache (``scoring.nlp``).

    A cached parse of an answer or passage sentence held about 60 KB (tokens, tags, the embedding tensor):
    3,000 checks of AmbigBio dev answers filled 5,555 entries and took a worker from 496 to 821 MB RSS;
    ``scoring.nlp``'s own bound of 20,000 would let one process grow by about 1.2 GB before it stops. A
    batch's parses (``Scorer.prepare``: 32 answers and their passages, a few hundred sentences) fit many
    times in the worker's default. ``scoring.nlp`` drops each parse's tensor (no step reads it): checking the
    1,000 answers in cycles in one process, RSS plateaued at 877-885 MB with it and 811 MB without (issue #31).
    """
    from scoring import nlp

    nlp.CACHE_SIZE = size


def _init_process(
    kb_path: Path | None, redis_url: str, prefix: str, redis_options: dict[str, Any], engines: EngineOptions
) -> None:
    global _process_scorer
    collect_less_often()
    bound_parse_cache(engines.parse_cache_size)
    knowledge = open_knowledge(kb_path, redis_url, prefix=prefix, redis_options=redis_options)
    _process_scorer = Scorer(knowledge, build_checkers(engines), engines.default)
    _warm_up(knowledge.store)  # before the pool reports ready: the first record is checked as fast as the hundredth


# A made-up person for :func:`warm_up`: two people of one name, a wrong date, a list, a hedge, so that one
# check takes most steps' paths (lazily compiled patterns, word lists, the grouping and the revision).
_WARM_PAGES = (
    (
        "Orla Fenwick (cellist)",
        "Orla Fenwick (born 12 March 1961 in Cork) is an Irish cellist. She studied at the Royal Irish Academy "
        "of Music and won the Feis Ceoil in 1979. In 1988 she joined the RTÉ Concert Orchestra, which she led "
        "until 2004. She has recorded four albums of Irish folk arrangements.",
    ),
    (
        "Orla Fenwick (rower)",
        "Orla Fenwick (born 1975) is a British rower. She won a silver medal in the coxless pair at the 2000 "
        "Summer Olympics in Sydney and coached at Durham University from 2006.",
    ),
)
_WARM_ANSWER = (
    "**Orla Fenwick** (born 1961) is an Irish cellist from Cork. She studied at the Royal Irish Academy of "
    "Music and, I believe, won the Feis Ceoil in 1981.\n\n"
    "- Joined the RTÉ Concert Orchestra in 1988 and led it until 2004.\n"
    "- Won a silver medal in rowing at the 2000 Summer Olympics.\n\n"
    "She has recorded about four albums. I'm not sure about her later life."
)


def warm_up(kb: Store | None = None) -> None:
    """Load and run once what a first check would load on demand, so that the first answer a worker checks
    is as fast as the hundredth: the spaCy pipeline and the stance model (``scoring.pipeline.warm_up``),
    and every step of a whole check (patterns compiled and word lists read on first use) of a made-up
    answer against a store of its own. With ``kb``, one lookup in it too (a store opens a connection per
    thread, and its first query reads the index from disk). Nothing is cached beyond parses of the
    made-up sentences."""
    from scoring.engines import build_checker
    from scoring.pipeline import default_verifier
    from scoring.pipeline import warm_up as load_models

    load_models()
    # A model that cannot load stops the worker above; a fault the made-up answer meets only costs the speed-up
    # (the real answers will meet it, or not, and report their own errors).
    try:
        with Store.in_memory(_WARM_PAGES) as store:
            build_checker("offline", stance_model=default_verifier()).check(
                _WARM_ANSWER, kb=store, question="Tell me a bio of Orla Fenwick."
            )
        if kb is not None:
            kb.candidates("Orla Fenwick")
    except Exception:
        log.warning("the warm-up check failed; the first real check will be slower", exc_info=True)


def _warm_up(kb: Store | None = None, together: threading.Barrier | None = None) -> None:
    """Warm this thread up (:func:`warm_up`). With ``together``, wait for the pool's other threads first:
    each warm-up then runs on a thread of its own."""
    if together is not None:
        together.wait(timeout=60)
    warm_up(kb)


def _thread_pool(concurrency: int, store: Store | None) -> tuple[ThreadPoolExecutor, list[Future[None]]]:
    """A pool of ``concurrency`` scoring threads, each given its warm-up (:func:`_warm_up`, with ``store``) as its
    first task: the futures of those warm-ups come with it."""
    executor = ThreadPoolExecutor(concurrency, thread_name_prefix="factsentry-score")
    together = threading.Barrier(concurrency)
    return executor, [executor.submit(_warm_up, store, together) for _ in range(concurrency)]


def _score_in_process(
    text: str, name: str | None, question: str | None, engine: str | None = None, documents: Grounding | None = None
) -> tuple[CheckResult, float]:
    if _process_scorer is None:
        raise ScoringUnavailable("scoring process was not initialised")
    return _process_scorer(text, name, question, engine, documents)


def _ready() -> bool:
    return _process_scorer is not None


def _process_pool(settings: WorkerSettings, kb_path: Path | None, engines: EngineOptions) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(
        settings.concurrency,
        mp_context=multiprocessing.get_context("spawn"),  # never fork a process that runs an event loop
        initializer=_init_process,
        initargs=(
            kb_path,
            settings.redis_url,
            settings.redis_prefix,
            settings.redis_options(),
            engines,
        ),
    )


async def startup(ctx: Context) -> None:
    """Load the pipeline, open the knowledge store, start the executor (fails fast if any cannot)."""
    settings = ctx.settings
    collect_less_often()
    kb_path = resolve_kb_path(settings.kb_path)
    executor: Executor
    score: Callable[..., tuple[CheckResult, float]]
    engines = EngineOptions.of(settings, timed=ctx.tracing is not None)
    bound_parse_cache(engines.parse_cache_size)
    checkers = build_checkers(engines)  # in this process too: a bad engine setting stops the worker here
    if settings.executor == "process":
        executor = _process_pool(settings, kb_path, engines)
        loop = asyncio.get_running_loop()
        try:
            await asyncio.gather(*(loop.run_in_executor(executor, _ready) for _ in range(settings.concurrency)))
        except BrokenProcessPool as e:
            executor.shutdown(wait=False, cancel_futures=True)
            raise ScoringUnavailable(f"scoring processes failed to start: {e}") from e
        score = _score_in_process
    else:
        knowledge = open_knowledge(
            kb_path, settings.redis_url, ctx.metrics.registry, settings.redis_prefix, settings.redis_options()
        )
        ctx.state["knowledge"] = knowledge
        score = Scorer(knowledge, checkers, engines.default)
        executor, warming = _thread_pool(settings.concurrency, knowledge.store)
        await asyncio.gather(*(asyncio.wrap_future(f) for f in warming))
    ctx.state.update(executor=executor, score=score, kb_path=kb_path, engines=engines)
    ctx.state["results"] = ResultStore(
        ctx.redis, settings.redis_prefix, settings.result_ttl_s, compress=settings.result_compression
    )
    log.info(
        "scoring against %s with %d %s(s); engines %s (default %s)%s",
        kb_path or "the in-memory demo store",
        settings.concurrency,
        settings.executor,
        ", ".join(sorted(checkers)),
        engines.default,
        f", LLM judge {engines.judge_model}" if engines.judge_model else "",
    )


async def shutdown(ctx: Context) -> None:
    """Stop the executor (work still running finishes in the background) and close the store."""
    executor: Executor | None = ctx.state.pop("executor", None)
    if executor is not None:
        executor.shutdown(wait=False, cancel_futures=True)
    knowledge: Knowledge | None = ctx.state.pop("knowledge", None)
    if knowledge is not None:
        knowledge.close()


def within_budget(text: str, max_chars: int) -> str:
    """``text`` cut to at most ``max_chars`` characters at the last sentence or line end (a hard cut if none)."""
    if len(text) <= max_chars:
        return text
    head = text[:max_chars]
    ends = [head.rfind(mark) for mark in (". ", ".\n", "! ", "? ", "\n")]
    cut = max(ends)
    return head[: cut + 1] if cut > max_chars // 2 else head


def _replace_executor(ctx: Context, why: str) -> None:
    """Start a fresh executor: the old one's work is abandoned (its processes killed)."""
    executor: Executor = ctx.state["executor"]
    log.warning("%s: starting a new scoring %s pool", why, ctx.settings.executor)
    executor.shutdown(wait=False, cancel_futures=True)
    if isinstance(executor, ProcessPoolExecutor):
        # A stuck check never returns by itself; the pool's processes are ours to end.
        for process in list(getattr(executor, "_processes", {}).values()):
            with contextlib.suppress(Exception):
                process.kill()
        ctx.state["executor"] = _process_pool(ctx.settings, ctx.state["kb_path"], ctx.state["engines"])
    else:
        # A thread cannot be stopped: it finishes in the background, but no longer holds a slot. The new threads
        # warm up before the checks queued after them, as the first pool's did before the worker reported ready.
        knowledge: Knowledge | None = ctx.state.get("knowledge")
        ctx.state["executor"], _ = _thread_pool(ctx.settings.concurrency, knowledge.store if knowledge else None)


async def score_batch(batch: list[GenerationMessage], ctx: Context) -> list[ResultMessage | BaseException | None]:
    """Score every generation of the batch concurrently on the executor; one result (or error) each, in order.

    Checks start waited-for answers first (any policy but observe), then observed ones.

    Each text is checked up to ``max_answer_chars`` (beyond it the result is marked ``partial``), and
    a check still running after ``max_check_seconds`` fails with :class:`OverBudget` (dead-lettered,
    its waiters told at once) instead of stalling the partition.
    """
    loop = asyncio.get_running_loop()
    settings = ctx.settings
    executor: Executor = ctx.state["executor"]
    score = ctx.state["score"]
    texts = [within_budget(m.answer, settings.max_answer_chars) for m in batch]
    if isinstance(score, Scorer) and len(batch) > 1:
        await _prepare(loop, executor, score, texts, [m.engine for m in batch], settings.max_check_seconds)
    if not batch:
        return []
    # The executor starts checks in the order they are submitted: answers a gateway holds back until their
    # verdict (block, revise, annotate, /v1/factcheck) go first, observed ones (already answered) after them.
    first = sorted(range(len(batch)), key=lambda i: batch[i].policy is Policy.OBSERVE)
    submitted = {
        i: loop.run_in_executor(
            executor,
            _check,
            score,
            texts[i],
            batch[i].name,
            question_of(batch[i]),
            batch[i].engine,
            grounding_of(batch[i]),
        )
        for i in first
    }
    futures = [submitted[i] for i in range(len(batch))]
    # Each verdict goes to Redis (and wakes its waiter) as soon as it is scored, not when the whole
    # batch is: the batch's own delivery later skips what got there early and writes the rest.
    early: set[asyncio.Task[None]] = set()
    for message, text, future in zip(batch, texts, futures, strict=True):
        future.add_done_callback(functools.partial(_deliver_early, ctx, message, text, early))
    _, late = await asyncio.wait(futures, timeout=settings.max_check_seconds)
    for future in late:
        future.cancel()
    outcomes: list[Any] = []
    for future in futures:
        if future in late:
            outcomes.append(OverBudget(f"the check ran past its budget of {settings.max_check_seconds:g} s"))
        elif future.cancelled():
            outcomes.append(RetriableError("the check was cancelled"))
        else:
            outcomes.append(future.exception() or future.result())
    for message, outcome in zip(batch, outcomes, strict=True):
        _count_llm_failure(ctx, message, outcome)
    if late:
        _replace_executor(ctx, f"{len(late)} check(s) over the time budget")
    elif any(isinstance(o, BrokenProcessPool) for o in outcomes):
        _replace_executor(ctx, "a scoring process died")
    if early:
        await asyncio.gather(*early, return_exceptions=True)
    results: list[ResultMessage | BaseException | None] = []
    for message, text, outcome in zip(batch, texts, outcomes, strict=True):
        if isinstance(outcome, BrokenProcessPool):
            results.append(RetriableError(f"the scoring process died while checking {message.request_id}"))
        elif isinstance(outcome, BaseException):
            results.append(outcome)
        else:
            result = _result(message, text, outcome, settings.worker_id)
            results.append(result)
            if ctx.tracing is not None and (span := span_of(message)) is not None:
                record_check(ctx.tracing, span, result, outcome[2])
    return results


# A check's verdict, its time in ms, and the times of its steps (empty unless its checker is timed).
Checked = tuple[CheckResult, float, tuple[StepTime, ...]]


def _check(score: Callable[..., tuple[CheckResult, float]], *args: Any) -> Checked:
    """Run one check on the executor, with the times of its steps when its checker is timed (tracing on)."""
    with timing() as clock:
        check, ms = score(*args)
    return check, ms, clock.times()


async def _prepare(
    loop: asyncio.AbstractEventLoop,
    executor: Executor,
    score: Scorer,
    texts: list[str],
    engines: list[str | None],
    budget_s: float,
) -> None:
    """Parse the batch's sentences in one spaCy batch before its checks start (thread executor only: a
    process's parse cache is its own). One batch costs less than one per answer; the first verdict
    comes later by the batch's parse time, the last one sooner. Failing here fails no record: each
    check parses what it does not find cached, and reports its own errors."""
    try:
        await asyncio.wait_for(loop.run_in_executor(executor, score.prepare, texts, engines), budget_s)
    except Exception:
        log.warning("parsing a batch of %d answers ahead failed; each check parses its own", len(texts), exc_info=True)


def _count_llm_failure(ctx: Context, message: GenerationMessage, outcome: object) -> None:
    from scoring.errors import LLMCallError, LLMOutputError

    if isinstance(outcome, LLMCallError | LLMOutputError):
        kind = outcome.kind if isinstance(outcome, LLMCallError) else "unreadable"
        engine = message.engine or ctx.settings.engine
        ctx.metrics.llm_failures.labels(engine=engine, judge=ctx.settings.judge_model or "none", kind=kind).inc()
        log.warning("%s: the LLM judge failed (%s): %s", message.request_id, kind, outcome)


def _result(message: GenerationMessage, text: str, outcome: Checked, worker: str) -> ResultMessage:
    check, ms, _ = outcome
    if len(text) < len(message.answer):
        check.partial, check.checked_chars = True, len(text)
    result = ResultMessage(
        request_id=message.request_id,
        model=message.model,
        check=check,
        scored_at=datetime.now(UTC),
        worker=worker,
        scoring_ms=round(ms, 3),
        tenant=message.tenant,
        source=message.source,
        partial_of=message.partial_of,
    )
    # What the generation's shadow policy would have done, decided with the gateway's own function
    # (schemas/policy.py): the gateway does not wait for observed answers, so the worker records it. Hold-back
    # checks of part of an answer carry none (the answer's final check does).
    if message.shadow is not None and message.partial_of is None:
        result.would = would(message.shadow, result)
    return result


def _deliver_early(
    ctx: Context, message: GenerationMessage, text: str, early: set[asyncio.Task[None]], future: asyncio.Future[Any]
) -> None:
    if future.cancelled() or future.exception() is not None:
        return
    result = _result(message, text, future.result(), ctx.settings.worker_id)
    early.add(asyncio.ensure_future(_put_early(ctx, result)))


async def _put_early(ctx: Context, result: ResultMessage) -> None:
    """Write one verdict now; on failure the batch's delivery writes it (with its retries)."""
    store: ResultStore = ctx.state["results"]
    try:
        await store.put(result)
    except Exception as e:
        log.debug("early delivery of %s failed (%s); the batch delivers it", result.request_id, e)
        return
    delivered: set[str] = ctx.state.setdefault("delivered_early", set())
    if len(delivered) > 100_000:  # batches that died before their delivery: forget (a second write is harmless)
        delivered.clear()
    delivered.add(result.request_id)


async def notify_failed(dead: list[tuple[str | None, str]], ctx: Context) -> None:
    """Tell the gateway's waiters that these requests will get no verdict (dead-lettered, over budget)."""
    store: ResultStore = ctx.state["results"]
    await asyncio.gather(*(store.fail(key, error) for key, error in dead if key))


async def store_results(results: list[ResultMessage], ctx: Context) -> None:
    """Write each result to Redis with its TTL and notify the gateway's waiters (those written as soon as
    they were scored are not written twice)."""
    store: ResultStore = ctx.state["results"]
    early: set[str] = ctx.state.setdefault("delivered_early", set())
    await asyncio.gather(*(store.put(r) for r in results if r.request_id not in early))
    early.difference_update(r.request_id for r in results)


def outcome(result: ResultMessage) -> Outcome:
    return "abstained" if result.check.abstained else "scored"


def observe(result: ResultMessage, metrics: WorkerMetrics) -> None:
    """FActScore and D-FActScore histograms (verifiable answers only), coverage and facts by verdict, and what
    a shadow policy would have done (every verdict that has one), per source (proxy, factcheck, guardrail_api)
    and model."""
    check = result.check
    if check.llm_model is not None:
        llm = {"engine": check.engine, "judge": check.llm_model}
        metrics.llm_calls.labels(**llm).inc(check.llm_calls)
        metrics.llm_tokens.labels(**llm).inc(check.llm_tokens)
        metrics.llm_errors.labels(**llm).inc(check.llm_errors)
        metrics.llm_cached.labels(**llm).inc(check.llm_cached_calls)
        if check.llm_cost_usd:
            metrics.llm_cost_usd.labels(**llm).inc(check.llm_cost_usd)
        for name, count in check.llm_rejected.items():
            metrics.llm_rejected.labels(**llm, check=name).inc(count)
    if result.partial_of is not None:
        return  # a hold-back check of part of an answer: the answer is counted once, by its final check
    labels = {"source": result.source, "model": result.model}
    metrics.answers.labels(**labels, status=check.status).inc()
    if result.would is not None:
        metrics.would.labels(**labels, action=result.would.action).inc()
    metrics.languages.labels(**labels, language=language_label(check.language)).inc()
    if check.abstained:
        return
    if check.coverage is not None:
        metrics.coverage.labels(**labels).observe(check.coverage)
    if check.factscore is not None:
        metrics.factscore.labels(**labels).observe(check.factscore)
    if check.dfactscore is not None:
        metrics.dfactscore.labels(**labels).observe(check.dfactscore)
    for group in check.groups:
        for fact in group.facts:
            metrics.facts.labels(**labels, verdict=fact.verdict.value).inc()


def scoring_stage(settings: WorkerSettings) -> Stage[GenerationMessage, ResultMessage]:
    """generations → verdicts, keyed by request id, also written to Redis."""
    return Stage(
        name="scoring",
        input_topic=settings.generations_topic,
        output_topic=settings.results_topic,
        input_model=GenerationMessage,
        output_model=ResultMessage,
        handle=score_batch,
        key=lambda result: result.request_id,
        outcome=outcome,
        observe=observe,
        deliver=store_results,
        on_dead_letter=notify_failed,
        on_startup=startup,
        on_shutdown=shutdown,
    )
