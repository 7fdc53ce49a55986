"""The llm engine's guards as tables: decomposed facts with values the answer lacks, revisions that may not be
used, the explicit empty decomposition, headings that do not split an individual, and the judge client's
call settings and Retry-After."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scoring.llm import PROMPT_VERSIONS, CheckedFact, parse_decompose, revision_problem, values_not_in
from scoring.llm.client import LiteLLMJudge, _retry_after
from scoring.llm.verify import SCHEMA

ANSWER = "Dick Hanley is an American swimmer. He was born in 1936 in Ohio and won three medals, 1,200 in all."


@pytest.mark.parametrize(
    ("fact", "missing"),
    [
        ("Dick Hanley was born in 1936.", []),
        ("Dick Hanley was born in 1937.", ["1937"]),
        ("Dick Hanley was born in Ohio.", []),
        ("Dick Hanley was born in Chicago.", ["Chicago"]),
        ("Dick Hanley is from America.", []),  # "America" and "American": one stem
        ("Dick Hanley won 3 medals.", []),  # three, as a digit
        ("Dick Hanley won 1200 in all.", []),  # 1,200 without its comma
        ("Dick Hanley won 4 medals at the Tokyo Olympics.", ["4", "Tokyo", "Olympics"]),
        ("The swimmer Dick Hanley's medals.", []),
        ("Richard Hanley was born in 1936.", ["Richard"]),
        ("Dick Hanley swam for Ohio-Hanley.", []),  # a hyphenated name: each part
        ("Dick Hanley swam for Ohio-Toledo.", ["Ohio-Toledo"]),
    ],
)
def test_a_decomposed_fact_may_only_have_the_answers_values(fact: str, missing: list[str]) -> None:
    assert values_not_in(fact, ANSWER) == missing


def test_the_name_asked_about_counts_as_the_answers() -> None:
    assert values_not_in("Richard Hanley was born in 1936.", ANSWER, "Richard Hanley") == []


WRONG = "Dick Hanley was born in 1939 in Ohio. He won a silver medal at the 1956 Olympics."
FACTS = [
    CheckedFact("Dick Hanley was born in 1939.", "refuted", "Dick Hanley (swimmer)", "He was born in 1936 in Ohio."),
    CheckedFact("Dick Hanley was born in Ohio.", "supported", "Dick Hanley (swimmer)"),
    CheckedFact("Dick Hanley won a silver medal at the 1956 Olympics.", "supported", "Dick Hanley (swimmer)"),
]
EVIDENCE = ["He was born in 1936 in Ohio."]
TITLES = ["Dick Hanley (swimmer)"]


@pytest.mark.parametrize(
    ("revised", "problem"),
    [
        ("Dick Hanley was born in 1936 in Ohio. He won a silver medal at the 1956 Olympics.", None),
        ("Dick Hanley was born in Ohio. He won a silver medal at the 1956 Olympics.", None),
        ("I'm sorry, but I can't help with that.", "refusal"),
        ("Sorry — I cannot revise this text.", "refusal"),
        ("As an AI, I won't change the answer.", "refusal"),
        (WRONG, "unchanged"),
        ("  dick hanley was born in 1939 in ohio;  he won a silver medal at the 1956 olympics ", "unchanged"),
        ("Dick Hanley was born in 1939. He won a silver medal.", "kept-refuted-value"),
        ("Dick Hanley was born in 1936 in Ohio. He won a gold medal in 1960.", "new-value"),
        ("Dick Hanley was born in 1936 in Toledo.", "new-value"),
        (
            "Dick Hanley was born in 1936 in Ohio. He later became famous worldwide, admired greatly by many "
            "talented younger swimmers everywhere.",
            "new-claim",
        ),
        ("<<<DATA 0123456789ab>>> Dick Hanley was born in 1936 in Ohio.", "fence-leak"),
        ("garbage", "dropped-supported"),
        ("He won a medal.", "dropped-supported"),
    ],
)
def test_a_revision_is_used_only_when_nothing_is_wrong_with_it(revised: str, problem: str | None) -> None:
    assert revision_problem(revised, WRONG, FACTS, EVIDENCE, TITLES) == problem


def test_facts_about_another_person_may_stay_when_separated_but_not_when_dropped() -> None:
    facts = [
        CheckedFact("Dick Hanley coached Northwestern.", "supported", "Dick Hanley (American football)"),
        CheckedFact("Dick Hanley won a medal at Melbourne.", "other", "Dick Hanley (swimmer)", "won at Melbourne"),
    ]
    answer = "Dick Hanley coached Northwestern. He won a medal at Melbourne."
    separated = "Dick Hanley coached Northwestern.\n\nDick Hanley (swimmer) won a medal at Melbourne."
    assert revision_problem(separated, answer, facts, [], [], "separate") is None
    assert revision_problem(answer, answer, facts, [], [], "drop") == "unchanged"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("NO FACTS", []),
        ("No facts.", []),
        ("```\nNO FACTS\n```", []),
        ("Sorry, there are no facts I can list here.", None),  # not the explicit reply, and no facts either
        ("# Ada Lovelace\n- Ada Lovelace was born in 1815.\n## Career\n- Ada Lovelace wrote notes.", [2]),
        ("# Ada Lovelace\n- Ada Lovelace was born in 1815.\n===\n# Ada Byron\n- Ada Byron wrote notes.", [1, 1]),
    ],
)
def test_decomposition_replies(raw: str, expected: list[int] | None) -> None:
    if expected is None:
        with pytest.raises(Exception, match="no atomic facts"):
            parse_decompose(raw, "Ada Lovelace")
        return
    assert [len(g.facts) for g in parse_decompose(raw, "Ada Lovelace")] == expected


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ({}, {"temperature": 0, "max_tokens": 4096, "timeout": 30.0, "seed": 0}),
        (
            {"temperature": 1, "max_tokens": 512, "timeout": 90, "seed": 7},
            {"temperature": 1, "max_tokens": 512, "timeout": 90, "seed": 7},
        ),
    ],
)
def test_the_model_list_entry_settings_win_without_colliding(entry: dict[str, Any], expected: dict[str, Any]) -> None:
    config = {"model_list": [{"model_name": "judge", "litellm_params": {"model": "openai/judge-1", **entry}}]}
    judge = LiteLLMJudge.from_model_list(config, "judge")
    call = judge.request([{"role": "user", "content": "hi"}], SCHEMA)
    assert {k: call[k] for k in expected} == expected
    assert call["max_retries"] == call["num_retries"] == 0 and call["drop_params"] is True
    assert call["response_format"] == {"type": "json_object"}  # an unknown model: JSON mode


def test_a_model_that_supports_schemas_is_held_to_the_schema() -> None:
    judge = LiteLLMJudge("judge", {"model": "openai/gpt-4o-mini"})
    fmt = judge.request([], SCHEMA)["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["schema"] == SCHEMA
    assert "response_format" not in judge.request([])


class _Headers(dict[str, str]):
    pass


class _Error(Exception):
    def __init__(self, headers: dict[str, str] | None) -> None:
        super().__init__("x")
        self.litellm_response_headers = _Headers(headers) if headers is not None else None


@pytest.mark.parametrize(
    ("headers", "seconds"),
    [
        ({"retry-after": "2"}, 2.0),
        ({"retry-after": "0.5"}, 0.5),
        ({"retry-after-ms": "1500"}, 1.5),
        ({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}, 0.0),  # a date in the past: no wait
        ({"retry-after": "soon"}, None),
        ({}, None),
        (None, None),
    ],
)
def test_retry_after_is_read_from_the_providers_headers(headers: dict[str, str] | None, seconds: float | None) -> None:
    assert _retry_after(_Error(headers)) == seconds


def test_every_prompt_has_a_version() -> None:
    assert PROMPT_VERSIONS == {"decompose": "decompose-3", "verify": "verify-3", "revise": "revise-2"}


def _demos() -> list[tuple[str, str]]:
    from scoring.llm.decompose import INSTRUCTIONS

    parts = INSTRUCTIONS.split("Example:\n")[1:]
    return [(p.split("Text: ", 1)[1].split("\nFacts:\n", 1)[0], p.split("\nFacts:\n", 1)[1]) for p in parts]


def test_the_decomposition_demos_cover_the_cases_and_keep_to_their_texts_values() -> None:
    demos = _demos()
    assert len(demos) >= 6
    assert sum(1 for _, facts in demos if "===" in facts) == 2  # a numbered list and "Another ..." prose
    assert any("## " in text for text, _ in demos) and any("|" in text for text, _ in demos)
    assert [facts.strip() for _, facts in demos].count("NO FACTS") == 1
    for text, facts in demos:
        groups = parse_decompose(facts, "")
        assert all(values_not_in(f, text) == [] for g in groups for f in g.facts), text
        assert all("believe" not in f for g in groups for f in g.facts)


def test_the_verify_demos_stay_outside_the_data_and_are_not_read_as_the_request() -> None:
    from scoring.llm.fence import blocks
    from scoring.llm.verify import EXAMPLES, Page, VerifyGroup, build_verify_request, layout

    groups = [VerifyGroup("Ada", (("F1", "Ada was born in 1815."),), (Page("Ada Lovelace", ("Born 1815.",)),))]
    user = build_verify_request(groups)[1]["content"]
    assert user.startswith(EXAMPLES) and all("Ann Doyle" not in b for b in blocks(user))
    assert re.findall(r"^(F\d+): ", user, flags=re.M) == ["F1"] and re.findall(r"^\[P", user, flags=re.M) == [
        "[P",
        "[P",
    ]
    assert list(layout(groups).facts) == ["F1"]


@pytest.mark.parametrize(
    ("decomposition", "rejected"),
    [
        ("NO FACTS", {}),
        # every fact with a value the answer lacks: dropped, so nothing is left to check
        (
            "# Dick Hanley\n- Dick Hanley was born in 1931.\n- Dick Hanley coached at Yale.",
            {"decompose:value-not-in-answer": 2},
        ),
    ],
)
def test_an_answer_without_usable_facts_is_unverifiable_in_one_call(
    demo_kb: Any, decomposition: str, rejected: dict[str, int]
) -> None:
    from scoring.engines import build_checker

    asked: list[str] = []

    def complete(messages: list[dict[str, str]]) -> str:
        asked.append(messages[0]["content"])
        return decomposition

    answer = "Dick Hanley has had quite a life, and people still talk about him."
    r = build_checker("llm", complete=complete).check(answer, kb=demo_kb, name="Dick Hanley")
    assert r.unverifiable and r.num_facts == 0 and r.factscore is None
    assert (r.llm_calls, r.llm_errors, r.llm_rejected) == (1, 0, rejected) and len(asked) == 1


@pytest.mark.parametrize(
    "answer",
    [
        "Dick Hanley is an American former competitive swimmer. He was born in 1939.",
        "Dick Hanley is an American former competitive swimmer. Hanley won a gold medal in Rome in 1960.",
    ],
)
def test_a_claim_the_decomposition_leaves_out_is_checked_all_the_same(demo_kb: Any, answer: str) -> None:
    """The judge lists the facts of the first sentence only; the second, a claim, is checked as it stands."""
    from factsentry.bench.scoring import scripted_reply
    from scoring.engines import build_checker

    def complete(messages: list[dict[str, str]]) -> str:
        if "atomic facts" in messages[0]["content"]:
            return "# Dick Hanley\n- Dick Hanley is an American former competitive swimmer."
        return scripted_reply(messages)

    r = build_checker("llm", complete=complete).check(answer, kb=demo_kb, name="Dick Hanley")
    second = answer.split(". ", 1)[1]
    facts = {f.text: f.verdict.value for g in r.groups for f in g.facts}
    assert facts == {"Dick Hanley is an American former competitive swimmer.": "supported", second: "not_supported"}
    assert r.factscore == 0.5 and r.llm_rejected == {"decompose:uncovered-sentence": 1}


LONG = (
    "## Early life\nDick Hanley is an American former competitive swimmer. He was born in 1936.\n\n"
    "## Olympics\nHanley swam in the freestyle relay at the 1956 Summer Olympics in Melbourne. "
    "The American team won the silver medal.\n\n"
    "## Later years\nHanley was a swimmer in the United States."
)


def _sentences_of(messages: list[dict[str, str]]) -> list[str]:
    from scoring.llm.fence import blocks

    text = blocks(messages[1]["content"])[-1]
    return [s for s in re.split(r"(?<=[.!?])\s+|\n+", text) if s and not s.startswith("#")]


@pytest.mark.parametrize(
    ("chunk", "truncate_above", "calls", "splits"),
    [
        (6_000, 99, 1, 0),  # the whole answer in one part
        (150, 99, 3, 0),  # one part per section
        (6_000, 1, 9, 4),  # cut replies: halves until one sentence a call (5 read, 4 cut)
    ],
)
def test_a_long_answer_is_decomposed_in_parts_and_one_person_stays_one_group(
    demo_kb: Any, chunk: int, truncate_above: int, calls: int, splits: int
) -> None:
    from factsentry.bench.scoring import scripted_reply
    from scoring.engines import build_checker
    from scoring.errors import LLMCallError
    from scoring.llm import LLMConfig

    parts: list[list[str]] = []

    def complete(messages: list[dict[str, str]]) -> str:
        if "atomic facts" not in messages[0]["content"]:
            return scripted_reply(messages)
        sentences = _sentences_of(messages)
        parts.append(sentences)
        if len(sentences) > truncate_above:
            raise LLMCallError("truncated", "cut at max_tokens")
        return "# Dick Hanley\n" + "\n".join(f"- {s}" for s in sentences)

    llm = LLMConfig(decompose_chunk_chars=chunk)
    r = build_checker("llm", complete=complete, llm=llm).check(LONG, kb=demo_kb, name="Dick Hanley")
    assert len(parts) == calls and r.llm_rejected.get("decompose:truncated-split", 0) == splits
    assert len(r.groups) == 1 and r.groups[0].entity == "Dick Hanley (swimmer)"
    assert sorted(f.text for f in r.groups[0].facts) == sorted(
        {s for p in parts if len(p) <= truncate_above for s in p}
    )
    assert r.num_facts == 5 and r.llm_calls == calls + 1  # and one verify call


def test_only_the_checked_sentences_are_decomposed(demo_kb: Any) -> None:
    """With max_sentences 2, the judge is shown the first two sentences only (the rest is not checked)."""
    from dataclasses import replace

    from factsentry.bench.scoring import scripted_reply
    from scoring.engines import build_checker
    from scoring.llm.fence import blocks
    from scoring.pipeline import default_config

    shown: list[str] = []

    def complete(messages: list[dict[str, str]]) -> str:
        if "atomic facts" in messages[0]["content"]:
            shown.append(blocks(messages[1]["content"])[-1])
        return scripted_reply(messages)

    config = replace(default_config(), max_sentences=2)
    answer = "Dick Hanley is an American swimmer. He was born in 1936. He won a silver medal in 1956."
    r = build_checker("llm", complete=complete, config=config).check(answer, kb=demo_kb, name="Dick Hanley")
    assert shown == ["Dick Hanley is an American swimmer. He was born in 1936."]
    assert len(r.sentences) == 2 and all(f.sentence_index < 2 for g in r.groups for f in g.facts)
