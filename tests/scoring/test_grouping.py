from __future__ import annotations

import pytest

from scoring import nlp
from scoring.grouping import compatible, find_mention, group_sentences
from scoring.sentences import split_sentences


def _groups(text: str, subject: str) -> list[tuple[str, list[int]]]:
    sentences = split_sentences(text)
    groups = group_sentences([s.text for s in sentences], subject, list_items=[s.list_item for s in sentences])
    return [(g.label, g.sentences) for g in groups]


@pytest.mark.parametrize(
    ("subject", "text", "expected"),
    [
        (  # one narrative about one name is one individual, whoever the facts belong to
            "Dick Hanley",
            "Dick Hanley is an American swimmer and football coach. He was born in 1936. "
            "He won a silver medal in 1956. Hanley coached Northwestern from 1927 to 1934. He died in 1970.",
            [("Dick Hanley", [0, 1, 2, 3, 4])],
        ),
        (
            "Gavin Hamilton",
            "Gavin Hamilton was a Scottish painter. He died in Rome in 1798. Another Gavin Hamilton is a Scottish "
            "former cricketer. He played one Test for England. There was also a Gavin Hamilton who served as Bishop "
            "of Galloway. He died in 1612.",
            [("Gavin Hamilton", [0, 1]), ("Gavin Hamilton", [2, 3]), ("Gavin Hamilton", [4, 5])],
        ),
        (
            "John Smith",
            "The first John Smith was an English explorer. He founded a colony. The other John Smith was a footballer. "
            "He played for Leeds.",
            [("John Smith", [0, 1]), ("John Smith", [2, 3])],
        ),
        (
            "Joseph F. Smith",
            "Joseph F. Smith may refer to: 1. Joseph F. Smith (1838–1918), sixth president of the LDS Church. "
            "2. Joseph F. Smith (1920–1999), an American politician from Pennsylvania.",
            [("Joseph F. Smith", [0]), ("Joseph F. Smith", [1]), ("Joseph F. Smith", [2])],
        ),
        (  # a new paragraph that introduces the same name again
            "John Hemming",
            "John Hemming is a British explorer. He wrote The Conquest of the Incas.\n\n"
            "There is also a John Hemming who is a British politician. He was an MP from 2005 to 2015.",
            [("John Hemming", [0, 1]), ("John Hemming", [2, 3])],
        ),
        (  # different middle initials are different people
            "Robert Rutherford",
            "Robert B. Rutherford was an American surgeon. He was born in Edmonton. Robert L. Rutherford was a "
            "general in the Air Force. He was born in Texas.",
            [("Robert B. Rutherford", [0, 1]), ("Robert L. Rutherford", [2, 3])],
        ),
        (  # a disambiguator in parentheses marks another person
            "Christopher Hinton",
            "Christopher Hinton was a British nuclear engineer. Hinton attended school in Chippenham. "
            "Christopher Hinton (animator) is a Canadian film animator. His films have won awards.",
            [("Christopher Hinton", [0, 1]), ("Christopher Hinton (animator)", [2, 3])],
        ),
        (  # a bare surname in between does not make two first names one person
            "Edmund Collins",
            "Edmund Collins was the Bishop of Darwin. In 1953, Collins entered the priesthood. Edward Joseph Collins "
            "was an American pianist. Collins studied in Chicago.",
            [("Edmund Collins", [0, 1]), ("Edward Joseph Collins", [2, 3])],
        ),
        (  # lifespans, epithets and nicknames set people apart
            "Robert Livingston",
            "Robert Livingston (1708-1790) was a member of the assembly. He was born in Albany. Robert Livingston the "
            'Younger (1663-1725) was a merchant. Robert Burr "Bob" Livingston (1918-2002) was an American physician.',
            [
                ("Robert Livingston", [0, 1]),
                ("Robert Livingston the Younger", [2]),
                ("Robert Burr Livingston", [3]),
            ],
        ),
        (  # a shorter form of the full name continues the same person
            "João Leite",
            "João Leite da Silva Neto, also known as João Leite, is a former Brazilian goalkeeper. João Leite first "
            "played for Atlético in 1977.",
            [("João Leite da Silva Neto", [0, 1])],
        ),
        (  # "there is a conductor named X" and a contrast that introduces the name afresh
            "Akira Endo",
            "Akira Endo is a Japanese biochemist. He discovered statins. Aside from his work, there is also a "
            "conductor named Akira Endo. On the other hand, Akira Endo is also the name of a retired footballer.",
            [("Akira Endo", [0, 1]), ("Akira Endo", [2]), ("Akira Endo", [3])],
        ),
        (  # markdown headings that name people
            "Gavin Hamilton",
            "## Gavin Hamilton (painter)\n**Gavin Hamilton** was a Scottish painter. He died in 1798.\n\n"
            "## Gavin Hamilton (cricketer)\nGavin Hamilton is a former cricketer. He played for Yorkshire.",
            [("Gavin Hamilton (painter)", [0, 1, 2]), ("Gavin Hamilton (cricketer)", [3, 4, 5])],
        ),
        (  # an organisation as a list item's subject is no new person (organisation-subject)
            "Harlan Beckwith",
            "Harlan Beckwith was a painter.\n\n- The Whitlow Museum of Art mounted a retrospective of his work.\n"
            "- Team Velora signed him in 1950.",
            [("Harlan Beckwith", [0, 1, 2])],
        ),
        (  # a name dated by one bare year is a work's (work-year-name); a span dates a person
            "Harlan Beckwith",
            "Harlan Beckwith was a painter.\n\n- Marsh Light (1958), two dozen canvases, made his name.\n"
            "- Tidewater Suite (1971) toured six museums.\n- Harlan Beckwith (1903–1937) was an aviator.",
            [("Harlan Beckwith", [0, 1, 2]), ("Harlan Beckwith", [3])],
        ),
        (  # a thing named after the person is no namesake (named-after)
            "Harlan Beckwith",
            "Harlan Beckwith was an aviator. He died in 1937.\n\n"
            "- Beckwith Field, a small airfield near Wichita, is named after him.\n"
            "- Beckwith Hall was named in his honour.",
            [("Harlan Beckwith", [0, 1, 2, 3])],
        ),
        (  # a hyphenated surname alone, described afresh, is the surname of the individual so far (reintroduced)
            "Zoë Ferrán-Okafor",
            "Zoë Ferrán-Okafor is a Nigerian-Spanish novelist.\n\nFirst, Ferrán-Okafor is a native of Lagos. "
            "Ferrán-Okafor is the author of A Map of Small Rains.",
            [("Zoë Ferrán-Okafor", [0, 1, 2])],
        ),
        (  # another full form of two words, described afresh, is still another individual
            "Sheila Jackson",
            "Sheila Jackson is a chess player. Sheila Jackson-Lee is a politician.",
            [("Sheila Jackson", [0]), ("Sheila Jackson-Lee", [1])],
        ),
        (  # a pronoun of the other gender returns to the earlier individual
            "George Duckworth",
            "George Duckworth was born in 1868. Stella Duckworth was his sister. She had a daughter. "
            "He became a public servant.",
            [("George Duckworth", [0, 3]), ("Stella Duckworth", [1, 2])],
        ),
    ],
)
def test_group_sentences(subject: str, text: str, expected: list[tuple[str, list[int]]]) -> None:
    assert _groups(text, subject) == expected


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("Hanley", "Dick Hanley", True),
        ("Robert B. Rutherford", "Robert Rutherford", True),
        ("Robert B. Rutherford", "Robert L. Rutherford", False),
        ("Stephen Hinton", "Christopher Hinton", False),
        ("J. Smith", "John Smith", True),
        ("Jackson Lee", "Sheila Jackson Lee", True),
        ("Cole Anthony", "Anthony Cole", False),
        ("Sir John Smith Jr.", "John Smith", True),
    ],
)
def test_compatible_names(a: str, b: str, same: bool) -> None:
    assert compatible(a, b) is same


