"""Timelines and trees drawn with characters, read as the list items they draw.

A chat model asked for "a timeline" or "a mind map" in plain text draws it: a tree of branches ("├── PhD 2004",
"│   └── Kras Medal, 2016"), or a Gantt-style chart of labelled rows with bars and markers against an axis
("marries Edith Trevaskis      ▲ 1899", "Keeper of herbarium   ██████ 1902–1931", "1871 ──────── 1944"). The drawing
characters are structure: a branch is a list item nested under its parent, a row is an item dated by the years its
markers point at. Read as text, the rows ran together into one sentence whose first year became the subject of the
rest ("1871 ──────── 1944 born Penzance ▲ nat.").

- ``drawn_trees``: two or more branch lines in a run are a nested markdown list, a branch's depth its column;
- ``drawn_timelines``: three or more rows with a marker or a bar are list items, "1899 – marries Edith Trevaskis"
  (one date, read as a date list's line, ``scoring.datelines``) or "Yunnan expeditions in 1906, 1910 and 1913"; the
  axis ("1871 ───── 1944") is dropped, an indented line without a marker continues the row above.

Either reads an unlabelled (or ``text``) code fence whose lines it rewrites as the markdown it stands for, and such
runs in the answer's prose; a fence of code stays.

>>> print(drawn_trees("Ada\\n├── potter\\n│   └── Leeds, 1951\\n└── poet"))
Ada
<BLANKLINE>
- potter
  - Leeds, 1951
- poet
>>> print(drawn_timelines("1815 ──── 1852\\nborn ▲\\nmarried   ▲ 1835\\nNotes   ▲ 1843 — Menabrea"))
<BLANKLINE>
| When | Event |
| --- | --- |
|  | born |
| 1835 | married |
| 1843 | Notes, Menabrea |
<BLANKLINE>
"""

from __future__ import annotations

import re
from collections.abc import Callable

from scoring.segment.lines import FENCE as _FENCE
from scoring.segment.lines import rewrite_runs

# A code fence, and the labels of a fence that holds text rather than code.
_TEXT_FENCES = frozenset(("", "text", "txt", "plain", "plaintext"))


def _read(text: str, read_lines: Callable[[str], str | None]) -> str | None:
    """``text`` with the runs ``read_lines`` rewrites rewritten: in its prose, and in a text fence (which then is no
    fence: its lines are the markdown they stand for); a fence of code stays. None when nothing was."""
    out: list[str] = []
    changed = False
    k = 0
    for m in _FENCE.finditer(text):
        prose = text[k : m.start()]
        made = read_lines(prose)
        out.append(made if made is not None else prose)
        changed |= made is not None
        made = read_lines(m.group("code")) if m.group("info").lower() in _TEXT_FENCES else None
        out.append("\n" + made.strip("\n") + "\n" if made is not None else m.group())
        changed |= made is not None
        k = m.end()
    made = read_lines(text[k:])
    out.append(made if made is not None else text[k:])
    changed |= made is not None
    return "".join(out) if changed else None


# --- trees ---------------------------------------------------------------------------------------------------------

# A branch: the tree's lines before it ("│   ", "|   ", spaces), its corner or tee and one or more strokes
# ("├── ", "└─ ", "|-- ", "`-- ", "+-- "), then what it says.
_BRANCH = re.compile(r"^(?P<lead>[ \t│┃|]*)(?:[├└┣┗╠╚]|[|`+](?=-))[─━═-]+[ \t]*(?P<what>\S.*)$")
# A line of the tree that only carries its trunk, or continues the branch above ("│   (cave diver)").
_TRUNK = re.compile(r"^[ \t]*[│┃|][ \t│┃|]*(?P<what>[^│┃|\s].*)?$")
_LEAST_BRANCHES = 2


def _tree_line(line: str) -> bool:
    # a table's row ("| a | b |", "│ a │ b │") or rule ("|---|---|") closes with a pipe; a tree's line does not
    return bool(_BRANCH.match(line) or _TRUNK.match(line)) and not line.rstrip().endswith(("|", "│", "┃"))


