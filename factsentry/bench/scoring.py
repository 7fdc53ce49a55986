"""Scoring throughput: offline engine answers/s and facts/s on one core (cold and warm caches), LLM calls per answer.

Offline: every AmbigBio dev answer is checked against a private in-memory store of its own
passages (built before timing), after the warm-up a worker does before it reports ready (the models
loaded and run once). *Cold* starts with empty parse and verdict caches; *warm* checks the same
answers again with both caches filled, as a worker does for repeated answers. Answers/s are given
per wall-clock second and per CPU second of this process; beside them, per answer, the spaCy batches
(``nlp.pipe`` calls) and texts parsed, and spaCy's share of the CPU seconds. With
``--batch N`` the answers go in batches of N, as a worker's records do: each batch's sentences are
parsed together first (``Checker.prepare``), its time shared among the batch's answers. The garbage
collector runs as in a scoring worker (``workers.scoring_stage.collect_less_often``).

LLM: the llm engine runs the same answers with litellm's ``mock_response`` (no network), and its
calls, tokens (prompt and completion) and cost per answer (litellm's cost map, as gpt-4o-mini) are set
beside what the FActScore pipeline would make on the same answers: one decomposition call per sentence plus
one verification call per fact.

Length sweep (``--lengths 1000,10000,100000``): for each length and shape, one answer of that many
characters made of AmbigBio dev answers one after another (the last one cut at a sentence end), checked by
the offline engine against one store of all their passages, with cold caches. Shapes (``--shapes``):
``bios`` (a paragraph per answer: many people), ``one-paragraph`` (the same without blank lines),
``one-name`` (every answer's name, and its words, made the first answer's: many lives told of one name,
fewer perceived individuals with more facts each) and ``one-person`` (every later answer's name written
"he": a few individuals with most of the facts). A short length is timed on several such answers (made
of different rows, 100,000 characters in all, at most 20). It prints the mean CPU seconds per answer (this
process's: on a shared machine other processes' work does not count; wall-clock seconds beside) and the
milliseconds per 1,000 characters at each length, and per shape the ratio of the per-character time at
the largest length to that at the smallest (1.0: linear cost), the exponent of a least-squares fit of
seconds ∝ characters^k, and that exponent between the two largest lengths alone. ``--max-sentences``
sets how many sentences are checked (default: all, so every step sees the whole answer; the engine's
own default checks the first 120).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from factsentry.bench import at_least
from factsentry.cli import UserError
from scoring.protocols import MemoryVerdictCache

DEFAULT_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "ambigbio" / "generations.dev.jsonl"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="AmbigBio generations JSONL")
    parser.add_argument("--limit", type=at_least(1), default=200, help="answers to check (default 200)")
    parser.add_argument(
        "--engine",
        choices=("offline", "llm", "hybrid", "both", "all"),
        default="both",
        help="offline (rules and stance model), llm (mocked LLM calls, counted), hybrid (stance model, the mocked "
        "LLM for uncertain facts), both (offline and llm; default) or all",
    )
    parser.add_argument("--cpu", type=int, default=0, help="pin the benchmark to this core (default 0; -1: no pinning)")
    parser.add_argument(
        "--batch",
        type=at_least(1),
        default=1,
        help="offline: answers checked together, parsed in one batch first as a worker does (default 1: one by one)",
    )
    parser.add_argument(
        "--lengths",
        type=_lengths,
        default=None,
        help="length sweep instead: comma-separated answer lengths in characters (e.g. 1000,10000,50000,100000,200000)",
    )
    parser.add_argument(
        "--shapes",
        type=_shapes,
        default=list(SHAPES),
        help=f"length sweep: comma-separated shapes of the long answers (default: {','.join(SHAPES)})",
    )
    parser.add_argument(
        "--max-sentences",
        type=at_least(0),
        default=0,
        help="length sweep: sentences of each answer checked (default 0: all of them)",
    )


SHAPES = ("bios", "one-paragraph", "one-name", "one-person")


def _shapes(text: str) -> list[str]:
    """An argparse type: comma-separated names of :data:`SHAPES`."""
    names = [x.strip() for x in text.split(",") if x.strip()]
    unknown = [x for x in names if x not in SHAPES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"{text!r}: shapes are {', '.join(SHAPES)}")
    return list(dict.fromkeys(names))


def _lengths(text: str) -> list[int]:
    """An argparse type: comma-separated lengths of at least 100 characters, in increasing order."""
    try:
        values = sorted({int(x) for x in text.split(",") if x.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of whole numbers") from None
    if not values or values[0] < 100:
        raise argparse.ArgumentTypeError(f"{text!r}: give one or more lengths of at least 100 characters")
    return values


def _load(path: Path, limit: int) -> list[dict[str, Any]]:
    if not path.is_file():
        raise UserError(f"AmbigBio data not found at {path}; pass --data")
    rows: list[dict[str, Any]] = []
    with path.open() as f:
        for line in f:
            if line.strip():
                rows.append(json.loads(line))
            if len(rows) >= limit:
                break
    return rows


def _pin(cpu: int) -> bool:
    if cpu < 0:
        return False
    try:
        os.sched_setaffinity(0, {cpu})
        return True
    except (AttributeError, OSError):
        return False


def run(args: argparse.Namespace) -> dict[str, Any]:
    if getattr(args, "lengths", None):
        pinned = _pin(args.cpu)
        shapes = getattr(args, "shapes", None) or list(SHAPES)
        return {"one_core": pinned, **length_sweep(args.data, args.lengths, shapes, getattr(args, "max_sentences", 0))}
    rows = _load(args.data, args.limit)
    pinned = _pin(args.cpu)
    out: dict[str, Any] = {"answers": len(rows), "one_core": pinned}
    if args.engine in ("offline", "both", "all"):
        out.update(_offline(rows, args.batch))
    if args.engine in ("llm", "both", "all"):
        out.update(_llm(rows))
    if args.engine in ("hybrid", "all"):
        out.update(_hybrid(rows))
    return out


def _stores(rows: list[dict[str, Any]]) -> list[Any]:
    from evaluation.ambigbio import group_passages
    from knowledge.store import Store

    stores = []
    for row in rows:
        pages = group_passages((p["title"], p["text"]) for p in row.get("passages") or [])
        stores.append(Store.in_memory([(title, "\n\n".join(texts)) for title, texts in pages]))
    return stores


def _offline(rows: list[dict[str, Any]], batch: int = 1) -> dict[str, Any]:
    from importlib.metadata import version

    from scoring import nlp
    from scoring.engines import build_checker
    from scoring.pipeline import default_verifier
    from workers.scoring_stage import collect_less_often, warm_up

    collect_less_often()  # as a scoring worker does
    stores = _stores(rows)
    verifier = default_verifier()
    checker = build_checker("offline", stance_model=verifier)
    # As a worker before it reports ready (``workers.scoring_stage.warm_up``): what a first check would load is no
    # answer's time.
    warm_up()
    cache = MemoryVerdictCache()
    # The parser's speed depends on the spaCy build (pinned below 3.8.8 in pyproject.toml, issue #12).
    figures: dict[str, Any] = {"offline_batch": batch, "spacy_version": version("spacy")}
    for phase in ("cold", "warm"):
        if phase == "cold":
            nlp.clear_cache()
        times: list[float] = []
        facts = 0
        parsed = nlp.pipe_stats()
        start = time.perf_counter()
        cpu_start = time.process_time()
        for first in range(0, len(rows), batch):
            chunk = list(zip(rows[first : first + batch], stores[first : first + batch], strict=True))
            t0 = time.perf_counter()
            if batch > 1:
                checker.prepare([row["output"] for row, _ in chunk])
            shared = (time.perf_counter() - t0) / len(chunk)
            for row, store in chunk:
                t0 = time.perf_counter()
                result = checker.check(
                    row["output"], kb=store, name=row["name"], question=row.get("question"), cache=cache
                )
                times.append(time.perf_counter() - t0 + shared)
                facts += result.num_facts
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - cpu_start
        figures[f"offline_{phase}_answers_per_s"] = round(len(rows) / elapsed, 2)
        # This process's CPU seconds: on a shared machine, what other processes take of the core does not count.
        figures[f"offline_{phase}_answers_per_cpu_s"] = round(len(rows) / cpu, 2) if cpu > 0 else None
        figures[f"offline_{phase}_facts_per_s"] = round(facts / elapsed, 1)
        figures[f"offline_{phase}_ms_p50"] = round(statistics.median(times) * 1000, 1)
        figures[f"offline_{phase}_ms_p95"] = round(sorted(times)[int(0.95 * (len(times) - 1))] * 1000, 1)
        # Where a cold check's time goes first: spaCy's batches (nlp.pipe calls: a fixed few ms each besides the
        # texts), their texts, and their share of this process's CPU seconds.
        after = nlp.pipe_stats()
        n = max(1, len(rows))
        figures[f"offline_{phase}_spacy_batches_per_answer"] = round((after.calls - parsed.calls) / n, 2)
        figures[f"offline_{phase}_spacy_texts_per_answer"] = round((after.texts - parsed.texts) / n, 1)
        spacy_cpu = after.cpu_seconds - parsed.cpu_seconds
        figures[f"offline_{phase}_spacy_cpu_share"] = round(spacy_cpu / cpu, 3) if cpu > 0 else None
        figures["offline_facts_per_answer"] = round(facts / max(1, len(rows)), 1)
    return figures


def long_answer(rows: list[dict[str, Any]], length: int, shape: str = "bios") -> tuple[str, list[dict[str, Any]]]:
    """An answer of ``length`` characters (or all of ``rows`` when they are shorter) in ``shape`` (see the
    module's docstring), the last answer cut at a sentence end where one falls in its second half; and the
    rows used."""
    parts: list[str] = []
    used: list[dict[str, Any]] = []
    size = 0
    for row in rows:
        output = str(row.get("output") or "").strip()
        if not output:
            continue
        if shape == "one-name" and used:
            output = _renamed(output, str(row["name"]), str(used[0]["name"]))
        elif shape == "one-person" and used:
            output = _as_pronoun(output, str(row["name"]))
        parts.append(output)
        used.append(row)
        size += len(output) + 2
        if size >= length:
            break
    text = ("\n\n" if shape != "one-paragraph" else " ").join(parts)
    if len(text) > length:
        head = text[:length]
        cut = max(head.rfind(mark) for mark in (". ", ".\n"))
        text = head[: cut + 1] if cut > length // 2 else head
    return text, used


def _renamed(text: str, name: str, to: str) -> str:
    """``text`` with ``name`` written ``to``, and each of its words ("Johnston", "Johnstone's") the word of
    ``to`` in the same place (the last for the last, the first for any other)."""
    text = text.replace(name, to)
    words, new = name.split(), to.split()
    for k, word in enumerate(words):
        if len(word) >= 3 and new:
            text = re.sub(rf"\b{re.escape(word)}\w*", new[-1] if k == len(words) - 1 else new[0], text)
    return text


# Each length is timed on answers of this many characters in all (at most 20 of them, at least one), so
# that a short length's figure is an average over as many different answers as a long one's.
_SWEEP_CHARS = 100_000
_SWEEP_MOST = 20


def _as_pronoun(text: str, name: str) -> str:
    """``text`` with ``name`` and its words ("Johnstone", "Bruce Johnston's") written "he" ("his"), capitalised
    where a sentence starts."""
    words = [rf"{re.escape(w)}\w*" for w in name.split() if len(w) >= 3]
    if not words:
        return text
    alternatives = "|".join(words)
    # "Carl Gauss", "Gauss", "Carl F. Gauss": the name's words, with initials between them.
    form = rf"\b(?:{alternatives})(?:\s+(?:[A-Z]\.\s*)*(?:{alternatives}))*(?P<s>['’]s\b)?"

    def pronoun(m: re.Match[str]) -> str:
        word = "his" if m.group("s") else "he"
        before = text[: m.start()].rstrip()
        return word.capitalize() if not before or before[-1] in ".!?:" else word

    return re.sub(form, pronoun, text)


def length_sweep(data: Path, lengths: list[int], shapes: list[str], max_sentences: int = 0) -> dict[str, Any]:
    """Seconds of a cold offline check of answers of each length and shape (see :func:`long_answer`; at
    short lengths several answers, made of different rows, their mean given), and per shape the ratio of
    the time per character at the largest length to that at the smallest, and the fitted exponent of
    seconds ∝ length^k."""
    from dataclasses import replace

    from scoring import nlp, sentences
    from scoring.engines import build_checker
    from scoring.pipeline import default_config, default_verifier
    from workers.scoring_stage import collect_less_often, warm_up

    collect_less_often()  # as a scoring worker does
    rows = _load(data, 10**9)
    config = replace(default_config(), max_sentences=max_sentences or 10**9)
    checker = build_checker("offline", stance_model=default_verifier(), config=config)
    warm_up()  # what a first check loads (the spaCy pipeline, the stance model) is not part of any length
    checker.check(rows[0]["output"], kb=_stores(rows[:1])[0], name=rows[0]["name"])
    figures: dict[str, Any] = {"max_sentences": max_sentences or None}
    for shape in shapes:
        points: list[tuple[float, float]] = []
        for length in lengths:
            count = max(1, min(_SWEEP_MOST, _SWEEP_CHARS // length))
            chars = seconds = wall = facts = groups = 0.0
            start = 0
            for _ in range(count):
                if start >= len(rows) // 2:  # the rows of a long answer again rather than too few
                    start = 0
                text, used = long_answer(rows[start:], length, shape)
                start = rows.index(used[-1], start) + 1
                (store,) = _stores([{"passages": [p for row in used for p in row.get("passages") or []]}])
                nlp.clear_cache()
                sentences.clear_cache()
                t0, c0 = time.perf_counter(), time.process_time()
                result = checker.check(text, kb=store, name=used[0]["name"], cache=MemoryVerdictCache())
                seconds += time.process_time() - c0
                wall += time.perf_counter() - t0
                chars += len(text)
                facts += result.num_facts
                groups += len(result.groups)
            points.append((chars / count, seconds / count))
            key = f"{shape}_{length}"
            figures[f"{key}_answers"] = count
            figures[f"{key}_chars"] = round(chars / count, 1)
            figures[f"{key}_facts"] = round(facts / count, 1)
            figures[f"{key}_groups"] = round(groups / count, 1)
            figures[f"{key}_seconds"] = round(seconds / count, 4)
            figures[f"{key}_wall_seconds"] = round(wall / count, 4)
            figures[f"{key}_ms_per_1k_chars"] = round(seconds * 1e6 / chars, 2)
        (small, t_small), (large, t_large) = points[0], points[-1]
        figures[f"{shape}_per_char_ratio"] = round((t_large / large) / (t_small / small), 2)
        figures[f"{shape}_fitted_exponent"] = round(fitted_exponent(points), 2) if len(points) > 1 else None
        # Between the two largest lengths alone: what a quadratic part costs shows at the top first.
        figures[f"{shape}_exponent_largest_two"] = round(fitted_exponent(points[-2:]), 2) if len(points) > 1 else None
    return figures


def fitted_exponent(points: Sequence[tuple[float, float]]) -> float:
    """The slope ``k`` of the least-squares line through (log size, log seconds): seconds ∝ size^k."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(max(t, 1e-9)) for _, t in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    spread = sum((x - mx) ** 2 for x in xs)
    if spread == 0:
        raise ValueError("fitted_exponent needs points of at least two different sizes")
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / spread


class MockLLM:
    """Answers each step of the llm engine as a capable model would, through litellm's ``mock_response``.

    Decomposition comes from the offline decomposer and grouping (formatted with ``#`` names and
    ``===``), verification from word overlap between each fact and each page, revision returns the
    answer unchanged. Tokens are counted with litellm's tokenizer on the real prompts and answers.
    """

    def __init__(self, model: str = "gpt-4o-mini") -> None:
        import litellm

        self.litellm = litellm
        self.model = model

    def complete(self, messages: list[dict[str, str]]) -> Any:
        """A :class:`scoring.llm.reply.JudgeReply`: the scripted text, its tokens, their cost as ``model``'s."""
        from scoring.llm.client import cost
        from scoring.llm.reply import JudgeReply

        reply = scripted_reply(messages)
        response = self.litellm.completion(model=self.model, messages=messages, mock_response=reply)
        text = response.choices[0].message.content or ""
        prompt = int(self.litellm.token_counter(model=self.model, messages=messages))
        completion = int(self.litellm.token_counter(model=self.model, text=text))
        return JudgeReply(text, prompt, completion, cost(self.model, prompt, completion))


def scripted_reply(messages: list[dict[str, str]]) -> str:
    """What a capable judge answers to one of the llm engine's prompts (decompose, verify or revise).

    It reads the request (the first user turn; a repair turn after it asks for the same again) and its
    fenced data (``scoring.llm.fence``), never following what the data says."""
    system = messages[0]["content"]
    prompt = next((m["content"] for m in messages if m["role"] == "user"), messages[-1]["content"])
    if "atomic facts" in system:
        return _scripted_decompose(prompt)
    if "fact checker" in system:
        return _scripted_verify(prompt)
    return _scripted_revise(prompt)


def _scripted_decompose(prompt: str) -> str:
    from scoring import nlp
    from scoring.decompose import decompose_doc
    from scoring.decontext import decontextualize
    from scoring.grouping import group_sentences
    from scoring.llm.fence import blocks
    from scoring.sentences import split_sentences

    data = blocks(prompt)
    about, text = (data[0], data[1]) if len(data) > 1 else ("", data[0] if data else "")
    sentences = split_sentences(text)
    docs = nlp.parse([x.text for x in sentences])
    groups = group_sentences([x.text for x in sentences], about, docs=docs)
    out = []
    for g in groups:
        facts = [decontextualize(a.text, a.subject, g.name) for i in g.sentences for a in decompose_doc(docs[i], i)]
        if facts:
            out.append("\n".join([f"# {g.label}", *(f"- {f}" for f in facts)]))
    return "Here are the facts:\n\n" + "\n===\n".join(out) if out else "NO FACTS"


def scripted_pages(prompt: str) -> dict[str, list[tuple[str, str]]]:
    """The pages of a verify prompt: label -> [(passage id, text)]."""
    from scoring.llm.fence import blocks

    pages: dict[str, list[tuple[str, str]]] = {}
    for block in blocks(prompt):
        for line in block.splitlines():
            m = re.match(r"^\[(P\d+)\.\d+\] (.*)$", line)
            if m:
                pages.setdefault(m.group(1), []).append((line[1 : line.index("]")], m.group(2)))
    return pages


def scripted_facts(prompt: str) -> list[tuple[str, str, str, list[str]]]:
    """The facts of a verify prompt: (id, text, its group's name, its pages' labels)."""
    out = []
    for pages, block in re.findall(
        r"^Group \d+ \(pages ([^)]*)\):\n<<<DATA \w+>>>\n(.*?)\n<<<END \w+>>>", prompt, re.M | re.S
    ):
        labels = [p.strip() for p in pages.split(",") if p.strip().startswith("P")]
        name = re.search(r"^name: (.*)$", block, re.M)
        for fid, fact in re.findall(r"^(F\d+): (.+)$", block, flags=re.M):
            out.append((fid, fact, name.group(1) if name else "", labels))
    return out


def _scripted_verify(prompt: str) -> str:
    """Supported where the page has most of the fact's words and all its numbers; refuted where it has most
    of its other words but, in the sentence closest to the fact, other numbers instead of the fact's."""
    pages = scripted_pages(prompt)
    results = []
    for fid, fact, name, labels in scripted_facts(prompt):
        words = _words(fact)
        numbers = {w for w in words if w.isdigit()}
        verdicts = []
        for label in labels:
            passages = pages.get(label, [])
            page_words = set().union(*(_words(t) for _, t in passages)) if passages else set()
            if not words or len(words & page_words) / len(words) < 0.75:
                continue
            pid, quote = scripted_quote(fact, name, passages)
            if numbers <= page_words:
                verdicts.append({"page": label, "label": "supported", "passage": pid, "quote": quote})
            elif {w for w in _words(quote) if w.isdigit()} and not numbers & _words(quote):
                verdicts.append({"page": label, "label": "refuted", "passage": pid, "quote": quote})
        results.append({"id": fid, "verdicts": verdicts})
    return "```json\n" + json.dumps({"results": results}) + "\n```"


def scripted_quote(fact: str, name: str, passages: list[tuple[str, str]]) -> tuple[str, str]:
    """The passage and its sentence that share most words with ``fact`` (its person's name aside)."""
    own = _words(fact) - _words(name)
    best = (-1, "", "")
    for pid, text in passages:
        for sentence in re.split(r"(?<=[.!?])\s+", text):
            shared = len(own & _words(sentence))
            if shared > best[0]:
                best = (shared, pid, sentence.strip())
    return best[1], best[2]


def _scripted_revise(prompt: str) -> str:
    """Deletes each sentence of the answer that a claim found wrong came from (the one sharing most words)."""
    from scoring.llm.fence import blocks
    from scoring.sentences import split_sentences

    data = blocks(prompt)
    answer, check = (data[0], data[1]) if len(data) > 1 else (data[0] if data else "", "")
    sentences = [x.text for x in split_sentences(answer)]
    drop: set[int] = set()
    edits = []
    for fact in re.findall(r"^- \[(?:REFUTED|NOT SUPPORTED)\] (.+)$", check, flags=re.M):
        words = _words(fact)
        # Shared words, numbers twice: the person's name is in many sentences, a wrong year in one.
        scored = [(sum(2 if w.isdigit() else 1 for w in words & _words(x)), -i) for i, x in enumerate(sentences)]
        if scored and max(scored)[0] > 0:
            i = -max(scored)[1]
            if i not in drop:
                drop.add(i)
                edits.append({"kind": "delete", "original": sentences[i], "replacement": None})
    revised = " ".join(x for i, x in enumerate(sentences) if i not in drop)
    return json.dumps({"revised": revised or answer, "edits": edits})


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 3}


