from __future__ import annotations

import re

import pytest

from knowledge.store import Store
from schemas.check import Evidence
from schemas.enums import Stance
from scoring.linking import candidate_entities, link, set_cover
from scoring.protocols import MemoryVerdictCache
from scoring.verifier import OfflineVerifier, StanceScore
from scoring.verify import EntityVerdict, EvidenceVerifier, VerifyConfig, decide


@pytest.mark.parametrize(
    ("counts", "names", "expected"),
    [
        ([[3, 0], [0, 2]], None, [0, 1]),
        ([[3, 1], [3, 0]], None, [1, 0]),  # both prefer entity 0: the assignment maximises total support
        ([[0, 0]], [[0.0, 1.0]], [1]),  # no support: the name decides
        ([[2, 2]], [[0.5, 1.0]], [1]),
        # more groups than entities; the second has no evidence for entity 1, so it keeps entity 0
        # (unfounded-assignment; with the rule off it took entity 1: test_p6_layouts)
        ([[2, 0], [1, 0], [0, 0]], None, [0, 0, 0]),
        ([[]], None, [None]),
    ],
)
def test_link(counts: list[list[int]], names: list[list[float]] | None, expected: list[int | None]) -> None:
    assert link(counts, names) == expected


@pytest.mark.parametrize(
    ("supports", "prefer", "expected"),
    [
        ([{0, 1}, {0}, {1}, {2}, set()], [1], [1, 0, 2]),
        ([{0}, {0}, {0, 1}], [], [0]),
        ([set(), set()], [], []),
    ],
)
def test_set_cover(supports: list[set[int]], prefer: list[int], expected: list[int]) -> None:
    assert set_cover(supports, prefer) == expected


def _s(support: float, refute: float, stance: Stance = Stance.SUPPORT) -> StanceScore:
    return StanceScore(stance=stance, support=support, refute=refute, irrelevant=max(0.0, 1 - support - refute))


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        ([_s(0.8, 0.1), _s(0.2, 0.1)], (Stance.SUPPORT, 0)),
        ([_s(0.3, 0.1), _s(0.7, 0.1, Stance.PARTIAL)], (Stance.PARTIAL, 1)),
        ([_s(0.3, 0.7, Stance.REFUTE)], (Stance.REFUTE, 0)),
        ([_s(0.55, 0.6, Stance.REFUTE)], (Stance.REFUTE, 0)),
        ([_s(0.4, 0.2)], (Stance.IRRELEVANT, 0)),
        ([], (Stance.IRRELEVANT, -1)),
    ],
)
def test_decide(scores: list[StanceScore], expected: tuple[Stance, int]) -> None:
    stance, _, _, best = decide(scores, VerifyConfig(support=0.5, refute=0.5))
    assert (stance, best) == expected


def test_entity_verdict_round_trips_through_the_cache_format() -> None:
    verdict = EntityVerdict("Dick Hanley (swimmer)", Stance.SUPPORT, 0.8, 0.1, (Evidence(title="t", text="x"),))
    assert EntityVerdict.from_json(verdict.to_json()) == verdict


def test_verdicts_are_cached_per_store_version(demo_kb: Store, verifier: OfflineVerifier) -> None:
    cache = MemoryVerdictCache()
    first = EvidenceVerifier(demo_kb, verifier, cache)
    verdict = first.against("Dick Hanley died in 1970.", "Dick Hanley (American football)", "Dick Hanley")
    second = EvidenceVerifier(demo_kb, verifier, cache)
    again = second.against("Dick Hanley died in 1970.", "Dick Hanley (American football)", "Dick Hanley")
    assert again == verdict and (first.cache_hits, second.cache_hits) == (0, 1)
    assert verdict.supported and verdict.evidence[0].title == "Dick Hanley (American football)"
    assert all(demo_kb.version in key for key in cache.data)


def test_verdicts_are_cached_per_version_of_the_code_that_decides_them(
    demo_kb: Store, verifier: OfflineVerifier
) -> None:
    from scoring.verify import code_version

    cache = MemoryVerdictCache()
    EvidenceVerifier(demo_kb, verifier, cache).against(
        "Dick Hanley died in 1970.", "Dick Hanley (swimmer)", "Dick Hanley"
    )
    version = code_version()
    assert re.fullmatch(r"[0-9a-f]{12}", version) and version == code_version()
    assert cache.data and all(version in key for key in cache.data)
    # another version of the rules would look the same fact up under another key: nothing is read
    stale = {key.replace(version, "0" * 12): value for key, value in cache.data.items()}
    later = EvidenceVerifier(demo_kb, verifier, MemoryVerdictCache())
    later.cache.data.update(stale)  # type: ignore[attr-defined]
    later.against("Dick Hanley died in 1970.", "Dick Hanley (swimmer)", "Dick Hanley")
    assert later.cache_hits == 0


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        (["Dick Hanley"], {"Dick Hanley (swimmer)", "Dick Hanley (American football)"}),
        (["John Hemming"], {"John Hemming (explorer)", "John Hemming (politician)"}),
    ],
)
def test_candidate_entities(demo_kb: Store, names: list[str], expected: set[str]) -> None:
    assert expected <= {c.title for c in candidate_entities(demo_kb, names)}


@pytest.fixture(scope="module")
def nickname_kb() -> Store:
    """Pages titled by a familiar form of a given name, or by another given name, beside their namesakes'."""
    kb = Store.in_memory()
    kb.add_pages(
        [
            ("Bill Ashcombe", "William Ashcombe (born 1936) was an English character actor.", []),
            ("William Ashcombe (cricketer)", "William Ashcombe (1878-1939) was an English cricketer.", []),
            ("Robert Tiller (painter)", "Robert Tiller (1901-1980) was a Welsh painter.", []),
            ("Peggy Orwin", "Margaret Orwin (1920-2001) was a Canadian swimmer.", []),
            ("Walter Ashcombe", "Walter Ashcombe (1850-1911) was a Scottish engineer.", []),
            ("Jane Tiller", "Jane Tiller (born 1960) is an Irish novelist.", []),
        ]
    )
    return kb


@pytest.mark.parametrize(
    ("name", "found", "not_found"),
    [
        # A page titled by a known nickname of the given name, or by the name a nickname stands for.
        ("William Ashcombe", "Bill Ashcombe", "Walter Ashcombe"),
        ("Bob Tiller", "Robert Tiller (painter)", "Jane Tiller"),
        ("Margaret Orwin", "Peggy Orwin", None),
    ],
)
def test_a_page_titled_by_a_nickname_is_a_candidate(
    nickname_kb: Store, name: str, found: str, not_found: str | None
) -> None:
    titles = {c.title for c in candidate_entities(nickname_kb, [name])}
    assert found in titles and not_found not in titles


def test_the_familiar_name_page_rule_can_be_switched_off(nickname_kb: Store) -> None:
    titles = {c.title for c in candidate_entities(nickname_kb, ["William Ashcombe"], familiar=False)}
    assert "Bill Ashcombe" not in titles and "William Ashcombe (cricketer)" in titles
