"""Patterns of answers as chat models write them (measured on tests/corpus): the assistant talking about the
conversation is not a claim, an answer of nothing else abstains, and namesakes presented by role are told apart."""

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


@pytest.mark.parametrize(
    "text",
    [
        "I don't have dependable details on Dick Hanley. I'd suggest a sports archive instead; "
        "I'll happily help with anything else.",
        "I'd rather not write about Dick Hanley: anything I wrote would be a guess. You could try a newspaper archive.",
        "There are several people named Dick Hanley. Which one do you mean? I'll write a short profile once I know.",
    ],
)
def test_an_answer_of_nothing_but_assistant_talk_abstains(demo_kb: Store, text: str) -> None:
    assert check(text, kb=demo_kb, name="Dick Hanley").status == "abstained"


def test_only_assistant_talk_can_be_switched_off(demo_kb: Store) -> None:
    text = (
        "I don't have dependable details on Dick Hanley. I'd suggest a sports archive instead; "
        "I'll happily help with anything else."
    )
    # Each of the two rules abstains on it alone; with both off it is not abstained.
    for rule in ("only-assistant-talk", "declined-without-evidence"):
        assert check(text, kb=demo_kb, name="Dick Hanley", config=CheckConfig().without([rule])).status == "abstained"
    off = CheckConfig().without(["only-assistant-talk", "declined-without-evidence"])
    assert check(text, kb=demo_kb, name="Dick Hanley", config=off).status != "abstained"
    # a real answer with an offer at its end is checked
    answer = "Dick Hanley was an American football coach. I'd be glad to tell you more about his teams."
    assert check(answer, kb=demo_kb, name="Dick Hanley").status == "checked"


ROLE_ANSWERS = [
    "Two people share the name Dick Hanley. The coach led Northwestern University from 1927 to 1934. "
    "The swimmer was born in 1936 and won a silver medal at the 1956 Olympics.",
    "The name Dick Hanley belongs to two athletes:\n\n**The coach** led Northwestern University from 1927 to "
    "1934.\n\n**The swimmer** was born in 1936 and won a silver medal at the 1956 Olympics.",
    "There are two notable Americans named Dick Hanley. The elder led Northwestern University from 1927 to 1934. "
    "The younger was born in 1936 and won a silver medal at the 1956 Olympics.",
]


@pytest.mark.parametrize("text", ROLE_ANSWERS)
def test_namesakes_presented_by_role_are_told_apart(demo_kb: Store, text: str) -> None:
    """Once an answer says a name is shared, "The coach …" / "The swimmer …" present one namesake each."""
    result = check(text, kb=demo_kb, name="Dick Hanley")
    assert result.num_bios >= 2 and not any(g.conflated for g in result.groups)
    # each fact names the person, not the role that presented them
    facts = [f.text for g in result.groups for f in g.facts if "1936" in f.text or "1927" in f.text]
    assert facts and all(f.startswith("Dick Hanley") for f in facts), facts
    # (bold role lead-ins, "**The coach** …", are also scopes of the structure: both rules tell them apart)
    off = check(text, kb=demo_kb, name="Dick Hanley", config=CheckConfig().without(["role-cue", "structure-scopes"]))
    assert off.num_bios < result.num_bios
    # without the announcement, "The coach" is a description of the one person the answer is about
    single = check("Dick Hanley was a coach. The coach led Northwestern.", kb=demo_kb, name="Dick Hanley")
    assert single.num_bios == 1


@pytest.mark.parametrize(
    "text",
    [
        "I believe Dick Hanley was head coach at Northwestern University from 1927 to 1934.",
        "If I recall correctly, Dick Hanley was head coach at Northwestern University from 1927 to 1934.",
        "Dick Hanley was, as far as I know, head coach at Northwestern University from 1927 to 1934.",
        "Dick Hanley was head coach at Northwestern University from 1927 to 1934, if I'm not mistaken.",
        # a conditional hedge needs no comma; an admission of doubt before "but" is a hedge too
        "Dick Hanley was head coach at Northwestern University from 1927 to 1934 if I remember rightly.",
        "I may be misremembering this, but Dick Hanley was head coach at Northwestern University from 1927 to 1934.",
        "I could be wrong about that, but I think Dick Hanley was head coach at Northwestern from 1927 to 1934.",
        # after a connective that opens the clause
        "Dick Hanley was a coach, and I believe he led Northwestern University from 1927 to 1934.",
        "Dick Hanley coached a college team, which I think was Northwestern University, from 1927 to 1934.",
        "Dick Hanley was a Marine, but I'm fairly sure he coached Northwestern University from 1927 to 1934.",
        # after an opening phrase and its comma, before the clause's subject
        "After his years as a Marine, I think he coached Northwestern University from 1927 to 1934.",
    ],
)
def test_hedged_claims_are_checked_and_reported_as_hedged(demo_kb: Store, text: str) -> None:
    result = check(text, kb=demo_kb, name="Dick Hanley")
    facts = [f for g in result.groups for f in g.facts if "1927" in f.text]
    assert facts and all(f.hedged and f.worthiness is Worthiness.FACTUAL for f in facts), facts
    assert any(f.verdict.value == "supported" for f in facts)
    assert not any("believe" in f.text or "recall" in f.text or "mistaken" in f.text for f in facts)
    off = check(text, kb=demo_kb, name="Dick Hanley", config=CheckConfig().without(["hedged-claims"]))
    assert not any(f.hedged for g in off.groups for f in g.facts)


