"""Rules as objects: each step's rules are one ordered tuple (the order is the precedence), every rule names
its step, purpose and tested phrasings, and one runner applies them and stamps ``decided_by``."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from knowledge.store import Store
from schemas.enums import Stance, Worthiness
from schemas.knowledge import Passage
from scoring.abstain import ABSTAIN_RULES, Said, is_abstention
from scoring.rules import RULES, Rule, register, run
from scoring.sentences import SPLIT_RULES
from scoring.verifier import OfflineVerifier
from scoring.verify import (
    KEY_TERM_RULES,
    KEY_TERMS_MISSING,
    NO_SHARED_CONTENT,
    SUBJECT_RESPELLING,
    VERIFY_READINGS,
    VERIFY_RULES,
    EvidenceVerifier,
    VerifyConfig,
    _key_terms_found,
)
from scoring.worthiness import WORTHINESS_RULES, Classified, Statement, classify_by_rule
from tests.scoring.stance_stand_in import names_in_one_sentence

STEPS = {
    "verify": VERIFY_RULES + VERIFY_READINGS,
    "worthiness": WORTHINESS_RULES,
    "segment": ABSTAIN_RULES + SPLIT_RULES,
}


@dataclass(frozen=True)
class _Mark:
    decided_by: str = ""

    def stamped(self, name: str) -> _Mark:
        return replace(self, decided_by=name)


def test_the_runner_applies_rules_in_order_skips_those_off_and_stamps_the_deciding_name() -> None:
    seen: list[str] = []

    def says(word: str, name: str) -> Rule[str, _Mark]:
        def apply(text: str) -> _Mark | None:
            seen.append(name)
            return _Mark() if word in text else None

        return Rule(name, "test", f"'{word}' decides", (word,), apply)

    rules = (says("alpha", "first"), says("a", "second"), says("beta", "third"))
    assert run(rules, "alpha beta", frozenset()) == _Mark("first")
    assert seen == ["first"]  # the rules after the deciding one are not asked
    assert run(rules, "alpha beta", frozenset({"first"})) == _Mark("second")
    assert run(rules, "beta", frozenset({"first", "second"})) == _Mark("third")
    assert run(rules, "xyz", frozenset()) is None
    assert run(rules, "alpha", frozenset({"first", "second", "third"})) is None


def test_registering_a_name_twice_raises() -> None:
    with pytest.raises(ValueError, match="registered twice"):
        register(Rule(NO_SHARED_CONTENT, "verify", "again"))


@pytest.mark.parametrize("step", sorted(STEPS))
def test_every_rule_of_a_step_is_a_registered_object_with_three_phrasings(step: str) -> None:
    rules = STEPS[step]
    assert len({r.name for r in rules}) == len(rules)
    for r in rules:
        assert RULES[r.name] is r and r.step == step and r.summary, r.name
        assert r.apply is not None, r.name
        assert len(r.examples) >= (2 if r in VERIFY_READINGS else 3), r.name
    for r in KEY_TERM_RULES:
        assert RULES[r.name] is r and len(r.examples) >= 3


def test_the_verify_rules_keep_their_precedence() -> None:
    """The order written in VERIFY_RULES: the readings of spelled numbers, relative dates and idioms, gates that decide
    without the model, refutations, then the rules that overrule the model's not-supported with a page sentence."""
    assert [r.name for r in VERIFY_RULES] == [
        "numeral-reading",
        "relative-date",
        "inverted-negation",
        "idiom-reading",
        "rank-reading",
        "first-reading",
        "negation-reading",
        "occupation-reading",
        "tenure-reading",
        "rank-count-reading",
        "negation-mismatch",
        "negated-value",
        "negation-stated",
        "kin-contradicted",
        "kin-stated",
        "crossed-value",
        "no-shared-content",
        "unmatched-number",
        "key-terms-missing",
        "name-missing",
        "unlisted-award",
        "rank-mismatch",
        "swapped-role",
        "misplaced-value",
        "contradicted-value",
        "rebound-year",
        "contradicted-count",
        "contradicted-measure",
        "contradicted-hours",
        "unheard-value",
        "stated-outright",
        "stated-count",
        "counted-dates",
        "stated-measure",
        "dated-duration",
        "work-year",
    ]
    assert [r.name for r in WORTHINESS_RULES][:2] == ["question", "assistant-chatter"]


def test_a_gate_decides_before_the_model_is_asked(verifier: OfflineVerifier) -> None:
    kb = Store.in_memory()
    kb.add_pages([("Ana Ruiz", "Ana Ruiz taught at the Northern Institute of Oceanography from 1990 to 2001.", [])])
    checker = EvidenceVerifier(kb, verifier)
    far = checker.against("Ana Ruiz bred racehorses.", "Ana Ruiz", "Ana Ruiz")
    year = checker.against("Ana Ruiz taught oceanography in 1985.", "Ana Ruiz", "Ana Ruiz")
    assert (far.decided_by, year.decided_by) == (NO_SHARED_CONTENT, KEY_TERMS_MISSING)
    assert checker.calls == 0
    asked = EvidenceVerifier(kb, verifier, config=VerifyConfig(rules_off=frozenset({KEY_TERMS_MISSING})))
    assert asked.against("Ana Ruiz taught oceanography in 1985.", "Ana Ruiz", "Ana Ruiz").decided_by != (
        KEY_TERMS_MISSING
    )
    assert asked.calls == 1


