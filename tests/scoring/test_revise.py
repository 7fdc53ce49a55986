"""Revision from hand-set verdicts: which words go, what moves, what gets replaced."""

from __future__ import annotations

import pytest

from knowledge.store import Store
from schemas.check import Evidence
from schemas.enums import Stance, Worthiness
from schemas.knowledge import EntityRef
from scoring.decompose import decompose_sentence
from scoring.decontext import decontextualize
from scoring.grouping import PerceivedGroup
from scoring.pipeline import check
from scoring.plan import PlannedFact, PlannedGroup
from scoring.revise import RevisionInput, revise
from scoring.verifier import OfflineVerifier
from scoring.verify import EntityVerdict

SWIM, COACH = "Dick Hanley (swimmer)", "Dick Hanley (American football)"
ENTITIES = {
    SWIM: EntityRef(title=SWIM, base_name="Dick Hanley", disambiguator="swimmer"),
    COACH: EntityRef(title=COACH, base_name="Dick Hanley", disambiguator="American football"),
}


def _group(sentences: list[str], support: dict[str, set[str]]) -> PlannedGroup:
    """Facts of ``sentences``; ``support`` maps a fact text to the entities that support it (default: coach)."""
    facts: list[PlannedFact] = []
    for i, sentence in enumerate(sentences):
        for atom in decompose_sentence(sentence, i):
            text = decontextualize(atom.text, atom.subject, "Dick Hanley")
            fact = PlannedFact(atom, text, Worthiness.FACTUAL)
            for title in (SWIM, COACH):
                ok = title in support.get(text, {COACH})
                stance = Stance.SUPPORT if ok else Stance.IRRELEVANT
                fact.verdicts[title] = EntityVerdict(title, stance, 0.9 if ok else 0.1, 0.0)
            fact.attribute(0.1)
            facts.append(fact)
    return PlannedGroup(PerceivedGroup("Dick Hanley", list(range(len(sentences)))), facts)


SENTENCES = [
    "Dick Hanley was an American football coach.",
    "He was born in 1936 and coached Northwestern from 1927 to 1934.",
    "He died in 1970.",
]


@pytest.mark.parametrize(
    ("support", "conflated", "mode", "expected"),
    [
        (  # nothing wrong: the text stays as written
            {},
            False,
            "separate",
            "Dick Hanley was an American football coach. He was born in 1936 and coached Northwestern from 1927 to "
            "1934. He died in 1970.",
        ),
        (  # an unsupported birth year goes with its "and"
            {"Dick Hanley was born in 1936.": set()},
            False,
            "separate",
            "Dick Hanley was an American football coach. He coached Northwestern from 1927 to 1934. He died in 1970.",
        ),
        (  # the swimmer's birth year leaves the coach's paragraph and follows, the swimmer introduced in plain prose
            {"Dick Hanley was born in 1936.": {SWIM}},
            True,
            "separate",
            "Dick Hanley was an American football coach. He coached Northwestern from 1927 to 1934. He died in 1970."
            "\n\nAnother Dick Hanley, a swimmer, was born in 1936.",
        ),
        (
            {"Dick Hanley was born in 1936.": {SWIM}},
            True,
            "drop",
            "Dick Hanley was an American football coach. He coached Northwestern from 1927 to 1934. He died in 1970.",
        ),
        (  # a whole sentence about nobody on record disappears
            {"Dick Hanley died in 1970.": set()},
            False,
            "separate",
            "Dick Hanley was an American football coach. He was born in 1936 and coached Northwestern from 1927 to "
            "1934.",
        ),
    ],
)
def test_revise(support: dict[str, set[str]], conflated: bool, mode: str, expected: str) -> None:
    group = _group(SENTENCES, support)
    revision = revise(
        RevisionInput(
            sentences=SENTENCES,
            groups=[(group, COACH)],
            entities=ENTITIES,
            mode=mode,  # type: ignore[arg-type]
            conflated={0} if conflated else set(),
        )
    )
    assert revision.text == expected
    assert bool(revision.edits) == bool(support)


