"""What a record's label says of its person: the predicate its value completes ("Born: 1912" → "was born in 1912").

Labels are matched folded to lower case, without a trailing colon or plural "s". Read by ``scoring.records`` (a
record as a sentence) and ``scoring.segment.tables`` (which cells of a table keep their header as a label).
"""

from __future__ import annotations

RECORD_PREDICATES: dict[str, str] = {
    **dict.fromkeys(("born", "birth", "date of birth", "place of birth", "birthplace"), "was born"),
    **dict.fromkeys(("died", "death", "date of death", "place of death"), "died"),
    **dict.fromkeys(("occupation", "profession", "career", "role", "current role", "position", "job"), "was"),
    **dict.fromkeys(("nationality", "citizenship"), "was"),
    **dict.fromkeys(("known for", "famous for", "best known for"), "is known for"),
    **dict.fromkeys(
        ("education", "alma mater", "studied", "college", "university", "school", "training", "trained"), "studied at"
    ),
    **dict.fromkeys(("phd", "doctorate", "degree", "ba", "ma", "msc", "bsc", "mba", "md"), "received a {label} from"),
    **dict.fromkeys(("spouse", "married", "partner", "wife", "husband"), "was married to"),
    **dict.fromkeys(("children",), "had"),
    **dict.fromkeys(
        ("award", "awards", "honour", "honor", "honours", "honors", "prize", "prizes", "title", "national title"),
        "won",
    ),
    **dict.fromkeys(
        (
            "notable work",
            "work",
            "book",
            "novel",
            "memoir",
            "publication",
            "album",
            "selected work",
            "textbook",
            "monograph",
        ),
        "wrote",
    ),
    **dict.fromkeys(("film", "films", "movie", "movies", "filmography"), "made"),
    **dict.fromkeys(("team", "club", "teams", "clubs"), "played for"),
    **dict.fromkeys(("employer", "institution", "post", "posts", "hospital", "teaching", "affiliation"), "worked at"),
    **dict.fromkeys(("ensemble", "band", "group"), "played with"),
    **dict.fromkeys(("hometown", "origin", "from"), "came from"),
    **dict.fromkeys(("nickname", "also known as", "alias"), "was known as"),
    **dict.fromkeys(("field", "discipline", "specialty", "speciality"), "worked in"),
}
