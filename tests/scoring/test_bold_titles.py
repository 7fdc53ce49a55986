"""A paragraph all in bold on a line of its own is a title, read as a heading (scoring/segment/sections.py, rule
``bold-titles``), and revision keeps a heading as written unless a fact of it is refuted (scoring/revise.py, rule
``keep-headings``)."""

from __future__ import annotations

import pytest

from scoring.segment.document import parse
from scoring.segment.sections import BOLD_TITLES, bold_title
from scoring.sentences import split_sentences


@pytest.mark.parametrize(
    ("answer", "title"),
    [
        ("**Section 3: Historical significance of the works**\n\n3.1 She was born in Lowell.", None),
        ("**CLASS NOTES — Alumni News**\n\n---\n\nPriya writes in from Scotland.", None),
        ('**Assembly talk: "The woman who listens to caves"** *(about 5 minutes)*\n\nGood morning!', None),
        ("**A setter who deserved a place**\n\nSome of your readers may not know her.", None),
        ("__Part two: the later years__\n\nIn 1990 she moved to Oslo.", None),
    ],
)
def test_a_bold_line_of_its_own_is_a_title(answer: str, title: str | None) -> None:
    line = answer.split("\n", 1)[0].replace("*", "").replace("__", "").strip()
    assert bold_title(parse(answer), 0) == line
    first = split_sentences(answer)[0]
    assert first.text == line.rstrip(":") and first.label and first.section
    assert not split_sentences(answer, frozenset({BOLD_TITLES}))[0].section


@pytest.mark.parametrize(
    "answer",
    [
        "**She won gold at the 2004 Olympics**\n\nShe retired in 2010.",  # says a sentence
        "**She won gold in 2004.**\n\nShe retired in 2010.",  # ends a sentence
        "**Kenji Sato, potter (1951–2010)**\n\nHe was born in Mashiko.",  # presents a person: a lead
        "**Born:** 1960 in Leeds\n\nShe retired in 2010.",  # a label with its value
        "She retired in 2010.\n\n**Thanks for reading**",  # nothing after it
        "- **Education**\n- **Career**",  # list items (label-items decides those)
        "**Career** and later years\n\nShe retired.",  # words outside the bold
    ],
)
def test_a_bold_claim_lead_label_or_item_is_no_title(answer: str) -> None:
    assert bold_title(parse(answer), 0) is None


# --- revision keeps a heading -----------------------------------------------------------------------------------

PAGES = [
    ("Ona Vale", "Ona Vale (born 1931) is an Estonian chemist. She studied in Riga and won the Kask Prize in 1970.")
]
BODY = "Ona Vale is an Estonian chemist born in 1931. She studied in Riga. She won the Kask Prize in 1975."


@pytest.mark.parametrize(
    "heading",
    [
        "**Section 3: Historical significance of the subject**",
        "**CLASS NOTES — Alumni News**",
        "## Research notes for the committee",
        "**A chemist who changed the field**",
    ],
)
def test_the_revision_keeps_a_heading_as_written(heading: str) -> None:
    from knowledge.store import Store
    from scoring.pipeline import CheckConfig, check

    store = Store.in_memory(PAGES)
    answer = f"{heading}\n\n{BODY}"
    result = check(answer, kb=store, name="Ona Vale")
    assert result.revision is not None and "1975" not in result.revision.text
    assert result.revision.text.startswith(heading)
    off = check(answer, kb=store, name="Ona Vale", config=CheckConfig().without(["keep-headings", "bold-titles"]))
    assert off.revision is not None and "1975" not in off.revision.text


@pytest.mark.parametrize(
    "heading",
    [
        "## Winner of the Kask Prize, 1975",  # a heading stating a wrong value
        "**Kask Prize winner, 1975**",
        "**Winner of the Kask Prize in 1975**",
    ],
)
def test_a_heading_with_a_wrong_value_is_not_kept(heading: str) -> None:
    from knowledge.store import Store
    from scoring.pipeline import check

    store = Store.in_memory(PAGES)
    result = check(f"{heading}\n\n{BODY}", kb=store, name="Ona Vale")
    assert result.revision is not None and "1975" not in result.revision.text