def test_replacement_needs_confirmation() -> None:
    sentences = ["Dick Hanley died in 1975."]
    group = _group(sentences, {"Dick Hanley died in 1975.": set()})
    fact = group.facts[0]
    evidence = (Evidence(title=COACH, text="Dick Hanley was born in 1894 and died in 1970."),)
    fact.verdicts[COACH] = EntityVerdict(COACH, Stance.IRRELEVANT, 0.1, 0.0, evidence)
    asked: list[str] = []

    def confirm(text: str, entity: str) -> bool:
        asked.append(text)
        return text == "Dick Hanley died in 1970."

    inp = RevisionInput(sentences=sentences, groups=[(group, COACH)], entities=ENTITIES, confirm=confirm)
    revision = revise(inp)
    assert revision.text == "Dick Hanley died in 1970."
    assert [e.kind for e in revision.edits] == ["replace"] and "Dick Hanley died in 1970." in asked
    refused = revise(RevisionInput(sentences=sentences, groups=[(group, COACH)], entities=ENTITIES))
    assert refused.text == "" and [e.kind for e in refused.edits] == ["delete"]


@pytest.mark.parametrize(
    ("sentence", "page", "revised"),
    [
        (
            "Dick Hanley won 32 caps for Norway.",
            "Dick Hanley earned 23 caps for Norway.",
            "Dick Hanley won 23 caps for Norway.",
        ),
        (
            "Dick Hanley described five new species of coral.",
            "In 2018 Dick Hanley described three new species of deep-sea coral.",
            "Dick Hanley described three new species of coral.",
        ),
        # a number that counts something else on the page is no replacement
        ("Dick Hanley won 32 caps for Norway.", "Dick Hanley scored 4 goals for Norway.", ""),
    ],
)
def test_a_wrong_count_is_replaced_by_the_pages_count_of_the_same_noun(sentence: str, page: str, revised: str) -> None:
    group = _group([sentence], {sentence: set()})
    fact = next(f for f in group.facts if any(c.isdigit() for c in f.text) or "five" in f.text)
    for f in group.facts:
        f.verdicts[COACH] = EntityVerdict(COACH, Stance.IRRELEVANT, 0.1, 0.0, (Evidence(title=COACH, text=page),))
    group.facts = [fact]
    inp = RevisionInput(sentences=[sentence], groups=[(group, COACH)], entities=ENTITIES, confirm=lambda t, e: True)
    assert revise(inp).text == revised


@pytest.mark.parametrize(
    ("reading", "written", "revised"),
    [
        # a record read as a sentence keeps its own words when only a value changes
        ("Dick Hanley had 32 caps for Norway.", "32 caps for Norway", "23 caps for Norway"),
        ("Dick Hanley won 32 caps for Norway.", "Caps: 32 (Norway)", "Caps: 23 (Norway)"),
        # a value the written line does not hold as it is: the reading is revised
        ("Dick Hanley won 32 caps for Norway.", "thirty-two caps", "Dick Hanley won 23 caps for Norway."),
    ],
)
def test_a_value_is_replaced_in_the_line_as_written(reading: str, written: str, revised: str) -> None:
    group = _group([reading], {reading: set()})
    page = (Evidence(title=COACH, text="Dick Hanley earned 23 caps for Norway."),)
    for f in group.facts:
        f.verdicts[COACH] = EntityVerdict(COACH, Stance.IRRELEVANT, 0.1, 0.0, page)
    group.facts = [f for f in group.facts if "32" in f.text]
    inp = RevisionInput(
        sentences=[reading], written=[written], groups=[(group, COACH)], entities=ENTITIES, confirm=lambda t, e: True
    )
    assert revise(inp).text == revised


