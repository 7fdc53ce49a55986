"""Abstention: answers that decline ("I could not find information about ...") are counted, not scored.

As in FActScore, a model's score is the mean over the answers it did not abstain on, and the share
of answered prompts is reported beside it (the response ratio).

>>> is_abstention("I'm sorry, but I could not find any information about Dick Hanley.")
True
>>> is_abstention("Dick Hanley was an American football coach. I could not find his birth date.")
False
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scoring.sentences import Sentence, split_sentences

_DECLINE = re.compile(
    r"\b(?:i (?:could not|couldn't|cannot|can't|was unable to|am unable to|am not able to|was not able to) "
    r"(?:find|locate|provide|identify|determine)|"
    r"i (?:do not|don't) have (?:[a-z-]+ ){0,2}(?:information|details|data|knowledge)|"
    r"(?:no|not (?:enough|any|much)) (?:reliable |specific |available |public |relevant )?"
    r"(?:information|details|records?) "
    r"(?:is |was )?(?:available )?(?:about|on|regarding|for)|"
    r"(?:there is|there's) no (?:information|record|mention|person|one|notable person|widely known)|"
    r"(?:am|is) not (?:familiar|aware)|i'm not (?:familiar|aware|sure who)|"
    r"unable to (?:find|provide|locate)|not able to (?:find|provide)|"
    r"(?:does not|doesn't) (?:appear|seem) to (?:be|exist|have)|cannot provide a (?:bio|biography))",
    re.IGNORECASE,
)
_APOLOGY = re.compile(r"^\s*(?:i'm sorry|i am sorry|sorry|i apologi[sz]e|unfortunately)\b", re.IGNORECASE)


def is_abstention(text: str, sentences: Sequence[Sentence] | None = None) -> bool:
    """True when the answer declines: it opens with a refusal and says nothing else of substance.

    ``sentences`` are ``split_sentences(text)`` when the caller already has them.
    """
    sentences = split_sentences(text) if sentences is None else sentences
    if not sentences:
        return True
    first = sentences[0].text
    if not (_DECLINE.search(first) or (_APOLOGY.match(first) and len(sentences) == 1)):
        return False
    return all(_DECLINE.search(s.text) or _is_offer(s.text) for s in sentences[1:])


def _is_offer(sentence: str) -> bool:
    return bool(re.search(r"\b(?:if you|please|let me know|feel free|could you|can you|i can help)\b", sentence, re.I))