@pytest.mark.parametrize(
    ("name", "page_name", "fact"),
    [
        ("Chris Evans", "Christopher Robert Evans", "Chris Evans coached Real Oviedo from 2004 to 2009."),
        ("Jon Smith", "Jonathan Smith", "Jon Smith coached Real Oviedo from 2004 to 2009."),
        ("Alex Ward", "Alexander James Ward", "Alex Ward coached Real Oviedo from 2004 to 2009."),
    ],
)
def test_the_subject_spelt_as_the_page_spells_it_is_read_too(
    verifier: OfflineVerifier, name: str, page_name: str, fact: str
) -> None:
    kb = Store.in_memory()
    text = f"{page_name} is a Spanish football manager. {page_name} coached Real Oviedo from 2004 to 2009."
    kb.add_pages([(page_name, text, [])])
    # The model alone (stated-outright would support both readings).
    model_only = frozenset({"stated-outright"})
    on = EvidenceVerifier(kb, verifier, config=VerifyConfig(rules_off=model_only)).against(fact, page_name, name)
    off = EvidenceVerifier(kb, verifier, config=VerifyConfig(rules_off=model_only | {SUBJECT_RESPELLING}))
    plain = off.against(fact, page_name, name)
    assert (on.decided_by, plain.decided_by) == (SUBJECT_RESPELLING, "model")
    assert on.support > plain.support


@pytest.mark.parametrize(
    ("name", "page_name"),
    [("Raul Gonzalez", "Raúl González"), ("Ines Muller", "Inés Müller"), ("Francois Lefevre", "François Lefèvre")],
)
def test_a_name_written_without_its_accents_needs_no_respelling(
    verifier: OfflineVerifier, name: str, page_name: str
) -> None:
    """Since every folded form transliterates (vocabulary.fold), the stance model reads "Raul Gonzalez" as the
    page's "Raúl González" by itself: respelling it changes nothing."""
    kb = Store.in_memory()
    kb.add_pages([(page_name, f"{page_name} coached Real Oviedo from 2004 to 2009.", [])])
    fact = f"{name} coached Real Oviedo from 2004 to 2009."
    model_only = frozenset({"stated-outright"})
    on = EvidenceVerifier(kb, verifier, config=VerifyConfig(rules_off=model_only)).against(fact, page_name, name)
    off = EvidenceVerifier(kb, verifier, config=VerifyConfig(rules_off=model_only | {SUBJECT_RESPELLING}))
    plain = off.against(fact, page_name, name)
    assert on.decided_by == plain.decided_by == "model"
    assert on.support == plain.support and on.stance is plain.stance is Stance.SUPPORT


@pytest.mark.parametrize(
    ("fact", "share", "off"),
    [
        ("Odile Marchetti recorded Suite II.", 0.0, 1.0),  # the page only knows Suite III
        ("Odile Marchetti recorded Suite IV.", 0.0, 1.0),
        ("Odile Marchetti played for George IV.", 0.0, 1.0),  # the page has George III
        ("Odile Marchetti recorded Suite III.", 1.0, 1.0),
        ("Odile Marchetti played for George III.", 1.0, 1.0),
    ],
)
def test_roman_numeral_terms_are_exact_and_switch_off(fact: str, share: float, off: float) -> None:
    page = Passage(
        title="Odile Marchetti",
        text="In 1990 Odile Marchetti recorded Suite III for the label, and she once played for George III's heirs.",
    )
    assert _key_terms_found(fact, "Odile Marchetti", [page]) == share
    # Without the rule a numeral is no key term: the name beside it decides.
    assert _key_terms_found(fact, "Odile Marchetti", [page], frozenset({"roman-numeral-terms"})) == off


@pytest.mark.parametrize(
    ("fact", "share"),
    [
        ("Ana Ruiz taught at NIO.", 1.0),
        ("Ana Ruiz studied at MIT.", 1.0),
        ("Ana Ruiz lectured at UCSB.", 1.0),
        ("Ana Ruiz taught at NYU.", 0.0),  # initials of no name on the page
        ("Ana Ruiz studied at MTI.", 0.0),
    ],
)
def test_acronym_terms_match_initials_of_a_name_on_the_page(fact: str, share: float) -> None:
    page = Passage(
        title="Ana Ruiz",
        text=(
            "Ana Ruiz taught at the Northern Institute of Oceanography until 2001. She studied at the Massachusetts "
            "Institute of Technology and lectured at the University of California Santa Barbara."
        ),
    )
    assert _key_terms_found(fact, "Ana Ruiz", [page]) == share
    assert _key_terms_found(fact, "Ana Ruiz", [page], frozenset({"acronym-terms"})) == 0.0


