"""LLM decomposition and grouping in one call (FActScore's atomic facts + D-FActScore's ``===`` regrouping).

The model lists the answer's atomic facts, each rewritten to stand alone, and puts a line ``===``
wherever the answer itself presents a different individual, with a ``# name`` line naming each
individual as the answer does. One call per answer instead of one per sentence.

>>> groups = parse_decompose("# Dick Hanley\\n- He was born in 1936.\\n===\\n# Dick Hanley\\n- He died in 1970.")
>>> [(g.name, g.facts) for g in groups]
[('Dick Hanley', ['He was born in 1936.']), ('Dick Hanley', ['He died in 1970.'])]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from scoring.errors import LLMOutputError
from scoring.llm.fence import data_rule, fence, nonce

Message = dict[str, str]

PROMPT_VERSION = "decompose-3"

SYSTEM = (
    "You split answers (biographies, descriptions of products, places or events) into atomic facts. An atomic "
    "fact is a short sentence that states exactly one piece of information and names its subject (never 'he', "
    "'she' or 'it'). Keep every claim of the text, add nothing: no number, date or name the text does not have."
)

INSTRUCTIONS = """List the atomic facts of the text below, one per line, each starting with "- ".
Group them by the individual a reader of the text would think each fact is about:
- Start each individual with a line "# <name as the text gives it>".
- Put a line "===" between individuals ONLY where the text itself presents a different person (for example
  "Another John Smith ...", "The other ...", a numbered list of people with the same name). A single narrative
  about one name is ONE individual, even if its facts could belong to different real people. Headings of the
  text ("## Career") do not start another individual.
- State a hedged claim ("I believe ...", "if I recall correctly ...") without the hedge.
- Leave out greetings, questions and remarks about the sources.
- If the text states no facts at all, reply with the single line NO FACTS.

Example:
Text: Joseph F. Smith may refer to: 1. Joseph F. Smith (1838–1918), sixth president of the LDS Church. \
2. Joseph F. Smith, an American politician from Philadelphia.
Facts:
# Joseph F. Smith
- Joseph F. Smith was born in 1838.
- Joseph F. Smith died in 1918.
- Joseph F. Smith was the sixth president of the LDS Church.
===
# Joseph F. Smith
- Joseph F. Smith was an American politician.
- Joseph F. Smith was from Philadelphia.

Example:
Text: Dick Hanley is an American swimmer. He was born in 1936. He coached Northwestern from 1927 to 1934.
Facts:
# Dick Hanley
- Dick Hanley is American.
- Dick Hanley is a swimmer.
- Dick Hanley was born in 1936.
- Dick Hanley coached Northwestern.
- Dick Hanley coached Northwestern from 1927 to 1934.

Example:
Text: Maria Lindqvist is a Swedish sprinter who won the national title in 2011. Another Maria Lindqvist, a \
painter, exhibited her work in Gothenburg in 1998.
Facts:
# Maria Lindqvist
- Maria Lindqvist is Swedish.
- Maria Lindqvist is a sprinter.
- Maria Lindqvist won the national title in 2011.
===
# Maria Lindqvist
- Maria Lindqvist is a painter.
- Maria Lindqvist exhibited her work in Gothenburg in 1998.

Example:
Text: ## Early life
Otto Brenner was born in Graz in 1921.
## Career
He taught physics at the University of Vienna until 1986.
Facts:
# Otto Brenner
- Otto Brenner was born in Graz.
- Otto Brenner was born in 1921.
- Otto Brenner taught physics at the University of Vienna.
- Otto Brenner taught at the University of Vienna until 1986.

Example:
Text: Lena Ferris released these albums:
| Year | Album |
| 1994 | Blue Hours |
| 1997 | North Road |
Facts:
# Lena Ferris
- Lena Ferris released the album Blue Hours in 1994.
- Lena Ferris released the album North Road in 1997.

Example:
Text: The Halden T4 is an electric kettle with a 1.7-litre tank. It boils water in about three minutes and \
comes with a two-year warranty. I believe it was first sold in 2019.
Facts:
# Halden T4
- The Halden T4 is an electric kettle.
- The Halden T4 has a 1.7-litre tank.
- The Halden T4 boils water in about three minutes.
- The Halden T4 comes with a two-year warranty.
- The Halden T4 was first sold in 2019.

