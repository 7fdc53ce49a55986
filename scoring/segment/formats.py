"""Answers written in a format other than markdown, read as the markdown they stand for before the document is parsed
(``scoring.segment.document``).

A chat model asked for "a LaTeX bio", "the profile as XML", "an SQL insert" or "quick facts" writes the same
claims in another notation. Each reading here recognises one notation and rewrites the parts written in it, so that
the blocks the markdown parser finds are the ones a reader sees:

- a record notation (XML elements, an SQL ``INSERT``, PGN tag pairs ``[Born "1985, Samarkand"]``, a wikitext
  infobox ``{{Infobox … | birth_place = …}}``) becomes a JSON profile fence, which the fenced profiles reading
  (``scoring.segment.fenced``) reads as records, a line a field;
- a grid (an ASCII or box-drawing table, CSV rows under a header, a Mermaid ``timeline``) becomes a markdown table,
  read row by row (``scoring.segment.tables``);
- markup (LaTeX commands and environments, wikitext links, emphasis and references) becomes its markdown.

A reading rewrites nothing it does not recognise, so prose with a stray comma, bracket or backslash stays as it is.
The readings are rules of the segment step (``FORMAT_RULES``), applied in order, each can be switched off by name.

>>> read_formats("+------+------+\\n| Born | 1985 |\\n| Died | 2011 |\\n+------+------+")
'| Born | 1985 |\\n| --- | --- |\\n| Died | 2011 |'
>>> read_formats("\\\\section*{Ada (1815--1852)}\\nShe wrote \\\\emph{Notes}.")
'## Ada (1815–1852)\\n\\nShe wrote *Notes*.'
>>> read_formats("Born in Leeds, 1951, to a miner's family.")
"Born in Leeds, 1951, to a miner's family."
"""

from __future__ import annotations

import csv
import json
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from itertools import pairwise
from typing import Any
from xml.etree import ElementTree

from scoring.numerals import in_digits
from scoring.rules import Rule, register
from scoring.segment.diagrams import abc_headers, dot_graphs, gantt_charts, rtf_documents, sgf_comments
from scoring.segment.diffs import diff_edits
from scoring.segment.drawings import drawn_cards, drawn_timelines, drawn_trees
from scoring.segment.lines import replace_fences
from scoring.segment.lines import rewrite_runs as _rewrite_runs
from scoring.segment.markup import html_markup
from scoring.segment.org import org_outline
from scoring.segment.tables import a_name


@dataclass(frozen=True)
class Reading:
    """An answer's text with the parts written in one notation rewritten as markdown."""

    text: str
    decided_by: str = ""

    def stamped(self, name: str) -> Reading:
        return replace(self, decided_by=name)


def _fence(profile: Any) -> str:
    return "```json\n" + json.dumps(profile, ensure_ascii=False) + "\n```"


def _table(rows: list[list[str]]) -> str:
    """A markdown table of ``rows`` (the first is its header); a pipe inside a cell is escaped."""
    width = max(len(r) for r in rows)
    lines = []
    for k, row in enumerate(rows):
        cells = [c.strip().replace("|", "\\|") for c in row] + [""] * (width - len(row))
        lines.append("| " + " | ".join(cells) + " |")
        if k == 0:
            lines.append("| " + " | ".join(["---"] * width) + " |")
    return "\n".join(lines)


# --- dash bullets --------------------------------------------------------------------------------------------------

# A line opened by an en or em dash and a space ("– Chapter 7 refers to …"): a bullet written with a typographic dash.
_DASH_BULLET = re.compile(r"^(?P<indent>[ \t]*)[–—][ \t]+(?=\S)")


def _dash_bullets(lines: list[str]) -> str | None:
    """A run of dash-opened lines (blank lines between them allowed) as markdown list items; a lone dash line (an
    epigraph's "— Mark Twain", a reply in dialogue) is not a list."""
    if sum(1 for line in lines if _DASH_BULLET.match(line)) < 2:
        return None
    return "\n".join(_DASH_BULLET.sub(r"\g<indent>- ", line) for line in lines)


def dash_bullets(text: str) -> Reading | None:
    made = _rewrite_runs(text, lambda line: bool(_DASH_BULLET.match(line)) or not line.strip(), 2, _dash_bullets)
    return Reading(made) if made is not None else None


# --- thread counters ----------------------------------------------------------------------------------------------

# A thread's post counter at the start of a line ("1/6 Thread on …", "4/6 Retired in 1941"): the place of the post,
# not a word of its claims. Read only when two or more lines count up, one by one, to the same total.
_COUNTER = re.compile(r"^(?P<indent>[ \t]*)(?P<k>\d{1,2})/(?P<n>\d{1,2})[ \t]+(?=\S)")
_THREAD_END = re.compile(r"[ \t]+/end[ \t]*$", re.IGNORECASE)


def thread_counters(text: str) -> Reading | None:
    lines = text.split("\n")
    found = [(i, m) for i, line in enumerate(lines) if (m := _COUNTER.match(line))]
    totals = {m["n"] for _, m in found}
    places = [int(m["k"]) for _, m in found]
    # the posts in order, one after another: "1/4 cup flour" and "3/4 cup sugar" are a recipe's fractions
    counted = all(b == a + 1 for a, b in pairwise(places))
    if len(found) < 2 or len(totals) != 1 or not counted or max(places) > int(next(iter(totals))):
        return None
    for i, m in found:
        lines[i] = _THREAD_END.sub("", m["indent"] + lines[i][m.end() :])
    return Reading("\n".join(lines))


# --- slash-separated fields ---------------------------------------------------------------------------------------

# A spec sheet's line of labelled fields parted by slashes ("Motor: 350 W rear hub / Top speed: 25 km/h / Battery:
# 468 Wh"): each field is a line of its own. A slash inside a value ("25 km/h", "1/6") has no spaces round it.
_SLASH_PART = re.compile(r"\s+/\s+")
_FIELD = re.compile(r"^[ \t]*(?:[-*•][ \t]+)?[A-Z][\w'’()&. -]{0,30}?:[ \t]+\S")