@pytest.mark.parametrize(
    ("text", "decided"),
    [
        ("There is also a John Hemming.", "existence-announcement"),
        ("There was another Dick Hanley.", "existence-announcement"),
        ("There is one more Kenji Sato.", "existence-announcement"),
        # Look-alikes: a long sentence that says what the person did is a claim.
        ("There is also a John Hemming who explored the Amazon basin for the Royal Geographical Society.", None),
        ("Thereafter he coached at Purdue.", None),
    ],
)
def test_existence_announcements(text: str, decided: str | None) -> None:
    assert classify_by_rule(text, rules_off=frozenset())[1] == decided


@pytest.mark.parametrize(
    ("text", "decided"),
    [
        ("I may be misremembering the exact year.", "assistant-aside"),
        ("Please double-check these details.", "assistant-aside"),
        ("Take this with a grain of salt.", "assistant-aside"),
        ("Don't quote me on the dates.", "assistant-aside"),
        # Look-alikes: a hedged claim is still a claim; checking as a job is a fact.
        ("He was born in 1936, but I might be wrong.", None),
        ("She checked tickets at the Lyceum Theatre from 1950 to 1958.", None),
    ],
)
def test_assistant_asides(text: str, decided: str | None) -> None:
    assert classify_by_rule(text, rules_off=frozenset())[1] == decided


@pytest.mark.parametrize("rule", WORTHINESS_RULES, ids=lambda r: r.name)
def test_every_worthiness_rule_decides_its_first_phrasing_and_steps_aside_when_off(
    rule: Rule[Statement, Classified],
) -> None:
    phrasing = rule.examples[0]
    sentence = phrasing if rule.name != "talk-residue" else ""
    beside = rule.name == "talk-clause"  # decides only where another clause of the sentence is talk
    worthiness, decided = classify_by_rule(
        phrasing, sentence, frozenset(), subjectless=rule.name == "talk-residue", talk_beside=beside
    )
    assert decided == rule.name and worthiness is not Worthiness.FACTUAL
    assert classify_by_rule(phrasing, sentence, frozenset({rule.name}), talk_beside=beside)[1] != rule.name


@pytest.mark.parametrize("rule", ABSTAIN_RULES, ids=lambda r: r.name)
def test_every_abstention_rule_abstains_on_its_phrasings_and_not_when_off(rule: Rule[str, Said]) -> None:
    for phrasing in rule.examples:
        assert is_abstention(phrasing, rules_off=frozenset()), phrasing
        assert not is_abstention(phrasing, rules_off=frozenset({r.name for r in ABSTAIN_RULES})), phrasing


@pytest.mark.parametrize("stance", [Stance.SUPPORT])
def test_a_verdict_stamped_by_a_rule_keeps_everything_else(stance: Stance) -> None:
    from scoring.verify import EntityVerdict

    v = EntityVerdict("Ana Ruiz", stance, 0.8, 0.1, (), 1.0)
    assert v.stamped("stated-outright") == replace(v, decided_by="stated-outright")


@pytest.mark.parametrize(
    ("name", "fact"),
    [
        ("Maria del Carmen Ortiz-Vela", "Maria del Carmen Ortiz-Vela won the Castellana Engineering Award in 2016."),
        (
            "Jean-Baptiste Okonkwo-Laurent",
            "Jean-Baptiste Okonkwo-Laurent won the Castellana Engineering Award in 2016.",
        ),
        ("Anna Lisa Brandtner Holm", "Anna Lisa Brandtner Holm won the Castellana Engineering Award in 2016."),
    ],
)
def test_a_long_subject_name_is_also_read_as_its_last_word(name: str, fact: str) -> None:
    """The stance model reads a long name as words the page must hold; the name is no evidence either way.

    A stand-in model that does exactly that (every name word of the claim in one page sentence) keeps the test
    on the rule whatever the packaged weights say of these facts."""
    verifier = names_in_one_sentence()
    last = name.split()[-1]
    text = (
        f"{name} is a robotics engineer. In 2006 {last} co-founded Gripwell Robotics in Sydney and served as its chief "
        f"executive until 2019. {last} holds 19 patents and received the Castellana Engineering Award in 2016."
    )
    kb = Store.in_memory([(name, text, [])])
    model_only = frozenset({"stated-outright"})
    on = EvidenceVerifier(kb, verifier, config=VerifyConfig(rules_off=model_only)).against(fact, name, name)
    off = EvidenceVerifier(kb, verifier, config=VerifyConfig(rules_off=model_only | {"surname-reading"}))
    plain = off.against(fact, name, name)
    assert (on.stance, on.decided_by) == (Stance.SUPPORT, "surname-reading")
    assert not plain.supported and plain.support < on.support
    # A two-word name without a hyphen is read as written.
    short = EvidenceVerifier(kb, verifier, config=VerifyConfig(rules_off=model_only)).against(
        "Anna Holm won the Castellana Engineering Award in 2016.", name, "Anna Holm"
    )
    assert short.decided_by != "surname-reading"