def _tree(lines: list[str]) -> str | None:
    """A run of a tree's lines as a nested list: a branch's depth is the rank of its column among the run's."""
    branches = [_BRANCH.match(line) for line in lines]
    if sum(m is not None for m in branches) < _LEAST_BRANCHES or branches[0] is None:
        return None
    columns = sorted({len(m.group("lead")) for m in branches if m is not None})
    items: list[list[str | int]] = []
    for line, m in zip(lines, branches, strict=True):
        if m is not None:
            items.append([columns.index(len(m.group("lead"))), m.group("what").strip()])
            continue
        trunk = _TRUNK.match(line)
        what = trunk.group("what") if trunk is not None else None
        if what and items:
            items[-1][1] = f"{items[-1][1]} {what.strip()}"
    return "\n" + "\n".join(f"{'  ' * int(depth)}- {what}" for depth, what in items)


def _trees(text: str) -> str | None:
    return rewrite_runs(text, _tree_line, _LEAST_BRANCHES, _tree)


def drawn_trees(text: str) -> str | None:
    """``text`` with its drawn trees as nested lists; None when it has none."""
    return _read(text, _trees)


# --- Gantt-style timelines -----------------------------------------------------------------------------------------

_YEAR = r"(?:1[0-9]{3}|20[0-9]{2})"
# A marker pointing at a date on the axis, or a bar spanning dates.
_MARK = re.compile(r"\s*(?:[▲▼△▽●○◆◇★◉♦]|[█▓▒░▇▆■▬]+)\s*")
# The axis: a year, a rule of strokes, and a year or nothing ("1871 ─────── 1944", "1993 ───── now").
_AXIS = re.compile(rf"^\s*{_YEAR}\s*[─━═—–-]{{3,}}\s*(?:{_YEAR}|now|today|present)?\s*$", re.IGNORECASE)
# The date a marker or bar points at, opening what follows it: "1899", "(2004)", "1902–1931", "2020–now".
_POINTED = re.compile(
    rf"^\(?(?P<date>{_YEAR}(?:\s*[–—-]\s*(?:{_YEAR}|\d{{2}}|now|today|present))?)\)?(?=\W|$)\s*", re.IGNORECASE
)
_LEAST_ROWS = 3


def _row(line: str) -> bool:
    return bool(_MARK.search(line))


def _timeline_line(line: str) -> bool:
    return _row(line) or bool(_AXIS.match(line)) or (line[:1] in " \t" and bool(line.strip()))


def _timeline(lines: list[str]) -> str | None:
    """A drawn timeline's rows as list items dated by what their markers point at (see the module's docstring)."""
    if sum(_row(line) for line in lines) < _LEAST_ROWS:
        return None
    # a drawn timeline points at dates: its axis, or two rows or more whose marker a date follows (a list of "●"
    # bullets or "■" boxes points at none)
    dated = sum(any(_POINTED.match(p) for p in _MARK.split(line.strip())[1:]) for line in lines if _row(line))
    if dated < 2 and not any(_AXIS.match(line) for line in lines):
        return None
    items: list[tuple[str, list[str]]] = []
    for line in lines:
        if _AXIS.match(line):
            continue
        if not _row(line):
            if items:  # an indented line continues the row above ("  Glasgow" under "Keeper of herbarium, …")
                label, kept = items[-1]
                items[-1] = (f"{label.rstrip(' ,')}, {line.strip()}", kept)
            else:
                items.append((line.strip(), []))
            continue
        label, *pointed = _MARK.split(line.strip())
        parts = [label.strip().rstrip(",")]
        dates: list[str] = []
        for part in pointed:
            m = _POINTED.match(part)
            if m is not None:
                dates.append(re.sub(r"\s+", "", m.group("date")))
                part = part[m.end() :]
            tail = part.strip().lstrip("→—–-:·").strip()
            if tail:
                parts.append(tail)
        items.append((", ".join(p for p in parts if p), dates))
    # a row a date: "Yunnan expeditions ▲ 1906 ▲ 1910" is an expedition in each year
    rows = [[date, what] for what, dates in items if what for date in (dates or [""])]
    return _table(rows) if rows else None


