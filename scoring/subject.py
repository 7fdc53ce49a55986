"""Who an answer is about when the caller does not say: from the question, else the first person the answer
names, else what the question asks about.

>>> infer_subject("He was born in 1936.", "Tell me a bio of Dick Hanley.")
'Dick Hanley'
"""

from __future__ import annotations

import re

from scoring import nlp
from scoring.segment.question import question_subject
from scoring.sentences import split_sentences

_QUESTION_NAME = re.compile(
    r"(?:bio(?:graphy)? of|about|who (?:is|was|were)|information on|life of)\s+(.+?)\s*[?.!]*$", re.IGNORECASE
)


def infer_subject(text: str, question: str | None = None) -> str:
    """The person an answer is about: from the question ("Tell me a bio of X"), else the first person named, else what
    the question asks about ("What are the specs of the Acme X2?")."""
    if question:
        m = _QUESTION_NAME.search(question.strip())
        if m:
            return m.group(1).strip(" \"'")
    sentences = split_sentences(text)[:3]
    docs = nlp.parse([s.text for s in sentences])
    for doc in docs:
        for ent in doc.ents:
            if ent.label_ == "PERSON":
                return ent.text
    asked = question_subject(question) if question else ""  # "What are the specs of the Acme X2?"
    if asked:
        return asked
    for doc in docs:
        for tok in doc:
            if tok.dep_ in ("nsubj", "nsubjpass") and tok.pos_ == "PROPN":
                left = tok.left_edge.i
                return doc[left : tok.i + 1].text
    return ""
