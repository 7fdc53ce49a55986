"""What is left of a refusal or a clarification once its set phrases are read: advice on where to look,
hypotheticals about what a guess would do, imperatives, offers to the reader. None of it is a claim, so an
answer made only of such talk abstains; the same talk beside real facts is simply not checked. The
phrasings are ours, written for this test; the names are invented."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.enums import Worthiness
from scoring.pipeline import check
from scoring.worthiness import TALK_RESIDUE, classify_by_rule

PAGES = [
    (
        "Edda Marlowe (painter)",
        "Edda Marlowe (born 1958 in Bergen) is a Norwegian painter. She studied at the Oslo Academy of Fine Arts "
        "and won the Aasen Prize in 1994.",
    ),
    (
        "Edda Marlowe (rower)",
        "Edda Marlowe (born 1990 in Hull) is an English rower who won a bronze medal at the 2016 Summer Olympics.",
    ),
]

DECLINING = [
    "I'd rather not guess about Edda Marlowe. Anything I produced would be invention dressed up as fact. "
    "A gallery's artist page or a museum catalogue would be a much better source.",
    "Writing about Edda Marlowe would mean filling gaps with guesses. It's better that I hold back here; an "
    "interview or an official profile would serve you better.",
    "That's one I can't answer well. If you share a link or a snippet, I'm happy to help summarise it.",
    "### Unable to answer\n\nI can't give a dependable account of Edda Marlowe.\n\n**What you can do instead:**\n"
    "- Check an encyclopedia entry\n- Look for recent interviews\n- Search a newspaper archive",
    "I'm going to pass on this one:\n\n- I have no verified details about Edda Marlowe.\n- Guesses would risk "
    "misleading you.\n- A library database would be the safest place to start.",
    "No reliable information on Edda Marlowe is available to me, so I'll leave this unanswered. A national "
    "archive would be the right place to start.",
    "I don't hold trustworthy information about her. Any summary I wrote might include invented dates. A "
    "regional newspaper might be a good place to ask.",
    "Honestly, I'd be guessing. You might try a professional directory, which should list her.",
    "I can't confirm anything about Edda Marlowe, and I would rather say so than mislead you. Try a local "
    "historical society.",
    "1. I don't have verified facts about Edda Marlowe.\n2. Filling the gaps would mean inventing things.\n"
    "3. A university staff page would be more reliable.",
    "Sorry to disappoint! What I know is too thin to separate fact from guesswork. Ask a librarian, or look "
    "for an obituary in a local paper.",
    "My knowledge here is too patchy to stand behind. A bookseller's author page would give you solid ground.",
]

ASKING = [
    "Which Edda Marlowe are you asking about? I know of at least two:\n\n- the painter\n- the rower\n\n"
    "Tell me which one and I'll go from there.",
    # A generic statement with no person and no modal reads as a claim; it shares nothing with any page, so
    # the answer abstains by declined-without-evidence.
    "Could you tell me which Edda Marlowe you mean? One word such as 'art' or 'rowing' will do.",
    "I might be able to help, but I'm not sure which Edda Marlowe you're referring to. Could you tell me where "
    "you came across the name?",
    "Do you mean Edda Marlowe the painter or Edda Marlowe the rower? A little more context would help me give "
    "you the right answer.",
    "**Quick question before I answer:** which Edda Marlowe do you mean?\n\n- **The painter**\n- **The rower**\n\n"
    "Once you tell me, I'll write a proper overview.",
    "Q: Which Edda Marlowe?\nA: That's my question for you, actually. I'd rather ask than guess and give you "
    "the wrong person's story. Which one did you mean?",
    "I can help, but the name is shared by at least two public figures. Which do you mean?\n\n1. The painter\n"
    "2. The rower\n\nReply with a number and I'll write a profile.",
    "Good question! There's more than one Edda Marlowe. Just say the word and I'll dive into whichever one you mean.",
]


@pytest.fixture(scope="module")
def store() -> Store:
    return Store.in_memory(PAGES)


@pytest.mark.parametrize("answer", DECLINING + ASKING)
def test_an_answer_made_only_of_talk_abstains(store: Store, answer: str) -> None:
    result = check(answer, kb=store, name="Edda Marlowe")
    assert result.status == "abstained", [f.text for g in result.groups for f in g.facts]
    assert result.factscore is None


def test_without_the_rule_the_residue_is_checked_as_claims(store: Store) -> None:
    from dataclasses import replace

    from scoring.engines import build_checker
    from scoring.pipeline import default_config

    checker = build_checker("offline", config=replace(default_config()).without([TALK_RESIDUE]))
    statuses = [checker.check(a, kb=store, name="Edda Marlowe").status for a in DECLINING]
    assert statuses.count("abstained") < len(DECLINING) / 2


@pytest.mark.parametrize(
    ("fact", "sentence", "subjectless"),
    [
        ("A museum catalogue would be a much better source.", "", False),
        ("Check an encyclopedia entry.", "Check an encyclopedia entry.", True),
        ("It's better.", "It's better that I hold back here.", False),
        (
            "A professional directory should list her.",
            "You might try a professional directory, which should list her.",
            False,
        ),
    ],
)
def test_talk_with_nothing_checkable_is_not_a_claim(fact: str, sentence: str, subjectless: bool) -> None:
    assert classify_by_rule(fact, sentence, frozenset(), subjectless=subjectless) == (
        Worthiness.NOT_A_CLAIM,
        TALK_RESIDUE,
    )


@pytest.mark.parametrize(
    ("fact", "sentence"),
    [
        # A value or a name of its own keeps a fact a claim, modal or not.
        ("Edda Marlowe would later win the Aasen Prize in 1994.", "She would later win the Aasen Prize in 1994."),
        ("Edda Marlowe studied at the Oslo Academy of Fine Arts.", "I believe she studied at the Oslo Academy."),
        ("Edda Marlowe was a painter.", "She was a painter, you know."),
    ],
)
def test_facts_with_their_own_values_or_names_stay_claims(fact: str, sentence: str) -> None:
    bare = fact.replace("Edda Marlowe", "She")
    assert classify_by_rule(fact, sentence, frozenset(), bare=bare)[0] is Worthiness.FACTUAL or "was a painter" in fact


def test_talk_beside_facts_is_left_unchecked_and_the_facts_are_scored(store: Store) -> None:
    answer = (
        "Edda Marlowe is a Norwegian painter born in 1958 in Bergen. She won the Aasen Prize in 1994. "
        "A gallery's catalogue would tell you more about her later work."
    )
    result = check(answer, kb=store, name="Edda Marlowe")
    assert result.status == "checked" and result.factscore == 1.0
    talk = [f for g in result.groups for f in g.facts if f.decided_by == TALK_RESIDUE]
    assert talk and all("catalogue" in f.text for f in talk)


TALK_AROUND_FACTS = (
    "Edda Marlowe is a Norwegian painter born in 1958 in Bergen. Looking back for a moment, it's remarkable how much "
    "ground one career can cover. She won the Aasen Prize in 1994. Readers who come to this for the first time "
    "usually find that the early years are the most surprising. That's the gist of it, and the details fill in the "
    "rest. Honestly, it's a lovely story, and she studied at the Oslo Academy of Fine Arts. It is worth noting that "
    "the academy closed its painting school."
)


def test_the_clauses_of_a_sentence_of_talk_are_talk_and_claims_beside_them_stay() -> None:
    from scoring.pipeline import CheckConfig
    from scoring.worthiness import TALK_CLAUSE

    result = check(TALK_AROUND_FACTS, kb=Store.in_memory(PAGES), name="Edda Marlowe")
    facts = {f.text: f for g in result.groups for f in g.facts}
    talk = {t for t, f in facts.items() if f.decided_by == TALK_CLAUSE}
    assert talk == {"Readers come for the first time.", "The details fill in the rest."}
    # a claim about the person, or about a thing, beside talk is checked
    assert facts["Edda Marlowe studied at the Oslo Academy of Fine Arts."].worthiness is Worthiness.FACTUAL
    assert facts["The academy closed its painting school."].worthiness is Worthiness.FACTUAL
    off = check(
        TALK_AROUND_FACTS, kb=Store.in_memory(PAGES), name="Edda Marlowe", config=CheckConfig().without([TALK_CLAUSE])
    )
    assert all(f.decided_by != TALK_CLAUSE for g in off.groups for f in g.facts)
    assert any(
        f.text == "The details fill in the rest." and f.worthiness is Worthiness.FACTUAL
        for g in off.groups
        for f in g.facts
    )


@pytest.mark.parametrize(
    ("fact", "bare", "decided"),
    [
        ("It steps back for a second.", None, "talk-clause"),
        ("People look for the first time.", None, "talk-clause"),
        ("The rest fills in the picture.", None, "talk-clause"),
        # look-alikes: a value or a name of its own, the person named or referred to
        ("The museum closed in 2004.", None, None),
        ("It carries a two-year warranty.", None, None),
        ("The details fill in the Marlowe archive.", None, None),
        ("He retired early.", None, None),
        ("Edda Marlowe retired early.", " retired early.", None),
    ],
)
def test_a_clause_beside_talk_is_talk_only_without_a_value_and_not_about_the_person(
    fact: str, bare: str | None, decided: str | None
) -> None:
    assert classify_by_rule(fact, "", frozenset(), bare=bare, talk_beside=True)[1] == decided
    assert classify_by_rule(fact, "", frozenset(), bare=bare)[1] is None  # alone, it is a claim
