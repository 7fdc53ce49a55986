"""Forms of one word a fact and a page may write differently: a plural ("Olympic" / "Olympics"), a place and its
people or adjective ("Africa" / "African", "Italy" / "Italian", "Japan" / "Japanese", "Norway" / "Norwegian"), a
field and who works in it ("organ" / "organist"). Verification compares words by :func:`word_keys`: two words are
forms of one when their keys meet.

>>> sorted(word_keys("african") & word_keys("africa"))
['afric', 'africa']
>>> bool(word_keys("norwegian") & word_keys("norway")), bool(word_keys("glaswegian") & word_keys("glasgow"))
(True, True)
>>> bool(word_keys("italian") & word_keys("italy")), bool(word_keys("japanese") & word_keys("japan"))
(True, True)
>>> bool(word_keys("organ") & word_keys("organist")), bool(word_keys("olympic") & word_keys("olympics"))
(True, True)
>>> bool(word_keys("orange") & word_keys("organ")), bool(word_keys("austria") & word_keys("australia"))
(False, False)
>>> bool(word_keys("seconds") & word_keys("second"))
False
"""

from __future__ import annotations

from functools import lru_cache

# Endings that make a word another form of the same stem: plurals, people of a place ("-an", "-ian", "-ese", "-i"),
# a practitioner of a field ("-ist"). Longest first.
_SUFFIXES = ("ians", "ists", "ans", "ian", "ese", "ist", "es", "an", "s", "n", "i")
# A stem shorter than this is no stem ("man" is no form of "ma").
_MIN_STEM = 4
_VOWELS = "aeiouy"

# Places whose people or adjective no ending gives ("Norway" / "Norwegian", "the Netherlands" / "Dutch"): the
# adjective or people noun, folded, and the place.
IRREGULAR_FORMS: dict[str, str] = {
    "norwegian": "norway",
    "norwegians": "norway",
    "dutch": "netherlands",
    "hollander": "netherlands",
    "danish": "denmark",
    "dane": "denmark",
    "danes": "denmark",
    "swedish": "sweden",
    "swede": "sweden",
    "finnish": "finland",
    "finn": "finland",
    "icelandic": "iceland",
    "british": "britain",
    "briton": "britain",
    "english": "england",
    "scottish": "scotland",
    "scots": "scotland",
    "welsh": "wales",
    "irish": "ireland",
    "french": "france",
    "spanish": "spain",
    "spaniard": "spain",
    "portuguese": "portugal",
    "polish": "poland",
    "pole": "poland",
    "turkish": "turkey",
    "greek": "greece",
    "swiss": "switzerland",
    "thai": "thailand",
    "czech": "czechia",
    "flemish": "flanders",
    "basque": "basque",
    "filipino": "philippines",
    "filipina": "philippines",
    "argentine": "argentina",
    "peruvian": "peru",
    "malagasy": "madagascar",
    "uzbek": "uzbekistan",
    "kazakh": "kazakhstan",
    "afghan": "afghanistan",
    "kyrgyz": "kyrgyzstan",
    "tajik": "tajikistan",
    "glaswegian": "glasgow",
    "mancunian": "manchester",
    "liverpudlian": "liverpool",
    "londoner": "london",
    "parisian": "paris",
    "viennese": "vienna",
    "venetian": "venice",
    "neapolitan": "naples",
    "muscovite": "moscow",
}


# Words whose plural or other form is another word ("second" is an ordinal, "seconds" a unit of time; "minute" is
# tiny, "minutes" are time): their own key only.
FORMS_APART = frozenset(
    "second seconds minute minutes arms goods customs glasses letters manners spirits terms quarters premises "
    "grounds spectacles damages savings".split()
)


def _trimmed(stem: str) -> str:
    """``stem`` without its last vowels, where what is left is still a stem: "africa" → "afric", "russia" → "russ"."""
    while len(stem) > _MIN_STEM and stem[-1] in _VOWELS:
        stem = stem[:-1]
    return stem


# The endings of a place's people or adjective alone (``place_keys``).
_PLACE_SUFFIXES = ("ians", "ans", "ian", "ese", "an", "n", "i")


def place_keys(word: str) -> frozenset[str]:
    """:func:`word_keys` with a place's people or adjective as its only other forms ("Russian" / "Russia"), not a
    plural or a field's worker: what a word shared with a page may be where any shared word lets the stance model
    judge ("Irish immigrants" shares nothing with "Italian immigrant parents").

    >>> bool(place_keys("russian") & place_keys("russia")), bool(place_keys("immigrants") & place_keys("immigrant"))
    (True, False)
    """
    return word_keys(word, _PLACE_SUFFIXES)


@lru_cache(maxsize=65536)
def word_keys(word: str, suffixes: tuple[str, ...] = _SUFFIXES) -> frozenset[str]:
    """The keys of a folded word (lower case, ASCII): itself, its place where it is an irregular adjective, and its
    stems less an ending of ``suffixes`` and less final vowels. Words of fewer than five letters are their own
    key only (a short word's ending is no ending)."""
    keys = {word}
    if word in FORMS_APART:
        return frozenset(keys)
    place = IRREGULAR_FORMS.get(word)
    if place is not None:
        keys |= {place, _trimmed(place)}
    if len(word) <= _MIN_STEM or not word.isalpha():
        return frozenset(keys)
    keys.add(_trimmed(word))
    for suffix in suffixes:
        if word.endswith(suffix) and len(word) - len(suffix) >= _MIN_STEM:
            stem = word[: -len(suffix)]
            keys |= {stem, _trimmed(stem)}
    return frozenset(keys)
