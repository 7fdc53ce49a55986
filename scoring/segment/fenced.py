"""A code fence that holds a profile (JSON or YAML) read as records: the name first, then one "Label: value" line a
field, which the records reading (``scoring.records``) reads as sentences about the profile's subject.

A list of profiles is one block of records per profile, each keyed ("item:1", "item:2") so that person scopes keep
them apart. A fence that parses as neither, or holds no mapping, is plain text.

>>> [r.text for r in profile_records('{"name": "Kenji Sato", "born": 1951, "awards": ["Mashiko Prize"]}', "json")]
['Kenji Sato', 'Born: 1951', 'Awards: Mashiko Prize']
>>> profile_records("print('hello')", "python") is None
True
"""

from __future__ import annotations

import json
from typing import Any

from scoring.rules import rule
from scoring.segment.tables import Record

FENCED_PROFILES = rule(
    "fenced-profiles",
    "segment",
    'a JSON or YAML profile in a code fence (\'```json {"name": …, "born": 1951}\') is read as records about its '
    "subject, one 'Label: value' line a field ('Born: 1951'), a list of profiles as one block per person",
)

# Keys that name the profile's subject rather than say something of it.
_NAME_KEYS = frozenset(("name", "full name", "person", "subject"))
_LANGUAGES = frozenset(("json", "yaml", "yml", "json5", ""))


def profile_records(code: str, language: str) -> list[Record] | None:
    """The records of a profile fence, or None when the fence holds no profile."""
    if language not in _LANGUAGES:
        return None
    data = _load(code, language)
    if isinstance(data, dict) and len(data) == 1:
        only = next(iter(data.values()))  # {"person": {...}} or {"people": [...]}
        if isinstance(only, dict | list) and only and all(isinstance(x, dict) for x in _as_list(only)):
            data = only
    if isinstance(data, dict) and data:
        return _profile(data, "")
    if isinstance(data, list) and len(data) >= 1 and all(isinstance(x, dict) and x for x in data):
        out: list[Record] = []
        for k, item in enumerate(data, start=1):
            out.extend(_profile(item, f"item:{k}" if len(data) > 1 else ""))
        return out
    return None


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _load(code: str, language: str) -> Any:
    text = code.strip()
    if not text:
        return None
    if language.startswith("json") or (not language and text[:1] in "{["):
        try:
            return json.loads(text)
        except ValueError:
            return None
    import yaml

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return None


def _label(key: str) -> str:
    """ "date_of_birth" → "Date of birth", "notableWorks" → "Notable works"."""
    spaced = "".join(" " + c.lower() if c.isupper() and i else c for i, c in enumerate(key.replace("_", " ")))
    words = spaced.replace("-", " ").split()
    return " ".join(words)[:1].upper() + " ".join(words)[1:]


def _value(value: Any) -> str:
    """A field's value as a record writes it: items joined by commas, a nested mapping by its values."""
    if isinstance(value, dict):
        return ", ".join(v for v in (_value(x) for x in value.values()) if v)
    if isinstance(value, list):
        return ", ".join(v for v in (_item(x) for x in value) if v)
    if value is None or isinstance(value, bool):
        return ""
    return str(value).strip()


def _item(value: Any) -> str:
    """An item of a list: a mapping as its first value with the others in parentheses ("Mashiko Prize (1988)")."""
    if isinstance(value, dict):
        values = [v for v in (_value(x) for x in value.values()) if v]
        return f"{values[0]} ({', '.join(values[1:])})" if len(values) > 1 else "".join(values)
    return _value(value)


def _profile(data: dict[Any, Any], key: str) -> list[Record]:
    fields = [(_label(str(f)), _value(v)) for f, v in data.items()]
    name = next((text for label, text in fields if text and label.lower() in _NAME_KEYS), None)
    out = [Record(name, key, name)] if name else []  # the name leads its records, wherever it stands
    out.extend(Record(f"{label}: {text}", key, name) for label, text in fields if text and text != name)
    return out
