"""The review page's words (issue 33, item 1): one plain verdict per fact, how it was decided as a secondary
detail linking its RULES.md row, the decision that explains the action, and every text of an answer, a page
or a document escaped — rendered in headless Chromium, where markup in any of them must stay inert text, and
checked by axe-core for serious accessibility violations.
"""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from gateway import review
from schemas.check import CheckResult, Edit, Evidence, FactGroup, FactResult, Revision
from schemas.enums import Stance, Verdict, Worthiness
from schemas.messages import ResultMessage
from tests.gateway.review_browser import axe_violations, browser, serious  # noqa: F401  (a fixture)

# Markup a hostile answer, page or document may carry: it must reach the reader as text.
IMG = '<img src=x onerror="window.__pwned=(window.__pwned||0)+1">'
LINK = '<a href="https://evil.example/">click</a>'
HOSTILE = IMG + LINK


def fact(text: str, verdict: Verdict, *, linked: Verdict | None = None, **extra: Any) -> FactResult:
    return FactResult(text=text, verdict=verdict, verdict_linked=linked, stance=Stance.SUPPORT, **extra)


def hostile_result(**extra: Any) -> ResultMessage:
    """A verdict whose every text (answer, facts, page titles and passages, entities, revision, model, tenant)
    carries markup."""
    evidence = [Evidence(title="Page " + HOSTILE, text="The page says " + HOSTILE, stance=Stance.REFUTE, score=0.9)]
    facts = [
        fact("Supported " + HOSTILE, Verdict.SUPPORTED, linked=Verdict.SUPPORTED, decided_by="model"),
        fact("Refuted " + HOSTILE, Verdict.NOT_SUPPORTED, evidence=evidence, decided_by="contradicted-value"),
        fact(
            "Namesake " + HOSTILE,
            Verdict.SUPPORTED,
            linked=Verdict.NOT_SUPPORTED,
            entity_supporting=["Other " + HOSTILE],
            decided_by="no-shared-content",
        ),
        fact("Unknown " + HOSTILE, Verdict.NOT_SUPPORTED, decided_by="no-candidates"),
        fact("Opinion " + HOSTILE, Verdict.IRRELEVANT, worthiness=Worthiness.OPINION),
    ]
    check = CheckResult(
        groups=[FactGroup(mention="Who " + HOSTILE, entity="Entity " + HOSTILE, conflated=True, facts=facts)],
        sentences=["Answer " + HOSTILE, "Second " + HOSTILE],
        factscore=0.4,
        dfactscore=0.2,
        num_facts=5,
        num_entities=2,
        revision=Revision(
            text="Revised " + HOSTILE, edits=[Edit(kind="replace", original="x " + HOSTILE, replacement="y " + LINK)]
        ),
    )
    return ResultMessage(
        request_id="fs-hostile",
        model="model " + HOSTILE,
        check=check,
        scored_at=datetime(2026, 11, 27, 1, 0, tzinfo=UTC),
        tenant="tenant " + HOSTILE,
        **extra,
    )


DECISION = {
    "action": "block",
    "policy": "block",
    "threshold": 0.8,
    "timeout_s": 10.0,
    "on_timeout": "closed",
    "on_unavailable": "closed",
    "verdict": "checked",
    "reason": "conflated",
    "dfactscore": 0.2,
    "decided_at": "2026-11-27T01:00:01+00:00",
    "question": "Question " + HOSTILE,
}


