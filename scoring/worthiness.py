"""Check-worthiness (Factcheck-Bench step 3): factual claim, opinion, not a claim, or other.

Only factual claims are verified. Statements about the answer itself or its sources ("the search
results mention two people named ...") are *other*; greetings, questions, offers and "may refer
to:" headers are *not a claim*; first-person beliefs and pure praise are *opinions*.

>>> classify("Dick Hanley died in 1970."), classify("I hope this helps!"), classify("I think he was great.")
(<Worthiness.FACTUAL: 'factual'>, <Worthiness.NOT_A_CLAIM: 'not_a_claim'>, <Worthiness.OPINION: 'opinion'>)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache

from schemas.enums import Worthiness
from scoring.hedges import hedged_statement
from scoring.rules import Rule, register, run
from vocabulary.document import (
    DOCUMENT_PARTS,
    LAYOUT_PREDICATES,
    OUTPUT_VERBS,
    READER_DIRECTIONS,
    READER_TOOLS,
    TOOL_VERBS,
    VISITOR_ADVICE_VERBS,
    VISITOR_BEST_VERBS,
    VISITOR_WORTH,
)
from vocabulary.english import AGE_COMPARATIVES, CONTRAST_ADJECTIVES

QUESTION = "question"
CHATTER = "assistant-chatter"
ASSISTANT_ASIDE = "assistant-aside"
ABOUT_SOURCES = "about-the-sources"
EXISTENCE = "existence-announcement"
OPINION_WORDS = "opinion-words"
ASSISTANT_TALK = "assistant-talk"
TALK_RESIDUE = "talk-residue"
TALK_CLAUSE = "talk-clause"
RETRACTED = "retracted"
ABOUT_THE_USER = "about-the-user"
NAMESAKE_COMPARISON = "namesake-comparison"
SOURCE_LABEL = "source-label"
READER_DIRECTION = "reader-directions"
ABOUT_THE_DOCUMENT = "about-the-document"

_NOT_A_CLAIM = re.compile(
    r"\b(?:i hope|hope this helps|let me know|feel free|here is|here's|here are|as an ai|language model|"
    r"may refer to|can refer to|could refer to|i'm sorry|i am sorry|i apologi[sz]e|"
    r"for more information|if you have any|is there anything)\b",
    re.IGNORECASE,
)
_OTHER = re.compile(
    r"\b(?:search results?|provided (?:passages?|documents?|information|sources?|texts?|context)|"
    r"(?:the|these) (?:passages?|documents?|sources?)|no (?:specific |further |more |additional )?information|"
    r"(?:limited|little|scarce|scant|sparse) (?:information|details|records|data)|there(?:'s| is| are) more than one|"
    r"no (?:reliable|trustworthy|verified|dependable|accurate|confirmed) (?:information|details|facts)|"
    r"(?:a|the) (?:common )?name (?:shared|borne|held|used) by|"
    r"\bthe name\b[^.]{0,60}\b(?:is|was) (?:shared|borne|held|used) by|the name\b[^.]{0,60}\b(?:refers|belongs) to|"
    r"information\b[^.]{0,60}\b(?:is|are|was|were|remains?) (?:scarce|limited|sparse|unavailable|lacking)|"
    r"(?:not|isn't|is not) (?:mentioned|specified|provided|clear|available)|it is unclear|i could(?:n't| not) find|"
    r"i (?:do not|don't) have|(?:multiple|several|two|three|many|various) "
    r"(?:(?:notable|famous|well-known|prominent|different|other|distinct|real) )?"
    r"(?:people|persons|individuals|men|women)"
    r"(?: named| with the name| called)?|there (?:are|were) (?:multiple|several|two|three|many)|"
    # namesakes counted by nationality ("Two Americans named …") and the name itself ("The name is X")
    r"^(?:multiple|several|two|three|four) (?-i:[A-Z][a-z]+(?:ans|ians|ese|ish|ds|es))\b|^the name (?:is|was)\b)\b",
    re.IGNORECASE,
)
_OPINION = re.compile(
    r"\b(?:i think|i believe|i feel|in my (?:opinion|view)|personally|arguably|undoubtedly|truly|"
    r"(?:is|was|remains) (?:an? )?(?:inspiration|legend|icon)|continues? to inspire|will be remembered|"
    r"(?:lasting|enduring|remarkable|impressive|fascinating|incredible|amazing) (?:legacy|impact|career|life|person)|"
    r"left an indelible|"
    # Evaluations: how people see the subject, not what the subject did.
    r"(?:widely|generally|often|universally|highly) (?:regarded|considered|admired|praised|celebrated|acclaimed|"
    r"respected|loved|beloved)|(?:admired|praised|beloved|loved|adored|celebrated) (?:for|by) |"
    r"many (?:people |fans |critics )?(?:consider|regard|see|view|call)|"
    r"one of the (?:greatest|best|finest|most (?:likeable|likable|beloved|admired|popular|talented|influential|"
    r"respected|charismatic|iconic|gifted|brilliant)))\b",
    re.IGNORECASE,
)
# The assistant on its own reliability: a sentence of this kind says nothing about the subject.
_ASIDE = re.compile(
    r"\b(?:i (?:may|might|could) (?:be (?:misremembering|mistaken|wrong|confusing)|have (?:this|that|some|the) "
    r"(?:wrong|mixed up|details wrong))|(?:please |you (?:may|might) want to |i (?:recommend|suggest) )"
    r"(?:double-check|verify|confirm|check)|don't quote me|my (?:information|knowledge|memory|training data) "
    r"(?:may|might|could) (?:be|not be) (?:outdated|out of date|incomplete|wrong|accurate)|"
    r"as of my (?:knowledge|training) cut-?off|"
    r"(?:take|treat) (?:this|these details|it) with (?:a grain of salt|caution))\b",
    re.IGNORECASE,
)
# The subject a fact starts with: the assistant (first person), no subject left at all ("'ll put together a
# summary"), the user being advised ("you could try", not "you'll need an account": that is a fact about a
# product), or an indefinite "anything" in a hypothetical ("anything I wrote would be a guess").
_TALK = re.compile(
    r"^(?:(?:i|i'd|i'll|i'm|i've|me|my)\b|'(?:ll|d|m|ve|re)\b|"
    r"you(?:'d| could| might| may| should| would)\b|"
    r"(?:anything|something|everything) (?:i\b|would\b|could\b|might\b))",
    re.IGNORECASE,
)
# The user's own plans, doings and what they said, or the conversation's past: "You're heading to the Itata Valley",
# "You mentioned …", "Your daughter loves them", "We drafted last week", "Since you asked, …". Not a general "you"
# of advice or of what anyone can do ("You can visit the bodega on weekdays": a claim about the bodega).
_ABOUT_USER = re.compile(
    r"^(?:since |as |because |if |when )?"
    r"(?:you(?:'re|’re| are| were|'ve|’ve| have| had)\b(?! (?:to|got to) )|you (?:\w+ed|said|told|asked|wrote|"
    r"sent|went|got|saw|read|heard|met|made|took|gave|came|left|brought|thought|felt|found)\b|"
    r"your (?:trip|itinerary|plans?|visit|question|class|kids?|daughter|son|children|family|partner|"
    r"students?|teacher|group|club)\b|"
    r"we(?:'ve|’ve| have| had)? (?:\w+ed|said|talked|spoke|went|made|wrote|put|discussed)\b)",
    re.IGNORECASE,
)
_EXISTENCE = re.compile(r"^there (?:is|was|are|were)\b(?: also)?(?: an?| another| one| some)?\b", re.IGNORECASE)


def classify(fact: str, sentence: str = "") -> Worthiness:
    """Classify a fact (using its sentence for context: a "may refer to" header, a question)."""
    return classify_by_rule(fact, sentence)[0]


def classify_by_rule(
    fact: str,
    sentence: str = "",
    rules_off: frozenset[str] | None = None,
    bare: str | None = None,
    subjectless: bool = False,
    talk_beside: bool = False,
) -> tuple[Worthiness, str | None]:
    """The class of a fact and the rule that decided it (``None``: factual, no rule fired); ``bare``: the fact
    before its subject was named (what it says of its own); ``subjectless``: it has no subject (an imperative,
    a fragment); ``talk_beside``: another fact of its sentence is talk (not a claim, or an opinion)."""
    if rules_off is None:
        rules_off = frozenset()
    text = fact.strip()
    if not text:
        return Worthiness.NOT_A_CLAIM, "empty"
    return _classified(Statement(text, sentence, bare, subjectless, talk_beside), rules_off)


@lru_cache(maxsize=8192)
def _classified(statement: Statement, rules_off: frozenset[str]) -> tuple[Worthiness, str | None]:
    """:func:`classify_by_rule` of one statement, once: the rules read the statement alone, and a revision's
    re-check classifies again every fact the revision kept."""
    decided = run(WORTHINESS_RULES, statement, rules_off)
    return (decided.worthiness, decided.decided_by) if decided is not None else (Worthiness.FACTUAL, None)


@dataclass(frozen=True)
class Statement:
    """A fact as the worthiness rules read it: its text, its sentence, what it says of its own (``bare``)."""

    text: str
    sentence: str = ""
    bare: str | None = None
    subjectless: bool = False
    # Another fact of the same sentence is talk: "It's striking how many threads …" beside "Stepping back for a
    # second" (read as "It steps back for a second").
    talk_beside: bool = False


@dataclass(frozen=True)
class Classified:
    """A worthiness rule's decision."""

    worthiness: Worthiness
    decided_by: str = ""

    def stamped(self, name: str) -> Classified:
        return replace(self, decided_by=name)


