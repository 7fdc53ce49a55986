"""A year or place supports a fact only in the fact's role (born vs died vs drafted)."""

from __future__ import annotations

import pytest

from schemas.knowledge import Passage
from scoring.roles import contradicted_values, misplaced_values, role_years, stated_in
from scoring.verify import _key_terms_found, _name_missing

PAGE = (
    "Tomasz Wierzbicki (3 March 1871 – 19 October 1934) was a Polish cartographer. "
    "He was born in Lublin and studied at the academy in Kraków. In 1902 he joined the Geographical Society. "
    "He died in Gdańsk."
)
PAGE_BORN = "Odile Marchetti (born 1958) is a French cellist. She moved to Lyon in 1980 and was raised in Nantes."
PAGE_CLUBS = (
    "Søren Ødegaard (born 1986) is a Norwegian footballer. He began his career at Tromsvik IL (2005–2009), then "
    "moved to Kjellvik FK (2010–2013), with whom he won the Norwegian Cup in 2012."
)


@pytest.mark.parametrize(
    ("fact", "page", "misplaced"),
    [
        ("Tomasz Wierzbicki was born in 1934.", PAGE, ["1934"]),
        ("Tomasz Wierzbicki was born in 1871.", PAGE, []),
        ("Tomasz Wierzbicki died in 1934.", PAGE, []),
        ("Tomasz Wierzbicki died in 1871.", PAGE, ["1871"]),
        ("Tomasz Wierzbicki was born in Gdańsk.", PAGE, ["gdansk"]),
        ("Tomasz Wierzbicki was born in Gdansk.", PAGE, ["gdansk"]),
        ("Tomasz Wierzbicki was born in Lublin.", PAGE, []),
        ("Tomasz Wierzbicki joined the Geographical Society in 1902.", PAGE, []),
        ("Tomasz Wierzbicki joined the Geographical Society in 1871.", PAGE, ["1871"]),
        ("Tomasz Wierzbicki was born in 1902.", PAGE, ["1902"]),
        ("Odile Marchetti was born in 1958.", PAGE_BORN, []),
        ("Odile Marchetti was born in 1980.", PAGE_BORN, ["1980"]),
        ("Odile Marchetti was born in Nantes.", PAGE_BORN, ["nantes"]),
        ("Odile Marchetti moved to Lyon in 1980.", PAGE_BORN, []),
        # A year the page never mentions is the key-term gate's business, not a role mismatch.
        ("Odile Marchetti was born in 1961.", PAGE_BORN, []),
        # The years right beside what they date tell one tenure, whatever the verb ("played for" here,
        # "began his career at" there); years further off in the sentence still date something else.
        ("Søren Ødegaard played for Tromsvik IL (2005–2009).", PAGE_CLUBS, []),
        ("Søren Ødegaard played for Kjellvik FK from 2010 to 2013.", PAGE_CLUBS, []),
        # a club's years in parentheses are a tenure, not a lifespan: not a birth year either
        ("Søren Ødegaard played for Kjellvik FK (2012–2013).", PAGE_CLUBS, []),
        ("Søren Ødegaard was born in 2009.", PAGE_CLUBS, ["2009"]),
        ("Søren Ødegaard died in 2013.", PAGE_CLUBS, ["2013"]),
        # death in two words, on either side: "passed away" takes the year or place of "died" and gives none to
        # a birth; "passed" alone is a word of its own
        ("Tomasz Wierzbicki passed away in 1934.", PAGE, []),
        ("Tomasz Wierzbicki passes away in 1934 in the story.", PAGE, []),
        ("Tomasz Wierzbicki was passing away in 1871.", PAGE, ["1871"]),
        ("Odile Marchetti passed away in 1958.", PAGE_BORN, ["1958"]),
        ("Odile Marchetti died in 2019.", PAGE_BORN + " She passed away in Lyon in 2019.", []),
        ("Odile Marchetti was born in 2019.", PAGE_BORN + " She passed away in Lyon in 2019.", ["2019"]),
        ("Tomasz Wierzbicki passed the bar in 1934.", PAGE, ["1934"]),  # his death year: "passed" is no death
    ],
)
def test_value_counts_only_in_its_role(fact: str, page: str, misplaced: list[str]) -> None:
    name = " ".join(fact.split()[:2])
    assert [v.text for v in misplaced_values(fact, [page], (name,))] == misplaced


