"""What a question asks about, for any kind of answer: "What are the specs of the Acme X2?" → "Acme X2", "Who founded
Corvane?" → "Corvane", "How many LAN ports does the Corvane Nimbus AX3200 have?" → "Corvane Nimbus AX3200".

The subject is the longest run of words written as a name (a capital, or letters and digits as in a model's code)
after the question word; of runs as long, the first. Read on the tokens of the question, so a name's own punctuation
("O'Neill", "AX-3200") stays in it.

>>> question_subject("What are the specs of the Acme X2?")
'Acme X2'
>>> question_subject("how do i reset it?")
''
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring import nlp

if TYPE_CHECKING:
    from spacy.tokens import Token


def _named(word: str) -> bool:
    """A word written as part of a name: a capital first, or letters and digits together ("X2", "ax3200")."""
    return word[:1].isupper() or (any(c.isdigit() for c in word) and any(c.isalpha() for c in word))


def question_subject(question: str) -> str:
    """The name a question asks about, or "" when it names nothing (see the module's docstring)."""
    doc = nlp.parse_one(question.strip())
    asked = [sent for sent in doc.sents if sent.text.rstrip().endswith("?")]
    if not asked:
        return ""
    sentence = asked[-1]
    best: tuple[int, int] = (0, 0)
    start = None
    for t in [*sentence[1:], None]:
        if t is not None and _part_of_name(t):
            start = t.i if start is None else start
            continue
        if start is not None:
            end = t.i if t is not None else sentence.end
            if end - start > best[1] - best[0]:
                best = (start, end)
            start = None
    found = doc[best[0] : best[1]]
    # A place or a people ("in Israel", "Russians") is where or whom a question asks about, not what the answer is.
    if not len(found) or all(t.ent_type_ in _NOT_SUBJECTS for t in found):
        return ""
    return found.text


# Entity types of a run that is no subject of its own.
_NOT_SUBJECTS = frozenset(("GPE", "NORP", "LOC", "DATE", "CARDINAL", "ORDINAL"))


def _part_of_name(t: Token) -> bool:
    """A word of a name: written as one (:func:`_named`), not the pronoun "I", not a single letter ("an E major
    chord", "What is C#?")."""
    return len(t.text) > 1 and not t.is_punct and _named(t.text)
