"""A user's own NLI model as the stance model (the plumbing, not the accuracy): a tiny randomly initialised
BERT classifier that the test builds and saves itself, loaded from its directory like a real one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from knowledge.store import Store
from schemas.enums import Stance
from scoring import pipeline
from scoring.engines import build_checker
from scoring.errors import ModelUnavailableError
from scoring.verifier.nli import NLIStanceModel

WORDS = "ada lovelace was born in 1815 she died 1852 an english mathematician london the of and dick hanley".split()


def build_tiny_nli(path: Path, labels: dict[int, str] | None = None) -> Path:
    import torch
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizerFast

    path.mkdir(parents=True, exist_ok=True)
    vocab = path / "vocab.txt"
    vocab.write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", ".", ",", *WORDS]) + "\n")
    tokenizer = BertTokenizerFast(vocab_file=str(vocab))
    labels = labels or {0: "entailment", 1: "neutral", 2: "contradiction"}
    config = BertConfig(
        vocab_size=len(tokenizer),
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=128,
        num_labels=len(labels),
        id2label=labels,
        label2id={v: k for k, v in labels.items()},
    )
    torch.manual_seed(7)
    BertForSequenceClassification(config).save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


@pytest.fixture(scope="module")
def nli_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_nli(tmp_path_factory.mktemp("nli") / "tiny-nli")


@pytest.fixture
def as_default_stance_model(nli_dir: Path) -> Iterator[None]:
    """The NLI model as the process's stance model for this test only (a worker's FACTSENTRY_NLI_MODEL_DIR)."""
    pipeline.use_nli_model(nli_dir)
    yield
    pipeline.use_nli_model(None)


PASSAGES = [
    "Ada Lovelace was an English mathematician.",
    "She was born in London in 1815.",
    "She died in 1852.",
    "Dick Hanley was born in 1936.",
    "The mathematician of London.",
]


def test_scores_every_passage_in_batches_with_the_models_labels(nli_dir: Path) -> None:
    one_batch = NLIStanceModel.load(nli_dir)
    small = NLIStanceModel.load(nli_dir, batch_size=2)
    scores = one_batch.score("Ada Lovelace was born in 1815.", PASSAGES)
    assert len(scores) == len(PASSAGES) and one_batch.score("x", []) == []
    for s in scores:
        assert s.support + s.refute + s.irrelevant == pytest.approx(1.0, abs=1e-5)
        top = max(("support", s.support), ("refute", s.refute), ("irrelevant", s.irrelevant), key=lambda t: t[1])
        assert s.stance == {"support": Stance.SUPPORT, "refute": Stance.REFUTE}.get(top[0], Stance.IRRELEVANT)
    batched = small.score("Ada Lovelace was born in 1815.", PASSAGES)
    assert [round(s.support, 4) for s in batched] == [round(s.support, 4) for s in scores]
    assert len({round(s.support, 6) for s in scores}) > 1, "the model reads the passages, not a constant"


def test_two_label_models_and_the_version(tmp_path: Path, nli_dir: Path) -> None:
    binary = build_tiny_nli(tmp_path / "binary", {0: "not_entailment", 1: "entailment"})
    s = NLIStanceModel.load(binary).score("Ada Lovelace died in 1852.", PASSAGES[:2])
    assert all(x.refute == 0.0 and x.support + x.irrelevant == pytest.approx(1.0, abs=1e-5) for x in s)
    assert NLIStanceModel.load(binary).version != NLIStanceModel.load(nli_dir).version
    assert NLIStanceModel.load(nli_dir).version == NLIStanceModel.load(nli_dir).version


def test_a_directory_that_is_not_an_nli_model_is_refused_with_the_reason(tmp_path: Path) -> None:
    generic = build_tiny_nli(tmp_path / "generic", {0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"})
    with pytest.raises(ModelUnavailableError, match=r"not NLI labels; set config\.id2label"):
        NLIStanceModel.load(generic)
    with pytest.raises(ModelUnavailableError, match="no such directory"):
        NLIStanceModel.load(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ModelUnavailableError, match="not a sequence-classification model"):
        NLIStanceModel.load(tmp_path / "empty")


def test_the_environment_makes_it_the_stance_model_of_every_check(
    as_default_stance_model: None, demo_kb: Store, nli_dir: Path
) -> None:
    assert isinstance(pipeline.default_verifier(), NLIStanceModel)
    text = "Ada Lovelace was an English mathematician. She was born in 1815."
    result = pipeline.check(text, kb=demo_kb, name="Ada Lovelace")
    facts = [f for g in result.groups for f in g.facts if f.worthiness.value == "factual"]
    assert result.engine == "offline" and facts and all(f.decided_by for f in facts)
    assert result.coverage is not None and 0.0 <= result.coverage <= 1.0
    explicit = build_checker("offline", stance_model=NLIStanceModel.load(nli_dir)).check(
        text, kb=demo_kb, name="Ada Lovelace"
    )
    assert explicit.model_dump(exclude={"sentences"}) == result.model_dump(exclude={"sentences"})
