"""Named rules: registered once, switchable by name, and every fact verdict says what decided it."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.enums import Stance, Worthiness
from scoring.pipeline import CheckConfig, check, default_config
from scoring.rulebook import rule_names
from scoring.rules import MODEL, RULES, UnknownRule
from scoring.verifier import OfflineVerifier
from scoring.verify import (
    KEY_TERMS_MISSING,
    MISPLACED_VALUE,
    NAME_MISSING,
    NO_SHARED_CONTENT,
    STATED_OUTRIGHT,
    EntityVerdict,
    EvidenceVerifier,
    VerifyConfig,
)
from scoring.worthiness import classify_by_rule

PAGE = "Dick Hanley (American football)"


def test_rule_names_are_validated_with_a_suggestion() -> None:
    assert rule_names(["stated-outright, misplaced-value", ""]) == {STATED_OUTRIGHT, MISPLACED_VALUE}
    with pytest.raises(UnknownRule, match="did you mean 'stated-outright'"):
        rule_names(["stated-outrite"])
    with pytest.raises(UnknownRule, match="known: "):
        rule_names(["zzzz"])
    assert all(r.summary and r.step for r in RULES.values())


def test_switching_a_rule_off_reaches_every_step(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FACTSENTRY_RULES_OFF", raising=False)
    config = CheckConfig().without([STATED_OUTRIGHT, "question"])
    assert not config.on(STATED_OUTRIGHT) and not config.verify.on(STATED_OUTRIGHT)
    assert config.on(MISPLACED_VALUE) and config.verify.on(MISPLACED_VALUE)
    assert CheckConfig().without([]).rules_off == frozenset()


def test_rules_off_are_passed_by_the_caller_never_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert default_config(["question,opinion-words"]).rules_off == {"question", "opinion-words"}
    assert default_config(["question", "opinion-words"]).verify.rules_off == {"question", "opinion-words"}
    with pytest.raises(UnknownRule):
        default_config(["no-such-rule"])
    # The environment is the worker's and the command line's to read (workers.settings, factsentry check).
    monkeypatch.setenv("FACTSENTRY_RULES_OFF", "question,opinion-words")
    assert default_config().rules_off == frozenset() and CheckConfig().verify.rules_off == frozenset()
    assert classify_by_rule("Was he born in Ohio?") == (Worthiness.NOT_A_CLAIM, "question")


def test_a_check_worthiness_rule_names_itself_and_can_be_switched_off() -> None:
    assert classify_by_rule("Was he born in Ohio?") == (Worthiness.NOT_A_CLAIM, "question")
    assert classify_by_rule("Was he born in Ohio?", rules_off=frozenset({"question"})) == (Worthiness.FACTUAL, None)
    assert classify_by_rule("I think he was the best coach.") == (Worthiness.OPINION, "opinion-words")
    assert classify_by_rule("He coached at Purdue.") == (Worthiness.FACTUAL, None)


def test_verify_rules_record_their_names_and_step_aside_when_off(demo_kb: Store, verifier: OfflineVerifier) -> None:
    name = "Dick Hanley"

    def against(fact: str, *off: str) -> EntityVerdict:
        return EvidenceVerifier(demo_kb, verifier, None, VerifyConfig(rules_off=frozenset(off))).against(
            fact, PAGE, name
        )

    unrelated = against("Dick Hanley painted watercolours.")
    assert (unrelated.stance, unrelated.decided_by) == (Stance.IRRELEVANT, NO_SHARED_CONTENT)
    assert against("Dick Hanley painted watercolours.", NO_SHARED_CONTENT).decided_by != NO_SHARED_CONTENT

    wrong_year = against("Dick Hanley died in 1952.")  # a year the page never mentions
    assert (wrong_year.stance, wrong_year.decided_by) == (Stance.IRRELEVANT, KEY_TERMS_MISSING)
    asked = against("Dick Hanley died in 1952.", KEY_TERMS_MISSING)
    # with key-terms-missing off a later rule decides: the page gives the death year 1970 and never 1952
    assert asked.decided_by in (MODEL, MISPLACED_VALUE, STATED_OUTRIGHT, "subject-respelling", "unheard-value")

    true = against("Dick Hanley died in 1970.")
    assert true.supported and true.decided_by in (MODEL, STATED_OUTRIGHT)


def test_a_name_the_page_never_gives_decides_before_the_model(demo_kb: Store, verifier: OfflineVerifier) -> None:
    """The page has the year (Hanley died in 1970) but never the prize: not enough evidence, as for a missing
    year; with the rule off the model is asked."""

    def against(fact: str, *off: str) -> EntityVerdict:
        return EvidenceVerifier(demo_kb, verifier, None, VerifyConfig(rules_off=frozenset(off))).against(
            fact, PAGE, "Dick Hanley"
        )

    fact = "Dick Hanley won the Lindeman Prize in 1970."
    found = against(fact)
    assert (found.stance, found.decided_by, found.supported) == (Stance.IRRELEVANT, NAME_MISSING, False)
    assert found.evidence  # kept for the revision to look in
    assert against(fact, NAME_MISSING).decided_by != NAME_MISSING
    assert against("Dick Hanley died in 1970.").decided_by != NAME_MISSING


def test_every_fact_of_a_check_says_what_decided_it(demo_kb: Store, verifier: OfflineVerifier) -> None:
    text = (
        "Dick Hanley was an American football coach. He died in 1970. I think he was the best coach ever. "
        "I hope this helps!"
    )
    result = check(text, kb=demo_kb, name="Dick Hanley", verifier=verifier)
    facts = [f for g in result.groups for f in g.facts]
    assert facts and all(f.decided_by for f in facts)
    by_text = {f.text: f.decided_by for f in facts}
    assert any(v == "opinion-words" for v in by_text.values()), by_text
    assert any(v in (MODEL, STATED_OUTRIGHT, "entailed-by-longer") for v in by_text.values()), by_text
    # With the opinion rule off, the opinion is checked as a claim like any other.
    off = check(
        text, kb=demo_kb, name="Dick Hanley", verifier=verifier, config=CheckConfig().without(["opinion-words"])
    )
    assert all(f.decided_by != "opinion-words" for g in off.groups for f in g.facts)
    assert off.num_facts >= result.num_facts


def test_the_verdict_cache_keeps_rule_settings_apart(demo_kb: Store, verifier: OfflineVerifier) -> None:
    stored: dict[str, bytes] = {}

    class Cache:
        def get(self, key: str) -> bytes | None:
            return stored.get(key)

        def set(self, key: str, value: bytes) -> None:
            stored[key] = value

    fact = "Dick Hanley died in 1952."
    on = EvidenceVerifier(demo_kb, verifier, Cache()).against(fact, PAGE, "Dick Hanley")
    off = EvidenceVerifier(demo_kb, verifier, Cache(), VerifyConfig(rules_off=frozenset({KEY_TERMS_MISSING})))
    assert off.against(fact, PAGE, "Dick Hanley").decided_by != on.decided_by
    assert len(stored) == 2
    assert EntityVerdict.from_json(stored[next(iter(stored))]).decided_by == KEY_TERMS_MISSING


@pytest.mark.parametrize(
    ("tail", "rule_name"),
    [
        ("Did you mean the swimmer or the coach?", "question"),
        ("Was he also a swimmer?", "question"),
        ("I hope this helps! Let me know if you need anything else.", "assistant-chatter"),
    ],
)
def test_chat_asides_are_not_checked_as_claims(
    demo_kb: Store, verifier: OfflineVerifier, tail: str, rule_name: str
) -> None:
    """A correct answer that ends with a clarifying question or chatter scores as the answer alone; without
    the rule those asides are unsupported "facts" and a correct answer scores lower."""
    text = f"Dick Hanley was an American football coach. He died in 1970. {tail}"
    kept = check(text, kb=demo_kb, name="Dick Hanley", verifier=verifier)
    assert (kept.factscore, kept.dfactscore) == (1.0, 1.0)
    assert any(f.decided_by == rule_name for g in kept.groups for f in g.facts)
    # talk-residue also reads these as talk (nothing checkable, the reader or the assistant speaking): both go off
    # (and the check-worthiness model, the step's last say, which reads them as chatter too)
    without = CheckConfig().without([rule_name, "talk-residue", "worthiness-model"])
    off = check(text, kb=demo_kb, name="Dick Hanley", verifier=verifier, config=without)
    assert off.dfactscore is not None and off.dfactscore < 1.0


def test_the_revision_drops_chatter_and_keeps_the_answer(demo_kb: Store, verifier: OfflineVerifier) -> None:
    answer = "Dick Hanley was an American football coach. He died in 1970."
    result = check(answer + " I hope this helps!", kb=demo_kb, name="Dick Hanley", verifier=verifier)
    assert result.revision is not None and result.revision.text == answer
    assert [e.reason for e in result.revision.edits] == ["assistant chatter, not part of the answer"]
    kept = check(
        answer + " I hope this helps!",
        kb=demo_kb,
        name="Dick Hanley",
        verifier=verifier,
        config=CheckConfig().without(["drop-chatter"]),
    )
    assert kept.revision is not None and kept.revision.text == answer + " I hope this helps!"


@pytest.mark.parametrize(
    "opening",
    [
        "Thanks for your note — here's a short background you can adapt.",
        "Great question — here's a summary you can reuse.",
        "Sure thing — here is a short bio that you can edit.",
    ],
)
def test_a_sentence_of_chatter_and_talk_goes_whole(demo_kb: Store, verifier: OfflineVerifier, opening: str) -> None:
    """Once its chatter goes, what is left of a sentence that claims nothing ("— you can adapt.") goes too."""
    answer = "Dick Hanley was an American football coach. He died in 1970."
    result = check(f"{opening} {answer}", kb=demo_kb, name="Dick Hanley", verifier=verifier)
    assert result.revision is not None and result.revision.text == answer


def test_assistant_asides_are_not_claims_and_leave_the_revision(demo_kb: Store, verifier: OfflineVerifier) -> None:
    answer = "Dick Hanley was an American football coach. He died in 1970."
    for aside in ("I may be misremembering this.", "Please double-check these dates."):
        result = check(f"{answer} {aside}", kb=demo_kb, name="Dick Hanley", verifier=verifier)
        assert (result.factscore, result.dfactscore) == (1.0, 1.0)
        assert any(f.decided_by == "assistant-aside" for g in result.groups for f in g.facts)
        assert result.revision is not None and result.revision.text == answer
        off = check(
            f"{answer} {aside}",
            kb=demo_kb,
            name="Dick Hanley",
            verifier=verifier,
            # "I may be misremembering" is also assistant talk (its subject is the assistant) and talk residue:
            # all three go off
            config=CheckConfig().without(["assistant-aside", "assistant-talk", "talk-residue", "worthiness-model"]),
        )
        assert off.dfactscore is not None and off.dfactscore < 1.0
    # A hedged claim is still a claim: checked, not waved through as an aside.
    hedged = check(
        "Dick Hanley was an American football coach. He died in 1985, but I might be wrong.",
        kb=demo_kb,
        name="Dick Hanley",
        verifier=verifier,
    )
    assert hedged.dfactscore is not None and hedged.dfactscore < 1.0


@pytest.mark.parametrize(
    ("fact", "sentence"),
    [
        (
            "The atlas had somewhere around 250 map sheets.",
            "hmm not 100% sure but I think the atlas had somewhere around 250 map sheets?",
        ),
        ("She won the Brenner Prize in 1999.", "I believe she won the Brenner Prize in 1999?"),
        ("He played for Kjellvik FK until 2014.", "pretty sure he played for Kjellvik FK until 2014?"),
    ],
)
def test_a_statement_its_writer_hedges_with_a_rising_mark_is_a_claim(fact: str, sentence: str) -> None:
    # the pipeline takes the hedge off the fact and keeps the sentence as written
    assert classify_by_rule(fact, sentence) == (Worthiness.FACTUAL, None)
    assert classify_by_rule(fact, sentence.replace("?", ".")) == (Worthiness.FACTUAL, None)


@pytest.mark.parametrize(
    "sentence",
    ["Do you think he won the prize?", "Was he born in 1961?", "Who do you believe won the Brenner Prize in 1999?"],
)
def test_a_question_that_mentions_belief_is_still_a_question(sentence: str) -> None:
    assert classify_by_rule(sentence) == (Worthiness.NOT_A_CLAIM, "question")
