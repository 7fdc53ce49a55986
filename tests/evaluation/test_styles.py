"""The style × kind matrix: its data hold with the store's pages, its answers are deterministic, laid out as
their layout says and made as their kind says, and the runner reports every cell (a short real run)."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml

from evaluation import styles
from evaluation.corpus import DEFAULT_CORPUS, load
from evaluation.engines import Engine
from evaluation.errors import EvaluationError
from factsentry.cli import main
from schemas.check import CheckResult, FactGroup, FactResult
from schemas.enums import Stance, Verdict

PAGES, _ = load(DEFAULT_CORPUS)
TEXT = {title: body for title, body, _ in PAGES}
DATA = styles.load_data()


@pytest.fixture(scope="module")
def cases() -> list[styles.Case]:
    return styles.matrix(DATA, pages=TEXT)


def _cell(cases: list[styles.Case], layout: str, kind: str) -> list[styles.Case]:
    return [c for c in cases if c.layout == layout and c.kind == kind]


def test_the_profiles_hold_with_the_store() -> None:
    assert styles.data_problems(DATA, PAGES) == []
    people = DEFAULT_CORPUS / "kb" / "people.jsonl"
    titles = {json.loads(line)["title"] for line in people.read_text(encoding="utf-8").splitlines() if line.strip()}
    assert {p.title for p in DATA.profiles} == titles  # every person of the store has a profile


def test_data_problems_names_what_does_not_hold() -> None:
    cellist = DATA.profiles[0]
    bad_fact = replace(cellist.facts[1], key="Vienna Conservatory", wrong=("1999", "2001"))
    bad = replace(cellist, facts=(cellist.facts[0], bad_fact))
    outsider = replace(DATA.outsiders[0], name="Tobias Kowalczyk")
    broken = styles.Data((bad,), (outsider,), {**DATA.templates, "awards": ["Kessler Medal"]})
    problems = styles.data_problems(broken, PAGES)
    joined = "\n".join(problems)
    assert "key 'Vienna Conservatory' is not on the page" in joined
    assert "wrong value '1999' not in" in joined
    assert "outsider Tobias Kowalczyk: 'Kowalczyk' is in the store" in joined
    assert "award 'Kessler Medal' is in the store" in joined


def test_every_cell_has_ten_answers_over_several_people(cases: list[styles.Case]) -> None:
    assert len(styles.LAYOUTS) >= 14 and len(styles.KINDS) == 10
    for layout in styles.LAYOUTS:
        for kind in styles.KINDS:
            cell = _cell(cases, layout, kind)
            assert len(cell) == styles.PER_CELL
            assert len({c.answer for c in cell}) == len(cell), (layout, kind)
            assert len({c.name for c in cell}) >= 5, (layout, kind)
    assert len({c.id for c in cases}) == len(cases)


def test_generation_is_deterministic_and_a_limit_keeps_the_first_answers() -> None:
    again = styles.matrix(DATA, per_cell=3, layouts=["json", "rambling"], kinds=["crossed", "hedged"], pages=TEXT)
    full = styles.matrix(DATA, layouts=["json", "rambling"], kinds=["crossed", "hedged"], pages=TEXT)
    assert again == [c for c in full if int(c.id.rsplit("/", 1)[1]) < 3]
    other = styles.matrix(DATA, per_cell=3, layouts=["json"], kinds=["crossed"], pages=TEXT, seed="another")
    assert [c.answer for c in other] != [c.answer for c in again[:3]]


def _fences(answer: str, lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)\n```", answer, flags=re.DOTALL)


def test_layouts_are_what_they_say(cases: list[styles.Case]) -> None:
    for c in cases:
        if c.kind == "refusal":
            continue
        a = c.answer
        if c.layout == "json":
            (body,) = _fences(a, "json")
            doc = json.loads(body)
            people = doc["people"] if "people" in doc else [doc]
            assert all(p["name"] == c.name for p in people)
        elif c.layout == "yaml":
            (body,) = _fences(a, "yaml")
            doc = yaml.safe_load(body)
            people = doc["people"] if "people" in doc else [doc]
            assert all(p["name"] == c.name for p in people)
        elif c.layout in ("table-rows", "table-columns"):
            rows = [line for line in a.splitlines() if line.startswith("|")]
            widths = {line.count("|") for line in rows}
            assert len(rows) >= 3 and len(widths) == 1 and re.fullmatch(r"\|(---\|)+", rows[1])
        elif c.layout == "timeline":
            assert len(re.findall(r"^- \*\*\d{4}\*\* — ", a, flags=re.MULTILINE)) >= 2
        elif c.layout == "headings":
            assert re.search(r"^#{2,3} ", a, flags=re.MULTILINE)
        elif c.layout == "nested-bullets":
            assert re.search(r"^    - ", a, flags=re.MULTILINE)
        elif c.layout == "citations":
            assert re.search(r"\[\d\]\.", a) and re.search(r"^\[1\] ", a, flags=re.MULTILINE)
        elif c.layout == "one-liner":
            assert len(a.split("\n\n")[0].splitlines()) == 1 and a.count(". ") <= 1
        elif c.layout == "rambling":
            assert len(a.split()) >= 600
        elif c.layout == "q-and-a":
            assert a.count("Q: ") >= 2 and a.count("A: ") >= 2
        elif c.layout == "short-answer-first":
            assert re.match(r"(\*\*)?(Short answer|TL;DR|In short):", a)
        elif c.layout == "bold-lead-ins":
            assert re.search(r"^\*\*[^*]+\*\* ", a, flags=re.MULTILINE)


def test_refusals_and_rambling_refusals(cases: list[styles.Case]) -> None:
    for c in cases:
        if c.kind == "refusal":
            assert c.expect == {"status": "abstained"} and c.name in c.answer
            if c.layout == "rambling":
                assert len(c.answer.split()) >= 600


def test_kinds_are_made_as_they_say(cases: list[styles.Case]) -> None:
    by_name: dict[str, list[styles.Profile]] = {}
    for p in DATA.profiles:
        by_name.setdefault(p.name, []).append(p)
    for c in cases:
        if c.kind in ("wrong-value", "invented-award", "crossed"):
            assert c.planted and len(re.findall(rf"(?<!\w){re.escape(c.planted)}(?!\w)", c.answer, re.I)) == 1, c.id
            assert c.expect["not_supported"] == [c.planted]
        if c.kind == "wrong-value":
            assert c.planted is not None
            page = TEXT[c.expect["entity"]]
            wrongs = [f.wrong for p in DATA.profiles if p.title == c.expect["entity"] for f in p.facts if f.wrong]
            assert any(w[1] == c.planted for w in wrongs)
            assert c.planted not in page or not c.planted.isdigit(), c.id
        if c.kind == "invented-award":
            assert c.planted in DATA.templates["awards"]
        if c.kind == "crossed":
            # the moved fact is told of a namesake whose page does not say it
            assert len(by_name[c.name]) >= 2 and c.planted is not None
            assert any(c.planted.casefold() in TEXT[p.title or ""].casefold() for p in by_name[c.name])
        if c.kind in ("merged", "separated", "crossed"):
            assert len(by_name[c.name]) >= 2
        if c.kind == "separated":
            assert c.expect["min_bios"] == 2 and c.expect["conflated"] is False and c.none_refuted
        if c.kind == "merged":
            assert c.expect["conflated"] is True and c.expect["dfs_below_fs"] is True
            title = c.expect["entity"]
            other = [p for p in by_name[c.name] if p.title != title]
            keys = [f.key for p in other for f in p.facts if f.label != "Born"]
            assert any(k.casefold() in c.answer.casefold() for k in keys), c.id
        if c.kind == "hedged":
            assert any(h in c.answer for h in DATA.templates["hedges"] + DATA.templates["hedge_notes"])
        if c.kind == "out-of-store":
            assert c.expect == {"status": "unverifiable"} and c.name in {p.name for p in DATA.outsiders}
        if c.kind in ("faithful", "paraphrase", "hedged"):
            assert c.expect["dfactscore_min"] == styles.THRESHOLD and c.none_refuted


def test_paraphrases_change_the_words() -> None:
    faithful = styles.generate(DATA, "prose", "faithful", 0, pages=TEXT)
    para = styles.generate(DATA, "prose", "paraphrase", 0, pages=TEXT)
    said = {f.says for p in DATA.profiles for f in p.facts}
    assert any(s in faithful.answer for s in said)
    told = [f for p in DATA.profiles if p.name == para.name for f in p.facts if f.para in para.answer]
    assert told and not any(f.says in para.answer for f in told if f.says != f.para)


def test_unknown_layout_or_kind_is_a_clear_error() -> None:
    with pytest.raises(EvaluationError, match="unknown layout 'poem'"):
        styles.generate(DATA, "poem", "faithful", 0)
    with pytest.raises(EvaluationError, match="unknown kind sarcastic; choose from faithful"):
        styles.parse_names("faithful,sarcastic", styles.KINDS, "kind")


def _fact(text: str, verdict: Verdict, stance: Stance) -> FactResult:
    return FactResult(text=text, verdict=verdict, verdict_linked=verdict, stance=stance)


def test_none_refuted_and_blocked() -> None:
    case = styles.generate(DATA, "prose", "faithful", 0, pages=TEXT)
    ok = CheckResult(
        factscore=1.0,
        dfactscore=0.8,
        num_bios=1,
        num_entities=1,
        groups=[
            FactGroup(
                entity=case.expect["entity"],
                facts=[
                    _fact("a", Verdict.SUPPORTED, Stance.SUPPORT),
                    _fact("b", Verdict.NOT_SUPPORTED, Stance.IRRELEVANT),
                ],
            )
        ],
    )
    assert styles.missed(case, ok) == [] and not styles.blocked(ok)
    refuting = ok.model_copy(
        update={
            "groups": [ok.groups[0].model_copy(update={"facts": [_fact("c", Verdict.NOT_SUPPORTED, Stance.REFUTE)]})]
        }
    )
    assert styles.missed(case, refuting) == ["none_refuted: 'c'"] and styles.blocked(refuting)
    low = ok.model_copy(update={"dfactscore": 0.74})
    assert styles.missed(case, low) == ["dfactscore_min: 0.74"] and styles.blocked(low)
    assert styles.blocked(None) and styles.blocked(ok.model_copy(update={"dfactscore": None}))
    assert styles.missed(case, None) == ["error: the check failed"]


def test_a_short_real_run_reports_every_cell() -> None:
    kinds = ["faithful", "wrong-value", "refusal", "out-of-store"]
    outcome = styles.run(DEFAULT_CORPUS, Engine(), limit=1, layouts=["prose", "bullets"], kinds=kinds)
    r = outcome.result
    assert [(c["layout"], c["kind"], c["total"]) for c in r["cells"]] == [
        (lay, k, 1) for lay in ("prose", "bullets") for k in kinds
    ]
    assert r["answers"] == 8 and r["passed"] == sum(c["passed"] for c in r["cells"])
    assert r["correct_answers_blocked"]["total"] == 2
    assert r["planted_wrong_values_flagged"]["total"] == 2
    assert {f["id"] for f in r["failures"]} == {
        f"{c['layout']}/{c['kind']}/00" for c in r["cells"] if c["passed"] < c["total"]
    }
    # a refusal in prose and a person with no page are what the checker already gets right
    assert {(c["layout"], c["kind"]): c["passed"] for c in r["cells"]}[("prose", "refusal")] == 1
    assert {(c["layout"], c["kind"]): c["passed"] for c in r["cells"]}[("prose", "out-of-store")] == 1


def test_a_failing_answer_is_reported_with_its_text() -> None:
    # An "outsider" who is in fact the cellist of the store: her answer cannot be unverifiable.
    cellist = replace(DATA.profiles[0], title=None)
    data = replace(DATA, outsiders=(cellist,))
    outcome = styles.run(DEFAULT_CORPUS, Engine(), limit=1, layouts=["prose"], kinds=["out-of-store"], data=data)
    (failure,) = outcome.result["failures"]
    case = styles.generate(data, "prose", "out-of-store", 0, pages=TEXT)
    assert failure["id"] == "prose/out-of-store/00" and failure["missed"] == ["status: checked"]
    assert (failure["answer"], failure["question"], failure["name"]) == (case.answer, case.question, case.name)
    assert outcome.result["cells"] == [{"layout": "prose", "kind": "out-of-store", "passed": 0, "total": 1}]


def _eval(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["eval", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_json_and_filters(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _eval(capsys, "styles", "--json", "--limit", "1", "--layout", "yaml", "--kind", "refusal,separated")
    assert code == 0
    doc: dict[str, Any] = json.loads(out)
    assert [(c["layout"], c["kind"]) for c in doc["cells"]] == [("yaml", "refusal"), ("yaml", "separated")]
    assert all(set(c) == {"layout", "kind", "passed", "total"} for c in doc["cells"])
    assert {"correct_answers_blocked", "planted_wrong_values_flagged", "by_layout", "by_kind"} <= set(doc)


def test_cli_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _eval(capsys, "styles", "--limit", "1", "--layout", "one-liner", "--kind", "refusal")
    assert code == 0
    assert "one-liner" in out and "refusal" in out and "correct answers blocked" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["styles", "--layout", "poem"], "unknown layout poem"),
        (["styles", "--kind", "sarcastic"], "unknown kind sarcastic"),
        (["corpus", "--layout", "json"], "--layout and --kind choose cells of SET styles only"),
    ],
)
def test_cli_errors(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, _, err = _eval(capsys, *argv)
    assert code != 0 and message in err


def test_data_folder_errors_clearly(tmp_path: Path) -> None:
    with pytest.raises(EvaluationError, match="cannot be read"):
        styles.load_data(tmp_path)
