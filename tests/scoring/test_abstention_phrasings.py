"""Refusals and clarification requests as chat models phrase them: declining without an apology, asking
which person is meant. None of these has a fact to check; answers that do carry facts stay answers.
The names are invented."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from scoring.abstain import CLARIFICATION, REFUSAL, is_abstention
from scoring.checker import DECLINED_WITHOUT_EVIDENCE
from scoring.pipeline import check, default_config
from scoring.verifier import OfflineVerifier

REFUSALS = [
    "There isn't enough trustworthy material for me to write about Maren Oskarsdottir, so I won't guess.",
    "I won't guess at a biography of Teodor Vilanova: I can't verify anything about him.",
    "I'd rather not speculate about Ilse Varga's life without reliable sources.",
    "I don't know who Bram Castellanos is.",
    "I cannot verify any details about Quentin Adebayo-Ross.",
    "There is not enough reliable information about Sunniva Hartmann for me to give an accurate biography.",
    "Rather than giving you wrong details, I'll say plainly that I can't confirm who Jorun Aakre was.",
    "I am not going to make things up about Elio Marchetti.",
    "I can't write a biography of Petra Lindqvist-Oduya; there is no reliable record of her.",
    "Dalia Oyelaran does not appear to be a widely known public figure. I can't tell you much about her.",
    "I prefer not to speculate. There isn't any verifiable information about Cosimo Ferrante that I know of.",
    "To avoid giving you inaccurate information, I won't write a profile of Henrik Solvang.",
    "I'm not able to help with that: Amara Nwosu-Lind is not a well-known figure.",
    "Unfortunately I cannot reliably say anything about Ottilie Brandes.",
    "I don't recognise anyone named Rufus Achterberg. If you have a source, please share it.",
    "I'll have to sit this one out: I know too little about Tove Lindahl to be useful.",
    "It's better that I decline: nothing I know about Casimir Obuya is reliable enough.",
    "I must decline to write about Greta Solheim-Aas without a source.",
]

CLARIFICATIONS = [
    # the question ends in a colon before its numbered options
    "There are a few people named Ilse Varga, so I want to be sure I pick the right one. Do you mean:\n\n"
    "1. Ilse Varga, the cellist\n2. Ilse Varga, the chemist\n\nJust let me know which one, and I'll write it up.",
    "Which Anders Holm do you mean?",
    "There are several people named Anders Holm. Could you tell me which one you're asking about?",
    "Do you mean the Danish cyclist or the Norwegian composer? Let me know and I'll write the bio.",
    "Could you clarify which Mira Kovač you are interested in? More context would help.",
    "Are you asking about the architect or the painter? There are two people with that name.",
    "There are multiple people named Jonas Berg:\n- Jonas Berg (footballer)\n- Jonas Berg (poet)\n"
    "Which one do you mean?",
    "Can you give me more details, such as the field or the country? Several people are called Ana Ferreira.",
    "Before I answer, I need to know which Ana Ferreira you have in mind. Could you say?",
    "Which one are you after: the singer or the sculptor? Tell me which one and I'll start.",
    # options, then what the assistant will do once the user says which
    "Quick question before I answer: which Lena Moravec do you mean?\n- The chemist, who works on polymers\n"
    "- The journalist, who reports on Asia\nOnce you tell me, I'll give you a proper overview of that person.",
    "Which Tomas Ebbe are you asking about? As soon as you say which, I can write up his career.",
    "Do you mean the cellist or the rower? When you've told me, I will put together a short biography.",
    "Which Ida Brun do you have in mind? After you pick one, I'll summarise her work.",
    # the question in a block quote, options with their years in parentheses
    "> **Which Ilse Varga did you mean?**\n> - the chemist (born 1944)\n> - the cellist (born 1971)\n\n"
    "Please say which.",
    # the user's question restated, then who is meant, then a remark on the options that names nothing
    "Who is Tomas Ebbe? I need to know who you mean before I answer: the rower or the poet? They are easy to confuse.",
    # a bare "which one?", emoji options, a choice in the imperative
    "Hmm, which one? 👇\n\n🎻 Lena Moravec, the cellist\n🧪 Lena Moravec, the chemist\n\nPick one!",
    "Which of the two? Both are still working.\n- Jonas Berg (footballer, b. 1990)\n- Jonas Berg (poet, b. 1950)",
]

ANSWERS = [
    "Maren Oskarsdottir is an Icelandic geologist. She was born in 1961 in Akureyri.",
    "I can't verify every detail, but Teodor Vilanova was a Catalan architect who designed the Mercat de Sants.",
    "Anders Holm is a Danish cyclist. Which races did he win? He won the Tour of Denmark in 1998.",
    "There are two people named Jonas Berg. Jonas Berg (footballer) played for Brann from 2004 to 2011. "
    "Jonas Berg (poet) was born in Tromsø in 1950.",
    "Do you mean Mira Kovač the painter? She was born in Zagreb in 1977 and studied in Vienna.",
    "I don't have her birth date, but Ilse Varga was a Hungarian chemist who worked in Szeged.",
    "Which Lena Moravec do you mean? The chemist was born in Brno in 1970 and won the Heyrovsky Prize. "
    "Once you tell me, I'll say more.",
    # look-alikes of the options and remarks above: a verb outside the parentheses, a number, a name
    "Which one do you mean? Lena Moravec (born 1958) won the Heyrovsky Prize.",
    "Which Anders Holm do you mean? Both played for Denmark in 1998.",
    "Which one? They both studied in Paris.",
    "Which of them? Pick one: Ida Brun rowed for Norway in 2004, Ida Brun the poet wrote six books.",
]


@pytest.mark.parametrize("text", REFUSALS)
def test_declining_without_an_apology_abstains(text: str) -> None:
    assert is_abstention(text)


@pytest.mark.parametrize("text", CLARIFICATIONS)
def test_asking_which_person_is_meant_abstains(text: str) -> None:
    assert is_abstention(text)


@pytest.mark.parametrize("text", ANSWERS)
def test_answers_with_facts_are_not_abstentions(text: str) -> None:
    assert not is_abstention(text)


def test_the_rules_are_what_recognise_them() -> None:
    """Switched off, most of these phrasings are not recognised: the rules carry them."""
    plain = frozenset({REFUSAL, CLARIFICATION})
    assert sum(is_abstention(t, rules_off=plain) for t in REFUSALS) <= len(REFUSALS) // 3
    assert not any(is_abstention(t, rules_off=frozenset({CLARIFICATION})) for t in CLARIFICATIONS)


def test_a_refusal_is_abstained_not_scored_zero(demo_kb: Store, verifier: OfflineVerifier) -> None:
    result = check(REFUSALS[0], kb=demo_kb, verifier=verifier)
    assert (result.status, result.factscore, result.num_facts) == ("abstained", None, 0)
    asked = check(CLARIFICATIONS[1], kb=demo_kb, verifier=verifier)
    assert asked.status == "abstained"


# Answers that decline or ask somewhere among other talk: what is left over once the talk is set aside
# ("you'd have no way to tell which parts were accurate") shares nothing with any page.
DECLINING_AMID_TALK = [
    "Writing a profile of Liesel Amundsen would require facts I can't confirm. I could string together "
    "something that sounds plausible, but you'd have no way to tell which parts were accurate.",
    "This is a question I'll have to sit out. My knowledge of Liesel Amundsen is too patchy, and an inaccurate "
    "biography is arguably worse than none at all.",
    "There are several people named Liesel Amundsen. Do you mean the rower or the painter? They share a "
    "surname, so it's easy to mix them up. Let me know and I'll put a summary together.",
    "Before I answer, I need to know which Liesel Amundsen you have in mind. The name belongs to two people "
    "whose careers have nothing in common.",
    "It's better that I decline here. Nothing I could write would be worth much without a source.",
]
AMUNDSEN = (
    "Liesel Amundsen (born 1972 in Bergen) is a Norwegian rower. She won the world championship in the single "
    "sculls in 1997 and rowed for the Bergen Roklubb until 2004."
)


@pytest.fixture(scope="module")
def amundsen_kb() -> Store:
    kb = Store.in_memory()
    kb.add_pages([("Liesel Amundsen", AMUNDSEN, [])])
    return kb


@pytest.mark.parametrize("text", DECLINING_AMID_TALK)
def test_declining_amid_talk_abstains(text: str, amundsen_kb: Store, verifier: OfflineVerifier) -> None:
    result = check(text, kb=amundsen_kb, verifier=verifier, name="Liesel Amundsen")
    assert (result.status, result.factscore) == ("abstained", None)


def test_a_declining_answer_with_claims_is_still_checked(amundsen_kb: Store, verifier: OfflineVerifier) -> None:
    """A refusal cue does not excuse claims the page can judge: a wrong one is still not supported."""
    text = (
        "I can't confirm everything about Liesel Amundsen. She won the world championship in the single sculls "
        "in 2001 and rowed for the Oslo Roklubb."
    )
    result = check(text, kb=amundsen_kb, verifier=verifier, name="Liesel Amundsen")
    assert result.status == "checked" and result.factscore is not None and result.factscore < 1.0
    # A clarification that also states something the page can judge is checked on it.
    asked = "Do you mean the rower or the painter? They are both Norwegian, so it's easy to mix them up."
    assert check(asked, kb=amundsen_kb, verifier=verifier, name="Liesel Amundsen").status == "checked"


def test_the_rule_is_what_abstains(amundsen_kb: Store, verifier: OfflineVerifier) -> None:
    config = default_config().without(frozenset({DECLINED_WITHOUT_EVIDENCE}))
    results = [
        check(t, kb=amundsen_kb, verifier=verifier, name="Liesel Amundsen", config=config).status
        for t in DECLINING_AMID_TALK
    ]
    assert results.count("abstained") < len(DECLINING_AMID_TALK)
