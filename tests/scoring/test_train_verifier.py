"""The stance training script's generated pairs (scripts/train_verifier.py --factscore)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from evaluation.datasets import FactscoreBio, FactscoreSentence

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def train(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_verifier", ROOT / "scripts" / "train_verifier.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "train_verifier", module)
    spec.loader.exec_module(module)
    return module


def _ana_rey(*rest: tuple[str, str]) -> FactscoreBio:
    """A three-sentence biography of Ana Rey: her opening sentence, then ``rest`` as (sentence, its atomic fact),
    every fact labelled supported."""
    opening = ("Ana Rey is a Spanish sculptor.", "Ana Rey is a Spanish sculptor.")
    sentences = tuple(FactscoreSentence(text, (fact,), ("S",)) for text, fact in (opening, *rest))
    return FactscoreBio(model="m", topic="Ana Rey", output="", sentences=sentences)


@pytest.mark.parametrize(
    ("fact", "kind"),
    [
        ("She was born in Vigo in 1970.", "year"),
        ("He scored 31 goals for the club.", "number"),
        ("She is a sculptor from Vigo.", "negated"),
    ],
)
def test_a_changed_fact_differs_by_one_value_or_a_negation(train: ModuleType, fact: str, kind: str) -> None:
    outs = {train.changed(fact, np.random.default_rng(seed)) for seed in range(12)}
    assert fact not in outs and None not in outs
    for out in outs:
        moved = "".join(filter(str.isdigit, out)) != "".join(filter(str.isdigit, fact))
        assert moved != (" not " in out)  # one edit: a value moved or a negation, never both
    if kind == "negated":
        assert outs == {"She is not a sculptor from Vigo."}
    else:
        assert any(" not " not in out for out in outs)
    assert train.changed("Sculptor from Vigo.", np.random.default_rng(0)) is None


def test_factscore_pairs_label_a_fact_against_its_own_sentence_others_and_its_changed_form(train: ModuleType) -> None:
    bio = _ana_rey(
        ("She was born in Vigo in 1970.", "Ana Rey was born in Vigo in 1970."),
        ("She taught at the Lugo art school.", "Ana Rey taught at an art school."),
    )
    pairs = train.factscore_pairs([bio], np.random.default_rng(0), offset=7, per_bio=3)
    labels = [train.LABELS[i] for i in pairs.y]
    # "taught at an art school" has no number and no auxiliary to negate: no changed form
    assert labels.count("support") == 3 and labels.count("irrelevant") == 6 and labels.count("refute") == 2
    assert set(pairs.groups) == {7} and set(pairs.claim_index) == {-1}
    support, irrelevant = pairs.x[pairs.y == 0], pairs.x[pairs.y == train.LABELS.index("irrelevant")]
    assert support[:, 0].mean() > irrelevant[:, 0].mean()  # coverage: a fact's own sentence holds its words


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("She was born in Omaha.", "Ana Rey was born in Omaha."),
        ("He taught at Lugo.", "Ana Rey taught at Lugo."),
        ("Her first show was in 1990.", "Ana Rey's first show was in 1990."),
        ("They moved to Vigo.", "Ana Rey moved to Vigo."),
    ],
)
def test_named_writes_an_opening_pronoun_as_the_subjects_name(train: ModuleType, text: str, expected: str) -> None:
    assert train.named(text, "Ana Rey") == expected


@pytest.mark.parametrize("text", ["Shelley was born in Omaha.", "In 1990 she moved.", "Hermann taught.", "Ana Rey."])
def test_named_leaves_other_openings_alone(train: ModuleType, text: str) -> None:
    assert train.named(text, "Ana Rey") == text


def test_page_negatives_pair_a_fact_with_its_biography_without_its_sentence(train: ModuleType) -> None:
    bio = _ana_rey(
        ("She was born in Vigo.", "She was born in Vigo."),
        ("She taught at the Lugo art school.", "She taught at an art school."),
    )
    plain = train.factscore_pairs([bio], np.random.default_rng(0), offset=7, per_bio=3)
    named = train.factscore_pairs([bio], np.random.default_rng(0), offset=7, per_bio=3, names=True, page_negatives=2)
    labels = [train.LABELS[i] for i in named.y]
    # two facts of three also against the rest of the biography, which names Ana Rey but not the fact
    assert len(named.y) == len(plain.y) + 2
    assert labels.count("irrelevant") == [train.LABELS[i] for i in plain.y].count("irrelevant") + 2
    name_coverage = list(train.FEATURE_NAMES).index("name_coverage")
    extra = named.x[[i for i, y in enumerate(named.y) if train.LABELS[y] == "irrelevant"]]
    assert (extra[:, name_coverage] == 1.0).sum() >= 2  # the facts now name her, and so does the rest of the page
