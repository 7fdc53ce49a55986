"""The offline verifier's text analysis and claim–passage features, on small hand-made tables."""

from __future__ import annotations

import pytest

from scoring.verifier.features import FEATURE_NAMES, _pair_rows, pair_features
from scoring.verifier.text import analyse, analyse_pair, split_sentences, stem


@pytest.mark.parametrize(
    ("word", "expected"),
    [("playing", "play"), ("played", "play"), ("plays", "play"), ("studies", "stud"), ("studied", "stud"),
     ("Clinton's", "clinton"), ("1936", "1936"), ("cat", "cat")],
)  # fmt: skip
def test_stem(word: str, expected: str) -> None:
    assert stem(word) == expected


@pytest.mark.parametrize(
    ("text", "numbers", "years", "months", "negated"),
    [
        ("He was born on September 1, 1943.", {"1", "1943"}, {"1943"}, {9}, False),
        ("She did not win two medals in the 1970s.", {"2", "1970"}, {"1970"}, set(), True),
        ("It cost 1,200 dollars in May 2001.", {"1200", "2001"}, {"2001"}, {5}, False),
        ("May I ask why he never came?", set(), set(), set(), True),
        ("He finished third with 3.50 points.", {"3", "3.5"}, set(), set(), False),
    ],
)
def test_analyse_numbers_dates_negation(
    text: str, numbers: set[str], years: set[str], months: set[int], negated: bool
) -> None:
    a = analyse(text)
    assert set(a.numbers) == numbers
    assert set(a.years) == years
    assert set(a.months) == months
    assert a.negated is negated


@pytest.mark.parametrize(
    "text",
    [
        'His Symphony No. 1, "Polar Night" (1941), made his name.',
        "The single reached no. 7 in the charts in 1984.",
        "She wore No. 23 for the club.",
        "It was his No.2 hit.",
    ],
)
def test_number_abbreviation_does_not_negate(text: str) -> None:
    # "No." before a number abbreviates "number": the sentence denies nothing, and the number is still read
    a = analyse(text)
    assert a.negated is False
    assert a.numbers & {"1", "7", "23", "2"}


def test_a_numbered_work_is_not_a_negation_mismatch() -> None:
    claim = "Polar Night was released in 1941."
    passage = 'He was born in Tromso. His Symphony No. 1, "Polar Night" (1941), made his name.'
    assert _features(claim, passage)["negation_mismatch"] == 0.0
    assert _features(claim, passage.replace("made his name", "was not performed"))["negation_mismatch"] == 1.0


@pytest.mark.parametrize(
    "text",
    [
        "He had no children.",
        "No record of his birth survives.",
        "He won no. Not once.",
        "There were no 1990 elections in the country.",  # "no" before a year: still a denial
        "She never married.",
    ],
)
def test_look_alike_negations_still_negate(text: str) -> None:
    assert analyse(text).negated is True


@pytest.mark.parametrize(
    "text",
    [
        "Tickets are closed automatically after 7 days without activity.",
        "The album was released without a label.",
        "He crossed the Atlantic without a co-pilot in 1932.",
        "She ran the company without anything in writing.",
    ],
)
def test_without_before_a_noun_phrase_denies_nothing(text: str) -> None:
    assert analyse(text).negated is False
    assert analyse(text.replace("without", "not without")).negated is True  # another negation still counts


@pytest.mark.parametrize(
    "text",
    [
        "He left the university without graduating.",
        "She was acquitted without ever being tried.",
        "The film was shelved without being released.",
    ],
)
def test_without_before_a_verb_denies_it(text: str) -> None:
    assert analyse(text).negated is True


def test_a_claim_and_a_page_sentence_with_without_agree_in_polarity() -> None:
    claim = "Tickets are closed after 7 days."
    assert _features(claim, "Tickets are closed automatically after 7 days without activity.")["negation_mismatch"] == 0
    assert _features("He graduated from Yale.", "He left Yale without graduating.")["negation_mismatch"] == 1


