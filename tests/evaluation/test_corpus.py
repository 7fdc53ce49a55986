"""The corpus runner: each expectation judged on real results, pass rates per kind, clear errors for bad files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaluation.corpus import Answer, blocked, changed_sentences, human_passes, judge, load, revision_faults, run
from evaluation.engines import Engine
from evaluation.errors import EvaluationError
from schemas.check import CheckResult, FactGroup, FactResult, Revision
from schemas.enums import Stance, Verdict

PAGES = [
    {
        "title": "Ilse Marrow",
        "text": "Ilse Marrow (born 1931 in Bergen) is a Norwegian glassblower. She founded "
        "the Vassvik Studio in 1962 and won the Lysaker Prize in 1975.",
    },
]


def fact(text: str, verdict: Verdict, linked: Verdict | None = None) -> FactResult:
    return FactResult(text=text, verdict=verdict, verdict_linked=linked or verdict, stance=Stance.SUPPORT)


RESULT = CheckResult(
    factscore=0.75,
    dfactscore=0.5,
    num_facts=4,
    num_bios=1,
    num_entities=2,
    groups=[
        FactGroup(
            mention="Ilse Marrow",
            entity="Ilse Marrow",
            conflated=True,
            facts=[
                fact("Ilse Marrow was born in 1931.", Verdict.SUPPORTED),
                fact("Ilse Marrow won the Lysaker Prize in 1977.", Verdict.NOT_SUPPORTED),
                fact("Ilse Marrow was a cyclist.", Verdict.SUPPORTED, Verdict.NOT_SUPPORTED),
            ],
        )
    ],
    revision=Revision(text="Ilse Marrow was born in 1931.", edits=[]),
)


@pytest.mark.parametrize(
    ("expect", "missed"),
    [
        ({"status": "checked", "entity": "Ilse Marrow", "num_entities": 2, "conflated": True}, []),
        (
            {"status": "abstained", "entity": "Other", "num_entities": 1, "conflated": False, "min_bios": 2},
            ["status: checked", "entity: Ilse Marrow", "num_entities: 2", "conflated: True", "min_bios: 1"],
        ),
        ({"factscore_min": 0.7, "factscore_max": 0.8, "dfactscore_max": 0.6, "dfs_below_fs": True}, []),
        ({"factscore_max": 0.5, "dfactscore_min": 0.9}, ["factscore_max: 0.75", "dfactscore_min: 0.5"]),
        ({"supported": ["1931", "cyclist"], "not_supported": ["1977", "cyclist"]}, []),
        ({"supported": ["1977"], "not_supported": ["1931"]}, ["supported: '1977'", "not_supported: '1931'"]),
        ({"revision_keeps": ["1931"], "revision_drops": ["1977"]}, []),
        (
            {"revision_keeps": ["1977"], "revision_drops": ["born"]},
            ["revision_keeps: '1977'", "revision_drops: 'born'"],
        ),
    ],
)
def test_each_expectation(expect: dict[str, object], missed: list[str]) -> None:
    assert judge(expect, RESULT) == missed


def test_a_null_score_fails_a_bound() -> None:
    assert judge({"dfactscore_min": 0.0}, CheckResult(unverifiable=True)) == ["dfactscore_min: None"]


def write_corpus(root: Path, answers: list[dict[str, object]]) -> Path:
    (root / "kb").mkdir(parents=True)
    (root / "kb" / "people.jsonl").write_text("\n".join(json.dumps(p) for p in PAGES) + "\n")
    (root / "answers.jsonl").write_text("\n".join(json.dumps(a) for a in answers) + "\n")
    return root


def test_pass_rates_per_kind_on_the_whole_store(tmp_path: Path) -> None:
    answers = [
        {
            "id": "f1",
            "kind": "faithful",
            "style": "polished",
            "name": "Ilse Marrow",
            "answer": "Ilse Marrow is a Norwegian glassblower born in 1931 in Bergen. "
            "She founded the Vassvik Studio in 1962.",
            "expect": {"status": "checked", "entity": "Ilse Marrow", "supported": ["1962"], "dfactscore_min": 0.8},
        },
        {
            "id": "r1",
            "kind": "refusal",
            "style": "terse",
            "name": "Ilse Marrow",
            "answer": "I'm sorry, but I don't have reliable information about Ilse Marrow.",
            "expect": {"status": "abstained"},
        },
        {
            "id": "x1",
            "kind": "faithful",
            "style": "polished",
            "name": "Ilse Marrow",
            "answer": "Ilse Marrow is a Norwegian glassblower born in 1931 in Bergen.",
            "expect": {"status": "abstained"},
        },
    ]
    outcome = run(write_corpus(tmp_path / "c", answers), Engine())
    figures = outcome.result
    assert figures["answers"] == 3 and figures["passed"] == 2 and figures["pass_rate"] == pytest.approx(0.667)
    assert figures["by_kind"]["faithful"] == {"n": 2, "passed": 1, "rate": 0.5}
    assert figures["by_kind"]["refusal"]["rate"] == 1.0
    assert figures["failures"] == [{"id": "x1", "kind": "faithful", "style": "polished", "missed": ["status: checked"]}]
    assert figures["missed_by_expectation"] == {"status": 1}


def test_correct_answers_blocked_counts_answers_a_human_passes(tmp_path: Path) -> None:
    true = "Ilse Marrow is a Norwegian glassblower born in 1931 in Bergen. She founded the Vassvik Studio in 1962."
    wrong = "Ilse Marrow is a Danish sculptor born in 1950 in Aarhus. She founded the Vassvik Studio in 1988."
    answers = [
        {"id": "ok", "kind": "faithful", "name": "Ilse Marrow", "answer": true, "expect": {"status": "checked"}},
        # A correct kind the checker scores low: a human passes it, a block policy stops it.
        {"id": "low", "kind": "paraphrase", "name": "Ilse Marrow", "answer": wrong, "expect": {}},
        # Not counted: a planted wrong value, a merge, a refusal.
        {"id": "w", "kind": "faithful", "name": "Ilse Marrow", "answer": wrong, "expect": {"not_supported": ["1988"]}},
        {"id": "m", "kind": "separated", "name": "Ilse Marrow", "answer": true, "expect": {"conflated": True}},
        {"id": "r", "kind": "refusal", "name": "Ilse Marrow", "answer": "I don't know her.", "expect": {}},
    ]
    stopped = run(write_corpus(tmp_path / "c", answers), Engine()).result["correct_answers_blocked"]
    assert (stopped["count"], stopped["total"], stopped["ids"]) == (1, 2, ["low"])
    assert stopped["rate"] == 0.5 and stopped["threshold"] == 0.75


@pytest.mark.parametrize(
    ("kind", "expect", "passes"),
    [
        ("faithful", {"status": "checked"}, True),
        ("non-biographical", {}, True),
        ("hedged", {"revision_drops": ["x"]}, False),
        ("faithful", {"status": "unverifiable"}, False),
        ("merged", {}, False),
        ("out-of-store", {}, False),
    ],
)
def test_which_answers_a_human_passes(kind: str, expect: dict[str, object], passes: bool) -> None:
    assert human_passes(Answer("a", kind, "", None, None, "text", expect)) is passes


def test_blocked_at_the_default_threshold() -> None:
    assert not blocked(RESULT.model_copy(update={"dfactscore": 0.75, "groups": []}))
    assert blocked(RESULT.model_copy(update={"dfactscore": 0.74, "groups": []}))
    assert blocked(None) and blocked(CheckResult(unverifiable=True))


def test_malformed_corpus_files_are_named(tmp_path: Path) -> None:
    with pytest.raises(EvaluationError, match="no corpus at"):
        load(tmp_path)
    root = write_corpus(tmp_path / "bad", [{"id": "a", "kind": "k", "answer": "x", "expect": {"statuz": "checked"}}])
    with pytest.raises(EvaluationError, match=r"answers.jsonl:1: not an answer \(unknown expectation"):
        load(root)


def test_the_shipped_corpus_loads(repo_root: Path) -> None:
    pages, answers = load(repo_root / "tests" / "corpus")
    assert len(answers) >= 150 and len(pages) >= 25
    titles = {t for t, _, _ in pages}
    assert all(a.expect.get("entity", next(iter(titles))) in titles for a in answers)


def test_a_listed_fact_is_found_by_the_spans_a_record_was_read_from() -> None:
    """ "Awards: Lysaker Prize (1975)" is checked as "She won Lysaker Prize in 1975": the expectation
    names the words as written, and the fact made from them covers them."""
    answer = "Awards: Lysaker Prize (1975); Studio: Vassvik, 1962–1980"
    prize = answer.index("Lysaker")
    years = answer.index("1962")
    facts = [
        FactResult(
            text="She won Lysaker Prize in 1975.",
            verdict=Verdict.SUPPORTED,
            stance=Stance.SUPPORT,
            spans=[(prize, prize + 21)],
        ),
        FactResult(
            text="She ran Vassvik from 1962.",
            verdict=Verdict.SUPPORTED,
            stance=Stance.SUPPORT,
            spans=[(years, years + 4)],
        ),
        FactResult(
            text="She ran Vassvik until 1980.",
            verdict=Verdict.NOT_SUPPORTED,
            stance=Stance.REFUTE,
            spans=[(years + 5, years + 9)],
        ),
    ]
    result = CheckResult(factscore=0.7, groups=[FactGroup(mention="Ilse Marrow", entity="Ilse Marrow", facts=facts)])
    assert judge({"supported": ["Lysaker Prize (1975)"]}, result, answer) == []
    # Two supported facts may cover a listed phrase between them; an unsupported one covers nothing.
    assert judge({"supported": ["1962–1980"]}, result, answer) == ["supported: '1962–1980'"]
    assert judge({"not_supported": ["1980"]}, result, answer) == []
    # Without the answer, only a fact's own words count.
    assert judge({"supported": ["Lysaker Prize (1975)"]}, result) == ["supported: 'Lysaker Prize (1975)'"]


def test_facts_may_cover_a_phrase_joined_by_and_between_them() -> None:
    """ "champion in 1994 and 1997": a fact for each year covers the phrase, not the "and" that joins them."""
    answer = "Swedish champion in 1994 and 1997."
    a, b = answer.index("1994"), answer.index("1997")
    facts = [
        FactResult(text="He won in 1994.", verdict=Verdict.SUPPORTED, stance=Stance.SUPPORT, spans=[(0, a + 4)]),
        FactResult(text="He won in 1997.", verdict=Verdict.SUPPORTED, stance=Stance.SUPPORT, spans=[(b, b + 4)]),
    ]
    result = CheckResult(factscore=1.0, groups=[FactGroup(mention="X", entity="X", facts=facts)])
    assert judge({"supported": ["1994 and 1997"]}, result, answer) == []
    # one year alone does not cover it, and the "and" is only skipped between facts' words
    assert judge({"supported": ["1994 and 1997"]}, replace_facts(result, facts[:1]), answer) == [
        "supported: '1994 and 1997'"
    ]
    assert judge({"not_supported": ["1994 and 1997"]}, result, answer) == ["not_supported: '1994 and 1997'"]


def replace_facts(result: CheckResult, facts: list[FactResult]) -> CheckResult:
    return CheckResult(factscore=result.factscore, groups=[FactGroup(mention="X", entity="X", facts=facts)])


@pytest.mark.parametrize(
    ("sentence", "faults"),
    [
        ("Søren Ødegaard was a Norwegian composer who also.", ["dangling-word"]),
        ("He won the Meridian Ocean Race in 2014 after.", ["dangling-word"]),
        ("Treat it with some caution:.", ["stray-punctuation"]),
        ("Trained as a lawyer, he, during which he wrote the act.", ["subject-without-verb"]),
        ("Born in Lerwick, he before joining the service in 1925 he was keeper.", ["subject-without-verb"]),
        ("I it was 1951.", ["hedge-residue"]),
        ("They worked at Organist, Elverhøy Church, 1939–1950) and taught.", ["unpaired-parenthesis"]),
        # sentences that read well
        ("He won the Meridian Ocean Race in 2018.", []),
        ("Priya Raghunathan (b. 1965, Chennai) proved the Raghunathan bound in 1999.", []),
        ("Its features include:", []),
    ],
)
def test_revision_faults_name_what_a_reader_sees(sentence: str, faults: list[str]) -> None:
    assert revision_faults(sentence) == faults


def test_changed_sentences_are_those_the_answer_did_not_have() -> None:
    answer = "**Born:** 1912, Tromsø\n- Studied in Leipzig. Taught at St. Olaf College from 1951.\n"
    revised = "Born: 1912, Tromsø\n\nStudied in Leipzig. Taught at St. Olaf College."
    assert changed_sentences(answer, revised) == ["Taught at St. Olaf College."]


def _compound(answer: str, parts: list[tuple[str, Verdict]]) -> CheckResult:
    """A result whose facts cover the listed words of ``answer``, each with its verdict against its own page."""
    facts = []
    for words, verdict in parts:
        spans = [(answer.index(w), answer.index(w) + len(w)) for w in words.split("|")]
        facts.append(
            FactResult(text=words, verdict=verdict, verdict_linked=verdict, stance=Stance.SUPPORT, spans=spans)
        )
    return CheckResult(factscore=0.5, groups=[FactGroup(mention="X", entity="X", facts=facts)])


@pytest.mark.parametrize(
    ("parts", "ok"),
    [
        # one part wrong (the place), the other supported: the claim "born in Leiden in 1961" is not supported
        ([("was born in Leiden", Verdict.NOT_SUPPORTED), ("was born|in 1961", Verdict.SUPPORTED)], True),
        ([("was born|in 1961", Verdict.NOT_SUPPORTED), ("was born in Leiden", Verdict.SUPPORTED)], True),
        ([("was born in Leiden in 1961", Verdict.NOT_SUPPORTED)], True),
        # look-alikes: every part supported; a wrong fact that covers no whole value; a part no fact covers
        ([("was born in Leiden", Verdict.SUPPORTED), ("was born|in 1961", Verdict.SUPPORTED)], False),
        ([("was born in", Verdict.NOT_SUPPORTED), ("Leiden in 1961", Verdict.SUPPORTED)], False),
        ([("was born in Leiden", Verdict.NOT_SUPPORTED)], False),
    ],
)
def test_a_claim_of_several_values_is_not_supported_for_one_wrong_part(
    parts: list[tuple[str, Verdict]], ok: bool
) -> None:
    answer = "The diplomat was born in Leiden in 1961."
    missed = judge({"not_supported": ["born in Leiden in 1961"]}, _compound(answer, parts), answer)
    assert (missed == []) is ok
