"""A revision is checked again before it is offered (issue 28.3): what the re-check rejects, the deletion it
falls back to, and the fragments neither may leave."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaluation.corpus import load
from evaluation.engines import Engine
from knowledge.store import Store
from schemas.check import CheckResult, Evidence, FactGroup, FactResult
from schemas.enums import Stance, Verdict
from scoring.engines import build_checker
from scoring.pipeline import default_config
from scoring.recheck import DELETE_FAILING, RECHECKED, refuted_values, rejections
from scoring.revise import _opened, fragment

HANLEY = (
    "Dick Hanley was an American swimmer born in 1936. He competed for the United States at the 1956 "
    "Summer Olympics in Melbourne, where he won a silver medal in the 4×200-metre freestyle relay. "
    "He later became a football coach, leading the Haskell Institute from 1922 to 1926 and Northwestern "
    "University from 1927 to 1934. During the Second World War he served in the United States Marine Corps. "
    "Hanley died in 1970."
)


@pytest.mark.parametrize(
    "sentence",
    [
        # an opening on punctuation
        ": she founded in 2012.",
        ", and she was born in 1988.",
        "—: Trained as a surveyor in Madrid",
        # a pronoun cut off from its verb
        "It, might have sharpened his style.",
        "He, was the first to cross the strait.",
        "They, founded the studio in 1962.",
        # punctuation beside punctuation
        "Record:, 9 losses, 3 draws.",
        "Family:; they were married to Grace Wanjiru.",
        "She had 1992:.",
        # an empty or unpaired parenthesis
        "He was born in Oslo ().",
        "Later life: Keystone Gym, Philadelphia (1946–1965.",
        # a word or a phrase said twice
        "Another Declan Fairweather was founder Founder Open Water Youth.",
        "She was was born in Cork.",
        "Another Dick Hanley, a swimmer, was a swimmer born in 1936.",
        "Another Priya Raghunathan, a cricketer, is a cricketer.",
        # an ending on a word that needs another after it
        "Theodore R. Vance was mayor of.",
        "She is a composer who also.",
        "He moved to Chicago in 1961 and.",
        "The prize went to the.",
        # an auxiliary or a pronoun left without its words
        "Mei Lin Osterhagen's had.",
        "From 1990 he was.",
        "Later in 2006 she.",
        # an opening or an ending on a dash whose other side went
        "— you can adapt.",
        "– a few practical details.",
        "Then crossed the North Sea for a doctorate from Kingsmere University —.",
    ],
)
def test_fragments_are_seen(sentence: str) -> None:
    assert fragment(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "He was born in 1936.",
        "Born: 1912, Tromsø, Norway.",
        "He won gold (1956) and silver (1960).",
        "Another Dick Hanley was a swimmer born in 1936.",
        "It was built in 1890.",
        "She trained in Kraków, Warsaw and Paris.",
        "The team won the cup; the crowd cheered.",
        # look-alikes: a preposition after a verb in -ing, a word that only looks like one of those
        "It was the answer you were hoping for.",
        "He retired in 2010 and moved to Bath.",
        "She played the oboe.",
        "Her best-known album is Into.",
        # look-alikes of the endings: a word that only holds the letters, a dash inside the sentence, a hyphen
        "She trained at the Vestland School of Art — and of Craft.",
        "The thesis was his own work, as was the Hansa Prize.",
        "She was born in 1981 and has taught since 2019.",
        "The studio in Bergen was hers, the kiln his.",
        "- Born in 1951.",
    ],
)
def test_sentences_that_read_well_are_no_fragments(sentence: str) -> None:
    assert not fragment(sentence)


@pytest.mark.parametrize(
    ("sentence", "opened"),
    [
        ("—: Trained as a surveyor in Madrid", "Trained as a surveyor in Madrid"),
        (": she founded the studio in 2012.", "She founded the studio in 2012."),
        (", and later taught in Oslo.", "And later taught in Oslo."),
        ("Born: 1912, Oslo.", "Born: 1912, Oslo."),
        ("- 32 caps for Norway", "- 32 caps for Norway"),
    ],
)
def test_a_bare_opening_goes(sentence: str, opened: str) -> None:
    assert _opened(sentence) == opened


# --- what the re-check rejects -------------------------------------------------------------------------------


def _fact(text: str, verdict: Verdict, stance: Stance, sentence: int = 0, evidence: str = "") -> FactResult:
    ev = [Evidence(title="P", text=evidence)] if evidence else []
    return FactResult(
        text=text, sentence_index=sentence, verdict=verdict, verdict_linked=verdict, stance=stance, evidence=ev
    )


def _result(sentences: list[str], facts: list[FactResult]) -> CheckResult:
    return CheckResult(sentences=sentences, groups=[FactGroup(mention="Ann Berg", entity="P", facts=facts)])


SUPPORTED = (Verdict.SUPPORTED, Stance.SUPPORT)
REFUTED = (Verdict.NOT_SUPPORTED, Stance.REFUTE)
UNKNOWN = (Verdict.NOT_SUPPORTED, Stance.IRRELEVANT)


@pytest.mark.parametrize(
    ("page", "answer", "revised"),
    [
        # a place of another relation: where she studied, for where she teaches
        (
            "Ann Berg studied at Oxford. She teaches at Cambridge.",
            "Ann Berg teaches at Leeds.",
            "Ann Berg teaches at Oxford.",
        ),
        # a year of another relation: when he died, for when he was inducted
        (
            "Ann Berg died in Dayton in 1969 and was inducted into the Gridiron Hall of Fame in 1972.",
            "Ann Berg was inducted into the Gridiron Hall of Fame in 1975.",
            "Ann Berg was inducted into the Gridiron Hall of Fame in 1969.",
        ),
        # a university for an award
        (
            "Ann Berg studied chemistry at the Elbe Technical University and received her doctorate there in 1998.",
            "Ann Berg received the Caradoc Award in 1998.",
            "Ann Berg received the Elbe Technical University in 1998.",
        ),
    ],
)
def test_a_value_of_another_relation_is_rejected_though_supported(page: str, answer: str, revised: str) -> None:
    first = _result([answer], [_fact(answer, *UNKNOWN)])
    again = _result([revised], [_fact(revised, *SUPPORTED, evidence=page)])
    why = rejections(answer, first, again, {"P": [page]})
    assert why and all(w.startswith("another relation's value") for w in why)


@pytest.mark.parametrize(
    ("page", "answer", "revised"),
    [
        (
            "Ann Berg studied at Oxford. She teaches at Cambridge.",
            "Ann Berg teaches at Leeds.",
            "Ann Berg teaches at Cambridge.",
        ),
        (
            "Ann Berg died in Dayton in 1969 and was inducted into the Gridiron Hall of Fame in 1972.",
            "Ann Berg was inducted into the Gridiron Hall of Fame in 1975.",
            "Ann Berg was inducted into the Gridiron Hall of Fame in 1972.",
        ),
        (
            "In 1995 she founded her own practice, Brandt Atelier, in Strasbourg.",
            "Ann Berg founded her own practice in 1998.",
            "Ann Berg founded her own practice in 1995.",
        ),
    ],
)
def test_a_value_in_its_own_relation_is_offered(page: str, answer: str, revised: str) -> None:
    first = _result([answer], [_fact(answer, *UNKNOWN)])
    again = _result([revised], [_fact(revised, *SUPPORTED, evidence=page)])
    assert rejections(answer, first, again, {"P": [page]}) == []


@pytest.mark.parametrize(
    ("refuted", "revised", "value"),
    [
        ("Ann Berg received the Wexcombe Medal in 2014.", "Ann Berg received the Wexcombe Medal in 2001.", "Wexcombe"),
        ("Ann Berg won the Thornbury Prize in 1984.", "Ann Berg won the Thornbury Prize.", "Thornbury"),
        ("Ann Berg was born in Bergen in 1931.", "Ann Berg was born in Bergen.", "Bergen"),
    ],
)
def test_a_revision_that_keeps_a_refuted_value_is_rejected(refuted: str, revised: str, value: str) -> None:
    page = "Ann Berg was born in Oslo in 1931. She received the Corrib Medal in 2001."
    first = _result([refuted], [_fact(refuted, *REFUTED, evidence=page)])
    again = _result([revised], [_fact(revised, *SUPPORTED, evidence=page)])
    why = rejections(refuted, first, again, {"P": [page]})
    assert any(w.startswith("refuted value kept") and value in w for w in why)
    assert any(value in v for v in refuted_values(first, {"P": [page]}))


def test_a_value_crossed_from_a_namesake_may_stay_in_the_namesakes_own_sentence() -> None:
    """ "born in Bergen" crossed from a namesake (``crossed-value``): Bergen is the namesake's, not invented, so the
    revision may keep it in the namesake's sentence; the crossed fact itself is revised (scoring.revise), and the
    same fact refuted by another rule still counts."""
    page = "Ann Berg was born in Oslo in 1931."
    fact = "Ann Berg was born in Bergen in 1931."
    revised = "Her namesake was born in Bergen. Ann Berg was born in Oslo in 1931."
    crossed = _fact(fact, *REFUTED, evidence=page).model_copy(update={"decided_by": "crossed-value"})
    first = _result([fact], [crossed])
    again = _result([revised], [_fact("Ann Berg was born in Oslo in 1931.", *SUPPORTED, sentence=1, evidence=page)])
    assert refuted_values(first, {"P": [page]}) == frozenset()
    assert not any(w.startswith("refuted value kept") for w in rejections(fact, first, again, {"P": [page]}))
    other = _result([fact], [_fact(fact, *REFUTED, evidence=page)])
    assert refuted_values(other, {"P": [page]}) == frozenset({"Bergen"})


def test_what_the_revision_keeps_must_be_supported_or_kept_as_written() -> None:
    answer = "Ann Berg is a glassblower. She liked the sea."
    first = _result(answer.split(". "), [_fact("Ann Berg liked the sea.", *UNKNOWN, sentence=1)])
    # kept as written, not refuted: offered
    again = _result(["She liked the sea."], [_fact("Ann Berg liked the sea.", *UNKNOWN)])
    assert rejections(answer, first, again, {"P": []}) == []
    # reworded and not supported: rejected
    again = _result(["She loved the ocean."], [_fact("Ann Berg loved the ocean.", *UNKNOWN)])
    assert rejections(answer, first, again, {"P": []}) == ["not supported: Ann Berg loved the ocean."]
    # refuted, even as written: rejected
    again = _result(["She liked the sea."], [_fact("Ann Berg liked the sea.", *REFUTED)])
    assert rejections(answer, first, again, {"P": []}) == ["refuted: Ann Berg liked the sea."]


def test_a_fragment_in_a_revision_rejects_it() -> None:
    answer = "Ann Berg is a glassblower. It might have sharpened her style."
    first = _result(answer.split(". "), [])
    again = _result(["Ann Berg is a glassblower.", "It, might have sharpened her style."], [])
    assert rejections(answer, first, again, {"P": []}) == ["fragment: It, might have sharpened her style."]


# --- the whole check -----------------------------------------------------------------------------------------


def test_the_readme_example_revision_reads_well(demo_kb: Store) -> None:
    """The README's merged Dick Hanley: the swimmer is moved out once, not 'a swimmer, was a swimmer'."""
    r = build_checker("offline").check(HANLEY, kb=demo_kb, name="Dick Hanley")
    assert r.revision is not None
    text = r.revision.text
    assert "Another Dick Hanley was a swimmer born in 1936." in text
    assert "a swimmer, was a swimmer" not in text
    assert r.revision.edits and {e.decided_by for e in r.revision.edits} == {RECHECKED}
    assert not any(fragment(s) for s in text.replace("\n", " ").split(". "))