def _when(test: Callable[[Statement], bool], worthiness: Worthiness) -> Callable[[Statement], Classified | None]:
    return lambda st: Classified(worthiness) if test(st) else None


def _question(st: Statement) -> bool:
    if st.text.endswith("?"):
        return not hedged_statement(st.text)
    # A hedged statement with a rising mark ("I think it had around 250 sheets?") is a claim, hedged.
    return st.sentence.strip().endswith("?") and not hedged_statement(st.sentence)


def _chatter(st: Statement) -> bool:
    return bool(
        _NOT_A_CLAIM.search(st.text) or (st.sentence and _NOT_A_CLAIM.search(st.sentence) and "refer to" in st.sentence)
    )


def _aside(st: Statement) -> bool:
    return _is_aside(st.text) or bool(st.sentence and _is_aside(st.sentence))


def _existence(st: Statement) -> bool:
    # "There is also a John Hemming." announces a person; what follows is checked, not this. So does a count of
    # people by the name, however long ("There are at least two notable Americans named Harlan Beckwith.").
    return bool(_EXISTENCE.match(st.text)) and (len(st.text.split()) <= 8 or bool(_NAMESAKES_COUNTED.match(st.text)))


# "There are at least two notable Americans named Harlan Beckwith", "There were three people called Ada Brook": a
# count of people by a name (capitalised after "named"/"called"; "named after him" is a claim about things).
_NAMESAKES_COUNTED = re.compile(
    r"^there (?:are|were) (?:at least |exactly |only )?(?:two|three|four|five|several|multiple|a few)\b"
    r"[^.;:]{0,60}?\b(?:named|called)\s+(?-i:[A-Z])",
    re.IGNORECASE,
)


