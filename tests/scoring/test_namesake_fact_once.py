"""``namesake-fact-once`` (link) and ``described-namesake-stays`` (revise): an answer that tells two namesakes apart
and gives one of them a value of the other (an employer, a school, an award) has crossed a value, not merged two
people. The one fact does not flag the group as merging two individuals, and revision corrects or deletes it rather
than moving it out as "Another X, a …" about a namesake the answer already describes."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.check import CheckResult
from scoring.pipeline import check, default_config
from scoring.revise import DESCRIBED_NAMESAKE_STAYS
from scoring.score import NAMESAKE_FACT_ONCE
from scoring.verifier import OfflineVerifier
from tests.scoring.test_crossed_value import GLASS, GLASS_TEXT, WATER, WATER_TEXT

BOTH = (
    "There are two people named Tamsin Oduya.\n\n"
    "Tamsin Oduya the hydrologist (1931 – 2004) was born in Perth, studied at the Tay Institute and died in "
    "Inverness.\n\nTamsin Oduya the glassmaker was born in Galway in 1974. She opened her studio in Westport in 2001. "
)
ALONE = "Tamsin Oduya is an Irish glassmaker born in Galway in 1974. She opened her studio in Westport in 2001. "
OFF = frozenset({NAMESAKE_FACT_ONCE, DESCRIBED_NAMESAKE_STAYS})


@pytest.fixture(scope="module")
def kb() -> Store:
    return Store.in_memory([(GLASS, GLASS_TEXT, []), (WATER, WATER_TEXT, [])])


def _check(kb: Store, verifier: OfflineVerifier, answer: str, off: frozenset[str] = frozenset()) -> CheckResult:
    return check(answer, kb=kb, verifier=verifier, name="Tamsin Oduya", config=default_config().without(off))


def _glassmaker_conflated(result: CheckResult) -> bool:
    return next(g for g in result.groups if g.entity == GLASS).conflated


@pytest.mark.parametrize(
    "crossed",
    [
        "She joined the River Survey in 1974.",  # the hydrologist's employer
        "She studied at the Tay Institute.",  # the hydrologist's school
        "She joined the River Survey.",
    ],
)
def test_one_of_a_described_namesakes_facts_is_crossed_not_merged(
    kb: Store, verifier: OfflineVerifier, crossed: str
) -> None:
    result = _check(kb, verifier, BOTH + crossed)
    assert [g.entity for g in result.groups] == [WATER, GLASS]
    assert not _glassmaker_conflated(result)
    assert result.revision is not None and "Another" not in result.revision.text
    assert crossed not in result.revision.text
    # switched off: the one fact counts twice, the group is flagged and the fact moved out to "Another …"
    before = _check(kb, verifier, BOTH + crossed, OFF)
    assert _glassmaker_conflated(before)
    assert before.revision is not None and "Another Tamsin Oduya" in before.revision.text


@pytest.mark.parametrize(
    ("answer", "moved_out"),
    [
        # No group describes the hydrologist: a merge, the namesake's facts moved out as before.
        (ALONE + "She joined the River Survey in 1974 and studied at the Tay Institute.", True),
        (ALONE + "She joined the River Survey in 1974.", True),
        # Two of the described namesake's facts: still flagged (the facts are deleted, not moved out).
        (BOTH + "She joined the River Survey in 1974. She studied at the Tay Institute.", False),
    ],
)
def test_a_merge_still_flags_the_group(kb: Store, verifier: OfflineVerifier, answer: str, moved_out: bool) -> None:
    result = _check(kb, verifier, answer)
    assert _glassmaker_conflated(result)
    assert result.revision is not None
    assert ("Another Tamsin Oduya, a hydrologist" in result.revision.text) == moved_out
