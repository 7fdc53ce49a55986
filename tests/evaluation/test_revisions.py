"""What eval corpus and eval styles count of suggested revisions: refuted values kept, values of another
relation brought in, visible faults."""

from __future__ import annotations

import pytest

from evaluation.corpus import revision_faults
from evaluation.revisions import RevisionTally, kept_refuted, other_relation, values_of
from schemas.check import CheckResult, Edit, Evidence, FactGroup, FactResult, Revision
from schemas.enums import Stance, Verdict


@pytest.mark.parametrize(
    ("sentence", "fault"),
    [
        (": she founded in 2012.", "fragment"),
        ("the registry.", "fragment"),
        ("—: Trained as a surveyor in Madrid", "fragment"),
        ("It, might have sharpened his style.", "dangling-pronoun"),
        ("They, founded the studio in 1962.", "dangling-pronoun"),
        ("In 1990 he, was appointed director.", "dangling-pronoun"),
        ("He was born in Oslo ().", "empty-parenthesis"),
        ("She studied in Leipzig (;) and Oslo.", "empty-parenthesis"),
        ("Another Dick Hanley, a swimmer, was a swimmer born in 1936.", "repeated-phrase"),
        ("Another Priya Raghunathan, a cricketer, is a cricketer.", "repeated-phrase"),
        ("Record:, 9 losses, 3 draws.", "stray-punctuation"),
        ("She was was born in Cork.", "repeated-word"),
        ('born: ", Cork, Ireland"', "fragment"),
        ("award: (Lakeshore Jazz Award", "unpaired-parenthesis"),
        ("career: ; Hajnówka Field Station", "fragment"),
    ],
)
def test_visible_faults_are_named(sentence: str, fault: str) -> None:
    assert fault in revision_faults(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "I realise that's not the answer you were hoping for.",
        "iPhone sales rose in 2010.",
        "He won gold (1956) and silver (1960).",
        "Another Dick Hanley was a swimmer born in 1936.",
        "It was built in 1890.",
        'born: "1982, Vancouver, Canada"',
        "award: Lakeshore Jazz Award (1999)",
        "domestic: Domestic cricket for Hyderabad (from 2011)",
        'expedition: "Havørn expedition (2018): three new species of deep-sea sponge"',
    ],
)
def test_sentences_that_read_well_have_no_fault(sentence: str) -> None:
    assert revision_faults(sentence) == []


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("Born 1981 in Kisumu.", ["1981", "Kisumu"]),
        ("She teaches at Harwick College.", ["Harwick College"]),
        ("Won the Norwegian Cup in 2014.", ["Norwegian Cup", "2014"]),
        ("Married Lorraine Dutton in 1934.", ["Lorraine Dutton", "1934"]),
        ("Restaurant awarded three stars.", []),
    ],
)
def test_values_of_a_sentence(text: str, values: list[str]) -> None:
    assert values_of(text) == values


def _result(revised: str, facts: list[FactResult]) -> CheckResult:
    return CheckResult(
        groups=[FactGroup(mention="Ann Berg", entity="Ann Berg", facts=facts)],
        revision=Revision(text=revised, edits=[Edit(kind="replace", original="x", decided_by="rechecked-revision")]),
    )


PAGE = {"Ann Berg": "Ann Berg studied at Oxford. She teaches at Cambridge. She received the Corrib Medal in 2001."}


@pytest.mark.parametrize(
    ("fact", "revised", "kept"),
    [
        ("Ann Berg received the Wexcombe Medal in 2014.", "Ann Berg received the Wexcombe Medal in 2001.", True),
        ("Ann Berg teaches at Leeds.", "Ann Berg teaches at Leeds University.", True),
        ("Ann Berg received the Wexcombe Medal in 2014.", "Ann Berg received the Corrib Medal in 2001.", False),
        ("Ann Berg teaches at Leeds.", "Ann Berg teaches at Cambridge.", False),
    ],
)
def test_a_refuted_value_left_in_the_revision_is_counted(fact: str, revised: str, kept: bool) -> None:
    refuted = FactResult(text=fact, verdict=Verdict.NOT_SUPPORTED, stance=Stance.REFUTE)
    assert bool(kept_refuted(_result(revised, [refuted]), PAGE)) is kept


@pytest.mark.parametrize(
    ("answer", "revised", "crossed"),
    [
        ("Ann Berg teaches at Leeds.", "Ann Berg teaches at Oxford.", True),
        ("Ann Berg studied at Leeds.", "Ann Berg studied at Cambridge.", True),
        ("Ann Berg received the Corrib Medal in 1999.", "Ann Berg received the Corrib Medal in 2001.", False),
        ("Ann Berg teaches at Leeds.", "Ann Berg teaches at Cambridge.", False),
        ("Ann Berg studied at Leeds.", "Ann Berg studied at Oxford.", False),
        # the answer's own value wrapped over a line break is the answer's, not brought in; another is
        ("Ann Berg founded the Corrib\nMedal.", "Ann Berg founded the Corrib Medal.", False),
        ("Ann Berg founded the Wexcombe\nMedal.", "Ann Berg founded the Corrib Medal.", True),
    ],
)
def test_a_value_of_another_relation_is_counted(answer: str, revised: str, crossed: bool) -> None:
    assert bool(other_relation(answer, _result(revised, []), PAGE)) is crossed


