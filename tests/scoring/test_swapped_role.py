"""The ``swapped-role`` verify rule: a fact that gives a named person another occupation than the page gives them
beside their name is refuted; a second role the page also gives, a broader word, one word's other form and a
person the page gives no role are left to the model."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.enums import Stance
from scoring.named_roles import named_roles, same_role, swapped_role
from scoring.verifier import OfflineVerifier
from scoring.verify import SWAPPED_ROLE, EvidenceVerifier, VerifyConfig

NAME = "Ingrid Solberg"
PAGE = (
    "Ingrid Solberg (born 1961 in Oslo) is a Norwegian cellist and conductor. She was married to the soprano Kari "
    "Bråthen, who sang in her first opera. Her brother is Ruth Ellison, a retired schoolteacher. She later married "
    "the former hurdler Mercy Chebet. The violinist and violist Arne Vik played in her quartet. She toured with "
    "Piotr Zając (oboist) in 1999. She studied with Lars Holm in Bergen."
)
EXCLUDE = (NAME, NAME)


@pytest.mark.parametrize(
    ("fact", "swapped"),
    [
        # Another occupation than the page's, before the name or set off after it.
        ("Ingrid Solberg was married to the pianist Kari Bråthen.", True),
        ("Ingrid Solberg later married the former marathon runner Mercy Chebet.", True),
        ("Ingrid Solberg's brother is Ruth Ellison, a nurse.", True),
        ("Ingrid Solberg toured with the flautist Piotr Zając in 1999.", True),
        ("Ingrid Solberg was married to Kari Bråthen, a well-known painter.", True),
        # Look-alikes: the page's own role, a second role it gives, a broader word, the same word's other form.
        ("Ingrid Solberg was married to the soprano Kari Bråthen.", False),
        ("Ingrid Solberg was married to the singer Kari Bråthen.", False),
        ("Ingrid Solberg was married to the musician Kari Bråthen.", False),
        ("Arne Vik, a violist, played in Ingrid Solberg's quartet.", False),
        ("Ingrid Solberg later married the former athlete Mercy Chebet.", False),
        ("Ingrid Solberg later married the runner Mercy Chebet.", False),
        ("Ingrid Solberg's brother is Ruth Ellison, a teacher.", False),
        # No role on the page for that person, no role in the fact, a word that is no occupation.
        ("Ingrid Solberg studied with the pianist Lars Holm.", False),
        ("Ingrid Solberg was married to Kari Bråthen.", False),
        ("Ingrid Solberg was married to her partner Kari Bråthen.", False),
        # The subject's own occupations the page gives anywhere, not beside the name.
        ("The conductor Ingrid Solberg was born in Oslo.", False),
    ],
)
def test_a_role_the_page_gives_the_person_otherwise(fact: str, swapped: bool) -> None:
    assert (swapped_role(fact, [PAGE], EXCLUDE) is not None) is swapped


@pytest.mark.parametrize(
    ("text", "roles"),
    [
        ("She married the bassist Eddie Coles in 1955.", [("eddie coles", "bassist")]),
        ("He is married to the British oceanographer Peter Hale.", [("peter hale", "oceanographer")]),
        ("He is married to Line Strand, a physiotherapist.", [("line strand", "physiotherapist")]),
        ("She lives with her husband, the photographer Daniel Leclair.", [("daniel leclair", "photographer")]),
        ("Married to former marathon runner Mercy Chebet", [("mercy chebet", "marathon-runner")]),
        ("The structural engineer Lucas Hemmer designed it.", [("lucas hemmer", "structural-engineer")]),
        ("Lucas Hemmer (architect) designed it.", [("lucas hemmer", "architect")]),
        # No occupation beside the name.
        ("She married Eddie Coles in 1955.", []),
        ("Her husband Daniel Leclair, who plays the oboe, lives in Toronto.", []),
        ("Lucas Hemmer (born 1961) designed it.", []),
    ],
)
def test_the_role_beside_a_name(text: str, roles: list[tuple[str, str]]) -> None:
    assert [(" ".join(r.person), r.role) for r in named_roles(text)] == roles


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("pianist", "pianist", True),
        ("musician", "pianist", True),
        ("runner", "marathon-runner", True),
        ("athlete", "hurdler", True),
        ("director", "film-director", True),
        ("singer-songwriter", "singer", True),
        ("dramatist", "playwright", True),
        ("author", "novelist", True),
        ("fiddler", "violinist", True),
        ("fiddler", "piper", False),
        ("pianist", "soprano", False),
        ("marathon-runner", "hurdler", False),
        ("structural-engineer", "landscape-architect", False),
        ("composer", "cinematographer", False),
    ],
)
def test_which_roles_say_the_same(a: str, b: str, same: bool) -> None:
    assert same_role(a, b) is same and same_role(b, a) is same


def test_a_synonym_of_the_pages_role_is_no_swap() -> None:
    page = "Castelvecchi is married to the playwright Samuel Orr and lives in Newport."
    assert swapped_role("She lives with her husband, the dramatist Samuel Orr.", [page], ("Oona Castelvecchi",)) is None
    assert swapped_role("She lives with her husband, the painter Samuel Orr.", [page], ("Oona Castelvecchi",)) == 0


@pytest.fixture
def kb() -> Store:
    return Store.in_memory([(NAME, PAGE, [])])


def test_the_rule_refutes_and_steps_aside_when_off(kb: Store, verifier: OfflineVerifier) -> None:
    fact = "Ingrid Solberg was married to the pianist Kari Bråthen."
    on = EvidenceVerifier(kb, verifier).against(fact, NAME, NAME)
    assert (on.stance, on.decided_by) == (Stance.REFUTE, SWAPPED_ROLE)
    assert on.evidence[0].stance is Stance.REFUTE and "soprano Kari Bråthen" in on.evidence[0].text
    off = EvidenceVerifier(kb, verifier, config=VerifyConfig(rules_off=frozenset({SWAPPED_ROLE}))).against(
        fact, NAME, NAME
    )
    assert off.decided_by != SWAPPED_ROLE


@pytest.mark.parametrize(
    "fact",
    [
        "Ingrid Solberg was married to the singer Kari Bråthen.",
        "Ingrid Solberg was married to the musician Kari Bråthen.",
        "Ingrid Solberg later married the former athlete Mercy Chebet.",
    ],
)
def test_a_broader_word_for_the_pages_role_is_still_supported(kb: Store, verifier: OfflineVerifier, fact: str) -> None:
    verdict = EvidenceVerifier(kb, verifier).against(fact, NAME, NAME)
    assert verdict.supported and verdict.decided_by != SWAPPED_ROLE
