"""The llm engine: prompt builders and parsers on realistic model answers, and the llm and hybrid engines
with a scripted model."""

from __future__ import annotations

import json
import re

import pytest

from knowledge.store import Store
from scoring.engines import EngineNeedsJudge, UnknownEngine, build_checker
from scoring.errors import LLMOutputError
from scoring.llm import (
    CheckedFact,
    LLMConfig,
    Page,
    VerifyGroup,
    batch_groups,
    build_decompose_request,
    build_revise_request,
    build_verify_request,
    parse_decompose,
    parse_revise,
    parse_verify,
)
from scoring.verifier import OfflineVerifier

GPT_STYLE = """Here are the atomic facts, grouped by individual:

# Joseph F. Smith (1838–1918)
- Joseph F. Smith was born in 1838.
- Joseph F. Smith died in 1918.
- Joseph F. Smith was the sixth president of the LDS Church.

===

# Joseph F. Smith (politician)
- Joseph F. Smith was an American politician.
- Joseph F. Smith was from Philadelphia.
"""

CLAUDE_STYLE = """```
Individual 1: Dick Hanley
1. Dick Hanley is American.
2. Dick Hanley was a **swimmer**.
3. Dick Hanley was born in 1936 [2]
4) Dick Hanley died in 1970.
```"""

NO_HEADERS = """* Gavin Hamilton was a Scottish painter.
* Gavin Hamilton died in Rome.
===
* Gavin Hamilton is a former cricketer.
Gavin Hamilton played for Yorkshire."""


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (
            GPT_STYLE,
            [
                ("Joseph F. Smith (1838–1918)", 3),
                ("Joseph F. Smith (politician)", 2),
            ],
        ),
        (CLAUDE_STYLE, [("Dick Hanley", 4)]),
        (NO_HEADERS, [("Gavin Hamilton", 2), ("Gavin Hamilton", 2)]),
    ],
)
def test_parse_decompose(raw: str, expected: list[tuple[str, int]]) -> None:
    groups = parse_decompose(raw, "Gavin Hamilton")
    assert [(g.name, len(g.facts)) for g in groups] == expected
    assert all(f.endswith(".") and "**" not in f and "[2]" not in f for g in groups for f in g.facts)


@pytest.mark.parametrize("raw", ["", "I'm sorry, I can't help with that.", "```\n```"])
def test_parse_decompose_rejects_answers_without_facts(raw: str) -> None:
    with pytest.raises(LLMOutputError) as e:
        parse_decompose(raw)
    assert e.value.step == "decompose" and e.value.retriable


def test_decompose_request_carries_the_text_and_the_separator_rule() -> None:
    messages = build_decompose_request("Dick Hanley was a coach.", "Dick Hanley")
    assert [m["role"] for m in messages] == ["system", "user"]
    assert "===" in messages[1]["content"] and messages[1]["content"].endswith("Text: Dick Hanley was a coach.\nFacts:")


LABELS = {"P1": "Dick Hanley (swimmer)", "P2": "Dick Hanley (American football)"}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (
            '```json\n{"results": [{"id": "F1", "supported_by": ["P1"], "refuted_by": []}, '
            '{"id": "F2", "supported_by": [], "refuted_by": ["P1"]},]}\n```',
            {"F1": ({"Dick Hanley (swimmer)"}, set()), "F2": (set(), {"Dick Hanley (swimmer)"})},
        ),
        (
            'Sure! [{"id": 1, "supported_by": "P1, P2"}, '
            '{"id": "f2", "supported_by": ["Dick Hanley (American football)"]}]',
            {
                "F1": ({"Dick Hanley (swimmer)", "Dick Hanley (American football)"}, set()),
                "F2": ({"Dick Hanley (American football)"}, set()),
            },
        ),
        ('{"F1": {"supported_by": ["P9"]}, "F2": ["P2"]}', {"F1": (set(), set()), "F2": ({LABELS["P2"]}, set())}),
    ],
)
def test_parse_verify(raw: str, expected: dict[str, tuple[set[str], set[str]]]) -> None:
    got = parse_verify(raw, ["F1", "F2"], LABELS)
    assert {k: (v.supported_by, v.refuted_by) for k, v in got.items()} == expected


