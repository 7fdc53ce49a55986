"""Names and places written without their diacritics are the same words to grouping, linking and verification."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.check import Verdict
from schemas.knowledge import EntityRef
from scoring.grouping import compatible, name_parts
from scoring.linking import name_match
from scoring.pipeline import check
from scoring.subject_forms import in_page_terms, same_name
from scoring.verifier.features import FEATURE_NAMES, pair_features
from scoring.verifier.text import analyse

# (as the page writes it, as an answer may write it)
SAME = [
    ("Władysław Kowalczyk", "Wladyslaw Kowalczyk"),
    ("Søren Ødegaard", "Soren Odegaard"),
    ("Gustav Straße", "Gustav Strasse"),
    ("Æthelred Ødbert", "Aethelred Odbert"),
    ("Þórður Guðjónsson", "Thordur Gudjonsson"),
    ("Antonín Dvořák", "Antonin Dvorak"),
    ("Đorđe Balašević", "Dorde Balasevic"),
    ("Мстислав Ростропович", "Mstislav Rostropovich"),
]
# Other people: the names differ by more than their diacritics.
DIFFERENT = [
    ("Władysław Kowalczyk", "Wladimir Kowalczyk"),
    ("Władysław Kowalczyk", "Wladyslaw Kowalski"),
    ("Søren Ødegaard", "Soren Odegard"),
    ("Gustav Straße", "Gustav Strase"),
    ("Józef Müller", "Josef Miller"),
    ("Antonín Dvořák", "Antonin Dvorsky"),
]


@pytest.mark.parametrize(("page", "answer"), SAME)
def test_forms_of_one_name_match_in_every_step(page: str, answer: str) -> None:
    assert name_parts(page) == name_parts(answer)
    assert compatible(answer, page)
    assert same_name(answer, page)
    assert name_match(answer, EntityRef(title=f"{page} (writer)", base_name=page)) == 1.0
    assert analyse(f"{page} was born here.").names == analyse(f"{answer} was born here.").names


@pytest.mark.parametrize(("page", "answer"), DIFFERENT)
def test_look_alikes_are_other_names_in_every_step(page: str, answer: str) -> None:
    assert not same_name(answer, page)
    assert name_match(answer, EntityRef(title=page, base_name=page)) < 1.0
    assert analyse(f"{page} was born here.").names != analyse(f"{answer} was born here.").names


def test_a_fact_without_diacritics_is_rewritten_in_the_page_s_spelling() -> None:
    lead = "Władysław Kowalczyk (born 1961 in Wrocław) is a Polish cellist."
    fact = "Wladyslaw Kowalczyk is a cellist."
    assert in_page_terms(fact, "Wladyslaw Kowalczyk", "Władysław Kowalczyk (cellist)", [lead]) == (
        "Władysław Kowalczyk is a cellist."
    )


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        ("He was born in Wroclaw.", "He was born in Wrocław in 1961."),
        ("He moved to Lodz.", "In 1995 he moved to Łódź."),
        ("He played for Tromso.", "He played for Tromsø from 2001."),
        ("He designed the Grossmarkthalle.", "He designed the Großmarkthalle in 1928."),
    ],
)
def test_verifier_features_see_a_place_without_diacritics_as_the_same_name(claim: str, passage: str) -> None:
    features = dict(zip(FEATURE_NAMES, pair_features(claim, [passage])[0], strict=True))
    assert features["name_coverage"] == 1.0
    assert features["names_missing"] == 0.0


PAGES = [
    (
        "Władysław Kowalczyk (cellist)",
        "Władysław Kowalczyk (born 4 May 1961 in Wrocław) is a Polish cellist. He studied at the Karol Lipiński "
        "Academy of Music in Wrocław and won the Grand Prix of the Budapest Cello Competition in 1986. Since 1995 "
        "he has taught at the Academy of Music in Łódź.",
        [],
    ),
    (
        "Władysław Kowalczyk (footballer)",
        "Władysław Kowalczyk (born 19 August 1978 in Gdańsk) is a Polish former footballer who played as a striker. "
        "He spent most of his career with Lechia Gdańsk and scored 87 league goals. He retired in 2012 and became "
        "a coach in Sopot.",
        [],
    ),
]


@pytest.fixture(scope="module")
def kb() -> Store:
    return Store.in_memory(PAGES)


def test_an_answer_without_diacritics_finds_its_page_and_is_supported(kb: Store) -> None:
    answer = (
        "Wladyslaw Kowalczyk is a Polish cellist born in Wroclaw in 1961. He studied at the Karol Lipinski "
        "Academy of Music in Wroclaw. Since 1995 he has taught at the Academy of Music in Lodz."
    )
    result = check(answer, kb=kb, name="Wladyslaw Kowalczyk")
    assert not result.unverifiable
    assert [g.entity for g in result.groups] == ["Władysław Kowalczyk (cellist)"]
    assert result.factscore == result.dfactscore == 1.0
    assert result.num_facts >= 4


def test_a_wrong_place_without_diacritics_is_still_not_supported(kb: Store) -> None:
    result = check("Wladyslaw Kowalczyk is a Polish cellist. He was born in Poznan in 1961.", kb=kb)
    facts = {f.text: f.verdict for g in result.groups for f in g.facts}
    assert facts["Wladyslaw Kowalczyk is a cellist."] is Verdict.SUPPORTED
    poznan = [verdict for text, verdict in facts.items() if "Poznan" in text]
    assert poznan and all(verdict is not Verdict.SUPPORTED for verdict in poznan)


def test_a_merge_of_namesakes_written_without_diacritics_is_two_entities(kb: Store) -> None:
    answer = (
        "Wladyslaw Kowalczyk is a Polish cellist born in Wroclaw in 1961. He won the Grand Prix of the Budapest "
        "Cello Competition in 1986. He played as a striker for Lechia Gdansk and scored 87 league goals. He "
        "retired in 2012 and became a coach in Sopot."
    )
    result = check(answer, kb=kb, name="Wladyslaw Kowalczyk")
    assert result.num_entities == 2
    assert any(g.conflated for g in result.groups)
    assert result.dfactscore is not None and result.factscore is not None
    assert result.dfactscore < result.factscore
