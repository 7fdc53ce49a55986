"""Profiles written in a config or code notation inside a code fence, read as the data they hold, so that the fenced
profiles reading (``scoring.segment.fenced``) reads them as it reads a JSON or YAML profile: a line a field.

A chat model asked for "the profile as TOML", "an INI export", "a typed TypeScript object", "a GEDCOM record", "a
calendar invite with a short bio" or "the speaker form's fields" writes the same claims in a notation of its own.
Each reading here recognises one notation by its syntax (by the fence's language, or, unlabelled, by every line of
the fence being written in it) and parses it with the standard library where one exists (``tomllib``,
``configparser``, ``ast``), with a small reader otherwise. What a reading returns is plain data: mappings, lists,
strings, numbers and booleans, and :class:`Note` for prose the notation holds (a comment after a field, a GEDCOM
``NOTE``, an event's ``DESCRIPTION``), read as lines about the profile's person.

A reading of a notation in which programs are configured (TOML, INI, a script's object literal, a Python literal, a
form's fields) returns its data only when it holds a person's profile: two fields or more of a life (born, died,
spouse, awards, education, nationality…), or a name and one such field. A program's config (``[server] host = …``,
``{ port: 8080, debug: true }``) says nothing of anyone and stays a fence of code.

>>> load(Fence('[person]\\nname = "Ada Quill"\\nborn = 1815\\nspouse = "W. King"', "toml")).data
{'name': 'Ada Quill', 'born': 1815, 'spouse': 'W. King'}
>>> load(Fence("[server]\\nhost = 0.0.0.0\\nport = 8080", "ini")) is None
True
"""

from __future__ import annotations

import ast
import configparser
import re
import tomllib
from dataclasses import dataclass, replace
from typing import Any

from scoring.rules import Rule, register, run
from vocabulary.records import RECORD_PREDICATES


@dataclass(frozen=True)
class Fence:
    """A code fence: its code and its language ("" when unlabelled)."""

    code: str
    language: str


@dataclass(frozen=True)
class Loaded:
    """The data a fence holds, read by one notation's reading."""

    data: Any
    decided_by: str = ""

    def stamped(self, name: str) -> Loaded:
        return replace(self, decided_by=name)


class Note(str):
    """Prose that a record holds (a comment after a field, a note, a description): lines about the profile's person,
    read without a key."""

    __slots__ = ()


# --- what makes data a person's profile ----------------------------------------------------------------------------

# The predicates of a life: a field under one of these says something only of a person.
_LIFE_PREDICATES = frozenset(
    ("was born", "died", "was married to", "had", "studied at", "received a {label} from", "won", "is known for")
)
_LIFE_WORDS = frozenset("birth born death died spouse nationality occupation children married education".split())
_NAME_FIELDS = frozenset(("name", "full name", "fullname", "person", "fn"))


def key_words(key: str) -> str:
    """ "date_of_birth" → "date of birth", "productionsDirected" → "productions directed"."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", key.replace("_", " ").replace("-", " "))
    return " ".join(spaced.lower().split())


def _life_key(key: str) -> bool:
    words = key_words(key)
    for form in (words, words.rstrip("s"), words.replace(" ", "")):
        if RECORD_PREDICATES.get(form) in _LIFE_PREDICATES or form in ("nationality", "occupation", "profession"):
            return True
    return any(w in _LIFE_WORDS for w in words.split())


def _keys(data: Any) -> list[str]:
    if isinstance(data, dict):
        return [str(k) for k in data] + [k for v in data.values() for k in _keys(v)]
    if isinstance(data, list):
        return [k for v in data for k in _keys(v)]
    return []


def a_profile(data: Any) -> bool:
    """Whether ``data`` holds a person's profile: two life fields or more, or a name and one."""
    keys = _keys(data)
    life = {key_words(k) for k in keys if _life_key(k)}
    named = any(key_words(k) in _NAME_FIELDS for k in keys)
    return len(life) >= 2 or (named and len(life) >= 1)


# --- comments ------------------------------------------------------------------------------------------------------

# A comment after a field says a claim of its own when it is a clause of four words or more ("taught every
# arrangement to the players by ear"); a word or two ("co-founded", "shadow puppets") glosses the value.
_LEAST_COMMENT_WORDS = 4


def _said(comment: str) -> str | None:
    text = comment.strip()
    return text if len(re.findall(r"[^\W\d_]+", text)) >= _LEAST_COMMENT_WORDS else None


