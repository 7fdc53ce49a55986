"""What the review page's browser tests share: headless Chromium (Debian's, driven by selenium) and axe-core.

axe-core comes from npm, installed once into the user's cache (outside the repository), and is injected into
the page by selenium: the page itself loads no script (its content security policy forbids any).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.remote.webdriver import WebDriver


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


def axe_source() -> str:
    """axe-core's browser build (npm ``axe-core@4``, installed once into the user's cache)."""
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm is needed for the accessibility check (apt-get install npm)")
    folder = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "factsentry-tests" / "node-axe"
    script = folder / "node_modules" / "axe-core" / "axe.min.js"
    if not script.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "package.json").write_text(json.dumps({"name": "axe-check", "private": True}))
        subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--silent", "axe-core@4"],
            cwd=folder,
            check=True,
            timeout=300,
            capture_output=True,
        )
    return script.read_text(encoding="utf-8")


def axe_violations(browser: WebDriver) -> list[dict[str, Any]]:
    """axe-core's violations on the page the browser shows (WCAG 2 A/AA and best practices)."""
    browser.execute_script(axe_source() + "\n;window.__axe = axe;")
    result = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "window.__axe.run(document, {resultTypes: ['violations']})"
        ".then(r => done(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length}))))"
        ".catch(e => done([{id: 'axe-error', impact: 'critical', help: String(e), nodes: 0}]));"
    )
    assert isinstance(result, list)
    return result


def serious(violations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [v for v in violations if v.get("impact") in ("serious", "critical")]