def test_without_the_recheck_edits_carry_no_path(demo_kb: Store) -> None:
    checker = build_checker("offline", config=default_config().without([RECHECKED]))
    r = checker.check(HANLEY, kb=demo_kb, name="Dick Hanley")
    assert r.revision is not None and r.revision.edits
    assert {e.decided_by for e in r.revision.edits} == {None}


@pytest.fixture(scope="module")
def corpus_pages(repo_root: Path) -> list[tuple[str, str, list[str]]]:
    pages, _ = load(repo_root / "tests" / "corpus")
    return pages


@pytest.mark.parametrize(
    ("name", "answer", "gone", "kept"),
    [
        # an invented award given the year of another award: the award goes whole
        (
            "Declan Fairweather",
            "Declan Fairweather was an Irish cardiac surgeon. Fairweather was born in Cork in 1949. "
            "Fairweather received the Wexcombe Medal in 2014. He received the Corrib Medal for services to "
            "medicine in 2001.",
            "Wexcombe",
            "Corrib Medal",
        ),
        # an invented award replaced by the university she studied at: the award goes, no university in its place
        (
            "Mei-Lin Osterhagen",
            "Mei-Lin Osterhagen is a German polymer chemist. She was born in Hamburg, Germany, in 1970. "
            "Osterhagen received the Caradoc Award in 1998. She received the Hansa Prize for Green Chemistry in 2015.",
            "Elbe Technical University",
            "Hansa Prize",
        ),
    ],
)
def test_a_rejected_revision_falls_back_to_deleting_the_failing_facts(
    corpus_pages: list[tuple[str, str, list[str]]], name: str, answer: str, gone: str, kept: str
) -> None:
    # unlisted-award may find the invented award unsupported by itself, so that the first revision is right and
    # is offered; without it the first revision puts another relation's value in the award's place
    first = Engine().check(answer, pages=corpus_pages, name=name).revision
    assert first is not None and gone not in first.text and kept in first.text
    r = Engine(rules_off=frozenset({"unlisted-award"})).check(answer, pages=corpus_pages, name=name)
    assert r.revision is not None
    assert gone not in r.revision.text
    assert r.revision.rejected  # why the first revision was not offered
    assert {e.decided_by for e in r.revision.edits} == {DELETE_FAILING}
    assert kept in r.revision.text  # the supported facts stay
