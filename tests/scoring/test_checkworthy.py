"""The check-worthiness model (``worthiness-model``): chatter, opinion and assistant talk told from
checkable claims by a trained model, as the final gate of the worthiness step. The phrasings are ours,
written for this test (none is in the training file); the names are invented."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from knowledge.store import Store
from schemas.enums import Worthiness
from scoring.checkworthy import WORTHINESS_MODEL, WorthinessModel, gate
from scoring.pipeline import check

ROOT = Path(__file__).resolve().parents[2]
TRAINING_FILE = ROOT / "scripts" / "data" / "worthiness_chatter.txt"
CLAIMS_FILE = ROOT / "scripts" / "data" / "worthiness_claims.txt"

CHATTER = [
    "Every one of these accomplishments would make a career by itself.",
    "Overviews of this kind inevitably leave out nuance.",
    "It is a nice reminder that few careers follow a plan.",
    "I hope this overview is useful to you.",
    "Let me know whether you want more on her teaching.",
    "That must have been a tough decision to make.",
    "All told, a busy and varied working life.",
    "Which of the two brothers were you thinking of?",
    "This is where the story gets a bit murky.",
    "Honestly, her dedication is something to admire.",
    "It is worth reading a couple of accounts side by side.",
]
CLAIMS = [
    "He played the trumpet in a jazz band.",
    "She married a fellow violinist.",
    "The museum holds several of his paintings.",
    "He retired from professional football after a knee injury.",
    "She taught chemistry at a secondary school.",
    "The device supports two-factor authentication.",
    "His father was a blacksmith.",
    "She was raised by her grandparents.",
    "He coached the national team after retiring.",
    "The album was recorded in a single week.",
    "She founded a small publishing house.",
    "He served as mayor for two terms.",
    "The bridge was designed by a local engineer.",
    "The company was acquired by a larger rival.",
]


@pytest.fixture(scope="module")
def model() -> WorthinessModel:
    return WorthinessModel.load()


# Advice on writing the piece, generalities about people at large, reactions to figures, a show's talk: not claims.
ADVICE = [
    "Don't describe it as a fact about him in the article.",
    "Don't frame the praise as if it were established.",
    "Mention the anniversary early; it helps the case.",
    "Most parents worry more about cost than quality.",
    "Committees usually like a concrete figure.",
    "That tally is frankly ridiculous.",
]
# Shaped like advice or a generality, but a fact about the subject or its world: still checked.
ADVICE_LOOKALIKES = [
    "Don't confuse her with her sister, who was a sculptor.",
    "He kept the squad apart from the youth team.",
    "Most of her pupils went on to perform.",
    "Readers of the newspaper voted him sportsman of the year.",
    "Teachers at the college went on strike.",
    "The fight ended in a draw.",
    "Fans of the team paid for the memorial.",
]


def test_the_phrasings_here_are_not_training_sentences() -> None:
    trained = {line.strip().lower() for path in (TRAINING_FILE, CLAIMS_FILE) for line in path.read_text().splitlines()}
    assert not trained & {t.lower() for t in CHATTER + CLAIMS + ADVICE + ADVICE_LOOKALIKES}


@pytest.mark.parametrize("text", ADVICE)
def test_advice_on_the_piece_generalities_and_reactions_are_chatter(model: WorthinessModel, text: str) -> None:
    assert model.is_chatter(text), model.chatter(text)


@pytest.mark.parametrize("text", ADVICE_LOOKALIKES)
def test_facts_shaped_like_advice_or_generalities_stay_claims(model: WorthinessModel, text: str) -> None:
    assert not model.is_chatter(text), model.chatter(text)


def test_the_packaged_model_loads_with_its_threshold_and_cv_figures(model: WorthinessModel) -> None:
    assert model.buckets == 1 << 14
    assert 0.5 <= model.threshold < 1.0
    assert model.meta["cv"]["chatter"]["f1"] > 0.7 and model.meta["cv"]["claim"]["f1"] > 0.95


@pytest.mark.parametrize("text", CHATTER)
def test_chatter_is_called_chatter(model: WorthinessModel, text: str) -> None:
    assert model.is_chatter(text), model.chatter(text)


@pytest.mark.parametrize("text", CLAIMS)
def test_claims_without_names_or_numbers_stay_claims(model: WorthinessModel, text: str) -> None:
    assert not model.is_chatter(text), model.chatter(text)


def test_the_gate_never_touches_a_fact_with_a_value_or_a_name(model: WorthinessModel) -> None:
    # Chatter-shaped, but a year or a name of its own makes it checkable: the model is not asked.
    for fact in (
        "Running the Lindenhof Quartet for sixteen years is a serious commitment.",
        "Each of these could fill a career, and she did all of them before 1990.",
    ):
        assert gate(Worthiness.FACTUAL, None, fact, rules_off=frozenset(), model=model) == (Worthiness.FACTUAL, None)
    # The answer's subject does not count as a name of the fact's own: ``bare`` is read.
    fact = "Edda Marlowe's persistence is something to admire."
    decided = gate(Worthiness.FACTUAL, None, fact, bare="'s persistence is something to admire.", model=model)
    assert decided == (Worthiness.NOT_A_CLAIM, WORTHINESS_MODEL)


def test_the_gate_keeps_the_rules_verdicts_and_can_be_switched_off(model: WorthinessModel) -> None:
    text = CHATTER[0]
    assert gate(Worthiness.OPINION, "opinion-words", text, model=model) == (Worthiness.OPINION, "opinion-words")
    assert gate(Worthiness.FACTUAL, None, text, rules_off=frozenset({WORTHINESS_MODEL}), model=model) == (
        Worthiness.FACTUAL,
        None,
    )
    assert gate(Worthiness.FACTUAL, None, text, rules_off=frozenset(), model=model) == (
        Worthiness.NOT_A_CLAIM,
        WORTHINESS_MODEL,
    )


def test_malformed_weights_raise(tmp_path: Path) -> None:
    bad = tmp_path / "w.json"
    bad.write_text(json.dumps({"bias": 0.0}))
    with pytest.raises(ValueError, match="malformed"):
        WorthinessModel.load(bad)


def test_a_long_answer_is_not_pulled_down_by_its_chatter() -> None:
    store = Store.in_memory(
        [
            (
                "Edda Marlowe (painter)",
                "Edda Marlowe (born 1958 in Bergen) is a Norwegian painter. She studied at the Oslo Academy of "
                "Fine Arts and won the Aasen Prize in 1994.",
            )
        ]
    )
    answer = (
        "Edda Marlowe is a Norwegian painter born in 1958 in Bergen. She studied at the Oslo Academy of Fine "
        "Arts. Keeping up a painting practice for decades is a serious commitment. She won the Aasen Prize in "
        "1994. Overviews of this kind inevitably leave out nuance."
    )
    result = check(answer, kb=store, name="Edda Marlowe")
    facts = [f for g in result.groups for f in g.facts]
    gated = [f.text for f in facts if f.decided_by == WORTHINESS_MODEL]
    assert any("commitment" in t for t in gated) and any("nuance" in t for t in gated), [
        (f.text, f.decided_by) for f in facts
    ]
    assert result.factscore == 1.0


def _tiny_data(root: Path) -> Path:
    data = root / "data"
    for sub in ("factcheck-bench", "factscore", "wice"):
        (data / sub).mkdir(parents=True)
    claims = ["The bridge opened to traffic in 1932.", "The river freezes every winter.", "Copper conducts heat well."]
    (data / "factcheck-bench" / "claims.dev.jsonl").write_text(
        "".join(json.dumps({"doc_id": i, "claim": c, "sentence": c}) + "\n" for i, c in enumerate(claims))
    )
    bio = {
        "model": "m",
        "topic": "Ana Rey",
        "sentences": [
            {
                "human_atomic_facts": [
                    {"text": "Ana Rey is a sculptor.", "label": "S"},
                    {"text": "She studied in Lisbon.", "label": "NS"},
                    {"text": "She has two sons.", "label": "IR"},
                ]
            }
        ],
    }
    (data / "factscore" / "labeled.dev.jsonl").write_text(json.dumps(bio) + "\n")
    (data / "wice" / "claims.dev.jsonl").write_text(
        json.dumps({"id": "w1", "claim": "The mill closed in 1961."}) + "\n"
    )
    return data


def test_the_training_script_runs_on_a_tiny_sample_and_is_reproducible(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("train_worthiness", ROOT / "scripts" / "train_worthiness.py")
    assert spec is not None and spec.loader is not None
    train = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "train_worthiness", train)
    spec.loader.exec_module(train)
    data = _tiny_data(tmp_path)
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "pages.jsonl").write_text(
        json.dumps({"title": "Ana Rey", "text": "Ana Rey is a Spanish sculptor. She was born in Vigo in 1970."}) + "\n"
    )
    chatter = tmp_path / "chatter.txt"
    chatter.write_text(
        "# talk\nI hope this helps you.\nLet me know if you need more.\n# praise\nWhat a remarkable life.\n"
        "That is truly impressive.\n# advice\nChecking a second source is wise.\nAn archive might help.\n"
    )
    outs = []
    for name in ("a.json", "b.json"):
        out = tmp_path / name
        args = ["--data", str(data), "--kb", str(kb), "--chatter", str(chatter), "--out", str(out), "--folds", "2"]
        assert train.main([*args, "--buckets", "256"]) == 0
        outs.append(out.read_text())
    assert outs[0] == outs[1]
    tiny = WorthinessModel.load(tmp_path / "a.json")
    assert tiny.buckets == 256 and tiny.meta["examples"]["chatter"] == 6
    assert tiny.chatter("I hope this helps you.") > tiny.chatter("The bridge opened to traffic in 1932.")


@pytest.mark.parametrize(
    "fact",
    [
        "It ships with a three-year warranty.",
        "She went on to have two daughters.",
        "It has four antenna ports.",
        "He spent twelve seasons with the club.",
        "It comes with a ten-year warranty on the frame.",
        "The battery is covered for two years.",
    ],
)
def test_a_number_in_words_keeps_a_claim_unless_the_model_is_very_sure(model: WorthinessModel, fact: str) -> None:
    assert gate(Worthiness.FACTUAL, None, fact, rules_off=frozenset(), model=model) == (Worthiness.FACTUAL, None)


def test_the_stricter_threshold_applies_only_to_numbers_in_words() -> None:
    from scoring.checkworthy import STRICT_THRESHOLD

    base = WorthinessModel.load()
    # A model whose every text scores 0.85: above the default threshold, below the stricter one.
    flat = WorthinessModel(base.weight * 0.0, math.log(0.85 / 0.15), 0.8)
    assert STRICT_THRESHOLD > 0.85
    assert gate(Worthiness.FACTUAL, None, "It was a long and winding story.", rules_off=frozenset(), model=flat)[0] is (
        Worthiness.NOT_A_CLAIM
    )
    assert gate(Worthiness.FACTUAL, None, "It was a story in two parts.", rules_off=frozenset(), model=flat)[0] is (
        Worthiness.FACTUAL
    )


@pytest.mark.parametrize(
    "fact",
    [
        "You can back up your phone's photos.",
        "With the app you can schedule a nightly scan.",
        "You'll need a paid plan for offline maps.",
        "You get unlimited storage on the top tier.",
    ],
)
def test_what_the_reader_can_do_with_a_thing_is_never_gated(model: WorthinessModel, fact: str) -> None:
    assert gate(Worthiness.FACTUAL, None, fact, rules_off=frozenset(), model=model) == (Worthiness.FACTUAL, None)
