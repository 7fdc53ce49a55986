"""Idioms of a life's events and the plain words a page writes for them, as one ordered lexicon.

Each :class:`LifeIdiom` names the event it tells (born, died, retired, married, doctorate, founded, moved, debut,
graduated, resigned, won), the idiom in a small notation, the plain wordings a page may use for it (the first is the
default; a reader takes the first one whose words a page has) and the guards that keep look-alikes out:

- ``subject``: the idiom must follow the subject (a name word or a personal pronoun, with auxiliaries such as
  "having" or "has" between): "Vance passed in 1971" is a death, "the law passed in 1971" is not;
- ``value``: a year or a capitalised place must follow ("in", "at", "on", "in the year"): "her journey began in
  Graz" is a birth, "her journey began in earnest" and "began her journey to Graz" are not ("left us in 2015",
  not "left us in the lurch");
- ``pages``: the idiom is read in page text too (an unambiguous one: "passed away", "hung up her boots").

Notation: a regular-expression fragment (words as written, ``(a|b)`` alternatives, ``(?=…)`` what must follow
unread) with placeholders: ``<poss>`` his, her or their, ``<own>`` the subject's possessive (his, her, their or
"'s" after a word of the subject's name), ``<gear>`` a sport's gear (:data:`RETIREMENT_GEAR`),
``<venture>`` a kind of venture one founds (:data:`VENTURES`), ``<prize>`` a thing one wins (:data:`PRIZES`).
An ``<own>`` idiom also reads at a sentence's start without it ("Life ended in 2020."). The order is the
precedence: a longer idiom of an event comes before a shorter one it holds ("passed away" before "passed").

General English only: no name or value of any evaluation item.
"""

from __future__ import annotations

from dataclasses import dataclass

from vocabulary.english import RETIREMENT_GEAR

# The events, and the words a page says each with near its year or place (the first is the role word; read by
# the value roles, scoring/roles.py, which also take "birth" for born and "death" for died).
EVENT_WORDS: dict[str, tuple[str, ...]] = {
    "born": ("born",),
    "died": ("died",),
    "retired": ("retired", "retirement"),
    "married": ("married",),
    "doctorate": ("doctorate", "phd"),
    "founded": ("founded", "established", "set", "started", "co-founded", "founder"),
    "moved": ("moved", "relocated", "emigrated", "settled", "move"),
    "debut": ("debut", "first", "released"),
    "won": ("won", "received", "awarded", "claimed"),
    "graduated": ("graduated", "graduating", "graduation", "degree", "diploma"),
    "resigned": ("resigned", "resignation", "retired", "retirement", "stepped", "left"),
}

# What one founds ("set up his own practice", "started her own label").
VENTURES = frozenset(
    "firm practice business company studio shop workshop label school charity foundation band club agency "
    "consultancy restaurant gallery press magazine publisher newspaper journal orchestra ensemble theatre "
    "clinic hospital bakery brewery winery startup venture academy institute gym salon cafe pub nursery".split()
)
# What one wins ("took the gold", "scooped the prize").
PRIZES = frozenset(
    "gold silver bronze title crown prize award medal trophy championship cup pennant belt jackpot".split()
)


@dataclass(frozen=True)
class LifeIdiom:
    """An idiom of a life's event: the ``event``, the ``idiom`` (see the module's notation), the ``plain``
    wordings a page writes for it, first the default, and its guards."""

    event: str
    idiom: str
    plain: tuple[str, ...]
    subject: bool = False
    value: bool = False
    pages: bool = False


_BORN = ("was born",)
_DIED = ("died",)
_RETIRED = ("retired",)
_DOCTORATE = (
    "received a doctorate",
    "received a PhD",
    "received her doctorate",
    "received his doctorate",
    "received her PhD",
    "received his PhD",
    "completed a doctorate",
    "completed a PhD",
    "earned a doctorate",
    "earned a PhD",
    "obtained a doctorate",
    "obtained a PhD",
    "was awarded a doctorate",
    "was awarded a PhD",
)
_FOUNDED = ("founded", "established", "set up", "started", "co-founded")
_MOVED = ("moved to", "relocated to", "emigrated to", "settled in")
_DEBUT = ("debut album", "first album", "debut record", "first record", "debut LP", "first LP")
_WON = ("won", "received", "was awarded", "claimed")

_GRADUATED = ("graduated",)
_DEBUTED = ("made a debut", "made her debut", "made his debut", "debuted")
_RESIGNED = ("resigned as", "retired as")