def _words(words: frozenset[str]) -> str:
    return "|".join(sorted(words, key=len, reverse=True))


# A fact whose predicate only says how its subject (a few words: a name, a pronoun, "The ceramic artist by
# contrast") compares with someone the fact does not name: an age with no second term ("is more than twenty years
# younger", "is the younger man"), or what people share or do not ("was same name", "was entirely different
# fields"). A discourse word may open it ("By contrast", "In short").
_COMPARED = re.compile(
    r"^\W*(?:(?:in short|in sum|in brief|by contrast|in contrast|so|meanwhile|and)\W+)?"
    r"(?:[\w'’-]+,?\s+){0,5}?(?:is|was|are|were)\s+(?:"
    rf"(?:(?:much|far|a bit|slightly|considerably)\s+)?"
    rf"(?:(?:more|less)\s+than\s+|at least\s+|almost\s+|nearly\s+|about\s+|some\s+|roughly\s+|around\s+)?"
    rf"(?:(?:[\w-]+|a)\s+(?:years?|decades?|generations?)\s+)?(?:{_words(AGE_COMPARATIVES)})"
    rf"|the\s+(?:{_words(AGE_COMPARATIVES)})(?:\s+(?:man|woman|one|person|of the two))?"
    rf"|(?:(?:entirely|completely|totally|quite|very|wholly)\s+)?(?:the\s+)?(?:{_words(CONTRAST_ADJECTIVES)})"
    r"\s+[a-z]+"
    r")\W*$",
    re.IGNORECASE,
)


