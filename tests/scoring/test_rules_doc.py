"""scoring/RULES.md keeps a row for every registered rule, in the step the rule names, and no row for a rule
that is not registered (outside the table of removed rules)."""

from __future__ import annotations

import re
from pathlib import Path

from scoring.rulebook import STEPS
from scoring.rules import RULES

DOC = Path(__file__).resolve().parents[2] / "scoring" / "RULES.md"


def _kept_rows() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    kept = text[text.index("## Kept") : text.index("## Removed")]
    return {m.group(2): m.group(1) for m in re.finditer(r"^\| (\w[\w-]*) \| `([\w-]+)` \|", kept, re.MULTILINE)}


def test_every_registered_rule_has_a_row_in_its_step() -> None:
    rows = _kept_rows()
    missing = sorted(set(RULES) - set(rows))
    assert not missing, f"rules without a RULES.md row: {missing}"
    unknown = sorted(set(rows) - set(RULES))
    assert not unknown, f"RULES.md rows of no registered rule: {unknown}"
    wrong_step = {n: (rows[n], RULES[n].step) for n in rows if rows[n] != RULES[n].step}
    assert not wrong_step, wrong_step


def test_the_rule_objects_precedence_is_written_in_the_doc() -> None:
    """The doc lists each step's tuple in its order (the precedence anyone can read)."""
    text = DOC.read_text(encoding="utf-8")
    for step in ("verify", "worthiness"):
        names = [r.name for r in STEPS[step]]
        positions = [text.index(f"`{n}`") for n in names]
        assert positions == sorted(positions), (step, names)
