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
# The label of an e-mail's subject line ("Subject: Background on …", "Re: your question"): the line names the
# message, it claims nothing.
SUBJECT_LABELS = frozenset(("subject", "subject line", "re", "fw", "fwd"))
# The words a letter's greeting opens with ("Hi Sarah,", "Dear Alex,", "Hello all!").
GREETINGS = ("hi", "hello", "hey", "hiya", "dear", "greetings", "good morning", "good afternoon", "good evening")
# The words a letter's sign-off opens with ("Best regards,", "Warm wishes,", "See you Thursday,"): the line and the
# name or team under it close the message.
SIGN_OFFS = (
    "best regards",
    "kind regards",
    "kindest regards",
    "warm regards",
    "warmest regards",
    "regards",
    "warm wishes",
    "best wishes",
    "warmly",
    "many thanks",
    "thanks",
    "thank you",
    "cheers",
    "sincerely",
    "yours",
    "all the best",
    "see you",
    "talk soon",
    "speak soon",
    "take care",
    "with thanks",
    "with best wishes",
    "respectfully",
    "cordially",
)
# Sign-offs that also open sentences of a body ("Best known for …", "Yours was the first …"): only alone.
SIGN_OFFS_ALONE = ("best", "yours", "love", "regards")
# Words of a résumé's or a profile's section labels, written in capitals on a line of their own ("EDUCATION",
# "PROFESSIONAL EXPERIENCE", "SELECTED WORK", "HONOURS"): a line made only of these labels the lines under it.
SECTION_WORDS = frozenset(
    (
        "education training qualifications experience professional career employment work works selected honours "
        "honors awards prizes distinctions languages personal skills publications books workshop output interests "
        "profile summary achievements positions appointments memberships family life early later legacy background "
        "highlights recordings discography bibliography key facts record records major wins timeline notes and of "
        "other activities service military academic teaching research"
    ).split()
)

# Words that stand where a name would and are none: placeholders a draft leaves ("TODO", "TBD", "FIXME"), forms of
# address in a speech ("Madam Speaker", "Mr President", "Your Honour"), the furniture of a script or a briefing
# ("HOST", "B-ROLL", "COLD OPEN", "END CARD", "MC SCRIPT", "BRIEFING NOTE"). A name made only of these (and of section
# words) names no person (``label-name``). No role or office ("Director", "Commissioner"): a heading of one may
# present the person who holds it.
LABEL_WORDS = frozenset(
    (
        "todo tbd tba fixme xxx placeholder n/a na "
        "madam mister mr mrs ms speaker honour honor worship lordship ladyship "
        "ladies gentlemen members colleagues your "
        "host presenter narrator mc emcee script segment cold open end card b-roll broll v.o. vo o.s. int ext cut "
        "fade scene shot cue intro outro voiceover title card lower third "
        "briefing note memo recommendation issues handling "
        "classification official internal from to subject re cc start finish caution"
    ).split()
)

# Verbs that open a direction to the reader on using the document or the place it describes, not a fact about its
# subject: "Paste it into any renderer", "Continue to 4.4 The Misericords", "Open it in Word", "Skip to the next
# section". A phrasal one is written with its particle ("continue to").
READER_DIRECTIONS = (
    "paste",
    "copy",
    "render",
    "print",
    "open",
    "scroll",
    "click",
    "download",
    "import",
    "compile",
    "add",
    "listen",
    "make sure",
    "continue to",
    "continue on to",
    "go on to",
    "move on to",
    "turn to",
    "skip to",
    "jump to",
    "proceed to",
    "head to",
    "return to",
)
# A visitor's advice, read as the passive or the evaluation it is written in: what may be borrowed or bought where
# ("Binoculars may be borrowed from the bookstall"), when a thing is best seen ("The figures in the upper tracery are
# best seen in the late morning"), what is worth the time ("The misericords are worth the extra ten minutes").
VISITOR_ADVICE_VERBS = ("borrowed", "hired", "rented", "bought", "purchased", "collected", "picked up", "booked")
VISITOR_BEST_VERBS = ("seen", "viewed", "visited", "photographed", "heard", "reached", "approached", "enjoyed")
VISITOR_WORTH = ("visit", "trip", "detour", "walk", "climb", "wait", "look", "extra", "time", "effort")
# Parts of a document as the subject of a statement about its layout ("The NOTE is folded at 75 characters", "An
# English line follows each gloss line", "The club bar's length is arbitrary", "Only the years are meaningful").
DOCUMENT_PARTS = (
    "line lines bar bars note notes field fields column columns row rows entry entries cell cells axis label labels "
    "length lengths width spacing scale chart diagram table template snippet gloss caption heading headings "
    "milestone milestones date dates year years month months day days text record"
).split()
# What such a statement says of those parts: how they are laid out, or how far they are to be read.
LAYOUT_PREDICATES = (
    "folded",
    "wrapped",
    "indented",
    "truncated",
    "padded",
    "aligned",
    "arbitrary",
    "meaningful",
    "illustrative",
    "approximate",
    "schematic",
    "placeholders",
    "not to scale",
)
# What code or markup the answer gives will make when it is run ("It will draw one bar per phase").
OUTPUT_VERBS = ("draw", "render", "plot", "show", "display", "produce", "generate", "print", "output", "create")
# The reader's tools as the subject of what they do with the document ("Any Markdown editor renders Mermaid", "Your
# editor shows each move"): the tool and the verb it does.
READER_TOOLS = ("editor", "renderer", "viewer", "browser", "app", "player", "reader", "program", "client")
TOOL_VERBS = ("render", "show", "display", "open", "draw", "play", "read", "import", "handle", "support")