# "Only one of them writes about food": which namesake does it is said elsewhere, or not at all.
_ONLY_ONE = re.compile(r"^\W*(?:only|just)\s+one\s+of\s+(?:them|the two|these two|the pair)\b", re.IGNORECASE)


def _compared(st: Statement) -> bool:
    return bool(_COMPARED.match(st.text) or _ONLY_ONE.match(st.text))


# A label a retrieval answer gives its sources, as the subject of what it says they say: "Passage 1 is a Welsh
# software engineer", "[Source 2] describes an organist", "Document 3 says …".
_SOURCE_LABEL = re.compile(
    r"^\W*(?:passage|source|document|snippet|excerpt|doc|chunk)\s*#?\d+\b\W*"
    r"(?:is|was|are|were|says?|said|describes?|mentions?|calls?|reads?|notes?|gives?|has)\b",
    re.IGNORECASE,
)


def _about_user(st: Statement) -> bool:
    # A quoted question put to the person ("“You've been teaching at Liffey University since 2020 — what …?”", an
    # interview opener) is about them, not the user.
    return bool(_ABOUT_USER.match(st.text)) and not st.sentence.lstrip().startswith(('"', "“", "'", "‘"))


def _talk_residue(st: Statement) -> bool:
    if _CHECKABLE.search((st.bare or st.text)[1:]):
        return False
    # A short line ending with a colon introduces a list ("What you can do instead:", "Key facts:").
    lead_in = st.sentence.rstrip().endswith(":") and len(st.sentence.split()) <= 6
    return (
        st.subjectless
        or lead_in
        or bool(_CONVERSATION.search(st.text))
        or bool(st.sentence and _CONVERSATION.search(st.sentence))
    )


def _talk_clause(st: Statement) -> bool:
    # The answer's person is named (the name was taken off ``bare``) or referred to: a claim about them, whatever
    # the talk around it ("It's worth noting that he retired early").
    if not st.talk_beside or (st.bare is not None and st.bare != st.text) or _PERSON_PRONOUN.search(st.text):
        return False
    return not _CHECKABLE.search(st.text[1:]) and not _CARDINAL.search(st.text)


# A count in words is a value of the fact's own ("It carries a two-year warranty"); an ordinal is as often a phrase of
# talk ("for the first time", "for a second").
_CARDINAL = re.compile(
    r"\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|[a-z]+teen|twenty|thirty|forty|fifty|sixty|"
    r"seventy|eighty|ninety|hundred|thousand|million|billion|dozen)\b",
    re.IGNORECASE,
)
_PERSON_PRONOUN = re.compile(r"\b(?:he|him|his|she|her|hers|they|them|their)\b", re.IGNORECASE)
# A sentence taken back where it ends: a dash or comma, a word of hesitation, then "that's wrong", or "scratch that".
_RETRACTED = re.compile(
    r"(?:\s[—–-]|,)\s*(?:(?:hold on|wait|hang on|oops|sorry|no)[,.!]?\s+)*"
    r"(?:that(?:'s|’s| is| was) (?:wrong|not right|incorrect|not correct|a mistake)|scratch that|i misspoke)"
    r"[.!]?\s*$",
    re.IGNORECASE,
)
# A sentence of the conversation: a hypothetical or advice, or the assistant or the reader speaking.
_CONVERSATION = re.compile(r"\b(?:would|might|should|i|i'm|i'll|i'd|i've|me|my|you'd)\b|'d\b", re.IGNORECASE)
# A value or a name: a digit, a capitalised word that does not start a sentence, a quoted title.
_CHECKABLE = re.compile(r"\d|(?<![.!?]\s)\b[A-Z][a-zà-ÿ]|\b[A-Z]{2,}\b|[\"“]")


def _alternatives(words: tuple[str, ...] | list[str]) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True))