@pytest.mark.parametrize(
    ("fact", "old", "expected"),
    [
        # The lead lifespan beside the name is no reason to pick its years for another role.
        ("Tomasz Wierzbicki joined the Geographical Society in 1903.", "1903", ["1902"]),
        ("Tomasz Wierzbicki was born in 1872.", "1872", ["1871"]),
        ("Tomasz Wierzbicki died in 1935.", "1935", ["1934"]),
        # Nothing on the page fills "emigrated": no candidate, so the fact is deleted, not rewritten.
        ("Tomasz Wierzbicki emigrated in 1910.", "1910", []),
    ],
)
def test_replacement_years_fill_the_facts_role(fact: str, old: str, expected: list[str]) -> None:
    assert role_years(fact, old, [PAGE], ("Tomasz Wierzbicki",)) == expected


@pytest.mark.parametrize(
    ("fact", "stated"),
    [
        ("Tomasz Wierzbicki joined the Geographical Society in 1902.", True),
        ("Tomasz Wierzbicki joined the society in 1902.", True),
        ("Tomasz Wierzbicki left the Geographical Society in 1902.", False),
        ("Tomasz Wierzbicki joined the Geographical Society in 1904.", False),
        ("Tomasz Wierzbicki was a cartographer.", False),  # two words only, no value: the stance model decides
        # without a value, every content word of the fact in one sentence, three at least
        ("Tomasz Wierzbicki joined the Geographical Society.", True),
        ("Tomasz Wierzbicki studied at the academy in Kraków.", True),
        ("Tomasz Wierzbicki was a Polish sculptor.", False),
        ("Tomasz Wierzbicki never studied at the academy in Kraków.", False),  # the page does not negate it
    ],
)
def test_a_fact_the_page_states_outright(fact: str, stated: bool) -> None:
    assert stated_in(fact, [PAGE], ("Tomasz Wierzbicki",)) is stated


@pytest.mark.parametrize(
    ("fact", "stated"),
    [
        ("Ada Lind's first novel was The Ochre Houses.", True),  # "debut" is "first"
        ("Ada Lind's second novel was The Ochre Houses.", False),  # an order the page does not give
        ("Ada Lind's latest novel was Salt Roads.", True),
        ("Ada Lind's first novel was Salt Roads.", False),
        ("The K2 has a two-year warranty on its heating element.", True),
        ("The K2 kettle has a two-year warranty on its heating element.", False),  # one word more
    ],
)
def test_a_fact_worded_as_the_page_words_it(fact: str, stated: bool) -> None:
    page = (
        "Ada Lind's debut novel, The Ochre Houses (2011), follows a family of dyers. Her latest novel is Salt "
        "Roads. The K2 comes with a two-year warranty on the heating element."
    )
    assert stated_in(fact, [page], ("Ada Lind", "The K2")) is stated


@pytest.mark.parametrize(
    ("fact", "share"),
    [
        ("Odile Marchetti recorded Suite II.", 0.0),  # the page only knows Suite III
        ("Odile Marchetti recorded Suite III.", 1.0),
    ],
)
def test_roman_numerals_are_exact_key_terms(fact: str, share: float) -> None:
    page = Passage(title="Odile Marchetti", text="In 1990 Odile Marchetti recorded Suite III for the label.")
    assert _key_terms_found(fact, "Odile Marchetti", [page]) == share


