"""An Org-mode outline (Emacs Org: "* Career", "** DONE Head of the unit <2001>--<2019>", "- Born :: 1963"), read as
the markdown it stands for.

- ``#+TITLE: …`` is the title heading; other ``#+KEYWORD:`` lines and ``:PROPERTIES:`` drawers say nothing;
- a headline's stars are its level (under the title), its TODO/DONE keyword, priority ``[#A]`` and ``:tags:`` go;
- a timestamp ``<1996>``, ``[2001-05-03]`` is its date, a range ``<1996>--<1999>`` "1996–1999";
- a description item ``- Born :: 1963`` is a label and its value, "- Born: 1963"; ``/italic/`` and ``*bold*`` are
  markdown's.

Read as text, the stars, keywords and brackets stayed in the facts. The reading asks for an ``org`` fence, or an
answer (or unlabelled fence) whose first lines hold ``#+TITLE:`` and two headlines or more; markdown's own "* item"
bullets (no ``#+`` keyword, no fence) stay.

>>> print(org_outline("```org\\n#+TITLE: Ada\\n* Career\\n** DONE Head of unit <2001>--<2019>\\n- Born :: 1815\\n```"))
# Ada
<BLANKLINE>
## Career
<BLANKLINE>
### Head of unit 2001–2019
<BLANKLINE>
- Born: 1815
"""

from __future__ import annotations

import re

from scoring.segment.lines import replace_fences

_KEYWORD = re.compile(r"^[ \t]*#\+(?P<key>[A-Za-z_]+):[ \t]*(?P<value>.*)$")
_HEADLINE = re.compile(
    r"^(?P<stars>\*+)[ \t]+(?:(?:TODO|DONE|NEXT|WAITING|CANCELLED|CANCELED)[ \t]+)?(?:\[#[A-Z]\][ \t]+)?"
    r"(?P<title>.*?)(?:[ \t]+:[\w@:]+:)?[ \t]*$"
)
_DRAWER = re.compile(r"^[ \t]*:[A-Z]+:[ \t]*$")
_STAMP = re.compile(r"[<\[](?P<date>\d{4}(?:-\d{2}(?:-\d{2})?)?)(?:[ \t][^<>\[\]]*)?[>\]]")
_DESCRIPTION = re.compile(r"^(?P<lead>[ \t]*[-+][ \t]+)(?P<label>[^:\n]+?)[ \t]+::[ \t]+(?P<value>\S.*)$")
_EMPHASIS = re.compile(r"(?<![\w/*])(?P<mark>[/*])(?P<text>[^\s/*](?:[^/*\n]*[^\s/*])?)(?P=mark)(?![\w/*])")
_LEAST_HEADLINES = 2


def _emphasis(m: re.Match[str]) -> str:
    """Org's "/italic/" and "*bold*" as markdown's."""
    mark = "*" if m.group("mark") == "/" else "**"
    return f"{mark}{m.group('text')}{mark}"


def _markdown(code: str) -> str:
    out: list[str] = []
    drawer = False
    for line in code.split("\n"):
        if drawer:
            drawer = line.strip() != ":END:"
            continue
        if _DRAWER.match(line):
            drawer = line.strip() != ":END:"
            continue
        keyword = _KEYWORD.match(line)
        if keyword is not None:
            if keyword.group("key").upper() == "TITLE" and keyword.group("value").strip():
                out.extend([f"# {keyword.group('value').strip()}", ""])
            continue
        line = _STAMP.sub(lambda m: m.group("date"), line).replace("--", "–")
        headline = _HEADLINE.match(line)
        if headline is not None:
            title = _EMPHASIS.sub(lambda m: m.group("text"), headline.group("title"))
            out.extend(["", "#" * min(len(headline.group("stars")) + 1, 6) + " " + title, ""])
            continue
        line = _EMPHASIS.sub(_emphasis, line)
        description = _DESCRIPTION.match(line)
        if description is not None:
            line = f"{description.group('lead')}{description.group('label')}: {description.group('value')}"
        out.append(line.rstrip())
    text = "\n".join(out)
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n")


def _outline(code: str, labelled: bool) -> bool:
    """Whether ``code`` is an Org outline: labelled ``org``, or a ``#+TITLE:`` and two headlines or more."""
    lines = code.split("\n")
    if labelled:
        return True
    titled = any(m is not None and m.group("key").upper() == "TITLE" for m in map(_KEYWORD.match, lines[:5]))
    return titled and sum(bool(_HEADLINE.match(line)) for line in lines) >= _LEAST_HEADLINES


def org_outline(text: str) -> str | None:
    """``text`` with its Org outline (an ``org`` fence, an unlabelled one or the whole answer) as markdown; None when
    it holds none."""
    made = replace_fences(
        text, lambda info, code: _markdown(code) if info in ("org", "") and _outline(code, info == "org") else None
    )
    if made is None and "```" not in text and _outline(text, labelled=False):
        return _markdown(text)
    return made
