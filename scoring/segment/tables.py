"""A table block read as records: lines the sentence splitter and the records reading (``scoring.records``) read.

A two-column table is a set of "Label: value" records (a timeline's rows are items dated by their year); a table
with a column per person is one block of records per column; a table with a row per person ("| Name | Occupation
| Born |" then a row for each) one block per row; a table of works one record per work; any other table a row a
line, its cells joined. Each record carries the key of the column or row it belongs to ("col:2", "row:1"), so
person scopes (``scoring.segment.scopes``) can keep each person's records apart.

>>> [r.text for r in records((("", ""), ("Born", "1981, Kisumu"), ("Event", "200 m")))]
['Born: 1981, Kisumu', 'Event: 200 m']
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.rules import rule
from vocabulary.records import RECORD_PREDICATES

MARKDOWN_TABLES = rule(
    "markdown-tables",
    "segment",
    "a markdown table is read row by row: a two-column table as 'Label: value' records (a timeline's rows as "
    "items dated by their year), a table with a column per person as one record block per person",
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


@dataclass(frozen=True)
class Record:
    """One line read from a table, and the row or column of the person it belongs to ("" for none)."""

    text: str
    key: str = ""
    # Who the row or column presents: a name (None: the answer's subject, by a role), a description, dates.
    name: str | None = None
    description: str | None = None
    dates: str | None = None


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
    return None


def records(rows: tuple[tuple[str, ...], ...]) -> list[Record]:
    """The records of a table whose first row is its header (see the module's docstring)."""
    header, body = (rows[0], list(rows[1:])) if rows else ((), [])
    width = max((len(c) for c in body), default=0)
    out: list[Record] = []
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
    people = [h for h in header[1:] if h.lower() not in _GENERIC_HEADERS]
    if header and header[0].lower() in _GENERIC_HEADERS and len(people) == len(header) - 1 >= 2:
        # "| | Chemist | Journalist |": a block per person, led by its heading ("The chemist:" for a role).
        for k, person in enumerate(header[1:], start=1):
            by_role = len(person.split()) == 1 and person[1:].islower()
            lead = f"The {person.lower()}:" if by_role else person
            who = (None, person.lower(), None) if by_role else (person, None, None)
            out.append(Record(lead, f"col:{k}", *who))
            out.extend(Record(f"{c[0]}: {c[k]}", f"col:{k}", *who) for c in body if len(c) > k and c[0] and c[k])
        return out
    named = person_rows(header, body)
    if named is not None:
        # "| Name | Occupation | Born |": a block per row, its cells under their headers.
        role = next((k for k, h in enumerate(header) if h.lower() in ROLE_HEADERS), None)
        born = next((k for k, h in enumerate(header) if h.lower() in _DATE_HEADERS), None)
        for r, cells in enumerate(body, start=1):
            key = f"row:{r}" if len(body) > 1 else ""  # one row is the answer's one person: no boundary to draw
            name = cells[named] if named < len(cells) else ""
            description = cells[role] if role is not None and role < len(cells) else None
            dates = cells[born] if born is not None and born < len(cells) else None
            if description is None:  # the first other cell that is no date tells the rows apart
                description = next((c for k, c in enumerate(cells) if k != named and c and not year_cell(c)), None)
            out.extend(
                Record(text, key, name or None, description, dates)
                for k, cell in enumerate(cells)
                if k != named and k < len(header) and cell
                for text in _cell_records(header[k], cell)
            )
        return out
    works = _works_records(header, body)
    if works is not None:
        return works
    # Any other table: a row a line, its cells joined.
    return [Record(", ".join(c for c in cells if c)) for cells in body]


def _cell_records(header: str, cell: str) -> list[str]:
    """A cell of a person's row: under a header that says what it tells of them ("Born", "Education"), a record with
    that label; a span of years under a header of dates ("Lived", "Years": "1909–1971", "b. 1952") the birth and death
    it gives; under any other header ("Highlights", "Family"), an item about the person, as a list item is read."""
    label = header.strip().lower()
    if label in RECORD_PREDICATES or label.rstrip("s") in RECORD_PREDICATES:
        return [f"{header}: {cell}"]
    if label in _DATE_HEADERS:
        text = cell.strip()
        for mark, word in (("b.", "Born"), ("born", "Born"), ("d.", "Died"), ("died", "Died")):
            if text.lower().startswith(mark) and year_cell(text[len(mark) :]):
                return [f"{word}: {text[len(mark) :].strip()}"]
        born, _, died = text.replace("–", "-").partition("-")
        if year_cell(born) and year_cell(died) and len(died.strip()) == 4:
            return [f"Born: {born.strip()}", f"Died: {died.strip()}"]
    return [f"- {cell}"] if header else [cell]


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