def test_a_hyphenated_given_name_is_kept_whole() -> None:
    """ "Anne-Sophie Brandt", "Björn-Åke Tallqvist": the given name is not cut at its hyphen."""
    for sentence, name in [
        ("Anne-Sophie Brandt founded Brandt Atelier in 1995.", "Anne-Sophie Brandt"),
        ("Björn-Åke Tallqvist is a retired Swedish goaltender.", "Björn-Åke Tallqvist"),
        ("Jean-Baptiste Nkemelu trained in Lyon.", "Jean-Baptiste Nkemelu"),
    ]:
        mention = find_mention(nlp.parse_one(sentence))
        assert mention is not None and mention.name == name


def test_individuals_index_what_grouping_asks_of_them() -> None:
    from scoring.grouping import Mention, PerceivedGroup, _absorb, _Individuals

    first = PerceivedGroup("Dick Hanley")
    people = _Individuals(first)
    assert first in people and people.knows("hanley") and not people.knows("pippen")
    cellist = PerceivedGroup("Dick Hanley", disambiguator="cellist", from_text=True, role="cellist")
    people.add(cellist)
    assert people.with_role("cellist") is cellist and people.with_role("elder") is None
    assert people.with_role("cellist") is cellist  # the first of a role stays its individual
    _absorb(first, Mention("Richard Hanley", introduces=True))
    people.update(first)
    assert people.knows("richard") and people.carriers("richard hanley") == 1
    _absorb(cellist, Mention("Richard Hanley"))
    people.update(cellist)
    assert people.carriers("richard hanley") == 2
    assert people.latest_first("richard hanley", None) == [cellist, first]
    assert people.latest_first("nobody", "cellist") == [cellist]
    # A name changed to a fuller form no longer counts the words only the old one had.
    lone = PerceivedGroup("Scottie", from_text=True)
    people.add(lone)
    assert people.knows("scottie")
    lone.name = "Pippen"
    people.update(lone)
    assert not people.knows("scottie") and people.knows("pippen")
    # Genders: the latest individual of each, and the latest with sentences and none yet.
    first.sentences.append(0)
    cellist.sentences.append(1)
    assert people.latest_of_gender("m") is None
    assert people.latest_ungendered(besides=first) is cellist
    assert people.latest_ungendered(besides=cellist) is first
    first.gender = "m"
    people.update(first)
    assert people.latest_of_gender("m") is first and people.latest_ungendered(besides=cellist) is None


