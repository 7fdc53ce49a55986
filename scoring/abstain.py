"""Abstention: answers that decline ("I could not find information about ...") are counted, not scored.

As in FActScore, a model's score is the mean over the answers it did not abstain on, and the share
of answered prompts is reported beside it (the response ratio).

>>> is_abstention("I could not find any information about Dick Hanley.")
True
>>> is_abstention("Dick Hanley was an American football coach. I could not find his birth date.")
False
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from scoring.rules import Rule, register, run
from scoring.sentences import Sentence, split_sentences

DECLINE = "decline"
REFUSAL = "refusal"
CLARIFICATION = "clarification"
PRIVACY = "privacy-refusal"

_DECLINE = re.compile(
    r"\b(?:i (?:could not|couldn't|cannot|can't|was unable to|am unable to|am not able to|was not able to) "
    r"(?:find|locate|provide|identify|determine)|"
    r"i (?:do not|don't) have (?:[a-z-]+ ){0,2}(?:information|details|data|knowledge)|"
    r"(?:no|not (?:enough|any|much)) (?:reliable |specific |available |public |relevant )?"
    r"(?:information|details|records?|results|matches) "
    r"(?:is |was |were )?(?:available |found )?(?:about|on|regarding|for)|"
    r"(?:there is|there's) no (?:information|record|mention|person|one|notable person|widely known)|"
    r"(?:am|is) not (?:familiar|aware)|i'm not (?:familiar|aware|sure who)|"
    r"unable to (?:find|provide|locate)|not able to (?:find|provide)|"
    r"(?:does not|doesn't) (?:appear|seem) to (?:be|exist|have)|cannot provide a (?:bio|biography))",
    re.IGNORECASE,
)
_APOLOGY = re.compile(r"^\s*(?:i'm sorry|i am sorry|sorry|i apologi[sz]e|unfortunately)\b", re.IGNORECASE)
# Declining in so many words, with or without an apology.
_REFUSE = re.compile(
    r"\b(?:i(?: won't| will not|(?:'d| would) rather not| do not want to| don't want to| prefer not to|"
    r" can't| cannot|(?:'m| am) not going to) (?:guess|speculate|make (?:anything|something|things) up|"
    r"invent|fabricate|risk (?:giving|making|spreading)|write (?:a |an )?(?:bio|biography|profile|summary)|"
    r"give (?:you )?(?:a |an )?(?:bio|biography|reliable|accurate))|"
    r"(?:isn't|is not|wasn't|was not|there's not|there is not|there isn't) (?:enough|sufficient|any) "
    r"(?:trustworthy |reliable |verifiable |credible |solid )?(?:material|information|sources?|evidence|record)|"
    r"(?:can't|cannot|could not|couldn't|am unable to|was unable to) (?:reliably |confidently )?"
    r"(?:verify|confirm|say (?:anything|much)|tell you (?:anything|much)|help with (?:that|this))|"
    r"(?:i don't|i do not) (?:know|recognize|recognise) (?:who|of|anyone|any)|"
    # Declining to forecast or advise: "I can't tell you whether a bet will win", "I cannot advise you to stake …".
    r"\bi (?:can't|cannot|can not|won't|will not) (?:tell you (?:whether|if)|advise you|predict|recommend (?:a|any) "
    r"(?:bet|stake|wager))|"
    r"(?:to avoid|rather than) (?:giving|spreading|making up|providing) (?:you )?"
    r"(?:wrong|false|inaccurate|incorrect|made-up)|"
    r"not (?:a )?(?:well-known|widely known|notable|public) (?:figure|person|individual)|"
    r"no (?:widely )?(?:known|notable|public|reliable) (?:figure|person|individual|record|information)|"
    r"i(?:'ll| will|'d| would| must| have to| need to)(?: have to)? "
    r"(?:sit (?:(?:this|that)(?: one)? |it )?out|decline|pass on)|"
    r"(?:better|best|wiser|safer) (?:that |if |for me to )?(?:i )?(?:decline|not answer|say nothing|hold back))\b",
    re.IGNORECASE,
)
# Declining to give out a person's private details: "I can't help with finding someone's home address", "I won't
# share his phone number", "I'm not able to provide personal contact details".
_PRIVATE = (
    r"(?:(?:home|private|personal|residential|current|exact|street|email|e-mail|contact) )*"
    r"(?:address(?:es)?|phone numbers?|telephone numbers?|contact (?:details|information|info)|whereabouts|"
    r"(?:personal|private) (?:information|details|data|life))"
)
_PRIVACY = re.compile(
    r"\b(?:i|we)(?: can't| cannot| won't| will not| am not able to|'m not able to| am unable to|'m unable to|"
    r" do not| don't)(?: help(?: you)?(?: with)?| assist(?: you)?(?: with)?| share| provide| give(?: out)?| disclose|"
    r" look up| find| locate| track down)(?: (?:in|with))?"
    r"(?: (?:finding|locating|looking up|sharing|providing|giving out|tracking down|disclosing))?"
    r"(?: (?:someone's|somebody's|anyone's|a person's|people's|his|her|their|the|this person's|"
    r"(?:[\w-]+ ){0,2}[\w-]+['’]s)){0,2}"
    rf" {_PRIVATE}\b",
    re.IGNORECASE,
)
# Why: "Sharing private personal information like that could put people at risk", "for privacy reasons".
_PRIVACY_REASON = re.compile(
    r"\b(?:privacy|private (?:personal )?information|personal information|private details|personal details)\b",
    re.IGNORECASE,
)
# A reason makes no claim: no digit, no name past its first word.
_CLAIM_LIKE = re.compile(r"\d|(?<!^)(?<![.!?]\s)\b[A-Z][a-z]")

# Asking which person is meant: "Which John Smith do you mean?", "Could you tell me more about who you mean?"
_CLARIFY = re.compile(
    r"\b(?:which (?:one|person|[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*)*) (?:do|did|are|were) you (?:mean|referring|"
    r"asking|thinking|interested)|"
    r"(?:could|can|would) you (?:please )?(?:clarify|specify|tell me (?:more|which|who)|give (?:me )?more|"
    r"provide more|let me know which)|"
    r"(?:do|did) you mean\b|are you (?:asking|referring|thinking) (?:about|of|to)|"
    r"which (?:one|person|[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*)*) (?:you(?:'re| are)?) (?:mean|have in mind|"
    r"asking about|after|interested in|referring to|thinking of)|(?:tell|let) me (?:know )?which (?:one|person)|"
    r"(?:more|additional) (?:context|details) (?:would|will|could) help|"
    r"(?:who|which one|which person) you(?:'re| are)? (?:mean|referring to|asking about|have in mind)\b|"
    r"which (?:one|person|of (?:them|the two|these|those))\s*\?|"
    r"(?:several|many|multiple|a few|two|three|various) (?:people|persons|individuals|notable people) "
    r"(?:(?:are|were) )?(?:named|called|with (?:the|that) name))",
    re.IGNORECASE,
)


def is_abstention(
    text: str, sentences: Sequence[Sentence] | None = None, rules_off: frozenset[str] | None = None
) -> bool:
    """True when the answer declines or only asks which person is meant: nothing in it to check.

    ``sentences`` are ``split_sentences(text)`` when the caller already has them.
    """
    return abstention_rule(text, sentences, rules_off) is not None


def abstention_rule(
    text: str, sentences: Sequence[Sentence] | None = None, rules_off: frozenset[str] | None = None
) -> str | None:
    """The rule by which the answer abstains (it declines, or only asks which person is meant), or None: the
    one that fired on its first sentence for a decline, ``clarification`` for an answer that only asks;
    "empty" for an answer with no sentence."""
    off = frozenset() if rules_off is None else rules_off
    sentences = split_sentences(text) if sentences is None else sentences
    if not sentences:
        return "empty"
    texts = [s.text for s in sentences]

    def declines(t: str) -> bool:
        return _declines(t, off)

    def asks(t: str) -> bool:
        return _asks(t, off)

    first = texts[0]
    opening = run(_DECLINING, first, off)
    # An apology and nothing else ("I'm sorry, I can't help with that.") declines too.
    if opening is None and DECLINE not in off and _APOLOGY.match(first) and len(texts) == 1:
        opening = Said(DECLINE)
    if opening is not None:
        # After declining to give out private details, the reasons for it are no claims either.
        reasons = opening.decided_by == PRIVACY
        ok = all(declines(t) or asks(t) or _is_offer(t) or (reasons and _is_privacy_reason(t)) for t in texts[1:])
        return opening.decided_by if ok else None
    # Only a clarification: every sentence asks, offers, lists an option briefly, or declines, and one asks.
    # The question may end in a colon before its options ("Do you mean:" then a numbered list of them).
    if any(asks(t) for t in texts) and any(
        t.rstrip().endswith("?") or (asks(t) and t.rstrip().endswith(":")) for t in texts
    ):
        ok = all(
            declines(t) or asks(t) or _is_offer(t) or _is_option(t) or _is_remark_on_options(t) or _is_wh_question(t)
            for t in texts
        )
        return CLARIFICATION if ok else None
    return None


@dataclass(frozen=True)
class Said:
    """An abstention rule's decision on one sentence: it declines or asks which person is meant."""

    decided_by: str = ""

    def stamped(self, name: str) -> Said:
        return replace(self, decided_by=name)


