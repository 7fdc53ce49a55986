"""A code fence that holds a profile (JSON or YAML) read as records: the name first, then a line a field, which the
records reading (``scoring.records``) reads as sentences about the profile's subject.

A field under a key that says what its value is of a person ("born", "education", "awards": the records vocabulary,
``vocabulary.records``) is a "Label: value" line; under any other key ("race_win", "captaincy", "holtbreen": a
name the writer gave the field) its value says the claim by itself, and is a list item of its own, without the key
(``fenced-keys``). A list is an item or a line per element; a nested mapping is a section of the profile when its
keys are such fields, else one value ("{"role": "Captain", "team": "Deccan Falcons", "years": "2019–2023"}" is
"Captain, Deccan Falcons (2019–2023)"). A date in parentheses that closes a value is its time ("Captain, Deccan
Falcons (2019–2023)" → "Captain, Deccan Falcons from 2019 to 2023"), not the lifespan of the name before it
(``fenced-dates``).

Several profiles in one fence (a list, a "people" list, or a mapping keyed by each person's name: ``{"Kenji Sato
(potter)": {…}, "Kenji Sato (sprinter)": {…}}``) are one block of records per profile, each keyed ("item:1",
"item:2") so that person scopes keep them apart; so are the profiles of several fences of one answer, when they
present different people (``fenced-people``). A fence that parses as neither, or holds no mapping, is plain text.

>>> code = '{"name": "Kenji Sato", "born": 1951, "awards": ["Mashiko Prize (1988)"]}'
>>> [r.text for r in profile_records(code, "json")]
['Kenji Sato', 'Born: 1951', 'Awards: Mashiko Prize in 1988']
>>> [r.text for r in profile_records('{"name": "Kenji Sato", "race_win": "Kyoto Open winner (2012)"}', "json")]
['Kenji Sato', '- Kyoto Open winner in 2012']
>>> profile_records("print('hello')", "python") is None
True
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

from scoring import nlp
from scoring.rules import rule
from scoring.segment.fence_formats import Fence, Note, key_words, load
from scoring.segment.scopes import person_lead
from scoring.segment.tables import Record
from vocabulary.records import RECORD_PREDICATES

FENCED_PROFILES = rule(
    "fenced-profiles",
    "segment",
    'a JSON or YAML profile in a code fence (\'```json {"name": …, "born": 1951}\') is read as records about its '
    "subject, one 'Label: value' line a field ('Born: 1951'), a list of profiles as one block per person",
)
FENCED_KEYS = rule(
    "fenced-keys",
    "segment",
    'a field of a fenced profile under a key that is no predicate of a person (\'"race_win": "Meridian Ocean Race '
    "winner (2018)\"', 'captaincy: Captain, Deccan Falcons') is read as a list item of its own, without its key: "
    "the value says the claim; a key that is one ('born', 'awards') stays its label",
)
FENCED_DATES = rule(
    "fenced-dates",
    "segment",
    "a date in parentheses that closes a fenced field's value ('Captain, Deccan Falcons (2019–2023)', 'Hansa Prize "
    "(2012)', '(since 2020)') is read as the value's time ('from 2019 to 2023', 'in 2012', 'since 2020'), not as the "
    "lifespan of the name before it",
)
API_ENVELOPES = rule(
    "api-envelopes",
    "segment",
    'a profile or a list of profiles under an API response\'s "data" (\'{"data": {"people": [...]}, "extensions": '
    "{…}}', a GraphQL or REST reply) is read as those profiles; the envelope's other keys (extensions, meta, errors) "
    "are the API's, no fields of anyone",
)
BOOLEAN_FIELDS = rule(
    "boolean-fields",
    "segment",
    "a field whose value is true or false says its key as a claim ('reads_music = false' → 'does not read music', "
    "'stillTeaching: true' → 'still teaching', 'spokenWords: false' → 'no spoken words'), not nothing",
)
PHRASE_KEYS = rule(
    "phrase-keys",
    "segment",
    "a key that is a noun and its participle with a count ('productionsDirected: 46', 'countries_toured = 23') is "
    "read as the phrase it abbreviates ('directed 46 productions'), a key that ends in a preposition ('lives_in: "
    "Sežana', 'renamedTo') as the phrase with its value ('lives in Sežana')",
)
FENCED_PEOPLE = rule(
    "fenced-people",
    "segment",
    'profiles keyed by their person\'s name (\'{"Kenji Sato (potter)": {…}, "Kenji Sato (sprinter)": {…}}\') or '
    "given one fence each are a block of records per person, each its own scope, led by the name (with what tells "
    "the person apart)",
)

# Keys that name the profile's subject rather than say something of it.
_NAME_KEYS = frozenset(("name", "full name", "person", "subject", "who"))
# Keys whose value tells the profile's person apart from namesakes (read as its scope's description).
_DESCRIPTION_KEYS = frozenset(
    ("description", "occupation", "profession", "role", "known as", "known for", "job", "field", "discipline")
)
# Keys that only hold profiles: {"people": [...]}, {"profile": {...}}.
_CONTAINER_KEYS = frozenset(
    "people persons person profile profiles individuals namesakes results entries records data subjects".split()
)
# Keys of a nested mapping's parts that date it ({"title": …, "year": 1988}).
_DATE_KEYS = frozenset("year years date dates period when since from to until start end started ended".split())
_LANGUAGES = frozenset(("json", "yaml", "yml", "json5", ""))

_YEAR = r"(?:1[0-9]{3}|20[0-9]{2})"
_RANGE = re.compile(rf"^(?P<a>{_YEAR})\s*(?:[–—-]|to)\s*(?P<b>{_YEAR}|\d{{2}}|present|now|today)$", re.IGNORECASE)
_YEARS = re.compile(rf"^{_YEAR}(?:\s*(?:,|and|&)\s*{_YEAR})+$")
# A date with its own preposition: "since 2020", "from 2011", "after retiring in 2023", "c. 1950".
_WORDED = re.compile(rf"^(?P<word>since|from|until|till|to|after|before|by|in|around|about|c\.|circa)\s+.*\b{_YEAR}s?$")
_CLOSING = re.compile(r"\s*\((?P<date>[^()]*)\)\s*$")


def profile_records(code: str, language: str, rules_off: frozenset[str] = frozenset()) -> list[Record] | None:
    """The records of a profile fence, or None when the fence holds no profile."""
    people = _people(_load(code, language), rules_off) if language in _LANGUAGES else []
    if not people:
        # a profile in a config or code notation (TOML, INI, an object literal, GEDCOM, …): its own reading
        loaded = load(Fence(code, language), rules_off)
        people = _people(loaded.data, rules_off) if loaded is not None else []
    if not people:
        return None
    out: list[Record] = []
    for k, (hint, profile) in enumerate(people, start=1):
        out.extend(_profile(profile, f"item:{k}" if len(people) > 1 else "", hint, rules_off))
    return out or None


def _people(data: Any, rules_off: frozenset[str]) -> list[tuple[str | None, dict[Any, Any]]]:
    """The profiles of a fence's data, each with the name its key gives it (None when it is given none)."""
    if isinstance(data, list):
        return [(None, x) for x in data if isinstance(x, dict) and x] if data and all(_mapping(x) for x in data) else []
    if not isinstance(data, dict) or not data:
        return []
    if API_ENVELOPES not in rules_off and len(data) >= 2:
        held = [k for k, v in data.items() if key_words(str(k)) in _CONTAINER_KEYS and (_mapping(v) or _profiles(v))]
        rest = [k for k in data if k not in held]
        if len(held) == 1 and not any(_field_key(str(k)) for k in rest):
            # {"data": {...}, "extensions": {...}}: the profiles are under "data", the rest is the API's
            return _people(data[held[0]], rules_off)
    if len(data) == 1:
        key, only = next(iter(data.items()))
        if isinstance(only, list) and only and all(_mapping(x) for x in only):  # {"people": [...]}
            return [(None, x) for x in only]
        container = key_words(str(key)) in _CONTAINER_KEYS
        if _mapping(only) and (container or not _field_key(str(key))):
            # {"person": {...}}, {"Kenji Sato": {...}}: a key that is no container names the profile's person
            return [(None if container or FENCED_PEOPLE in rules_off else str(key), only)]
    if FENCED_PEOPLE not in rules_off and len(data) >= 2 and all(_mapping(v) for v in data.values()):
        if all(_presents(str(k), v) for k, v in data.items()):
            # {"Kenji Sato (potter)": {...}, "Kenji Sato (sprinter)": {...}}: a profile per person, keyed by them
            return [(str(k), v) for k, v in data.items()]
    return [(None, data)]


