"""Given names and their familiar forms, as linking compares names ("Bill Hale" may be the store's "William
Hale"; "Ilse Rautenbach" is not its "Thandiwe Rautenbach").

>>> "william" in NICKNAMES["bill"], "robert" in NICKNAMES["bob"]
(True, True)
"""

from __future__ import annotations

# A familiar form and the given names it stands for (either way round is looked up).
_FORMS: dict[str, str] = {
    "bill billy will willy willie": "william",
    "billie mina minnie willa": "wilhelmina",
    "bob bobby rob robbie bert": "robert",
    "dick rick ricky rich richie": "richard",
    "peggy maggie meg madge": "margaret",
    "kate katie kathy kit": "katherine catherine kathleen",
    "liz lizzie beth betty bess bessie libby eliza": "elizabeth",
    "jim jimmy jamie": "james",
    "jack johnny jon": "john jonathan",
    "ted teddy ned ed eddie": "edward theodore edmund",
    "tom tommy": "thomas",
    "tony": "anthony antonio",
    "sandy alex sasha": "alexander alexandra",
    "chuck charlie chas": "charles",
    "harry hal": "henry harold",
    "hank": "henry",
    "larry": "lawrence laurence",
    "sally sadie": "sarah",
    "molly polly mamie": "mary",
    "nancy annie nan": "anne ann anna",
    "jenny jen": "jennifer",
    "dave davy": "david",
    "mike mick mickey": "michael",
    "nick nicky": "nicholas",
    "steve": "stephen steven",
    "sam sammy": "samuel samantha",
    "ben benny": "benjamin",
    "joe joey": "joseph",
    "jo": "josephine joanna",
    "greg": "gregory",
    "fred freddie freddy": "frederick alfred",
    "walt wally": "walter",
    "andy drew": "andrew",
    "pat patty": "patrick patricia",
    "sue susie": "susan susanna",
    "chris": "christopher christine christina",
    "matt": "matthew",
    "dan danny": "daniel",
    "tim": "timothy",
    "pete": "peter",
    "gus": "augustus augustin august",
}

NICKNAMES: dict[str, frozenset[str]] = {}
for _forms, _names in _FORMS.items():
    for _form in _forms.split():
        NICKNAMES[_form] = NICKNAMES.get(_form, frozenset()) | frozenset(_names.split())


def familiar_form(x: str, y: str) -> bool:
    """Whether one lower-case given name is a known familiar form of the other ("bill" and "william", either way).

    >>> familiar_form("william", "bill"), familiar_form("bill", "bob")
    (True, False)
    """
    return y in NICKNAMES.get(x, ()) or x in NICKNAMES.get(y, ())
