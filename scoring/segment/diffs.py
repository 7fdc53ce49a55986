"""A unified diff of a text (a model asked to "show your edits as a diff"), read as the text it leaves: its added and
unchanged lines, in order. A removed line is what the answer takes back, not what it says; the diff's headers
("--- draft.md", "+++ revised.md", "@@ -1,10 +1,12 @@") say nothing.

Read as code, the diff was one block whose lines ran together, every "-" and "+" in the facts, the removed claims
beside the added ones. The reading asks for a ``diff`` or ``patch`` fence, or an unlabelled fence whose lines open
with a hunk header and then only with "+", "-" or a space; a fence of code, or of a list of "-" items, stays.

>>> print(diff_edits("```diff\\n--- a.md\\n+++ b.md\\n@@ -1,2 +1,2 @@\\n-Ada was born in 1816.\\n+Ada was born in "
...                  "1815.\\n She died in 1852.\\n```"))
Ada was born in 1815.
She died in 1852.
"""

from __future__ import annotations

import re

from scoring.segment.lines import replace_fences

_DIFF_LANGUAGES = frozenset(("diff", "patch", "udiff"))
_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@")
_FILE_HEADER = re.compile(r"^(?:---|\+\+\+) \S")


def _kept(code: str, labelled: bool) -> str | None:
    """The lines a diff leaves (added and unchanged, without their marks); None when ``code`` is no unified diff."""
    lines = [line for line in code.split("\n") if line.strip()]
    if not any(_HUNK.match(line) for line in lines):
        return None
    if not labelled and not all(_HUNK.match(x) or _FILE_HEADER.match(x) or x[:1] in "+- " for x in lines):
        return None
    kept = [
        line[1:].strip()
        for line in lines
        if not (_HUNK.match(line) or _FILE_HEADER.match(line)) and line[:1] in ("+", " ") and line[1:].strip()
    ]
    return "\n".join(kept) if kept else None


def diff_edits(text: str) -> str | None:
    """``text`` with each fence holding a unified diff replaced by the lines the diff leaves; None when none does."""
    return replace_fences(
        text, lambda info, code: _kept(code, labelled=bool(info)) if info in _DIFF_LANGUAGES or not info else None
    )
