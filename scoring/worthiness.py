"""Check-worthiness (Factcheck-Bench step 3): factual claim, opinion, not a claim, or other.

Only factual claims are verified. Statements about the answer itself or its sources ("the search
results mention two people named ...") are *other*; greetings, questions, offers and "may refer
to:" headers are *not a claim*; first-person beliefs and pure praise are *opinions*.

>>> classify("Dick Hanley died in 1970."), classify("I hope this helps!"), classify("I think he was great.")
(<Worthiness.FACTUAL: 'factual'>, <Worthiness.NOT_A_CLAIM: 'not_a_claim'>, <Worthiness.OPINION: 'opinion'>)
"""

from __future__ import annotations

import re

from schemas.enums import Worthiness
from scoring.rules import env_rules_off, rule

QUESTION = rule("question", "worthiness", "a fact from a question is not a claim")
CHATTER = rule(
    "assistant-chatter", "worthiness", "assistant phrases (I hope this helps, as an AI, may refer to) are not claims"
)
ASSISTANT_ASIDE = rule(
    "assistant-aside",
    "worthiness",
    "the assistant speaking of its own memory or sources (I may be misremembering, please double-check) is no claim",
)
ABOUT_SOURCES = rule(
    "about-the-sources", "worthiness", "statements about the sources or the lack of information are 'other'"
)
EXISTENCE = rule("existence-announcement", "worthiness", "a short 'There is also an X.' announces a person: 'other'")
OPINION_WORDS = rule("opinion-words", "worthiness", "first-person beliefs, praise and evaluations are opinions")
ASSISTANT_TALK = rule(
    "assistant-talk",
    "worthiness",
    "a fact whose subject is the assistant, the user being advised or a hypothetical 'anything' (I'd suggest, "
    "you could try, anything I wrote would be) is about the conversation, not the world",
)

TALK_RESIDUE = rule(
    "talk-residue",
    "worthiness",
    "a fact with no value or name of its own that has no subject ('Check an encyclopedia entry'), introduces a "
    "list ('What you can do instead:') or comes from "
    "a sentence of the conversation — a would/might/should hypothetical or the assistant (I, me, my) "
    "speaking — is not a claim ('a library database would be a better source', 'this is a "
    "question I'll have to sit out')",
)

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
) -> tuple[Worthiness, str | None]:
    """The class of a fact and the rule that decided it (``None``: factual, no rule fired); ``bare``: the fact
    before its subject was named (what it says of its own); ``subjectless``: it has no subject (an imperative,
    a fragment)."""
    if rules_off is None:
        rules_off = env_rules_off()
    text = fact.strip()
    if not text:
        return Worthiness.NOT_A_CLAIM, "empty"
    if QUESTION not in rules_off and (text.endswith("?") or sentence.strip().endswith("?")):
        return Worthiness.NOT_A_CLAIM, QUESTION
    if CHATTER not in rules_off and (
        _NOT_A_CLAIM.search(text) or (sentence and _NOT_A_CLAIM.search(sentence) and "refer to" in sentence)
    ):
        return Worthiness.NOT_A_CLAIM, CHATTER
    if ASSISTANT_ASIDE not in rules_off and (_is_aside(text) or bool(sentence and _is_aside(sentence))):
        return Worthiness.NOT_A_CLAIM, ASSISTANT_ASIDE
    if ABOUT_SOURCES not in rules_off and _OTHER.search(text):
        return Worthiness.OTHER, ABOUT_SOURCES
    if EXISTENCE not in rules_off and _EXISTENCE.match(text) and len(text.split()) <= 8:
        # "There is also a John Hemming." announces a person; what follows is checked, not this.
        return Worthiness.OTHER, EXISTENCE
    if OPINION_WORDS not in rules_off and _OPINION.search(text):
        return Worthiness.OPINION, OPINION_WORDS
    if ASSISTANT_TALK not in rules_off and _TALK.match(text):
        return Worthiness.NOT_A_CLAIM, ASSISTANT_TALK
    if TALK_RESIDUE not in rules_off and not _CHECKABLE.search((bare or text)[1:]):
        # A short line ending with a colon introduces a list ("What you can do instead:", "Key facts:").
        lead_in = sentence.rstrip().endswith(":") and len(sentence.split()) <= 6
        if subjectless or lead_in or _CONVERSATION.search(text) or (sentence and _CONVERSATION.search(sentence)):
            return Worthiness.NOT_A_CLAIM, TALK_RESIDUE
    return Worthiness.FACTUAL, None


# A sentence of the conversation: a hypothetical or advice, or the assistant or the reader speaking.
_CONVERSATION = re.compile(r"\b(?:would|might|should|i|i'm|i'll|i'd|i've|me|my|you'd)\b|'d\b", re.IGNORECASE)
# A value or a name: a digit, a capitalised word that does not start a sentence, a quoted title.
_CHECKABLE = re.compile(r"\d|(?<![.!?]\s)\b[A-Z][a-zà-ÿ]|\b[A-Z]{2,}\b|[\"“]")


def _is_aside(text: str) -> bool:
    """An aside and nothing else: "He was born in 1936, but I might be wrong" is still a (hedged) claim."""
    if not _ASIDE.search(text):
        return False
    rest = _ASIDE.sub(" ", text)
    return not re.search(r"\b(?:was|is|were|are|born|died|won|played|served|wrote|founded|\d{3,4})\b", rest, re.I)