def _slash_fields(line: str) -> str | None:
    parts = _SLASH_PART.split(line)
    if len(parts) < 2 or not all(_FIELD.match(p) for p in parts):
        return None
    indent = re.match(r"^[ \t]*", line)
    lead = indent.group(0) if indent else ""
    return "\n".join(lead + p.strip() for p in parts)


def slash_fields(text: str) -> Reading | None:
    lines = text.split("\n")
    made = [_slash_fields(line) for line in lines]
    if all(m is None for m in made):
        return None
    return Reading("\n".join(m if m is not None else line for m, line in zip(made, lines, strict=True)))


# --- words broken at a line's end ---------------------------------------------------------------------------------

# A word a hard-wrapped text (a scan's OCR, a typescript) breaks at a line's end with a hyphen ("Ever-" over "ton
# Ashby-Clarke", "na-" over "tional"): the letters before the hyphen, and the next line opening with a small letter.
_BROKEN = re.compile(r"(?<![\w-])(?P<head>[^\W\d_]+)-[ \t]*$")
_CONTINUED = re.compile(r"^(?P<indent>[ \t]*)(?P<tail>[a-z][^\W\d_]*[^\s]*)(?P<rest>.*)$")
_LEAST_BREAKS = 2


def broken_words(text: str) -> Reading | None:
    """Words broken over two lines by a hyphen, joined ("Ever-" / "ton …" → "Everton …"), where the text breaks
    two words or more so (a hard-wrapped text's; one "well-" over "known" may be a compound's hyphen)."""
    lines = text.split("\n")
    breaks = [
        k
        for k in range(len(lines) - 1)
        if _BROKEN.search(lines[k]) and _CONTINUED.match(lines[k + 1]) and not lines[k].lstrip().startswith("```")
    ]
    if len(breaks) < _LEAST_BREAKS:
        return None
    for k in breaks:
        m = _CONTINUED.match(lines[k + 1])
        broken = _BROKEN.search(lines[k])
        if m is None or broken is None:  # an earlier join took the line's word already
            continue
        lines[k] = lines[k][: broken.start()] + broken.group("head") + m.group("tail")
        rest = m.group("rest").lstrip(" \t")
        # the rest of the line stays where it was; a line that held only the word's end is gone
        lines[k + 1] = m.group("indent") + rest if rest else "\0"
    return Reading("\n".join(line for line in lines if line != "\0"))


# --- telegrams ----------------------------------------------------------------------------------------------------

# A telegram's "STOP", where its sentences end: the word in capitals, set apart, no number after it ("STOP 6" is a
# walking tour's sixth stop).
_STOP = re.compile(r"[ \t]+STOP\b\.?(?![ \t]*\d)")
_LEAST_STOPS = 2
_CAPITALS = 0.8  # the share of a telegram's letters in capitals


def telegram_stops(text: str) -> Reading | None:
    """A telegram's "STOP"s as full stops and its spelled-out numbers in digits, in a paragraph written in capitals
    with two "STOP"s or more."""
    changed = False
    out: list[str] = []
    for paragraph in text.split("\n\n"):
        letters = [ch for ch in paragraph if ch.isalpha()]
        upper = sum(ch.isupper() for ch in letters) / len(letters) if letters else 0.0
        if upper >= _CAPITALS and len(_STOP.findall(paragraph)) >= _LEAST_STOPS:
            # its numbers are spelled out, there being no digits on a telegraph form: "NINETEEN SIXTY ONE" is 1961
            paragraph = in_digits(_STOP.sub(".", paragraph))
            changed = True
        out.append(paragraph)
    return Reading("\n\n".join(out)) if changed else None


# --- rules drawn between parts ------------------------------------------------------------------------------------

# A line of box-drawing strokes and nothing else: a leaflet's rule between its parts.
_DRAWN_RULE = re.compile(r"^[ \t]*[─━═▬][─━═▬ \t]{2,}$", re.MULTILINE)


def drawn_rules(text: str) -> Reading | None:
    """Lines of box-drawing strokes only, as blank lines (a break between paragraphs)."""
    made = _DRAWN_RULE.sub("", text)
    return Reading(made) if made != text else None


# --- grids ---------------------------------------------------------------------------------------------------------

_BOX_BORDER = re.compile(r"^\s*[+┌├└╞╘╒╔╠╚][-=─━═+┬┼┴╪╤╧╦╬╩┐┤┘╡╛╕╗╣╝]+\s*$")
_BOX_ROW = re.compile(r"^\s*[|│║].*[|│║]\s*$")


def _box_line(line: str) -> bool:
    return bool(_BOX_BORDER.match(line) or _BOX_ROW.match(line))


def _box_table(lines: list[str]) -> str | None:
    """An ASCII or box-drawing table ("+----+----+" borders, "| Born | 1985 |" rows) as a markdown table."""
    if not any(_BOX_BORDER.match(line) for line in lines):
        return None
    rows = [
        [c.strip() for c in re.split(r"[|│║]", line.strip())[1:-1]] for line in lines if not _BOX_BORDER.match(line)
    ]
    if len(rows) < 2 or any(len(r) < 2 for r in rows):
        return None
    if len(rows[0]) == 2 and a_name(rows[0][0]):
        # "| Rustam Yuldashev | Uzbek chess grandmaster |" over "| Born | 1985 |": a title row, no header
        return _table([["", ""], *rows])
    return _table(rows)


def box_tables(text: str) -> Reading | None:
    made = _rewrite_runs(text, _box_line, 3, _box_table)
    return Reading(made) if made is not None else None


# A CSV line: fields separated by commas with no space after them ("1993,born,,Shrewsbury England"), or quoted.
_CSV_LEAST_ROWS = 3


