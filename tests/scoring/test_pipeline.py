"""The offline engine end to end on the demo knowledge base, with answers written like LLM biographies."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import pytest

from knowledge.store import Store
from schemas.check import CheckResult
from schemas.enums import Stance, Verdict, Worthiness
from scoring.checker import IDENTITY_NAMES
from scoring.pipeline import CheckConfig, check, infer_subject
from scoring.verifier import OfflineVerifier
from scoring.verify import NO_SHARED_CONTENT, EntityVerdict

# The paper's Figure 1 situation: one fluent biography of "Dick Hanley" that merges the swimmer
# (born 1936, 1956 Olympics) and the American football coach (Northwestern, Marines, died 1970).
HANLEY = (
    "Dick Hanley was an American swimmer and football coach. He was born in 1936 and swam for the United States "
    "at the 1956 Summer Olympics in Melbourne, where his relay team won the silver medal in the 4×200-metre "
    "freestyle relay. He was head football coach at Northwestern University from 1927 to 1934. During the Second "
    "World War he served as an officer in the United States Marine Corps. He died in 1970."
)
STEWART = (
    "John Stewart was an American folk singer and songwriter. He was born on 5 September 1939 in San Diego, "
    "California. In 1961 he replaced Dave Guard in the Kingston Trio, and he stayed with the group until 1967. "
    "He wrote the song Daydream Believer, which became a number one hit for the Monkees in 1967. He died on "
    "19 January 2008."
)
HEMMING = (
    "John Hemming is a British explorer and politician. He was born on 5 January 1935 in Vancouver, Canada, and "
    "was educated at Eton College and the University of Oxford. He was director of the Royal Geographical "
    "Society from 1975 to 1996. He founded JHC, a company that writes software for stockbrokers. He was the "
    "Member of Parliament for Birmingham Yardley from 2005 to 2015. He wrote The Conquest of the Incas."
)
SMITH = (
    "There are two notable people named Joseph F. Smith.\n\n"
    "The first Joseph F. Smith was the sixth president of the Church of Jesus Christ of Latter-day Saints. He was "
    "born on 13 November 1838 at Far West, Missouri. His father was Hyrum Smith. He led the church as its "
    "president from 1901 until his death in 1918.\n\n"
    "The other Joseph F. Smith was an American politician from Philadelphia, Pennsylvania. He was a member of the "
    "Democratic Party. He won a special election to the United States House of Representatives in 1981 and "
    "served in Congress from 1981 to 1983."
)
HAMILTON = (
    "Gavin Hamilton was a Scottish painter of the neoclassical school. He was born in 1723 in Lanarkshire and "
    "spent most of his working life in Rome. Another Gavin Hamilton is a Scottish former cricketer. He was born on "
    "16 September 1974 in Broxburn and played county cricket for Yorkshire. There was also a Gavin Hamilton who "
    "was Bishop of Galloway. He was appointed to the bishopric in 1605 and held it until his death in 1612."
)


@pytest.fixture(scope="module")
def results(demo_kb: Store, verifier: OfflineVerifier) -> dict[str, CheckResult]:
    answers = {
        "hanley": ("Dick Hanley", HANLEY),
        "stewart": ("John Stewart", STEWART),
        "hemming": ("John Hemming", HEMMING),
        "smith": ("Joseph F. Smith", SMITH),
        "hamilton": ("Gavin Hamilton", HAMILTON),
    }
    return {k: check(text, kb=demo_kb, name=name, verifier=verifier) for k, (name, text) in answers.items()}


def test_merged_biography_is_caught(results: dict[str, CheckResult]) -> None:
    r = results["hanley"]
    assert r.factscore is not None and r.dfactscore is not None
    assert r.factscore >= 0.9 and r.dfactscore <= 0.7
    assert (r.num_bios, r.num_entities) == (1, 2)
    assert r.groups[0].conflated and r.groups[0].entity in ("Dick Hanley (American football)", "Dick Hanley (swimmer)")
    other = ({"Dick Hanley (American football)", "Dick Hanley (swimmer)"} - {r.groups[0].entity}).pop()
    moved = [f for f in r.groups[0].facts if f.verdict_linked is Verdict.NOT_SUPPORTED and other in f.entity_supporting]
    assert moved, "the other person's facts are attributed to the other entity"


def test_merged_biography_revision_separates_the_people(results: dict[str, CheckResult]) -> None:
    revision = results["hanley"].revision
    assert revision is not None
    main, _, separated = revision.text.partition("\n\n")
    # in plain prose: no store titles; the moved-out namesake is introduced by what they are
    assert "(swimmer)" not in revision.text and "(American football)" not in revision.text
    assert separated.startswith("Another Dick Hanley") and main.startswith("Dick Hanley ")
    assert "a swimmer, was a swimmer" not in separated  # what they are is said once (issue 28.3)
    assert "1936" in separated and "1936" not in main
    assert "died in 1970" in main
    assert {e.kind for e in revision.edits} == {"separate"}


@pytest.mark.parametrize(
    ("key", "bios", "entities", "relation"),
    [
        ("stewart", 1, 1, "equal"),
        ("hemming", 1, 2, "below"),
        ("smith", 2, 2, "equal"),
        ("hamilton", 3, 3, "equal"),
    ],
)
def test_table2_cases(results: dict[str, CheckResult], key: str, bios: int, entities: int, relation: str) -> None:
    r = results[key]
    assert (r.num_bios, r.num_entities) == (bios, entities)
    assert r.factscore is not None and r.dfactscore is not None
    if relation == "equal":
        assert r.dfactscore == pytest.approx(r.factscore)
        assert not any(g.conflated for g in r.groups)
    else:
        assert r.dfactscore < r.factscore
        assert any(g.conflated for g in r.groups)


@pytest.mark.parametrize(
    ("key", "entities"),
    [
        ("stewart", ["John Stewart (musician)"]),
        ("smith", ["Joseph F. Smith", "Joseph F. Smith (Pennsylvania politician)"]),
        ("hamilton", ["Gavin Hamilton (painter)", "Gavin Hamilton (cricketer)", "Gavin Hamilton (bishop)"]),
    ],
)
def test_groups_link_to_their_entities(results: dict[str, CheckResult], key: str, entities: list[str]) -> None:
    assert [g.entity for g in results[key].groups] == entities


def test_result_shape(results: dict[str, CheckResult]) -> None:
    r = results["smith"]
    facts = [f for g in r.groups for f in g.facts]
    assert r.num_facts == sum(1 for f in facts if f.worthiness is Worthiness.FACTUAL)
    header = [f for f in facts if f.sentence_index == 0]
    assert header and all(f.verdict is Verdict.IRRELEVANT for f in header)
    supported = [f for f in facts if f.verdict_linked is Verdict.SUPPORTED]
    assert supported and all(f.evidence and f.evidence[0].title for f in supported)
    assert all("Joseph F. Smith" in f.text for f in supported), "facts are decontextualised"


def test_abstention_is_counted_not_scored(demo_kb: Store, verifier: OfflineVerifier) -> None:
    r = check("I'm sorry, but I could not find information about Dick Hanley.", kb=demo_kb, verifier=verifier)
    assert r.abstained and r.factscore is None and r.dfactscore is None and r.groups == []


@pytest.mark.parametrize(
    ("answer", "wrong", "right"),
    [
        (  # a wrong year next to the right context is replaced by the evidence's value
            "John Stewart was an American folk singer. In 1965 he replaced Dave Guard in the Kingston Trio.",
            "1965",
            "1961",
        ),
        ("John Stewart was an American folk singer. He wrote the song Daydream Believer in 1971.", "1971", None),
    ],
)
def test_revision_drops_or_fixes_wrong_values(
    demo_kb: Store, verifier: OfflineVerifier, answer: str, wrong: str, right: str | None
) -> None:
    r = check(answer, kb=demo_kb, name="John Stewart", verifier=verifier)
    assert r.revision is not None
    assert wrong not in r.revision.text
    assert "American folk singer" in r.revision.text
    if right is not None:
        assert right in r.revision.text and any(e.kind == "replace" for e in r.revision.edits)
    else:
        # dropped, or replaced by a value the linked page holds
        assert any(e.kind in ("delete", "replace") for e in r.revision.edits)
        page = demo_kb.passages("John Stewart (musician)", "Daydream Believer", k=5)
        years = set(re.findall(r"\b\d{4}\b", r.revision.text))
        assert years <= {y for p in page for y in re.findall(r"\b\d{4}\b", p.text)}


def test_drop_mode_removes_the_other_person(demo_kb: Store, verifier: OfflineVerifier) -> None:
    r = check(HANLEY, kb=demo_kb, name="Dick Hanley", verifier=verifier, config=CheckConfig(revise_mode="drop"))
    assert r.revision is not None and "\n\n" not in r.revision.text
    assert "(swimmer)" not in r.revision.text and "1936" not in r.revision.text


@pytest.mark.parametrize(
    ("text", "question", "expected"),
    [
        ("He was a coach.", "Tell me a bio of Dick Hanley.", "Dick Hanley"),
        ("Gavin Hamilton was a Scottish painter.", None, "Gavin Hamilton"),
        ("Who was he? John Hemming is a British explorer.", "Who is John Hemming?", "John Hemming"),
    ],
)
def test_infer_subject(text: str, question: str | None, expected: str) -> None:
    assert infer_subject(text, question) == expected


def test_name_taken_from_the_text(demo_kb: Store, verifier: OfflineVerifier) -> None:
    r = check(STEWART, kb=demo_kb, verifier=verifier)
    assert r.groups[0].entity == "John Stewart (musician)"


def test_safe_from_several_threads(demo_kb: Store, verifier: OfflineVerifier, results: dict[str, CheckResult]) -> None:
    texts = [("Dick Hanley", HANLEY), ("John Hemming", HEMMING), ("Gavin Hamilton", HAMILTON)] * 3
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda nt: check(nt[1], kb=demo_kb, name=nt[0], verifier=verifier), texts))
    expected = [results["hanley"], results["hemming"], results["hamilton"]] * 3
    assert [r.model_dump() for r in got] == [r.model_dump() for r in expected]


def test_a_person_missing_from_the_store_is_unverifiable_not_false(demo_kb: Store, verifier: OfflineVerifier) -> None:
    r = check("Zebedee Quarrington was a Welsh harpist. He died in 1901.", kb=demo_kb, verifier=verifier)
    assert (r.status, r.factscore, r.dfactscore, r.num_entities, r.coverage) == ("unverifiable", None, None, 0, 0.0)
    assert r.num_bios == 1 and r.groups[0].entity is None and r.revision is None
    assert r.model_dump(mode="json")["status"] == "unverifiable"


def test_a_non_biographical_answer_is_unverifiable(demo_kb: Store, verifier: OfflineVerifier) -> None:
    faq = "To reset your password, open Settings and choose Security. The reset link expires after 24 hours."
    r = check(faq, kb=demo_kb, verifier=verifier)
    assert (r.status, r.factscore, r.dfactscore, r.revision) == ("unverifiable", None, None, None)


def test_a_fabricated_biography_of_someone_in_the_store_stays_checked_and_false(
    demo_kb: Store, verifier: OfflineVerifier
) -> None:
    """Unverifiable is about who the answer describes, not about how many facts the page confirms:
    an invented life of a person the store knows must still score 0 (and be blocked)."""
    text = "Dick Hanley was a Canadian painter. He was born in 1950 in Toronto and won the Turner Prize in 1999."
    r = check(text, kb=demo_kb, name="Dick Hanley", verifier=verifier)
    assert (r.status, r.factscore, r.dfactscore) == ("checked", 0.0, 0.0)
    assert r.groups[0].entity is not None


def test_a_prepared_batch_checks_as_each_answer_alone(demo_kb: Store, verifier: OfflineVerifier) -> None:
    from scoring import nlp
    from scoring.engines import build_checker

    hedged = "I believe Dick Hanley was born in 1936. As far as I know, he died in 1970."
    answers = [("Dick Hanley", HANLEY), ("John Stewart", STEWART), ("Gavin Hamilton", HAMILTON), (None, hedged)]
    checker = build_checker("offline", stance_model=verifier)
    alone = [checker.check(text, kb=demo_kb, name=name) for name, text in answers]
    nlp.clear_cache()
    checker.prepare([text for _, text in answers])
    prepared = [checker.check(text, kb=demo_kb, name=name) for name, text in answers]
    assert [r.model_dump() for r in prepared] == [r.model_dump() for r in alone]
    assert any(f.hedged for g in prepared[3].groups for f in g.facts)


def test_a_merge_proved_by_one_distinctive_fact_counts_two_entities(demo_kb: Store) -> None:
    """ "born in 1936" is on the swimmer's page and not the coach's: the answer is conflated, and the
    entities it describes are counted as the conflation was found — two, not one."""
    text = (
        "Dick Hanley was an American football coach who led Northwestern University from 1927 to 1934. "
        "He was born in 1936."
    )
    result = check(text, kb=demo_kb, name="Dick Hanley")
    assert [g.conflated for g in result.groups] == [True]
    assert result.num_entities == 2
    assert result.dfactscore is not None and result.factscore is not None and result.dfactscore < result.factscore


def test_a_nickname_answered_with_the_real_name_is_linked_to_its_page(demo_kb: Store) -> None:
    """The question names a nickname no page carries; the answer says who it is, and that name finds the page."""
    text = (
        'The coach his players called "the Colonel" was Dick Hanley. He led Northwestern University from 1927 to 1934.'
    )
    result = check(text, kb=demo_kb, name="the Colonel")
    assert result.status == "checked"
    assert result.groups[0].entity is not None and result.groups[0].entity.startswith("Dick Hanley")
    off = check(text, kb=demo_kb, name="the Colonel", config=CheckConfig().without([IDENTITY_NAMES]))
    assert off.status == "unverifiable"


@pytest.mark.parametrize(
    "says",
    [
        "appears to be a pseudonym for Dick Hanley",
        "is probably a misspelling of Dick Hanley",
        "is another name for Dick Hanley",
    ],
)
def test_a_name_the_answer_calls_another_name_for_someone_finds_their_page(demo_kb: Store, says: str) -> None:
    """'X appears to be a pseudonym for Y': Y's page is where the facts are checked."""
    text = f"Rich Handley {says}. He coached Northwestern University from 1927 to 1934."
    result = check(text, kb=demo_kb, name="Rich Handley")
    assert result.status == "checked"
    assert result.groups[0].entity is not None and result.groups[0].entity.startswith("Dick Hanley")


