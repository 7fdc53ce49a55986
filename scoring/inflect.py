"""Just enough English verb inflection to turn participles into finite verbs.

"After playing in Denmark, he joined ..." yields the fact "he played in Denmark": the participle's
lemma is put in the tense of the main clause.

>>> past("play"), past("win"), present("teach"), article("American")
('played', 'won', 'teaches', 'an')
"""

from __future__ import annotations

_IRREGULAR_PAST = {
    "be": "was",
    "become": "became",
    "begin": "began",
    "bring": "brought",
    "build": "built",
    "buy": "bought",
    "catch": "caught",
    "choose": "chose",
    "come": "came",
    "do": "did",
    "draw": "drew",
    "drive": "drove",
    "eat": "ate",
    "fall": "fell",
    "feel": "felt",
    "fight": "fought",
    "find": "found",
    "fly": "flew",
    "forget": "forgot",
    "get": "got",
    "give": "gave",
    "go": "went",
    "grow": "grew",
    "have": "had",
    "hear": "heard",
    "hold": "held",
    "keep": "kept",
    "know": "knew",
    "lead": "led",
    "leave": "left",
    "lend": "lent",
    "lose": "lost",
    "make": "made",
    "mean": "meant",
    "meet": "met",
    "pay": "paid",
    "put": "put",
    "read": "read",
    "ride": "rode",
    "rise": "rose",
    "run": "ran",
    "say": "said",
    "see": "saw",
    "sell": "sold",
    "send": "sent",
    "set": "set",
    "shoot": "shot",
    "sing": "sang",
    "sit": "sat",
    "speak": "spoke",
    "spend": "spent",
    "stand": "stood",
    "steal": "stole",
    "swim": "swam",
    "take": "took",
    "teach": "taught",
    "tell": "told",
    "think": "thought",
    "throw": "threw",
    "understand": "understood",
    "win": "won",
    "write": "wrote",
    "overtake": "overtook",
    "undertake": "undertook",
    "withdraw": "withdrew",
    "bear": "bore",
    "beat": "beat",
    "bet": "bet",
    "cut": "cut",
    "hit": "hit",
    "let": "let",
    "quit": "quit",
    "shut": "shut",
    "split": "split",
    "spread": "spread",
    "sweep": "swept",
    "wear": "wore",
    "strike": "struck",
}
_DOUBLE_FINAL = {"stop", "plan", "drop", "ship", "admit", "commit", "permit", "prefer", "refer", "star", "step"}
_VOWELS = "aeiou"


def past(lemma: str) -> str:
    """Simple past of a verb lemma."""
    word = lemma.lower()
    if word in _IRREGULAR_PAST:
        return _IRREGULAR_PAST[word]
    if word in _DOUBLE_FINAL:
        return word + word[-1] + "ed"
    if word.endswith("e"):
        return word + "d"
    if word.endswith("y") and len(word) > 1 and word[-2] not in _VOWELS:
        return word[:-1] + "ied"
    return word + "ed"


def present(lemma: str) -> str:
    """Third person singular present of a verb lemma."""
    word = lemma.lower()
    if word == "be":
        return "is"
    if word == "have":
        return "has"
    if word.endswith(("s", "sh", "ch", "x", "z", "o")):
        return word + "es"
    if word.endswith("y") and len(word) > 1 and word[-2] not in _VOWELS:
        return word[:-1] + "ies"
    return word + "s"


def article(word: str) -> str:
    """ "a" or "an" before ``word`` (by its first letter, with the usual exceptions)."""
    w = word.lower()
    if not w:
        return "a"
    if w.startswith(("uni", "use", "usu", "euro", "one", "u.s")):
        return "a"
    if w.startswith(("hour", "honest", "honor", "honour", "heir")):
        return "an"
    if len(w) == 1 or (word.isupper() and len(w) <= 4):
        return "an" if w[0] in "aefhilmnorsx" else "a"
    return "an" if w[0] in _VOWELS else "a"