@pytest.mark.parametrize(
    ("fact", "share"),
    [
        # a hyphenated name is the subject's, not a key term the page finds: the place is the only one
        ("Zoë Ferrán-Okafor studied at Barcelona.", 0.0),
        ("Then Ferrán-Okafor studied at Barcelona.", 0.0),
        ("Zoë Ferrán-Okafor studied in Madrid.", 1.0),
        # another hyphenated name is a key term (Ana and Ruiz-Okafor, both missing; Madrid found)
        ("Zoë Ferrán-Okafor studied with Ana Ruiz-Okafor in Madrid.", 1 / 3),
    ],
)
def test_a_hyphenated_subject_name_is_no_key_term(fact: str, share: float) -> None:
    page = Passage(title="Zoë Ferrán-Okafor", text="Zoë Ferrán-Okafor studied comparative literature in Madrid.")
    assert _key_terms_found(fact, "Zoë Ferrán-Okafor", [page]) == pytest.approx(share)


@pytest.mark.parametrize(
    ("page", "misplaced"),
    [
        ("Zed Okafor was born in Accra, Ghana, and grew up in Wilmington.", ["wilmington"]),
        ("Zed Okafor was born and raised in Wilmington.", []),
    ],
)
def test_a_new_clause_after_and_has_its_own_role(page: str, misplaced: list[str]) -> None:
    found = misplaced_values("Zed Okafor was born in Wilmington.", [page], ("Zed Okafor",))
    assert [v.text for v in found] == misplaced


def test_an_origin_is_filled_by_a_birthplace() -> None:
    assert misplaced_values("Odile Marchetti is a cellist from Nantes.", [PAGE_BORN.replace("raised", "born")]) == []


@pytest.mark.parametrize(
    ("fact", "share"),
    [
        ("Odile Marchetti gave her first recital at Vichy.", 0.0),  # the page never names Vichy
        ("Odile Marchetti gave her first recital at Lyon.", 1.0),
    ],
)
def test_a_place_the_page_never_names_is_exact(fact: str, share: float) -> None:
    page = Passage(title="Odile Marchetti", text="Odile Marchetti gave her first recital at Lyon in 1980.")
    assert _key_terms_found(fact, "Odile Marchetti", [page]) == share


@pytest.mark.parametrize(
    ("fact", "page", "misplaced"),
    [
        ("Ana Ruiz was born in New Haven.", "Ana Ruiz was born in Boston. She moved to New Haven in 1990.", ["haven"]),
        ("Ana Ruiz was born in New Haven.", "Ana Ruiz was born in New Haven. She visited New York.", []),
    ],
)
def test_a_place_is_known_by_its_distinctive_word(fact: str, page: str, misplaced: list[str]) -> None:
    assert [v.text for v in misplaced_values(fact, [page], ("Ana Ruiz",))] == misplaced


def test_an_acronym_matches_the_initials_of_a_name_on_the_page() -> None:
    page = Passage(title="Ana Ruiz", text="Ana Ruiz taught at the Northern Institute of Oceanography until 2001.")
    assert _key_terms_found("Ana Ruiz taught at NIO.", "Ana Ruiz", [page]) == 1.0
    assert _key_terms_found("Ana Ruiz taught at NYU.", "Ana Ruiz", [page]) == 0.0


CLUB = (
    "He played for IK Norrvik from 1990 to 1998, winning the Swedish championship with the club in 1994 and 1997. "
    "Between 2001 and 2004 he coached the club's juniors, and in 2003 he won the coaching award."
)


@pytest.mark.parametrize(
    ("fact", "old", "expected"),
    [
        # a single year is replaced by a single year, not by a range's end beside the same words
        ("He won Swedish championships in 1999.", "1999", ["1994", "1997"]),
        # a range's end by a range's end
        ("He played for IK Norrvik from 1990 to 1999.", "1999", ["1998"]),
    ],
)
def test_a_year_is_replaced_by_one_of_the_same_kind(fact: str, old: str, expected: list[str]) -> None:
    found = role_years(fact, old, [CLUB])
    assert found[: len(expected)] == expected, found