def _csv_line(line: str) -> bool:
    stripped = line.strip()
    if stripped.count(",") < 2 or stripped.endswith((".", ":")):
        return False
    fields = next(csv.reader([stripped]))
    # prose puts a space after its commas; a CSV row does not (a quoted field may hold ", ")
    unquoted = re.sub(r'"[^"]*"', "", stripped)
    return len(fields) >= 3 and ", " not in unquoted


def _csv_table(lines: list[str]) -> str | None:
    """CSV rows under a header of short names ("year,event,result,notes") as a markdown table."""
    rows = list(csv.reader(line.strip() for line in lines))
    header = rows[0]
    if len({len(r) for r in rows}) != 1 or not all(h.strip() and len(h.split()) <= 3 for h in header):
        return None
    if any(ch.isdigit() for h in header for ch in h):
        return None  # the first row is data: no header to read the cells by
    return _table(rows)


def csv_rows(text: str) -> Reading | None:
    made = _rewrite_runs(text, _csv_line, _CSV_LEAST_ROWS, _csv_table)
    return Reading(made) if made is not None else None


# A line of tab-separated cells ("1963\tBorn\tBergen, Norway"): a table's row pasted as text.
_TAB_LEAST_ROWS = 3


def _tab_line(line: str) -> bool:
    return "\t" in line.strip() and bool(line.strip())


def _tab_table(lines: list[str]) -> str | None:
    """Tab-separated lines under a header of short names with no digit ("Year(s)\tRole / event\tPlace") as a
    markdown table; None when the lines split into different numbers of cells or the first is no header."""
    rows = [[cell.strip() for cell in line.strip().split("\t")] for line in lines]
    header = rows[0]
    if len({len(r) for r in rows}) != 1 or len(header) < 2:
        return None
    if not all(h and len(h.split()) <= 4 for h in header) or any(ch.isdigit() for h in header for ch in h):
        return None
    return _table(rows)


def tab_rows(text: str) -> Reading | None:
    made = _rewrite_runs(text, _tab_line, _TAB_LEAST_ROWS, _tab_table)
    return Reading(made) if made is not None else None


# A timeline's line: a year or a span of years ("1996 → 2004", "2020 → now"), a middle dot or bullet, the event.
_YEAR_TEXT = r"(?:1[0-9]|20)[0-9]{2}"
_DOTTED_EVENT = re.compile(
    rf"^\s*(?P<from>{_YEAR_TEXT})(?:\s*(?:→|->|⟶|–|—|-|to)\s*(?P<to>{_YEAR_TEXT}|now|present|today))?\s*[·•]\s+"
    r"(?P<what>\S.*)$",
    re.IGNORECASE,
)
_DOTTED_LEAST_ROWS = 3


def _dotted_table(lines: list[str]) -> str | None:
    """Dated lines ("1969 · born in Leeds", "1996 → 2004 · planning department") as a table of when and what: a
    span as "1996–2004", an open one as "since 2020"."""
    rows = [["When", "Event"]]
    for line in lines:
        m = _DOTTED_EVENT.match(line)
        if m is None:
            return None
        start, end = m.group("from"), m.group("to")
        if end is None:
            when = start
        elif end.isdigit():
            when = f"{start}–{end}"
        else:
            when = f"since {start}"
        rows.append([when, m.group("what").strip()])
    return _table(rows)


def dotted_timelines(text: str) -> Reading | None:
    made = _rewrite_runs(text, lambda line: bool(_DOTTED_EVENT.match(line)), _DOTTED_LEAST_ROWS, _dotted_table)
    return Reading(made) if made is not None else None


_TIMELINE_EVENT = re.compile(r"^\s*(?P<when>[^:]+?)\s*:\s*(?P<what>.+)$")


def _mermaid_timeline(code: str) -> str | None:
    """A Mermaid ``timeline``: its title and sections as headings, its periods as a table of dated rows (the events
    of a period joined by commas: "1997 : First 8,000 m peak : Cho Oyu" → "| 1997 | First 8,000 m peak, Cho Oyu |")."""
    lines = [line for line in code.split("\n") if line.strip() and not line.strip().startswith("%%")]
    if not lines or lines[0].strip() != "timeline":
        return None
    out: list[str] = []
    rows: list[list[str]] = []

    def close() -> None:
        if rows:
            out.append(_table([["When", "Event"], *rows]))
            rows.clear()

    for line in lines[1:]:
        word, _, rest = line.strip().partition(" ")
        if word in ("title", "section"):
            close()
            out.append(("## " if word == "title" else "### ") + rest.strip())
            continue
        m = _TIMELINE_EVENT.match(line)
        if m is None:
            continue
        events = [e.strip() for e in m.group("what").split(" : ")]
        events = [e.strip(" :") for e in events if e.strip(" :")]
        if line.strip().startswith(":") and rows:  # a period's next event on a line of its own
            rows[-1][1] += ", " + ", ".join(events)
        else:
            rows.append([m.group("when").strip(), ", ".join(events)])
    close()
    return "\n\n".join(out) if out else None


def _fenced(text: str, languages: tuple[str, ...], read: Callable[[str], str | None]) -> str | None:
    """``text`` with each code fence in one of ``languages`` (or without one) that ``read`` makes something of
    replaced by it; None when none is."""
    return replace_fences(text, lambda language, code: read(code) if language in languages else None)


_TABLE_LANGUAGES = {"csv": ",", "tsv": "\t"}


def _delimited_fence(info: str, code: str) -> str | None:
    """A fence of separated rows as a markdown table: labelled ``csv`` or ``tsv`` (a header and one row or more), or
    unlabelled with every line a CSV line (a header and two rows or more); None for anything else."""
    lines = [line for line in code.split("\n") if line.strip()]
    if info:
        if len(lines) < 2:
            return None
        rows = list(csv.reader((line.strip() for line in lines), delimiter=_TABLE_LANGUAGES[info]))
        if len({len(r) for r in rows}) != 1 or len(rows[0]) < 2 or not all(h.strip() for h in rows[0]):
            return None
        return _table(rows)
    if len(lines) < _CSV_LEAST_ROWS or not all(_csv_line(line) for line in lines):
        return None
    return _csv_table(lines)


