"""``other-given-name`` and ``unfitting-namesake``: a person not in the store who shares a name with a stored one
is not linked to that page (the answer is unverifiable), while namesakes the answer is about still link."""

from __future__ import annotations

import pytest

from schemas.enums import Stance, Worthiness
from schemas.knowledge import EntityRef
from scoring.config import CheckConfig
from scoring.decompose import AtomicFact
from scoring.grouping import PerceivedGroup
from scoring.linking import _shares_name, given_names_agree
from scoring.namesake_links import names_activity, other_given_name, stated_occupations
from scoring.plan import PlannedFact, PlannedGroup
from scoring.score import OTHER_GIVEN_NAME, UNFITTING_NAMESAKE, score_groups
from scoring.verify import EntityVerdict


@pytest.mark.parametrize(
    ("name", "known", "other"),
    [
        # Another given name, same surname: another person.
        ("Ilse Rautenbach", "Thandiwe Rautenbach", True),
        ("Marta Kowalczyk", "Anna Kowalczyk", True),
        ("John Smith", "Jane Smith", True),
        # Look-alikes: forms of one name.
        ("T. Rautenbach", "Thandiwe Rautenbach", False),
        ("Jon Reyes", "Jonathan Reyes", False),
        ("Ahmad Khan", "Ahmed Khan", False),
        ("Bill Hale", "William Hale", False),
        ("Billie Trask", "Wilhelmina Trask", False),
        ("Ellen Castellane", "Mary Ellen Castellane", False),
        ("Zoë Ferrán-Okafor", "Zoe Ferran-Okafor", False),
        # Not judged here: no given name, or another surname.
        ("Rautenbach", "Thandiwe Rautenbach", False),
        ("Ilse Rautenbach", "Ilse Vermaak", False),
    ],
)
def test_another_given_name_is_another_person(name: str, known: str, other: bool) -> None:
    assert other_given_name(name, known) is other


@pytest.mark.parametrize(
    ("fact", "occupations"),
    [
        ("Callum Rennick is a Scottish rugby union player born in Galashiels in 1995.", {"player"}),
        ("Marta Kowalczyk was a Polish cellist and teacher.", {"cellist", "teacher"}),
        ("Rafael Oduya is a Kenyan former marathon runner.", {"marathon-runner", "runner"}),
        ("Callum Rennick is Scottish.", set()),
        ("Callum Rennick joined Borders Thistle RFC in 2016.", set()),
        ("Callum Rennick is married to a hockey player.", set()),  # the spouse's occupation
    ],
)
def test_the_occupations_a_fact_states(fact: str, occupations: set[str]) -> None:
    assert stated_occupations(fact) == occupations


@pytest.mark.parametrize(
    ("fact", "occupations"),
    [
        # The subject is the person: a form of the name, or a pronoun.
        ("Rennick is a rugby union player.", {"player"}),
        ("In 2016 he became a rugby union player.", {"player"}),
        ("Callum J. Rennick was a referee and bishop.", {"bishop"}),
        # Someone else: another person's name, a description, a relative of the person's.
        ("Michael J. Rennick is a retired helicopter pilot.", set()),
        ("Another individual is an association football coach.", set()),
        ("Callum Rennick's younger counterpart is a footballer.", set()),
        ("The last person is a priest.", set()),
    ],
)
def test_the_occupations_stated_of_the_person_named(fact: str, occupations: set[str]) -> None:
    assert stated_occupations(fact, "Callum Rennick") == occupations


@pytest.mark.parametrize(
    ("texts", "occupations", "named"),
    [
        (["Rennick was a member of the Scotland national rowing team."], {"rower"}, True),
        (["Rennick played two first-class cricket matches."], {"cricketer"}, True),
        (["Rennick went into politics in 1990."], {"politician"}, True),
        (["Rennick took up cycling at school."], {"cyclist"}, True),
        (["Rennick played rugby for Melrose."], {"rugby-player"}, True),
        # Look-alikes: another activity, or only a broad word's ("played" for "player").
        (["Rennick is a rugby union player.", "Rennick joined Borders Thistle RFC."], {"rower", "bishop"}, False),
        (["Rennick played for Melrose."], {"player"}, False),
        (["Rennick played football for Melrose."], {"cricketer"}, False),
    ],
)
def test_an_answer_names_the_page_occupation_s_activity(texts: list[str], occupations: set[str], named: bool) -> None:
    assert names_activity(texts, occupations) is named


ROWER, BISHOP = "Callum Rennick (rower)", "Callum Rennick (bishop)"
NAMESAKES = [
    EntityRef(title=ROWER, base_name="Callum Rennick", disambiguator="rower"),
    EntityRef(title=BISHOP, base_name="Callum Rennick", disambiguator="bishop"),
]


