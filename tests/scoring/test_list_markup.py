"""List markup that markdown does not know: a task list's boxes ("- [x] …") and a thread's numbered posts ("1/ …")
are markup like a bullet, not words of the item."""

from __future__ import annotations

import pytest

from scoring.sentences import split_sentences


@pytest.mark.parametrize(
    ("answer", "texts"),
    [
        (
            "- [x] Humboldt Society Medal, 1984\n- [ ] Died in Valparaíso, 2012",
            ["Humboldt Society Medal, 1984", "Died in Valparaíso, 2012"],
        ),
        ("* [X] Trained as a surveyor in Madrid\n* [x] Emigrated to Chile in 1955", None),
        ("1. [✓] Won the Saga Ceramics Prize in 2012\n2. [✓] Opened Leirhuset in 2006", None),
    ],
)
def test_task_boxes_are_markup(answer: str, texts: list[str] | None) -> None:
    got = [s.text for s in split_sentences(answer)]
    assert not any(t.startswith("[") for t in got)
    assert all(s.list_item for s in split_sentences(answer))
    if texts is not None:
        assert got == texts


@pytest.mark.parametrize(
    "answer",
    [
        "1/ Who is Hiroshi Tanabe-Whitlock? A robotics engineer born in Osaka in 1974.\n"
        "2/ Studied mechanical engineering at the Kansai Institute of Technology.\n3/ In 2006 he co-founded Gripwell.",
        "1/ Ågot Lindstrøm-Hale: a glaciologist born in Ålesund in 1963\n2/ Did geophysics in Bergen.\n"
        "3/ Bergström Medal in 2011.",
        "1/ She was born in 1981.\n2/ She trained in Bergen.\n3/ She opened Leirhuset in 2006.",
    ],
)
def test_a_threads_numbers_open_items(answer: str) -> None:
    sentences = split_sentences(answer)
    assert not any(s.text[:1].isdigit() and s.text[1:2] == "/" for s in sentences)
    assert sum(s.list_item for s in sentences) == 3


@pytest.mark.parametrize(
    ("answer", "text"),
    [
        # a box that is a citation or a word in brackets, not a task's
        ("- [sic] Humboldt Society Medal, 1984", "[sic] Humboldt Society Medal, 1984"),
        ("He wrote [x] in the margin of every map.", "He wrote [x] in the margin of every map."),
        # a fraction or a rate, not a post's number
        ("The helpline runs 24/7 for members.", "The helpline runs 24/7 for members."),
    ],
)
def test_look_alikes_keep_their_words(answer: str, text: str) -> None:
    assert [s.text for s in split_sentences(answer)] == [text]
