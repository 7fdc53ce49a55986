"""The review page of one verdict: ``GET /v1/results/{id}/view``.

Server-rendered HTML with its style inline and no script: it works offline and under a strict
content security policy. A reviewer sees the scores, the answer as the checker read it (each sentence
marked by the verdicts of its facts), the facts grouped by the individual a reader would think they
describe with the entity each group was linked to, every fact's evidence on click (``<details>``),
and the suggested revision as a word diff against the answer.
"""

from __future__ import annotations

import difflib
import html
from collections import defaultdict

from schemas.check import CheckResult, FactGroup, FactResult
from schemas.messages import ResultMessage

CSS = """
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
main{max-width:980px;margin:0 auto;padding:24px}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:28px 0 8px}h3{font-size:15px;margin:0 0 8px}
.meta{color:#5b6474;font-size:13px}
.scores{display:flex;gap:12px;flex-wrap:wrap;margin:16px 0}
.score{background:#fff;border:1px solid #dde1e7;border-radius:8px;padding:8px 14px;min-width:120px}
.score b{display:block;font-size:20px}
.badge{display:inline-block;border-radius:10px;padding:1px 9px;font-size:12px;font-weight:600}
.badge.conflated{background:#fde2e1;color:#a1231b}.badge.checked{background:#e2f4e7;color:#17603a}
.badge.unverifiable,.badge.partial{background:#fff2cc;color:#7a5a00}.badge.abstained{background:#e8eaef}
.answer,.group,.revision{background:#fff;border:1px solid #dde1e7;border-radius:8px;padding:14px 16px}
.s{border-radius:3px;padding:1px 2px}
.v-supported{background:#dff3e4}.v-not_supported{background:#fbdcda}.v-mixed{background:#fdf0c4}
.v-irrelevant,.v-none{background:transparent}
.group{margin-bottom:12px}.group.conflated{border-color:#e8a29c}
details.fact{margin:4px 0;padding:4px 8px;border-radius:6px}
details.fact summary{cursor:pointer}
.evidence{margin:6px 0 4px 18px;font-size:13px}.evidence li{margin-bottom:6px}
.tag{font-size:11px;color:#5b6474;margin-left:6px}
del{background:#fbdcda;text-decoration:line-through}ins{background:#dff3e4;text-decoration:none}
"""


def render(result: ResultMessage) -> str:
    check = result.check
    title = f"factsentry verdict {result.request_id}"
    body = [
        f"<h1>{_e(title)}</h1>",
        f'<p class="meta">model <b>{_e(result.model)}</b> · engine {_e(check.engine)} · scored '
        f"{_e(result.scored_at.isoformat(timespec='seconds'))} · {result.scoring_ms:.0f} ms"
        + (f" · tenant {_e(result.tenant)}" if result.tenant else "")
        + (f" · replay run {_e(result.run)}" if result.run else "")
        + "</p>",
        _scores(check),
        "<h2>Answer as checked</h2>",
        _answer(check),
        f"<h2>Facts by individual ({len(check.groups)})</h2>",
        *(_group(i, g) for i, g in enumerate(check.groups)),
        _revision(check),
    ]
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)}</title><style>{CSS}</style></head>"
        f'<body><main id="review">{"".join(body)}</main></body></html>'
    )


def _scores(check: CheckResult) -> str:
    conflated = sum(g.conflated for g in check.groups)
    badges = [f'<span class="badge {check.status}" id="status">{check.status}</span>']
    if conflated:
        badges.append(f'<span class="badge conflated" id="conflated">conflated: {conflated} group(s)</span>')
    if check.partial:
        badges.append(f'<span class="badge partial">partial: first {check.checked_chars} characters</span>')
    cells = [
        ("FActScore", "factscore", _pct(check.factscore)),
        ("D-FActScore", "dfactscore", _pct(check.dfactscore)),
        ("coverage", "coverage", _pct(check.coverage)),
        ("facts", "facts", str(check.num_facts)),
        ("entities", "entities", str(check.num_entities)),
    ]
    scores = "".join(f'<div class="score" id="score-{key}">{label}<b>{value}</b></div>' for label, key, value in cells)
    return f'<p>{" ".join(badges)}</p><div class="scores">{scores}</div>'


