"""Entity linking (D-FActScore): each fact group gets the one entity that supports it best.

e*_i = argmax over candidate entities e of the share of group i's facts that e supports. Ties go
to the entity whose name matches the group's name best, then to the knowledge store's ranking.
When several groups pick the same entity, a Hungarian assignment (scipy's
``linear_sum_assignment``) maximises the total number of supported facts instead; a group left
without an entity (more groups than candidates) keeps its own argmax.

Candidates are the entities the knowledge store returns for the group's name, then for the
subject's name, then the pages of the best passages found for that name.

>>> link([[3, 1], [3, 0]])  # both groups prefer entity 0; the assignment gives it to group 1
[1, 0]
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
from rapidfuzz.distance import Levenshtein
from scipy.optimize import linear_sum_assignment

from schemas.knowledge import EntityRef
from scoring.grouping import name_parts
from scoring.protocols import KnowledgeSource
from scoring.rules import rule
from vocabulary import fold_words as fold
from vocabulary.names import familiar_form

MAX_CANDIDATES = 8

QUOTED_NICKNAME_PAGE = rule(
    "quoted-nickname-page",
    "link",
    "a page found by searching a name it does not carry is a candidate when it gives that name in quotes, as a "
    "nickname ('Argentine newspapers call him \"el Puma\"' for an answer about 'el Puma')",
)
FAMILIAR_NAME_PAGE = rule(
    "familiar-name-page",
    "link",
    "a page found by searching a name is a candidate when its title gives the name with a known familiar form of the "
    "given name, or the given name of a familiar form ('Bill Wallis' for 'William Wallis', 'Robert Tiller' for "
    "'Bob Tiller'; vocabulary/names.py)",
)
UNFOUNDED_ASSIGNMENT = rule(
    "unfounded-assignment",
    "link",
    "when several groups prefer one entity, the assignment does not give a group an entity that supports none of its "
    "facts, and that its name points to no better, in place of the one it prefers that supports some: a list item "
    "'Ebbsfleet Gold Cup 2021 (Cantor's Gift)' read as another individual leaves the jockey's own lead line on the "
    "jockey's page, not on his namesake the glaciologist's",
)


def candidate_entities(
    kb: KnowledgeSource,
    names: Sequence[str],
    limit: int = MAX_CANDIDATES,
    pinned: Sequence[EntityRef] = (),
    *,
    nicknames: bool = True,
    familiar: bool = True,
) -> list[EntityRef]:
    """Entities the names can refer to, best first, without duplicates; store search fills up to ``limit``.

    ``pinned`` entities (a request's own documents) are candidates whatever the names, and come first;
    ``limit`` counts the others. ``nicknames``: the rule ``quoted-nickname-page`` is on; ``familiar``:
    ``familiar-name-page``."""
    limit += len(pinned)
    out: dict[str, EntityRef] = {ref.title: ref for ref in pinned}
    for name in dict.fromkeys(n for n in names if n):
        for ref in kb.candidates(name, limit=limit):
            out.setdefault(ref.title, ref)
    if len(out) < limit:
        for name in dict.fromkeys(n for n in names if n):
            for p in kb.search(name, k=limit):
                named = _shares_name(name, p.title, familiar) or (nicknames and _quoted_name(name, p.text))
                if p.title not in out and named:
                    base = p.title.split(" (")[0]
                    out[p.title] = EntityRef(title=p.title, base_name=base, score=p.score)
    return list(out.values())[:limit]


def _quoted_name(name: str, text: str) -> bool:
    """Whether ``text`` gives ``name`` in quotes, as a nickname ('Argentine newspapers call him "el Puma"')."""
    words = name.strip().strip("\"'“”‘’").split()
    if not words:
        return False
    spelled = r"\s+".join(re.escape(w) for w in words)
    return re.search(rf"[\"“‘'](?:the\s+)?{spelled}[\"”’']", text, re.IGNORECASE) is not None


def _close(x: str, y: str) -> bool:
    """One letter apart in a word of four letters or more: "Ahmed"/"Ahmad", "Johnston"/"Johnstone"."""
    return x == y or (min(len(x), len(y)) >= 4 and Levenshtein.distance(x, y) <= 1)


def _shares_name(name: str, title: str, familiar: bool = True) -> bool:
    """Same surname and a compatible first name ("Jon" / "Jonathan", "J." / "John", "Ahmed" / "Ahmad", with
    ``familiar`` a known nickname "Bill" / "William"), or two shared words."""
    a, b = name_parts(name), name_parts(title)
    if not a or not b:
        return False
    if len(set(a) & set(b)) >= min(2, len(set(a))):
        return True
    if not any(_close(a[-1], w) for w in b):
        return False
    return given_names_agree(a[0], b[0], familiar)


def given_names_agree(x: str, y: str, familiar: bool = True) -> bool:
    """Whether two folded given names can be one person's: equal, an initial of the other ("j" / "john"), a short
    form of three letters or more ("jon" / "jonathan"), one letter apart in names of four or more ("ahmed" /
    "ahmad"), or, with ``familiar``, a known familiar form of it ("bill" / "william"). The first-name test of
    ``_shares_name`` (the link step's candidates) and of ``scoring.namesake_links.other_given_name``.

    >>> given_names_agree("j", "john"), given_names_agree("jon", "jonathan"), given_names_agree("ahmed", "ahmad")
    (True, True, True)
    >>> given_names_agree("bill", "william"), given_names_agree("bill", "william", familiar=False)
    (True, False)
    >>> given_names_agree("jo", "john"), given_names_agree("ilse", "thandiwe")
    (False, False)
    """
    if len(x) == 1 or len(y) == 1:
        return x[:1] == y[:1]
    short, long = sorted((x, y), key=len)
    if _close(x, y) or (len(short) >= 3 and long.startswith(short)):
        return True
    return familiar and familiar_form(x, y)


def name_match(group_name: str, entity: EntityRef) -> float:
    """How well a group's name matches an entity's name: 1 exact, 0.5 same surname, 0 otherwise."""
    g = fold(group_name)
    names = [entity.base_name, entity.title, *entity.aliases]
    if any(fold(n) == g for n in names):
        return 1.0
    gp = name_parts(group_name)
    if gp and any(name_parts(n) and name_parts(n)[-1] == gp[-1] for n in names):
        return 0.5
    return 0.0


def link(
    supported: Sequence[Sequence[float]],
    name_scores: Sequence[Sequence[float]] | None = None,
    *,
    founded: bool = True,
) -> list[int | None]:
    """Index of the linked entity per group, from a groups × entities matrix of supported-fact counts.

    ``name_scores`` (same shape) breaks ties; the column order (the store's ranking) breaks the rest.
    A group with no candidate at all links to None. ``founded``: the rule ``unfounded-assignment`` is on.
    """
    n_groups = len(supported)
    if n_groups == 0:
        return []
    n_ent = len(supported[0]) if supported else 0
    if n_ent == 0:
        return [None] * n_groups
    counts = np.asarray(supported, dtype=float)
    names = np.asarray(name_scores, dtype=float) if name_scores is not None else np.zeros_like(counts)
    # Lexicographic preference: support first, name match second, store rank last.
    rank = -np.arange(n_ent, dtype=float) / (n_ent * 100.0)
    pref = counts + names * 0.01 + rank * 0.001
    choice = [int(np.argmax(pref[g])) for g in range(n_groups)]
    if len(set(choice)) == n_groups:
        return list(choice)
    rows, cols = linear_sum_assignment(pref, maximize=True)
    out: list[int | None] = list(choice)
    assigned = dict(zip(rows.tolist(), cols.tolist(), strict=True))
    for g in range(n_groups):
        if g in assigned and not (founded and _unfounded(counts[g], names[g], assigned[g], choice[g])):
            out[g] = assigned[g]
    return out


def _unfounded(counts: np.ndarray, names: np.ndarray, given: int, own: int) -> bool:
    """Whether the assignment gives a group an entity that supports none of its facts (or is barred as another
    person's: -1) and that its name points to no better than to the entity it prefers, which supports some
    (``unfounded-assignment``): the group keeps its choice. Two groups of one person (a list item read as another
    individual) then share that person's page instead of one taking a namesake's page it has no evidence for."""
    return bool(counts[given] <= 0 < counts[own] and names[given] <= names[own])


def set_cover(supports: Sequence[set[int]], prefer: Sequence[int] = ()) -> list[int]:
    """A small set of entities that together support every supported fact (greedy set cover).

    ``supports[f]`` holds the entities supporting fact f; ``prefer`` entities are taken first when
    they cover as much as any other. Used for the number of distinct entities an answer draws on.
    """
    uncovered = {f for f, s in enumerate(supports) if s}
    chosen: list[int] = []
    preferred = list(prefer)
    while uncovered:
        gains: dict[int, int] = {}
        for f in uncovered:
            for e in supports[f]:
                gains[e] = gains.get(e, 0) + 1
        best_gain = max(gains.values())
        best = [e for e, g in gains.items() if g == best_gain]
        pick = next((e for e in preferred if e in best), min(best))
        chosen.append(pick)
        uncovered = {f for f in uncovered if pick not in supports[f]}
    return chosen
