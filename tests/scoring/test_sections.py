from __future__ import annotations

import pytest

from knowledge.store import Store
from scoring.pipeline import CheckConfig, check
from scoring.segment.document import parse
from scoring.segment.sections import LABEL_ITEM_RULES, LABEL_ITEMS, label_item
from scoring.sentences import split_sentences


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("- **Education**\n  - Studied law at Leeds", "Education"),
        ("- **Career:**\n  - Joined Acme in 2001", "Career"),
        ("1. **Recognition**\n   - Kessler Medal, 2019", "Recognition"),
        ("* **Who she is**\n    * A Welsh poet", "Who she is"),
        ("- **Awards and honours**:\n  - Gilded Quill Award", "Awards and honours"),
        # a short item in plain words, of no verb, over nested items labels them too
        ("- Early career\n  - Worked as a court stenographer from 1988 to 1996.", "Early career"),
        ("- Translations\n  - Has had her novels translated into 22 languages.", "Translations"),
        ("* Research\n    * Led the group that reported edge states in 2014.", "Research"),
    ],
)
def test_a_bold_item_over_nested_items_is_a_label(answer: str, label: str) -> None:
    assert label_item(parse(answer), 0) == label
    assert label_item(parse(answer), 0, frozenset({LABEL_ITEMS})) is None
    first = split_sentences(answer)[0]
    assert first.text == label and first.label and not first.list_item


@pytest.mark.parametrize(
    "answer",
    [
        "- **Won the Kessler Medal**\n- **Joined Acme in 2001**",  # nothing nested under it
        "- **Born:** 1912, Tromsø\n  - in the old town",  # words outside the bold: a record
        "- **Kenji Sato, potter (b. 1951)**\n  - Studied in Kyoto",  # presents a person
        '- **Theodore "Ironhand" Vance — boxer (1909–1971)**\n  - Born in Scranton',  # a nickname, dates
        "- **Gripwell Robotics**\n  - Co-founded in 2006",  # a name past the first word
        "- **He won the Kessler Medal in 2019.**\n  - For his work on peat",  # a sentence
        "**Education**\n\nStudied law at Leeds.",  # no list
        "- Married to the pianist Aivo Kask\n  - two children",  # a plain item with a verb: a claim
        "- Harwick College\n  - Coached there from 1931",  # a plain item that names something
        "- Early career\n- Worked as a court stenographer",  # nothing nested under it
    ],
)
def test_what_is_no_label_item_stays_an_item(answer: str) -> None:
    assert label_item(parse(answer), 0) is None


def test_an_item_that_opens_a_persons_scope_is_no_label() -> None:
    answer = "- **Education**\n  - Studied law at Leeds"
    assert label_item(parse(answer), 0, lead=True) is None


def test_the_rule_object_decides_its_phrasings() -> None:
    (rule,) = LABEL_ITEM_RULES
    assert rule.name == LABEL_ITEMS and len(rule.examples) >= 3
    assert all(label_item(parse(e), 0) for e in rule.examples)


def test_a_nested_answers_labels_make_no_facts() -> None:
    pages = [("Ona Vale", "Ona Vale (born 1931) is an Estonian chemist. She studied in Riga and won the Kask Prize.")]
    answer = (
        "- **Education**\n  - Studied chemistry in Riga\n- **Recognition**\n  - Won the Kask Prize\n"
        "- **Other**\n  - Born in 1931"
    )
    store = Store.in_memory(pages)
    facts = [f.text.lower() for g in check(answer, kb=store, name="Ona Vale").groups for f in g.facts]
    assert not any(w in t for t in facts for w in ("education", "recognition", "other")), facts
    assert any("kask prize" in t for t in facts), facts
    off = check(answer, kb=store, name="Ona Vale", config=CheckConfig().without([LABEL_ITEMS]))
    assert any("education" in f.text.lower() for g in off.groups for f in g.facts)
