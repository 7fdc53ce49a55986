"""The assistant talking about the conversation is not a claim about the world; an answer made only of such
talk (declining, advising where to look, offering help) abstains."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.enums import Worthiness
from scoring.pipeline import CheckConfig, check
from scoring.worthiness import classify_by_rule


@pytest.mark.parametrize(
    ("fact", "worthiness", "rule"),
    [
        ("I'd suggest checking a regional archive first.", Worthiness.NOT_A_CLAIM, "assistant-talk"),
        ("I'll put together a short profile once you tell me more.", Worthiness.NOT_A_CLAIM, "assistant-talk"),
        ("'ll put together a summary for that person.", Worthiness.NOT_A_CLAIM, "assistant-talk"),
        ("You could try the university's alumni office.", Worthiness.NOT_A_CLAIM, "assistant-talk"),
        ("Anything I wrote would be a guess.", Worthiness.NOT_A_CLAIM, "assistant-talk"),
        # a product's requirements addressed to its user are facts about the product
        ("You'll need a free account to use the app.", Worthiness.FACTUAL, None),
        ("You can export a report as CSV.", Worthiness.FACTUAL, None),
        ("Ilse Marrow founded the Vassvik Studio in 1962.", Worthiness.FACTUAL, None),
    ],
)
def test_assistant_talk_is_not_a_claim(fact: str, worthiness: Worthiness, rule: str | None) -> None:
    assert classify_by_rule(fact, fact, frozenset()) == (worthiness, rule)


def test_an_answer_of_nothing_but_assistant_talk_abstains(demo_kb: Store) -> None:
    text = (
        "I don't have dependable details on Dick Hanley. I'd suggest a sports archive instead; "
        "I'll happily help with anything else."
    )
    assert check(text, kb=demo_kb, name="Dick Hanley").status == "abstained"
    off = CheckConfig().without(["only-assistant-talk"])
    assert check(text, kb=demo_kb, name="Dick Hanley", config=off).status != "abstained"
    # a real answer with an offer at its end is checked
    answer = "Dick Hanley was an American football coach. I'd be glad to tell you more about his teams."
    assert check(answer, kb=demo_kb, name="Dick Hanley").status == "checked"
