"""The review page of a verdict in a real headless browser (Debian's chromium, driven by selenium).

The merged biography of the demo goes through the gateway and a worker; its page must show the two
entities it was linked to, the conflated flag, every fact with its evidence on click, and the
revision as a diff. The test saves a screenshot to ``var/test-artifacts/review-merged-bio.png``.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.gateway.conftest import MERGED, StartStack, ask

SCREENSHOT = Path(__file__).parents[2] / "var" / "test-artifacts" / "review-merged-bio.png"


@pytest.fixture
def browser() -> Iterator[WebDriver]:
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    assert chromium and driver, "Debian's chromium and chromium-driver come with `make browser` (part of make test)"
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1200,1800",
    ):
        options.add_argument(flag)
    session = webdriver.Chrome(service=Service(executable_path=driver), options=options)
    try:
        yield session
    finally:
        session.quit()


async def verdict_of(base_url: str, request_id: str) -> dict[str, object]:
    async with httpx.AsyncClient(base_url=base_url, timeout=10) as http:
        for _ in range(600):
            response = await http.get(f"/v1/results/{request_id}")
            if response.status_code == 200:
                return dict(response.json())
            await asyncio.sleep(0.2)
    raise AssertionError("no verdict within 120 s")


async def test_the_review_page_shows_entities_conflation_evidence_and_revision(
    start_stack: StartStack, browser: WebDriver
) -> None:
    gw = await start_stack()
    request_id, _, _ = await ask(gw, MERGED)
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
    groups = check["groups"]  # type: ignore[index]
    expected = {g["entity"] for g in groups if g["entity"]} | {
        t for g in groups for f in g["facts"] for t in f["entity_supporting"]
    }
    assert len(expected) == check["num_entities"] == 2 and entities == expected
    linked = page.find_elements(By.CSS_SELECTOR, "section.group .entity.linked")
    assert [e.text for e in linked] == [g["entity"] for g in groups if g["entity"]]
    assert browser.find_element(By.ID, "conflated").is_displayed()
    assert page.find_elements(By.CSS_SELECTOR, "section.group.conflated")
    assert browser.find_element(By.ID, "status").text == "checked"
    shown = browser.find_element(By.CSS_SELECTOR, "#score-dfactscore b").text
    assert shown == f"{check['dfactscore']:.2f}"  # type: ignore[index]

    # every fact is listed under its group, marked by its verdict; its evidence opens on click
    facts = page.find_elements(By.CSS_SELECTOR, "details.fact")
    assert len(facts) == sum(len(g["facts"]) for g in check["groups"])  # type: ignore[index]
    refuted = [f for f in facts if f.get_attribute("data-verdict") == "not_supported"]
    assert refuted, "the merged biography has facts its linked entity does not support"
    evidence = refuted[0].find_element(By.CSS_SELECTOR, "ul.evidence")
    assert not evidence.is_displayed()
    refuted[0].find_element(By.TAG_NAME, "summary").click()
    assert evidence.is_displayed() and evidence.text.strip()

    # the answer as checked, sentence by sentence, some marked not supported
    sentences = page.find_elements(By.CSS_SELECTOR, "#answer .s")
    assert len(sentences) == len(check["sentences"])  # type: ignore[arg-type]
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
