"""Real clients' documented loops, in every policy: the ``openai`` Python SDK (sync and async), the ``openai`` Node
SDK (``npm install`` into a cache folder, run with node). Each prints the text the policy allows and never
raises: every chunk has a choice, except the usage chunk a client asked for (``stream_options.include_usage``),
which comes in every mode; the verdict rides on the final chunk's ``choices[0]`` with its ``finish_reason``.

One gateway and one worker serve every case; each policy is a model name of the gateway's model list."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import openai
import pytest
import uvicorn
import yaml
from prometheus_client import CollectorRegistry

from factsentry.embedded import free_port
from gateway.app import create_app
from gateway.holdback import split_complete
from gateway.settings import GatewaySettings
from gateway.upstream import ModelRegistry
from tests.gateway.conftest import MERGED
from workers.settings import load_settings
from workers.worker import run_worker

GUARDED = {"threshold": 0.75, "timeout_s": 120}
POLICIES: dict[str, dict[str, Any]] = {
    "observe": {"mode": "observe"},
    "annotate": {"mode": "annotate", **GUARDED},
    "block": {"mode": "block", **GUARDED},
    "revise": {"mode": "revise", **GUARDED},
    "block-holdback": {"mode": "block", "stream": "holdback", **GUARDED},
    "revise-holdback": {"mode": "revise", "stream": "holdback", **GUARDED},
}
# every policy × streamed or not × usage requested or not (a non-streamed answer always has its usage)
CASES = [
    pytest.param(policy, stream, usage, id=f"{policy}-{'stream' if stream else 'json'}{'-usage' if usage else ''}")
    for policy in POLICIES
    for stream in (False, True)
    for usage in (False, True)
    if stream or not usage
]


@dataclass
class Run:
    """What one client loop saw."""

    text: str = ""  # what the documented loop prints: the contents joined
    refusal: str = ""
    finish_reason: str | None = None
    usage_total: int | None = None
    factsentry: dict[str, Any] | None = None
    chunks: int = 0
    empty_choices: int = 0  # chunks without a choice (only the usage chunk may be one)
    last_is_usage: bool = False
    verdict_on_finish: bool = False  # the factsentry object rode on the chunk with finish_reason
    ids: set[str] = field(default_factory=set)


def model_list(upstream_url: str) -> dict[str, Any]:
    params = {"model": "openai/mock", "api_base": upstream_url, "api_key": "k"}
    return {"model_list": [{"model_name": f"sdk-{name}", "litellm_params": params} for name in POLICIES]}


@pytest.fixture(scope="module")
async def base_url(
    tmp_path_factory: pytest.TempPathFactory, upstream_url: str, kafka_bootstrap: str, redis_url: str, demo_kb: Path
) -> AsyncIterator[str]:
    unique = uuid.uuid4().hex[:10]
    policy_file = tmp_path_factory.mktemp("policies") / "policies.yaml"
    policy_file.write_text(yaml.safe_dump({"models": {f"sdk-{k}": v for k, v in POLICIES.items()}}))
    port = free_port()
    topics = {"generations_topic": f"gen-{unique}", "results_topic": f"res-{unique}"}
    bus: dict[str, Any] = {
        "kafka_bootstrap": kafka_bootstrap,
        "redis_url": redis_url,
        "redis_prefix": f"t{unique}",
        **topics,
    }
    settings = GatewaySettings(port=port, policy_file=policy_file, **bus)
    models = ModelRegistry.from_config(model_list(upstream_url), env={})
    app = create_app(settings, models=models, registry=CollectorRegistry())
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    serving = asyncio.create_task(server.serve())
    stop = asyncio.Event()
    worker_settings = load_settings(**bus, group_id=f"sdk-{unique}", metrics_port=0, kb_path=demo_kb, concurrency=1)
    worker = asyncio.create_task(run_worker(worker_settings, stop_event=stop, registry=CollectorRegistry()))
    while not server.started:
        if serving.done():
            serving.result()
        await asyncio.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop.set()
        server.should_exit = True
        await serving
        await asyncio.wait_for(worker, 60)


def request(policy: str, stream: bool, usage: bool) -> dict[str, Any]:
    kwargs: dict[str, Any] = {
        "model": f"sdk-{policy}",
        "messages": [{"role": "user", "content": MERGED.question}],
        "extra_headers": {"x-factsentry-name": MERGED.name},
    }
    if stream:
        kwargs["stream"] = True
    if usage:
        kwargs["stream_options"] = {"include_usage": True}
    return kwargs


def record(run: Run, chunk: Any) -> None:
    """What a loop notes of each chunk besides the text it prints."""
    run.chunks += 1
    run.ids.add(chunk.id)
    extra = chunk.model_extra or {}
    if not chunk.choices:
        run.empty_choices += 1
    else:
        run.refusal += chunk.choices[0].delta.refusal or ""
        if chunk.choices[0].finish_reason:
            run.finish_reason = chunk.choices[0].finish_reason
            run.verdict_on_finish = "factsentry" in extra
    if "factsentry" in extra:
        run.factsentry = extra["factsentry"]
    run.last_is_usage = not chunk.choices and chunk.usage is not None
    if chunk.usage is not None:
        run.usage_total = chunk.usage.total_tokens


def sync_loop(base_url: str, policy: str, stream: bool, usage: bool) -> Run:
    """OpenAI's documented loops with the sync client: ``chunk.choices[0].delta.content or ""`` for every chunk;
    with usage requested, the usage chunk has no choice (as OpenAI documents it), so the loop checks first."""
    client = openai.OpenAI(base_url=base_url + "/v1", api_key="unused", max_retries=0, timeout=180)
    run = Run()
    with client:
        if not stream:
            return from_completion(client.chat.completions.create(**request(policy, stream, usage)))
        for chunk in client.chat.completions.create(**request(policy, stream, usage)):
            if usage:
                if chunk.choices:
                    run.text += chunk.choices[0].delta.content or ""
            else:
                run.text += chunk.choices[0].delta.content or ""
            record(run, chunk)
    return run


async def async_loop(base_url: str, policy: str, stream: bool, usage: bool) -> Run:
    client = openai.AsyncOpenAI(base_url=base_url + "/v1", api_key="unused", max_retries=0, timeout=180)
    run = Run()
    async with client:
        if not stream:
            return from_completion(await client.chat.completions.create(**request(policy, stream, usage)))
        async for chunk in await client.chat.completions.create(**request(policy, stream, usage)):
            if usage:
                if chunk.choices:
                    run.text += chunk.choices[0].delta.content or ""
            else:
                run.text += chunk.choices[0].delta.content or ""
            record(run, chunk)
    return run


def from_completion(completion: Any) -> Run:
    message = completion.choices[0].message
    return Run(
        text=message.content or "",
        refusal=message.refusal or "",
        finish_reason=completion.choices[0].finish_reason,
        usage_total=completion.usage.total_tokens if completion.usage else None,
        factsentry=(completion.model_extra or {}).get("factsentry"),
        verdict_on_finish=True,
    )


def sentences(text: str) -> list[str]:
    pieces, rest = split_complete(text)
    return [*pieces, rest] if rest.strip() else pieces


def assert_allowed(run: Run, policy: str, stream: bool, usage: bool) -> None:
    """The text printed is the text the policy allows, and the stream is one every client reads."""
    verdict = run.factsentry
    if policy == "observe":
        assert verdict is None and run.text == MERGED.answer
    else:
        assert verdict is not None and verdict["dfactscore"] < 0.75 and run.verdict_on_finish
    if policy == "annotate":
        assert run.text == MERGED.answer and verdict and verdict["action"] == "pass"
    if policy == "block" or (policy == "block-holdback" and not stream):
        assert run.text == "" and "merges different people" in run.refusal
        assert run.finish_reason == "content_filter" and verdict and verdict["revision"] is None
    if policy == "revise" or (policy == "revise-holdback" and not stream):
        assert verdict and verdict["action"] == "revise" and run.text == verdict["revision"] != MERGED.answer
    if policy == "block-holdback" and stream:
        assert verdict and verdict["action"] == "block" and run.finish_reason == "content_filter"
        released = verdict["holdback"]["released_sentences"]
        assert run.text == "".join(sentences(MERGED.answer)[:released]) and run.refusal.startswith(" [The rest")
    if policy == "revise-holdback" and stream:
        assert verdict and verdict["action"] == "revise" and run.text != MERGED.answer
        assert all(s in sentences(MERGED.answer) for s in sentences(run.text))
    if policy != "block" and not (policy == "block-holdback" and not stream):
        assert run.finish_reason in ("stop", "content_filter")
    if stream:
        assert len(run.ids) == 1  # one id for the whole stream
        assert run.empty_choices == (1 if usage else 0)
        assert run.last_is_usage is usage
    if usage or not stream:
        assert run.usage_total is not None and run.usage_total > 0


@pytest.mark.parametrize(("policy", "stream", "usage"), CASES)
async def test_openai_python_sync_loop(base_url: str, policy: str, stream: bool, usage: bool) -> None:
    run = await asyncio.to_thread(sync_loop, base_url, policy, stream, usage)
    assert_allowed(run, policy, stream, usage)


@pytest.mark.parametrize(("policy", "stream", "usage"), CASES)
async def test_openai_python_async_loop(base_url: str, policy: str, stream: bool, usage: bool) -> None:
    run = await async_loop(base_url, policy, stream, usage)
    assert_allowed(run, policy, stream, usage)


# The openai Node SDK's documented loop, over every case in one node process.
NODE_SCRIPT = r"""
import OpenAI from "openai";
const [baseURL, casesJson] = process.argv.slice(2);
const client = new OpenAI({ baseURL: baseURL + "/v1", apiKey: "unused", maxRetries: 0, timeout: 180000 });
const out = [];
for (const [policy, stream, usage] of JSON.parse(casesJson)) {
  const body = { model: "sdk-" + policy, messages: [{ role: "user", content: QUESTION }] };
  const options = { headers: { "x-factsentry-name": NAME } };
  const run = { policy, stream, usage, text: "", refusal: "", finish_reason: null, usage_total: null,
                factsentry: null, chunks: 0, empty_choices: 0, last_is_usage: false, verdict_on_finish: false,
                ids: [], error: null };
  try {
    if (!stream) {
      const completion = await client.chat.completions.create(body, options);
      const message = completion.choices[0].message;
      Object.assign(run, { text: message.content || "", refusal: message.refusal || "",
        finish_reason: completion.choices[0].finish_reason, usage_total: completion.usage?.total_tokens ?? null,
        factsentry: completion.factsentry ?? null, verdict_on_finish: true });
    } else {
      const params = { ...body, stream: true };
      if (usage) params.stream_options = { include_usage: true };
      const chunks = await client.chat.completions.create(params, options);
      for await (const chunk of chunks) {
        run.text += chunk.choices[0]?.delta?.content || "";   // the SDK's documented loop
        run.chunks += 1;
        if (!run.ids.includes(chunk.id)) run.ids.push(chunk.id);
        if (chunk.choices.length === 0) run.empty_choices += 1;
        else {
          run.refusal += chunk.choices[0].delta?.refusal || "";
          if (chunk.choices[0].finish_reason) {
            run.finish_reason = chunk.choices[0].finish_reason;
            run.verdict_on_finish = chunk.factsentry !== undefined;
          }
        }
        if (chunk.factsentry !== undefined) run.factsentry = chunk.factsentry;
        run.last_is_usage = chunk.choices.length === 0 && !!chunk.usage;
        if (chunk.usage) run.usage_total = chunk.usage.total_tokens;
      }
    }
  } catch (e) {
    run.error = String(e && e.stack || e);
  }
  out.push(run);
}
console.log(JSON.stringify(out));
"""


def node_sdk() -> Path:
    """A folder with the ``openai`` npm package, installed once into the user's cache (outside the repo)."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        raise RuntimeError("node and npm are needed for the Node SDK test (apt-get install nodejs npm)")
    folder = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "factsentry-tests" / "node-openai"
    if not (folder / "node_modules" / "openai" / "package.json").is_file():
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "package.json").write_text(json.dumps({"name": "sdk-check", "private": True, "type": "module"}))
        subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--silent", "openai@7"],
            cwd=folder,
            check=True,
            timeout=300,
            capture_output=True,
        )
    return folder


