"""The link-and-score step every engine shares (:func:`score_groups`): attribution, linking (argmax share,
Hungarian), FActScore, D-FActScore, bios, entities and conflation from the facts' verdicts."""

from __future__ import annotations

from schemas.check import CheckResult, Evidence, FactGroup, FactResult
from schemas.enums import Stance, Verdict, Worthiness
from schemas.knowledge import EntityRef
from scoring.config import CheckConfig
from scoring.grouping import compatible
from scoring.linking import UNFOUNDED_ASSIGNMENT, link, name_match, set_cover
from scoring.metrics import dfactscore, factscore
from scoring.namesake_links import (
    MOST,
    fits,
    full_name,
    names_activity,
    other_given_name,
    page_occupations,
    stated_occupations,
    title_role,
)
from scoring.plan import PlannedFact, PlannedGroup, by_sentence
from scoring.rules import rule
from scoring.verify import NO_SHARED_CONTENT

SUPPORTED_BETTER_ELSEWHERE = rule(
    "supported-better-elsewhere",
    "link",
    "a fact the linked page supports does not count for it when another candidate's page supports it by more than "
    "the attribution margin (it is attributed there, not to the linked page): 'Dick Hanley's relay team won the "
    "silver medal' is the swimmer's (0.71 on the coach's page through 'team' and 'won', far more on the swimmer's)",
)
LONGER_FACT_ELSEWHERE = rule(
    "longer-fact-elsewhere",
    "link",
    "a fact made of a subset of a longer fact's words does not count for the linked page when every longer fact of "
    "its sentence is supported, and only by other pages: its sentence is another namesake's, and its support on "
    "the linked page a shared word ('Earlier Harlan Beckwith set a record' on the painter's page: 'a set of 24 "
    "canvases', while 'set a record in 1932' is the aviator's)",
)
OTHER_GIVEN_NAME = rule(
    "other-given-name",
    "link",
    "a page whose person has the answer's surname and another given name (not an initial, a short form, a "
    "spelling one letter apart or a known nickname of it) is another person's: the group is not linked to it "
    "('Ilse Rautenbach' is not the store's 'Thandiwe Rautenbach')",
)
UNFITTING_NAMESAKE = rule(
    "unfitting-namesake",
    "link",
    "a namesake's page whose title gives none of the occupations the answer states for the person ('(rower)', "
    "'(bishop)' for 'is a rugby union player') and which supports fewer than half of the group's facts is another "
    "person's: the group is not linked to it ('Callum Rennick is a rugby union player' against the rower's and "
    "the bishop's pages)",
)

DESCRIBED_NAMESAKE = rule(
    "described-namesake",
    "link",
    "for 'unfitting-namesake', the occupation an answer states for its person may be set off by 'the' ('Ada "
    "Quill, the Cornish sculptor, …' read 'X is the sculptor', in any of the group's facts, a remark's too), and a "
    "page's title may give a role in one or two words of lower case that is no listed occupation ('(umpire)', "
    "'(lighthouse keeper)'): a third namesake the answer describes is then linked to neither stored one",
)
LEAD_AFTER_PEOPLE = rule(
    "lead-after-people",
    "link",
    "an answer's words around the people its structure presents (a preamble before two headings, bold leads or "
    "table rows of people: 'Ja / Yes — zwei Personen', 'It is a coincidence that two Germans named …'), when no "
    "page supports any of their facts, are reported after the people: the answer is about the first person it "
    "presents, not about its preamble (which stays unlinked and counts in FActScore as before)",
)

NAMESAKE_FACT_ONCE = rule(
    "namesake-fact-once",
    "link",
    "a fact only a namesake's page holds (`_distinctive`, which counts twice towards conflation_min_facts) counts "
    "once where that namesake is another group's page in the same answer: an answer that tells the two apart and "
    "gives one of the namesake's values to the wrong one has crossed a value, not merged two people (two such facts "
    "still flag the group)",
)


