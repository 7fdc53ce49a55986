"""Decontextualisation (Factcheck-Bench step 2): every fact must stand alone.

A fact whose subject is a pronoun or a bare surname is rewritten with its group's name:

>>> decontextualize("He died in 1970.", "He", "Dick Hanley")
'Dick Hanley died in 1970.'
>>> decontextualize("His father was a farmer.", "His father", "Dick Hanley")
"Dick Hanley's father was a farmer."
>>> decontextualize("Hanley coached at Northwestern.", "Hanley", "Dick Hanley")
'Dick Hanley coached at Northwestern.'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from scoring.rules import Rule, register
from vocabulary import SUBJECT_PRONOUNS

_SUBJECT_PRONOUN = re.compile(r"\b(he|she|they)\b", re.IGNORECASE)
_POSSESSIVE = re.compile(r"\b(his|her|their)\b", re.IGNORECASE)
_PRONOUNS = SUBJECT_PRONOUNS
_LEADS = frozenset("the a an another other first second third fourth last latter former one".split())
_POSSESSIVES = frozenset({"his", "her", "their"})


def name_tokens(name: str) -> list[str]:
    """The words of a name without parenthesised disambiguators: "Dick Hanley (swimmer)" -> [dick, hanley]."""
    name = re.sub(r"\([^)]*\)", " ", name)
    return [t for t in re.findall(r"[\w.'’-]+", name.lower()) if t not in (".",)]


_PLURAL_VERB = re.compile(r"(?<=[\w)] )(were|are|have)\b", re.IGNORECASE)
_SINGULAR = {"were": "was", "are": "is", "have": "has"}


def decontextualize(
    fact: str, subject: str, name: str, role: str | None = None, rules_off: frozenset[str] = frozenset()
) -> str:
    """Rewrite ``fact`` so that it names its subject: pronouns, partial names and the role that presented a
    namesake ("The cellist was born …", ``role="cellist"``) become ``name``. ``rules_off``: the readings of
    :data:`DECONTEXT_READINGS` switched off."""
    if not name:
        return fact
    subj = subject.strip()
    if role and subj.lower() == f"the {role}" and fact.lower().startswith(subj.lower()):
        return name + fact[len(subj) :]
    first = subj.split()[0].lower() if subj.split() else ""
    if subj.lower() in _PRONOUNS:
        named = _SUBJECT_PRONOUN.sub(lambda _: name, fact, count=1)  # a name is text, not a template
        if SPELLED_CONTRACTION not in rules_off:
            respelled = _respelled(_Renamed(named, name))
            named = respelled.text if respelled is not None else named
        if subj.lower() == "they":  # a person "they" ("They were born in 1912"): the verb follows the name
            named = _PLURAL_VERB.sub(lambda m: _SINGULAR[m.group(1).lower()], named, count=1)
        return _capitalise(named)
    if first in _POSSESSIVES:
        return _capitalise(_POSSESSIVE.sub(f"{name}'s", fact, count=1))
    full = name_tokens(name)
    words = name_tokens(subj)
    lead = words[: len(words) - len(full)] if len(words) > len(full) else []
    if full and words[-len(full) :] == full and lead and all(w in _LEADS for w in lead) and fact.startswith(subj):
        # "The other Joseph F. Smith was ..." -> "Joseph F. Smith was ...".
        return name + fact[len(subj) :]
    if subj and words and len(words) < len(full) and all(w in full for w in words) and fact.startswith(subj):
        return name + fact[len(subj) :]
    if not subj and fact[:1].isupper():
        # No subject was found: still resolve a leading pronoun ("He also ...").
        m = re.match(r"(He|She|They)\b", fact)
        if m:
            return name + fact[m.end() :]
    return fact


# A subject pronoun's contraction, left glued to the name that replaced it ("he'd ticked off" -> "Matías Loureiro'd
# ticked off", whose "Loureiro'd" no page has): spelled out, as the verb after it says ("had" before a participle,
# "would" before a bare verb; "has" or "is" for "'s", which after "he" is never a possessive).
_CONTRACTED = re.compile(r"['’](d|s|ll|ve|re)\s+(\w+)", re.IGNORECASE)
_IRREGULAR_PARTICIPLES = frozenset(
    "been got gotten won run made had done seen taken written given gone become begun brought built bought caught "
    "come drawn driven fallen felt found fought grown held kept known led left lost met paid put read ridden risen "
    "said sat sold sent set shown spent stood struck sung swum taught thought told understood worn".split()
)


def _participle(word: str) -> bool:
    w = word.lower()
    return w in _IRREGULAR_PARTICIPLES or (len(w) > 3 and w.endswith(("ed", "en")))


def _spelled_contraction(fact: str, name: str) -> str:
    """``fact`` with a contraction right after ``name`` spelled out ("Matías Loureiro'd ticked off …" -> "Matías
    Loureiro had ticked off …", "Kari Berg's been …" -> "Kari Berg has been …", "Kari Berg'll …" -> "… will …")."""
    at = fact.find(name)
    if at < 0:
        return fact
    end = at + len(name)
    m = _CONTRACTED.match(fact, end)
    if m is None:
        return fact
    short, verb = m.group(1).lower(), m.group(2)
    if short == "d":
        full = "had" if _participle(verb) else "would"
    elif short == "s":
        full = "has" if _participle(verb) else "is"
    else:
        full = {"ll": "will", "ve": "has", "re": "is"}[short]
    return f"{fact[:end]} {full} {verb}{fact[m.end() :]}"


@dataclass(frozen=True)
class _Renamed:
    """A fact whose subject pronoun ``name`` replaced."""

    fact: str
    name: str


@dataclass(frozen=True)
class Respelled:
    """A renamed fact with the pronoun's contraction spelled out (``spelled-contraction``)."""

    text: str
    decided_by: str = ""

    def stamped(self, name: str) -> Respelled:
        return replace(self, decided_by=name)


def _respelled(case: _Renamed) -> Respelled | None:
    out = _spelled_contraction(case.fact, case.name)
    return Respelled(out) if out != case.fact else None


# Readings of a fact made to name its subject, each switched off by name.
DECONTEXT_READINGS: tuple[Rule[_Renamed, Respelled], ...] = register(
    Rule(
        "spelled-contraction",
        "decompose",
        "a subject pronoun's contraction, left glued to the name that replaced it, is spelled out as the verb after "
        'it says: "he\'d ticked off" → "Matías Loureiro had ticked off" (not "Matías Loureiro\'d"), "she\'d '
        'rather" → "would", "she\'s been" → "has been", "he\'ll" → "will"',
        ("He'd ticked off every peak by 2010.", "She's been the director since 2015.", "He'll retire in 2030."),
        _respelled,
    ),
)
SPELLED_CONTRACTION = DECONTEXT_READINGS[0].name


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]
