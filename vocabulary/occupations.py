"""Occupations as the ``swapped-role`` rule reads them: the role a text gives a named person ("the soprano Kari
Bråthen", "Ruth Ellison, a schoolteacher"), and which roles say the same of a person (a broader term: "musician"
for "pianist", "athlete" for "hurdler").

A role is one word or two ("marathon runner", "structural engineer"); two roles with the same last word say the
same ("runner" and "marathon runner"), so the two-word roles listed are those whose first word makes another
occupation. The tests (tests/scoring/test_swapped_role.py) enumerate swaps and the look-alikes kept apart.

>>> "oboist" in FIELDS["instrumentalist"], broader("violinist") >= {"musician", "instrumentalist", "artist"}
(True, True)
"""

from __future__ import annotations

# The occupations of a field, under the field's own word (what a broader mention says of any of them).
FIELDS: dict[str, frozenset[str]] = {
    field: frozenset(words.split())
    for field, words in {
        "instrumentalist": "pianist violinist violist cellist bassist double-bassist guitarist drummer percussionist "
        "oboist flautist flutist clarinettist clarinetist bassoonist saxophonist trumpeter trombonist hornist "
        "harpist organist harpsichordist accordionist fiddler piper bagpiper keyboardist timpanist tubist "
        "lutenist banjoist mandolinist",
        "singer": "soprano mezzo-soprano contralto alto tenor baritone bass-baritone countertenor vocalist "
        "chorister crooner rapper",
        "musician": "composer conductor songwriter bandleader arranger",
        "athlete": "sprinter hurdler runner marathoner marathon-runner long-distance-runner middle-distance-runner "
        "jumper high-jumper long-jumper pole-vaulter decathlete heptathlete thrower swimmer diver rower "
        "canoeist cyclist skier snowboarder skater boxer wrestler fencer gymnast weightlifter triathlete "
        "sailor jockey golfer archer climber mountaineer",
        "player": "footballer cricketer batsman bowler goalkeeper striker midfielder defender rugby-player "
        "basketball-player tennis-player hockey-player chess-player",
        "artist": "painter sculptor illustrator printmaker engraver ceramicist potter photographer "
        "cartoonist muralist draughtsman weaver",
        "writer": "novelist poet playwright dramatist screenwriter essayist biographer memoirist author "
        "journalist columnist critic librettist lyricist translator editor",
        "performer": "actor actress dancer ballerina comedian magician puppeteer",
        "filmmaker": "director film-director cinematographer producer film-producer animator editor",
        "scientist": "physicist chemist biologist geologist oceanographer astronomer mathematician statistician "
        "ecologist botanist zoologist geneticist microbiologist biochemist neuroscientist economist "
        "psychologist sociologist anthropologist archaeologist historian linguist philosopher meteorologist "
        "entomologist ornithologist marine-biologist epidemiologist virologist immunologist",
        "doctor": "surgeon physician cardiologist neurologist paediatrician pediatrician psychiatrist "
        "ophthalmologist dermatologist anaesthetist anesthetist oncologist radiologist gynaecologist "
        "obstetrician gp general-practitioner",
        "clinician": "nurse midwife physiotherapist dentist pharmacist paramedic optometrist veterinarian vet "
        "therapist psychotherapist dietitian",
        "teacher": "schoolteacher lecturer professor tutor headteacher headmaster headmistress educator",
        "engineer": "structural-engineer civil-engineer electrical-engineer mechanical-engineer software-engineer "
        "architect landscape-architect surveyor technician",
        "craftsperson": "sailmaker boatbuilder carpenter joiner blacksmith goldsmith silversmith jeweller jeweler "
        "luthier cabinetmaker stonemason mason glassblower tailor shoemaker organ-builder instrument-maker "
        "violin-maker",
        "lawyer": "barrister solicitor attorney judge advocate notary",
        "politician": "senator congressman congresswoman legislator diplomat ambassador mayor councillor minister",
        "cleric": "priest bishop archbishop vicar pastor minister rabbi imam monk nun chaplain",
        "businessperson": "entrepreneur businessman businesswoman banker accountant executive financier merchant "
        "industrialist",
        "pilot": "aviator aviatrix airman",
        "farmer": "rancher winemaker vintner beekeeper",
        "chef": "cook baker pastry-chef restaurateur",
        "coach": "trainer manager",
    }.items()
}

# Words broader than the fields above (or than single occupations): what each one says of a person it may name.
UMBRELLAS: dict[str, tuple[str, ...]] = {
    "musician": ("instrumentalist", "singer"),
    "artist": ("instrumentalist", "singer", "musician", "performer", "filmmaker"),
    "performer": ("instrumentalist", "singer", "musician"),
    "athlete": ("player",),
    "sportsman": ("athlete", "player"),
    "sportswoman": ("athlete", "player"),
    "sportsperson": ("athlete", "player"),
    "academic": ("scientist", "teacher"),
    "researcher": ("scientist", "doctor"),
    "scholar": ("scientist", "writer"),
    "scientist": ("doctor",),
    "clinician": ("doctor",),
    "designer": ("engineer", "artist"),
    "runner": (
        "sprinter",
        "hurdler",
        "marathoner",
        "marathon-runner",
        "long-distance-runner",
        "middle-distance-runner",
    ),
}