def test_a_revised_sentence_whose_opening_went_starts_with_a_capital() -> None:
    from scoring.revise import _join

    assert _join(["he died in 1984.", "iPhone sales rose.", None, "Done."], [0, 0, 0, 1]) == (
        "He died in 1984. iPhone sales rose.\n\nDone."
    )
    assert _join(["born in 1931;", "emigrated in 1955."], [0, 0]) == "Born in 1931; emigrated in 1955."


@pytest.mark.parametrize(
    ("lines", "joined"),
    [
        # A line of options keeps its lower-case markers, changed or not.
        (["Where was she born?", "a) Leeds b) York c) Hull"], "Where was she born? a) Leeds b) York c) Hull"),
        (["Which year?", "a) 1990 b) 1991"], "Which year? a) 1990 b) 1991"),
        (["Pick one.", "(ii) the second, with a cup."], "Pick one. (ii) the second, with a cup."),
        (["Pick one.", "b. the mayor of Leeds."], "Pick one. b. the mayor of Leeds."),
        # Look-alikes: a sentence whose opening went is capitalised as before.
        (["He won.", "and then he retired."], "He won. And then he retired."),
        (["He won.", "a prize came in 1990."], "He won. A prize came in 1990."),
        (["He won.", "i said so."], "He won. I said so."),
    ],
)
def test_a_line_of_options_keeps_its_lower_case_markers(lines: list[str], joined: str) -> None:
    from scoring.revise import _join

    assert _join(lines, [0] * len(lines)) == joined


def test_a_person_read_as_they_agrees_with_the_name_that_replaces_it() -> None:
    from scoring.decontext import decontextualize

    assert decontextualize("They were born in Cork.", "They", "Declan Fairweather (surgeon)") == (
        "Declan Fairweather (surgeon) was born in Cork."
    )
    assert decontextualize("They have two sons.", "They", "Ada Lind") == "Ada Lind has two sons."


def test_a_wrong_place_is_replaced_by_the_pages_place_the_recogniser_missed(verifier: OfflineVerifier) -> None:
    """ "in Enugu" is no named entity to the small model; it is still the place the page gives for the founding,
    so the revision writes it, not the country named elsewhere in the sentence."""
    title = "Obiora Nwankwo-Hale"
    page = (
        "Obiora Nwankwo-Hale (born 1956 in Enugu, Nigeria) is a Nigerian ophthalmologist. Returning to Nigeria, he "
        "founded the Clearsight Eye Hospital in Enugu in 1991 and served as its medical director until 2021."
    )
    kb = Store.in_memory()
    kb.add_pages([(title, page, [])])
    answer = (
        "Obiora Nwankwo-Hale is a Nigerian ophthalmologist. He founded the Clearsight Eye Hospital in Lagos in 1991."
    )
    result = check(answer, kb=kb, verifier=verifier, name=title)
    assert result.revision is not None
    assert "Clearsight Eye Hospital in Enugu" in result.revision.text and "Lagos" not in result.revision.text


@pytest.mark.parametrize(
    ("answer", "replaced"),
    [
        # "teaches" for "has taught since 2017" is what the page's sentence states (stated-outright reads "teaches",
        # "taught" and "faculty" as one predicate): the claim is rewritten with the page's place, as below
        ("Ada Lind is a novelist. She teaches creative writing at Bramwell University in Madrid.", True),
        ("Ada Lind is a novelist. Since 2017 she has taught creative writing at Bramwell University in Madrid.", True),
    ],
)
def test_a_place_bound_to_the_wrong_organisation_is_flagged_and_replaced(
    verifier: OfflineVerifier, answer: str, replaced: bool
) -> None:
    """The page places the university in London and names Madrid only for her studies: "Bramwell University in
    Madrid" is a value bound to the wrong organisation, not a place the page merely narrows."""
    page = (
        "Ada Lind (born 1984) is a novelist. She studied comparative literature in Madrid. Since 2017 she has "
        "taught creative writing at Bramwell University in London, where she lives."
    )
    kb = Store.in_memory()
    kb.add_pages([("Ada Lind", page, [])])
    result = check(answer, kb=kb, verifier=verifier, name="Ada Lind")
    madrid = [f for g in result.groups for f in g.facts if "Madrid" in f.text]
    assert madrid and all(f.verdict.value == "not_supported" for f in madrid)
    assert result.revision is not None and "Madrid" not in result.revision.text
    assert ("Bramwell University in London" in result.revision.text) is replaced