async def test_openai_node_sdk_loop(base_url: str) -> None:
    folder = await asyncio.to_thread(node_sdk)
    script = folder / "loop.mjs"
    header = f"const QUESTION = {json.dumps(MERGED.question)};\nconst NAME = {json.dumps(MERGED.name)};\n"
    script.write_text(NODE_SCRIPT.replace('import OpenAI from "openai";', 'import OpenAI from "openai";\n' + header))
    cases = [list(p.values) for p in CASES]
    process = await asyncio.create_subprocess_exec(
        "node", str(script), base_url, json.dumps(cases), cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    out, err = await asyncio.wait_for(process.communicate(), 600)
    assert process.returncode == 0, err.decode()
    runs = json.loads(out)
    assert len(runs) == len(cases)
    for raw in runs:
        assert raw["error"] is None, (raw["policy"], raw["stream"], raw["usage"], raw["error"])
        run = Run(**{k: v for k, v in raw.items() if k in Run.__dataclass_fields__ and k != "ids"}, ids=set(raw["ids"]))
        assert_allowed(run, raw["policy"], raw["stream"], raw["usage"])


def langchain_loop(base_url: str, policy: str, stream: bool, usage: bool) -> tuple[str, int | None]:
    """LangChain's ``ChatOpenAI``: ``.stream`` with its chunks' content joined (as its docs print them), or
    ``.invoke``; (the text, the total tokens it reports)."""
    from langchain_openai import ChatOpenAI

    chat = ChatOpenAI(
        model=f"sdk-{policy}",
        base_url=base_url + "/v1",
        api_key="unused",  # type: ignore[arg-type]
        max_retries=0,
        timeout=180,
        stream_usage=usage,
        default_headers={"x-factsentry-name": MERGED.name},
    )
    question = [("user", MERGED.question)]
    if not stream:
        message = chat.invoke(question)
        total = message.usage_metadata["total_tokens"] if message.usage_metadata else None
        return (message.content if isinstance(message.content, str) else ""), total
    text, total = "", None
    for chunk in chat.stream(question):
        text += chunk.content if isinstance(chunk.content, str) else ""
        if chunk.usage_metadata:
            total = chunk.usage_metadata["total_tokens"]
    return text, total


@pytest.mark.parametrize(("policy", "stream", "usage"), CASES)
async def test_langchain_chat_openai(base_url: str, policy: str, stream: bool, usage: bool) -> None:
    text, total = await asyncio.to_thread(langchain_loop, base_url, policy, stream, usage)
    if policy in ("observe", "annotate"):
        assert text == MERGED.answer
    elif policy == "block" or (policy == "block-holdback" and not stream):
        assert text == ""  # the refusal is in the message's refusal, content null
    elif policy.startswith("revise"):
        assert text and text != MERGED.answer
    else:  # block-holdback streamed: what was released before the stop
        assert text and MERGED.answer.startswith(text) and text != MERGED.answer
    if usage or not stream:
        assert total is not None and total > 0
