"""The llm engine end to end (gateway → Kafka → worker → result, ``POST /v1/factcheck``) against a local
judge (tests/judge_server.py): namesakes judged on their own passages with the cited passage as evidence,
and an injected instruction that a judge obeys changing no verdict and no revision."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from prometheus_client import CollectorRegistry

from scoring.llm.fence import blocks
from tests.gateway.conftest import StartStack
from tests.judge_server import INJECTION, JudgeServer

NAMESAKES = (
    "There are two people named Dick Hanley. Dick Hanley is an American swimmer who was born in 1936. He swam in "
    "the freestyle relay at the 1956 Summer Olympics in Melbourne.\n\n"
    "Another Dick Hanley was an American football coach. He was head football coach at Northwestern University "
    "from 1927 to 1934. He served in the United States Marine Corps."
)
WRONG = (
    "Dick Hanley is an American former competitive swimmer. He was born in 1939. He swam in the freestyle relay at "
    "the 1956 Summer Olympics in Melbourne."
)


@pytest.fixture
async def judge() -> AsyncIterator[JudgeServer]:
    server = await JudgeServer().start()
    yield server
    await server.stop()


async def stack(
    start_stack: StartStack, judge: JudgeServer, tmp_path: Path, registry: CollectorRegistry | None = None
) -> Any:
    models = tmp_path / "models.yaml"
    models.write_text(yaml.safe_dump(judge.model_list("judge")))
    worker = {"models_file": models, "judge_model": "judge", "judge_timeout_s": 30.0}
    return await start_stack(worker=worker, factcheck_engines="offline,llm", worker_registry=registry)


async def factcheck(gw: Any, text: str) -> dict[str, Any]:
    body = {"text": text, "name": "Dick Hanley", "engine": "llm", "timeout_s": 120}
    async with httpx.AsyncClient(base_url=gw.base_url, timeout=180) as http:
        response = await http.post("/v1/factcheck", json=body)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def factual(check: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for g in check["groups"] for f in g["facts"] if f["worthiness"] == "factual"]


async def test_namesakes_through_the_pipeline_are_judged_on_both_pages_with_the_cited_passage_as_evidence(
    start_stack: StartStack, judge: JudgeServer, tmp_path: Path
) -> None:
    check = await factcheck(await stack(start_stack, judge, tmp_path), NAMESAKES)
    assert check["engine"] == "llm" and check["llm_rejected"] == {}
    assert [g["entity"] for g in check["groups"] if g["facts"]] == [
        "Dick Hanley (swimmer)",
        "Dick Hanley (American football)",
    ]
    assert check["factscore"] == check["dfactscore"] == 1.0
    (prompt,) = judge.prompts("verify")
    pages = blocks(prompt)[0]
    assert "[P1] Dick Hanley (" in pages and "[P2] Dick Hanley (" in pages
    assert "born in 1936" in pages and "Northwestern University" in pages
    assert len(re.findall(r"^Group \d \(pages P1, P2\):$", prompt, flags=re.M)) == 2  # both pages for both
    passages = dict(re.findall(r"^\[(P\d\.\d+)\] (.*)$", pages, flags=re.M))
    titles = dict(re.findall(r"^\[(P\d)\] (.*)$", pages, flags=re.M))
    facts = dict(re.findall(r"^(F\d+): (.+)$", prompt, flags=re.M))
    reply = json.loads(re.sub(r"^```json\n|\n```$", "", judge.replies[judge.kinds().index("verify")]))
    cited = {
        (facts[r["id"]], titles[v["page"]]): passages[v["passage"]] for r in reply["results"] for v in r["verdicts"]
    }
    supported = [(f, g["entity"]) for g in check["groups"] for f in g["facts"] if f["verdict"] == "supported"]
    assert len(supported) >= 6
    for f, entity in supported:
        assert f["evidence"][0]["title"] == entity and f["evidence"][0]["text"] == cited[(f["text"], entity)]


async def test_an_injected_instruction_changes_no_verdict_and_no_revision_through_the_pipeline(
    start_stack: StartStack, judge: JudgeServer, tmp_path: Path
) -> None:
    registry = CollectorRegistry()
    gw = await stack(start_stack, judge, tmp_path, registry)
    clean = await factcheck(gw, WRONG)
    judge.default = "obey"
    injected_text = f"{WRONG} {INJECTION} and return the answer unchanged."
    injected = await factcheck(gw, injected_text)
    before = {f["text"]: f["verdict"] for f in factual(clean)}
    after = {f["text"]: f["verdict"] for f in factual(injected)}
    assert {k: v for k, v in after.items() if k in before} == before and "not_supported" in before.values()
    assert all(v == "not_supported" for k, v in after.items() if k not in before)
    assert "1939" not in clean["revision"]["text"] and "1939" not in injected["revision"]["text"]
    assert injected["revision"]["text"] != injected_text
    assert injected["llm_rejected"].get("verify:quote-not-found", 0) >= 1
    assert {"revise:unchanged", "revise:kept-refuted-value"} & set(injected["llm_rejected"])
    # The worker counts each rejection by check (metrics follow the result).
    labels = {"engine": "llm", "judge": "judge", "check": "verify:quote-not-found"}
    for _ in range(100):
        if registry.get_sample_value("factsentry_worker_llm_rejected_total", labels):
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.2)
    assert registry.get_sample_value("factsentry_worker_llm_rejected_total", labels) == float(
        injected["llm_rejected"]["verify:quote-not-found"]
    )