def csv_fences(text: str) -> Reading | None:
    made = replace_fences(
        text, lambda info, code: _delimited_fence(info, code) if info in _TABLE_LANGUAGES or not info else None
    )
    return Reading(made) if made is not None else None


def mermaid_timelines(text: str) -> Reading | None:
    made = _fenced(text, ("mermaid", ""), _mermaid_timeline)
    return Reading(made) if made is not None else None


# --- records -------------------------------------------------------------------------------------------------------


def _xml_value(element: ElementTree.Element) -> Any:
    """An element as a profile's value: its text when it has nothing else, else a mapping of its attributes, its
    children (a tag that repeats is a list) and its text; an element whose children all share one tag is their
    list ("<education><degree …/><degree …/></education>")."""
    children = list(element)
    text = (element.text or "").strip()
    attributes = {k: v for k, v in element.attrib.items() if k.lower() not in ("id", "xmlns") and ":" not in k}
    if not children and not attributes:
        return text
    if children and not attributes and not text and len({c.tag for c in children}) == 1 and len(children) > 1:
        return [_xml_value(c) for c in children]
    out: dict[str, Any] = dict(attributes)
    for child in children:
        value = _xml_value(child)
        if child.tag in out:
            kept = out[child.tag]
            out[child.tag] = [*kept, value] if isinstance(kept, list) else [kept, value]
        else:
            out[child.tag] = value
    if text:
        out["text" if "text" not in out else "content"] = text
    return out


# A profile nests a few levels (person → education → degree → field); a document nested deeper is no profile, and
# reading it recursively would exhaust the stack on a hostile answer ("<a>" a thousand deep).
_PROFILE_DEPTH = 12


def _deeper_than(root: ElementTree.Element, limit: int) -> bool:
    """Whether some element lies more than ``limit`` levels below ``root`` (walked without recursion)."""
    stack = [(root, 0)]
    while stack:
        element, depth = stack.pop()
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in element)
    return False


def _xml_profile(code: str) -> str | None:
    """An XML document of elements (a ``<person>`` with ``<name>``, ``<born year="1966" place="…"/>``) as a JSON
    profile fence."""
    body = code.strip()
    if not (body.startswith("<") and body.endswith(">")):
        return None
    try:
        root = ElementTree.fromstring(body)
    except ElementTree.ParseError:
        return None
    if not len(root) or _deeper_than(root, _PROFILE_DEPTH):
        return None
    value = _xml_value(root)
    return _fence(value) if isinstance(value, dict | list) else None


def xml_records(text: str) -> Reading | None:
    made = _xml_profile(text)
    if made is not None:
        return Reading(made)
    made = _fenced(text, ("xml",), _xml_profile)
    return Reading(made) if made is not None else None


_INSERT = re.compile(
    r"INSERT\s+INTO\s+[\w.`\"\[\]]+\s*\((?P<columns>[^)]*)\)\s*VALUES(?P<values>.+)",
    re.IGNORECASE | re.DOTALL,
)
_SQL_VALUE = re.compile(r"\s*(?:'(?P<text>(?:[^']|'')*)'|(?P<bare>[^,()\s]+))\s*(?P<end>[,)])")


def _sql_rows(values: str) -> list[list[str | None]] | None:
    """The tuples of an INSERT's VALUES ("('Rustam Yuldashev', 'UZB', 1985), (…)"), or None when they do not parse."""
    rows: list[list[str | None]] = []
    k = 0
    while k < len(values):
        while k < len(values) and values[k] in " \t\n,":
            k += 1
        if k >= len(values) or values[k] == ";":
            break
        if values[k] != "(":
            return None
        k += 1
        row: list[str | None] = []
        while True:
            m = _SQL_VALUE.match(values, k)
            if m is None:
                return None
            text = m.group("text")
            bare = m.group("bare")
            row.append(text.replace("''", "'") if text is not None else (None if bare.upper() == "NULL" else bare))
            k = m.end()
            if m.group("end") == ")":
                break
        rows.append(row)
    return rows or None


def _sql_profile(code: str) -> str | None:
    """An SQL ``INSERT INTO t (columns) VALUES (…)`` as a JSON profile fence (a row a profile); its ``--`` comments
    as lines of text."""
    comments = [line.strip()[2:].strip() for line in code.split("\n") if line.strip().startswith("--")]
    statement = "\n".join(line for line in code.split("\n") if not line.strip().startswith("--"))
    m = _INSERT.search(statement)
    if m is None:
        return None
    columns = [c.strip().strip('`"[]') for c in m.group("columns").split(",")]
    # the closing ";" and spaces are stripped here: "\s*;?\s*$" after a lazy group backtracked cubically over spaces
    rows = _sql_rows(m.group("values").strip().removesuffix(";").rstrip())
    if rows is None or any(len(r) != len(columns) for r in rows):
        return None
    profiles = [{c: v for c, v in zip(columns, r, strict=True) if v is not None} for r in rows]
    fence = _fence(profiles[0] if len(profiles) == 1 else profiles)
    return "\n\n".join([*(c for c in comments if c), fence])


def sql_inserts(text: str) -> Reading | None:
    made = _fenced(text, ("sql", "mysql", "postgresql", "sqlite"), _sql_profile)
    if made is None and _INSERT.search(text) and text.lstrip()[:6].upper() in ("INSERT", "--"):
        made = _sql_profile(text)
    return Reading(made) if made is not None else None


_TAG_PAIR = re.compile(r'^\s*\[(?P<key>[A-Za-z][\w-]*)\s+"(?P<value>(?:[^"\\]|\\.)*)"\]\s*$')


# Tags whose value names the player, "Surname, Given names" as PGN writes it.
_PLAYER_TAGS = frozenset(("player", "name"))


