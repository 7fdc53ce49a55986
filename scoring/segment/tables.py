"""A table block read as records: lines the sentence splitter and the records reading (``scoring.records``) read.

A two-column table is a set of "Label: value" records (a timeline's rows are items dated by their year); a table
with a column per person (one person's included: "| | Priya Raghunathan |") is one block of records per column; a
table with a row per person ("| Name | Occupation | Born |" then a row for each, or a single row) one block per row;
a table of works one record per work; any other table a row a line, its cells joined. Each record carries the key
of the column or row it belongs to ("col:2", "row:1"), so person scopes (``scoring.segment.scopes``) keep each
person's records together and apart from the others'.

In a person's row or column a header is a label, not a claim: a header that says what its cell tells of the person
("Born", "Education", "Award") stays as the record's label; any other ("Highlights", "Race win", "Northbridge")
is dropped and each item of its cell (they are separated by semicolons) is a list item about the person. The dates
in parentheses that close such an item date the item ("Captain, Deccan Falcons (2019–2023)": a tenure, not the
life of a "Deccan Falcons"; the person's life is under "Born"), and a hedge in parentheses after it ("(I think)")
is a hedge of the item.

>>> [r.text for r in records((("", ""), ("Born", "1981, Kisumu"), ("Event", "200 m")))]
['Born: 1981, Kisumu', 'Event: 200 m']
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from scoring.hedges import hedge_only
from scoring.records import amount_value, record_predicate
from scoring.rules import rule

MARKDOWN_TABLES = rule(
    "markdown-tables",
    "segment",
    "a markdown table is read row by row: a two-column table as 'Label: value' records (a timeline's rows as "
    "items dated by their year), a table with a column or a row per person (one person's too) as one record block "
    "per person, where a header that is no known label is not a claim: each item of its cell is an item about the "
    "person, dated by the years that close it",
)

_GENERIC_HEADERS = frozenset("field fact facts detail details value info information item".split()) | {""}
# Headers of a column that names the person of each row.
_NAME_HEADERS = frozenset("name names person people who individual namesake full name".split())
# Headers of a column that tells the people of the rows apart (what each is).
ROLE_HEADERS = frozenset(
    "occupation profession role field sport discipline known as description job career occupation/field".split()
)
_DATE_HEADERS = frozenset(("born", "birth", "year of birth", "dates", "years", "lifespan", "life", "lived"))
# A table of works: its first column names them ("| Film | Year | My confidence |"). A column of the
# assistant's own confidence or notes says nothing about them.
_WORK_HEADERS = frozenset(
    "film films movie movies book books novel novels album albums work works title titles publication "
    "publications song songs painting paintings".split()
)
_ASIDE_WORDS = frozenset("confidence certainty sure note notes comment comments my".split())
# A cell that says there is nothing: "—", "n/a".
_EMPTY_CELLS = frozenset(("", "-", "–", "—", "n/a", "none", "unknown", "?"))
# Words of an item about another person, whose years in parentheses may be that person's life ("Married to Ada
# Lind (1930–2001)"): those keep their parentheses.
_KIN_WORDS = frozenset(
    "married marriage husband wife spouse partner son sons daughter daughters father mother parent parents brother "
    "sister child children widow widower".split()
)
# Dates in parentheses that close an item: "(2019–2023)", "(since 2012)", "(2021)", "(1990s)", after what the item
# is ("(album, 1961)").
_CLOSING_DATES = re.compile(
    r"\s*\(\s*(?:(?P<what>[^\W\d][^()\d,]{0,30}),\s*)?(?P<when>(?:since\s+|from\s+|until\s+)?(?:1[0-9]|20)[0-9]{2}s?"
    r"(?P<range>\s*[–-]\s*(?:(?:1[0-9]|20)?[0-9]{2}|present|now))?)\s*\)$"
)
# A parenthesis that closes an item: "(I think)".
_CLOSING_PARENTHESIS = re.compile(r"\s*\((?P<inside>[^()]*)\)$")


@dataclass(frozen=True)
class Record:
    """One line read from a table, and the row or column of the person it belongs to ("" for none)."""

    text: str
    key: str = ""
    # Who the row or column presents: a name (None: the answer's subject, by a role), a description, dates.
    name: str | None = None
    description: str | None = None
    dates: str | None = None
    # The row or column is the only person its table presents.
    sole: bool = False


def year_cell(cell: str) -> bool:
    """ "1955", "c. 1955", "1955–1960", "1950s": a year, a span of years or a decade."""
    text = cell.strip()
    if text.startswith("c."):
        text = text[2:].strip()
    text = text.rstrip("s")
    head, _, tail = text.replace("–", "-").partition("-")
    head, tail = head.strip(), tail.strip()
    return len(head) == 4 and head.isdigit() and (not tail or (tail.isdigit() and 2 <= len(tail) <= 4))


def person_rows(header: tuple[str, ...], body: list[tuple[str, ...]]) -> int | None:
    """The column naming the person of each row of a table with a row per person (more than two columns), or None. A
    column is such when its header says so ("Name") or when each of two rows or more holds the same name (a table of
    namesakes)."""
    if not body or len(header) < 3:
        return None
    for k, h in enumerate(header):
        if h.lower() in _NAME_HEADERS:
            return k  # one row is one person's profile, read the same way
    if len(body) < 2:
        return None
    first = {cells[0].strip().lower() for cells in body if cells}
    if len(first) == 1 and next(iter(first)) and not year_cell(body[0][0]):
        word = next(iter(first)).split()
        if 2 <= len(word) <= 5 and all(w[:1].isalpha() for w in word):
            return 0
    # "| | Born | Field |" over "| Ada Brook (cellist) | …" and "| Ada Brook (painter) | …": a first column without a
    # header whose cells are one name told apart by what follows it (a table of namesakes, a row each).
    if header[0].strip().lower() in _GENERIC_HEADERS and all(cells and a_name(cells[0]) for cells in body):
        bases = {_base_name(cells[0]) for cells in body}
        if len(bases) == 1 and len({cells[0].strip().lower() for cells in body}) == len(body):
            return 0
    return None


# A namesake's name with what tells it apart in parentheses: "Ada Brook (cellist)".
_TOLD_APART = re.compile(r"(?P<name>[^()]+?)\s*\((?P<what>[^()\d]+)\)")


def _base_name(cell: str) -> str:
    """The name of a namesake's cell without what tells it apart: "Ada Brook (cellist)", "Ada Brook, cellist",
    "Ada Brook — cellist" → "ada brook"."""
    return re.split(r"\s*[,(–—]|\s-\s", cell.strip(), maxsplit=1)[0].strip().lower()


def records(rows: tuple[tuple[str, ...], ...]) -> list[Record]:
    """The records of a table whose first row is its header (see the module's docstring)."""
    header, body = (rows[0], list(rows[1:])) if rows else ((), [])
    width = max((len(c) for c in body), default=0)
    out: list[Record] = []
    name: str | None
    description: str | None
    if _person_columns(header):
        # "| | Chemist | Journalist |", "| | Priya Raghunathan |": a block per person, led by its heading ("The
        # chemist:" for a role), its cells read under their row's label.
        sole = len(header) == 2
        role_row = next((c for c in body if c and c[0].lower() in ROLE_HEADERS), None)
        born_row = next((c for c in body if c and c[0].lower() in _DATE_HEADERS), None)
        for k, person in enumerate(header[1:], start=1):
            by_role = len(person.split()) == 1 and person[1:].islower()
            key = f"col:{k}"
            dates = born_row[k] if born_row is not None and len(born_row) > k and not _empty(born_row[k]) else None
            if by_role:  # the answer's subject, told apart by the role the header gives
                lead, name, description = f"The {person.lower()}:", None, person.lower()
            else:
                lead, name = person, person
                description = role_row[k] if role_row is not None and len(role_row) > k else None
                description = None if description is None or _empty(description) else description
            out.append(Record(lead, key, name, description, dates, sole))
            out.extend(
                Record(text, key, name, description, dates, sole)
                for c in body
                if len(c) > k and c[0] and not _empty(c[k])
                for text in _cell_records(c[0], c[k])
            )
        return out
    if width == 2:
        timeline = sum(year_cell(c[0]) for c in body) > len(body) / 2
        for cells in body:
            label, value = cells[0], cells[1] if len(cells) > 1 else ""
            if not value:
                continue
            if timeline and year_cell(label):
                out.append(Record(f"- {value}, {label}"))  # "1955 | Born in Lyon" → "Born in Lyon, 1955"
            elif label:
                out.append(Record(f"{label}: {value}"))
            else:
                out.append(Record(value))
        return out
    named = person_rows(header, body)
    if named is not None:
        # "| Name | Occupation | Born |": a block per row, its cells under their headers.
        role = next((k for k, h in enumerate(header) if h.lower() in ROLE_HEADERS), None)
        born = next((k for k, h in enumerate(header) if h.lower() in _DATE_HEADERS), None)
        for r, cells in enumerate(body, start=1):
            key = f"row:{r}"
            name = cells[named] if named < len(cells) else ""
            description = cells[role] if role is not None and role < len(cells) else None
            told = _TOLD_APART.fullmatch(name.strip())
            if told is not None:  # "Ada Brook (cellist)": the name, and the description that tells the rows apart
                name, description = told.group("name"), told.group("what")
            dates = cells[born] if born is not None and born < len(cells) else None
            if description is None:  # the first other cell that is no date tells the rows apart
                description = next((c for k, c in enumerate(cells) if k != named and c and not year_cell(c)), None)
            out.extend(
                Record(text, key, name or None, description, dates, sole=len(body) == 1)
                for k, cell in enumerate(cells)
                if k != named and k < len(header) and not _empty(cell)
                for text in _cell_records(header[k], cell)
            )
        return out
    works = _works_records(header, body)
    if works is not None:
        return works
    # Any other table: a row a line, its cells joined.
    return [Record(", ".join(c for c in cells if c)) for cells in body]


def _person_columns(header: tuple[str, ...]) -> bool:
    """Whether a table's columns after the first are people ("| | Chemist | Journalist |", "| | Priya Raghunathan
    |"): its first header says nothing and every other one names someone, or, for one column, a name."""
    if len(header) < 2 or header[0].lower() not in _GENERIC_HEADERS:
        return False
    people = [h for h in header[1:] if h.lower() not in _GENERIC_HEADERS]
    if len(people) != len(header) - 1:
        return False
    # "| | Born | Family |" over rows of namesakes: headers that are labels of a person's records are no people.
    if any(_label_header(h) for h in people):
        return False
    return len(people) >= 2 or a_name(people[0])


def _label_header(header: str) -> bool:
    """Whether a header is a label of a person's records ("Born", "Family", "Awards", "Occupation")."""
    label = header.strip().lower()
    return label in _DATE_HEADERS or label in ROLE_HEADERS or record_predicate(label) is not None


def a_name(text: str) -> bool:
    """ "Priya Raghunathan", "Declan Fairweather (sailor)": two to five capitalised words (particles aside), no
    digit, before any parenthesis or comma."""
    words = re.split(r"[,(]", text, maxsplit=1)[0].split()
    particles = ("de", "del", "der", "di", "da", "van", "von", "la", "le", "bin", "ibn", "al", "el")
    return (
        2 <= len(words) <= 5
        and not any(ch.isdigit() for ch in text)
        and all(w[:1].isupper() or w in particles for w in words)
        and " ".join(words).lower() not in _NOT_NAMES
    )


# Two-word headers of a column that are no one's name.
_NOT_NAMES = frozenset(("key facts", "quick facts", "fast facts", "at a glance", "the facts", "more details"))


def _empty(cell: str) -> bool:
    return cell.strip().lower() in _EMPTY_CELLS


def _cell_records(header: str, cell: str) -> list[str]:
    """A cell of a person's row or column: under a header that says what it tells of them ("Born", "Education"), a
    record with that label; a span of years under a header of dates ("Lived", "Years": "1909–1971", "b. 1952") the
    birth and death it gives; under any other header ("Highlights", "Race win"), the header is a label of the table,
    not a claim: each item of the cell is an item about the person (:func:`cell_item`), as a list item is read."""
    label = header.strip().lower()
    if record_predicate(label) is not None:
        # A year of its own stays in parentheses, where the records reading reads it as the work's ("Book: Money in
        # Motion (2011)") or the award's ("Award: Amani Prize (2017)").
        items = (cell_item(item, single_years=False) for item in _items(cell))
        return [f"{header}: {'; '.join(items)}"]
    if label in _DATE_HEADERS:
        text = cell.strip()
        for mark, word in (("b.", "Born"), ("born", "Born"), ("d.", "Died"), ("died", "Died")):
            if text.lower().startswith(mark) and year_cell(text[len(mark) :]):
                return [f"{word}: {text[len(mark) :].strip()}"]
        born, _, died = text.replace("–", "-").partition("-")
        if year_cell(born) and year_cell(died) and len(died.strip()) == 4:
            return [f"Born: {born.strip()}", f"Died: {died.strip()}"]
    if label in ROLE_HEADERS:  # "Description: Indian mathematician": what the person is, one item
        return [f"- {cell}"]
    if label and amount_value(cell):  # "Price | £4.99 / month": a bare amount says nothing without its label
        return [f"{header}: {cell.strip()}"]
    return [f"- {cell_item(item)}" for item in _items(cell)]


def _items(cell: str) -> list[str]:
    """The items of a cell, separated by semicolons outside parentheses."""
    out: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(cell):
        depth += ch == "("
        depth -= ch == ")" and depth > 0
        if ch == ";" and depth == 0:
            out.append(cell[start:i].strip())
            start = i + 1
    out.append(cell[start:].strip())
    return [item for item in out if item]


def cell_item(item: str, single_years: bool = True) -> str:
    """An item of a person's cell as the records reading reads it: a hedge in parentheses after it is a hedge set off
    by a comma ("IK Norrvik (1990–1998) (I think)" → "…, I think"), and the dates in parentheses that close it date
    the item ("Captain, Deccan Falcons (2019–2023)" → "Captain, Deccan Falcons, 2019–2023": a tenure, where
    "Deccan Falcons (2019–2023)" reads as a life; "Brushfire (album, 1961)" → "Brushfire, album, 1961"), unless the
    item is about a relative, whose life they may be. ``single_years``: a year that is no span moves too.

    >>> cell_item("Captain, Deccan Falcons (2019–2023) (I think)")
    'Captain, Deccan Falcons, 2019–2023, I think'
    >>> cell_item("Married to Ada Lind (1930–2001)")
    'Married to Ada Lind (1930–2001)'
    """
    text, hedge = item.strip(), ""
    last = _CLOSING_PARENTHESIS.search(text)
    if last is not None and hedge_only(last.group("inside")):
        text, hedge = text[: last.start()].rstrip(), last.group("inside").strip()
    dates = _CLOSING_DATES.search(text)
    words = {w.lower() for w in re.findall(r"[^\W\d_]+", text)}
    single = dates is not None and not dates.group("range") and not dates.group("when").startswith("since")
    if dates is not None and dates.start() > 0 and not words & _KIN_WORDS and (single_years or not single):
        what = f", {dates.group('what').strip()}" if dates.group("what") else ""
        text = f"{text[: dates.start()].rstrip(' ,')}{what}, {dates.group('when')}"
    return f"{text}, {hedge}" if hedge else text


def _works_records(header: tuple[str, ...], body: list[tuple[str, ...]]) -> list[Record] | None:
    """ "| Film | Year | My confidence |" → "Film: Monsoon Ledger (2008)", one record a row: the year dates the
    work, and the assistant's confidence column is left out (its hedges are not the work's)."""
    if len(header) < 2 or header[0].lower() not in _WORK_HEADERS:
        return None
    label = header[0][:1].upper() + header[0][1:].lower()
    year = next((k for k, h in enumerate(header) if h.lower() in ("year", "released", "published")), None)
    others = [
        k
        for k, h in enumerate(header)
        if k not in (0, year)
        and h
        and not _ASIDE_WORDS & set("".join(c if c.isalnum() else " " for c in h.lower()).split())
    ]
    out: list[Record] = []
    for cells in body:
        if not cells or not cells[0]:
            continue
        when = cells[year] if year is not None and year < len(cells) and year_cell(cells[year]) else ""
        extra = [cells[k] for k in others if k < len(cells) and cells[k]]
        out.append(Record(f"{label}: {cells[0]}" + (f" ({when})" if when else "") + "".join(f", {e}" for e in extra)))
    return out