def test_many_individuals_are_told_apart_and_returned_to() -> None:
    # Forty people one after another, each introduced and then spoken of by pronoun; then the first is
    # named again by the full name only they were given.
    names = [
        f"{first} {last}"
        for first in ("Anna", "Boris", "Clara", "Dmitri")
        for last in "Abel Berg Crane Dahl Eck Falk Gray Holm Ives Juhl".split()
    ]
    text = " ".join(
        f"{n} is a {'German' if k % 2 else 'Danish'} painter. {'She' if k % 2 else 'He'} was born in {1900 + k}."
        for k, n in enumerate(names)
    )
    text += f" {names[0]} died in 1990."
    groups = _groups(text, names[0])
    assert [label for label, _ in groups] == names
    assert [sentences for _, sentences in groups][:2] == [[0, 1, 80], [2, 3]]
    assert all(sentences == [2 * k, 2 * k + 1] for k, (_, sentences) in enumerate(groups) if k)


@pytest.mark.parametrize(
    ("sentence", "role"),
    [
        ("Mei-Lin Osterhagen the chemist developed the Verdex film.", "chemist"),
        ("Dick Hanley the swimmer was born in 1936.", "swimmer"),
        ("Dick Hanley the coach led Northwestern.", "coach"),
        # no role: an epithet, a relation, or nothing after the name
        ("Pliny the Elder wrote the Natural History.", None),
        ("Dick Hanley was born in 1936.", None),
    ],
)
def test_a_role_right_after_the_name_tells_which_one(sentence: str, role: str | None) -> None:
    mention = find_mention(nlp.parse_one(sentence))
    assert mention is not None and mention.disambiguator == role


def test_the_same_name_with_two_roles_is_two_individuals() -> None:
    text = (
        "Two different people have this name. Mei-Lin Osterhagen the chemist developed the Verdex film. "
        "Mei-Lin Osterhagen the journalist was a correspondent in Hong Kong."
    )
    assert _groups(text, "Mei-Lin Osterhagen") == [
        ("Mei-Lin Osterhagen (chemist)", [0, 1]),
        ("Mei-Lin Osterhagen (journalist)", [2]),
    ]


def test_the_organisation_and_work_year_rules_switch_off() -> None:
    from scoring.grouping import ORGANISATION_SUBJECT, WORK_YEAR_NAME, group_sentences

    texts = ["Harlan Beckwith was a painter.", "The Whitlow Museum of Art mounted a retrospective of his work."]
    on = group_sentences(texts, "Harlan Beckwith", list_items=[False, True], rules_off=frozenset())
    off = group_sentences(
        texts, "Harlan Beckwith", list_items=[False, True], rules_off=frozenset({ORGANISATION_SUBJECT})
    )
    assert [g.name for g in on] == ["Harlan Beckwith"]
    assert [g.name for g in off] == ["Harlan Beckwith", "Whitlow Museum of Art"]
    texts = ["Harlan Beckwith was a painter.", "Marsh Light (1958), two dozen canvases, made his name."]
    off = group_sentences(texts, "Harlan Beckwith", list_items=[False, True], rules_off=frozenset({WORK_YEAR_NAME}))
    assert len(group_sentences(texts, "Harlan Beckwith", list_items=[False, True], rules_off=frozenset())) == 1
    assert len(off) == 2