def _tag_profile(lines: list[str]) -> str | None:
    pairs = [m for m in (_TAG_PAIR.match(line) for line in lines) if m is not None]
    fields: dict[str, str] = {}
    for m in pairs:
        key, value = m.group("key"), m.group("value")
        surname, comma, given = value.partition(",")
        if key.lower() in _PLAYER_TAGS:
            key, value = "name", f"{given.strip()} {surname.strip()}" if comma and given.strip() else value
        fields[key] = value
    return _fence(fields)


def tag_pairs(text: str) -> Reading | None:
    """PGN tag pairs ('[Born "1985, Samarkand"]', one a line, two or more) as a JSON profile fence."""
    made = _rewrite_runs(text, lambda line: bool(_TAG_PAIR.match(line)), 2, _tag_profile)
    return Reading(made) if made is not None else None


# --- markup --------------------------------------------------------------------------------------------------------

_WIKI_LINK = re.compile(r"\[\[(?:[^\[\]|]*\|)?(?P<text>[^\[\]|]*)\]\]")  # no "[" inside: linear on "[[[[…"
# Each scan stops where the next tag or reference opens, and a heading's spaces can be matched one way only: on
# hostile text ("<ref>" a thousand times unclosed, "== " and 2,000 spaces) the looser patterns took seconds to minutes.
_WIKI_REF = re.compile(r"<ref(?:\s[^<>]*)?/>|<ref(?:\s[^<>]*)?>(?:(?!<ref\b).)*?</ref>", re.DOTALL | re.IGNORECASE)
_WIKI_HEADING = re.compile(
    r"^(?P<marks>={2,6})[ \t]*(?P<text>[^=\s](?:[^=\n]*[^=\s])?)[ \t]*(?P=marks)[ \t]*$", re.MULTILINE
)
_WIKI_TEMPLATE = re.compile(r"\{\{(?P<body>[^{}]*)\}\}", re.DOTALL)
_INFOBOX = re.compile(r"\{\{\s*Infobox\b(?P<body>(?:[^{}]|\{\{[^{}]*\}\})*)\}\}", re.DOTALL | re.IGNORECASE)


def _wiki_inline(text: str) -> str:
    """Wikitext inline markup as markdown: links as their text, bold and italics, references and templates gone."""
    text = _WIKI_REF.sub("", text)
    text = _WIKI_LINK.sub(lambda m: m.group("text"), text)
    text = re.sub(r"\{\{[^{}]*\}\}", "", text)
    text = text.replace("'''", "**").replace("''", "*")
    return text


def _infobox(m: re.Match[str]) -> str:
    """An infobox's "| key = value" fields as a JSON profile fence (its values without markup)."""
    fields: dict[str, str] = {}
    for part in re.split(r"\n\s*\|", "\n" + m.group("body"))[1:]:
        key, eq, value = part.partition("=")
        value = _wiki_inline(value).replace("*", "").replace("<br>", ", ").replace("<br/>", ", ").strip()
        if eq and key.strip() and value:
            fields[key.strip()] = value
    return _fence(fields) if fields else ""


def wikitext(text: str) -> Reading | None:
    """Wikitext source (an infobox, '''bold''' names, [[links]], == headings ==, <ref>s): two or more of its marks."""
    marks = (
        bool(_INFOBOX.search(text))
        + (len(_WIKI_LINK.findall(text)) >= 2)
        + ("'''" in text)
        + bool(_WIKI_HEADING.search(text))
        + bool(_WIKI_REF.search(text))
    )
    if marks < 2:
        return None
    made = _INFOBOX.sub(_infobox, text)
    made = _WIKI_HEADING.sub(lambda m: "#" * (len(m.group("marks"))) + " " + m.group("text"), made)
    made = "\n".join(line if line.startswith("```") else _wiki_inline(line) for line in _split_fences(made))
    return Reading(made)


def _split_fences(text: str) -> list[str]:
    """``text`` as lines, each fence's lines joined into one (so that inline readings leave fences alone)."""
    out: list[str] = []
    inside: list[str] | None = None
    for line in text.split("\n"):
        if inside is not None:
            inside.append(line)
            if line.strip() == "```":
                out.append("\n".join(inside))
                inside = None
            continue
        if line.startswith("```"):
            inside = [line]
            continue
        out.append(line)
    if inside is not None:
        out.append("\n".join(inside))
    return out


_LATEX_COMMAND = re.compile(r"\\(?:section|subsection|textbf|emph|textit|item|begin|end|documentclass|title)\b")
# LaTeX's accents: "\'e", "\`{e}", "\"o", "\^o", "\~n", "\c{c}".
_ACCENT = re.compile(r"\\(?P<mark>['`^\"~=.]|[cvuH](?=[{ ]))\s*\{?(?P<letter>[A-Za-z])\}?")
_ACCENT_MARKS = {
    "'": "\u0301",
    "`": "\u0300",
    "^": "\u0302",
    '"': "\u0308",
    "~": "\u0303",
    "=": "\u0304",
    ".": "\u0307",
    "c": "\u0327",
    "v": "\u030c",
    "u": "\u0306",
    "H": "\u030b",
}
_LATEX_HEADINGS = {"title": "#", "chapter": "#", "section": "##", "subsection": "###", "subsubsection": "####"}
_LATEX_INLINE = {"textbf": "**", "emph": "*", "textit": "*", "textsc": "", "underline": "", "textrm": "", "mbox": ""}
_LATEX_SKIP = re.compile(
    r"^\s*\\(?:documentclass|usepackage|maketitle|begin\{document\}|end\{document\}|date|author|label|vspace|"
    r"noindent|newpage|clearpage|tableofcontents)\b.*$",
    re.MULTILINE,
)


def _accent(m: re.Match[str]) -> str:
    return unicodedata.normalize("NFC", m.group("letter") + _ACCENT_MARKS[m.group("mark")])