def score_groups(
    groups: list[PlannedGroup],
    candidates: list[EntityRef],
    config: CheckConfig,
    grounded: bool = False,
    subject: str = "",
) -> CheckResult:
    """Link each group, then FActScore, D-FActScore, bios, entities and conflation from the facts' verdicts.

    Shared by the offline and the LLM engine: every factual fact must hold a verdict per candidate.
    ``grounded``: the candidates are the request's own documents, which the answer is always judged by
    (never ``unverifiable``: a claim none of them supports is ungrounded). ``subject``: the name the answer was
    asked about, a form of a group's name with its given name where the answer gives only the surname.
    """
    titles = [c.title for c in candidates]
    # Support decides the link; attribution (the fact's closest source) breaks near-ties.
    counts = [
        [sum(1.0 + 0.5 * (t in f.attributed) for f in g.factual if f.verdicts[t].supported) for t in titles]
        for g in groups
    ]
    names = [[name_match(g.individual.label, c) for c in candidates] for g in groups]
    # Pages of another person of the name (``other-given-name``, ``unfitting-namesake``): no link, no evidence
    # that the answer is about anyone the store knows.
    barred = [[not grounded and _barred(g, c, subject, config) for c in candidates] for g in groups]
    for gi, row in enumerate(barred):
        for ti, bar in enumerate(row):
            if bar:
                counts[gi][ti], names[gi][ti] = -1.0, 0.0
    # Beside other groups, a group none of whose facts any page supports is linked to no page: it must
    # not take a page from a group that has evidence for it. Alone, its name still points to its page.
    alone = len(groups) == 1
    links = [
        e if e is not None and not barred[gi][e] and (alone or any(c > 0 for c in counts[gi])) else None
        for gi, e in enumerate(link(counts, names, founded=config.on(UNFOUNDED_ASSIGNMENT)))
    ]
    linked: dict[int, str | None] = {i: (titles[e] if e is not None else None) for i, e in enumerate(links)}

    all_supports: list[set[int]] = []
    independent: list[bool] = []
    # What each fact counts as evidence of another person: as for conflation, a distinctive fact counts twice.
    weights: list[int] = []
    any_flags: list[bool] = []
    group_flags: list[list[bool]] = []
    conflated: dict[int, bool] = {}
    # The pages the answer's other groups are linked to: namesakes it describes on their own.
    described = [{t for gj, t in linked.items() if gj != gi and t is not None} for gi in range(len(groups))]
    for gi, g in enumerate(groups):
        flags: list[bool] = []
        others = 0
        factual = g.factual
        siblings = by_sentence(factual)
        for fact in factual:
            support = {ti for ti, t in enumerate(titles) if t in fact.attributed}
            all_supports.append(support)
            # "wrote the song" and "wrote the song in 1971" are one piece of evidence for a source, not two.
            independent.append(not _dominated(fact, siblings[fact.atom.sentence_index]))
            any_flags.append(bool(support))
            own = linked[gi] is not None and fact.verdicts[linked[gi] or ""].supported
            if own and config.on(SUPPORTED_BETTER_ELSEWHERE) and fact.attributed and linked[gi] not in fact.attributed:
                own = False
            if own and config.on(LONGER_FACT_ELSEWHERE) and _longer_elsewhere(fact, siblings, linked[gi] or ""):
                own = False
            flags.append(own)
            twice = _distinctive(fact, linked[gi]) and not (
                config.on(NAMESAKE_FACT_ONCE) and support and {titles[ti] for ti in support} <= described[gi]
            )
            weights.append((2 if twice else 1) if independent[-1] else 0)
            if support and not own and independent[-1]:
                others += weights[-1]
        group_flags.append(flags)
        conflated[gi] = linked[gi] is not None and others >= config.conflation_min_facts and any(group_flags[gi])
    prefer = [e for e in links if e is not None]
    cover = set_cover(all_supports, prefer)
    entities = [
        e for e in cover if e in prefer or _covers(e, cover, all_supports, weights) >= config.conflation_min_facts
    ]

    results = [group_result(g, linked[gi], conflated[gi]) for gi, g in enumerate(groups)]
    facts = [f for g in groups for f in g.factual]
    covered = [any(v.stance is not Stance.IRRELEVANT for v in f.verdicts.values()) for f in facts]
    coverage = round(sum(covered) / len(covered), 4) if covered else None
    about_anyone = any(
        c > 0 or n >= 1.0 for gc, gn in zip(counts, names, strict=True) for c, n in zip(gc, gn, strict=True)
    )
    if not grounded and not about_anyone:
        # No page is about anyone the answer describes (no page supports a fact, none bears a group's
        # name): nothing here can say whether the facts are true. An invented life of a person the
        # store knows by that name is still checked, and scores 0.
        return CheckResult(
            unverifiable=True,
            coverage=coverage,
            num_facts=len(any_flags),
            num_bios=len(groups),
            groups=results,
            engine="offline",
        )
    return CheckResult(
        abstained=False,
        coverage=coverage,
        factscore=factscore(any_flags),
        dfactscore=dfactscore(group_flags),
        num_facts=len(any_flags),
        num_bios=len(groups),
        num_entities=len(entities),
        groups=results,
        engine="offline",
    )


