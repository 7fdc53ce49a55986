"""Runs of consecutive lines of one kind, rewritten as a whole (a table drawn line by line, a list of dated lines).

>>> rewrite_runs("a\\n1\\n2\\nb", str.isdigit, 2, lambda run: "+".join(run))
'a\\n1+2\\nb'
"""

from __future__ import annotations

import re
from collections.abc import Callable

# A code fence: its info string's first word (the language, "" for none) and its code.
FENCE = re.compile(r"^```[ \t]*(?P<info>[\w+-]*)[^\n]*\n(?P<code>.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


def replace_fences(text: str, read: Callable[[str, str], str | None]) -> str | None:
    """``text`` with each code fence replaced by what ``read(language, code)`` makes of it (the language lower-cased,
    "" for none; a fence it makes nothing of stays); None when no fence was replaced."""
    changed = False

    def one(m: re.Match[str]) -> str:
        nonlocal changed
        made = read(m.group("info").lower(), m.group("code"))
        if made is None:
            return m.group()
        changed = True
        return made

    made = FENCE.sub(one, text)
    return made if changed else None


def rewrite_runs(
    text: str, line_of: Callable[[str], bool], least: int, rewrite: Callable[[list[str]], str | None]
) -> str | None:
    """``text`` with each run of ``least`` or more consecutive lines for which ``line_of`` holds replaced by what
    ``rewrite`` makes of them (a run it makes nothing of stays); None when no run was rewritten."""
    lines = text.split("\n")
    out: list[str] = []
    changed = False
    k = 0
    while k < len(lines):
        if not line_of(lines[k]):
            out.append(lines[k])
            k += 1
            continue
        end = k
        while end < len(lines) and line_of(lines[end]):
            end += 1
        run = lines[k:end]
        made = rewrite(run) if len(run) >= least else None
        if made is None:
            out.extend(run)
        else:
            out.append(made)
            changed = True
        k = end
    return "\n".join(out) if changed else None
