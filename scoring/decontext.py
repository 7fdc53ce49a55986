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


def decontextualize(fact: str, subject: str, name: str, role: str | None = None) -> str:
    """Rewrite ``fact`` so that it names its subject: pronouns, partial names and the role that presented a
    namesake ("The cellist was born …", ``role="cellist"``) become ``name``."""
    if not name:
        return fact
    subj = subject.strip()
    if role and subj.lower() == f"the {role}" and fact.lower().startswith(subj.lower()):
        return name + fact[len(subj) :]
    first = subj.split()[0].lower() if subj.split() else ""
    if subj.lower() in _PRONOUNS:
        named = _SUBJECT_PRONOUN.sub(name, fact, count=1)
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


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]