def lead_after_people(
    groups: list[PlannedGroup], result: CheckResult, config: CheckConfig
) -> tuple[list[PlannedGroup], CheckResult]:
    """``groups`` and ``result`` with an unlinked lead (``lead-after-people``) after the people, who keep their order
    as written; unchanged when no group is linked or the rule is off. The two lists stay index for index."""
    if not config.on(LEAD_AFTER_PEOPLE) or not any(r.entity for r in result.groups):
        return groups, result
    order = sorted(range(len(groups)), key=lambda gi: groups[gi].individual.lead and result.groups[gi].entity is None)
    if order == list(range(len(groups))):
        return groups, result
    return [groups[gi] for gi in order], result.model_copy(update={"groups": [result.groups[gi] for gi in order]})


def _barred(g: PlannedGroup, candidate: EntityRef, subject: str, config: CheckConfig) -> bool:
    """Whether ``candidate``'s page is another person's than group ``g``'s (see the two rules)."""
    if config.on(OTHER_GIVEN_NAME):
        forms = [g.individual.name, *sorted(g.individual.forms), subject]
        full = full_name(n for n in forms if n and compatible(n, g.individual.name))
        known = [n for n in (candidate.base_name, *candidate.aliases) if n]
        if full and known and all(other_given_name(full, n) for n in known):
            return True
    if not config.on(UNFITTING_NAMESAKE) or not candidate.disambiguator:
        return False
    factual = g.factual
    stated = frozenset().union(*(stated_occupations(f.text, g.individual.name) for f in factual))
    described = config.on(DESCRIBED_NAMESAKE)
    if described:  # "X, the Cornish sculptor, …": read "X is the sculptor", whatever its worthiness
        stated |= frozenset().union(*(stated_occupations(f.text, g.individual.name, True) for f in g.facts))
    # The title's "(rower)" says whom the page is about; its passages name other people's occupations too ("His
    # partner is the hockey player …").
    given = page_occupations(candidate.disambiguator, ())
    if not given and described:
        given = title_role(candidate.disambiguator)
    if not stated or not given or fits(stated, given):
        return False
    # An answer that says what the page's person does ("competed in rowing" for "(rower)") may be about them.
    if names_activity((f.text for f in factual), given):
        return False
    supported = sum(1 for f in factual if (v := f.verdicts.get(candidate.title)) is not None and v.supported)
    return supported < MOST * len(factual)


