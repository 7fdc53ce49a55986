"""Namesakes laid out in one sentence by its structure: the same full name twice, each time with a description
that tells the person apart, the second joined by a coordinator ("There are two: Ada Brook the cellist, who …,
and Ada Brook the ecologist, who …"). Each namesake's part is read as a sentence of its own, so that grouping
sees two people where the sentence names two.

>>> namesake_parts("You may mean Ada Brook the cellist, born in 1950, or Ada Brook the ecologist, born in 1975.")
['You may mean Ada Brook the cellist, born in 1950,', 'Ada Brook the ecologist, born in 1975.']
>>> namesake_parts("Ada Brook was born in Leeds, and Ada Brook Day is held in May.") is None
True

Each part carries the namesake it presents, which grouping keeps apart from the other (a scope of its own), and is
read without the tag when a description follows it ("Ada Brook the cellist, a Polish …" as "Ada Brook, a Polish …"):

>>> namesake_lead("Ada Brook the cellist, a Polish cellist who taught in Gdańsk,")
('Ada Brook', 'cellist')
>>> namesake_tag("Ada Brook the cellist, a Polish cellist who taught in Gdańsk,")
(9, 21)
"""

from __future__ import annotations

import re

from vocabulary.document import NAMESAKE_JOINERS

# The kind of scope a namesake's part opens (``scoring.segment.scopes.Scope.kind``).
NAMESAKE = "namesake"
# A capitalised word of a name ("Zoë", "Ferrán-Okafor", "O'Neill"), letters first.
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
# What tells a namesake apart right after the name, and its words: "the novelist", "the film director," (two words
# before a comma), "(cellist)", ", a Polish painter" (up to a relative word), ", who …", ", born …" (lower case: a
# description, not another name).
_DESCRIBED = re.compile(
    r"^(?:\s+the\s+(?P<role>[a-z][\w-]*(?:\s+[a-z][\w-]*(?=[,.;]))?)|\s*\((?P<paren>[^\W\d][^()]*)\)"
    r"|,\s+(?=(?:an?|the|who|born)\s)(?:(?:an?|the)\s+)?(?P<words>[^,.;()]+?)(?=\s+(?:who|which|that)\b|[,.;]|$))"
)
# A description set off by a comma after a tag: ", a Polish cellist", ", an American lawyer".
_APPOSED = re.compile(r",\s+an?\s")
# Where a description stops naming a role: its dates, a clause ("cellist born in 1950", "who taught …").
_NOT_A_ROLE = re.compile(r"(?:^|\s)(?:born|who|which|that|\d)")
_JOINER = re.compile(r"(?:[,;]\s*)?\b(\w+)\s+$")
# A line that introduces the namesakes ("There are two:", "Two people share the name:").
_LEAD = re.compile(r"^(?P<lead>[^():;]*:)\s+(?P<rest>\S.*)$", re.DOTALL)


def namesake_parts(sentence: str) -> list[str] | None:
    """The sentence's parts, one a namesake (the line that introduces them a part of its own), or None when it
    does not name one person twice, both times described, the second after a joining word."""
    starts = _second_namings(sentence)
    if not starts:
        return None
    parts: list[str] = []
    begin = 0
    for name_at, joiner_at in starts:
        parts.append(sentence[begin:joiner_at].rstrip() + ("," if sentence[joiner_at] == "," else ""))
        begin = name_at
    parts.append(sentence[begin:].strip())
    lead = _LEAD.match(parts[0])
    if lead is not None and _names(lead.group("rest")):
        parts[:1] = [lead.group("lead"), lead.group("rest")]
    return parts


def namesake_lead(part: str) -> tuple[str, str | None] | None:
    """The name a namesake's part opens with and the role that tells that namesake apart ("cellist", "Polish
    painter"; None for a description that names no role: ", who taught …"), or None when the part does not open
    with a described name."""
    names = _names(part)
    if not names or names[0][1] != 0:
        return None
    name, _, end = names[0]
    described = _DESCRIBED.match(part[end:])
    if described is None:
        return None
    if described.group("words") is not None:
        # ", a Polish cellist born in 1950": the role, without the dates; ", who taught …" names none
        role = _NOT_A_ROLE.split(described.group("words"), maxsplit=1)[0].strip()
        return name, role or None
    return name, described.group("role") or described.group("paren")


def namesake_tag(part: str) -> tuple[int, int] | None:
    """Where the tag after a namesake's name is ("Ada Brook[ the cellist], a Polish cellist …") when a description
    set off by a comma follows it, which then says who they are: the part reads as "Ada Brook, a Polish cellist …".
    None for a tag the part needs ("Ada Brook the cellist taught in Gdańsk")."""
    names = _names(part)
    if not names or names[0][1] != 0:
        return None
    end = names[0][2]
    described = _DESCRIBED.match(part[end:])
    if described is None or described.group("role") is None:
        return None
    after = end + described.end()
    if _APPOSED.match(part[after:]) is None:
        return None
    return end, after


def _second_namings(sentence: str) -> list[tuple[int, int]]:
    """(where the name starts, where its joiner starts) for each repeated, described naming after a joiner."""
    seen: dict[str, str] = {}  # name -> the description it was first given
    out: list[tuple[int, int]] = []
    for name, start, end in _names(sentence):
        described = _DESCRIBED.match(sentence[end:])
        if described is None:
            continue
        what = next(d for d in described.groups() if d is not None).lower()  # "cellist", "polish painter"
        if name not in seen:
            seen[name] = what
            continue
        joiner = _JOINER.search(sentence[:start])
        if joiner is None or joiner.group(1).lower() not in NAMESAKE_JOINERS or seen[name] == what:
            continue
        out.append((start, joiner.start()))
    return out


def _names(text: str) -> list[tuple[str, int, int]]:
    """Runs of two or more capitalised words (a full name) with where they start and end."""
    out: list[tuple[str, int, int]] = []
    run: list[re.Match[str]] = []
    for m in [*_WORD.finditer(text), None]:
        if m is not None and m.group()[0].isupper() and (not run or text[run[-1].end() : m.start()] == " "):
            run.append(m)
            continue
        if len(run) >= 2:
            out.append((" ".join(w.group() for w in run), run[0].start(), run[-1].end()))
        run = [m] if m is not None and m.group()[0].isupper() else []
    return out