@pytest.mark.parametrize(
    "text",
    [
        "Dick Hanley was a football coach. Note that he coached Northwestern University from 1927 to 1934.",
        "Dick Hanley was a football coach. Please note: he coached Northwestern University from 1927 to 1934.",
        "Dick Hanley was a football coach. Keep in mind that he coached Northwestern University from 1927 to 1934.",
        "Dick Hanley was a football coach. It's worth noting that he coached Northwestern from 1927 to 1934.",
    ],
)
def test_a_claim_after_note_that_is_checked_not_taken_for_chatter(demo_kb: Store, text: str) -> None:
    """ "Note that …" points at a claim: a wrong one must not pass unchecked as assistant chatter."""
    result = check(text, kb=demo_kb, name="Dick Hanley")
    facts = [f for g in result.groups for f in g.facts if "1927" in f.text]
    assert facts and all(f.worthiness is Worthiness.FACTUAL and not f.hedged for f in facts), facts
    assert not any("note" in f.text.lower() or "mind" in f.text for f in facts)


@pytest.mark.parametrize(
    "text",
    [
        "Dick Hanley was a football coach. Third, if I recall correctly, he coached Northwestern from 1927 to 1934.",
        "Dick Hanley was a football coach. Finally, I believe, he coached Northwestern from 1927 to 1934.",
        "Dick Hanley was a football coach. Second, If I remember correctly, he coached Northwestern from 1927 to 1934.",
    ],
)
def test_a_hedge_after_an_opening_word_leaves_the_word_out_of_the_claim(demo_kb: Store, text: str) -> None:
    """The opening word keeps its comma when the hedge between commas goes ("Third, he coached …", not "Third he
    coached …", whose subject the decomposer read as "Third Dick Hanley")."""
    result = check(text, kb=demo_kb, name="Dick Hanley")
    facts = [f for g in result.groups for f in g.facts if "1927" in f.text]
    assert facts and all(f.hedged and f.text.startswith("Dick Hanley coached") for f in facts), facts


def test_a_name_before_a_hedge_between_commas_stays_the_subject() -> None:
    from scoring.hedges import strip_hedges

    assert strip_hedges("Hanley, I think, was born in 1896.")[0] == "Hanley was born in 1896."


def test_a_belief_with_nothing_to_check_stays_an_opinion(demo_kb: Store) -> None:
    result = check("Dick Hanley was a football coach. I think he was great.", kb=demo_kb, name="Dick Hanley")
    great = [f for g in result.groups for f in g.facts if "great" in f.text]
    assert great and all(f.worthiness is Worthiness.OPINION and not f.hedged for f in great)


def test_a_hedged_claim_is_not_taken_for_talk_by_its_hedge(demo_kb: Store) -> None:
    """ "If I recall correctly, X was a coach": the "I" belongs to the hedge, the claim is checked."""
    result = check("If I recall correctly, Dick Hanley was a football coach.", kb=demo_kb, name="Dick Hanley")
    coach = [f for g in result.groups for f in g.facts if "coach" in f.text]
    assert coach and all(f.worthiness is Worthiness.FACTUAL and f.hedged for f in coach)


def test_emoji_are_decoration_not_part_of_a_name(demo_kb: Store) -> None:
    result = check("Great question! 🏈 Dick Hanley was an American football coach. 😊", kb=demo_kb, name="Dick Hanley")
    assert [g.mention for g in result.groups] == ["Dick Hanley"]
    assert not any("🏈" in f.text or "😊" in f.text for g in result.groups for f in g.facts)