LIFE_IDIOMS: tuple[LifeIdiom, ...] = (
    # born
    LifeIdiom("born", "<own> (life|journey|story) (began|begins|started|starts)", _BORN, value=True),
    LifeIdiom("born", "having (first )?(seen|glimpsed) the light of day", _BORN, subject=True),
    LifeIdiom("born", "(first )?(saw|glimpsed) the light of day", _BORN, subject=True),
    LifeIdiom("born", "(came|arrived|entered) (into|in) (the|this) world", _BORN, pages=True),
    LifeIdiom("born", "(came|arrived) into being", _BORN, subject=True, value=True),
    LifeIdiom("born", "(is|was) a native of", ("was born in",), subject=True),
    # died
    LifeIdiom("died", "(passed|passes|passing) away", _DIED, pages=True),
    LifeIdiom("died", "(passed|passes) on", _DIED, subject=True, value=True),
    LifeIdiom("died", "passed", _DIED, subject=True, value=True),
    LifeIdiom("died", "left us", _DIED, subject=True, value=True),
    LifeIdiom("died", "left this world", _DIED, subject=True),
    LifeIdiom("died", "departed this life", _DIED, subject=True, pages=True),
    LifeIdiom("died", "breathed <poss> last", _DIED, subject=True, pages=True),
    LifeIdiom("died", "drew <poss> last breath", _DIED, subject=True, pages=True),
    LifeIdiom("died", "lost <poss> life", _DIED, subject=True),
    LifeIdiom("died", "met <poss> (end|death)", _DIED, subject=True),
    LifeIdiom("died", "<own> life (ended|came to an end|came to a close)", _DIED, value=True),
    # retired
    LifeIdiom("retired", "(hung|hangs|hang|hanging) up (his|her|their|the) <gear>", _RETIRED, pages=True),
    LifeIdiom("retired", "called time on <poss> ((playing|racing|riding|sporting|competitive) )?career", _RETIRED),
    LifeIdiom("retired", "called it a day", _RETIRED, subject=True),
    LifeIdiom(
        "retired", "(stepped|walked) away from (competition|competitive \\w+|the sport|the game|racing)", ("retired",)
    ),
    LifeIdiom("retired", "bowed out of (competition|competitive \\w+|the sport|the game|racing)", _RETIRED),
    # married
    LifeIdiom("married", "tied the knot with", ("married",), pages=True),
    LifeIdiom("married", "tied the knot", ("married",), subject=True, pages=True),
    LifeIdiom("married", "walked down the aisle with", ("married",), pages=True),
    LifeIdiom("married", "got hitched to", ("married",)),
    LifeIdiom("married", "shares <poss> life with", ("is married to",)),
    LifeIdiom("married", "shares life with", ("is married to",)),
    LifeIdiom("married", "shared <poss> life with", ("was married to",)),
    LifeIdiom("married", "shared life with", ("was married to",)),
    # doctorate
    LifeIdiom(
        "doctorate",
        "(earned|gained|obtained|completed|got|took|finished|received|was awarded) (a|an|<poss>|the) "
        "(doctorate|PhD|Ph\\.D\\.|DPhil|D\\.Phil\\.|doctoral degree)",
        _DOCTORATE,
    ),
    # founded
    LifeIdiom(
        "founded", "(set up|started up|started|launched|established)(?= (<poss> own|a|an) (\\w+ )?<venture>)", _FOUNDED
    ),
    # moved
    LifeIdiom("moved", "(upped|up) sticks (and moved |and went )?(to|for)", _MOVED),
    LifeIdiom("moved", "pulled up stakes (and moved |and went )?(to|for)", _MOVED),
    LifeIdiom("moved", "(relocated|decamped) to", _MOVED),
    LifeIdiom("moved", "made the move to", _MOVED),
    LifeIdiom("moved", "(upped|up) sticks", ("moved",)),
    # debut: a first record and its release
    LifeIdiom("debut", "(first|debut|maiden) (long[- ]player|LP|full[- ]length( record| album)?|record)", _DEBUT),
    LifeIdiom("debut", "(put out|brought out)(?= (by|on|through|via) )", ("released",)),
    LifeIdiom("debut", "(?<=\\w )imprint", ("label",)),
    LifeIdiom("debut", "first lined up", _DEBUTED, subject=True, value=True),
    LifeIdiom(
        "debut",
        "(took|take|takes) (the|to the) (field|ice|court|pitch|track) for the first time",
        _DEBUTED,
        subject=True,
        value=True,
    ),
    # graduated
    LifeIdiom("graduated", "left (with )?<poss> (diploma|degree) in hand", _GRADUATED, subject=True),
    LifeIdiom("graduated", "(came|walked) away with (a|<poss>) (diploma|degree)", _GRADUATED, subject=True),
    LifeIdiom("graduated", "collected <poss> (diploma|degree)", _GRADUATED, subject=True),
    # resigned
    LifeIdiom("resigned", "stepped down as", _RESIGNED, subject=True),
    # won
    LifeIdiom(
        "won",
        "(took|take|takes|taking|scooped|bagged|carried off|walked away with|clinched|captured|scooped up)"
        "(?=( home)? (the|a|an|<poss>) (\\w+ ){0,3}<prize>)",
        _WON,
    ),
)
"""The lexicon, in its order of precedence (scoring/idioms.py reads it)."""


def notation(idiom: LifeIdiom) -> dict[str, str]:
    """The words each placeholder of the notation stands for, as alternatives."""
    return {
        "<poss>": "(?:his|her|their)",
        "<gear>": "(?:" + "|".join(sorted(RETIREMENT_GEAR)) + ")",
        "<venture>": "(?:" + "|".join(sorted(VENTURES)) + r")s?\b",
        "<prize>": "(?:" + "|".join(sorted(PRIZES)) + r")s?\b",
    }
