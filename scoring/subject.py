"""Who an answer is about when the caller does not say: from the question, else the first person the answer
names, else what the question asks about.

>>> infer_subject("He was born in 1936.", "Tell me a bio of Dick Hanley.")
'Dick Hanley'
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from scoring import nlp
from scoring.segment.question import question_subject
from scoring.sentences import split_sentences

if TYPE_CHECKING:
    from spacy.tokens import Doc

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
        opening, named = _opening(doc)
        for ent in doc.ents:
            if ent.label_ == "PERSON" and ent.start not in opening:
                return ent.text
        if named:
            return named  # "Raised in Oslo, Marta Lind studied …": the name the opening phrase leads to
    asked = question_subject(question) if question else ""  # "What are the specs of the Acme X2?"
    if asked:
        return asked
    for doc in docs:
        for tok in doc:
            if tok.dep_ in ("nsubj", "nsubjpass") and tok.pos_ == "PROPN":
                left = tok.left_edge.i
                return doc[left : tok.i + 1].text
    return ""


# What an opening phrase before a sentence's subject may be: a participle or adverbial clause ("Born in Kraków,",
# "Having won the cup in 1990,"), a preposition ("After three seasons at Ajax,").
_OPENING_DEPS = frozenset({"advcl", "prep", "npadvmod"})


def _opening(doc: Doc) -> tuple[set[int], str]:
    """The token ids of the phrases that open ``doc`` before a named subject, and that subject's name ("Born in
    Kraków, Ewa Nowak joined …": Kraków is where she was born, Ewa Nowak whom the sentence is about); nothing when
    the sentence's subject is no name."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    subj = next((c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")), None) if root is not None else None
    if root is None or subj is None or subj.pos_ != "PROPN":
        return set(), ""
    ids = {t.i for c in root.children if c.dep_ in _OPENING_DEPS and c.i < subj.i for t in c.subtree}
    if not ids:
        return set(), ""
    name = doc[subj.left_edge.i : subj.i + 1]
    return ids, name.text if all(t.pos_ == "PROPN" for t in name) else ""