@pytest.mark.parametrize(
    ("sentence", "deleted", "expected"),
    [
        # the comma after the year and the "and" go: the year and the next word stay apart
        (
            "He joined the service in 1925, and from 1928 he was the keeper.",
            [", and"],
            "He joined the service in 1925 from 1928 he was the keeper.",
        ),
        # a parenthesised year followed by a deleted comma phrase
        (
            "Her result is the bound (1999), an estimate on gaps, and she won a medal.",
            [", an estimate on gaps,"],
            "Her result is the bound (1999) and she won a medal.",
        ),
        # words inside the sentence go; punctuation after the gap still closes up
        ("She wrote two novels, and a memoir.", ["and a memoir"], "She wrote two novels."),
    ],
)
def test_deleted_words_leave_the_kept_ones_apart(sentence: str, deleted: list[str], expected: str) -> None:
    from scoring import nlp
    from scoring.revise import _render, _tidy

    doc = nlp.parse([sentence])[0]
    remove: set[int] = set()
    for phrase in deleted:
        start = sentence.index(phrase)
        remove |= {t.i for t in doc if start <= t.idx < start + len(phrase)}
    assert _tidy(_render(doc, remove, {}), sentence) == expected


@pytest.mark.parametrize(
    ("lines", "kept"),
    [
        (["He won a medal.", "He won a medal in 1956.", "He coached."], ["He won a medal in 1956.", "He coached."]),
        (["He coached.", "He coached.", "He died."], ["He coached.", "He died."]),  # the same line once
        (
            ["He won a medal in 1956.", "In 1956 he won a medal."],
            ["He won a medal in 1956.", "In 1956 he won a medal."],
        ),
        (["...", "He died."], ["He died."]),  # no words: within any line with words
        ([], []),
    ],
)
def test_moved_facts_without_repeats(lines: list[str], kept: list[str]) -> None:
    from scoring.revise import _without_repeats

    assert _without_repeats(lines) == kept


def test_a_parenthesis_goes_with_the_words_it_annotated() -> None:
    """Deleting "from Savannah, best known for the Marsh Light series" takes the series' "(1958)" with it, even
    where a fact of its own kept the year: no "an American painter (1958)"."""
    from scoring import nlp
    from scoring.revise import _render, _repair, _tidy

    sentence = "Harlan Beckwith was an American painter from Savannah, best known for the Marsh Light series (1958)."
    doc = nlp.parse_one(sentence)
    cut = {t.i for t in doc if doc[t.i].idx >= sentence.index(" from") and t.idx < sentence.index(" (1958)")}
    remove, swaps = _repair(doc, cut)
    assert _tidy(_render(doc, remove, swaps), sentence) == "Harlan Beckwith was an American painter."