def _group(name: str, facts: list[tuple[str, set[str]]]) -> PlannedGroup:
    """A group of facts, each supported (0.9) by the pages named, not by the others."""
    planned = []
    for i, (text, by) in enumerate(facts):
        fact = PlannedFact(AtomicFact(text, i, tokens=frozenset({i})), text, Worthiness.FACTUAL)
        for ref in [*NAMESAKES, THANDIWE]:
            yes = ref.title in by
            fact.verdicts[ref.title] = EntityVerdict(
                ref.title, Stance.SUPPORT if yes else Stance.IRRELEVANT, 0.9 if yes else 0.1, 0.0
            )
        fact.attribute(0.1)
        planned.append(fact)
    return PlannedGroup(PerceivedGroup(name, sentences=list(range(len(facts)))), planned)


THANDIWE = EntityRef(title="Thandiwe Rautenbach", base_name="Thandiwe Rautenbach")

RUGBY = [
    ("Callum Rennick is a rugby union player.", {ROWER}),
    ("Callum Rennick made his Scotland debut in 2019.", {ROWER}),
    ("Callum Rennick joined Borders Thistle RFC in 2016.", set()),
    ("Callum Rennick plays as a flanker.", set()),
    ("Callum Rennick has earned 27 caps.", set()),
]


def test_a_namesake_whose_role_and_facts_fit_no_page_is_unverifiable() -> None:
    result = score_groups([_group("Callum Rennick", RUGBY)], NAMESAKES, CheckConfig())
    assert result.unverifiable and result.groups[0].entity is None
    off = score_groups([_group("Callum Rennick", RUGBY)], NAMESAKES, CheckConfig().without([UNFITTING_NAMESAKE]))
    assert not off.unverifiable and off.groups[0].entity == ROWER


@pytest.mark.parametrize(
    ("facts", "entity"),
    [
        # The stated role fits the page's title.
        ([("Callum Rennick is a British rower.", {ROWER}), ("Callum Rennick won a bronze medal.", set())], ROWER),
        # A broader word for it.
        ([("Callum Rennick is a British athlete.", set()), ("Callum Rennick won a bronze medal.", {ROWER})], ROWER),
        # Another role, but most facts are the page's (a wrong role in a true life).
        (
            [
                ("Callum Rennick is a British cyclist.", set()),
                ("Callum Rennick won a bronze medal in 2021.", {ROWER}),
                ("Callum Rennick studied at Mercia University.", {ROWER}),
            ],
            ROWER,
        ),
        # No role stated.
        ([("Callum Rennick won a bronze medal.", {ROWER}), ("Callum Rennick lives in Chester.", set())], ROWER),
        # Another role, but the answer says what the page's person does: not a clear conflict.
        (
            [
                ("Callum Rennick is a British sailor.", set()),
                ("Callum Rennick was a member of the national rowing team.", {ROWER}),
                ("Callum Rennick studied at Mercia University.", set()),
                ("Callum Rennick lives in Chester.", set()),
            ],
            ROWER,
        ),
        # The role stated is another person's (the answer's aside on a relative), not the group's.
        (
            [
                ("Callum Rennick won a bronze medal.", {ROWER}),
                ("Callum Rennick's brother is a footballer.", set()),
                ("Callum Rennick lives in Chester.", set()),
            ],
            ROWER,
        ),
    ],
)
def test_a_namesake_the_answer_fits_is_linked(facts: list[tuple[str, set[str]]], entity: str) -> None:
    result = score_groups([_group("Callum Rennick", facts)], NAMESAKES, CheckConfig())
    assert not result.unverifiable and result.groups[0].entity == entity


BOTANIST = [
    ("Ilse Rautenbach is a South African botanist.", {THANDIWE.title}),
    ("Rautenbach was born in 1949.", set()),
    ("Rautenbach received the Fynbos Society Medal in 2003.", set()),
]


def test_another_given_name_is_not_linked() -> None:
    # The answer names her "Rautenbach"; the question's subject gives her given name.
    result = score_groups([_group("Rautenbach", BOTANIST)], [THANDIWE], CheckConfig(), subject="Ilse Rautenbach")
    assert result.unverifiable and result.groups[0].entity is None
    off = score_groups(
        [_group("Rautenbach", BOTANIST)],
        [THANDIWE],
        CheckConfig().without([OTHER_GIVEN_NAME]),
        subject="Ilse Rautenbach",
    )
    assert not off.unverifiable and off.groups[0].entity == THANDIWE.title


@pytest.mark.parametrize("subject", ["Thandiwe Rautenbach", "T. Rautenbach", ""])
def test_the_same_given_name_or_none_is_linked(subject: str) -> None:
    result = score_groups([_group("Rautenbach", BOTANIST)], [THANDIWE], CheckConfig(), subject=subject)
    assert result.groups[0].entity == THANDIWE.title


