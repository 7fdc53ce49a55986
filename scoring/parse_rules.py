"""Which of the decomposer's parse rules are on for the sentence being decomposed.

The rules of the decompose step that read the parse (``scoring.decompose``, ``scoring.coordination``) are asked by
name here; :func:`scoring.decompose.decompose_doc` sets them from the caller's ``rules_off`` for the sentence it
decomposes (their facts are kept with the parse, one set per combination of rules switched off).
"""

from __future__ import annotations

from collections.abc import Set
from contextvars import ContextVar, Token

from scoring.rules import rule

DESTINATION_FIRST = rule(
    "destination-first",
    "decompose",
    "a verb with no object and one modifier that says where it went ('came to London with her family in 1914', "
    "'came into the world in İzmir in 1972', 'moved to Oslo in 2001') is read with that modifier beside each of its "
    "others ('came to London in 1914', 'came into the world in 1972'), not as 'came in 1914'",
)
PREDICATE_NAME_DESCRIPTION = rule(
    "predicate-name-description",
    "decompose",
    "a description set after a name that a copula gives as its subject's ('The winemaker is Ana Berg, a Chilean "
    "born in Talca in 1967') is said of that name ('Ana Berg is a Chilean', 'Ana Berg was born in Talca', '… in "
    "1967'); before, it was read as an aside and made no fact",
)
LISTED_OCCASIONS = rule(
    "listed-occasions",
    "decompose",
    "a count of occasions before the dates it lists ('named him Winemaker of the Year twice, in 2012 and 2019', 'won "
    "it three times, in 2001, 2004 and 2009') stays with the fact without a date; each listed date makes a fact "
    "without the count ('named him Winemaker of the Year in 2019'), which does not say it happened twice in 2019",
)
PARENTHESISED_PARTICIPLE = rule(
    "parenthesised-participle",
    "decompose",
    "a participle in parentheses after its clause ('studied agronomy at Maule (graduating in 1990)', '(retiring in "
    "2016)') is a fact of the clause's subject with its own words ('He graduated in 1990'); before, its words were "
    "cut as an aside and only 'He graduated.' was left",
)
NAMED_RELATIVE_ITEM = rule(
    "named-relative-item",
    "decompose",
    "a relative named in apposition in a list ('lives with his wife, the sommelier Claudia Fuentes, and their three "
    "daughters') is one item, the named one ('lives with the sommelier Claudia Fuentes'): 'lives with his wife' was a "
    "second item no page sentence says in those words",
)
JOINT_SUBJECT_RELATIVE = rule(
    "joint-subject-relative",
    "decompose",
    "a relative in a joint subject named between commas ('She and her husband, the architect Joost Vermaat, have two "
    "sons') is said to be that person ('Her husband is the architect Joost Vermaat'), as a subject's own relative "
    "already was; before, the name made no fact",
)
PLACE_HELD_YEARS = rule(
    "place-held-years",
    "decompose",
    "a year range in parentheses after a name that 'in' or 'at' governs, or 'of' after an office ('studied at the "
    "Rhône Faculty in Lyon (1975–1982)', 'Mayor of Linden Falls (1999–2007)', 'coached at Greystone (2001–2008)') "
    "dates a tenure there, whatever the recogniser takes the name for; before, a name read as a person's made 'Lyon "
    "was born in 1975' and 'Lyon died in 1982'",
)
BIRTH_NAME_PARENTHESIS = rule(
    "birth-name-parenthesis",
    "decompose",
    "a birth name in parentheses after the name a person is known by ('Billie Trask (born Wilhelmina Trask, "
    "1927–2008)', '(née Ruth Hale, b. 1931)', '(born Robert Lee in 1950)') is a name the person is also known by, "
    "and the dates after it are their birth (and death) dates; before, the name was read as a date ('was born on "
    "Wilhelmina Trask, 1927–2008'), a fact no page states",
)
TRAILING_PARTICIPLE_DATE = rule(
    "trailing-participle-date",
    "decompose",
    "a date set off by a comma right after a participle's place and its region ('born in Dingle, County Kerry, in "
    "1977', 'born in Providence, Rhode Island, in 1966', 'founded in Austin, Texas, in 1998') is the participle's, "
    "wherever the parser hung it; before, it dated the noun or the verb before ('is a harpist in 1977', 'is a crime "
    "writer, in 1966'), a claim no page makes",
)
IMPERATIVE_CONSEQUENCE = rule(
    "imperative-consequence",
    "decompose",
    "a bare verb after 'so' or 'then' coordinated to a clause with a subject ('Orbisync doesn't offer a mobile app, "
    "so use a computer', 'It has no offline mode, so download the maps first') is advice to the reader, with no "
    "subject; before, it took the clause's subject and auxiliary ('Does Orbisync use a computer.') and was checked "
    "as a claim about the thing",
)
RATHER_THAN = rule(
    "rather-than",
    "decompose",
    "a verb coordinated by 'rather than', 'other than' or 'instead of' ('pedalled to work rather than drive', "
    "'walked instead of taking the bus') says what the subject did not do and is no clause of its own; before, it "
    "made 'She drive.', a claim the negation rules refute",
)
ADVERBIAL_SUBJECT = rule(
    "adverbial-subject",
    "decompose",
    "an adverbial clause with a subject of its own ('While her brother studied law in Paris, she trained …', 'After "
    "the war ended, he …', 'Where the astronomer's career was built around an observatory, hers …') is said of "
    "that subject; before, it took the main clause's ('Studied law in Paris she.'), a claim about the wrong one",
)
INTERVAL_CLAUSE = rule(
    "interval-clause",
    "decompose",
    "a span of time before 'before' or 'after' and a clause ('It opened two years before he left', 'She married "
    "him three years after she graduated') dates the verb by that clause's event, one modifier: before, the span "
    "was read alone ('It opened two years.') or with the clause ('Three years she graduated.')",
)
COMPARED_PREDICATE = rule(
    "compared-predicate",
    "decompose",
    "a fact that only says its subject is the same, different or similar ('The core is the same.', 'Their styles "
    "were entirely different.'), with nothing it is compared with, is no claim a page could hold and is not kept; "
    "before, it was checked and unsupported",
)
APPOSITION_AFTER_NAME = rule(
    "apposition-after-name",
    "decompose",
    "a description after a comma that the parser hangs on the clause's subject, a thing, but that follows a "
    "person's name ('The great east window … is the best-known work of Anselm Rookwood (1861–1938), the "
    "stained-glass artist who lived and worked in this town …') is said of that name ('Anselm Rookwood was the "
    "stained-glass artist', 'Anselm Rookwood worked in this town …'); before, of the window ('The great east window "
    "worked in this town for almost fifty years')",
)