@pytest.mark.parametrize(
    ("sentence", "deleted", "expected"),
    [
        # a deleted verb takes the words that only served it: the relative word and its adverb, ...
        (
            "Søren Ødegaard was a Norwegian composer who also played the organ professionally.",
            ["played the organ professionally"],
            "Søren Ødegaard was a Norwegian composer.",
        ),
        # ... the preposition whose object went, ...
        (
            "He won the Meridian Ocean Race in 2014 after finishing fourth in an earlier edition.",
            ["finishing fourth in an earlier edition"],
            "He won the Meridian Ocean Race in 2014.",
        ),
        # ... the coordinator left at the end, ...
        (
            "There's no mobile backup app, so phone photos need a different solution.",
            ["phone photos need a different solution"],
            "There's no mobile backup app.",
        ),
        # ... and the subject of a clause that went, when the kept clause has a subject of its own
        (
            "I may be misremembering the exact date, but it was 1951.",
            ["may be misremembering the exact date"],
            "It was 1951.",
        ),
        # a subject the kept coordinated verb shares stays
        ("He was born in 1936 and won a gold medal in 1956.", ["was born in 1936"], "He won a gold medal in 1956."),
        # a line that leads into a list keeps its colon
        (
            "Here's what I know about her; treat it with some caution:",
            ["Here's what I know about her;"],
            "Treat it with some caution:",
        ),
    ],
)
def test_a_deleted_word_takes_the_words_that_only_served_it(sentence: str, deleted: list[str], expected: str) -> None:
    from scoring import nlp
    from scoring.revise import _render, _repair, _tidy

    doc = nlp.parse_one(sentence)
    remove: set[int] = set()
    for phrase in deleted:
        start = sentence.index(phrase)
        remove |= {t.i for t in doc if start <= t.idx < start + len(phrase)}
    remove, swaps = _repair(doc, remove)
    assert _tidy(_render(doc, remove, swaps), sentence) == expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (
            "German road cyclist, born in Freiburg im Breisgau (in 1990, I believe)",
            "German road cyclist, born in Freiburg im Breisgau (in 1990)",
        ),
        ("I think he later ran a gym in Philadelphia.", "He later ran a gym in Philadelphia."),
        ("Book: Le Feu Lent (1999), if I recall correctly", "Book: Le Feu Lent (1999)"),
        ("He was born in 1936.", "He was born in 1936."),  # nothing hedges it
    ],
)
def test_a_kept_sentence_is_written_without_its_hedges(sentence: str, expected: str) -> None:
    from scoring.revise import DROP_HEDGES, _unhedged

    assert _unhedged(sentence, frozenset()) == expected
    assert _unhedged(sentence, frozenset({DROP_HEDGES})) == sentence  # the rule off: as written


def _stranded_revision(sentence: str, unsupported: str, rules_off: frozenset[str] = frozenset()) -> str:
    """The revision of ``sentence`` where every fact mentioning ``unsupported`` is unsupported, the rest supported."""
    facts: list[PlannedFact] = []
    for atom in decompose_sentence(sentence, 0):
        text = decontextualize(atom.text, atom.subject, "Edmund Larkspur")
        fact = PlannedFact(atom, text, Worthiness.FACTUAL)
        ok = unsupported not in text
        fact.verdicts[COACH] = EntityVerdict(
            COACH, Stance.SUPPORT if ok else Stance.IRRELEVANT, 0.9 if ok else 0.1, 0.0
        )
        facts.append(fact)
    group = PlannedGroup(PerceivedGroup("Edmund Larkspur", [0]), facts)
    inp = RevisionInput(sentences=[sentence], groups=[(group, COACH)], entities=ENTITIES, rules_off=rules_off)
    return revise(inp).text


def test_a_sentence_whose_main_verb_went_is_written_as_its_kept_facts() -> None:
    """'Born in Lerwick, he [fished for a living] before joining the service in 1925' has no verb for what it
    keeps: its kept facts say it instead, each a sentence; with the rule off the words are cut as before."""
    from scoring.revise import RESTATE_STRANDED

    sentence = "Born in Lerwick in Shetland, he fished for a living before joining the lighthouse service in 1925."
    revised = _stranded_revision(sentence, "living")
    assert "fished" not in revised and "living" not in revised
    assert "Edmund Larkspur was born in Lerwick in Shetland." in revised
    assert "joined the lighthouse service in 1925." in revised
    assert "he before" not in revised
    # the rule off: the words are cut as written, and what is left has no verb
    off = _stranded_revision(sentence, "living", frozenset({RESTATE_STRANDED}))
    assert off == "Born in Lerwick in Shetland, before joining the lighthouse service in 1925."


def test_a_sentence_whose_main_verb_stays_is_edited_as_written() -> None:
    sentence = "He was born in Lerwick in 1902 and joined the lighthouse service in 1925."
    assert _stranded_revision(sentence, "1902") == "He was born in Lerwick and joined the lighthouse service in 1925."