def _llm(rows: list[dict[str, Any]]) -> dict[str, Any]:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    from scoring.engines import build_checker
    from scoring.sentences import split_sentences

    stores = _stores(rows)
    mock = MockLLM()
    checker = build_checker("llm", complete=mock.complete)
    cache = MemoryVerdictCache()
    results = [
        checker.check(row["output"], kb=store, name=row["name"], cache=cache)
        for row, store in zip(rows, stores, strict=True)
    ]
    # A replay of the same answers: the judge's replies come from the cache.
    replay = [
        checker.check(row["output"], kb=store, name=row["name"], cache=cache)
        for row, store in zip(rows, stores, strict=True)
    ]
    replay_cached = sum(r.llm_cached_calls for r in replay)
    replay_asked = replay_cached + sum(r.llm_calls for r in replay)
    calls = sum(r.llm_calls for r in results)
    tokens = sum(r.llm_tokens for r in results)
    facts = sum(r.num_facts for r in results)
    factscore_calls = sum(
        len(split_sentences(row["output"])) + r.num_facts for row, r in zip(rows, results, strict=True)
    )
    factscore_tokens = sum(
        _factscore_tokens(mock, row, store, r) for row, store, r in zip(rows, stores, results, strict=True)
    )
    answered = [r for r in results if not r.abstained]
    n = max(1, len(rows))
    rejected: dict[str, int] = {}
    for r in results:
        for check, count in r.llm_rejected.items():
            rejected[check] = rejected.get(check, 0) + count
    return {
        "llm_rejected": dict(sorted(rejected.items())),
        "llm_replay_cache_hit_rate": round(replay_cached / replay_asked, 3) if replay_asked else None,
        "llm_errors_per_answer": round(sum(r.llm_errors for r in results) / n, 2),
        "llm_calls_per_answer": round(calls / n, 2),
        "llm_max_calls_per_answer": max((r.llm_calls for r in results), default=0),
        "llm_max_calls_per_answer_upto_30_facts": max((r.llm_calls for r in results if r.num_facts <= 30), default=0),
        "llm_max_facts_per_answer": max((r.num_facts for r in answered), default=0),
        "llm_tokens_per_answer": round(tokens / n, 1),
        "llm_prompt_tokens_per_answer": round(sum(r.llm_prompt_tokens for r in results) / n, 1),
        "llm_completion_tokens_per_answer": round(sum(r.llm_completion_tokens for r in results) / n, 1),
        "llm_cost_usd_per_answer": round(sum(r.llm_cost_usd or 0.0 for r in results) / n, 6),
        "llm_facts_per_answer": round(facts / n, 1),
        "factscore_pipeline_calls_per_answer": round(factscore_calls / n, 2),
        "llm_call_reduction": round(factscore_calls / max(1, calls), 1),
        "factscore_pipeline_tokens_per_answer_est": round(factscore_tokens / n, 1),
    }