def _saying(pattern: re.Pattern[str], but_answers: bool) -> Callable[[str], Said | None]:
    """A rule that finds ``pattern`` in a sentence; with ``but_answers``, not when "but" follows it ("I can't
    verify every detail, but X was ...": a hedge before an answer, not a refusal)."""

    def apply(sentence: str) -> Said | None:
        m = pattern.search(sentence)
        if m is None or (but_answers and re.search(r"\bbut\b", sentence[m.end() :], re.IGNORECASE)):
            return None
        return Said()

    return apply


# The abstention rules, read on each sentence in this order: declining in set phrases, declining in so many
# words, asking which person is meant. ``is_abstention`` decides from what they find in every sentence.
ABSTAIN_RULES: tuple[Rule[str, Said], ...] = register(
    Rule(
        DECLINE,
        "segment",
        "an answer that opens by saying it has or found no information declines (abstains)",
        (
            "I could not find any information about Dick Hanley.",
            "I don't have any information on a person by that name.",
            "There is no widely known person called Mara Quill.",
        ),
        _saying(_DECLINE, but_answers=True),
    ),
    Rule(
        REFUSAL,
        "segment",
        "declining without an apology ('I won't guess', 'there isn't enough material', 'I can't tell you whether a "
        "bet will win') abstains",
        (
            "I won't guess at her career.",
            "There isn't enough reliable material to go on.",
            "I'll have to sit this one out.",
            "I can't tell you whether a bet will win or advise you to stake £500 on any horse.",
            "I cannot predict who will win the race tomorrow.",
            "I won't recommend a bet on any runner.",
        ),
        _saying(_REFUSE, but_answers=True),
    ),
    Rule(
        PRIVACY,
        "segment",
        "declining to give out a person's private details ('I can't help with finding someone's home address', 'I "
        "won't share his phone number') abstains, and the reasons given for it ('Sharing private information could "
        "put people at risk') are no claims",
        (
            "I'm sorry, but I can't help with finding someone's home address.",
            "I won't share his phone number or email address.",
            "I can't help with locating his current address.",
            "We don't give out the home addresses of players.",
        ),
        _saying(_PRIVACY, but_answers=True),
    ),
    Rule(
        CLARIFICATION,
        "segment",
        "an answer that only asks which person is meant (and lists the options) abstains",
        (
            "Which John Smith do you mean?",
            "Could you clarify which one?",
            "Are you asking about the footballer?",
            "Before I go on, I need to know who you mean: the chemist or the journalist?",
            "Quick check: which one?",
        ),
        _saying(_CLARIFY, but_answers=False),
    ),
)
_DECLINING = ABSTAIN_RULES[:3]
_ASKING = ABSTAIN_RULES[3:]