# A direction to the reader, opening the fact ("Paste it into any renderer", "Continue to 4.4 The Misericords", "You
# can open it in Word"), or a visitor's advice ("Binoculars may be borrowed from the bookstall", "… are best seen in
# the late morning", "… are worth the extra ten minutes").
_DIRECTION = re.compile(
    rf"^\W*(?:(?:please|just|simply|then|now|next|you can|you may|you could)\s+)?"
    # A capitalised word after the verb is a name it starts ("Open Studio was founded …"), not a direction.
    rf"(?:{_alternatives(READER_DIRECTIONS)})\b(?!\s+(?-i:[A-Z]))",
    re.IGNORECASE,
)
_VISITOR_ADVICE = re.compile(
    rf"\b(?:may|can|could)\s+(?:also\s+)?be\s+(?:{_alternatives(VISITOR_ADVICE_VERBS)})\s+(?:from|at|in)\b|"
    rf"\b(?:is|are)\s+best\s+(?:{_alternatives(VISITOR_BEST_VERBS)})\b|"
    rf"\b(?:is|are)\s+(?:well\s+)?worth\s+(?:the|a|an)\s+(?:[\w-]+\s+){{0,2}}?(?:{_alternatives(VISITOR_WORTH)})\b",
    re.IGNORECASE,
)
# A statement about the document itself: the research behind it ("Research completed · 14 sources consulted"), what
# its code will make ("It will draw one bar per phase"), the layout of its parts ("The NOTE is folded at 75
# characters", "An English line follows each gloss line", "Only the years are meaningful").
_RESEARCH_STATUS = re.compile(
    r"^\W*research\s+(?:completed|complete|done|finished)\b|\b\d+\s+sources?\s+(?:consulted|searched|reviewed)\b",
    re.IGNORECASE,
)
_OUTPUT = re.compile(
    r"^\W*(?:it|this|the\s+(?:chart|diagram|code|script|snippet|template|markup|macro|file))\s+(?:will|would|should)\s+"
    rf"(?:{_alternatives(OUTPUT_VERBS)})\b",
    re.IGNORECASE,
)
_LAYOUT = re.compile(
    rf"^\W*(?:only\s+)?(?:(?:the|each|every|an?|its)\s+)?(?:[\w'’-]+\s+){{0,2}}?(?:{_alternatives(DOCUMENT_PARTS)})"
    rf"(?:['’]s\s+[\w-]+)?\s+(?:(?:is|are)\s+(?:(?:only|just|purely|deliberately|always)\s+)?"
    rf"(?:{_alternatives(LAYOUT_PREDICATES)})\b|follows?\s+(?:each|every)\b)",
    re.IGNORECASE,
)
_TOOLING = re.compile(
    rf"^\W*(?:any|your|most|every)\s+(?:[\w-]+\s+)?(?:{_alternatives(READER_TOOLS)})s?\s+(?:(?:will|should|can)\s+)?"
    rf"(?:{_alternatives(TOOL_VERBS)})s?\b",
    re.IGNORECASE,
)
# A year in the fact: a value the person's life may hold ("Continue to 1901, when she won the Gold Medal").
_YEAR = re.compile(r"\b(?:1[0-9]|20)\d\d\b")


def _names_nobody(st: Statement) -> bool:
    """The fact and its sentence are about no person: no he/she/they, no year, the subject's name not put in."""
    if st.bare is not None and st.bare != st.text:
        return False
    return not (_PERSON_PRONOUN.search(st.text) or _PERSON_PRONOUN.search(st.sentence) or _YEAR.search(st.text))


def _reader_direction(st: Statement) -> bool:
    return bool(_DIRECTION.match(st.text) or _VISITOR_ADVICE.search(st.text)) and _names_nobody(st)


def _about_document(st: Statement) -> bool:
    text = st.text
    return bool(
        _RESEARCH_STATUS.search(text) or _OUTPUT.match(text) or _LAYOUT.match(text) or _TOOLING.match(text)
    ) and _names_nobody(st)


def _is_aside(text: str) -> bool:
    """An aside and nothing else: "He was born in 1936, but I might be wrong" is still a (hedged) claim."""
    if not _ASIDE.search(text):
        return False
    rest = _ASIDE.sub(" ", text)
    return not re.search(r"\b(?:was|is|were|are|born|died|won|played|served|wrote|founded|\d{3,4})\b", rest, re.I)