def _hybrid(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The hybrid engine on the same answers: LLM calls and tokens per answer, and answers/s with the mock."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    from scoring.engines import build_checker

    stores = _stores(rows)
    mock = MockLLM()
    checker = build_checker("hybrid", complete=mock.complete)
    start = time.perf_counter()
    results = [
        checker.check(row["output"], kb=store, name=row["name"]) for row, store in zip(rows, stores, strict=True)
    ]
    elapsed = time.perf_counter() - start
    n = max(1, len(rows))
    escalated = sum(1 for r in results for g in r.groups for f in g.facts if f.decided_by == "llm")
    facts = sum(r.num_facts for r in results)
    return {
        "hybrid_calls_per_answer": round(sum(r.llm_calls for r in results) / n, 2),
        "hybrid_tokens_per_answer": round(sum(r.llm_tokens for r in results) / n, 1),
        "hybrid_cost_usd_per_answer": round(sum(r.llm_cost_usd or 0.0 for r in results) / n, 6),
        "hybrid_facts_to_llm_share": round(escalated / max(1, facts), 3),
        "hybrid_answers_per_s": round(len(rows) / elapsed, 1) if elapsed > 0 else None,
    }


def _factscore_tokens(mock: MockLLM, row: dict[str, Any], store: Any, result: Any) -> int:
    """Tokens FActScore would send: the decomposition prompt once per sentence, and per fact the top five
    passages of the linked page with the fact (Retrieve→LM); answers are a few tokens each."""
    from scoring.llm.decompose import INSTRUCTIONS
    from scoring.sentences import split_sentences

    count = mock.litellm.token_counter
    demo = count(model=mock.model, text=INSTRUCTIONS)
    total = sum(demo + count(model=mock.model, text=s.text) + 40 for s in split_sentences(row["output"]))
    for group in result.groups:
        for fact in group.facts:
            if fact.worthiness.value != "factual":
                continue
            title = group.entity or ""
            passages = store.passages(title, f"{row['name']} {fact.text}", k=5) if title else []
            text = " ".join(p.text for p in passages) + " " + fact.text
            total += count(model=mock.model, text=text) + 30
    return int(total)