@pytest.mark.parametrize(
    ("fact", "contradicted"),
    [
        ("Ada Lind teaches creative writing at Bramwell University in Madrid.", ["madrid"]),
        ("Ada Lind teaches creative writing at Bramwell University in London.", []),
        ("Ada Lind studied literature in Madrid.", []),  # the page places her studies there
        ("Ada Lind teaches at Kingsmere College in Madrid.", []),  # a name the page does not place
    ],
)
def test_a_place_bound_to_the_wrong_organisation_is_contradicted(fact: str, contradicted: list[str]) -> None:
    page = (
        "Since 2017 she has taught creative writing at Bramwell University in London, where she lives. "
        "She studied comparative literature in Madrid."
    )
    assert [v.text for v in contradicted_values(fact, [page], ("Ada Lind",))] == contradicted


@pytest.mark.parametrize(
    ("fact", "missing"),
    [
        # The page's 2012 is a cup win: nothing on it names the Lindeman Prize.
        ("Søren Ødegaard won the Lindeman Prize in 2012.", True),
        ("Søren Ødegaard won the Norwegian Cup in 2012.", False),
        ("Søren Ødegaard played for Kjellvik FK.", False),
        ("Søren Ødegaard played for Brakstad Athletic.", True),
        # One word of the name on the page is enough: paraphrased names are the model's to judge.
        ("Søren Ødegaard played for the Kjellvik Football Club.", False),
        # Generic words alone, single capitalised words and the subject's own name are not names to find.
        ("Søren Ødegaard won the National Cup.", False),
        ("Søren Ødegaard was Danish.", False),
        ("Ødegaard Søren won a cup.", False),
        # A name that opens with a capital outside A-Z is a name too ("Łódź", "Øster", "Ørsted").
        ("Søren Ødegaard played for Łódź Ørsted.", True),
        ("Søren Ødegaard played for Øster Brakstad.", True),
        ("Søren Ødegaard won the Ølberg Trophy in 2012.", True),
    ],
)
def test_a_name_the_page_never_gives_is_missing(fact: str, missing: bool) -> None:
    page = Passage(
        title="Søren Ødegaard (footballer)",
        text="Søren Ødegaard moved to Kjellvik FK in 2010, with whom he won the Norwegian Cup in 2012.",
    )
    assert _name_missing(fact, "Søren Ødegaard", [page]) is missing


@pytest.mark.parametrize(
    ("fact", "page", "stated"),
    [
        ("Her first book was The Ochre Houses.", "Her debut novel, The Ochre Houses, follows a family of dyers.", True),
        ("His first book was Shuttle and Loom.", "His first memoir, Shuttle and Loom, tells of the mills.", True),
        # the particular word is not said by the general one: a book need not be a novel
        ("Her first novel was The Ochre Houses.", "Her debut book, The Ochre Houses, follows a family.", False),
    ],
)
def test_a_book_is_what_a_page_calls_a_novel_or_a_memoir(fact: str, page: str, stated: bool) -> None:
    assert stated_in(fact, [page]) is stated


@pytest.mark.parametrize(
    ("fact", "misplaced"),
    [
        # each place is read with its own predicate where the fact strings several together
        ("Ada Lind is a novelist, born 1984 in Lagos, raised in Seville.", []),
        # swapped, each place stands on the page only in the other role
        ("Ada Lind is a novelist, born 1984 in Seville, raised in Lagos.", ["seville", "lagos"]),
        # a place the fact gives as an origin is what a birthplace says
        ("Ada Lind is a retired novelist from Lagos, born in 1984.", []),
    ],
)
def test_a_value_is_read_in_the_role_of_its_own_part_of_the_fact(fact: str, misplaced: list[str]) -> None:
    page = (
        "Ada Lind (born 1984 in Lagos, Nigeria) is a novelist. She moved to Seville with her mother at the age of "
        "seven and studied in Madrid."
    )
    assert [v.text for v in misplaced_values(fact, [page], ("Ada Lind",))] == misplaced