def test_the_tally_counts_answers_and_paths() -> None:
    tally = RevisionTally()
    refuted = FactResult(
        text="Ann Berg received the Wexcombe Medal in 2014.",
        verdict=Verdict.NOT_SUPPORTED,
        stance=Stance.REFUTE,
        evidence=[Evidence(title="Ann Berg", text=PAGE["Ann Berg"])],
    )
    answer = "Ann Berg received the Wexcombe Medal in 2014. Ann Berg teaches at Leeds."
    tally.add(
        "a", answer, _result("Ann Berg received the Wexcombe Medal in 2001. It, teaches at Oxford.", [refuted]), PAGE
    )
    tally.add("b", answer, None, PAGE)
    figures = tally.figures()
    assert figures["revised_answers"] == 1
    assert figures["keeps_refuted_value"] == 1 and figures["introduces_other_relation"] == 1
    assert figures["with_faults"] == 1 and figures["by_fault"] == {"dangling-pronoun": 1}
    assert figures["edits_by_path"] == {"rechecked-revision": 1}


def test_a_namesakes_own_statement_of_a_crossed_value_is_no_kept_refuted_value() -> None:
    """ "born in Chester" crossed from the rower to the bishop: the rower's own supported sentence may keep
    Chester; the bishop's sentence keeping it too is counted."""
    crossed = FactResult(
        text="Rennick is a bishop, born in Chester in 1947.",
        sentence_index=1,
        verdict=Verdict.NOT_SUPPORTED,
        stance=Stance.REFUTE,
    )
    own = FactResult(
        text="Rennick was born in Chester.",
        sentence_index=0,
        verdict=Verdict.SUPPORTED,
        verdict_linked=Verdict.SUPPORTED,
        stance=Stance.SUPPORT,
    )

    def result(revised: str) -> CheckResult:
        return CheckResult(
            groups=[
                FactGroup(mention="Rennick", entity="Rennick (rower)", facts=[own]),
                FactGroup(mention="Rennick", entity="Rennick (bishop)", facts=[crossed]),
            ],
            revision=Revision(text=revised, edits=[Edit(kind="replace", original="x")]),
        )

    pages = {"Rennick (rower)": "Born in Chester.", "Rennick (bishop)": "Born in Paisley in 1947."}
    fixed = "The rower was born in Chester in 1992. The bishop was born in Paisley in 1947."
    kept = "The rower was born in Chester in 1992. The bishop was born in Chester in 1947."
    assert kept_refuted(result(fixed), pages) == []
    assert kept_refuted(result(kept), pages) == ["Chester (Rennick is a bishop, born in Chester in 1947.)"]


def _unlinked(revised: str, fact: str, evidence: str) -> CheckResult:
    """A group linked to no page, its fact refuted against a namesake's page (``evidence``)."""
    refuted = FactResult(
        text=fact,
        verdict=Verdict.NOT_SUPPORTED,
        stance=Stance.REFUTE,
        evidence=[Evidence(title="Theo Marsh (boxer)", text=evidence)],
    )
    return CheckResult(
        groups=[FactGroup(mention="Theo Marsh", entity=None, facts=[refuted])],
        revision=Revision(text=revised, edits=[Edit(kind="replace", original="x")]),
    )


BOXER = "Theo Marsh (1909 – 1971) was a boxer. Born in Scranton, he won the title in 1936."


@pytest.mark.parametrize(
    ("fact", "revised"),
    [
        # the crossed place corrected, the right year kept: the namesake's page lacks 1952, yet 1952 is no wrong value
        (
            "Theo Marsh is the Ohio politician, born in Scranton in 1952.",
            "The Ohio politician was born in Columbus in 1952.",
        ),
        # the values moved to the sentences where they are right
        (
            "Theo Marsh is the boxer, born in Columbus in 1909.",
            "The boxer was born in Scranton in 1909. The politician was born in Columbus in 1952.",
        ),
        # the claim went whole; its year is another sentence's
        ("Theo Marsh won the Arden Prize in 1990.", "Theo Marsh retired in 1990. He lives in Akron."),
    ],
)
def test_an_unlinked_groups_changed_claim_keeps_no_refuted_value(fact: str, revised: str) -> None:
    assert kept_refuted(_unlinked(revised, fact, BOXER), {}) == []


@pytest.mark.parametrize(
    ("fact", "revised", "values"),
    [
        # left whole: its values not on the page it was judged against are counted
        ("Theo Marsh won the Arden Prize in 1990.", "Theo Marsh won the Arden Prize in 1990.", ["Arden Prize", "1990"]),
        # left whole with other words about it
        (
            "Theo Marsh is the boxer, born in Columbus in 1909.",
            "Theo Marsh is the American boxer, born in Columbus, Ohio, in 1909.",
            ["Columbus"],
        ),
        ("Theo Marsh retired in 1948.", "He fought on. Theo Marsh retired in 1948.", ["1948"]),
    ],
)
def test_an_unlinked_groups_claim_left_whole_is_counted(fact: str, revised: str, values: list[str]) -> None:
    found = kept_refuted(_unlinked(revised, fact, BOXER), {})
    assert [f.split(" (", 1)[0] for f in found] == values


def test_a_linked_groups_value_said_elsewhere_is_still_counted() -> None:
    refuted = FactResult(
        text="Ann Berg received the Wexcombe Medal in 2014.", verdict=Verdict.NOT_SUPPORTED, stance=Stance.REFUTE
    )
    revised = "Ann Berg received the Corrib Medal in 2001. She retired in 2014."
    assert kept_refuted(_result(revised, [refuted]), PAGE) == ["2014 (Ann Berg received the Wexcombe Medal in 2014.)"]