def _with_notes(data: Any, notes: dict[tuple[str, ...], str], path: tuple[str, ...] = ()) -> Any:
    """``data`` with each comment of ``notes`` (by the path of the field it follows) as a :class:`Note` after it."""
    if not notes or not isinstance(data, dict):
        return data
    out: dict[Any, Any] = {}
    for k, v in data.items():
        out[k] = _with_notes(v, notes, (*path, str(k)))
        note = notes.get((*path, str(k)))
        if note is not None:
            out[f"{k} note"] = Note(note)
    return out


# --- TOML and INI --------------------------------------------------------------------------------------------------

_SECTION = re.compile(r"^\s*\[\[?(?P<name>[^\[\]]+)\]\]?\s*(?:[#;].*)?$")
_ASSIGNMENT = re.compile(r"^\s*(?P<key>[\w.\"' -]+?)\s*[=:]\s*(?P<value>.*)$")
_COMMENT_LINE = re.compile(r"^\s*[#;]")


def _config_like(code: str) -> bool:
    """Whether every line of an unlabelled fence is a section header, a ``key = value`` line or a comment, with a
    header and two assignments at least."""
    lines = [line for line in code.split("\n") if line.strip() and not _COMMENT_LINE.match(line)]
    headers = sum(1 for line in lines if _SECTION.match(line))
    assigned = sum(1 for line in lines if not _SECTION.match(line) and _ASSIGNMENT.match(line))
    return headers >= 1 and assigned >= 2 and headers + assigned == len(lines)


def _trailing_comments(code: str, marks: str) -> dict[tuple[str, ...], str]:
    """The comments after a ``key = value`` on its line, by the field's path (its table's name, then its key)."""
    out: dict[tuple[str, ...], str] = {}
    table: tuple[str, ...] = ()
    for line in code.split("\n"):
        header = _SECTION.match(line)
        if header is not None:
            table = tuple(p.strip().strip("\"'") for p in header.group("name").split("."))
            continue
        m = _ASSIGNMENT.match(line)
        if m is None:
            continue
        value = m.group("value")
        cut = re.search(rf"\s[{marks}]\s*(?P<comment>[^\"']*)$", value)
        if cut is not None and (said := _said(cut.group("comment"))):
            out[(*table, m.group("key").strip().strip("\"'"))] = said
    return out


def _sectioned(data: dict[str, Any]) -> Any:
    """A config's sections as profiles: two sections or more that are each a profile (one per person, "[kovac_1970]",
    "[kovac_1974]") a list of profiles; else the sections are parts of one profile ("[person]", "[family]"), their
    fields its fields (a field of an earlier section kept where a later one repeats its key)."""
    tables = {k: v for k, v in data.items() if isinstance(v, dict)}
    if len(tables) >= 2 and all(a_profile(v) for v in tables.values()):
        return list(tables.values())
    out: dict[str, Any] = {}
    for k, v in data.items():
        if isinstance(v, dict) and not _mapping_value(v):
            for field, value in v.items():
                out.setdefault(field, value)
        else:
            out.setdefault(k, v)
    return out


def _mapping_value(table: dict[str, Any]) -> bool:
    """Whether a table is one value ("tuner = { from = 1961, to = 1999 }"), not a section of fields."""
    return bool(table) and all(key_words(k) in ("from", "to", "year", "since", "until", "start", "end") for k in table)


def toml_profiles(fence: Fence) -> Loaded | None:
    if fence.language != "toml" and not (fence.language == "" and _config_like(fence.code)):
        return None
    try:
        data = tomllib.loads(fence.code)
    except tomllib.TOMLDecodeError:
        return None
    if not a_profile(data):
        return None
    return Loaded(_sectioned(_with_notes(data, _trailing_comments(fence.code, "#"))))


_BOOLEANS = {"true": True, "yes": True, "false": False, "no": False}


def ini_profiles(fence: Fence) -> Loaded | None:
    if fence.language not in ("ini", "cfg", "conf") and not (fence.language == "" and _config_like(fence.code)):
        return None
    parser = configparser.ConfigParser(
        interpolation=None, delimiters=("=", ":"), inline_comment_prefixes=(";", "#"), strict=False
    )
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys as written
    try:
        parser.read_string(fence.code)
    except configparser.Error:
        return None
    data: dict[str, Any] = {}
    for name in parser.sections():
        data[name] = {k: _BOOLEANS.get(v.strip().lower(), v) for k, v in parser.items(name)}
    if not data or not a_profile(data):
        return None
    return Loaded(_sectioned(_with_notes(data, _trailing_comments(fence.code, ";#"))))


# --- a script's object literal (TypeScript, JavaScript) -----------------------------------------------------------