def _presents(key: str, profile: dict[Any, Any]) -> bool:
    """Whether a key presents the person of the profile under it: the profile names them ({"potter": {"name": …}})
    or the key is a name ("Kenji Sato (potter)"); "early_life", "Achievements" are parts of one profile."""
    if _field_key(key):
        return False
    if any(key_words(str(k)) in _NAME_KEYS for k in profile):
        return True
    lead = person_lead(key)
    return lead is not None and lead.name is not None


def _profiles(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(_mapping(x) for x in value)


def _mapping(value: Any) -> bool:
    return isinstance(value, dict) and bool(value)


def _field_key(key: str) -> bool:
    """Whether a key says what its value is of a person ("born", "awards", "date_of_birth", "name")."""
    return key_words(key) in _NAME_KEYS or _known(key) is not None


# Words that make a key a life record's whatever else it says ("birth_place", "deathDate", "spouse_name").
_LIFE_KEYS = {"birth": "Born", "born": "Born", "death": "Died", "died": "Died", "spouse": "Spouse"}


def _known(key: str) -> str | None:
    """The label the records vocabulary knows a key by ("Birth place" → "Born", "Awards", "Alma mater"), or None."""
    label = _label(key)
    words = key_words(key)
    for form in (words, words.rstrip("s"), words.replace(" ", "")):
        if form in RECORD_PREDICATES:
            return label if form != words.replace(" ", "") or form == words else form.capitalize()
    found = [_LIFE_KEYS[w] for w in words.split() if w in _LIFE_KEYS]
    return found[0] if len(set(found)) == 1 else None


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
        documents = [d for d in yaml.safe_load_all(text) if d is not None]
    except yaml.YAMLError:
        return None
    if len(documents) >= 2 and all(isinstance(d, dict) for d in documents):
        # Two documents or more ("---" between them), each a profile: a list of profiles, one block per person.
        return documents
    return documents[0] if documents else None


def _label(key: str) -> str:
    """A key's words as a record's label: "date_of_birth" → "Date of birth", "notableWorks" → "Notable works",
    "DOB" → "Dob" (the words :func:`key_words` reads, the first capitalised)."""
    words = key_words(key)
    return words[:1].upper() + words[1:]


def _scalar(value: Any) -> str:
    if value is None or isinstance(value, bool):
        return ""
    return str(value).strip()


def _value(value: Any) -> str:
    """A field's value as a record writes it: items joined by commas, a nested mapping as one value."""
    if isinstance(value, dict):
        return _compound(value)
    if isinstance(value, list):
        return ", ".join(v for v in (_value(x) for x in value) if v)
    return _scalar(value)


def _compound(value: dict[Any, Any]) -> str:
    """A nested mapping as one value: what it names joined by commas, what dates it in parentheses at the end
    ({"title": "Mashiko Prize", "year": 1988} → "Mashiko Prize (1988)"; {"from": 2019, "to": 2023} → "2019–2023")."""
    parts: list[str] = []
    dates: dict[str, str] = {}
    for k, v in value.items():
        text = _value(v)
        if not text:
            continue
        key = key_words(str(k))
        if key in _DATE_KEYS:
            dates[key] = text
        else:
            parts.append(text)
    date = _date_of(dates)
    if not parts:
        return date
    return f"{', '.join(parts)} ({date})" if date else ", ".join(parts)


def _date_of(dates: dict[str, str]) -> str:
    start = dates.get("from") or dates.get("start") or dates.get("started")
    end = dates.get("to") or dates.get("until") or dates.get("end") or dates.get("ended")
    if start and end:
        return f"{start}–{end}"
    if dates.get("from") and not end:
        return f"from {start}"  # {"from": 1968}: the word the answer wrote, where its span is found
    if start or dates.get("since"):
        return f"since {start or dates['since']}"
    if end:
        return f"until {end}"
    return next(iter(dates.values()), "")


def dated(text: str) -> str:
    """``text`` with a closing date in parentheses read as its time ("Captain, Deccan Falcons (2019–2023)" →
    "Captain, Deccan Falcons from 2019 to 2023"); ``text`` itself when it closes with none.

    >>> dated("Hansa Prize (2012)"), dated("Head coach, Kjellvik FK (since 2020)")
    ('Hansa Prize in 2012', 'Head coach, Kjellvik FK since 2020')
    >>> dated("Swedish champion (1994, 1997)"), dated("Kenji Sato (potter)")
    ('Swedish champion in 1994 and 1997', 'Kenji Sato (potter)')
    >>> dated("The Ochre Houses (debut novel, 2009)")
    'The Ochre Houses (debut novel) in 2009'
    >>> dated("Correspondent, The Pacific Ledger (2006–2014) (I think)")
    'Correspondent, The Pacific Ledger from 2006 to 2014 (I think)'
    """
    asides = ""
    m = _CLOSING.search(text)
    while m is not None and m.start() > 0 and not re.search(r"\d", m.group("date")):
        # "(2006–2014) (not fully certain)": an aside after the date stays after it
        asides = text[m.start() :] + asides
        text = text[: m.start()]
        m = _CLOSING.search(text)
    if m is None or m.start() == 0:
        return text + asides
    date = m.group("date").strip()
    reading = _time(date)
    kind, comma, last = date.rpartition(",")
    if reading is None and comma and not re.search(r"\d", kind) and (when := _time(last.strip())) is not None:
        reading = f"({kind.strip()}) {when}"  # "(debut novel, 2009)": what the thing is stays beside it
    return (text if reading is None else f"{text[: m.start()]} {reading}") + asides


def _time(date: str) -> str | None:
    """A date as the time it gives a value: "2012" → "in 2012", "2019–2023" → "from 2019 to 2023", "2014–present" →
    "since 2014", "1994, 1997" → "in 1994 and 1997", "since 2020" as it is; None for anything else."""
    if re.fullmatch(_YEAR, date):
        return f"in {date}"
    m = _RANGE.match(date)
    if m is not None:
        end = m.group("b")
        return f"since {m.group('a')}" if not end[:1].isdigit() else f"from {m.group('a')} to {end}"
    if _YEARS.match(date):
        years = re.findall(_YEAR, date)
        return f"in {', '.join(years[:-1])} and {years[-1]}"
    m = _WORDED.match(date)
    if m is not None:
        word = m.group("word").lower()
        return f"around {date[len(word) :].strip()}" if word in ("c.", "circa") else date
    return None


def _read(text: str, rules_off: frozenset[str]) -> str:
    return text if FENCED_DATES in rules_off else dated(text)


def _says_itself(text: str) -> bool:
    """Whether a value says a claim without its key: words, two or more, not only a number with its unit."""
    words = re.findall(r"[^\W\d_]+", text)
    return len(words) >= 2


def _note_lines(note: str) -> list[str]:
    """A note's lines as list items, each said of the profile's person (a bullet of its own dropped)."""
    out = []
    for line in note.split("\n"):
        text = re.sub(r"^\s*(?:[-*•·▸]|\d{1,2}[.)])\s+", "", line).strip()
        if text:
            out.append(f"- {text}")
    return out


# Words that open a key as a verb of its own ("is_active", "has_children", "can_drive").
_AUXILIARIES = frozenset("is was are were has have had can could will does did".split())
_NEGATED = {"can": "cannot", "will": "will not", "does": "does not", "did": "did not"}
# Irregular past participles a key may end in ("puppets_made", "titles_won", "books_written").
_PARTICIPLES = frozenset("made won written built taught held sold given run drawn shown grown sung seen led".split())
_PREPOSITIONS = frozenset("in to at from by for with of on as into".split())


def _participle(word: str) -> bool:
    return word in _PARTICIPLES or (len(word) > 4 and word.endswith("ed"))


def _boolean_line(key: str, value: bool) -> str | None:
    """A true or false field as its claim: "reads_music" false → "did not read music", "still_teaching" true →
    "still teaching"; a noun's false ("spokenWords") is no claim."""
    words = key_words(key).split()
    if not words:
        return None
    if value:
        return "- " + " ".join(words)
    first, rest = words[0], words[1:]
    if first in _AUXILIARIES:
        said = "has no" if first in ("has", "have", "had") else _NEGATED.get(first, f"{first} not")
        return "- " + " ".join([said, *rest])
    doc = nlp.parse_one(f"She {' '.join(words)}.")
    verb = doc[1] if len(doc) > 1 else None
    if verb is not None and verb.tag_ == "VBZ":
        return "- " + " ".join(["did not", nlp.lemma(verb), *rest])  # "did": right whatever the pronoun
    head = doc[len(words)] if len(doc) > len(words) else None
    if head is not None and head.pos_ in ("NOUN", "PROPN"):
        # "spokenWords: false", "driving_licence: false": no verb says what the false is of (uses none? holds
        # none?); a guessed one is a claim the answer did not make. Its comment, if any, is read as written.
        return None
    return "- " + " ".join(["not", *words])


def _verb_first(words: list[str]) -> bool:
    """Whether a key's words open with a verb ("lives in", "moved to", "renamed to"), by a parse of them as a
    sentence's predicate."""
    doc = nlp.parse_one(f"She {' '.join(words)} it.")
    return len(doc) > 1 and doc[1].tag_ in ("VBZ", "VBD", "VBN", "VBP")


def _phrase_line(key: str, value: Any, parent: str = "") -> str | None:
    """A key that abbreviates a phrase, with its value: "productionsDirected" 46 → "directed 46 productions",
    "lives_in" "Sežana" → "lives in Sežana", "renamed_in" 1994 under "company" → "the company was renamed in 1994"."""
    if isinstance(value, bool) or not isinstance(value, str | int | float) or not str(value).strip():
        return None
    words = key_words(key).split()
    text = str(value).strip()
    if len(words) >= 2 and _participle(words[-1]) and re.fullmatch(r"[\d,.]+\+?", text):
        return f"- {words[-1]} {text} {' '.join(words[:-1])}"  # "productions directed" 46
    if parent and _participle(words[0]):
        tail = " ".join(words[1:]) or ("in" if _year_in(text) == text else "")
        return f"- the {parent} was {' '.join(filter(None, [words[0], tail, text]))}"
    if len(words) >= 2 and words[-1] in _PREPOSITIONS and not parent and _verb_first(words):
        return f"- {' '.join(words)} {text}"  # "lives in Sežana", not "first pans from oil drums"
    return None


def _phrased(data: dict[Any, Any], parent: str) -> list[str] | None:
    """A nested mapping with a phrase key ("company": {"founded": 1981, "renamedTo": …}) as its lines: each phrase
    key a line, the other fields one value under the parent's label; None when no key is such a phrase."""
    lines = {k: _phrase_line(str(k), v, parent.lower()) for k, v in data.items()}
    if not any(lines.values()):
        return None
    rest = {k: v for k, v in data.items() if lines[k] is None and not isinstance(v, bool)}
    out = [line for line in lines.values() if line]
    booleans = [line for k, v in data.items() if isinstance(v, bool) and (line := _boolean_line(str(k), v))]
    kept = _compound(rest) if rest else ""
    return ([f"{parent}: {kept}"] if kept else []) + out + booleans


# Keys of a nested mapping's parts that make it one value, not a section: {"title": …, "year": …}, {"from": …}.
_VALUE_PARTS = _DATE_KEYS | {"title", "name"}


def _section(value: dict[Any, Any], rules_off: frozenset[str] = frozenset()) -> bool:
    """Whether a nested mapping is a section of the profile ({"born": …, "education": …}), not one value."""
    if PHRASE_KEYS in rules_off:
        return any(_field_key(str(k)) for k in value)
    return any(_field_key(str(k)) and key_words(str(k)) not in _VALUE_PARTS for k in value)


def _fields(data: dict[Any, Any], rules_off: frozenset[str]) -> list[str]:
    """The record lines of a profile's fields (its name's left out)."""
    out: list[str] = []
    for f, v in data.items():
        label = _label(str(f))
        if label.lower() in _NAME_KEYS:
            continue
        if isinstance(v, Note):
            out.extend(_note_lines(v))  # a comment, a note, a description: lines of their own
            continue
        if isinstance(v, list) and v and all(isinstance(x, Note) for x in v):
            out.extend(line for x in v for line in _note_lines(x))
            continue
        if isinstance(v, bool) and BOOLEAN_FIELDS not in rules_off:
            line = _boolean_line(str(f), v)
            if line:
                out.append(line)
            continue
        if PHRASE_KEYS not in rules_off:
            line = _phrase_line(str(f), v) if not _known(str(f)) else None
            if line is None and isinstance(v, dict) and v and not _section(v):
                lines = _phrased(v, label)
                if lines is not None:
                    out.extend(_read(x, rules_off) for x in lines)
                    continue
            if line is not None:
                out.append(line)
                continue
        known = _known(str(f))
        label = known or label
        written = PHRASE_KEYS not in rules_off and FENCED_KEYS not in rules_off
        if written and not known and str(f)[:1].islower() and re.search(r"_|[a-z][A-Z]", str(f)):
            label = label[:1].lower() + label[1:]  # "panorama_wins" → "panorama wins": the key's letters as written
        if not known and isinstance(v, dict) and v and _section(v, rules_off):
            out.extend(_fields(v, rules_off))  # {"early_life": {"born": …, "education": …}}: a section
            continue
        elements = v if isinstance(v, list) else [v]
        texts = [_read(t, rules_off) for t in (_value(x) for x in elements) if t]
        if not texts:
            continue
        if known or FENCED_KEYS in rules_off:
            if len(texts) > 1 and any("," in t for t in texts):
                out.extend(f"{label}: {t}" for t in texts)  # "Golden Bow Prize, Polish Recording Guild in 2005"
            else:
                out.append(f"{label}: {', '.join(texts)}")
            continue
        if len(texts) > 1 and not any(_says_itself(t) for t in texts) and PHRASE_KEYS not in rules_off:
            out.append(f"{label}: {', '.join(texts)}")  # "panorama_wins": [1971, 1974]: the values on one line
            continue
        for t in texts:
            out.append(f"- {t}" if _says_itself(t) else f"{label}: {t}")
    return out


def _year_in(text: str) -> str | None:
    m = re.search(rf"\b{_YEAR}\b", text)
    return m.group() if m is not None else None


def fence_records(fences: dict[int, tuple[str, str]], rules_off: frozenset[str]) -> dict[int, list[Record]]:
    """The records of each profile fence of one answer (by block index), from its code and language. When two or
    more fences hold one profile each and these present different people, each fence's is keyed as its own
    ("item:1"), so that each opens its person's scope."""
    out = {b: r for b, (code, language) in fences.items() if (r := profile_records(code, language, rules_off))}
    single = {b: r for b, r in out.items() if r and all(x.key == "" for x in r) and r[0].name}
    people = {(r[0].name, r[0].description) for r in single.values()}
    if FENCED_PEOPLE not in rules_off and len(single) >= 2 and len(people) >= 2:
        for b, r in single.items():
            out[b] = [replace(x, key="item:1") for x in r]
    return out


def _profile(data: dict[Any, Any], key: str, hint: str | None, rules_off: frozenset[str]) -> list[Record]:
    named = {key_words(str(f)): _value(v) for f, v in data.items() if not isinstance(v, dict | list)}
    name = next((named[k] for k in ("name", "full name", "person", "subject", "who") if named.get(k)), None) or hint
    description = next((named[k] for k in _DESCRIPTION_KEYS if named.get(k)), None)
    if description is None and hint is not None and name != hint:
        description = hint  # {"potter": {"name": "Kenji Sato", …}}: the key tells the person apart
    born, died = (
        _year_in(named.get(k) or named.get(f"date of {k2}") or "") for k, k2 in (("born", "birth"), ("died", "death"))
    )
    dates = f"{born}–{died}" if born and died else (f"b. {born}" if born else None)
    out = [Record(name, key, name, description, dates)] if name else []  # the name leads its records
    out.extend(Record(text, key, name, description, dates) for text in _fields(data, rules_off) if text != name)
    return out
