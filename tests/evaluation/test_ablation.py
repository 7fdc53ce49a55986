"""``factsentry eval corpus --ablate RULE`` switches the rule off in every step, the abstention rules included
(they had been read with the environment's settings, not the run's)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from factsentry.cli import main

ROOT = Path(__file__).resolve().parents[2]
NAME = "Marta Kowalczyk"

# Three answers that open by declining in the words of the ``decline`` rule, one that refuses in the words of
# ``refusal``, and one correct answer.
ANSWERS = [
    ("decline-1", "I could not find any information about Marta Kowalczyk."),
    ("decline-2", "I don't have any reliable details on Marta Kowalczyk."),
    (
        "decline-3",
        "I'm not familiar with anyone called Marta Kowalczyk. If you tell me where you saw the name, I can suggest "
        "where to look.",
    ),
    ("refusal-1", "I won't guess at Marta Kowalczyk's career."),
    ("faithful-1", "Marta Kowalczyk is a Polish cellist, born in Kraków in 1968."),
]


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    kb = tmp_path / "kb"
    kb.mkdir()
    pages = (ROOT / "tests" / "corpus" / "kb" / "people.jsonl").read_text(encoding="utf-8").splitlines()
    (kb / "people.jsonl").write_text(
        "\n".join(p for p in pages if json.loads(p)["title"].startswith(NAME)) + "\n", encoding="utf-8"
    )
    lines = []
    for item_id, answer in ANSWERS:
        status = "checked" if item_id.startswith("faithful") else "abstained"
        doc = {"id": item_id, "kind": item_id.split("-")[0], "style": "plain", "question": f"Who is {NAME}?"}
        lines.append(json.dumps(doc | {"name": NAME, "answer": answer, "expect": {"status": status}}))
    (tmp_path / "answers.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return tmp_path


def _ablate(capsys: pytest.CaptureFixture[str], corpus: Path, rules: str) -> dict[str, Any]:
    assert main(["eval", "corpus", "--corpus", str(corpus), "--ablate", rules, "--json"]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def test_ablating_decline_changes_the_abstentions(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = _ablate(capsys, corpus, "decline")
    with_, without = doc["with"], doc["without"]
    assert with_["abstained_by"] == {"decline": 3, "refusal": 1}
    assert with_["passed"] == 5
    # Without it no abstention is the decline rule's; another rule may still abstain on some of them.
    assert "decline" not in without["abstained_by"]
    assert without["abstained_by"].get("refusal") == 1
    # Before the fix the run's rules off never reached the abstention step: the two runs were equal.
    assert without["abstained_by"] != with_["abstained_by"]
    assert doc["difference"]["abstained_by.refusal"] == 0.0


def test_ablating_all_three_abstention_rules_leaves_only_the_later_ones(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    without = _ablate(capsys, corpus, "decline,refusal,clarification")["without"]
    assert not {"decline", "refusal", "clarification"} & set(without["abstained_by"])
    assert set(without["abstained_by"]) <= {"only-assistant-talk", "declined-without-evidence"}
    assert without["abstained_by"] != _ablate(capsys, corpus, "decline")["with"]["abstained_by"]