# The worthiness rules in their precedence: the first that decides classifies the fact; when none does, it is
# factual.
WORTHINESS_RULES: tuple[Rule[Statement, Classified], ...] = register(
    Rule(
        QUESTION,
        "worthiness",
        "a fact from a question is not a claim (a statement its writer hedges with a rising mark, 'I think it had "
        "around 250 sheets?', is one)",
        ("Was he born in Ohio?", "Did you mean the swimmer or the coach?", "Was he also a swimmer?"),
        _when(_question, Worthiness.NOT_A_CLAIM),
    ),
    Rule(
        CHATTER,
        "worthiness",
        "assistant phrases (I hope this helps, as an AI, may refer to) are not claims",
        ("I hope this helps!", "Let me know if you need anything else.", "Dick Hanley may refer to:"),
        _when(_chatter, Worthiness.NOT_A_CLAIM),
    ),
    Rule(
        ASSISTANT_ASIDE,
        "worthiness",
        "the assistant speaking of its own memory or sources (I may be misremembering, please double-check) is no "
        "claim",
        ("I may be misremembering the exact year.", "Please double-check these details.", "Don't quote me on this."),
        _when(_aside, Worthiness.NOT_A_CLAIM),
    ),
    Rule(
        ABOUT_SOURCES,
        "worthiness",
        "statements about the sources or the lack of information are 'other'",
        ("The search results mention two people.", "There is limited information about him.", "I could not find more."),
        _when(lambda st: bool(_OTHER.search(st.text)), Worthiness.OTHER),
    ),
    Rule(
        EXISTENCE,
        "worthiness",
        "a short 'There is also an X.', or a count of people by a name ('There are at least two notable Americans "
        "named X'), announces a person: 'other'",
        (
            "There is also a John Hemming.",
            "There was another Dick Hanley.",
            "There is one more Kenji Sato.",
            "There are at least two notable Americans named Harlan Beckwith.",
        ),
        _when(_existence, Worthiness.OTHER),
    ),
    Rule(
        SOURCE_LABEL,
        "worthiness",
        "a statement whose subject is the label of a retrieved source ('Passage 1 is a Welsh software engineer', "
        "'[Source 2] describes an organist', 'Document 3 says he was born in 1921') reports what the source says: "
        "'other', as the answer's statements on its sources are; a name or a thing numbered so ('Route 66 is a "
        "highway', 'Apollo 11 landed in 1969', 'Passage 1 of the report') is left alone",
        (
            "Passage 1 is a Welsh software engineer.",
            "[Source 2] describes an organist.",
            "Document 3 says he was born in 1921.",
        ),
        _when(lambda st: bool(_SOURCE_LABEL.match(st.text) or _SOURCE_LABEL.match(st.sentence)), Worthiness.OTHER),
    ),
    Rule(
        READER_DIRECTION,
        "worthiness",
        "a direction to the reader on using the document or the place it describes ('Paste it into any renderer', "
        "'Continue to 4.4 The Misericords', 'You can open it in Word') or a visitor's advice ('Binoculars may be "
        "borrowed from the bookstall', 'The figures are best seen in the late morning', 'The misericords are worth "
        "the extra ten minutes') is no claim; a fact with he/she/they in it or its sentence, a year, or the "
        "subject's name put in stays a claim ('Continue to 1901, when she won the Gold Medal', 'Her book was "
        "borrowed by 3,000 readers')",
        (
            "Paste it into any PlantUML renderer.",
            "Continue to 4.4 The Misericords.",
            "Binoculars may be borrowed from the bookstall.",
        ),
        _when(_reader_direction, Worthiness.NOT_A_CLAIM),
    ),
    Rule(
        ABOUT_THE_DOCUMENT,
        "worthiness",
        "a statement about the document itself — the research behind it ('Research completed · 14 sources "
        "consulted'), what its code will make ('It will draw one bar per phase'), the layout of its parts ('The "
        "NOTE is folded at 75 characters', 'An English line follows each gloss line', 'Only the years are "
        "meaningful'), what the reader's tools do with it ('Any Markdown editor renders Mermaid') — is 'other', as "
        "statements on the sources are; one with he/she/they, a year or the "
        "subject's name stays a claim",
        (
            "Research completed 14 sources consulted · 6 min.",
            "It will draw one bar per phase.",
            "The NOTE is folded at 75 characters.",
        ),
        _when(_about_document, Worthiness.OTHER),
    ),
    Rule(
        NAMESAKE_COMPARISON,
        "worthiness",
        "a fact that only compares its person with someone it does not name ('X is more than twenty years "
        "younger', 'X is the younger man', 'In short, X was same name, different generations', 'Only one of them "
        "writes about food') sets two namesakes side by side: no one page can hold it, and each one's dates are "
        "checked where they are given: 'other'. A "
        "comparison with its second term ('younger than his brother'), a relation ('the younger brother of …') or "
        "a value of its own ('was in different bands') stays a claim",
        (
            "Ada Brook is more than twenty years younger.",
            "Ada Brook is the younger man.",
            "In short Ada Brook was entirely different fields.",
        ),
        _when(_compared, Worthiness.OTHER),
    ),
    Rule(
        OPINION_WORDS,
        "worthiness",
        "first-person beliefs, praise and evaluations are opinions",
        ("I think he was the best coach.", "He is widely regarded as a legend.", "She left an indelible mark."),
        _when(lambda st: bool(_OPINION.search(st.text)), Worthiness.OPINION),
    ),
    Rule(
        ASSISTANT_TALK,
        "worthiness",
        "a fact whose subject is the assistant, the user being advised or a hypothetical 'anything' (I'd suggest, "
        "you could try, anything I wrote would be) is about the conversation, not the world",
        ("I'd suggest checking a library.", "You could try the archive.", "Anything I wrote would be a guess."),
        _when(lambda st: bool(_TALK.match(st.text)), Worthiness.NOT_A_CLAIM),
    ),
    Rule(
        ABOUT_THE_USER,
        "worthiness",
        "a fact about the user or the conversation, not the world: the user's plans, doings and words ('You're "
        "heading to the Itata Valley', 'You mentioned your trip', 'Your daughter loves them') or what user and "
        "assistant did before ('We drafted an itinerary last week'); a 'you' of advice or of what anyone can do "
        "('You can visit the bodega on weekdays') stays a claim",
        (
            "You're heading to the Itata Valley.",
            "You mentioned a trip to Chile.",
            "Your daughter loves them.",
            "We drafted the itinerary last week.",
        ),
        _when(_about_user, Worthiness.NOT_A_CLAIM),
    ),
    Rule(
        TALK_RESIDUE,
        "worthiness",
        "a fact with no value or name of its own that has no subject ('Check an encyclopedia entry'), introduces a "
        "list ('What you can do instead:') or comes from "
        "a sentence of the conversation — a would/might/should hypothetical or the assistant (I, me, my) "
        "speaking — is not a claim ('a library database would be a better source', 'this is a "
        "question I'll have to sit out')",
        ("Check an encyclopedia entry", "What you can do instead:", "a library database would be a better source"),
        _when(_talk_residue, Worthiness.NOT_A_CLAIM),
    ),
    Rule(
        TALK_CLAUSE,
        "worthiness",
        "a fact with no value or name of its own and not about the answer's person, made from a sentence another "
        "clause of which is talk (an evaluation, a summary, the assistant or the reader speaking), is part of that "
        "talk: 'Stepping back for a second, it's striking how many threads …' ('It steps back for a second'), "
        "'People who look into this for the first time often find …' ('People look for the first time')",
        ("It steps back for a second.", "People look for the first time.", "The rest fills in the picture."),
        _when(_talk_clause, Worthiness.NOT_A_CLAIM),
    ),
    Rule(
        RETRACTED,
        "worthiness",
        "a sentence the answer takes back at its end ('X is a surgeon who also sailed solo in 2011 — hold on, that's "
        "wrong.', '…, scratch that.') claims nothing: the facts made of it are not claims (what replaces it is "
        "checked where it is said)",
        (
            "He is an Irish surgeon who also sailed solo in 2011 — hold on, that's wrong.",
            "She was born in Oslo in 1950 — wait, that's not right.",
            "He won the Lindeman Prize in 1962, scratch that.",
        ),
        _when(lambda st: bool(st.sentence and _RETRACTED.search(st.sentence)), Worthiness.NOT_A_CLAIM),
    ),
)