# Words that name one occupation ("dramatist" and "playwright"): a fact with one is not the page's other.
SYNONYMS: tuple[frozenset[str], ...] = tuple(
    frozenset(group.split())
    for group in (
        "playwright dramatist",
        "flautist flutist",
        "clarinettist clarinetist",
        "violinist fiddler",
        "paediatrician pediatrician",
        "anaesthetist anesthetist",
        "jeweller jeweler",
        "physician doctor",
        "veterinarian vet",
        "marathoner marathon-runner",
        "lawyer attorney",
        "gp general-practitioner",
        "author writer",
        "aviator aviatrix airman pilot",
        "headteacher headmaster headmistress",
        "cook chef",
        "vintner winemaker",
        "businessman businesswoman",
        "sportsman sportswoman sportsperson",
        "congressman congresswoman legislator",
        "mason stonemason",
        "actor actress",
        "bagpiper piper",
    )
)


def _broader_of() -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for field, words in FIELDS.items():
        for w in words:
            out.setdefault(w, set()).add(field)
    for umbrella, fields in UMBRELLAS.items():
        for field in (umbrella, *fields):
            for w in FIELDS.get(field, frozenset()) | {field}:
                if w != umbrella:
                    out.setdefault(w, set()).add(umbrella)
    return {w: frozenset(b) for w, b in out.items()}


_BROADER = _broader_of()
# Every role word: the fields' members, the fields and the broader words.
OCCUPATIONS: frozenset[str] = frozenset(_BROADER) | frozenset(FIELDS) | frozenset(UMBRELLAS)


def synonyms(role: str) -> frozenset[str]:
    """The words that name the same occupation as ``role``, itself included."""
    return _SYNONYMS_OF.get(role, frozenset({role}))


_SYNONYMS_OF: dict[str, frozenset[str]] = {w: group for group in SYNONYMS for w in group}
OCCUPATIONS = OCCUPATIONS | frozenset(_SYNONYMS_OF)


def broader(role: str) -> frozenset[str]:
    """The words that name a field or kind the role belongs to ("violinist": instrumentalist, musician, artist,
    performer)."""
    return _BROADER.get(role, frozenset())


# An occupation in plain words ("a volcano scientist", "a fossil hunter", "a piano player") and the words a page
# writes for it (the occupation's own word first). Read by the verify rule ``occupation-reading``
# (scoring/rewordings.py): the fact is read with the first of the words the page holds. General English only.
PLAIN_OCCUPATIONS: dict[str, tuple[str, ...]] = {
    **{
        f"{thing} {who}": words
        for things, words in (
            (("volcano",), ("volcanologist", "vulcanologist")),
            (("fossil", "dinosaur"), ("palaeontologist", "paleontologist")),
            (("bird",), ("ornithologist",)),
            (("insect", "bug", "beetle"), ("entomologist",)),
            (("plant",), ("botanist",)),
            (("rock",), ("geologist",)),
            (("weather",), ("meteorologist",)),
            (("climate",), ("climatologist", "climate scientist")),
            (("ocean", "sea"), ("oceanographer", "marine scientist")),
            (("star",), ("astronomer", "astrophysicist")),
            (("virus",), ("virologist",)),
            (("brain",), ("neuroscientist",)),
            (("language",), ("linguist",)),
            (("gene", "dna"), ("geneticist",)),
            (("germ", "microbe", "bacteria"), ("microbiologist",)),
            (("earthquake",), ("seismologist",)),
            (("ice", "glacier"), ("glaciologist",)),
        )
        for thing in things
        for who in ("scientist", "expert", "hunter", "researcher", "specialist")
        if not (who == "hunter" and thing not in ("fossil", "dinosaur", "virus", "germ", "microbe"))
    },
    **{
        f"{instrument} {who}": words
        for instrument, words in (
            ("piano", ("pianist",)),
            ("violin", ("violinist", "fiddler")),
            ("viola", ("violist",)),
            ("cello", ("cellist",)),
            ("double bass", ("double-bassist", "bassist")),
            ("bass", ("bassist",)),
            ("guitar", ("guitarist",)),
            ("harp", ("harpist",)),
            ("harpsichord", ("harpsichordist",)),
            ("organ", ("organist",)),
            ("flute", ("flautist", "flutist")),
            ("oboe", ("oboist",)),
            ("clarinet", ("clarinettist", "clarinetist")),
            ("bassoon", ("bassoonist",)),
            ("saxophone", ("saxophonist",)),
            ("sax", ("saxophonist",)),
            ("trumpet", ("trumpeter",)),
            ("trombone", ("trombonist",)),
            ("drum", ("drummer", "percussionist")),
            ("accordion", ("accordionist",)),
            ("lute", ("lutenist",)),
            ("banjo", ("banjoist",)),
            ("mandolin", ("mandolinist",)),
            ("bagpipe", ("piper", "bagpiper")),
        )
        for who in ("player",)
    },
    "mapmaker": ("cartographer",),
    "map-maker": ("cartographer",),
    "map maker": ("cartographer",),
    "heart doctor": ("cardiologist",),
    "heart surgeon": ("cardiac surgeon", "cardiothoracic surgeon"),
    "eye doctor": ("ophthalmologist",),
    "skin doctor": ("dermatologist",),
    "children's doctor": ("paediatrician", "pediatrician"),
    "kids' doctor": ("paediatrician", "pediatrician"),
    "cancer doctor": ("oncologist",),
    "animal doctor": ("veterinarian", "vet"),
    "tooth doctor": ("dentist",),
    "baby doctor": ("obstetrician", "paediatrician", "pediatrician"),
    "song writer": ("songwriter",),
    "songsmith": ("songwriter",),
    "violin maker": ("luthier", "violin-maker"),
    "guitar maker": ("luthier",),
    "word detective": ("lexicographer",),
    "dictionary maker": ("lexicographer",),
    "bee keeper": ("beekeeper",),
    "fire fighter": ("firefighter",),
    "code writer": ("software engineer", "programmer", "software developer"),
    "coder": ("software engineer", "programmer", "software developer"),
}
