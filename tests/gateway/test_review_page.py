"""The review page of a verdict in a real headless browser (Debian's chromium, driven by selenium).

The merged biography of the demo goes through the gateway and a worker; its page must show the two
entities it was linked to, the conflated flag, every fact with its evidence on click, and the
revision as a diff. The test saves a screenshot to ``var/test-artifacts/review-merged-bio.png``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.gateway.conftest import MERGED, StartStack, ask
from tests.gateway.review_browser import axe_violations, browser, serious  # noqa: F401  (a fixture)

ARTIFACTS = Path(__file__).parents[2] / "var" / "test-artifacts"
SCREENSHOT = ARTIFACTS / "review-merged-bio.png"


async def verdict_of(base_url: str, request_id: str) -> dict[str, object]:
    """The verdict with the gateway's decision (recorded beside the response, so it may come a moment later)."""
    async with httpx.AsyncClient(base_url=base_url, timeout=10) as http:
        for _ in range(600):
            response = await http.get(f"/v1/results/{request_id}")
            if response.status_code == 200 and response.json()["decision"] is not None:
                return dict(response.json())
            await asyncio.sleep(0.2)
    raise AssertionError("no verdict with its decision within 120 s")


async def test_the_review_page_shows_entities_conflation_evidence_and_revision(
    start_stack: StartStack,
    browser: WebDriver,  # noqa: F811  (the fixture)
) -> None:
    # revise by default; the first request asks for block (a stricter policy, which a header may ask for)
    policy = {"mode": "revise", "threshold": 0.8, "timeout_s": 180}  # a busy machine checks slowly
    gw = await start_stack({"default": policy}, review_keep_question=True)
    request_id, _, _ = await ask(gw, MERGED, **{"x-factsentry-policy": "block"})
    verdict = await verdict_of(gw.base_url, request_id)
    check = verdict["check"]
    assert isinstance(check, dict)
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=10) as http:
        raw = await http.get(f"/v1/results/{request_id}/view")
        missing = await http.get("/v1/results/fs-nope/view")
    assert raw.status_code == 200 and raw.headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in raw.headers["content-security-policy"]  # nothing loaded from elsewhere
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "result_not_found"

    # the browser is synchronous: run it off the event loop that serves the gateway
    await asyncio.to_thread(browser.get, f"{gw.base_url}/v1/results/{request_id}/view")
    page = browser.find_element(By.ID, "review")

    # two entities: the one the group was linked to, and the other whose page alone supports some facts
    entities = {e.text for e in page.find_elements(By.CSS_SELECTOR, "section.group .entity")}
    groups = check["groups"]
    expected = {g["entity"] for g in groups if g["entity"]} | {
        t for g in groups for f in g["facts"] for t in f["entity_supporting"]
    }
    assert len(expected) == check["num_entities"] == 2 and entities == expected
    linked = page.find_elements(By.CSS_SELECTOR, "section.group .entity.linked")
    assert [e.text for e in linked] == [g["entity"] for g in groups if g["entity"]]
    assert browser.find_element(By.ID, "conflated").is_displayed()
    assert page.find_elements(By.CSS_SELECTOR, "section.group.conflated")
    assert browser.find_element(By.ID, "status").text == "checked"

    # the decision: blocked under block at 0.80 (the merged biography scores below), in time, and the question
    decision = verdict["decision"]
    assert isinstance(decision, dict) and decision["action"] == "block" and decision["threshold"] == 0.8
    assert browser.find_element(By.ID, "action").get_attribute("data-action") == "block"
    assert browser.find_element(By.ID, "action").text.startswith("Blocked")
    why = browser.find_element(By.ID, "why").text
    assert why == f"D-FActScore {check['dfactscore']:.2f} is below the threshold 0.80: " + (
        "the answer merges different people into one."
    )
    assert browser.find_element(By.ID, "policy").text == "block"
    assert browser.find_element(By.ID, "threshold").text == "0.80"
    assert browser.find_element(By.ID, "timeout").text == "yes, within 180 s"
    assert browser.find_element(By.ID, "question").text == MERGED.question
    assert browser.find_element(By.ID, "model").text == "mock-lean"
    shown = browser.find_element(By.CSS_SELECTOR, "#score-dfactscore b").text
    assert shown == f"{check['dfactscore']:.2f}"

    # every fact is listed under its group, marked by its verdict; its evidence opens on click
    facts = page.find_elements(By.CSS_SELECTOR, "details.fact")
    assert len(facts) == sum(len(g["facts"]) for g in check["groups"])
    refuted = [f for f in facts if f.get_attribute("data-verdict") == "not_supported"]
    assert refuted, "the merged biography has facts its linked entity does not support"
    evidence = refuted[0].find_element(By.CSS_SELECTOR, "ul.evidence")
    assert not evidence.is_displayed()
    refuted[0].find_element(By.TAG_NAME, "summary").click()
    assert evidence.is_displayed() and evidence.text.strip()

    # the answer as checked, sentence by sentence, some marked not supported
    sentences = page.find_elements(By.CSS_SELECTOR, "#answer .s")
    assert len(sentences) == len(check["sentences"])
    wrong = {
        f["sentence_index"]
        for g in groups
        for f in g["facts"]
        if (f["verdict_linked"] or f["verdict"]) == "not_supported"
    }
    marked = {
        i
        for i, s in enumerate(sentences)
        if {"v-not_supported", "v-mixed"} & set((s.get_attribute("class") or "").split())
    }
    assert wrong and marked == wrong

    # the revision as a diff: something struck out and something written in
    revision = browser.find_element(By.ID, "revision")
    assert revision.find_elements(By.TAG_NAME, "del") and revision.find_elements(By.TAG_NAME, "ins")

    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    assert browser.save_screenshot(str(SCREENSHOT))
    assert SCREENSHOT.stat().st_size > 10_000
    assert serious(await asyncio.to_thread(axe_violations, browser)) == []

    # the same answer under the model's own policy, revise: the page says it was replaced by the revision
    revised_id, completion, _ = await ask(gw, MERGED)
    revised = await verdict_of(gw.base_url, revised_id)
    assert revised["decision"]["action"] == "revise"  # type: ignore[index]
    assert completion.choices[0].message.content == revised["check"]["revision"]["text"]  # type: ignore[index]
    await asyncio.to_thread(browser.get, f"{gw.base_url}/v1/results/{revised_id}/view")
    assert browser.find_element(By.ID, "action").get_attribute("data-action") == "revise"
    assert browser.find_element(By.ID, "action").text.startswith("Revised")
    assert browser.find_element(By.ID, "policy").text == "revise"
    assert browser.find_element(By.ID, "question").text == MERGED.question
    assert browser.save_screenshot(str(ARTIFACTS / "review-revised-merged-bio.png"))
    assert serious(await asyncio.to_thread(axe_violations, browser)) == []

    # a rule's link opens its row of the rules page
    how = browser.find_elements(By.CSS_SELECTOR, "p.how a")
    if how:
        target = how[0].get_attribute("href") or ""
        await asyncio.to_thread(browser.get, target)
        assert browser.find_element(By.ID, target.rsplit("#", 1)[1]).tag_name == "tr"