def _table(rows: list[list[str]]) -> str:
    """A When/Event markdown table of ``rows`` (as ``dotted-timelines`` reads a timeline), pipes escaped."""
    lines = ["| When | Event |", "| --- | --- |"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n" + "\n".join(lines) + "\n"


def _timelines(text: str) -> str | None:
    return rewrite_runs(text, _timeline_line, _LEAST_ROWS, _timeline)


def drawn_timelines(text: str) -> str | None:
    """``text`` with its drawn timelines as dated list items; None when it has none."""
    return _read(text, _timelines)


# --- cards ---------------------------------------------------------------------------------------------------------

# A card's top border, one card or more side by side ("┌──────┐ ┌──────┐"), and its bottom ("└──────┘ └──────┘").
_CARD_TOP = re.compile(r"^[ \t]*[┌╭╔┏][─━═]+[┐╮╗┓](?:[ \t]+[┌╭╔┏][─━═]+[┐╮╗┓])*[ \t]*$")
_CARD_BOTTOM = re.compile(r"^[ \t]*[└╰╚┗][─━═]+[┘╯╝┛](?:[ \t]+[└╰╚┗][─━═]+[┘╯╝┛])*[ \t]*$")
_CARD_SIDE = "│┃║"
# What a row of cards draws under it: a count of the cards not shown ("+ 4 more", "…and 3 more").
_MORE_CARDS = re.compile(r"^[ \t]*(?:\+|…|\.\.\.)[ \t]*(?:and[ \t]+)?\d+[ \t]+more[ \t]*$", re.IGNORECASE)


def _card_spans(border: str) -> list[tuple[int, int]]:
    """The columns between each card's corners in a border line."""
    return [(m.start() + 1, m.end() - 1) for m in re.finditer(r"[┌╭╔┏└╰╚┗][─━═]+[┐╮╗┓┘╯╝┛]", border)]


def _card_line(line: str) -> bool:
    stripped = line.strip()
    return bool(
        _CARD_TOP.match(line)
        or _CARD_BOTTOM.match(line)
        or (stripped[:1] in _CARD_SIDE and stripped[-1:] in _CARD_SIDE and len(stripped) > 1)
    )


def _joined(said: str, line: str) -> str:
    """A card's lines as one text: a line that continues a quotation or a sentence (opened quote, lower-case start) is
    joined with a space, the next field with a middle dot."""
    if not said:
        return line
    continues = said.count('"') % 2 == 1 or said.count("“") > said.count("”") or line[:1].islower()
    return said + (" " if continues else " · ") + line


def _cards(lines: list[str]) -> str | None:
    """Cards drawn side by side with box characters, read as a list, a card an item of its lines."""
    if not _CARD_TOP.match(lines[0]) or not any(_CARD_BOTTOM.match(line) for line in lines):
        return None
    spans = _card_spans(lines[0])
    if not spans:
        return None
    cards: list[str] = []
    current = [""] * len(spans)
    for line in lines[1:]:
        if _CARD_BOTTOM.match(line) or _CARD_TOP.match(line):
            cards.extend(c for c in current if c)
            spans = _card_spans(line) if _CARD_TOP.match(line) else spans
            current = [""] * len(spans)
            continue
        for k, (start, end) in enumerate(spans):
            cell = line[start:end].strip(" \t" + _CARD_SIDE)
            if cell:
                current[k] = _joined(current[k], " ".join(cell.split()))
    cards.extend(c for c in current if c)
    return "\n".join("- " + c for c in cards) + "\n" if cards else None


def _drawn_cards(text: str) -> str | None:
    made = rewrite_runs(text, _card_line, 3, _cards)
    if made is None:
        return None
    # the count of cards not drawn, right under them, is the drawing's
    return re.sub(r"(?m)^(- .*\n)\n?(?:[ \t]*\n)?" + _MORE_CARDS.pattern[1:].rstrip("$") + r"\n?", r"\1", made)


def drawn_cards(text: str) -> str | None:
    """``text`` with cards drawn side by side in box characters (a source panel's "┌────┐ ┌────┐" over "│ 🌐 lrt.lt │
    │ …"; one card too) read as a list, a card an item of its lines; its "+ 4 more" gone."""
    return _read(text, _drawn_cards)
