"""The offline verifier: packaged weights, stance scores, claim decisions, weight-file errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from schemas.enums import Stance
from scoring.verifier import DEFAULT_WEIGHTS, OfflineVerifier, StanceScore, WeightsError


@pytest.fixture(scope="module")
def verifier() -> OfflineVerifier:
    return OfflineVerifier.load()


def test_packaged_weights_load_with_a_stable_version(verifier: OfflineVerifier) -> None:
    assert verifier.version.startswith("offline-")
    assert OfflineVerifier.load().version == verifier.version
    assert OfflineVerifier.load(DEFAULT_WEIGHTS).version == verifier.version


def test_version_changes_when_a_weight_changes(tmp_path: Path, verifier: OfflineVerifier) -> None:
    doc = json.loads(DEFAULT_WEIGHTS.read_text())
    doc["bias"][0] += 0.5
    path = tmp_path / "weights.json"
    path.write_text(json.dumps(doc))
    assert OfflineVerifier.load(path).version != verifier.version


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "cannot read verifier weights"),
        ('{"labels": ["support"]}', "malformed"),
        (None, "cannot read verifier weights"),
    ],
)
def test_bad_weight_files_raise(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "weights.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(WeightsError, match=message):
        OfflineVerifier.load(path)


def test_weights_for_other_features_are_refused(tmp_path: Path) -> None:
    doc = json.loads(DEFAULT_WEIGHTS.read_text())
    doc["features"] = [f"{name}_old" for name in doc["features"]]
    path = tmp_path / "weights.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(WeightsError, match=r"retrain with scripts/train_verifier\.py"):
        OfflineVerifier.load(path)


def test_weights_trained_before_a_feature_was_added_read_their_own_columns(tmp_path: Path) -> None:
    doc = json.loads(DEFAULT_WEIGHTS.read_text())
    full = OfflineVerifier.from_json(doc)
    # the same model with one feature more whose weights are all zero scores every pair as the model without it
    cut = {**doc, "features": doc["features"][:-1], "mean": doc["mean"][:-1], "scale": doc["scale"][:-1],
           "weight": doc["weight"][:-1]}  # fmt: skip
    older = OfflineVerifier.from_json(cut)
    claim, passages = "Harlan Beckwith set a record.", ["Harlan Beckwith painted a set of 24 canvases.", "Rain."]
    assert len(full.score(claim, passages)) == len(older.score(claim, passages)) == 2
    zeroed = {**doc, "weight": [*doc["weight"][:-1], [0.0] * len(doc["labels"])]}
    assert [s.support for s in OfflineVerifier.from_json(zeroed).score(claim, passages)] == pytest.approx(
        [s.support for s in older.score(claim, passages)]
    )


def test_weights_read_their_columns_by_name_in_any_order(verifier: OfflineVerifier) -> None:
    doc = json.loads(DEFAULT_WEIGHTS.read_text())
    order = list(range(len(doc["features"])))[::-1]
    turned = {**doc, **{key: [doc[key][i] for i in order] for key in ("features", "mean", "scale", "weight")}}
    other = OfflineVerifier.from_json(turned)
    claim = "Harlan Beckwith set a speed record in 1931."
    passages = ["Harlan Beckwith painted a set of 24 canvases.", "In 1931 Beckwith set a speed record.", "Rain."]
    assert [s.support for s in other.score(claim, passages)] == pytest.approx(
        [s.support for s in verifier.score(claim, passages)]
    )
    assert other.verify(claim, passages).false == pytest.approx(verifier.verify(claim, passages).false)


def test_one_score_per_passage_with_probabilities(verifier: OfflineVerifier) -> None:
    passages = ["Paris is the capital of France.", "Bananas are yellow.", "The Seine flows through Paris."]
    scores = verifier.score("Paris is the capital of France.", passages)
    assert len(scores) == 3
    for s in scores:
        assert 0.0 <= s.support <= 1.0 and 0.0 <= s.refute <= 1.0 and 0.0 <= s.irrelevant <= 1.0
        assert s.support + s.refute + s.irrelevant == pytest.approx(1.0)
    assert verifier.score("Paris is the capital of France.", []) == []


@pytest.mark.parametrize(
    ("claim", "supporting", "unrelated"),
    [
        ("Paris is the capital of France.", "Paris is the capital and largest city of France.", "Bananas are yellow."),
        (
            "Bruce Johnstone joined the Woody Herman Band in 1977.",
            "In 1977 Johnstone joined the Woody Herman Band and toured with it.",
            "The band New Order was formed in Manchester in 1980.",
        ),
        (
            "Douglas served on the Supreme Court from 1939 to 1975.",
            "William O. Douglas sat on the Supreme Court from 1939 until his retirement in 1975.",
            "The court building was completed in 1935 in Washington.",
        ),
    ],
)
def test_a_supporting_passage_outscores_an_unrelated_one(
    verifier: OfflineVerifier, claim: str, supporting: str, unrelated: str
) -> None:
    good, bad = verifier.score(claim, [supporting, unrelated])
    assert good.support > bad.support
    assert bad.irrelevant > good.irrelevant
    assert bad.stance is Stance.IRRELEVANT


def _s(support: float, refute: float) -> StanceScore:
    return StanceScore(Stance.IRRELEVANT, support, refute, 1.0 - support - refute)


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        ([], Stance.IRRELEVANT),
        ([_s(0.99, 0.0)], Stance.SUPPORT),
        ([_s(0.0, 0.99)], Stance.REFUTE),
        ([_s(0.01, 0.01), _s(0.02, 0.0)], Stance.IRRELEVANT),
        ([_s(0.99, 0.0), _s(0.0, 0.5)], Stance.SUPPORT),
    ],
)
def test_decide(verifier: OfflineVerifier, scores: list[StanceScore], expected: Stance) -> None:
    assert verifier.decide(scores) is expected


@pytest.mark.parametrize(
    ("claim", "passages", "expected"),
    [
        (
            "Bruce Johnstone joined the Woody Herman Band in 1977.",
            ["In 1977 Bruce Johnstone joined the Woody Herman Band and toured and recorded with it."],
            Stance.SUPPORT,
        ),
        (
            "Hillary Clinton served as the 45th President of the United States from 2017 to 2021.",
            ["Donald Trump was the 45th president of the United States, from 2017 to 2021."],
            Stance.REFUTE,
        ),
        ("Marie Curie won two Nobel prizes.", [], Stance.REFUTE),
    ],
)
def test_verify_a_claim_against_all_its_passages(
    verifier: OfflineVerifier, claim: str, passages: list[str], expected: Stance
) -> None:
    verdict = verifier.verify(claim, passages)
    assert verdict.stance is expected
    assert len(verdict.scores) == len(passages)
    assert (verdict.false >= verifier.claim_head.threshold) == (expected is Stance.REFUTE)  # type: ignore[union-attr]


def test_packaged_weights_carry_a_claim_head_and_their_training_note(verifier: OfflineVerifier) -> None:
    assert verifier.claim_head is not None
    meta = verifier.model.meta
    assert "Factcheck-Bench" in meta["trained_on"]
    assert 0.0 < meta["cv"]["stance3_macro_f1"]["mean"] < 1.0
