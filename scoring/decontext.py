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
from vocabulary.english import NAMESAKE_REFERENTS
from vocabulary.occupations import OCCUPATIONS

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
    fact: str,
    subject: str,
    name: str,
    role: str | None = None,
    rules_off: frozenset[str] = frozenset(),
    context: tuple[str, ...] = (),
    namesakes: bool = False,
) -> str:
    """Rewrite ``fact`` so that it names its subject: pronouns, partial names and the role that presented a
    namesake ("The cellist was born …", ``role="cellist"``) become ``name``; so does a description of the person
    ("The Glaswegian image-maker learned …") where ``context``, the sentences of the person's group, presents no one
    else so (:data:`DESCRIBED_SUBJECT`). ``namesakes``: the answer presents several individuals, so "The one", "The
    elder", "The latter" point at the group's person (:data:`NAMESAKE_REFERENT`). ``rules_off``: the readings of
    :data:`DECONTEXT_READINGS` switched off."""
    if not name:
        return fact
    subj = subject.strip()
    if role and subj.lower() == f"the {role}" and fact.lower().startswith(subj.lower()):
        return name + fact[len(subj) :]
    if namesakes and NAMESAKE_REFERENT not in rules_off and _referent(subj) and fact.lower().startswith(subj.lower()):
        return name + fact[len(subj) :]
    if context and DESCRIBED_SUBJECT not in rules_off:
        described = _described(_Described(fact, subj, name, context))
        if described is not None:
            return described.text
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

# Asked by name in :func:`decontextualize` (it needs the group's sentences).
DESCRIBED_SUBJECT = "described-subject"
register(
    Rule(
        DESCRIBED_SUBJECT,
        "decompose",
        "a subject that describes the group's person by occupation ('The chemist won …', 'The Glaswegian "
        "image-maker learned …', 'The engineer's firm built …') is read with the person's name, unless the group's "
        "sentences use that word for someone else ('her husband, the chemist', 'the composer Pentti Salo', 'fellow "
        "engineer', a plural); a subject that says more ('The chemist at Arup') or names no occupation ('The "
        "handle', 'The man at the stove') is left as written",
        (
            "The chemist won the Hale Prize in 2001.",
            "The Glaswegian image-maker learned her craft in Glasgow.",
            "The engineer's firm built the bridge in 1999.",
        ),
    ),
)


# Asked by name in :func:`decontextualize` (it needs to know the answer presents several individuals).
NAMESAKE_REFERENT = "namesake-referent"
register(
    Rule(
        NAMESAKE_REFERENT,
        "decompose",
        "in an answer that presents several namesakes, a subject that points at one of them without a name or a role "
        "('The one who founded Quayline is the software engineer', 'The elder trained in Vienna', 'The latter "
        "won …') is read with the name of the group the grouping gave its sentence; in an answer about one person "
        "('The one he built in 1990 still stands') and for a subject that says more ('The elder son', 'The one-time "
        "mayor') it is left as written",
        (
            "The one who founded Quayline is the software engineer.",
            "The elder trained at the Vienna Conservatory.",
            "The latter won the Ashes in 2001.",
        ),
    ),
)


def _referent(subject: str) -> bool:
    """Whether ``subject`` is "the" and a word that points at one of several namesakes ("The one", "The elder")."""
    words = subject.lower().split()
    return len(words) == 2 and words[0] == "the" and words[1] in NAMESAKE_REFERENTS


@dataclass(frozen=True)
class _Described:
    """A fact whose subject may describe the person of its group: the sentences of the group are its context."""

    fact: str
    subject: str
    name: str
    context: tuple[str, ...]


# A description of a person as a subject: "The Glaswegian image maker", "The chemist", "The engineer's" (before
# "firm"): "the", at most three words that modify, and a head that names a person's occupation, or a maker.
_DESCRIPTION = re.compile(r"^[Tt]he\s+(?P<mods>(?:[\w-]+\s+){0,3})(?P<head>[a-z][\w-]*)(?:(?P<poss>['’]s)(?=\s)|$)")
_MODIFIER_STOP = frozenset("of at in on from with who which that and or other another same first last".split())


def _person_head(head: str, mods: list[str]) -> bool:
    last = head.split("-")[-1]
    # a maker is a person's occupation where a place or people describes it ("The Glaswegian image-maker")
    placed = any(w[:1].isupper() or w.lower().endswith("-born") for w in mods)
    return head in OCCUPATIONS or last in OCCUPATIONS or (last == "maker" and placed)


def _presents_another(head: str, context: tuple[str, ...], name: str) -> bool:
    """Whether the group's sentences use ``head`` for someone else: before a name ("the composer Pentti Salo",
    "chemist, Ada Brook"), after a possessive or "fellow" ("her husband, the chemist", "a fellow engineer"), or
    in the plural."""
    h = re.escape(head)
    own = {w.lower() for w in re.findall(r"[\w'’-]+", name)}
    for text in context:
        for m in re.finditer(rf"\b{h}s?\b,?\s+(?P<next>[A-Z][\w'’-]*)", text):
            if m.group("next").lower() not in own | {"i"}:
                return True
        if re.search(rf"\b(?:his|her|their|its|fellow|another|other|[a-z]+['’]s)\s+(?:[\w-]+\s+){{0,2}}{h}\b", text):
            return True
        if re.search(rf"\b{h}s\b", text, re.IGNORECASE):
            return True
        if re.search(
            rf"\b(?:husband|wife|partner|father|mother|brother|sister|son|daughter|teacher|mentor|"
            rf"colleague|friend|rival),?\s+(?:the|a|an)\s+(?:[\w-]+\s+){{0,2}}{h}\b",
            text,
        ):
            return True
    return False


def _described(case: _Described) -> Respelled | None:
    """The fact with a subject that describes its person ("The Glaswegian image maker learned her craft …") read
    with the person's name ("Yusra Qadiri-Lamont learned her craft …"; "The engineer's firm" → "Ada Brook's firm")."""
    m = _DESCRIPTION.match(case.subject)
    if m is None:
        return None
    mods = m.group("mods").split()
    head = m.group("head").lower()
    if any(w.lower() in _MODIFIER_STOP for w in mods) or not _person_head(head, mods):
        return None
    described = m.group(0)
    # The fact's words as written may differ in hyphens ("image-maker" read "image maker").
    pattern = r"\s*[\s-]\s*".join(re.escape(w) for w in re.split(r"[\s-]+", described))
    at = re.match(pattern, case.fact)
    if at is None:
        return None
    if _presents_another(head, case.context, case.name):
        return None
    said = case.name + ("'s" if m.group("poss") else "")
    return Respelled(said + case.fact[at.end() :])


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]