@pytest.mark.parametrize(
    ("linked", "distinctive"),
    [
        # the linked page shares no word with the fact: it holds none of the fact's years and names
        (EntityVerdict("B (cyclist)", Stance.IRRELEVANT, 0.0, 0.0, decided_by=NO_SHARED_CONTENT), True),
        # the linked page holds the fact's year: no proof of a merge on its own
        (EntityVerdict("B (cyclist)", Stance.IRRELEVANT, 0.2, 0.0, key_terms=0.5), False),
        # the linked page's share of key terms is unknown (the model decided): no proof either
        (EntityVerdict("B (cyclist)", Stance.IRRELEVANT, 0.2, 0.0), False),
    ],
)
def test_a_fact_only_another_page_holds_is_distinctive(linked: EntityVerdict, distinctive: bool) -> None:
    from scoring.decompose import decompose_sentence
    from scoring.plan import PlannedFact
    from scoring.score import _distinctive

    atom = decompose_sentence("She received the Prix Vauban for Architecture in 2009.")[-1]
    fact = PlannedFact(atom, atom.text, Worthiness.FACTUAL)
    fact.verdicts = {
        "B (cyclist)": linked,
        "B (architect)": EntityVerdict("B (architect)", Stance.SUPPORT, 0.9, 0.0, key_terms=1.0),
    }
    fact.attributed = {"B (architect)"}
    assert _distinctive(fact, "B (cyclist)") is distinctive