def _covers(entity: int, cover: list[int], supports: list[set[int]], weights: list[int]) -> int:
    """The weight of the independent facts ``entity`` is the chosen source of in the greedy ``cover`` (earlier
    picks win): one per fact, two for a fact only its page can hold (:func:`_distinctive`)."""
    before = set(cover[: cover.index(entity)])
    return sum(w for s, w in zip(supports, weights, strict=True) if entity in s and not (s & before))


def _distinctive(fact: PlannedFact, linked: str | None) -> bool:
    """The fact's years and names are all on another supporting page and missing from the linked one
    ("born in 1936" with the swimmer's page saying 1936 and the coach's 1894): proof of a merge on its own."""
    own = fact.verdicts.get(linked or "")
    if own is None:
        return False
    # A linked page that shares no word with the fact at all holds none of its years and names either.
    keys = 0.0 if own.decided_by == NO_SHARED_CONTENT else own.key_terms
    if keys is None or keys >= 0.5:
        return False
    return any((fact.verdicts[t].key_terms or 0.0) >= 0.75 for t in fact.attributed if t != linked)


def _longer_elsewhere(fact: PlannedFact, siblings: dict[int, list[PlannedFact]], linked: str) -> bool:
    """Every fact of ``fact``'s sentence that says it and more (a superset of its words) is supported, and none
    by ``linked`` (see :data:`LONGER_FACT_ELSEWHERE`); False when no fact says more."""
    longer = [
        other
        for other in siblings.get(fact.atom.sentence_index, [])
        if other is not fact and fact.atom.tokens < other.atom.tokens
    ]
    return bool(longer) and all(
        any(v.supported for v in other.verdicts.values()) and not other.verdicts[linked].supported for other in longer
    )


def _dominated(fact: PlannedFact, facts: list[PlannedFact]) -> bool:
    """True when another fact of the same sentence says this and more, from the same sources (``facts``: the
    group's facts, or only those of its sentence, :func:`scoring.plan.by_sentence`)."""
    for other in facts:
        if other is fact or other.atom.sentence_index != fact.atom.sentence_index:
            continue
        if fact.atom.tokens < other.atom.tokens and (fact.attributed & other.attributed or not fact.attributed):
            return True
    return False


def group_result(g: PlannedGroup, entity: str | None, conflated: bool) -> FactGroup:
    facts: list[FactResult] = []
    for fact in g.facts:
        if fact.worthiness is not Worthiness.FACTUAL or not fact.verdicts:
            facts.append(
                FactResult(
                    text=fact.text,
                    sentence_index=fact.atom.sentence_index,
                    worthiness=fact.worthiness,
                    verdict=Verdict.IRRELEVANT,
                    stance=Stance.IRRELEVANT,
                    decided_by=fact.worthiness_rule or "no-candidates",
                    spans=fact.spans,
                    hedged=fact.hedged,
                )
            )
            continue
        supporting = [t for t in fact.verdicts if t in fact.attributed]
        any_support = any(v.supported for v in fact.verdicts.values())
        own = fact.verdicts.get(entity) if entity else None
        best = own or max(fact.verdicts.values(), key=lambda v: v.support)
        evidence: list[Evidence] = list(best.evidence)
        if own is not None and not own.supported and supporting:
            other = max((fact.verdicts[t] for t in supporting), key=lambda v: v.support)
            evidence.extend(other.evidence[:1])
        facts.append(
            FactResult(
                text=fact.text,
                sentence_index=fact.atom.sentence_index,
                worthiness=fact.worthiness,
                verdict=Verdict.SUPPORTED if any_support else Verdict.NOT_SUPPORTED,
                verdict_linked=Verdict.SUPPORTED if own is not None and own.supported else Verdict.NOT_SUPPORTED,
                stance=best.stance,
                entity_supporting=supporting,
                confidence=best.support if best.supported else 1.0 - best.support,
                evidence=evidence,
                decided_by=best.decided_by,
                spans=fact.spans,
                hedged=fact.hedged,
            )
        )
    return FactGroup(
        mention=g.individual.label,
        entity=entity,
        conflated=conflated,
        facts=facts,
    )