def test_analyse_content_and_names() -> None:
    a = analyse("Bruce Johnstone plays the baritone saxophone in London.")
    assert a.content == {"bruc", "johnston", "play", "bariton", "saxophon", "london"}
    assert a.names == {"bruc", "johnston", "london"}
    assert ("bariton", "saxophon") in a.bigrams


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("Earlier Harlan Beckwith set a record.", {"earli", "harlan", "beckwith"}),
        ("In 1990, Elon Musk founded SpaceX.", {"elon", "musk"}),  # stopwords and numbers before the name
        ("Marie Curie won the Nobel Prize in 1903.", {"mari", "curi"}),  # the object's name is not the subject
        ("The University of Oslo awarded him a degree.", {"university"}),  # a stopword ends the run
    ],
)
def test_subject_is_the_run_of_names_a_text_opens_with(text: str, subject: set[str]) -> None:
    assert analyse(text).subject == subject


@pytest.mark.parametrize(
    "text",
    ["He won the Nobel Prize.", "She later moved to Paris.", "The first album sold well in Japan.", "It rained."],
)
def test_a_text_opening_with_no_name_has_no_subject(text: str) -> None:
    assert analyse(text).subject == frozenset()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Dr. Smith was born in 1900. He died in St. Louis.", ["Dr. Smith was born in 1900.", "He died in St. Louis."]),
        ("One. Two! Three?", ["One.", "Two!", "Three?"]),
        ("no end", ["no end"]),
        ("", []),
    ],
)
def test_split_sentences(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


def _features(claim: str, passage: str) -> dict[str, float]:
    row = pair_features(claim, [passage])[0]
    return dict(zip(FEATURE_NAMES, row.tolist(), strict=True))


CLAIM = "Douglas died in 1980 in Bethesda."


@pytest.mark.parametrize(
    ("passage", "expected"),
    [
        # the passage says it all
        ("Douglas died in 1980 in Bethesda, Maryland.", {"coverage": 1.0, "name_coverage": 1.0, "number_match": 1.0,
                                                         "year_conflict": 0.0, "negation_mismatch": 0.0}),
        # another year: a conflict, and the year is not matched
        ("Douglas died in 1975 in Bethesda.", {"coverage": 1.0, "number_match": 0.0, "year_conflict": 1.0,
                                               "number_conflict": 1.0}),
        # negated
        ("Douglas never died in Bethesda in 1980.", {"negation_mismatch": 1.0, "number_match": 1.0}),
        # nothing in common
        ("The weather in Spain is mild.", {"coverage": 0.0, "name_coverage": 0.0, "number_match": 0.0,
                                           "year_conflict": 0.0}),
        # half the words: "died" and "1980" missing, "Douglas" and "Bethesda" present
        ("Douglas lived in Bethesda.", {"coverage": 2 / 3, "name_coverage": 1.0, "number_match": 0.0}),
    ],
)  # fmt: skip
def test_pair_features(passage: str, expected: dict[str, float]) -> None:
    features = _features(CLAIM, passage)
    for name, value in expected.items():
        assert features[name] == pytest.approx(value), name


def test_best_sentence_is_found_inside_a_long_passage() -> None:
    passage = "The court sat in Washington. Many cases were heard. Douglas died in 1980 in Bethesda. He wrote books."
    features = _features(CLAIM, passage)
    assert features["coverage_best"] == pytest.approx(1.0)
    assert features["bigram_coverage_best"] == pytest.approx(1.0)


def test_idf_weights_words_shared_by_every_passage_less() -> None:
    claim = "Douglas was born in Maine."
    passages = ["Douglas was born in Maine.", "Douglas was a judge.", "Douglas wrote books.", "Douglas lived long."]
    rows = pair_features(claim, passages)
    cov, idf_cov = FEATURE_NAMES.index("coverage"), FEATURE_NAMES.index("idf_coverage")
    # passage 2 has "Douglas" (in every passage) but not "born"/"Maine": idf coverage falls below plain coverage
    assert rows[1, idf_cov] < rows[1, cov]
    assert rows[0, idf_cov] == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("claim", "passage", "predicate", "predicate_best"),
    [
        # the namesake's page has the name and "set", not the record: coverage 3/4, the predicate half of it
        ("Harlan Beckwith set a record.", "Harlan Beckwith painted a set of 24 canvases. He lived in Leeds.", 0.5, 0.5),
        # the predicate's words spread over sentences that are not adjacent: the best sentence has one of them
        ("Ada Brandt won the Tour in 1990.", "Ada Brandt won races. She lived in Ghent. The Tour came.", 1.0, 0.5),
        # a page saying it all
        ("Ada Brandt won the Tour in 1990.", "In 1990 Ada Brandt won the Tour.", 1.0, 1.0),
        # a claim that is all name is read whole
        ("Ada Brandt.", "Ada Brandt was a cyclist.", 1.0, 1.0),
    ],
)
def test_predicate_coverage_leaves_out_the_subjects_name(
    claim: str, passage: str, predicate: float, predicate_best: float
) -> None:
    features = _features(claim, passage)
    assert features["predicate_coverage"] == pytest.approx(predicate)
    assert features["predicate_coverage_best"] == pytest.approx(predicate_best)
    assert features["name_coverage"] == pytest.approx(1.0)  # the name alone is all there


