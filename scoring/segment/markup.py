"""An answer written as HTML (a model asked for "the bio as HTML for our web page"), read as the markdown it stands
for: paragraphs, headings, list items (nested), bold and italics; other tags gone, entities decoded.

Read as text, the tags stayed in the facts ("Nadia Ferreira-Holt</strong> was born in Porto") and a list's items ran
together into one sentence ("<ul> <li>Law degree …</li> <li>Immigration lawyer …</li>"). The reading asks for two
HTML tags or more, each opened and closed (or a line break), in the prose or in an ``html`` fence; prose that names a
tag ("use the <p> tag") or holds a stray angle bracket stays.

>>> print(html_markup("<p><strong>Ada</strong> was a potter.</p>\\n<ul><li>born 1951</li><li>died 2011</li></ul>"))
**Ada** was a potter.
<BLANKLINE>
- born 1951
- died 2011
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from scoring.segment.lines import FENCE as _FENCE

# Tags that part blocks, and the markdown each inline tag stands for.
_BLOCKS = frozenset("p div section article header footer main aside figure figcaption address dl dt dd".split())
_HEADINGS = {f"h{n}": "#" * n for n in range(1, 7)}
_LISTS = frozenset(("ul", "ol"))
_INLINE = {"strong": "**", "b": "**", "em": "*", "i": "*"}
# Tags whose text is no part of what the page says.
_HIDDEN = frozenset(("script", "style", "head", "title"))
# HTML's own tags: an answer's markup is HTML when its tags are these.
_KNOWN = _BLOCKS | _HEADINGS.keys() | _LISTS | _INLINE.keys() | {"li", "br", "a", "span", "blockquote", "html", "body"}
_TAG = re.compile(r"</?(?P<name>[a-zA-Z][a-zA-Z0-9]*)(?:\s[^<>]*)?/?>")
_LEAST_TAGS = 2
_ITEM = re.compile(r"^\s*(?:[-*>]|\d+\.)\s")


class _Markdown(HTMLParser):
    """One pass over the markup, writing markdown."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.lists: list[list[int | str]] = []  # each open list: its kind and the number of its next item
        self.hidden = 0

    def _break(self, blank: bool = True) -> None:
        self.out.append("\n\n" if blank else "\n")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self.hidden += 1
        elif tag in _BLOCKS or tag == "blockquote":
            self._break(blank=not self.lists)
            if tag == "blockquote":
                self.out.append("> ")
        elif tag in _HEADINGS:
            self._break()
            self.out.append(_HEADINGS[tag] + " ")
        elif tag in _LISTS:
            self._break(blank=not self.lists)
            self.lists.append([tag, 1])
        elif tag == "li":
            kind, number = self.lists[-1] if self.lists else ("ul", 1)
            # nested under each open list by the width of its marker ("- " or "1. ")
            indent = "".join("   " if outer == "ol" else "  " for outer, _ in self.lists[:-1])
            if not "".join(self.out[-2:]).endswith("\n"):
                self._break(blank=False)
            self.out.append(indent + (f"{number}. " if kind == "ol" else "- "))
            if self.lists:
                self.lists[-1][1] = int(number) + 1
        elif tag == "br":
            self._break(blank=False)
        elif tag in _INLINE:
            self.out.append(_INLINE[tag])

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self.hidden = max(self.hidden - 1, 0)
        elif tag in _BLOCKS or tag in _HEADINGS or tag == "blockquote":
            self._break(blank=not self.lists)
        elif tag in _LISTS:
            if self.lists:
                self.lists.pop()
            self._break(blank=not self.lists)
        elif tag in _INLINE:
            self.out.append(_INLINE[tag])

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.out.append(re.sub(r"\s+", " ", data))

    def markdown(self) -> str:
        text = "".join(self.out)
        # a list item keeps the indent that nests it; other lines lose the spaces the markup left around them
        lines = [line.rstrip() if _ITEM.match(line) else line.strip() for line in text.split("\n")]
        text = "\n".join(line if line.strip() else "" for line in lines)
        text = re.sub(r"\*\*\s+\*\*|\*\*\*\*", "", text)
        return re.sub(r"\n{3,}", "\n\n", text).strip("\n")


def _markup(text: str) -> bool:
    """Whether ``text`` is written in HTML: two of HTML's tags or more, each opened and closed (or a line break), one
    of them a block's (a paragraph, a list, a heading), and no markdown table beside them."""
    opened = {m.group("name").lower() for m in _TAG.finditer(text) if not m.group().startswith("</")}
    closed = {m.group("name").lower() for m in _TAG.finditer(text) if m.group().startswith("</")}
    paired = (opened & closed & _KNOWN) | ({"br"} & opened)
    # a block of HTML's, not a markdown answer with inline tags ("<b>Born</b>", a table cell's "1990<br>1995"),
    # whose tables and lists the reading would run together
    blocks = paired & (_BLOCKS | _HEADINGS.keys() | _LISTS | {"li", "blockquote"})
    markdown_table = any(line.lstrip().startswith("|") for line in text.split("\n"))
    return len(paired) >= _LEAST_TAGS and bool(blocks) and not markdown_table


def _read(code: str) -> str:
    parser = _Markdown()
    parser.feed(code)
    parser.close()
    return parser.markdown()


def html_markup(text: str) -> str | None:
    """``text`` with its HTML (the answer's prose, or an ``html`` fence) as markdown; None when it holds none."""
    changed = False
    out: list[str] = []
    k = 0
    for m in _FENCE.finditer(text):
        out.append(text[k : m.start()])
        if m.group("info").lower() in ("html", "htm") and _markup(m.group("code")):
            out.append(_read(m.group("code")))
            changed = True
        else:
            out.append(m.group())
        k = m.end()
    out.append(text[k:])
    if _markup("".join(out[::2])):  # the parts outside fences: every other part, from the first
        out = [_read(part) if i % 2 == 0 and _TAG.search(part) else part for i, part in enumerate(out)]
        changed = True
    return "".join(out) if changed else None