def _verdict(fact: FactResult) -> str:
    return (fact.verdict_linked or fact.verdict).value


def _answer(check: CheckResult) -> str:
    if not check.sentences:
        return '<div class="answer"><p class="meta">This engine does not keep the sentences it read.</p></div>'
    by_sentence: dict[int, set[str]] = defaultdict(set)
    for group in check.groups:
        for fact in group.facts:
            by_sentence[fact.sentence_index].add(_verdict(fact))
    spans = []
    for i, sentence in enumerate(check.sentences):
        verdicts = by_sentence.get(i, set()) - {"irrelevant"}
        cls = "none" if not verdicts else verdicts.pop() if len(verdicts) == 1 else "mixed"
        spans.append(f'<span class="s v-{cls}" data-sentence="{i}">{_e(sentence)}</span>')
    return f'<div class="answer" id="answer">{" ".join(spans)}</div>'


def _group(index: int, group: FactGroup) -> str:
    """One perceived individual: the entity it was linked to, and every other entity whose page alone
    supports some of its facts (a conflated group: the answer merged them into one person)."""
    who = group.mention or "(unnamed)"
    others = sorted({t for f in group.facts for t in f.entity_supporting} - {group.entity or ""})
    if group.entity:
        linked = f'<span class="entity linked">{_e(group.entity)}</span>'
    else:
        linked = '<span class="meta">no entity</span>'
    if others:
        linked += ' <span class="meta">· its facts also fit</span> '
        linked += ", ".join(f'<span class="entity other">{_e(t)}</span>' for t in others)
    flag = ' <span class="badge conflated">conflated</span>' if group.conflated else ""
    facts = "".join(_fact(f) for f in group.facts)
    cls = "group conflated" if group.conflated else "group"
    return (
        f'<section class="{cls}" data-group="{index}" data-entity="{_e(group.entity or "")}">'
        f"<h3>{_e(who)} → {linked}{flag}</h3>{facts}</section>"
    )


def _fact(fact: FactResult) -> str:
    verdict = _verdict(fact)
    evidence = "".join(
        f"<li><b>{_e(ev.title)}</b>"
        + (f'<span class="tag">{_e(ev.stance.value)}</span>' if ev.stance else "")
        + (f'<span class="tag">{ev.score:.2f}</span>' if ev.score is not None else "")
        + f"<br>{_e(ev.text)}</li>"
        for ev in fact.evidence
    )
    evidence = evidence or "<li>no passage of the store takes a stance</li>"
    decided = f'<span class="tag">decided by {_e(fact.decided_by)}</span>' if fact.decided_by else ""
    if fact.entity_supporting:
        decided += f'<span class="tag">supported by {_e(", ".join(fact.entity_supporting))}</span>'
    return (
        f'<details class="fact v-{verdict}" data-verdict="{verdict}"><summary>'
        f'<span class="tag">{verdict.replace("_", " ")}</span> {_e(fact.text)}{decided}</summary>'
        f'<ul class="evidence">{evidence}</ul></details>'
    )


def _revision(check: CheckResult) -> str:
    if check.revision is None:
        return ""
    before = " ".join(check.sentences).split()
    after = check.revision.text.split()
    out: list[str] = []
    for op, a1, a2, b1, b2 in difflib.SequenceMatcher(a=before, b=after, autojunk=False).get_opcodes():
        if op in ("delete", "replace"):
            out.append(f"<del>{_e(' '.join(before[a1:a2]))}</del>")
        if op in ("insert", "replace"):
            out.append(f"<ins>{_e(' '.join(after[b1:b2]))}</ins>")
        if op == "equal":
            out.append(_e(" ".join(before[a1:a2])))
    edits = "".join(
        f"<li>{_e(e.kind)}: {_e(e.original)}" + (f" → {_e(e.replacement)}" if e.replacement else "") + "</li>"
        for e in check.revision.edits
    )
    return (
        f'<h2>Suggested revision</h2><div class="revision" id="revision"><p>{" ".join(out)}</p>'
        + (f'<ul class="evidence">{edits}</ul>' if edits else "")
        + "</div>"
    )


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _e(text: str) -> str:
    return html.escape(text, quote=True)