def test_no_passages_gives_an_empty_matrix() -> None:
    assert pair_features("A claim.", []).shape == (0, len(FEATURE_NAMES))
    assert pair_features("A claim.", [], ("coverage",)).shape == (0, 1)


_LAZY_CASES = [
    ("Harlan Beckwith set a record.", ["Harlan Beckwith painted a set of 24 canvases. He lived in Leeds.", "Rain."]),
    ("In 1990, Ada Brandt won the Tour.", ["Ada Brandt won races in 1991.", "In 1990 Ada Brandt won the Tour."]),
    ("He was not born in Ghent.", ["Born in Ghent in 1950, he cycled."]),
]


@pytest.mark.parametrize(("claim", "passages"), _LAZY_CASES)
@pytest.mark.parametrize(
    "names",
    [
        ("coverage", "negation_mismatch", "log_claim_len"),
        ("predicate_coverage_best", "coverage", "predicate_coverage"),  # any order, the predicate group first
        FEATURE_NAMES[::-1],
    ],
)
def test_the_columns_asked_for_are_those_of_the_whole_matrix(
    claim: str, passages: list[str], names: tuple[str, ...]
) -> None:
    full = pair_features(claim, passages)
    picked = pair_features(claim, passages, names)
    assert picked.shape == (len(passages), len(names))
    for j, name in enumerate(names):
        assert picked[:, j].tolist() == full[:, FEATURE_NAMES.index(name)].tolist()


@pytest.mark.parametrize(("claim", "passages"), _LAZY_CASES)
def test_the_predicate_group_is_computed_only_when_asked_for(claim: str, passages: list[str]) -> None:
    predicate = [FEATURE_NAMES.index("predicate_coverage"), FEATURE_NAMES.index("predicate_coverage_best")]
    computed = _pair_rows(claim, passages, predicate=True)
    skipped = _pair_rows(claim, passages, predicate=False)
    assert computed[:, predicate].any()  # every case has a page with some of the claim's predicate
    assert not skipped[:, predicate].any()
    rest = [j for j in range(len(FEATURE_NAMES)) if j not in predicate]
    assert skipped[:, rest].tolist() == computed[:, rest].tolist()


