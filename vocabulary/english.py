"""English word lists shared by ``scoring`` and ``knowledge``.

>>> MONTH_NUMBERS["sept"], NUMBER_WORDS["forty"], "himself" in MALE_PRONOUNS
(9, 40, True)
"""

from __future__ import annotations

MONTHS: tuple[str, ...] = tuple(
    "january february march april may june july august september october november december".split()
)
# Month names and their three-letter abbreviations (and "sept") to month numbers.
MONTH_NUMBERS: dict[str, int] = {name: i + 1 for i, name in enumerate(MONTHS)}
MONTH_NUMBERS.update({name[:3]: num for name, num in list(MONTH_NUMBERS.items())})
MONTH_NUMBERS["sept"] = 9

NUMBER_WORDS: dict[str, int] = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
        "sixteen seventeen eighteen nineteen twenty".split()
    )
}
NUMBER_WORDS.update({"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80})
NUMBER_WORDS.update({"ninety": 90, "hundred": 100, "thousand": 1000, "million": 1_000_000, "billion": 10**9})
# Words that compare two things without saying anything of either ("same name, different generations"): a phrase
# of nouns they qualify and no verb is a comparison, not a statement about the answer's person.
COMPARING_WORDS = frozenset("same different similar identical distinct separate unrelated contrasting opposite".split())
# Dates relative to another event ("five years before his death", "the year after leaving Accra"): words before
# the event's noun that name no event, the words for leaving or finishing something (dated by the end of a range
# of years), and event nouns with the verbs a page dates them with.
ANCHOR_STOPWORDS = frozenset("his her their its the a an he she they it that this first own".split())
END_EVENT_WORDS = frozenset(
    "left leaving leave finishing finished finish completing completed graduating graduation graduated".split()
)
EVENT_VERBS: dict[str, tuple[str, ...]] = {
    "death": ("died",),
    "birth": ("born",),
    "retirement": ("retired",),
    "marriage": ("married",),
    "wedding": ("married",),
    "founding": ("founded",),
    "election": ("elected",),
    "appointment": ("appointed",),
}
# What a player "hangs up" when retiring ("hung up her goggles in 2017": she retired in 2017).
RETIREMENT_GEAR = frozenset(
    "boots gloves goggles pads skates spikes racket racquet cleats whistle helmet skis oars oar bat clubs".split()
)
# Nouns of an organisation's kind that a title may give otherwise ("led the Diocese of Carrick" for "was Bishop of
# Carrick"): a name word a length of time may leave out where the distinctive one is there.
ORGANISATION_NOUNS = frozenset(
    "diocese archdiocese parish see department unit bureau office institute ministry authority council agency "
    "division centre center board committee commission".split()
)
# The words a thing's name ends with, never a person's (an award, an event, a work, a place made for people):
# "Sea Gallantry Medal", "SEA Games", "Kvarven Variable Star Catalogue", "Kettleby Bird Hide".
# Words that answer or greet, in the languages answers mix in ("Ja / Yes — zwei Personen", "Oui, c'est elle",
# "Sí, son dos personas", "Nee, dat is een ander"): a tagger takes a capitalised one at a line's start for a name
# (``answer-word-name``), and none is a person's name on its own. Written folded (Si for Sí).
ANSWER_WORDS = frozenset(
    "yes no yeah nope ja nein jein doch oui non si nee nej nei tak nie ano igen evet hayir hello hi hey hallo "
    "hola bonjour salut ciao servus moin hej ola merci danke gracias grazie obrigado obrigada dziekuje kiitos".split()
)

# Words that point at one of several namesakes without naming them ("The one who founded Quayline is …", "The
# elder trained in …", "the latter"): a subject of one of these is that namesake (``namesake-referent``).
NAMESAKE_REFERENTS = frozenset("one elder younger older eldest youngest former latter".split())
# Comparatives of age that set one namesake against the other with no second term ("… is twenty years younger",
# "The rower is the younger man"): a comparison, not a claim one page can hold (``namesake-comparison``).
AGE_COMPARATIVES = frozenset("younger older elder youngest oldest eldest".split())
# Words that say what several people share or do not ("same name, different generations, different cities").
CONTRAST_ADJECTIVES = frozenset("same different separate distinct".split())

# What a fact with nothing a page could confirm is made of (``scoring.contentless``). Light verbs: verbs that
# say nothing of their own without what they take ("He left.", "He took it.", "She stayed.", "He found."); a verb
# that tells a life event or a deed on its own ("She retired.", "He died.", "She never married.", "He won.") is
# not one of them (lemmas).
LIGHT_VERBS = frozenset(
    "have do make take give get put set keep hold find leave stay remain come go bring carry earn count call start "
    "begin turn let use show become seem slide notice place lay hand sit stand mention discuss describe cite see "
    "try want need like handle".split()
)
# An object or complement that points back at something the fact does not say ("took it", "held onto it", "is
# the one", "is that one"): nothing a page could confirm.
EMPTY_OBJECTS = frozenset("it them this that these those one ones something everything anything all".split())
# Nouns that say nothing of their own as a copula's complement without words that restrict them ("is the one",
# "is a different person", "is that kind").
GENERIC_NOUNS = frozenset("one ones person persons thing things kind sort type case".split())
# Time and place nouns that, with "the" alone before them and nothing after, point at what a cut clause said
# ("set up his own shop the year [after leaving Accra]", "arrived the year [the Wall came down]").
DANGLING_NOUNS = frozenset(
    "year day time moment month week season night morning evening afternoon summer winter spring autumn fall decade "
    "era period point way place".split()
)
# Prepositions left at the end of a fact whose object was cut ("Every one of them argued over.", "He started as."):
# the fact lost what it was about. Particles that complete a verb ("stepped down", "gave up") are not these.
STRANDED_PREPOSITIONS = frozenset("over about with for on at to into onto of from as by".split())
# Adverbs that add no claim to a predicate ("He very clearly did.", "She also stayed.").
EMPTY_ADVERBS = frozenset("also too still then just even really very clearly indeed already so there".split())

THING_NAME_WORDS = frozenset(
    "prize prizes medal medals award awards trophy cup fellowship honour honor order knighthood "
    "games olympics olympiad championship championships tournament marathon regatta festival biennale expo "
    "exhibition catalogue catalog atlas algorithm theorem conjecture "
    "hide lighthouse railway station stadium arena reserve road avenue library".split()
)
# Units of time longer than a decade, in years ("nine millennia" is 9,000 years).
YEARS_IN_UNIT: dict[str, int] = {"century": 100, "centuries": 100, "millennium": 1000, "millennia": 1000}

NEGATIONS = frozenset(
    "not no never none nobody nothing neither nor without cannot n't isn't wasn't aren't weren't doesn't "
    "didn't don't hasn't haven't hadn't won't wouldn't couldn't shouldn't can't unable lack lacks lacked "
    "false incorrect deny denies denied".split()
)
# Verbs that tell a time served ("put in six years shipping code at Kestrelsoft", "clocked up a decade at the club"):
# read as "worked for six years at Kestrelsoft" (scoring/rewordings.py, ``tenure-reading``).
TENURE_VERBS = ("put in", "clocked up", "clocked", "logged", "racked up", "notched up", "chalked up", "banked")
# A negation said first and the clause inverted ("Not once did she take a world title", "At no point was he a
# member"): the clause is read with "never" after its subject (scoring/rewordings.py, ``negation-reading``).
NEGATIVE_INVERSIONS = ("not once", "never once", "at no point", "at no time", "not ever", "never", "nor ever", "nor")
# Negations that deny a noun phrase, not the sentence: "closed after 7 days without activity" says the tickets
# are closed. Before a verb's -ing form they deny that verb ("left without graduating"), and read as negations.
PRIVATIVES = frozenset({"without"})

# Verbs only a person does ("graduated in journalism", "married the bassist"): coordinated into a clause about a
# work or a thing ("Verdex, a film launched in 2005 and graduated in journalism …"), they tell of the sentence's
# person, not of the thing (lemmas).
PERSON_VERBS = frozenset(
    "graduate study marry wed divorce die retire teach coach found co-found cofound emigrate enrol enroll attend "
    "major train qualify".split()
)

# Pronouns.
SUBJECT_PRONOUNS = frozenset({"he", "she", "they"})  # what decontextualisation replaces with a name
MALE_PRONOUNS = frozenset({"he", "his", "him", "himself"})
FEMALE_PRONOUNS = frozenset({"she", "her", "hers", "herself"})
THIRD_PERSON_SINGULAR = MALE_PRONOUNS | FEMALE_PRONOUNS
# A fact whose subject is one of these is about someone (or something) named elsewhere.
PERSONAL_PRONOUNS = frozenset({"he", "she", "they", "him", "her", "his", "hers", "their", "them", "it", "its"})

# Words that open a sentence without naming anything: an existential "there", a pointing "here", pronouns,
# demonstratives and question words ("There are two:", "These are the specs:" name no thing).
NOT_NAMES = frozenset(
    "there here it its this that these those they he she we you i what which who whom whose where when why how "
    "some many several all both each every another one none such".split()
)

# Names: titles before and suffixes after a person's name, left out when names are compared.
TITLES = frozenset(
    "mr mrs ms miss dr prof professor sir dame lord lady saint st pope king queen prince princess rev reverend "
    "judge justice senator general colonel captain major admiral president bishop archbishop cardinal father "
    "metropolitan patriarch abbot abbess imam rabbi sheikh emperor empress tsar tsarina czar sultan".split()
)
NAME_SUFFIXES = frozenset({"jr", "sr", "junior", "senior", "ii", "iii", "iv"})

# Stop words. Function words: what no fact is about.
FUNCTION_WORDS = frozenset(
    "the a an of in on at to for from by with and or but is was were are be been being has had have he she his her "
    "they their it its as also that this which who whom whose".split()
)
# Revision's value roles ("born in 1931", "coached ... from 1927"): function words, time and order words,
# month names and abbreviations are not the role of a value.
ROLE_STOPWORDS = (
    FUNCTION_WORDS
    | frozenset(
        "there then later after before during until when where while into over under about around first second third "
        "one two three age aged year years time same "
        "jan feb mar apr jun jul aug sep sept oct nov dec early late mid century".split()
    )
    | frozenset(MONTHS)
)
# The packaged stance model's word features were trained with this list: changing it changes the model.
STANCE_STOPWORDS = frozenset(
    """
    a about above after again against all also am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have having
    he her here hers herself him himself his how i if in into is it its itself just me more most my myself
    of off on once only or other our ours ourselves out over own same she should so some such than that the
    their theirs them themselves then there these they this those through to too under until up very was we
    were what when where which while who whom why will with would you your yours yourself yourselves
    one ones well known many much may might must shall us per via within among upon however although though
    whose including include includes included such several various often later also became become becomes
    """.split()
)
# The knowledge store's retrieval queries (FTS terms) leave these out.
RETRIEVAL_STOPWORDS = frozenset(
    "a an and are as at be been but by for from had has have he her his i in is it its of on or she that the their "
    "them they this to was were which who whom with you your we our not no so than then there these those also into "
    "after before over under about did do does what when where why how".split()
)
# A fact that says something happens at every hour or on every day ("answers calls around the clock", "open 24/7",
# "seven days a week"): what a page that bounds the hours ("from 9 am to 5 pm") or the days ("Monday to Friday")
# says otherwise.
ALL_HOURS = ("around the clock", "round the clock", "round-the-clock", "around-the-clock", "24/7", "24 hours a day",
             "day and night", "at any hour", "at all hours", "any time of day")  # fmt: skip
ALL_DAYS = ("seven days a week", "7 days a week", "every day of the week", "24/7", "every day")

# Ranks said in other words ("finished behind only one skier" is second, "stood on the lowest step of the podium"
# is third, "fell one round short of the final" reached the semi-finals), each a regular expression of the words
# that say it, the rank they give (1, 2, 3 …; 0 for a semi-final) and what they replace: a verb phrase ("verb":
# "finished behind only one skier" → "finished second") or a modifier ("place": "as the next-best sprinter after
# the overall winner" → "in second place"). Read by the verify rule ``rank-reading`` (scoring/verify.py).
_BEHIND_ONE = (
    r"(?:just\s+|right\s+|only\s+|narrowly\s+)?behind\s+(?:only\s+|just\s+)?"
    r"(?:one\s+(?:other\s+)?[a-z-]+|one\b|"
    r"the\s+(?:eventual\s+|overall\s+)?(?:winner|champion|victor|gold[- ]medall?ist))"
)
_PODIUM_STEP = r"(?:up\s+)?on(?:to)?\s+the\s+{which}\s+(?:step|rung|tier|spot)\s+of\s+the\s+podium"
_ON_PODIUM = r"(?:stood|finished|ended(?:\s+up)?|climbed|stepped|was|landed)\s+"
RANK_PARAPHRASES: tuple[tuple[str, int, str], ...] = (
    (rf"(?:finished|came(?:\s+in|\s+home)?|ended(?:\s+up)?|placed|crossed\s+the\s+line|was)\s+{_BEHIND_ONE}",
     2, "verb"),
    (r"(?:collected|took|earned|achieved|recorded|claimed|posted|had)\s+(?:the\s+|a\s+)?second[- ]best\s+"
     r"(?:result|finish|placing|place|score)", 2, "verb"),
    (r"as\s+(?:the\s+)?(?:next|second)[- ]best\s+(?:[a-z-]+\s+)?(?:after|behind)\s+the\s+(?:eventual\s+|overall\s+)?"
     r"(?:winner|champion)", 2, "place"),
    (_ON_PODIUM + _PODIUM_STEP.format(which=r"(?:top|highest)"), 1, "verb"),
    (_ON_PODIUM + _PODIUM_STEP.format(which=r"(?:second|middle)"), 2, "verb"),
    (_ON_PODIUM + _PODIUM_STEP.format(which=r"(?:lowest|bottom|third)"), 3, "verb"),
    (r"(?:fell|finished|stopped|went\s+out|was\s+knocked\s+out|bowed\s+out)\s+(?:just\s+)?one\s+"
     r"(?:round|step|race|match|game|stage|heat)\s+short\s+of\s+the\s+final", 0, "verb"),
    (r"(?:went\s+out|was\s+(?:knocked\s+out|eliminated)|bowed\s+out|lost)\s+(?:in|at)\s+the\s+semi[- ]?finals?"
     r"(?:\s+stage)?", 0, "verb"),
    # "was runner-up", "finished as runner-up", "ended up the runner-up": second
    (r"(?:was|finished(?:\s+as)?|ended(?:\s+up)?(?:\s+as)?|came\s+in\s+as|placed\s+as)\s+(?:the\s+)?"
     r"(?:overall\s+)?runner[- ]up", 2, "verb"),
    # "stood on the podium's bottom step"
    (_ON_PODIUM + r"(?:up\s+)?on(?:to)?\s+the\s+podium['’]s\s+(?:lowest|bottom|third)\s+(?:step|rung|tier|spot)",
     3, "verb"),
    # "finished just off the podium", "came just outside the medals": fourth (not "outside the medals": any rank)
    (r"(?:finished|came(?:\s+in|\s+home)?|ended(?:\s+up)?|placed|was)\s+(?:just|agonisingly|agonizingly)\s+"
     r"(?:off|outside)\s+the\s+(?:podium|medals|medal\s+places)", 4, "verb"),
)  # fmt: skip
# The plain words a page writes for each rank, tried in this order ("verb": a verb phrase, "place": a modifier).
RANK_PLAIN: dict[tuple[int, str], tuple[str, ...]] = {
    (1, "verb"): ("won the gold medal", "won first prize"),
    (2, "verb"): ("finished second", "was runner-up", "won second prize", "won the silver medal"),
    (3, "verb"): ("finished third", "won the bronze medal", "won third prize"),
    (4, "verb"): ("finished fourth", "placed fourth"),
    (0, "verb"): ("reached the semi-finals",),
    (2, "place"): ("in second place", "as runner-up"),
}