def _braced(text: str, command: str, wrap: Callable[[str], str]) -> str:
    """``text`` with each ``\\command*{…}`` (nested braces allowed) replaced by ``wrap`` of its argument."""
    out: list[str] = []
    pattern = re.compile(r"\\" + command + r"\*?\s*\{")
    k = 0
    while (m := pattern.search(text, k)) is not None:
        depth, end = 1, m.end()
        while end < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            end += 1
        out.append(text[k : m.start()])
        out.append(wrap(text[m.end() : end - 1]))
        k = end
    out.append(text[k:])
    return "".join(out)


def _heading(marks: str, argument: str) -> str:
    return f"\n{marks} {argument.strip()}\n"


def _wrapped(marks: str, argument: str) -> str:
    return f"{marks}{argument}{marks}"


def latex(text: str) -> Reading | None:
    """LaTeX markup (two or more of its commands): sections as headings, ``\\textbf``/``\\emph`` as bold and italics,
    itemize and enumerate items as list items, "--" and "---" as dashes, accents as letters, the preamble gone."""
    if len(_LATEX_COMMAND.findall(text)) < 2:
        return None
    made = _LATEX_SKIP.sub("", text)
    made = re.sub(r"(?<!\\)%.*$", "", made, flags=re.MULTILINE)
    made = _ACCENT.sub(_accent, made)
    for command, marks in _LATEX_HEADINGS.items():
        made = _braced(made, command, partial(_heading, marks))
    for command, marks in _LATEX_INLINE.items():
        made = _braced(made, command, partial(_wrapped, marks))
    made = re.sub(r"\\(?:begin|end)\{\w+\*?\}", "\n", made)
    made = re.sub(r"^[ \t]*\\item\s*", "- ", made, flags=re.MULTILINE)
    made = made.replace("---", "—").replace("--", "–").replace("``", "“").replace("''", "”")
    made = re.sub(r"\\\\(?:\[[^\]]*\])?", "\n", made)
    made = re.sub(r"\\([&%$#_{}])", r"\1", made).replace("~", " ")
    made = re.sub(r"\n{3,}", "\n\n", made).strip("\n")
    return Reading(made)