@pytest.mark.parametrize(
    ("fact", "share"),
    [
        # a hyphenated term's name parts, however the page joins them
        ("Odile Marchetti was a Lyon-born cellist.", 1.0),
        ("Odile Marchetti was a French-Italian cellist.", 1.0),
        ("Odile Marchetti was a Vichy-born cellist.", 0.0),  # the page never names Vichy
        ("Odile Marchetti was a French-Swiss cellist.", 0.0),  # one term: every part of it, or it is missing
    ],
)
def test_a_hyphenated_key_term_is_found_by_its_parts(fact: str, share: float) -> None:
    text = "Odile Marchetti, born in Lyon to an Italian father, is a French cellist."
    page = Passage(title="Odile Marchetti", text=text)
    assert _key_terms_found(fact, "Odile Marchetti", [page]) == share


@pytest.mark.parametrize(
    ("fact", "stated"),
    [
        # retiring said as hanging up one's gear
        ("Mira Kallas hung up her skates in 2015.", True),
        ("Mira Kallas hung up her boots in 2015.", True),
        ("Mira Kallas hung up her racket in 2015.", True),
        ("Mira Kallas hung up her skates in 2013.", False),  # another year
        ("Mira Kallas hung up her coat in 2015.", False),  # a coat is no retirement
        ("Mira Kallas picked up her skates in 2015.", False),
    ],
)
def test_hanging_up_ones_gear_is_retiring(fact: str, stated: bool) -> None:
    page = "Mira Kallas (born 1988) is an Estonian speed skater. She retired from competition in 2015."
    assert stated_in(fact, [page], ("Mira Kallas",)) is stated


_WETLANDS = (
    "Between 2015 and 2020 she led the Wetland Pulse monitoring project. She was on the faculty of the Kaveri "
    "Institute from 1992 to 2005. He was voted the league's best goaltender in 1996. He received the Humboldt "
    "Society Medal in 1984."
)


@pytest.mark.parametrize(
    ("fact", "stated"),
    [
        # a predicate in other words, every value the same: stated
        ("Ada Lind headed the Wetland Pulse project between 2015 and 2020.", True),
        ("Ada Lind taught at the Kaveri Institute between 1992 and 2005.", True),
        ("Ada Lind was named the best goaltender in the league in 1996.", True),
        ("Ada Lind was awarded the Humboldt Society Medal in 1984.", True),
        # another value, or a predicate word the page does not say: not stated
        ("Ada Lind headed the Wetland Pulse project between 2014 and 2020.", False),
        ("Ada Lind taught at the Kaveri Institute between 1992 and 2006.", False),
        ("Ada Lind was named the best goaltender in the league in 1997.", False),
        ("Ada Lind was awarded the Humboldt Society Medal in 1985.", False),
        ("Ada Lind founded the Wetland Pulse project between 2015 and 2020.", False),
    ],
)
def test_a_predicate_in_other_words_is_stated_by_a_sentence_with_its_values(fact: str, stated: bool) -> None:
    assert stated_in(fact, [_WETLANDS], ("Ada Lind",)) is stated


@pytest.mark.parametrize(
    ("fact", "missing"),
    [
        # "Science", "Sciences", "Technology" and "Arts" name institutions of every kind: the page's own word
        # ("Vistula") is what tells it apart
        ("Marta Kowalczyk became a professor at the Warta University of Science.", True),
        ("Marta Kowalczyk joined the Warta Academy of Sciences.", True),
        ("Marta Kowalczyk studied at the Warta Institute of Technology and Arts.", True),
        ("Marta Kowalczyk became a professor at the Vistula University of Science.", False),
        ("Marta Kowalczyk taught at the Vistula University of Technology.", False),
    ],
)
def test_generic_words_of_institutions_do_not_find_their_name(fact: str, missing: bool) -> None:
    page = Passage(
        title="Marta Kowalczyk (ecologist)",
        text="In 2012 Marta Kowalczyk became a professor at the Vistula University of Science.",
    )
    assert _name_missing(fact, "Marta Kowalczyk", [page]) is missing