_SCRIPT_LANGUAGES = frozenset(("ts", "typescript", "js", "javascript", "jsx", "tsx", "mjs", "json5"))
# Where an object literal that is a value starts: "const x: Person = {", "export default {", "module.exports = {".
_OBJECT_START = re.compile(
    r"^\s*(?:export\s+)?(?:(?:const|let|var)\s+[\w$]+(?:\s*:\s*[\w$.<>\[\]| ]+)?\s*=|default|module\.exports\s*=)\s*"
    r"(?=[{\[])",
    re.MULTILINE,
)
_TOKEN = re.compile(
    r"""\s*(?:(?P<comment>//[^\n]*|/\*.*?\*/)|(?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`[^`]*`)"""
    r"""|(?P<number>-?\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?)|(?P<word>[A-Za-z_$][\w$]*)|(?P<mark>[{}\[\]:,]))""",
    re.DOTALL,
)


class _Unreadable(ValueError):
    pass


class _ObjectReader:
    """A recursive reader of one object literal: quoted or bare keys, strings, numbers, true/false/null, arrays,
    nested objects, trailing commas; a line comment after a field is kept as its note."""

    def __init__(self, text: str) -> None:
        self.tokens: list[tuple[str, str, int]] = []
        k = 0
        while k < len(text):
            m = _TOKEN.match(text, k)
            if m is None or m.end() == k:
                break  # the object's end is behind: what follows it ("};", more code) is not read
            kind = m.lastgroup or ""
            self.tokens.append((kind, m.group(kind), m.start(kind)))
            k = m.end()
        self.k = 0
        self.notes: dict[tuple[str, ...], str] = {}
        self.text = text

    def _next(self) -> tuple[str, str, int]:
        while self.k < len(self.tokens) and self.tokens[self.k][0] == "comment":
            self.k += 1
        if self.k >= len(self.tokens):
            raise _Unreadable("end")
        token = self.tokens[self.k]
        self.k += 1
        return token

    def _peek(self) -> tuple[str, str, int] | None:
        k = self.k
        while k < len(self.tokens) and self.tokens[k][0] == "comment":
            k += 1
        return self.tokens[k] if k < len(self.tokens) else None

    def value(self, path: tuple[str, ...] = ()) -> Any:
        kind, text, _ = self._next()
        if kind == "mark" and text == "{":
            return self._object(path)
        if kind == "mark" and text == "[":
            out = []
            while (p := self._peek()) is not None and p[1] != "]":
                out.append(self.value(path))
                if (p := self._peek()) is not None and p[1] == ",":
                    self._next()
            self._next()
            return out
        if kind == "string":
            return _unquote(text)
        if kind == "number":
            number = text.replace("_", "")
            return float(number) if "." in number or "e" in number.lower() else int(number)
        if kind == "word":
            return {"true": True, "false": False, "null": None, "undefined": None}.get(text, text)
        raise _Unreadable(text)

    def _object(self, path: tuple[str, ...]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        while True:
            kind, text, _ = self._next()
            if kind == "mark" and text == "}":
                return out
            if kind == "mark" and text == ",":
                continue
            if kind not in ("string", "word", "number"):
                raise _Unreadable(text)
            key = _unquote(text) if kind == "string" else text
            colon = self._next()
            if colon[1] != ":":
                raise _Unreadable(colon[1])
            out[key] = self.value((*path, key))
            self._comment_after((*path, key))

    def _comment_after(self, path: tuple[str, ...]) -> None:
        """A line comment on the line where a field's value ends (after its comma) is the field's note."""
        end = self.tokens[self.k - 1][2]
        k = self.k
        if k < len(self.tokens) and self.tokens[k][1] == ",":
            k += 1
        if k < len(self.tokens) and self.tokens[k][0] == "comment" and "\n" not in self.text[end : self.tokens[k][2]]:
            said = _said(self.tokens[k][1].lstrip("/*").rstrip("*/"))
            if said:
                self.notes[path] = said


def _unquote(text: str) -> str:
    body = text[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def script_objects(fence: Fence) -> Loaded | None:
    if fence.language not in _SCRIPT_LANGUAGES:
        return None
    found: list[Any] = []
    notes: dict[tuple[str, ...], str] = {}
    for m in _OBJECT_START.finditer(fence.code):
        reader = _ObjectReader(fence.code[m.end() :])
        try:
            data = reader.value()
        except _Unreadable:
            continue
        found.append(data)
        notes.update(reader.notes)
    profiles = [d for d in found if a_profile(d)]
    if not profiles:
        return None
    data = profiles[0] if len(profiles) == 1 else profiles
    return Loaded(_with_notes(data, notes) if isinstance(data, dict) else data)


# --- Python literals (a notebook's cells) -------------------------------------------------------------------------

_PYTHON_LANGUAGES = frozenset(("python", "py", "python3", "ipython", "pycon"))
_YEAR = re.compile(r"^(?:1[0-9]{3}|20[0-9]{2})$")


def _frame_rows(call: ast.Call) -> list[dict[str, Any]] | None:
    """The rows of a ``DataFrame(rows, columns=[…])`` or ``DataFrame({column: values})`` call."""
    try:
        first = ast.literal_eval(call.args[0]) if call.args else None
        columns = next((ast.literal_eval(k.value) for k in call.keywords if k.arg == "columns"), None)
    except (ValueError, SyntaxError):
        return None
    if isinstance(first, dict) and all(isinstance(v, list) for v in first.values()):
        names = list(first)
        return [dict(zip(names, row, strict=False)) for row in zip(*first.values(), strict=False)]
    if isinstance(first, list) and isinstance(columns, list):
        return [dict(zip(columns, row, strict=False)) for row in first if isinstance(row, tuple | list)]
    if isinstance(first, list) and all(isinstance(r, dict) for r in first):
        return first
    return None


def _dated_rows(rows: list[dict[str, Any]]) -> list[Note] | None:
    """Rows of a year and an event ("1998", "Geology degree, University of Ljubljana") as dated lines; None when the
    rows are no such timeline (an event of fewer than two words in a row: a table of figures)."""
    out: list[Note] = []
    for row in rows:
        values = [str(v).strip() for v in row.values()]
        years = [v for v in values if _YEAR.match(v)]
        words = [v for v in values if not _YEAR.match(v) and len(re.findall(r"[^\W\d_]+", v)) >= 2]
        if len(years) != 1 or not words:
            return None
        out.append(Note(f"{years[0]}: {'; '.join(words)}"))
    return out or None


def python_literals(fence: Fence) -> Loaded | None:
    """A Python cell's literals: a dict assigned or shown, a DataFrame of dated rows."""
    if fence.language not in _PYTHON_LANGUAGES:
        return None
    try:
        tree = ast.parse(fence.code)
    except SyntaxError:
        return None
    data: dict[str, Any] = {}
    timeline: list[Note] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            try:
                value = ast.literal_eval(node)
            except ValueError:
                continue
            if isinstance(value, dict):
                data.update({str(k): v for k, v in value.items()})
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "DataFrame":
            rows = _frame_rows(node)
            dated = _dated_rows(rows) if rows else None
            if dated:
                timeline.extend(dated)
    if timeline:
        data["timeline"] = Note("\n".join(timeline))
    if not data or not (a_profile(data) or timeline):
        return None
    return Loaded(data)


# A DataFrame's printout: a header of column names, then rows opened by their index ("0  1998  Geology degree, …").
_PRINTED_ROW = re.compile(r"^\s*\d+\s{2,}\S")


def frame_printouts(fence: Fence) -> Loaded | None:
    """A printed DataFrame (an unlabelled fence: its header, then rows opened by their index) of dated rows; a
    printed dict (``{'papers': '70+', 'spouse': …}``) as its mapping."""
    if fence.language not in ("", "text", "output"):
        return None
    code = fence.code.strip()
    if code.startswith("{") and code.endswith("}"):
        try:
            value = ast.literal_eval(code)
        except (ValueError, SyntaxError):
            return None
        return Loaded(value) if isinstance(value, dict) and a_profile(value) else None
    lines = [line for line in code.split("\n") if line.strip()]
    if len(lines) < 3 or _PRINTED_ROW.match(lines[0]) or not all(_PRINTED_ROW.match(line) for line in lines[1:]):
        return None
    header = lines[0].split()
    rows = []
    for line in lines[1:]:
        cells = line.split(None, len(header))[1:]  # the index goes; the last column keeps its spaces
        if len(cells) != len(header):
            return None
        rows.append(dict(zip(header, cells, strict=True)))
    dated = _dated_rows(rows)
    return Loaded({"timeline": Note("\n".join(dated))}) if dated else None


# --- a form's fields -----------------------------------------------------------------------------------------------

# "Full name ........ Kwame Adjei-Brennan", "B1 ..... Architecture, …", "Place of birth: Kumasi": a label, a leader of
# dots (or a colon), the value. "[Section A — Speaker]" heads a part of the form; "☒ I confirm …" is the filler's tick.
_FORM_FIELD = re.compile(r"^\s*(?P<key>[^\s.:☐☒☑\[][^.:]{0,60}?)\s*(?:\.{3,}|…+|:)\s*(?P<value>\S.*)$")
_FORM_SECTION = re.compile(r"^\s*\[[^\]]+\]\s*$")
_FORM_TICK = re.compile(r"^\s*[☐☒☑✓✗]")
# A field's code rather than its label ("B1", "C3a", "Field 12", "Text1"): the value says the claim by itself.
_FIELD_CODE = re.compile(r"^(?:[A-Z]{1,2}\d{1,3}[a-z]?|(?:field|text|item|line|box)\s*\d{1,3})$", re.IGNORECASE)


def form_fields(fence: Fence) -> Loaded | None:
    if fence.language not in ("", "text", "txt", "plain"):
        return None
    lines = [line for line in fence.code.split("\n") if line.strip()]
    fields = [m for m in (_FORM_FIELD.match(line) for line in lines) if m is not None]
    other = [line for line in lines if not (_FORM_FIELD.match(line) or _FORM_SECTION.match(line))]
    if len(fields) < 3 or any(not _FORM_TICK.match(line) for line in other):
        return None
    data: dict[str, Any] = {}
    for k, m in enumerate(fields):
        key = m.group("key").strip()
        if _FIELD_CODE.match(key):
            key = f"item {k}"  # a code names no field: a key of its own that no predicate knows
        data.setdefault(key, m.group("value").strip())
    return Loaded(data) if a_profile(data) else None


# --- GEDCOM --------------------------------------------------------------------------------------------------------

_GEDCOM_LINE = re.compile(
    r"^\s*(?P<level>\d{1,2})\s+(?:(?P<pointer>@[^@\s]+@)\s+)?(?P<tag>_?[A-Z][A-Z0-9]{2,4})\b ?(?P<value>.*)$"
)


@dataclass
class _Node:
    tag: str
    value: str
    pointer: str = ""
    children: list[_Node] | None = None

    def kids(self, tag: str) -> list[_Node]:
        return [c for c in self.children or [] if c.tag == tag]

    def first(self, tag: str) -> str:
        found = self.kids(tag)
        return found[0].text() if found else ""

    def text(self) -> str:
        """The value with its CONT (a new line) and CONC (joined) continuations."""
        out = self.value
        for c in self.children or []:
            if c.tag == "CONT":
                out += "\n" + c.value
            elif c.tag == "CONC":
                out += c.value
        return out


def _gedcom_tree(code: str) -> list[_Node] | None:
    lines = [line for line in code.split("\n") if line.strip()]
    matched = [_GEDCOM_LINE.match(line) for line in lines]
    if len(lines) < 3 or any(m is None for m in matched) or matched[0] is None or matched[0].group("level") != "0":
        return None
    roots: list[_Node] = []
    stack: list[tuple[int, _Node]] = []
    for m in matched:
        assert m is not None
        level = int(m.group("level"))
        node = _Node(m.group("tag"), m.group("value").strip(), m.group("pointer") or "", [])
        while stack and stack[-1][0] >= level:
            stack.pop()
        if not stack:
            if level != 0:
                return None
            roots.append(node)
        else:
            parent = stack[-1][1]
            assert parent.children is not None
            parent.children.append(node)
        stack.append((level, node))
    return roots


def _gedcom_name(node: _Node) -> str:
    return " ".join(node.first("NAME").replace("/", " ").split())


def _gedcom_event(node: _Node) -> str:
    """An event's date and place ("1818, Wigan, Lancashire")."""
    return ", ".join(p for p in (node.first("DATE"), node.first("PLAC")) if p)


_GEDCOM_EVENTS = {"BIRT": "born", "DEAT": "died", "BURI": "buried", "BAPM": "baptised", "CHR": "christened"}
_GEDCOM_FIELDS = {"OCCU": "occupation", "EDUC": "education", "RESI": "residence", "NATI": "nationality"}


def gedcom_records(fence: Fence) -> Loaded | None:
    """A GEDCOM record: its first individual (INDI) as a profile, their families' spouses, marriages and children as
    their fields; the individuals a family links to them are no profiles of their own."""
    if fence.language not in ("", "gedcom", "ged", "text"):
        return None
    roots = _gedcom_tree(fence.code)
    people = [n for n in roots or [] if n.tag == "INDI"]
    if not people:
        return None
    by_pointer = {n.pointer: n for n in roots or [] if n.pointer}
    main = people[0]
    profile: dict[str, Any] = {"name": _gedcom_name(main)}
    for child in main.children or []:
        if child.tag in _GEDCOM_EVENTS and (said := _gedcom_event(child)):
            profile[_GEDCOM_EVENTS[child.tag]] = said
        elif child.tag in _GEDCOM_FIELDS and child.text():
            profile[_GEDCOM_FIELDS[child.tag]] = child.text()
        elif child.tag == "NOTE" and child.text():
            profile.setdefault("note", Note(""))
            profile["note"] = Note((profile["note"] + "\n" + child.text()).strip())
    for k, family in enumerate(by_pointer.get(n.value) for n in main.kids("FAMS")):
        if family is None:
            continue
        spouses = [by_pointer.get(n.value) for n in family.children or [] if n.tag in ("HUSB", "WIFE")]
        other = [_gedcom_name(s) for s in spouses if s is not None and s is not main and _gedcom_name(s)]
        married = next((_gedcom_event(n) for n in family.kids("MARR")), "")
        suffix = f" {k + 1}" if k else ""
        if other:
            profile[f"spouse{suffix}"] = f"{other[0]} ({married})" if married[:4].isdigit() else other[0]
        elif married:
            profile[f"married{suffix}"] = married
        children = family.first("NCHI") or (str(len(family.kids("CHIL"))) if family.kids("CHIL") else "")
        if children:
            profile[f"children{suffix}"] = children
    return Loaded(profile) if len(profile) > 1 else None


# --- iCalendar and vCard -------------------------------------------------------------------------------------------

_CALENDAR_START = re.compile(r"^\s*BEGIN:(?:VCALENDAR|VEVENT|VCARD)\s*$", re.MULTILINE)
# A vCard's properties that say something of its person, and what a profile calls them.
_CARD_FIELDS = {"BDAY": "born", "TITLE": "occupation", "ROLE": "role", "ORG": "employer", "NICKNAME": "nickname"}


def _calendar_lines(code: str) -> list[tuple[str, str]]:
    """The (property, value) lines of an iCalendar or vCard text: folded lines unfolded, parameters dropped
    ("DESCRIPTION;LANGUAGE=en:…"), values unescaped ("\\n" a new line, "\\," a comma)."""
    unfolded: list[str] = []
    for line in code.split("\n"):
        if line[:1] in (" ", "\t") and unfolded:
            unfolded[-1] += line[1:]
        else:
            unfolded.append(line.rstrip("\r"))
    out = []
    for line in unfolded:
        name, colon, value = line.partition(":")
        if not colon or not re.fullmatch(r"[A-Z][A-Z0-9-]*(?:;[^:]*)?", name.strip()):
            continue
        value = re.sub(r"\\([nN,;\\])", lambda m: "\n" if m.group(1) in "nN" else m.group(1), value)
        out.append((name.split(";")[0].strip(), value.strip()))
    return out


def calendar_entries(fence: Fence) -> Loaded | None:
    """An iCalendar event (its DESCRIPTION the text about someone; its times, place and title the event's own) or a
    vCard (its name, birthday, title, organisation and note a profile)."""
    if fence.language not in ("", "ics", "ical", "icalendar", "vcard", "vcf", "text") or not _CALENDAR_START.search(
        fence.code
    ):
        return None
    lines = _calendar_lines(fence.code)
    if any(k == "BEGIN" and v == "VCARD" for k, v in lines):
        card: dict[str, Any] = {}
        for k, v in lines:
            if k == "FN" and v:
                card["name"] = v
            elif k in _CARD_FIELDS and v:
                card[_CARD_FIELDS[k]] = v.replace(";", ", ")
            elif k == "NOTE" and v:
                card["note"] = Note(v)
        return Loaded(card) if len(card) > 1 else None
    described = [Note(v) for k, v in lines if k == "DESCRIPTION" and v]
    return (
        Loaded({"description note": described[0]} if len(described) == 1 else {"notes": described})
        if described
        else None
    )


# --- MARC 21 records -----------------------------------------------------------------------------------------------

# A MARC field in its line-per-field display: a tag ("100", "LDR"), its indicators ("1#", "1_", "1\\"), its
# subfields ("$a Kazlauskaitė, Ada, $d 1966-", "‡a …", "|a …"); "=100  1\\$a…" is MarcEdit's form of it.
_MARC_LINE = re.compile(r"^\s*=?(?P<tag>LDR|\d{3})(?:\s+(?P<ind>[0-9#_\\ ]{1,2}))?\s+(?P<body>\S.*)$")
_MARC_SUBFIELD = re.compile(r"(?:^|\s*)[$‡|]([a-z0-9])\s*")
_MARC_LIFE = re.compile(r"^\s*(?P<born>\d{3,4})?\s*-\s*(?P<died>\d{3,4})?[.,]?\s*$")


def _marc_fields(code: str) -> list[tuple[str, list[tuple[str, str]]]] | None:
    """The (tag, [(code, value)]) fields of a MARC record's display, control fields without subfields; None unless
    every line is a field and three of them or more are data fields with subfields."""
    lines = [line for line in code.split("\n") if line.strip()]
    fields: list[tuple[str, list[tuple[str, str]]]] = []
    for line in lines:
        m = _MARC_LINE.match(line)
        if m is None:
            return None
        body = m.group("body")
        parts = [] if m.group("tag").startswith(("00", "LDR")) else _MARC_SUBFIELD.split(body)
        if len(parts) < 3:
            fields.append((m.group("tag"), []))
            continue
        pairs = [(parts[i], parts[i + 1].strip()) for i in range(1, len(parts) - 1, 2)]
        fields.append((m.group("tag"), pairs))
    with_subfields = [f for f in fields if f[1]]
    return fields if len(with_subfields) >= 3 and any(t[0] == "1" for t, _ in with_subfields) else None


def _marc_value(text: str) -> str:
    """A subfield's value without ISBD's closing punctuation and the brackets of a qualifier ("(Ornithologist)")."""
    text = text.strip().rstrip(",:;/").strip()
    return text[1:-1].strip() if text.startswith("(") and text.endswith(")") else text


def _marc_name(value: str) -> str:
    """An inverted heading ("Kazlauskaitė, Ada,") in its reading order ("Ada Kazlauskaitė")."""
    surname, comma, forename = _marc_value(value).partition(", ")
    return f"{forename.strip()} {surname}".strip() if comma else _marc_value(value)


def _marc_span(codes: dict[str, list[str]]) -> str:
    start, end = (codes.get("s") or [""])[0], (codes.get("t") or [""])[0]
    if start and end:
        return f"{_marc_value(start)}–{_marc_value(end)}"
    return f"since {_marc_value(start)}" if start else ""


def marc_records(fence: Fence) -> Loaded | None:
    """A MARC 21 record (authority or bibliographic) shown a field a line: its 100 heading as the name (its "$d"
    dates born and died, its "$c" qualifier the occupation), 370 places, 372 fields of activity, 373 affiliations
    with their "$s"–"$t" years, 374 occupations, 670 source data ("$b") as notes; the leader, control fields,
    cataloguing source (040), variant names (4XX) and codes (375 gender, 377 language) say nothing."""
    if fence.language not in ("", "marc", "marc21", "text"):
        return None
    fields = _marc_fields(fence.code)
    if fields is None:
        return None
    profile: dict[str, Any] = {}
    notes: list[str] = []
    for tag, pairs in fields:
        codes: dict[str, list[str]] = {}
        for c, v in pairs:
            if v:
                codes.setdefault(c, []).append(v)
        if tag in ("100", "110") and "name" not in profile and codes.get("a"):
            profile["name"] = _marc_name(codes["a"][0])
            life = _MARC_LIFE.match(_marc_value((codes.get("d") or [""])[0]) + " ") if codes.get("d") else None
            if life and life.group("born"):
                profile["born"] = life.group("born")
            if life and life.group("died"):
                profile["died"] = life.group("died")
            if codes.get("c"):
                profile["occupation"] = _marc_value(codes["c"][0])
        elif tag == "370":
            for c, key in (("a", "place of birth"), ("b", "place of death"), ("e", "residence")):
                if codes.get(c):
                    profile[key] = "; ".join(_marc_value(v) for v in codes[c])
        elif tag == "372" and codes.get("a"):
            profile["field"] = ", ".join(_marc_value(v) for v in codes["a"])
        elif tag == "373" and codes.get("a"):
            span = _marc_span(codes)
            said = f"{_marc_value(codes['a'][0])} ({span})" if span else _marc_value(codes["a"][0])
            profile.setdefault("affiliation", []).append(said)
        elif tag == "374" and codes.get("a") and "occupation" not in profile:
            profile["occupation"] = ", ".join(_marc_value(v) for v in codes["a"])
        elif tag == "670" and codes.get("b"):
            notes.extend(_marc_value(v) for v in codes["b"])
    if "name" not in profile or len(profile) < 2:
        return None
    if notes:
        profile["notes"] = [Note(n) for n in notes if n]
    return Loaded(profile)


FENCE_READINGS: tuple[Rule[Fence, Loaded], ...] = register(
    Rule(
        "toml-profiles",
        "segment",
        "a TOML fence ('```toml', or unlabelled with '[person]' and 'born = 1938' lines) that holds a person's "
        "profile is read with tomllib as a profile, its tables as sections, a comment of four words or more after a "
        "field as a claim of its own; a program's config stays code",
        ('[person]\nname = "Ada"\nborn = 1815', '[family]\nspouse = "W. King"\nchildren = 3', "reads = false # …"),
        toml_profiles,
    ),
    Rule(
        "ini-profiles",
        "segment",
        "an INI fence ('```ini', or unlabelled: '[kovac_1970]' over 'born = 1970' lines, ';' comments) that holds "
        "a person's profile is read with configparser, a section a profile; 'false'/'no' values are booleans; a "
        "program's config ('[server] port = 8080') stays code",
        ("[a_1970]\nborn = 1970\nspouse = B", "[person]\nname: Ada\nborn: 1815", "award = X, 2016  ; as told"),
        ini_profiles,
    ),
    Rule(
        "script-objects",
        "segment",
        "a TypeScript or JavaScript object literal assigned in a fence ('export const ada: Person = { born: { year: "
        "1815 }, spokenWords: false, … }', 'export default {…}') is read as a profile, quoted or bare keys, nested "
        "objects and arrays, a line comment of four words or more after a field as a claim of its own; interfaces, "
        "types and an object that is no profile are left",
        ("const a: P = { name: 'Ada', born: 1815, spouse: 'W' }", "export default { born: 1815, died: 1852 }", "x"),
        script_objects,
    ),
    Rule(
        "python-literals",
        "segment",
        'a Python fence\'s literals (\'extras = {"spouse": …, "children": …}\', \'pd.DataFrame([(1998, "Geology '
        'degree, …"), …], columns=["year", "event"])\') are read as a profile: a dict\'s keys its fields, a '
        "DataFrame of a year and an event a row as dated lines ('1998: Geology degree, …')",
        ("d = {'born': 1815, 'spouse': 'W'}", "pd.DataFrame([(1998, 'Geology degree, X')], columns=['y', 'e'])", "x"),
        python_literals,
    ),
    Rule(
        "frame-printouts",
        "segment",
        "a printed DataFrame (an unlabelled fence: 'year  event' over '0  1998  Geology degree, …') of a year and an "
        "event a row is read as dated lines, a printed dict ('{'spouse': …, 'children': …}') as a profile",
        ("   year  event\n0  1998  Geology degree, X", "{'spouse': 'A', 'children': 'one son'}", "0  2004  PhD, Y"),
        frame_printouts,
    ),
    Rule(
        "form-fields",
        "segment",
        "a form's field dump in an unlabelled fence ('Full name ........ Kwame …', 'Place of birth: Kumasi', "
        "'[Section A — Speaker]' headers, '☒ I confirm …' ticks) is read as a profile, a field a line; a field "
        "under a code ('B1', 'C3', 'Field 12') is read by its value alone; the ticks are the filler's, no claims",
        ("Full name ...... Ada Quill", "Year of birth: 1815", "C2 ....... Chief planner, X (2005–2015)"),
        form_fields,
    ),
    Rule(
        "gedcom-records",
        "segment",
        "a GEDCOM record ('0 @I1@ INDI', '1 BIRT' / '2 DATE 1818' / '2 PLAC Wigan', '1 NOTE …' / '2 CONT …', a FAM "
        "with HUSB, WIFE, MARR and NCHI) is read as its first individual's profile: born and died with date and "
        "place, occupation, the note's lines, the spouse with the marriage's year and the children; the spouse's "
        "own INDI is no profile",
        ("0 @I1@ INDI\n1 NAME Ada /Quill/", "1 BIRT\n2 DATE 1815\n2 PLAC London", "1 MARR\n2 DATE 1835\n1 NCHI 3"),
        gedcom_records,
    ),
    Rule(
        "calendar-entries",
        "segment",
        "an iCalendar event's DESCRIPTION ('\\n' a new line, '\\,' a comma, folded lines joined) is read as the "
        "lines about its subject, the event's times, place, title and identifiers as none; a vCard's FN, BDAY, TITLE, "
        "ORG and NOTE as a profile",
        (
            "BEGIN:VEVENT\nDESCRIPTION:Born in Kansas City\\, Missouri\\n• 1953: formed a trio",
            "BEGIN:VCARD\nFN:Ada",
            "x",
        ),
        calendar_entries,
    ),
    Rule(
        "marc-records",
        "segment",
        "a MARC 21 record shown a field a line ('100  1# $a Quill, Ada, $d 1815-1852 $c (Mathematician)', '370 ## $a "
        "London', '373 ## $a Royal Society $s 1840 $t 1852', '670 ## $a Source: $b (born 1815)') is read as a profile: "
        "the heading's name in reading order, its dates born and died, its qualifier the occupation, places, fields, "
        "affiliations with their years and the source data as notes; the leader, tags, indicators, subfield codes, "
        "variant names and codes are no claims",
        ("100  1# $a Quill, Ada, $d 1815-", "=100  1\\\\$aQuill, Ada,$d1815-1852", "373 ## $a Royal Society $s 1840"),
        marc_records,
    ),
)


def load(fence: Fence, rules_off: frozenset[str] = frozenset()) -> Loaded | None:
    """The data of a fence in a notation one of ``FENCE_READINGS`` knows (the first that reads it), or None."""
    return run(FENCE_READINGS, fence, rules_off)
