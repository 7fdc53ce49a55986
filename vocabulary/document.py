"""Words of an answer's layout: the labels of its parts, which name no one and claim nothing.

Each list is matched against a label folded to lower case, without emphasis and without a trailing colon; the
tests of ``scoring.segment`` enumerate phrasings of each.
"""

from __future__ import annotations

# A heading or label over the answer's sources: what follows lists where it comes from, not what it claims.
SOURCE_LABELS = frozenset(
    (
        "sources",
        "source",
        "references",
        "citations",
        "bibliography",
        "footnotes",
        "notes and references",
        "further reading",
        "see also",
        "external links",
        "works cited",
        "sources used",
        "sources and further reading",
    )
)
# Labels of a part of the answer ("**Short answer:** …", "TL;DR: …", "## Recognition"): never a person's name.
PART_LABELS = frozenset(
    (
        "short answer",
        "quick answer",
        "long answer",
        "answer",
        "tl;dr",
        "tldr",
        "in short",
        "summary",
        "in summary",
        "bottom line",
        "details",
        "more detail",
        "more details",
        "overview",
        "background",
        "key facts",
        "quick facts",
        "at a glance",
        "recognition",
        "awards",
        "honours",
        "honors",
        "legacy",
        "career",
        "early life",
        "personal life",
        "note",
        "caveat",
        "disclaimer",
    )
)

# The words that join two namesakes laid out in one sentence ("X the novelist, …, and X the physicist, …"; "X
# (cellist) …, while X (ecologist) …"): a repeated full name after one of them opens another person's part.
NAMESAKE_JOINERS = frozenset(("and", "or", "while", "whereas", "but"))

# How a chat transcript labels the user's turns ("**You:** what is it", "Me: which phones?"): what the user says
# is no claim of the answer; the other speaker's turns are ("**Bot:** …", "**Acme Assistant:** …"). "Q" and "A"
# label a FAQ, not a conversation, and are read elsewhere.
USER_SPEAKERS = frozenset(("you", "me", "user", "human", "customer", "i", "visitor", "client", "caller"))