@pytest.mark.parametrize(
    ("x", "y", "agree"),
    [
        ("t", "thandiwe", True),  # an initial
        ("jon", "jonathan", True),  # a short form of three letters or more
        ("ahmed", "ahmad", True),  # one letter apart
        ("bill", "william", True),  # a familiar form
        ("ilse", "thandiwe", False),
        ("jo", "john", False),  # a short form of two letters is no form
        ("t", "jane", False),
        ("anna", "hanna", True),
        ("marta", "anna", False),
    ],
)
def test_one_given_name_check_serves_the_link_candidates_and_other_given_name(x: str, y: str, agree: bool) -> None:
    """linking._shares_name's first-name test and other_given_name read given names by one function."""
    assert given_names_agree(x, y) is agree and given_names_agree(y, x) is agree
    name, title = f"{x.capitalize()} Rautenbach", f"{y.capitalize()} Rautenbach"
    assert _shares_name(name, title) is agree
    assert other_given_name(name, title) is (not agree)


def test_the_link_candidates_may_leave_familiar_forms_out() -> None:
    assert not given_names_agree("bill", "william", familiar=False)
    assert not _shares_name("Bill Hale", "William Hale", familiar=False)
    assert _shares_name("Bill Hale", "William Hale") and not other_given_name("Bill Hale", "William Hale")


# --- described-namesake -------------------------------------------------------------------------------------------

UMPIRE, PIANIST = "Callum Rennick (umpire)", "Callum Rennick (pianist)"
ROLE_NAMESAKES = [
    EntityRef(title=UMPIRE, base_name="Callum Rennick", disambiguator="umpire"),
    EntityRef(title=PIANIST, base_name="Callum Rennick", disambiguator="pianist"),
]


def _role_group(facts: list[tuple[str, set[str], Worthiness]]) -> PlannedGroup:
    planned = []
    for i, (text, by, worthiness) in enumerate(facts):
        fact = PlannedFact(AtomicFact(text, i, tokens=frozenset({i})), text, worthiness)
        for ref in ROLE_NAMESAKES:
            yes = ref.title in by
            fact.verdicts[ref.title] = EntityVerdict(
                ref.title, Stance.SUPPORT if yes else Stance.IRRELEVANT, 0.9 if yes else 0.1, 0.0
            )
        fact.attribute(0.1)
        planned.append(fact)
    return PlannedGroup(PerceivedGroup("Callum Rennick", sentences=list(range(len(facts)))), planned)


F, R = Worthiness.FACTUAL, Worthiness.NOT_A_CLAIM


@pytest.mark.parametrize(
    "described",
    [
        ("Callum Rennick is the sculptor.", set(), R),  # an appositive read as a remark
        ("Callum Rennick is the Cornish sculptor.", set(), F),
        ("He was the celebrated novelist.", set(), F),
    ],
)
def test_a_third_namesake_described_by_the_is_linked_to_no_page(described: tuple[str, set[str], Worthiness]) -> None:
    facts = [described, ("Callum Rennick trained in Falmouth.", set(), F), ("Callum Rennick lives in Truro.", set(), F)]
    result = score_groups([_role_group(facts)], ROLE_NAMESAKES, CheckConfig())
    assert result.unverifiable and result.groups[0].entity is None
    off = score_groups([_role_group(facts)], ROLE_NAMESAKES, CheckConfig().without(["described-namesake"]))
    assert not off.unverifiable


@pytest.mark.parametrize(
    ("facts", "entity"),
    [
        # The role the answer gives is the title's, though no listed occupation.
        ([("Callum Rennick is the umpire.", set(), F), ("Callum Rennick stood in 2009.", {UMPIRE}, F)], UMPIRE),
        # Another role, but the answer says what the title's person does ("umpired").
        (
            [
                ("Callum Rennick is the sculptor.", set(), F),
                ("Callum Rennick umpired a first-class match.", {UMPIRE}, F),
                ("Callum Rennick lives in Truro.", set(), F),
            ],
            UMPIRE,
        ),
        # Another role, but most facts are the page's.
        (
            [
                ("Callum Rennick is the composer.", set(), F),
                ("Callum Rennick led a trio from 1986.", {PIANIST}, F),
                ("Callum Rennick won the Marigny Award.", {PIANIST}, F),
            ],
            PIANIST,
        ),
        # "the" before a relative's role: the person's own is not stated.
        (
            [("Callum Rennick is the son of a sculptor.", set(), F), ("Callum Rennick stood in 2009.", {UMPIRE}, F)],
            UMPIRE,
        ),
    ],
)
def test_a_namesake_the_answer_describes_by_the_page_s_role_is_linked(
    facts: list[tuple[str, set[str], Worthiness]], entity: str
) -> None:
    result = score_groups([_role_group(facts)], ROLE_NAMESAKES, CheckConfig())
    assert not result.unverifiable and result.groups[0].entity == entity
