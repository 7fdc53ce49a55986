"""`factsentry replay` end to end: live traffic through the gateway and a worker on the embedded broker,
then the CLI re-scores a time window of it, with the same store and with a changed one."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from factsentry.demo_data import CONVERSATIONS
from knowledge.importers import import_path
from knowledge.store import Store
from tests.gateway.conftest import FAITHFUL, MERGED, RunningGateway, StartStack, ask
from tests.gateway.test_end_to_end import results_on_topic

TWO_BIOS = next(c for c in CONVERSATIONS if c.model == "demo-two-bios")
DEMO_PAGES = Path(__file__).parents[2] / "knowledge" / "demo"


async def replay_cli(gw: RunningGateway, *args: str) -> dict[str, Any]:
    env = {
        **os.environ,
        "FACTSENTRY_KAFKA_BOOTSTRAP": gw.settings.kafka_bootstrap,
        "FACTSENTRY_GENERATIONS_TOPIC": gw.settings.generations_topic,
        "FACTSENTRY_RESULTS_TOPIC": gw.settings.results_topic,
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "factsentry", "replay", *args, "--json",
        env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 300)
    assert process.returncode == 0, err.decode()[-2000:]
    report: dict[str, Any] = json.loads(out)
    return report


def iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


async def test_replay_rescores_a_window_beside_the_live_verdicts(
    start_stack: StartStack, demo_kb: Path, tmp_path: Path
) -> None:
    gw = await start_stack({"default": {"mode": "annotate", "timeout_s": 120}})
    start = datetime.now(UTC) - timedelta(seconds=1)
    in_window = [(await ask(gw, conv))[0] for conv in (MERGED, FAITHFUL)]
    await asyncio.sleep(1.5)
    end = datetime.now(UTC)
    await asyncio.sleep(1.5)
    after, _, _ = await ask(gw, TWO_BIOS)  # published after the window: not replayed
    live = await results_on_topic(gw.settings.kafka_bootstrap, gw.settings.results_topic, {*in_window, after})
    assert set(live) >= {*in_window, after}

    # The same store and checker: nothing changes, so a drop in live scores would be the model's.
    same = await replay_cli(gw, "--from", iso(start), "--to", iso(end), "--kb", str(demo_kb), "--run", "same")
    assert same["generations"] == 2 and same["run"] == "same"
    model = same["models"]["mock-lean"]
    assert (model["answers"], model["compared"], model["no_live_verdict"]) == (2, 2, 0)
    assert model["delta"] == 0.0 and model["score_changed"] == 0 and model["status_changed"] == 0
    expected = sum(live[r].check.dfactscore or 0.0 for r in in_window) / 2
    assert abs(model["live_dfactscore"] - expected) < 1e-3

    replayed = await results_on_topic(gw.settings.kafka_bootstrap, same["results_topic"], set(in_window))
    assert set(replayed) == set(in_window)
    assert {r.run for r in replayed.values()} == {"same"}
    assert all(r.worker == "replay:same" for r in replayed.values())

    # A store without Dick Hanley's pages: the checker now judges the merged biography differently.
    smaller = tmp_path / "smaller.sqlite3"
    pages = tmp_path / "pages"
    pages.mkdir()
    for page in DEMO_PAGES.glob("*.jsonl"):
        if page.name != "dick_hanley.jsonl":
            (pages / page.name).write_text(page.read_text())
    with Store(smaller) as store:
        import_path(pages, store)
    changed = await replay_cli(gw, "--from", iso(start), "--to", iso(end), "--kb", str(smaller), "--run", "no-hanley")
    figures = changed["models"]["mock-lean"]
    assert figures["answers"] == 2
    assert figures["status_changed"] + figures["score_changed"] >= 1
    # the live verdicts themselves are untouched: still one per request, none with a run
    again = await results_on_topic(gw.settings.kafka_bootstrap, gw.settings.results_topic, set(in_window))
    assert all(r.run is None for r in again.values())


async def test_replay_refuses_a_bad_window_in_one_line() -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "factsentry", "replay", "--from", "yesterday-ish",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    _, err = await process.communicate()
    assert process.returncode != 0
    lines = err.decode().strip().splitlines()
    assert len(lines) == 1 and "is not a time" in lines[0]


async def test_replay_policy_what_if_decides_stored_verdicts_under_a_candidate(
    start_stack: StartStack, demo_kb: Path, tmp_path: Path
) -> None:
    gw = await start_stack({"default": {"mode": "annotate", "timeout_s": 120}})
    start = datetime.now(UTC) - timedelta(seconds=1)
    merged, _, _ = await ask(gw, MERGED)
    faithful, _, _ = await ask(gw, FAITHFUL)
    live = await results_on_topic(gw.settings.kafka_bootstrap, gw.settings.results_topic, {merged, faithful})
    assert live[merged].check.dfactscore is not None and live[merged].check.dfactscore < 0.75
    assert live[faithful].check.dfactscore is not None and live[faithful].check.dfactscore >= 0.75
    await asyncio.sleep(1.5)
    end = datetime.now(UTC)
    current, candidate = tmp_path / "current.yaml", tmp_path / "candidate.yaml"
    current.write_text("default: {mode: annotate}\n")
    candidate.write_text("default: {mode: block, threshold: 0.75}\n")

    # Stored verdicts only: nothing re-scored, the merged biography would have been blocked.
    report = await replay_cli(
        gw, "--from", iso(start), "--to", iso(end), "--policy", str(candidate), "--current", str(current)
    )
    policy = report["policy"]
    assert report["verdicts"] == 2 and policy["rescored"] is False
    figures = policy["models"]["mock-lean"]
    assert figures["now"] == {"pass": 2, "block": 0, "revise": 0}
    assert figures["candidate"] == {"pass": 1, "block": 1, "revise": 0}
    assert [(f["request_id"], f["now"], f["candidate"]) for f in policy["flips"]] == [(merged, "pass", "block")]

    # With --kb the candidate decides on fresh verdicts: the same store gives the same flips.
    fresh = await replay_cli(
        gw, "--from", iso(start), "--to", iso(end), "--policy", str(candidate), "--current", str(current),
        "--kb", str(demo_kb), "--run", "what-if",
    )  # fmt: skip
    assert fresh["policy"]["rescored"] is True and fresh["generations"] == 2
    assert [f["request_id"] for f in fresh["policy"]["flips"]] == [merged]


async def test_replay_policy_refuses_a_bad_candidate_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("default: {mode: sometimes}\n")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "factsentry", "replay", "--from", "1h", "--policy", str(bad),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    _, err = await process.communicate()
    assert process.returncode != 0
    lines = err.decode().strip().splitlines()
    assert len(lines) == 1 and "invalid policy file" in lines[0] and "bad.yaml" in lines[0]