@pytest.mark.parametrize(
    ("page", "offered", "refused"),
    [
        # a length of time is replaced by a length of time ...
        ("She worked as a court stenographer for eight years.", "eight years", None),
        # ... never by the dates of the stay, which would read "for 1988 to 1996"
        ("From 1988 to 1996 she worked as a court stenographer.", None, "1988 to 1996"),
    ],
)
def test_a_length_of_time_is_replaced_only_by_a_length_of_time(
    page: str, offered: str | None, refused: str | None
) -> None:
    from scoring import nlp, roles
    from scoring.revise import _ranked_values

    fact = "She worked as a court stenographer for six years."
    doc = nlp.parse_one(fact)
    old = next(e for e in doc.ents if e.text == "six years")
    role_set = roles.role_words(fact, ("She", old.text))
    options = _ranked_values([[nlp.parse_one(page)]], old.label_, old, role_set)
    if offered is not None:
        assert offered in options
    if refused is not None:
        assert not any(refused in o for o in options)


@pytest.mark.parametrize(
    ("paragraph", "title", "base", "what", "plain"),
    [
        (
            "Dick Hanley (swimmer) was born in 1936. Dick Hanley (swimmer) won a silver medal in 1956.",
            SWIM,
            "Dick Hanley",
            "swimmer",
            "Another Dick Hanley, a swimmer, was born in 1936. The swimmer won a silver medal in 1956.",
        ),
        (  # a disambiguator that is no person noun: what they are known for
            "Dick Hanley (American football) died in 1970.",
            COACH,
            "Dick Hanley",
            "American football",
            "Another Dick Hanley, known for American football, died in 1970.",
        ),
        ("He was an architect.", "Anne Brandt (architect)", "Anne Brandt", "architect", "He was an architect."),
    ],
)
def test_a_moved_out_namesake_is_named_in_plain_prose(
    paragraph: str, title: str, base: str, what: str, plain: str
) -> None:
    from scoring.revise import _in_plain_prose

    ref = EntityRef(title=title, base_name=base, disambiguator=what)
    assert _in_plain_prose(paragraph, ref) == plain


def test_the_store_titles_come_back_with_the_rule_off() -> None:
    from scoring.revise import PLAIN_SEPARATION

    group = _group(SENTENCES, {"Dick Hanley was born in 1936.": {SWIM}})
    inp = RevisionInput(
        sentences=SENTENCES,
        groups=[(group, COACH)],
        entities=ENTITIES,
        conflated={0},
        rules_off=frozenset({PLAIN_SEPARATION}),
    )
    assert revise(inp).text.endswith(f"\n\n{SWIM} was born in 1936.")


def test_the_first_kept_sentence_names_the_person_where_the_naming_one_went() -> None:
    """'Dick Hanley was a racing driver. He died in 1970.' with the first sentence wrong: the revision is not
    'He died in 1970.', whose 'He' points at nothing."""
    from scoring.revise import PLAIN_SEPARATION

    sentences = ["Dick Hanley was a racing driver from Monaco.", "He died in 1970."]
    group = _group(
        sentences,
        {
            f: set()
            for f in (
                "Dick Hanley was a racing driver from Monaco.",
                "Dick Hanley was a racing driver.",
                "Dick Hanley was from Monaco.",
            )
        },
    )
    revised = revise(RevisionInput(sentences=sentences, groups=[(group, COACH)], entities=ENTITIES)).text
    assert revised == "Dick Hanley died in 1970."
    kept = revise(
        RevisionInput(
            sentences=["Dick Hanley died in 1970.", "He coached Northwestern."],
            groups=[(_group(["Dick Hanley died in 1970.", "He coached Northwestern."], {}), COACH)],
            entities=ENTITIES,
            rules_off=frozenset({PLAIN_SEPARATION}),
        )
    )
    assert kept.text == "Dick Hanley died in 1970. He coached Northwestern."  # named already: left as written