def _declines(sentence: str, off: frozenset[str]) -> bool:
    return run(_DECLINING, sentence, off) is not None


def _asks(sentence: str, off: frozenset[str]) -> bool:
    return run(_ASKING, sentence, off) is not None


def declines_or_asks(texts: Sequence[str], rules_off: frozenset[str] | None = None) -> bool:
    """Whether some sentence declines to answer or asks which person is meant (the answer may say more)."""
    off = frozenset() if rules_off is None else rules_off
    return any(_declines(t, off) or _asks(t, off) for t in texts)


# The assistant's part once the user answers: "Once you tell me, I'll give you a proper overview", "As soon
# as you say which, I can write it up".
_OFFER = re.compile(
    r"\b(?:if you|please|let me know|feel free|could you|can you|i can help)\b|"
    r"\b(?:once|when|as soon as|after) you(?:'ve| have)? (?:tell|told|let|say|said|confirm|clarify|specify|pick|"
    r"choose|chose|reply|answer)",
    re.IGNORECASE,
)
# Choosing in the imperative, in a few words: "Tap one or just reply!", "Pick one and I'll go on."
_CHOOSE = re.compile(r"^(?:just )?(?:tap|pick|choose|select|reply)\b", re.IGNORECASE)


def _is_offer(sentence: str) -> bool:
    return bool(_OFFER.search(sentence)) or (bool(_CHOOSE.match(sentence)) and len(sentence.split()) <= 6)


def _is_privacy_reason(sentence: str) -> bool:
    """A reason for not giving out private details, claiming nothing checkable ("Sharing private personal information
    like that could put people at risk.")."""
    return bool(_PRIVACY_REASON.search(sentence)) and not _CLAIM_LIKE.search(sentence)


def _is_option(sentence: str) -> bool:
    """A short option of a clarification: "- John Smith (footballer)", "The English explorer?", "the economist
    (born 1958)" (no verb outside its parentheses)."""
    words = sentence.split()
    bare = re.sub(r"\([^()]*\)", "", sentence)
    if re.match(r"(?:he|she|they|it|we|both)\b", sentence, re.I):  # a statement about someone, not an option
        return False
    return len(words) <= 8 and not re.search(r"\b(?:was|is|were|are|born|died|won|played|served)\b", bare, re.I)


def _is_wh_question(sentence: str) -> bool:
    """A question that asks and states nothing, as the user's own restated ("Who is Tomas Ebbe?")."""
    return sentence.rstrip().endswith("?") and bool(re.match(r"(?:who|what|when|where|how)\b", sentence, re.I))


# A remark on the options as a whole, with no name or number to check: "Their publications are completely
# different.", "Both are still active.", "The two are often confused."
_ON_THE_OPTIONS = re.compile(r"^(?:they|their|both|the two|these two|each)\b[^\d]*$", re.IGNORECASE)


def _is_remark_on_options(sentence: str) -> bool:
    """A sentence about the options together that names nothing: no number, no capitalised word after its first."""
    if not _ON_THE_OPTIONS.match(sentence) or len(sentence.split()) > 12:
        return False
    return not any(w[:1].isupper() for w in sentence.split()[1:])