FORMAT_RULES: tuple[Rule[str, Reading], ...] = register(
    Rule(
        "sgf-comments",
        "segment",
        "a fence holding an SGF game record ('(;GM[1]SZ[9]GN[…]', ';B[ee]C[1. Daegu, 1993. …]') is read as its game "
        "name (a heading) and its comments (paragraphs, in move order, '\\]' unescaped); moves, coordinates, setup "
        "and property codes are no claims",
        ("(;GM[1]GN[Ada]\n;B[ee]C[Born 1815.])", "(;FF[4]GC[A life.];W[cc]C[Wed 1835.])", ";B[aa]C[a \\] b]"),
        lambda text: _reading(sgf_comments(text)),
    ),
    Rule(
        "gantt-charts",
        "segment",
        "a PlantUML Gantt chart in a fence ('@startgantt', '[Retires] happens 2022-01-01', '[Club] starts 1999-01-01 "
        "and lasts 730 days', '-- Career --', 'note … end note') is read as headings and dated list items ('2022: "
        "Retires', 'from 1999: Club'), a note's lines as items; a bar's length, the project's start and scale are no "
        "claims, and on a yearly scale ('printscale yearly') a date is read as its year",
        ("@startgantt\n[Retires] happens 2022-01-01", "[A] starts 1999-01-01 and lasts 730 days", "-- Career --"),
        lambda text: _reading(gantt_charts(text)),
    ),
    Rule(
        "dot-graphs",
        "segment",
        "a Graphviz DOT graph in a fence ('digraph G {', 'subgraph cluster_a { label=\"Biologist\"; …}', "
        "'b [label=\"Born 1962, Ísafjörður\", fillcolor=…]') is read as headings (graph and cluster labels) and list "
        "items (node labels, their '\\n' breaks joined); node ids, edges and their labels, styles and colours are no "
        "claims",
        ('digraph G { a [label="Born 1962"]; }', 'subgraph cluster_x { label="Biologist"; }', "a -> b -> c;"),
        lambda text: _reading(dot_graphs(text)),
    ),
    Rule(
        "rtf-documents",
        "segment",
        "a fence holding an RTF document ('{\\rtf1\\ansi …', '\\f0\\fs28\\b Hollis …\\b0\\par') is read as its "
        "paragraphs of plain text: control words, font, colour and style tables, metadata and '{\\*…}' groups gone, "
        "escapes ('\\'e9', '\\u269?', '\\{') read as their characters",
        ("{\\rtf1 \\b Ada\\b0\\par Born 1815.\\par}", "{\\rtf1{\\fonttbl{\\f0 Arial;}}\\f0 Wed 1835.}", "\\'e9"),
        lambda text: _reading(rtf_documents(text)),
    ),
    Rule(
        "abc-headers",
        "segment",
        "a fence holding an ABC tune ('X:1' … 'K:D') is read as its title (T:, a heading) and the prose of its history "
        "(H:) and note (N:) fields, a field's wrapped lines joined; reference number, meter, length, rhythm, key, "
        "'%' comments, placeholders ('[tune title]') and the tune body are no claims",
        ("X:1\nT:Reel\nH:Learned the fiddle young.\nK:D", "H:In '46 he started a band\nH:in Cork.", "N:Taught pupils."),
        lambda text: _reading(abc_headers(text)),
    ),
    Rule(
        "latex-markup",
        "segment",
        "LaTeX markup ('\\section*{…}', '\\textbf{1983--2012:}', '\\emph{…}', '\\item', 'R\\'eunion') is read as the "
        "markdown it stands for: headings, bold and italics, list items, dashes and accented letters",
        ("\\section*{Ada (1815--1852)}", "\\item \\textbf{2005:} awarded", "H\\'el\\`ene"),
        latex,
    ),
    Rule(
        "wikitext-markup",
        "segment",
        "wikitext source (an infobox's '| birth_place = [[Penzance]]', '''bold''', [[links]], '== References ==', "
        "<ref>…</ref>) is read as a profile (the infobox) and the markdown of its prose",
        ("{{Infobox person | birth_date = 1871 }}", "'''Ada''' was a [[botanist]]", "[[Glasgow|the city]]"),
        wikitext,
    ),
    Rule(
        "html-markup",
        "segment",
        "an answer (or an 'html' fence) written in HTML, two of its tags or more ('<p>', '<ul><li>…</li>', "
        "'<strong>', '<h2>', '<br>'), is read as the markdown it stands for: paragraphs, headings, list items, bold "
        "and italics, other tags gone; prose that names a tag ('the <p> tag') stays",
        ("<p><strong>Ada</strong> was a potter.</p>", "<ul>\n<li>born 1951</li>\n</ul>", "<h2>Career</h2><p>…</p>"),
        lambda text: _reading(html_markup(text)),
    ),
    Rule(
        "org-outline",
        "segment",
        "an Org-mode outline (an 'org' fence, or '#+TITLE:' over two headlines or more: '* Career', '** DONE Head of "
        "unit <2001>--<2019>', '- Born :: 1963') is read as its markdown: headlines as headings without their "
        "TODO/DONE keywords and tags, timestamps as dates, description items as labels; '#+' keywords and drawers go",
        ("```org\n* Career\n** DONE Head <2001>--<2019>\n```", "#+TITLE: Ada\n* Profile\n* Career", "- Born :: 1963"),
        lambda text: _reading(org_outline(text)),
    ),
    Rule(
        "diff-edits",
        "segment",
        "a unified diff in a 'diff' or 'patch' fence (or an unlabelled one of a hunk header and '+', '-', ' ' lines) "
        "is read as the text it leaves, its added and unchanged lines: a removed line ('-He came back at the end.') "
        "is what the answer takes back, not a claim, and the headers ('--- a.md', '@@ -1,10 +1,12 @@') say nothing",
        ("```diff\n@@ -1 +1 @@\n-born 1816\n+born 1815\n```", "```patch\n--- a\n+++ b\n@@ -1 +1 @@\n …", " unchanged"),
        lambda text: _reading(diff_edits(text)),
    ),
    Rule(
        "xml-records",
        "segment",
        'an answer (or a fence) that is an XML document (\'<person><name>…</name><born year="1966" place="…"/>\') is '
        "read as a profile: an element's attributes, children and text are its fields",
        (
            '<person><name>Ada</name><born year="1815"/></person>',
            "<profile><award>…</award></profile>",
            "<education><degree …/><degree …/></education>",
        ),
        xml_records,
    ),
    Rule(
        "sql-inserts",
        "segment",
        "an SQL 'INSERT INTO t (name, born_year, …) VALUES (…)' is read as a profile a row, its columns as fields",
        (
            "INSERT INTO players (name, born_year) VALUES ('Ada', 1815);",
            "INSERT INTO t (a, b) VALUES (1, 2), (3, 4)",
            "-- a comment\nINSERT INTO people (`name`) VALUES ('O''Neill')",
        ),
        sql_inserts,
    ),
    Rule(
        "tag-pairs",
        "segment",
        "PGN-style tag pairs, one a line ('[Born \"1985, Samarkand\"]', '[PeakRating \"2698 (March 2016)\"]'), are "
        "read as a profile, a tag a field",
        ('[Player "Quill, Ada"]', '[Born "1815"]', '[PeakRating "2698 (March 2016)"]'),
        tag_pairs,
    ),
    Rule(
        "drawn-cards",
        "segment",
        "cards drawn side by side with box characters (a source panel: '┌──────┐ ┌──────┐' over '│ 🌐 lrt.lt │ │ "
        "Project archive │' and '└──────┘ └──────┘', one card or more) are read as a list, a card an item of its "
        "lines joined by middle dots (a quotation's wrapped lines by a space), the count of cards not drawn ('+ 4 "
        "more') gone, not as one run of text with the borders in it; a table ('┌──┬──┐') stays a table",
        ("┌────┐ ┌────┐\n│ a  │ │ b  │\n└────┘ └────┘", "╭──────╮\n│ Ada  │\n│ 1815 │\n╰──────╯", "+ 4 more"),
        lambda text: _reading(drawn_cards(text)),
    ),
    Rule(
        "drawn-trees",
        "segment",
        "a tree drawn with branch characters ('├── speleobiologist · b. 1970', '│   └── Kras Medal, 2016', '|-- PhD "
        "2004', two branches or more) is read as a nested list, a branch an item under its parent, not as text with "
        "the drawing's strokes in it; a table's rows ('| a | b |') are no branches",
        ("Ada\n├── potter\n└── poet", "│   ├── PhD 2004\n│   └── Kras Medal", "root\n|-- born 1951\n`-- died 2011"),
        lambda text: _reading(drawn_trees(text)),
    ),
    Rule(
        "drawn-timelines",
        "segment",
        "a timeline drawn as rows of markers and bars against an axis ('1871 ───── 1944', 'marries Edith Trevaskis   "
        "▲ 1899', 'Keeper of herbarium   ██████ 1902–1931', three rows or more, dates after two markers or an axis) "
        "is read as dated list items ('1899 – marries Edith Trevaskis'), the axis dropped and an indented line "
        "joined to its row; a list of '●' bullets dates nothing and stays",
        ("1871 ──── 1944\nborn ▲\nwed   ▲ 1899", "Yunnan trips ▲ 1906 ▲ 1910 ▲ 1913", "studies  ████ 1902–1931"),
        lambda text: _reading(drawn_timelines(text)),
    ),
    Rule(
        "drawn-rules",
        "segment",
        "a line of box-drawing strokes only ('━━━━━━━━━━', '──────', '════') is a rule between parts, read as a "
        "break between paragraphs, not as words of the heading or line it was drawn against; a table's border "
        "('┌───┐', '+---+'), a timeline's axis ('1871 ───── 1944') and a line with words stay",
        ("━━━━━━━━━━\n**① BEFORE YOU START**\n━━━━━━━━━━", "Ada\n──────\nborn 1951", "═══════"),
        drawn_rules,
    ),
    Rule(
        "box-tables",
        "segment",
        "a table drawn with ASCII or box-drawing borders ('+------+------+', '| Born | 1985 |', '│ … │') is read as "
        "the markdown table it draws",
        ("+---+---+\n| a | b |", "┌───┬───┐\n│ a │ b │", "| Ada Quill | potter |\n+--+--+\n| Born | 1815 |"),
        box_tables,
    ),
    Rule(
        "csv-fences",
        "segment",
        "a code fence of comma- or tab-separated rows ('```csv' over 'name,role,born' and its rows, '```tsv', or an "
        "unlabelled fence whose every line is a CSV line) is read as the markdown table of its rows, not as code; "
        "a fence of code or prose, or of rows of unequal length, stays a fence",
        ("```csv\nname,born\nAda,1815\n```", "```tsv\nname\tborn\n…\n```", "```\nyear,event,place\n…\n```"),
        csv_fences,
    ),
    Rule(
        "csv-rows",
        "segment",
        "three or more CSV lines under a header of short names ('year,event,result,notes', '1993,born,,Shrewsbury') "
        "are read as a markdown table; prose with commas (', ' after each) is not",
        ("year,event,result", "name,born,died", '"Quill, Ada",1815,1852'),
        csv_rows,
    ),
    Rule(
        "tab-rows",
        "segment",
        "three or more lines of tab-separated cells (a table pasted as text: 'Year(s)<TAB>Role / event<TAB>Place' "
        "over '1963<TAB>Born<TAB>Bergen, Norway') under a header of short names with no digit are a markdown "
        "table; lines of unequal cell counts, or headerless, stay",
        ("Year\tEvent\tPlace\n1963\tBorn\tBergen", "Name\tBorn\n…", "When\tWhat\n2001\tPhD\n2005\tPost"),
        tab_rows,
    ),
    Rule(
        "dotted-timelines",
        "segment",
        "three or more lines of a year or span of years, a middle dot or bullet and an event ('1969 · born in Leeds', "
        "'1996 → 2004 · planning department, Dublin City Council', '2020 → now · visiting professor') are a table of "
        "when and what (the span read '1996–2004', an open one 'since 2020'), as a dated table is read",
        ("1969 · born in Leeds", "1996 → 2004 · planning department", "2020 → now · visiting professor"),
        dotted_timelines,
    ),
    Rule(
        "mermaid-timelines",
        "segment",
        "a Mermaid 'timeline' fence is read as its title (a heading) and a table of its periods and their events "
        "('1997 : First 8,000 m peak : Cho Oyu' → '| 1997 | First 8,000 m peak, Cho Oyu |')",
        ("timeline\n  title Ada\n  1815 : born", "1997 : First peak : Cho Oyu", "section Early\n  1990 : Born"),
        mermaid_timelines,
    ),
    Rule(
        "thread-counters",
        "segment",
        "a thread's post counters at the start of two or more lines counting up to one total ('1/6 Thread on …', "
        "'4/6 Retired in 1941: …') and its '/end' are no words of the claims: the lines are read without them; a "
        "fraction in a line ('won 3/4 of the votes') or one such line is left",
        ("1/6 Born 1909.\n\n2/6 Died 1971.", "1/3 She sang.\n2/3 She wrote.\n3/3 She retired. /end", "3/10 A\n4/10 B"),
        thread_counters,
    ),
    Rule(
        "slash-fields",
        "segment",
        "a line of two or more labelled fields parted by ' / ' ('Motor: 350 W / Top speed: 25 km/h / Battery: 468 "
        "Wh') is read as a line a field; a slash in a value ('25 km/h') or between unlabelled words ('singer / "
        "songwriter') parts nothing",
        (
            "Motor: 350 W / Battery: 468 Wh",
            "Weight: 16.5 kg / Water: IPX5 / Fold: ~3 s",
            "Price: €549 / Warranty: 2 years",
        ),
        slash_fields,
    ),
    Rule(
        "dash-bullets",
        "segment",
        "two or more lines opened by an en or em dash and a space ('– Chapter 7 refers to the saxophonist') are read "
        "as list items, like '-' and '•'; one such line (an epigraph's '— Mark Twain') is not",
        ("– born 1961\n– died 2011", "— harpsichordist\n\n— saxophonist", "  – Poznań\n  – Łódź"),
        dash_bullets,
    ),
    Rule(
        "broken-words",
        "segment",
        "words a hard-wrapped text breaks at a line's end with a hyphen ('Ever-' over 'ton Ashby-Clarke', 'na-' over "
        "'tional'; two such breaks or more) are joined ('Everton', 'national'); one break ('well-' over 'known'), a "
        "dash set off by spaces, a number's range ('1961-' over '1999') stay",
        ("Born in Leeds, Ever-\nton was a pot-\nter.", "the na-\ntional prize, fin-\nished second", "ar-\nranger"),
        broken_words,
    ),
    Rule(
        "telegram-stops",
        "segment",
        "in a paragraph written in capitals, two or more 'STOP's set apart ('POZNAN NATIVE BORN NINETEEN SIXTY ONE "
        "STOP TOOK TOP HONOURS …') end its sentences, as full stops; a 'STOP' before a number ('STOP 6 — THE "
        "LIFEBOAT STATION'), one STOP, 'stop' in prose stay",
        ("ADA BORN LEEDS STOP WED YORK STOP", "POTTER STOP KILN GROUP NINETEEN SEVENTY STOP.", "A STOP B STOP C"),
        telegram_stops,
    ),
)


def _reading(made: str | None) -> Reading | None:
    return Reading(made) if made is not None else None


def read_formats(text: str, rules_off: frozenset[str] = frozenset()) -> str:
    """``text`` with every part written in a notation a reading of ``FORMAT_RULES`` knows rewritten as markdown
    (each reading applied in turn, to what the ones before it made)."""
    for r in FORMAT_RULES:
        if r.name in rules_off or r.apply is None:
            continue
        made = r.apply(text)
        if made is not None:
            text = made.text
    return text