@pytest.mark.parametrize("raw", ["no json here", '{"results": "yes"}', '{"results": [{"id": "F7"}]}', "{broken"])
def test_parse_verify_rejects(raw: str) -> None:
    with pytest.raises(LLMOutputError):
        parse_verify(raw, ["F1"], LABELS)


def test_verify_request_and_batches() -> None:
    pages = (Page("Dick Hanley (swimmer)", ("He was born in 1936.",)), Page("Dick Hanley (American football)", ("x",)))
    facts = tuple((f"F{i}", "Dick Hanley was born in 1936.") for i in range(1, 41))
    groups = [VerifyGroup("Dick Hanley", facts, pages)]
    text = build_verify_request(groups)[1]["content"]
    assert "[P1] Dick Hanley (swimmer)" in text and "F40: Dick Hanley was born in 1936." in text
    batches = batch_groups(groups, max_chars=400)
    assert len(batches) > 1 and sum(len(g.facts) for b in batches for g in b) == 40
    assert all(sum(g.size() for g in b) <= 400 for b in batches)
    assert len(batch_groups(groups, max_chars=100_000)) == 1


@pytest.mark.parametrize(
    ("raw", "text", "kinds"),
    [
        (
            '{"revised": "Dick Hanley (American football) died in 1970.\\n\\nDick Hanley (swimmer) was born in 1936.",'
            ' "edits": [{"kind": "separate", "original": "He was born in 1936.", "replacement": "Dick Hanley '
            '(swimmer) was born in 1936."}, {"kind": "weird", "original": "x", "replacement": null}]}',
            "Dick Hanley (American football) died in 1970.\n\nDick Hanley (swimmer) was born in 1936.",
            ["separate", "delete"],
        ),
        ("Here is the revised answer:\nDick Hanley died in 1970.", "Dick Hanley died in 1970.", []),
    ],
)
def test_parse_revise(raw: str, text: str, kinds: list[str]) -> None:
    revised, edits = parse_revise(raw)
    assert revised == text and [e.kind for e in edits] == kinds


def test_revise_request_lists_the_verdicts() -> None:
    facts = [
        CheckedFact("Dick Hanley died in 1970.", "supported", "Dick Hanley (American football)"),
        CheckedFact("Dick Hanley was born in 1936.", "other", "Dick Hanley (swimmer)", "He was born in 1936."),
    ]
    content = build_revise_request("Dick Hanley was born in 1936. He died in 1970.", facts)[1]["content"]
    assert "[ABOUT Dick Hanley (swimmer)] Dick Hanley was born in 1936." in content
    assert "[SUPPORTED] Dick Hanley died in 1970." in content


HANLEY = (
    "Dick Hanley was an American swimmer and football coach. He was born in 1936 and won a silver medal at the "
    "1956 Olympics. He was head coach at Northwestern from 1927 to 1934. He died in 1970."
)
FACTS = {
    "Dick Hanley was born in 1936.": "Dick Hanley (swimmer)",
    "Dick Hanley won a silver medal at the 1956 Olympics.": "Dick Hanley (swimmer)",
    "Dick Hanley was a swimmer.": "Dick Hanley (swimmer)",
    "Dick Hanley was head coach at Northwestern from 1927 to 1934.": "Dick Hanley (American football)",
    "Dick Hanley was a football coach.": "Dick Hanley (American football)",
    "Dick Hanley died in 1970.": "Dick Hanley (American football)",
}


class ScriptedModel:
    """A stand-in for the remote LLM: answers each step the way a capable model would for HANLEY."""

    def __init__(self, bad_first: bool = False) -> None:
        self.prompts: list[str] = []
        self.bad_first = bad_first

    def complete(self, messages: list[dict[str, str]]) -> str:
        prompt = messages[-1]["content"]
        self.prompts.append(prompt)
        if self.bad_first and len(self.prompts) == 1:
            return "I cannot do that."
        if "atomic facts" in messages[0]["content"]:
            return "Sure.\n# Dick Hanley\n" + "\n".join(f"- {f}" for f in FACTS)
        if "fact checker" in messages[0]["content"]:
            labels = dict(re.findall(r"^\[(P\d+)\] (.+)$", prompt, flags=re.M))
            by_title = {t: p for p, t in labels.items()}
            results = []
            for fid, fact in re.findall(r"^(F\d+): (.+)$", prompt, flags=re.M):
                title = FACTS.get(fact)
                results.append({"id": fid, "supported_by": [by_title[title]] if title in by_title else []})
            return "```json\n" + json.dumps({"results": results}) + "\n```"
        return json.dumps({"revised": "Dick Hanley (American football) died in 1970.", "edits": []})