def plain_verdicts(page: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", m) for m in re.findall(r'<span class="plain">(.*?)</span>', page)]


def test_each_fact_reads_as_one_plain_verdict_and_rule_names_are_only_a_linked_detail() -> None:
    result = hostile_result()
    page = review.render(result, DECISION)
    verdicts = plain_verdicts(page)
    assert verdicts == [
        "supported by Entity " + review._e(HOSTILE),
        "contradicted by Page " + review._e(HOSTILE) + ": “The page says " + review._e(HOSTILE) + "”",
        f"true of Other {review._e(HOSTILE)}, not of Entity {review._e(HOSTILE)} (another person of that name)",
        "no page says this",
        "not checked: not a statement of fact",
    ]
    # never a contradictory pair in one fact, and the raw vocabulary is gone from what a reviewer reads
    for row in re.findall(r"<summary>(.*?)</summary>", page):
        assert not ("not supported" in row and "supported by" in row)
        assert "not_supported" not in row and "decided by" not in row
    # a rule is a secondary line that says what it does and links its RULES.md row; the name is never the text
    hows = re.findall(r'<p class="how">(.*?)</p>', page)
    assert hows[0] == "Decided by the stance model reading the passages."
    assert hows[1].startswith("Decided by a written rule: the page never gives the fact&#x27;s year")
    assert '<a href="../../rules#rule-contradicted-value">the rule in RULES.md</a>' in hows[1]
    assert hows[2].startswith("Decided by a written rule: no passage shares a content word with the fact")
    assert hows[3] == "Decided without the model: no page for any name in the answer."
    assert ">no-shared-content<" not in page and ">contradicted-value<" not in page


def test_the_decision_explains_the_action_threshold_timeout_and_question() -> None:
    result = hostile_result()
    page = review.render(result, DECISION)
    assert 'data-action="block"' in page and "Blocked: the client got a refusal" in page
    assert "D-FActScore 0.20 is below the threshold 0.80: the answer merges different people into one." in page
    assert '<dd id="threshold">0.80</dd>' in page and '<dd id="timeout">yes, within 10 s</dd>' in page
    timed_out = {**DECISION, "action": "pass", "verdict": "timeout", "on_timeout": "open", "reason": "timeout"}
    page = review.render(result, timed_out)
    assert "no: no verdict within 10 s; on_timeout open, so the answer was released unchecked" in page
    assert "No verdict arrived within the policy&#x27;s timeout." in page
    without = review.render(result, {**DECISION, "question": None})
    assert "not kept (the operator's FACTSENTRY_REVIEW_KEEP_QUESTION is off)" in without
    nothing = review.render(result, None)
    assert 'data-action="none"' in nothing and 'id="threshold"' not in nothing


def test_a_shadow_verdict_is_shown_when_the_result_carries_one() -> None:
    result = hostile_result()
    object.__setattr__(result, "would", {"action": "block", "reason": "unsupported", "mode": "block", "threshold": 0.9})
    page = review.render(result, DECISION)
    assert (
        '<p id="would" class="meta">Shadow: A block policy at threshold 0.90 would have: blocked '
        "(statements in it are not supported by the sources).</p>"
    ) in page
    assert 'id="would"' not in review.render(hostile_result(), DECISION)


def test_evidence_from_a_tool_message_names_its_call() -> None:
    result = hostile_result()
    refuted = result.check.groups[0].facts[1]
    refuted.evidence = [
        Evidence(
            title="Conversation",
            text="The converted amount is 139.86.",
            stance=Stance.REFUTE,
            score=0.8,
            document="call_fx_3" + HOSTILE,
        )
    ]
    page = review.render(result, DECISION)
    name = "Conversation (call_fx_3" + review._e(HOSTILE) + ")"
    assert plain_verdicts(page)[1] == f"contradicted by {name}: “The converted amount is 139.86.”"
    assert f"<li><b>{name}</b>" in page


def test_the_rules_page_has_an_anchor_for_every_named_rule() -> None:
    page = review.rules_page()
    assert 'id="rule-contradicted-value"' in page and 'id="rule-no-shared-content"' in page
    assert len(re.findall(r'<tr id="rule-', page)) == len(review.rule_rows()) >= 40


@pytest.fixture
def hostile_page(tmp_path: Path) -> Path:
    path = tmp_path / "review.html"
    path.write_text(review.render(hostile_result(), DECISION), encoding="utf-8")
    return path


async def test_markup_in_every_text_stays_inert_in_a_browser_and_axe_finds_nothing_serious(
    hostile_page: Path,
    browser: WebDriver,  # noqa: F811  (the fixture)
) -> None:
    await asyncio.to_thread(browser.get, hostile_page.as_uri())
    assert browser.execute_script("return window.__pwned === undefined")  # no onerror ran
    assert browser.find_elements(By.TAG_NAME, "img") == []
    links = [a.get_attribute("href") or "" for a in browser.find_elements(By.TAG_NAME, "a")]
    assert links and all(re.search(r"/rules#rule-[a-z-]+$", href) for href in links), links
    text = browser.find_element(By.ID, "review").text
    # each text shows its markup as written: answer, fact, page title and passage, entity, model, tenant, question
    for prefix in ("Answer ", "Supported ", "Page ", "The page says ", "Entity ", "model ", "tenant ", "Question "):
        assert prefix + IMG + LINK in text, prefix
    assert "Revised " + IMG + LINK in text
    browser.find_element(By.CSS_SELECTOR, "details.fact summary").click()
    violations = await asyncio.to_thread(axe_violations, browser)
    assert serious(violations) == [], violations