Example:
Text: I'm sorry, I couldn't find anything reliable about that person. Could you tell me more about who you mean?
Facts:
NO FACTS
"""

_SEPARATOR = re.compile(r"^\s*={3,}\s*$")
_HEADER = re.compile(r"^\s*(?:#{1,6}\s*|(?:individual|person|group|bio)\s*\d*\s*[:.-]\s*)(.+?)\s*:?\s*$", re.I)
_BULLET = re.compile(r"^\s*(?:[-*•·]|\d{1,3}[.)]|\(\d{1,3}\))\s+(.+?)\s*$")
_FENCE = re.compile(r"^\s*```")
_NO_FACTS = re.compile(r"^\W*no facts\W*$", re.I)
_PREAMBLE = re.compile(r"^\s*(?:here (?:are|is)|sure|certainly|facts?\s*:|the atomic facts|okay)\b", re.I)


@dataclass
class FactList:
    """The facts of one perceived individual, as the model grouped and named them."""

    name: str
    facts: list[str] = field(default_factory=list)


def build_decompose_request(text: str, name: str | None = None) -> list[Message]:
    """Chat messages asking for the atomic facts of ``text`` (fenced: it is data), grouped by perceived
    individual."""
    n = nonce(text, name or "")
    about = f"The text answers a question about:\n{fence(name, n)}\n" if name else ""
    user = f"{INSTRUCTIONS}\n{about}Text:\n{fence(text, n)}\nFacts:"
    return [{"role": "system", "content": f"{SYSTEM} {data_rule(n)}"}, {"role": "user", "content": user}]


def parse_decompose(raw: str, default_name: str = "") -> list[FactList]:
    """The groups of facts in a model answer; ``[]`` for the explicit empty reply ``NO FACTS``; raises
    :class:`LLMOutputError` when no fact can be read.

    Tolerates code fences, a preamble, numbered or starred bullets, "Individual 1: X" headers and
    facts without bullets once a list has started.
    """
    if _NO_FACTS.match(raw):
        return []
    groups: list[FactList] = [FactList(default_name)]
    started = False
    for line in raw.splitlines():
        if not line.strip() or _FENCE.match(line):
            continue
        if _SEPARATOR.match(line):
            if groups[-1].facts:
                groups.append(FactList(default_name))
            continue
        bullet = _BULLET.match(line)
        if bullet:
            fact = _clean(bullet.group(1))
            if fact:
                groups[-1].facts.append(fact)
                started = True
            continue
        header = _HEADER.match(line)
        if header and not line.rstrip().endswith("."):
            # Only "===" starts another individual: a heading among one individual's facts (the answer's own
            # "## Career") does not split them.
            if not groups[-1].facts:
                groups[-1].name = header.group(1).strip(" *:")
            continue
        if _PREAMBLE.match(line) or line.rstrip().endswith(":"):
            continue
        if started and len(line.split()) >= 3:
            groups[-1].facts.append(_clean(line))
    out = [g for g in groups if g.facts]
    if not out:
        raise LLMOutputError("decompose", "no atomic facts in the model's answer", raw)
    for g in out:
        if not g.name:
            g.name = default_name
    return out


def _clean(fact: str) -> str:
    fact = re.sub(r"\*\*|__", "", fact).strip().strip('"“”').strip()
    fact = re.sub(r"\s*\[\d+\]", "", fact)
    if fact and fact[-1] not in ".!?":
        fact += "."
    return fact


_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_CAPITALISED = re.compile(r"\b[A-Z][\w'’-]*")
# Capitalised at the head of a sentence or always, without naming anything.
_COMMON = frozenset(
    "a an the he she it they his her its their this that these those in on at of for by from with as and or but "
    "after before during when while since until i mr mrs ms dr sir st".split()
)
_NUMBER_WORDS = {
    str(i): w
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen twenty".split()
    )
}


def values_not_in(fact: str, answer: str, name: str = "") -> list[str]:
    """The numbers, years and names of ``fact`` that ``answer`` (or the name asked about) does not have.

    Numbers are compared as digits ("1,000" as "1000"; one to twenty also as words); a name's word as its
    first five letters, case ignored ("American" is in "America").

    >>> values_not_in("Dick Hanley was born in 1936 in Chicago.", "Dick Hanley was born in 1936.")
    ['Chicago']
    """
    context = f"{answer} {name}"
    numbers = {n.replace(",", "") for n in _NUMBER.findall(context)}
    words = {w.lower() for w in re.findall(r"\w+", context)}
    stems = {w[:5] for w in words}
    missing: list[str] = []
    for n in _NUMBER.findall(fact):
        digits = n.replace(",", "")
        if digits not in numbers and _NUMBER_WORDS.get(digits) not in words:
            missing.append(n)
    for w in _CAPITALISED.findall(fact):
        low = re.sub(r"['’]s$", "", w.lower())
        parts = [
            p for p in re.findall(r"\w+", low) if len(p) >= 2 and p not in _COMMON and p not in _NUMBER_WORDS.values()
        ]
        if any(p[:5] not in stems for p in parts):  # "Al-Nasir", "O'Reilly": each part
            missing.append(w)
    return missing