def test_an_unknown_column_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown feature columns"):
        pair_features("A claim.", ["A passage."], ("coverage", "no_such_column"))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("He was born in 1936.", "He died in 1970."),
        ("It rained.", "May 5 was dry."),  # "May" opens the second sentence, not the pair
        ("It rained.", "MAY was dry."),
        ("...", "May it rain."),  # nothing before it: still the opening word
        ("", "May I?"),
        ("He didn't win the first prize.", "She won 1,200 votes in the 1990s."),
        ("Paris is in France", "Lyon isn't."),
    ],
)
def test_a_pair_of_sentences_reads_as_their_join(first: str, second: str) -> None:
    assert analyse_pair(first, second) == analyse(f"{first} {second}")


def test_units_are_one_word_however_written() -> None:
    """ "ran the 200 m" and "in the 200 metres" share the unit; "m" elsewhere is no metre."""
    from scoring.verifier.text import analyse

    assert "metre" in analyse("He ran the 200 m at the Olympics.").content
    assert "metre" in analyse("He ran the 200 metres.").content
    assert "metre" in analyse("The 5,000 meters final.").content
    assert analyse("It is 12 km long.").content & analyse("It is twelve kilometres long.").content == {
        "long",
        "kilometre",
    }
    assert "metre" not in analyse("Plan B and the letter m.").content


def test_words_biographies_use_for_the_same_thing_are_one_stem() -> None:
    from scoring.verifier.text import analyse

    assert "first" in analyse("Her debut novel was The Ochre Houses.").content
    assert "recent" in analyse("His latest album came out in 2018.").content
    assert analyse("He received his doctorate in 1983.").content & analyse("He completed his PhD in 1983.").content


def test_a_dozen_is_twelve_to_the_number_features() -> None:
    from scoring.verifier.text import analyse

    assert analyse("Two dozen dawn canvases made his name.").numbers == frozenset({"24"})
    assert analyse("a dozen novels").numbers == frozenset({"12"})
    assert analyse("dozens of novels").numbers == frozenset()


_PAGE = (
    "Agnes Thornbury-Vale (1902 – 1990) was a Welsh weaver. Born in Bala to a farming family, she did not go to "
    "school and learned to weave from her aunt. She worked only with undyed wool and never used a power loom. "
    "She received the Guild Medal in 1961. She never married."
)


def _column(claim: str, passage: str, name: str) -> float:
    return float(pair_features(claim, [passage], (name,))[0, 0])


@pytest.mark.parametrize(
    "claim",
    [
        "Agnes Thornbury-Vale never married.",
        "Agnes Thornbury-Vale received the Guild Medal in 1961.",
        "Agnes Thornbury-Vale worked only with undyed wool.",
        "Agnes Thornbury-Vale learned to weave from her aunt.",
    ],
)
def test_a_page_sentence_about_she_is_the_best_reading_of_a_claim_naming_her(claim: str) -> None:
    # The opening sentence has the whole name; the sentence (or clause) that says what the claim says has "she".
    assert _column(claim, _PAGE, "negation_mismatch") == 0.0
    assert _column(claim, _PAGE, "coverage_best") == pytest.approx(1.0)


@pytest.mark.parametrize(
    "claim",
    [
        "Agnes Thornbury-Vale married.",
        "Agnes Thornbury-Vale used a power loom.",
        "Agnes Thornbury-Vale went to school.",
    ],
)
def test_a_claim_the_page_denies_still_meets_the_denial(claim: str) -> None:
    assert _column(claim, _PAGE, "negation_mismatch") == 1.0


def test_a_passage_that_does_not_open_with_the_subject_carries_nothing() -> None:
    # A later chunk of a long page ("She never married." with no name before it) reads as it did: the claim's
    # name is not found in its best window.
    chunk = "In 1961 the Guild gave her its medal. She never married."
    assert _column("Agnes Thornbury-Vale never married.", chunk, "name_coverage_best") == 0.0


def test_a_year_the_page_does_not_give_still_conflicts_in_the_sentence_about_she() -> None:
    assert _column("Agnes Thornbury-Vale received the Guild Medal in 1975.", _PAGE, "number_conflict") == 1.0
