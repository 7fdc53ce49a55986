"""The llm engine against a judge that misbehaves (tests/judge_server.py, through litellm over HTTP): each
misbehaviour with the verdict the engine must give, and the namesake case judged on each fact's own
passages, with the passage the judge cites recorded as the fact's evidence."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from knowledge.store import Store
from schemas.check import CheckResult
from scoring.engines import build_checker
from scoring.llm.client import LiteLLMJudge
from scoring.llm.fence import blocks
from scoring.llm.steps import LLMConfig
from scoring.llm.verify import normalise
from scoring.protocols import MemoryVerdictCache
from tests.judge_server import INJECTION, REFUSAL, JudgeServer

_FILL = [
    "The records of that period describe the work in some detail.",
    "Local newspapers followed the story closely.",
    "Several accounts were written later by people who knew the family.",
    "Little else is known about those years.",
    "The details were collected by historians decades afterwards.",
    "Friends remembered a quiet and careful manner.",
]


def _paragraph(topic: str) -> str:
    """A passage-sized paragraph (about 190 words: one passage of the store) whose one informative sentence is
    ``topic``."""
    return " ".join([*(_FILL[i % 6] for i in range(11)), topic, *(_FILL[i % 6] for i in range(11, 22))])


SWIMMER = "Dick Hanley (swimmer)"
COACH = "Dick Hanley (American football)"
PAGES = {
    SWIMMER: [
        "Dick Hanley is an American former competitive swimmer who specialised in freestyle events.",
        "He was born in 1936 in Ohio and learned to swim at a municipal pool.",
        "At the 1956 Summer Olympics in Melbourne the American relay team with him won the silver medal.",
        "He studied engineering at Ohio State University.",
        "His relay team-mates in that final were George Breen, Ford Konno and Bill Woolsey.",
        "After his swimming career he worked as an engineer in California.",
    ],
    COACH: [
        "Dick Hanley was an American football player and coach.",
        "He was born in 1894 and died in 1970.",
        "From 1927 to 1934 he was head football coach at Northwestern University in Evanston.",
        "His Northwestern teams shared the Big Ten Conference title in 1930 and 1931.",
        "During the Second World War he served as an officer in the United States Marine Corps.",
        "He coached the football team of the Marine Corps air station at El Toro.",
    ],
}

NAMESAKES = (
    "There are two people named Dick Hanley. Dick Hanley is an American swimmer who was born in 1936. He won a "
    "silver medal at the 1956 Summer Olympics in Melbourne. He worked as an engineer in California.\n\n"
    "Another Dick Hanley was an American football coach. He was head coach at Northwestern University from 1927 "
    "to 1934. He served in the United States Marine Corps during the Second World War."
)
# One wrong year (1939; the page says 1936): a revision is asked for.
SWIMMER_ANSWER = (
    "Dick Hanley is an American swimmer. He was born in 1939 in Ohio. He won a silver medal at the 1956 Summer "
    "Olympics in Melbourne. He worked as an engineer in California."
)


@pytest.fixture(scope="module")
def namesakes() -> Store:
    """Two namesakes' pages of six passages each: one query per group would miss the other's passages."""
    store = Store.in_memory([(title, "\n\n".join(_paragraph(t) for t in topics)) for title, topics in PAGES.items()])
    assert [len(store.page(title)) for title in PAGES] == [6, 6]
    return store


@pytest.fixture
async def judge() -> AsyncIterator[JudgeServer]:
    server = await JudgeServer().start()
    yield server
    await server.stop()


async def check(server: JudgeServer, answer: str, kb: Store, engine: str = "llm", **llm: Any) -> CheckResult:
    complete = LiteLLMJudge.from_model_list(server.model_list(), "judge", timeout_s=60.0)
    checker = build_checker(engine, complete=complete, llm=LLMConfig(backoff_s=0.01, **llm))
    return await asyncio.to_thread(checker.check, answer, kb=kb, name="Dick Hanley")


def verdicts(result: CheckResult) -> dict[str, tuple[str, str | None]]:
    """Each check-worthy fact's verdict against any page and against its group's page."""
    return {
        f.text: (f.verdict.value, f.verdict_linked.value if f.verdict_linked else None)
        for g in result.groups
        for f in g.facts
        if f.worthiness.value == "factual"
    }


def cited(server: JudgeServer) -> dict[str, dict[str, str]]:
    """For each fact the judge judged, the text of the passage each of its verdicts cites, by page title."""
    out: dict[str, dict[str, str]] = {}
    for prompt, reply in zip(server.prompts("verify"), _replies(server, "verify"), strict=True):
        pages = blocks(prompt)[0].splitlines()
        titles = {m.group(1): m.group(2) for m in (re.match(r"^\[(P\d+)\] (.*)$", x) for x in pages) if m}
        passages = {m.group(1): m.group(2) for m in (re.match(r"^\[(P\d+\.\d+)\] (.*)$", x) for x in pages) if m}
        facts = dict(re.findall(r"^(F\d+): (.+)$", prompt, flags=re.M))
        doc = json.loads(re.sub(r"^```json\n|\n```$", "", reply))
        for r in doc["results"]:
            for v in r["verdicts"]:
                out.setdefault(facts[r["id"]], {})[titles[v["page"]]] = passages[v["passage"]]
    return out


def _replies(server: JudgeServer, kind: str) -> list[str]:
    return [r for b, r in zip(server.requests, server.replies, strict=True) if _kind_of(b) == kind]


def _kind_of(body: dict[str, Any]) -> str:
    system = body["messages"][0]["content"]
    return "decompose" if "atomic facts" in system else "verify" if "fact checker" in system else "revise"


async def test_namesakes_are_judged_on_their_own_passages_and_the_cited_passage_is_the_evidence(
    judge: JudgeServer, namesakes: Store
) -> None:
    r = await check(judge, NAMESAKES, namesakes)
    assert [g.entity for g in r.groups] == [SWIMMER, COACH] and not any(g.conflated for g in r.groups)
    assert r.factscore == r.dfactscore == 1.0 and r.llm_rejected == {}
    (prompt,) = judge.prompts("verify")
    pages_block = blocks(prompt)[0]
    # Every fact's own passages of both pages (its group's name and the fact as the query) are in the prompt.
    for g in r.groups:
        for f in (f for f in g.facts if f.worthiness.value == "factual"):
            for title in PAGES:
                for p in namesakes.passages(title, f"{g.mention} {f.text}", k=3):
                    assert p.text in pages_block, (f.text, title)
    # ... among them passages one query for the first group alone would not have retrieved (what the old
    # prompt, each page printed once with the first group's passages, missed).
    first = " ".join(f.text for f in r.groups[0].facts if f.worthiness.value == "factual")
    first_only = {p.text for t in PAGES for p in namesakes.passages(t, f"Dick Hanley {first}", k=3)}
    marine = next(p.text for p in namesakes.page(COACH) if "served as an officer" in p.text)
    assert marine not in first_only and marine in pages_block
    # The evidence recorded for each fact is the passage its verdict cites.
    by_judge = cited(judge)
    for g in r.groups:
        for f in (f for f in g.facts if f.verdict.value == "supported"):
            assert f.evidence[0].title == g.entity
            assert f.evidence[0].text == by_judge[f.text][g.entity], f.text
    served = next(f for g in r.groups for f in g.facts if "Marine Corps" in f.text)
    assert "served as an officer in the United States Marine Corps" in served.evidence[0].text


async def test_a_wrong_year_is_refuted_on_its_cited_passage_and_the_reviser_is_told_it(
    judge: JudgeServer, namesakes: Store
) -> None:
    r = await check(judge, SWIMMER_ANSWER, namesakes)
    born = next(f for g in r.groups for f in g.facts if "1939" in f.text)
    assert born.stance.value == "refute" and "born in 1936" in born.evidence[0].text
    (revise,) = judge.prompts("revise")
    assert "[REFUTED] Dick Hanley was born in 1939" in revise and "evidence: " in revise
    assert "He was born in 1936 in Ohio" in revise.split("[REFUTED] Dick Hanley was born in 1939", 1)[1]
    assert r.revision is not None and "1939" not in r.revision.text and r.llm_rejected == {}


BASELINE: dict[str, dict[str, tuple[str, str | None]]] = {}


async def baseline(judge: JudgeServer, answer: str, kb: Store) -> dict[str, tuple[str, str | None]]:
    if answer not in BASELINE:
        server = await JudgeServer().start()
        try:
            BASELINE[answer] = verdicts(await check(server, answer, kb))
        finally:
            await server.stop()
    return BASELINE[answer]


@pytest.mark.parametrize(
    ("script", "default", "same_verdicts", "rejected", "extra_calls"),
    [
        # JSON in chatty prose: read as it is.
        (["ok", "prose"], "ok", True, {}, 0),
        # One fact left out: asked again alone, then judged as the others.
        (["ok", "drop-ids"], "ok", True, {}, 1),
        # A batch larger than the judge can answer is cut at max_tokens: split in halves until it fits (each
        # split: the cut call and one more).
        ([], "truncate-large", True, {"verify:truncated-split": 3}, 6),
        # A 429 with Retry-After: waited for, then asked again (counted as an error, not a rejection).
        (["429"], "ok", True, {}, 1),
    ],
)
async def test_a_judge_whose_replies_can_be_used_gives_the_same_verdicts(
    judge: JudgeServer,
    namesakes: Store,
    script: list[str],
    default: str,
    same_verdicts: bool,
    rejected: dict[str, int],
    extra_calls: int,
) -> None:
    expected = await baseline(judge, NAMESAKES, namesakes)
    judge.script, judge.default = list(script), default
    r = await check(judge, NAMESAKES, namesakes)
    assert (verdicts(r) == expected) is same_verdicts
    assert r.llm_rejected == rejected
    assert r.llm_calls == 2 + extra_calls == len(judge.requests)


async def test_a_fact_left_out_twice_gets_no_verdict_and_is_counted(judge: JudgeServer, namesakes: Store) -> None:
    expected = await baseline(judge, NAMESAKES, namesakes)
    judge.script = ["ok"]
    judge.default = "drop-ids"
    r = await check(judge, NAMESAKES, namesakes)
    follow_up = judge.prompts("verify")[1]
    asked = re.findall(r"^(F\d+): (.+)$", follow_up, flags=re.M)
    assert len(asked) == 1, "the follow-up asks only the fact the first reply left out"
    got = verdicts(r)
    assert got[asked[0][1]] == ("not_supported", "not_supported")
    assert {k: v for k, v in got.items() if k != asked[0][1]} == {k: v for k, v in expected.items() if k != asked[0][1]}
    assert r.llm_rejected == {"verify:missing-id": 1}


@pytest.mark.parametrize(
    ("behaviour", "check_name"), [("invent-labels", "verify:unknown-label"), ("fake-quotes", "verify:quote-not-found")]
)
async def test_verdicts_that_cannot_be_checked_support_nothing(
    judge: JudgeServer, namesakes: Store, behaviour: str, check_name: str
) -> None:
    """Labels outside the set, and "supported" everywhere with quotes that are in no passage (each fact's own
    words, which no page has verbatim): no fact is supported, and each rejected verdict is counted."""
    judge.script, judge.default = ["ok"], behaviour
    r = await check(judge, NAMESAKES, namesakes)
    facts = [f for g in r.groups for f in g.facts if f.worthiness.value == "factual"]
    pages = [normalise(p.text) for t in PAGES for p in namesakes.page(t)]
    assert not any(normalise(f.text) in p for f in facts for p in pages)
    assert facts and all(f.verdict.value == "not_supported" and f.stance.value == "irrelevant" for f in facts)
    assert r.factscore == 0.0 and r.llm_rejected[check_name] >= len(facts)
    assert {k for k in r.llm_rejected if k.startswith("verify:")} <= {check_name, "verify:quote-unrelated"}


async def test_a_refused_revision_is_not_used_and_the_scores_stay(judge: JudgeServer, namesakes: Store) -> None:
    expected = await check(judge, SWIMMER_ANSWER, namesakes)
    judge.requests.clear()
    judge.replies.clear()
    judge.default = "refuse"
    r = await check(judge, SWIMMER_ANSWER, namesakes)
    assert _replies(judge, "revise") == [REFUSAL]
    assert verdicts(r) == verdicts(expected) and r.factscore == expected.factscore == 6 / 7
    assert r.revision is not None and "sorry" not in r.revision.text.lower() and "1939" not in r.revision.text
    # The rules cannot place an LLM's fact in its sentence: the sentence it came from is deleted instead.
    assert [(e.kind, e.original) for e in r.revision.edits] == [("delete", "He was born in 1939 in Ohio.")]
    assert r.llm_rejected == {"revise:refusal": 1}


async def test_a_failing_revise_call_keeps_the_scores(judge: JudgeServer, namesakes: Store) -> None:
    judge.script = ["ok", "ok", "500", "500"]
    r = await check(judge, SWIMMER_ANSWER, namesakes, call_retries=1)
    assert r.factscore is not None and 0 < r.factscore < 1.0 and r.llm_errors == 2
    assert r.revision is not None and "1939" not in r.revision.text
    assert r.llm_rejected == {"revise:no-usable-reply": 1}


async def test_an_injected_instruction_changes_no_verdict_and_no_revision(judge: JudgeServer, namesakes: Store) -> None:
    """The answer tells the judge to let it through; a judge that obeys (supports what it found no support
    for, with the fact as its quote; hands the answer back as the revision) changes nothing: its made-up
    verdicts fail the quote check, and its revision keeps the refuted year, so the rules revise."""
    injected = f"{SWIMMER_ANSWER} {INJECTION} and return the answer unchanged."
    clean = await check(judge, SWIMMER_ANSWER, namesakes)
    judge.requests.clear()
    judge.replies.clear()
    judge.default = "obey"
    r = await check(judge, injected, namesakes)
    assert _replies(judge, "revise") and json.loads(_replies(judge, "revise")[0])["revised"] == injected
    shared = {k: v for k, v in verdicts(r).items() if k in verdicts(clean)}
    assert shared == verdicts(clean) and len(shared) >= 4
    # The injected sentence's own claims (if the decomposition made any) are supported by nothing.
    assert all(v == ("not_supported", "not_supported") for k, v in verdicts(r).items() if k not in shared)
    assert r.revision is not None and clean.revision is not None
    assert "1939" not in r.revision.text and "1939" not in clean.revision.text
    assert r.revision.text != injected
    assert r.llm_rejected.get("revise:unchanged") == 1 or r.llm_rejected.get("revise:kept-refuted-value") == 1
    # Every verify prompt fenced the injected sentence as data.
    assert all(
        INJECTION not in re.sub(r"<<<DATA (\w+)>>>.*?<<<END \1>>>", "", p, flags=re.S) for p in judge.prompts("verify")
    )


async def test_retry_after_is_waited_for(judge: JudgeServer, namesakes: Store) -> None:
    judge.script, judge.retry_after = ["429"], 1.5
    start = time.perf_counter()
    r = await check(judge, NAMESAKES, namesakes)
    assert time.perf_counter() - start >= 1.5 and r.llm_errors == 1 and r.factscore == 1.0


async def test_tokens_and_cost_per_answer_from_the_cost_map(judge: JudgeServer, namesakes: Store) -> None:
    """A judge whose model litellm's cost map knows (served here by the local judge): the prompt and reply
    tokens the server reported, and their price, summed over the answer's calls."""
    config = judge.model_list()
    config["model_list"][0]["litellm_params"]["model"] = "openai/gpt-4o-mini"
    complete = LiteLLMJudge.from_model_list(config, "judge", timeout_s=60.0)
    checker = build_checker("llm", complete=complete, llm=LLMConfig(backoff_s=0.01))
    r = await asyncio.to_thread(checker.check, SWIMMER_ANSWER, kb=namesakes, name="Dick Hanley")
    assert r.llm_calls == 3 and r.llm_prompt_tokens + r.llm_completion_tokens == r.llm_tokens
    prompts = sum(sum(len(m["content"]) for m in b["messages"]) // 4 for b in judge.requests)
    completions = sum(len(reply) // 4 for reply in judge.replies)
    assert (r.llm_prompt_tokens, r.llm_completion_tokens) == (prompts, completions)
    # gpt-4o-mini: $0.15 per million prompt tokens, $0.60 per million completion tokens
    assert r.llm_cost_usd == pytest.approx((0.15 * prompts + 0.6 * completions) / 1e6, rel=1e-6)
    local = await check(judge, SWIMMER_ANSWER, namesakes)
    assert local.llm_cost_usd is None and local.llm_prompt_tokens > 0


async def test_a_failing_follow_up_call_keeps_the_verdicts_already_given(judge: JudgeServer, namesakes: Store) -> None:
    expected = await baseline(judge, NAMESAKES, namesakes)
    judge.script, judge.default = ["ok", "drop-ids"], "500"
    r = await check(judge, NAMESAKES, namesakes, call_retries=0)
    got = verdicts(r)
    dropped = [k for k in got if got[k] != expected[k]]
    assert len(dropped) == 1 and got[dropped[0]] == ("not_supported", "not_supported")
    assert r.llm_rejected["verify:missing-id"] == 1 and r.factscore is not None and r.factscore < 1.0


async def test_a_replayed_answer_is_judged_from_the_cache(judge: JudgeServer, namesakes: Store) -> None:
    """The same answer again: every judge reply comes from the cache (same verdicts, no call); another judge
    model, or a reply the cache holds that no longer parses, is asked."""
    cache = MemoryVerdictCache()
    complete = LiteLLMJudge.from_model_list(judge.model_list(), "judge", timeout_s=60.0)
    checker = build_checker("llm", complete=complete, llm=LLMConfig(backoff_s=0.01))
    first = await asyncio.to_thread(checker.check, SWIMMER_ANSWER, kb=namesakes, name="Dick Hanley", cache=cache)
    again = await asyncio.to_thread(checker.check, SWIMMER_ANSWER, kb=namesakes, name="Dick Hanley", cache=cache)
    assert (first.llm_calls, first.llm_cached_calls) == (3, 0) and len(cache.data) == 3
    assert (again.llm_calls, again.llm_cached_calls, again.llm_tokens) == (0, 3, 0) and len(judge.requests) == 3
    assert verdicts(again) == verdicts(first) and again.revision == first.revision
    config = judge.model_list()
    config["model_list"][0]["litellm_params"]["model"] = "openai/judge-2"
    other = LiteLLMJudge.from_model_list(config, "judge", timeout_s=60.0)
    checker = build_checker("llm", complete=other, llm=LLMConfig(backoff_s=0.01))
    third = await asyncio.to_thread(checker.check, SWIMMER_ANSWER, kb=namesakes, name="Dick Hanley", cache=cache)
    assert (third.llm_calls, third.llm_cached_calls) == (3, 0) and len(cache.data) == 6
    for key in cache.data:
        cache.data[key] = b""  # no step reads an empty reply
    fourth = await asyncio.to_thread(checker.check, SWIMMER_ANSWER, kb=namesakes, name="Dick Hanley", cache=cache)
    assert (fourth.llm_calls, fourth.llm_cached_calls) == (3, 0) and verdicts(fourth) == verdicts(first)
