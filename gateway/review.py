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
import re
from collections import defaultdict
from functools import lru_cache
from importlib.resources import files
from typing import Any

from schemas.check import CheckResult, Evidence, FactGroup, FactResult
from schemas.enums import Stance, Verdict, Worthiness
from schemas.messages import ResultMessage

CSS = """
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
main{max-width:980px;margin:0 auto;padding:24px}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:28px 0 8px}h3{font-size:15px;margin:0 0 8px}
.meta{color:#4a5363;font-size:13px}
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
.tag{font-size:12px;color:#4a5363;margin-left:6px}
.plain{font-size:14px;font-weight:600}.how{font-size:12px;color:#4a5363;margin:2px 0 4px 18px}
.decision{background:#fff;border:1px solid #dde1e7;border-radius:8px;padding:10px 16px;margin:12px 0}
.decision dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:8px 0 0}
.decision dt{color:#4a5363}.decision dd{margin:0}
a{color:#1f4fa8}
del{background:#fbdcda;text-decoration:line-through}ins{background:#dff3e4;text-decoration:none}
"""


def render(result: ResultMessage, decision: dict[str, Any] | None = None) -> str:
    """The page of one verdict; ``decision``: what the gateway did with the answer (gateway/decisions.py)."""
    check = result.check
    title = f"factsentry verdict {result.request_id}"
    body = [
        f"<h1>{_e(title)}</h1>",
        _decision(result, decision),
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


# What the answer became, by the action recorded (gateway/decisions.py).
ACTIONS = {
    "block": "Blocked: the client got a refusal, not the answer",
    "revise": "Revised: the client got the suggested revision instead of the answer",
    "annotate": "Released with the verdict attached (annotate)",
    "pass": "Released as written",
}

# Why, by the release gate's reason (gateway/release.py, REFUSALS' keys).
REASONS = {
    "conflated": "the answer merges different people into one",
    "unsupported": "statements in it are not supported by the sources",
    "unverifiable": "the knowledge store cannot judge it (no page is about anyone it describes)",
    "partial": "only part of it was checked (it is longer than the checker reads)",
    "timeout": "no verdict arrived within the policy's timeout",
    "failed": "the check failed, so there was no verdict",
    "unavailable": "the fact-checker was unavailable, so there was no verdict",
}


def _decision(result: ResultMessage, decision: dict[str, Any] | None) -> str:
    """The action taken and what decided it: policy, threshold, the timeout's outcome, who asked what."""
    check = result.check
    rows: list[tuple[str, str, str]] = []
    if decision is None:
        head = (
            '<p id="action" data-action="none">No decision recorded: the gateway acted on nothing (a '
            "<code>/v1/factcheck</code> check or an observed answer), or the record has expired.</p>"
        )
    else:
        action = str(decision.get("action") or "")
        head = f'<p id="action" data-action="{_e(action)}"><b>{_e(ACTIONS.get(action, action))}</b></p>'
        why = _why(decision, check.dfactscore)
        if why:
            head += f'<p id="why">{why}</p>'
        rows += [
            ("policy", "Policy", _e(str(decision.get("policy", "")))),
            ("threshold", "Threshold", _num(decision.get("threshold"))),
            ("timeout", "Verdict in time", _timeout(decision)),
        ]
    rows += [
        ("model", "Model", _e(result.model)),
        ("tenant", "Tenant", _e(result.tenant) if result.tenant else "none (no API keys)"),
        ("engine", "Engine", _e(check.engine)),
        ("scored", "Scored", f"{_e(result.scored_at.isoformat(timespec='seconds'))} ({result.scoring_ms:.0f} ms)"),
    ]
    if decision is not None:
        rows.append(("decided", "Decided", _e(str(decision.get("decided_at") or ""))))
        question = decision.get("question")
        rows.append(
            (
                "question",
                "Question",
                _e(str(question))
                if question
                else '<span class="meta">not kept (the operator\'s FACTSENTRY_REVIEW_KEEP_QUESTION is off)</span>',
            )
        )
    if result.run:
        rows.append(("run", "Replay run", _e(result.run)))
    shadow = _shadow(getattr(result, "would", None))
    items = "".join(f'<dt>{label}</dt><dd id="{key}">{value}</dd>' for key, label, value in rows)
    return f'<section class="decision" id="decision" aria-label="decision">{head}<dl>{items}</dl>{shadow}</section>'


def _why(decision: dict[str, Any], dfactscore: float | None) -> str:
    reason = decision.get("reason")
    threshold = decision.get("threshold")
    score = decision.get("dfactscore", dfactscore)
    said = REASONS.get(str(reason), "") if reason else ""
    if reason in ("conflated", "unsupported") and isinstance(score, int | float) and isinstance(threshold, int | float):
        return _e(f"D-FActScore {score:.2f} is below the threshold {threshold:.2f}: {said}.")
    if said:
        return _e(said[0].upper() + said[1:] + ".")
    if decision.get("action") in ("pass", "annotate") and isinstance(score, int | float):
        if isinstance(threshold, int | float) and decision.get("policy") in ("block", "revise"):
            return _e(f"D-FActScore {score:.2f} clears the threshold {threshold:.2f}.")
    return ""


def _timeout(decision: dict[str, Any]) -> str:
    wait = decision.get("timeout_s")
    verdict = decision.get("verdict")
    waited = f"{wait:g} s" if isinstance(wait, int | float) else "the timeout"
    if verdict == "checked":
        return _e(f"yes, within {waited}")
    if verdict == "timeout":
        setting = f"on_timeout {decision.get('on_timeout')}"
    else:
        setting = f"on_unavailable {decision.get('on_unavailable')}"
    what = {
        "timeout": f"no verdict within {waited}",
        "failed": "the check failed",
        "unavailable": "checker unavailable",
    }
    done = "released unchecked" if decision.get("action") in ("pass", "annotate") else "held back"
    return _e(f"no: {what.get(str(verdict), str(verdict))}; {setting}, so the answer was {done}")


def _shadow(would: Any) -> str:
    """A shadow policy's verdict (``ResultMessage.would``: action, reason, mode, threshold), when present."""
    if would is None:
        return ""
    data = would.model_dump(mode="json") if hasattr(would, "model_dump") else would
    if not isinstance(data, dict):
        return ""
    action, mode = data.get("action"), data.get("mode")
    text = f"A {mode} policy" if mode else "The shadow policy"
    if isinstance(data.get("threshold"), int | float):
        text += f" at threshold {data['threshold']:.2f}"
    text += f" would have: {ACTIONS.get(str(action), str(action)).split(':')[0].lower()}"
    if data.get("reason"):
        text += f" ({REASONS.get(str(data['reason']), str(data['reason']))})"
    return f'<p id="would" class="meta">Shadow: {_e(text)}.</p>'


def _num(value: Any) -> str:
    return f"{value:.2f}" if isinstance(value, int | float) else "–"


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
    facts = "".join(_fact(f, group) for f in group.facts)
    cls = "group conflated" if group.conflated else "group"
    return (
        f'<section class="{cls}" data-group="{index}" data-entity="{_e(group.entity or "")}">'
        f"<h3>{_e(who)} → {linked}{flag}</h3>{facts}</section>"
    )


def _fact(fact: FactResult, group: FactGroup) -> str:
    """One fact: one plain verdict, the evidence on click, and how it was decided as a secondary detail."""
    verdict = _verdict(fact)
    evidence = "".join(
        f"<li><b>{_source(ev)}</b>"
        + (f'<span class="tag">{STANCES.get(ev.stance.value, "")}</span>' if ev.stance else "")
        + (f'<span class="tag">score {ev.score:.2f}</span>' if ev.score is not None else "")
        + f"<br>{_e(ev.text)}</li>"
        for ev in fact.evidence
    )
    evidence = evidence or "<li>no passage of the sources takes a stance</li>"
    hedged = '<span class="tag">hedged in the answer</span>' if fact.hedged else ""
    return (
        f'<details class="fact v-{verdict}" data-verdict="{verdict}"><summary>{_e(fact.text)}{hedged}'
        f'<br><span class="plain">{plain_verdict(fact, group)}</span></summary>'
        f'<ul class="evidence">{evidence}</ul>{_how(fact.decided_by)}</details>'
    )


STANCES = {"support": "supports", "partial": "partly supports", "refute": "contradicts", "irrelevant": "unrelated"}


def _source(evidence: Evidence) -> str:
    """Where a passage is from (HTML, escaped): its page, and the request's document by id when it is one of
    them (a tool message's ``tool_call_id``)."""
    return _e(evidence.title) + (f" ({_e(evidence.document)})" if evidence.document else "")


def plain_verdict(fact: FactResult, group: FactGroup) -> str:
    """The one verdict a reviewer reads (HTML, escaped): against the entity the group was linked to."""
    verdict = fact.verdict_linked or fact.verdict
    if fact.worthiness is not Worthiness.FACTUAL:
        return "not checked: not a statement of fact"
    if verdict is Verdict.SUPPORTED:
        source = group.entity or next((ev.title for ev in fact.evidence if ev.stance is Stance.SUPPORT), None)
        return f"supported by {_e(source)}" if source else "supported by the sources"
    if verdict is Verdict.NOT_SUPPORTED:
        refuting = next((ev for ev in fact.evidence if ev.stance is Stance.REFUTE), None)
        if refuting is not None:
            quote = refuting.text if len(refuting.text) <= 240 else refuting.text[:240] + "…"
            return f"contradicted by {_source(refuting)}: “{_e(quote)}”"
        others = sorted(set(fact.entity_supporting) - {group.entity or ""})
        if others and group.entity:
            return f"true of {_e(', '.join(others))}, not of {_e(group.entity)} (another person of that name)"
        return "no page says this"
    return "no page says this" if fact.evidence else "no page says this (nothing to check it against)"


def _how(decided_by: str | None) -> str:
    """How the verdict was decided, as a small secondary line; a rule links its row of scoring/RULES.md."""
    if not decided_by:
        return ""
    if decided_by == "model":
        text = "Decided by the stance model reading the passages."
    elif decided_by == "llm":
        text = "Decided by the LLM judge."
    elif decided_by in OUTCOMES:
        text = f"Decided without the model: {OUTCOMES[decided_by]}."
    else:
        summary = rule_summaries().get(decided_by)
        what = f": {_e(summary)}" if summary else ""
        link = f'<a href="../../rules#rule-{_e(decided_by)}">the rule in RULES.md</a>'
        return f'<p class="how">Decided by a written rule{what} ({link}).</p>'
    return f'<p class="how">{_e(text)}</p>'


# Verdicts no rule decided, and what they mean (scoring/RULES.md, "Outcomes that are not rules").
OUTCOMES = {"no-passages": "the page has no passage to read", "no-candidates": "no page for any name in the answer"}


@lru_cache(maxsize=1)
def _rules_text() -> str:
    try:
        return (files("scoring") / "RULES.md").read_text(encoding="utf-8")
    except OSError:
        return ""


RULE_ROW = re.compile(r"^\|\s*([a-z-]+)\s*\|\s*`([a-z0-9-]+)`\s*\|\s*(.+?)\s*\|(.*)$")


@lru_cache(maxsize=1)
def rule_rows() -> tuple[tuple[str, str, str, str], ...]:
    """(step, rule, what it does, the rest of the row) of each named rule of scoring/RULES.md."""
    rows = []
    for line in _rules_text().splitlines():
        found = RULE_ROW.match(line.strip())
        if found:
            rows.append((found[1], found[2], found[3], found[4].strip(" |")))
    return tuple(rows)


@lru_cache(maxsize=1)
def rule_summaries() -> dict[str, str]:
    """Each rule's "what it does", to its first clause, in plain words (no backticks)."""
    out = {}
    for _, name, what, _ in rule_rows():
        plain = what.replace("`", "").replace("**", "")
        first = re.split(r"(?<=[a-z)\"”]);\s|:\s(?=[a-z])", plain, maxsplit=1)[0]
        out[name] = first if len(first) <= 200 else first[:200].rsplit(" ", 1)[0] + "…"
    return out


def rules_page() -> str:
    """The named rules, one row each with an anchor (``#rule-NAME``) the review page links to."""
    rows = "".join(
        f'<tr id="rule-{_e(name)}"><td>{_e(step)}</td><th scope="row"><code>{_e(name)}</code></th>'
        f"<td>{_e(what.replace('`', ''))}</td><td>{_e(rest.replace('`', ''))}</td></tr>"
        for step, name, what, rest in rule_rows()
    )
    table = (
        '<table><thead><tr><th scope="col">step</th><th scope="col">rule</th><th scope="col">what it does</th>'
        f'<th scope="col">measured effect, tests</th></tr></thead><tbody>{rows}</tbody></table>'
        if rows
        else "<p>scoring/RULES.md is not installed with this gateway.</p>"
    )
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>factsentry rules</title>'
        f"<style>{CSS}td,th{{vertical-align:top;padding:4px 8px;text-align:left}}tr:target{{background:#fff2cc}}"
        '</style></head><body><main><h1>Named rules of the offline engine</h1><p class="meta">Where a written rule, '
        "not the stance model, decides a verdict (scoring/RULES.md).</p>"
        f"{table}</main></body></html>"
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