def test_llm_engine_merged_biography(demo_kb: Store) -> None:
    model = ScriptedModel()
    r = build_checker("llm", complete=model.complete).check(HANLEY, kb=demo_kb, name="Dick Hanley")
    assert r.engine == "llm" and r.llm_calls == 3 and r.llm_tokens > 0 and r.llm_errors == 0
    assert (r.num_bios, r.num_entities, r.num_facts) == (1, 2, 6)
    assert r.factscore == 1.0 and r.dfactscore == 0.5
    assert r.groups[0].conflated
    assert {f.decided_by for g in r.groups for f in g.facts} == {"llm"}
    assert r.revision is not None and r.revision.text == "Dick Hanley (American football) died in 1970."
    assert "ABOUT Dick Hanley (swimmer)" in model.prompts[-1]


def test_llm_engine_retries_malformed_output(demo_kb: Store) -> None:
    model = ScriptedModel(bad_first=True)
    r = build_checker("llm", complete=model.complete).check(HANLEY, kb=demo_kb, name="Dick Hanley")
    assert r.llm_calls == 4 and r.llm_errors == 1 and r.num_facts == 6


def test_llm_engine_reports_persistent_garbage(demo_kb: Store) -> None:
    def garbage(messages: list[dict[str, str]]) -> tuple[str, int]:
        return "no idea", 7

    checker = build_checker("llm", complete=garbage, llm=LLMConfig(retries=1))
    with pytest.raises(LLMOutputError, match="decompose"):
        checker.check(HANLEY, kb=demo_kb, name="Dick Hanley")


def test_llm_engine_abstains_without_calls(demo_kb: Store) -> None:
    model = ScriptedModel()
    r = build_checker("llm", complete=model.complete).check(
        "I could not find information about Dick Hanley.", kb=demo_kb
    )
    assert r.abstained and r.llm_calls == 0 and model.prompts == []


def test_hybrid_sends_only_uncertain_facts_to_the_llm(demo_kb: Store, verifier: OfflineVerifier) -> None:
    model = ScriptedModel()
    llm = LLMConfig(settle_above=0.8, settle_below=0.3)
    r = build_checker("hybrid", complete=model.complete, stance_model=verifier, llm=llm).check(
        HANLEY, kb=demo_kb, name="Dick Hanley"
    )
    assert r.engine == "hybrid"
    assert not any("atomic facts" in p for p in model.prompts), "hybrid decomposes offline by default"
    verify_prompt = next(p for p in model.prompts if "Facts (grouped" in p)
    asked = re.findall(r"^F\d+: ", verify_prompt, flags=re.M)
    facts = [f for g in r.groups for f in g.facts if f.worthiness.value == "factual"]
    by_llm = [f for f in facts if f.decided_by == "llm"]
    assert 0 < len(asked) == len(by_llm) < len(facts), "only the uncertain facts go to the LLM"
    assert all(f.decided_by for f in facts)
    assert r.factscore is not None and r.dfactscore is not None and r.dfactscore < r.factscore


def test_hybrid_can_let_the_llm_decompose_and_revise(demo_kb: Store, verifier: OfflineVerifier) -> None:
    model = ScriptedModel()
    llm = LLMConfig(hybrid_llm_steps=frozenset({"decompose", "revise"}))
    r = build_checker("hybrid", complete=model.complete, stance_model=verifier, llm=llm).check(
        HANLEY, kb=demo_kb, name="Dick Hanley"
    )
    assert r.num_facts == 6 and "atomic facts" in model.prompts[0]
    assert r.revision is not None and r.revision.text == "Dick Hanley (American football) died in 1970."


def test_engines_that_call_an_llm_need_a_judge_and_names_are_checked() -> None:
    with pytest.raises(EngineNeedsJudge, match="FACTSENTRY_JUDGE_MODEL"):
        build_checker("hybrid")
    with pytest.raises(UnknownEngine, match="did you mean 'hybrid'"):
        build_checker("hybird")