PARSE_RULES = (
    DESTINATION_FIRST,
    PREDICATE_NAME_DESCRIPTION,
    LISTED_OCCASIONS,
    PARENTHESISED_PARTICIPLE,
    NAMED_RELATIVE_ITEM,
    JOINT_SUBJECT_RELATIVE,
    PLACE_HELD_YEARS,
    BIRTH_NAME_PARENTHESIS,
    TRAILING_PARTICIPLE_DATE,
    IMPERATIVE_CONSEQUENCE,
    RATHER_THAN,
    ADVERBIAL_SUBJECT,
    INTERVAL_CLAUSE,
    COMPARED_PREDICATE,
    APPOSITION_AFTER_NAME,
)
# The rules switched on for the sentence being decomposed; None: every one (outside decompose_doc).
_ON: ContextVar[dict[str, bool] | None] = ContextVar("decompose_rules_on", default=None)


def on(name: str) -> bool:
    """Whether the parse rule ``name`` is on for the sentence being decomposed."""
    current = _ON.get()
    return True if current is None else current.get(name, True)


def switched_off() -> frozenset[str]:
    """The parse rules switched off for the sentence being decomposed."""
    current = _ON.get()
    return frozenset() if current is None else frozenset(k for k, v in current.items() if not v)


def set_on(rules_off: Set[str]) -> Token[dict[str, bool] | None]:
    """Switch the parse rules for a sentence; pass the token returned to :func:`reset`."""
    return _ON.set({name: name not in rules_off for name in PARSE_RULES})


def reset(token: Token[dict[str, bool] | None]) -> None:
    _ON.reset(token)
