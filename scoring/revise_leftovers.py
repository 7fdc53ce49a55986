"""What a deletion leaves behind that goes with it: a dash's aside that says nothing checked once its claim went, a
noun whose relative clause went, and talk left alone on a line whose checked sentences all went.

Revision (:mod:`scoring.revise`) deletes the words of the claims the pages do not support. Two kinds of words the
claims leave behind read wrong without them:

- an aside set off by a dash whose claim went keeps its other words, which comment on nothing ("… read proofs for the
  Sussex Clarion — a training in exactness that no university could have given her, and indeed she never went near
  one" less its last claim ends on "given her"); the aside goes whole, its dash with it, where no fact the revision
  keeps stands in it and one does before it (``asides-go``);
- a noun set beside the clause by a comma keeps nothing to say once its relative clause went ("…, in a Lowell
  cotton mill, an experience that shaped her later advocacy" less the shaping ends on "an experience."): it goes
  with its comma (``appositions-go``);
- talk on a line whose checked sentences all went is left addressing nothing ("3.6 is written as the applicants'
  view; don't present it as a fact about her." less its first sentence; "**Mod note:** merged this thread. Please
  search before posting!" less the merging); such a line goes whole (``talk-left-goes``).
"""

from __future__ import annotations

import bisect
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from scoring.rules import rule

if TYPE_CHECKING:
    from spacy.tokens import Doc

ASIDES_GO = rule(
    "asides-go",
    "revise",
    "an aside set off by a dash ('… for the Sussex Clarion — a training in exactness no university gave her, and she "
    "never went near one') whose claim went and where no fact the revision keeps stands goes whole with its dash, not "
    "left commenting on nothing ('… — a training in exactness no university gave her.')",
)
TALK_LEFT_GOES = rule(
    "talk-left-goes",
    "revise",
    "talk left alone on a line whose checked sentences all went goes with them ('3.6 is the applicants' view; don't "
    "present it as a fact about her.' less its first sentence; '**Mod note:** merged this. Please search first!')",
)

APPOSITIONS_GO = rule(
    "appositions-go",
    "revise",
    "a noun set beside the clause by a comma whose relative clause went ('…, in a Lowell cotton mill, an experience "
    "[that shaped her later advocacy]', '…, a decision [that changed his career]') goes with it, not left as '…, an "
    "experience.'; one its clause keeps, or where a kept fact stands, stays",
)

_DASHES = frozenset({"—", "–", "--"})


def appositions_go(doc: Doc, remove: set[int], stated: Collection[int]) -> None:
    """Add to ``remove`` each noun set beside the clause (an apposition, "…, an experience that shaped her …") whose
    relative clause went whole, with the comma before it, where no kept fact's token (``stated``) stands in it."""
    for noun in doc:
        if noun.i in remove or noun.dep_ not in ("appos", "npadvmod") or noun.pos_ not in ("NOUN", "PROPN"):
            continue
        clauses = [c for c in noun.children if c.dep_ == "relcl"]
        if not clauses or not all(t.i in remove for c in clauses for t in c.subtree if not t.is_punct):
            continue
        words = [t.i for t in noun.subtree]
        if any(i in stated for i in words):
            continue
        remove.update(words)
        before = noun.left_edge.i - 1
        if before >= 0 and doc[before].text == ",":
            remove.add(before)


def asides_go(doc: Doc, remove: set[int], stated: Collection[int]) -> None:
    """Add to ``remove`` each aside of ``doc`` set off by a dash (to the closing dash, or to the sentence's end) that
    lost words while none of the kept facts' tokens (``stated``) stands in it and one stands before it."""
    dashes = [t.i for t in doc if t.text in _DASHES]
    k = 0
    while k < len(dashes):
        opening = dashes[k]
        closing = dashes[k + 1] if k + 1 < len(dashes) else None
        end = closing if closing is not None else len(doc)
        words = [t.i for t in doc[opening + 1 : end] if not t.is_punct and not t.is_space]
        went = any(i in remove for i in words)
        kept = [i for i in words if i not in remove]
        before = any(i in stated and i not in remove for i in range(opening))
        if went and kept and before and not any(i in stated for i in words):
            last = closing + 1 if closing is not None else _before_final(doc)
            remove.update(range(opening, last))
        k += 2


def _before_final(doc: Doc) -> int:
    """Where the sentence's final punctuation starts (its end without one)."""
    end = len(doc)
    while end > 0 and doc[end - 1].is_punct and doc[end - 1].text not in _DASHES and doc[end - 1].text not in ")]”\"'":
        end -= 1
    return end


def talk_left_goes(
    sentences: list[str | None],
    lines: Sequence[int],
    went: Collection[int],
    checked: Collection[int],
) -> None:
    """Set to None the talk left on a line (``lines``: each sentence's line) whose sentences that went (``went``) took
    all its checked sentences (``checked``: those with a check-worthy fact): what is left there says nothing of them."""
    on_line: dict[int, list[int]] = {}
    for i, line in enumerate(lines):
        on_line.setdefault(line, []).append(i)
    for members in on_line.values():
        if not any(i in went for i in members):
            continue
        if any(sentences[i] is not None and i in checked for i in members):
            continue  # a checked sentence stays: the line still says something
        for i in members:
            sentences[i] = None


def sentence_lines(answer: str | None, maps: Sequence[Sequence[int]] | None, paragraphs: Sequence[int]) -> list[int]:
    """The line of the answer each sentence starts on (``maps``: where its characters stand); without them, its
    paragraph."""
    if answer is None or maps is None:
        return list(paragraphs)
    starts = [0] + [k + 1 for k, ch in enumerate(answer) if ch == "\n"]
    out: list[int] = []
    for offsets in maps:
        found = next((o for o in offsets if o >= 0), None)
        # a sentence the answer does not hold is a line of its own
        out.append(bisect.bisect_right(starts, found) - 1 if found is not None else -1 - len(out))
    return out
