"""Files of a diagram, game, music or document notation pasted in a code fence, read as the markdown of what they
say about someone.

A chat model asked for "a Graphviz graph", "a PlantUML Gantt chart", "an SGF file with comments", "an ABC header" or
"the bio as RTF" writes its claims inside the notation's syntax: a node's ``label="Born 1962, Ísafjörður"``, a task's
``[Retires] happens 2022-01-01``, a move's comment ``C[1. Daegu, 1993. A girl is born …]``, a history field ``H:…``,
a paragraph ``\\fs22 He graduated …\\par``. Each reading here recognises one notation in a fence and rewrites the
fence as headings, list items and paragraphs of those texts; its statements, identifiers, attributes, control words,
moves and coordinates are no claims and go.

>>> print(sgf_comments("```\\n(;GM[1]SZ[9]GN[Ada]\\n;B[ee]C[Born in Leeds, 1951.]\\n;W[cc]C[Died 2011.])\\n```"))
## Ada
<BLANKLINE>
Born in Leeds, 1951.
<BLANKLINE>
Died 2011.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from scoring.segment.lines import replace_fences

# --- SGF (Smart Game Format) ---------------------------------------------------------------------------------------

# An SGF property: its identifier and its values ("C[a comment with \] in it]", "AB[aa][bb]").
_SGF_PROPERTY = re.compile(r"(?P<ident>[A-Z]{1,2})(?P<values>(?:\s*\[(?:[^\]\\]|\\.)*\])+)", re.DOTALL)
_SGF_VALUE = re.compile(r"\[((?:[^\]\\]|\\.)*)\]", re.DOTALL)
# The properties whose text a reader reads: the game's name and comments; the rest are moves, setup and metadata.
_SGF_TITLE = "GN"
_SGF_TEXTS = ("GC", "C")


def _fences(text: str, languages: tuple[str, ...], read: Callable[[str], str | None]) -> str | None:
    """``text`` with each fence in one of ``languages`` ("" for an unlabelled one) that ``read`` makes something of
    replaced by it; None when none is."""
    return replace_fences(text, lambda language, code: read(code) if language in languages else None)


def _sgf_text(value: str) -> str:
    """An SGF text value: a soft line break (a backslash before a new line) joined, escapes undone."""
    value = re.sub(r"\\\r?\n", "", value)
    return re.sub(r"\\(.)", r"\1", value, flags=re.DOTALL).strip()


def _sgf(code: str) -> str | None:
    """An SGF game tree ("(;GM[1]SZ[9]…;B[ee]C[…])"): its name a heading, its comments paragraphs; None unless the code
    is a game tree with a comment."""
    stripped = code.strip()
    if not stripped.startswith("(;") or not stripped.endswith(")"):
        return None
    out: list[str] = []
    for m in _SGF_PROPERTY.finditer(stripped):
        ident = m.group("ident")
        if ident != _SGF_TITLE and ident not in _SGF_TEXTS:
            continue
        for value in _SGF_VALUE.findall(m.group("values")):
            said = _sgf_text(value)
            if said:
                out.append(("## " if ident == _SGF_TITLE else "") + " ".join(said.split()))
    if not any(not line.startswith("## ") for line in out):
        return None
    return "\n\n".join(out)


def sgf_comments(text: str) -> str | None:
    """Each fence of an SGF game record read as its name (a heading) and its comments (paragraphs, in move order)."""
    return _fences(text, ("", "sgf", "text"), _sgf)


# --- PlantUML Gantt charts -----------------------------------------------------------------------------------------

_GANTT_DATE = r"(?P<{0}>\d{{4}})(?P<{0}_md>[-/.]\d{{1,2}}[-/.]\d{{1,2}})?"
# A task line: "[Retires] happens 2022-01-01", "[Club] as [C] starts 1999-01-01 and lasts 730 days",
# "[Post] starts 2005-01-01 and ends 2013-12-31".
_GANTT_TASK = re.compile(
    r"^\s*\[(?P<task>[^\]]+)\](?:\s+as\s+\[[^\]]+\])?\s+(?P<verb>happens|starts|ends)(?:\s+(?:on|at))?\s+"
    + _GANTT_DATE.format("first")
    + r"(?:\s+and\s+(?:ends\s+(?:on\s+)?"
    + _GANTT_DATE.format("last")
    + r"|lasts\b.*))?\s*$",
    re.IGNORECASE,
)
_GANTT_SEPARATOR = re.compile(r"^\s*--\s*(?P<name>.+?)\s*--\s*$")
_GANTT_YEARLY = re.compile(r"^\s*(?:print|project)scale\s+(?:yearly|quarterly)\b", re.IGNORECASE | re.MULTILINE)


def _gantt_when(m: re.Match[str], which: str, yearly: bool) -> str:
    year, md = m.group(which), m.group(which + "_md")
    return year if yearly or not md else year + md


def _gantt(code: str) -> str | None:
    """A PlantUML Gantt chart: its title and separators headings, a task a dated list item ("2011: K-1 500 m bronze"),
    a note's lines items; a bar's length ("lasts 730 days"), the project's start, scale and colours no claims. On a
    yearly scale a date is read as its year (a chart drawn by year needs a day to place a bar, not to say one)."""
    lines = [line for line in code.split("\n") if line.strip() and not line.strip().startswith("'")]
    if not lines or lines[0].strip().lower() != "@startgantt":
        return None
    yearly = bool(_GANTT_YEARLY.search(code))
    out: list[str] = []
    in_note = False
    items = 0
    for line in lines[1:]:
        stripped = line.strip()
        low = stripped.lower()
        if in_note:
            if low in ("end note", "endnote"):
                in_note = False
            else:
                out.append("- " + stripped)
            continue
        if low.startswith("note"):
            in_note = True
            out.append("")  # a note is about the chart's subject, not the section above it
            continue
        if low.startswith("title "):
            out.append("## " + stripped[6:].strip())
            continue
        if sep := _GANTT_SEPARATOR.match(line):
            out.append("### " + sep.group("name"))
            continue
        task = _GANTT_TASK.match(line)
        if task is None:
            continue
        first = _gantt_when(task, "first", yearly)
        name = task.group("task").strip()
        verb = task.group("verb").lower()
        if task.group("last"):
            out.append(f"- {first}–{_gantt_when(task, 'last', yearly)}: {name}")
        elif verb == "starts":
            out.append(f"- from {first}: {name}")
        elif verb == "ends":
            out.append(f"- until {first}: {name}")
        else:
            out.append(f"- {first}: {name}")
        items += 1
    return "\n".join(out) if items else None


def gantt_charts(text: str) -> str | None:
    """Each fence of a PlantUML Gantt chart ("@startgantt" … "@endgantt") read as headings and dated list items."""
    return _fences(text, ("", "plantuml", "puml", "uml", "text"), _gantt)


# --- Graphviz DOT --------------------------------------------------------------------------------------------------

_DOT_START = re.compile(r"^\s*(?:strict\s+)?(?:di)?graph\b[^{\n]*\{", re.IGNORECASE)
_DOT_TOKEN = re.compile(
    r'"(?P<quoted>(?:[^"\\]|\\.)*)"|(?P<html><[^<>]*(?:<[^<>]*>[^<>]*)*>)|(?P<edge>->|--)'
    r"|(?P<word>[\w.]+)|(?P<mark>[{}\[\]=;,:])|(?P<comment>//[^\n]*|#[^\n]*|/\*.*?\*/)",
    re.DOTALL,
)


def _dot_tokens(code: str) -> list[tuple[str, str]]:
    out = []
    for m in _DOT_TOKEN.finditer(code):
        kind = m.lastgroup or ""
        if kind == "comment":
            continue
        out.append((kind, m.group(kind) if kind != "quoted" else m.group("quoted")))
    return out


def _dot_label(value: str) -> str:
    """A label's text: its "\\n", "\\l" and "\\r" line breaks joined with semicolons (or a space before a bracket or an
    arrow), its escaped quotes undone."""
    parts = [p.strip() for p in re.split(r"\\[nlr]", value) if p.strip()]
    said = ""
    for p in parts:
        said = p if not said else said + (" " if p[0] in "([→-–—" or said.endswith((",", ";", ":")) else "; ") + p
    return re.sub(r"\\(.)", r"\1", said).strip()


def _dot_attributes(tokens: list[tuple[str, str]], k: int) -> tuple[dict[str, str], int]:
    """The attributes of the list opened at ``tokens[k]`` ("[") and the index after its "]"."""
    found: dict[str, str] = {}
    k += 1
    while k < len(tokens) and tokens[k] != ("mark", "]"):
        if k + 2 < len(tokens) and tokens[k + 1] == ("mark", "=") and tokens[k][0] in ("word", "quoted"):
            found[tokens[k][1].lower()] = tokens[k + 2][1] if tokens[k + 2][0] != "html" else ""
            k += 3
        else:
            k += 1
    return found, k + 1


def _dot(code: str) -> str | None:
    """A Graphviz graph: its and each subgraph's label a heading, each node's label a list item under it; node ids,
    edges (and their labels), styles and colours no claims."""
    if not _DOT_START.match(code):
        return None
    tokens = _dot_tokens(code)
    out: list[str] = []
    depth = 0
    items = 0
    k = 0
    statement_start = True
    while k < len(tokens):
        kind, value = tokens[k]
        if (kind, value) == ("mark", "{"):
            depth += 1
            statement_start = True
            k += 1
            continue
        if (kind, value) == ("mark", "}"):
            depth -= 1
            statement_start = True
            k += 1
            continue
        if (kind, value) in (("mark", ";"), ("mark", ",")):
            statement_start = True
            k += 1
            continue
        if not statement_start:
            k += 1
            continue
        statement_start = False
        following = tokens[k + 1] if k + 1 < len(tokens) else ("", "")
        if kind == "word" and value.lower() in ("graph", "node", "edge") and following == ("mark", "["):
            _, k = _dot_attributes(tokens, k + 1)
            statement_start = True
            continue
        if kind == "word" and value.lower() == "label" and following == ("mark", "=") and k + 2 < len(tokens):
            label = _dot_label(tokens[k + 2][1]) if tokens[k + 2][0] != "html" else ""
            if label:
                out.append(("## " if depth <= 1 else "### ") + label)
            k += 3
            statement_start = True
            continue
        if kind in ("word", "quoted") and following == ("mark", "=") and k + 2 < len(tokens):
            k += 3  # a graph attribute ("rankdir=LR", "color=\"#2a7ab0\"")
            statement_start = True
            continue
        if kind in ("word", "quoted") and following[0] == "edge":
            while k + 2 < len(tokens) and tokens[k + 1][0] == "edge":
                k += 2
            k += 1
            if k < len(tokens) and tokens[k] == ("mark", "["):
                _, k = _dot_attributes(tokens, k)
            statement_start = True
            continue
        if kind in ("word", "quoted") and following == ("mark", "["):
            attributes, k = _dot_attributes(tokens, k + 1)
            if label := _dot_label(attributes.get("label", "")):
                out.append("- " + label)
                items += 1
            statement_start = True
            continue
        k += 1
    return "\n\n".join(out) if items else None


def dot_graphs(text: str) -> str | None:
    """Each fence of a Graphviz graph ("digraph G { … }") read as headings (graph and cluster labels) and list items
    (node labels)."""
    return _fences(text, ("", "dot", "graphviz", "gv"), _dot)


# --- RTF -----------------------------------------------------------------------------------------------------------

_RTF_TOKEN = re.compile(
    r"\\(?P<word>[a-zA-Z]+)(?P<arg>-?\d+)? ?|\\'(?P<hex>[0-9a-fA-F]{2})|\\(?P<symbol>.)"
    r"|(?P<brace>[{}])|(?P<text>[^\\{}]+)",
    re.DOTALL,
)
# Groups whose text is no part of the document: tables of fonts, colours and styles, metadata, pictures, fields' codes.
_RTF_SKIPPED = frozenset(
    "fonttbl colortbl stylesheet info pict header footer headerl headerr footerl footerr generator listtable "
    "listoverridetable revtbl rsidtbl latentstyles themedata colorschememapping datastore xmlnsTbl mmathPr fldinst "
    "object themedata filetbl".split()
)
_RTF_BREAKS = {
    "par": "\n\n",
    "line": "\n",
    "tab": " ",
    "emdash": "—",
    "endash": "–",
    "bullet": "•",
    "lquote": "‘",
    "rquote": "’",
    "ldblquote": "“",
    "rdblquote": "”",
    "sect": "\n\n",
    "page": "\n\n",
}


def _rtf(code: str) -> str | None:
    """An RTF document's text: its paragraphs (``\\par``) apart, its formatting, font and colour tables, metadata and
    control words gone, its escapes (``\\'e9``, ``\\u269?``, ``\\{``) read as their characters."""
    if not code.lstrip().startswith("{\\rtf"):
        return None
    out: list[str] = []
    skip_depth: int | None = None
    depth = 0
    fresh_group = False
    skip_next = 0
    for m in _RTF_TOKEN.finditer(code):
        if m.group("brace"):
            if m.group("brace") == "{":
                depth += 1
                fresh_group = True
            else:
                if skip_depth is not None and depth == skip_depth:
                    skip_depth = None
                depth -= 1
            continue
        starts_group = fresh_group
        fresh_group = False
        if skip_depth is not None:
            continue
        if (word := m.group("word")) is not None:
            if starts_group and word in _RTF_SKIPPED:
                skip_depth = depth
            elif word == "u" and m.group("arg"):
                out.append(chr(int(m.group("arg")) % 65536))
                skip_next = 1
            else:
                out.append(_RTF_BREAKS.get(word, ""))
            continue
        if (symbol := m.group("symbol")) is not None:
            if symbol == "*" and starts_group:
                skip_depth = depth
            elif symbol in "{}\\":
                out.append(symbol)
            elif symbol == "~":
                out.append(" ")
            elif symbol == "\n":
                out.append("\n\n")
            continue
        if (hexa := m.group("hex")) is not None:
            if skip_next:
                skip_next -= 1
                continue
            out.append(bytes([int(hexa, 16)]).decode("cp1252", errors="replace"))
            continue
        text = m.group("text").replace("\r", "").replace("\n", "")
        if skip_next and text:
            text = text[skip_next:]
            skip_next = 0
        out.append(text)
    made = "\n\n".join(" ".join(p.split()) for p in "".join(out).split("\n\n") if p.strip())
    return made or None


def rtf_documents(text: str) -> str | None:
    """Each fence of an RTF document ("{\\rtf1\\ansi …}") read as its paragraphs of plain text."""
    return _fences(text, ("", "rtf", "text"), _rtf)


# --- ABC music notation --------------------------------------------------------------------------------------------

_ABC_FIELD = re.compile(r"^(?P<field>[A-Za-z+]):\s?(?P<value>.*)$")
# The fields a reader reads as prose: history and notes; a tune's title is its heading.
_ABC_PROSE = ("H", "N")
_ABC_PLACEHOLDER = re.compile(r"^\[[^\]]*\]$")


def _abc(code: str) -> str | None:
    """An ABC tune's header: its title a heading, its history (H:) and notes (N:) paragraphs, a field's lines (and
    "+:" continuations) joined; the reference number, meter, length, key, rhythm, comments ("%"), directives ("%%"),
    placeholders ("[tune title]") and the tune body are no claims."""
    lines = [line.strip() for line in code.split("\n")]
    fields = [_ABC_FIELD.match(line) for line in lines if line and not line.startswith("%")]
    if not any(m and m.group("field") == "X" for m in fields) or not any(m and m.group("field") == "K" for m in fields):
        return None
    out: list[str] = []
    last = ""
    for m in fields:
        if m is None:
            last = ""
            continue
        field, value = m.group("field"), m.group("value").strip()
        if field == "+" and last:
            field = last
        if field == "T" and value and not _ABC_PLACEHOLDER.match(value):
            out.append("## " + value)
        elif field in _ABC_PROSE and value:
            if last == field:
                out[-1] += " " + value
            else:
                out.append(value)
        last = field
    return "\n\n".join(out) if any(not p.startswith("## ") for p in out) else None


def abc_headers(text: str) -> str | None:
    """Each fence of an ABC tune ("X:1" … "K:D") read as its title and the prose of its history and note fields."""
    return _fences(text, ("", "abc", "text"), _abc)
