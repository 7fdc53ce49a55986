"""Traces: one request is one trace from the gateway through Kafka to the worker and back to the decision.

The gateway and the worker run with tracing on, each with its own provider (its own service name) and the
SDK's in-memory exporter; the broker, valkey, the worker's checker and the openai client are the real ones.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Sequence

import httpx
import openai
import pytest
from aiokafka import AIOKafkaProducer
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

from bus.spans import Tracing
from bus.tracing import TracingSettingError, exporter_names, from_env
from gateway.app import create_app
from gateway.errors import GatewayError
from gateway.settings import GatewaySettings
from gateway.upstream import ModelRegistry
from tests.gateway.conftest import MERGED, RunningGateway, StartStack, ask
from workers.errors import SettingsError
from workers.settings import load_settings
from workers.worker import run_worker

# An upstream caller's trace: the gateway's server span must be its child.
CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
CALLER_SPAN = "00f067aa0ba902b7"


def traced(service: str) -> tuple[Tracing, InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    tracing = from_env(service, {}, exporter=exporter)
    assert tracing is not None
    return tracing, exporter


async def spans_until(exporter: InMemorySpanExporter, names: set[str], wait_s: float = 60.0) -> list[ReadableSpan]:
    """The exporter's spans once every name of ``names`` is among them (a span is exported when it ends)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait_s
    while loop.time() < deadline:
        spans = list(exporter.get_finished_spans())
        if names <= {s.name for s in spans}:
            return spans
        await asyncio.sleep(0.05)
    raise AssertionError(f"spans {sorted(names)} not all exported: {sorted(s.name for s in spans)}")


def one(spans: Sequence[ReadableSpan], name: str) -> ReadableSpan:
    found = [s for s in spans if s.name == name]
    assert len(found) == 1, f"{len(found)} spans named {name!r}"
    return found[0]


def parent_of(span: ReadableSpan) -> int | None:
    return span.parent.span_id if span.parent is not None else None


def texts_in(spans: Sequence[ReadableSpan]) -> list[str]:
    """Every string a span carries: its name, attribute values, event names and attributes."""
    out: list[str] = []
    for span in spans:
        out.append(span.name)
        out.extend(str(v) for v in (span.attributes or {}).values())
        for event in span.events:
            out.append(event.name)
            out.extend(str(v) for v in (event.attributes or {}).values())
    return out


async def topic_created(gw: RunningGateway) -> None:
    """Wait for the publisher's first broker check, which creates the generations topic: a generation published
    before it is lost (UnknownTopicOrPartition) on a busy machine, and these tests are about its trace."""
    for _ in range(1200):
        if gw.gateway.publisher.watch.epoch is not None:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the gateway's publisher did not reach the broker within 60 s")


async def test_one_request_is_one_trace_across_gateway_kafka_and_worker(start_stack: StartStack) -> None:
    gateway_tracing, gateway_spans = traced("factsentry-gateway")
    worker_tracing, worker_spans = traced("factsentry-worker")
    gw = await start_stack(
        {"default": {"mode": "revise", "threshold": 0.75, "timeout_s": 120}},
        tracing=gateway_tracing,
        worker_tracing=worker_tracing,
    )
    topic = gw.settings.generations_topic
    await topic_created(gw)
    request_id, completion, headers = await ask(gw, MERGED, traceparent=f"00-{CALLER_TRACE}-{CALLER_SPAN}-01")
    content = completion.choices[0].message.content or ""
    assert headers["x-factsentry-action"] == "revise" and content != MERGED.answer

    theirs = await spans_until(
        worker_spans, {f"process {topic}", "factsentry.decompose", "factsentry.verify", "factsentry.revise"}
    )
    ours = await spans_until(
        gateway_spans, {"POST /v1/chat/completions", f"send {topic}", "apply_guardrail factsentry"}
    )
    server, send = one(ours, "POST /v1/chat/completions"), one(ours, f"send {topic}")
    guardrail, process = one(ours, "apply_guardrail factsentry"), one(theirs, f"process {topic}")

    # One trace, the caller's, with each span under the one that caused it.
    assert {s.context.trace_id for s in [*ours, *theirs]} == {int(CALLER_TRACE, 16)}
    assert parent_of(server) == int(CALLER_SPAN, 16)
    assert parent_of(send) == parent_of(guardrail) == server.context.span_id
    assert parent_of(process) == send.context.span_id
    steps = [s for s in theirs if s.name.startswith("factsentry.")]
    top = [s for s in steps if parent_of(s) == process.context.span_id]
    # The checker's steps in order; the revision's re-check (scoring/recheck.py) runs its own after them.
    names = [s.name for s in sorted(top, key=lambda s: s.start_time or 0)]
    assert names[:3] == ["factsentry.decompose", "factsentry.verify", "factsentry.revise"], names
    assert names[3:] and set(names[3:]) <= {"factsentry.decompose", "factsentry.verify"}, names
    assert all(process.start_time <= s.start_time <= s.end_time <= process.end_time for s in top)  # type: ignore[operator]
    assert [s.kind for s in (server, send, process, guardrail)] == [
        SpanKind.SERVER,
        SpanKind.PRODUCER,
        SpanKind.CONSUMER,
        SpanKind.INTERNAL,
    ]
    assert {s.resource.attributes["service.name"] for s in ours} == {"factsentry-gateway"}
    assert {s.resource.attributes["service.name"] for s in theirs} == {"factsentry-worker"}

    # The attributes say what the verdict says.
    async with httpx.AsyncClient(base_url=gw.base_url) as http:
        check = (await http.get(f"/v1/results/{request_id}")).json()["check"]
    scores = {
        "factsentry.check.status": check["status"],
        "factsentry.factscore": check["factscore"],
        "factsentry.dfactscore": check["dfactscore"],
        "factsentry.facts": check["num_facts"],
        "factsentry.groups": len(check["groups"]),
        "factsentry.engine": "offline",
    }
    assert check["dfactscore"] < 0.75 and check["num_facts"] > 0 and len(check["groups"]) >= 1
    for span in (server, guardrail, process):
        attributes = dict(span.attributes or {})
        assert {k: attributes.get(k) for k in scores} == scores, span.name
        assert attributes["gen_ai.request.model"] == "mock-lean"
    http_facts = {
        "http.request.method": "POST",
        "http.route": "/v1/chat/completions",
        "http.response.status_code": 200,
        "factsentry.request_id": request_id,
        "factsentry.policy.mode": "revise",
        "factsentry.outcome": "revise",
    }
    assert {k: (server.attributes or {}).get(k) for k in http_facts} == http_facts
    assert {
        k: (guardrail.attributes or {}).get(k) for k in ("gen_ai.operation.name", "gen_ai.security.decision.type")
    } == {
        "gen_ai.operation.name": "apply_guardrail",
        "gen_ai.security.decision.type": "modify",
    }
    assert (guardrail.attributes or {})["factsentry.verdict.status"] == "checked"
    assert (send.attributes or {})["messaging.kafka.message.key"] == request_id
    assert str((process.attributes or {})["messaging.consumer.group.name"]).startswith("e2e-")
    assert send.status.status_code is not StatusCode.ERROR and process.status.status_code is not StatusCode.ERROR

    # No text of the conversation in any span.
    words = [MERGED.question, MERGED.answer, content, *MERGED.answer.split(". ")]
    carried = texts_in([*ours, *theirs])
    assert not [w for w in words if any(w.strip(". ") in t for t in carried)]


async def test_a_request_without_traceparent_starts_its_own_trace_and_a_dead_letter_is_an_error(
    start_stack: StartStack, kafka_bootstrap: str
) -> None:
    gateway_tracing, gateway_spans = traced("factsentry-gateway")
    worker_tracing, worker_spans = traced("factsentry-worker")
    gw = await start_stack(tracing=gateway_tracing, worker_tracing=worker_tracing)
    topic = gw.settings.generations_topic
    await topic_created(gw)
    request_id, _, _ = await ask(gw, MERGED, traceparent="00-not-a-trace-01")  # malformed: ignored
    ours = await spans_until(gateway_spans, {"POST /v1/chat/completions", f"send {topic}"})
    theirs = await spans_until(worker_spans, {f"process {topic}"})
    server = one(ours, "POST /v1/chat/completions")
    assert server.parent is None
    assert one(theirs, f"process {topic}").context.trace_id == server.context.trace_id
    # observe: no verdict wait, no guardrail span
    assert "apply_guardrail factsentry" not in {s.name for s in ours}
    assert (server.attributes or {})["factsentry.policy.mode"] == "observe"

    # A record the worker cannot read is dead-lettered: its span, in the trace its headers carry, is an error.
    trace = "0af7651916cd43dd8448eb211c80319c"
    producer = AIOKafkaProducer(bootstrap_servers=kafka_bootstrap)
    await producer.start()
    try:
        await producer.send_and_wait(
            topic, b"{not json", key=b"poison", headers=[("traceparent", f"00-{trace}-b7ad6b7169203331-01".encode())]
        )
    finally:
        await producer.stop()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while loop.time() < deadline:
        poisoned = [s for s in worker_spans.get_finished_spans() if s.context.trace_id == int(trace, 16)]
        if poisoned:
            break
        await asyncio.sleep(0.05)
    assert len(poisoned) == 1 and poisoned[0].status.status_code is StatusCode.ERROR
    assert parent_of(poisoned[0]) == int("b7ad6b7169203331", 16)
    assert request_id != "poison"


async def test_steps_checked_in_a_scoring_process_come_back_as_spans(start_stack: StartStack) -> None:
    """With ``executor=process`` the check runs in a spawned process: its step times come back with the verdict."""
    worker_tracing, worker_spans = traced("factsentry-worker")
    gw = await start_stack(worker={"executor": "process"}, worker_tracing=worker_tracing)
    topic = gw.settings.generations_topic
    await topic_created(gw)
    await ask(gw, MERGED)
    theirs = await spans_until(worker_spans, {f"process {topic}", "factsentry.decompose", "factsentry.verify"}, 240)
    process = one(theirs, f"process {topic}")
    steps = [s for s in theirs if parent_of(s) == process.context.span_id]
    assert [s.name for s in sorted(steps, key=lambda s: s.start_time or 0)][:2] == [
        "factsentry.decompose",
        "factsentry.verify",
    ]
    assert all(s.context.trace_id == process.context.trace_id for s in steps)


async def test_a_streamed_answer_is_published_inside_its_request_span(start_stack: StartStack) -> None:
    """Observe streams publish when the stream ends, after the route returned: still under the server span."""
    gateway_tracing, gateway_spans = traced("factsentry-gateway")
    worker_tracing, worker_spans = traced("factsentry-worker")
    gw = await start_stack(tracing=gateway_tracing, worker_tracing=worker_tracing)
    topic = gw.settings.generations_topic
    await topic_created(gw)
    client = openai.AsyncOpenAI(base_url=gw.base_url + "/v1", api_key="unused", max_retries=0, timeout=180)
    stream = await client.chat.completions.create(
        model="mock-lean", messages=[{"role": "user", "content": MERGED.question}], stream=True
    )
    text = "".join([c.choices[0].delta.content or "" async for c in stream if c.choices])
    await client.close()
    assert text == MERGED.answer
    ours = await spans_until(gateway_spans, {"POST /v1/chat/completions", f"send {topic}"})
    theirs = await spans_until(worker_spans, {f"process {topic}", "factsentry.verify"})
    server, send = one(ours, "POST /v1/chat/completions"), one(ours, f"send {topic}")
    assert parent_of(send) == server.context.span_id and (server.attributes or {})["factsentry.stream"] is True
    assert parent_of(one(theirs, f"process {topic}")) == send.context.span_id
    assert send.start_time <= server.end_time  # type: ignore[operator]  # (it ends at the ack, maybe later)


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, []),
        ({"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, []),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, ["otlp"]),
        ({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4318/v1/traces"}, ["otlp"]),
        ({"OTEL_TRACES_EXPORTER": "otlp, console"}, ["otlp", "console"]),
        ({"OTEL_TRACES_EXPORTER": "console", "OTEL_SDK_DISABLED": "true"}, []),
        ({"OTEL_TRACES_EXPORTER": "console", "OTEL_SDK_DISABLED": "false"}, ["console"]),
    ],
)
def test_tracing_is_off_unless_the_otel_variables_ask_for_it(env: dict[str, str], expected: list[str]) -> None:
    assert exporter_names(env) == expected
    tracing = from_env("factsentry-gateway", env)
    assert (tracing is None) == (not expected)
    if tracing is not None:
        assert tracing.service == "factsentry-gateway"
        tracing.shutdown()


def test_the_service_name_is_otel_service_name() -> None:
    tracing = from_env("factsentry-worker", {"OTEL_TRACES_EXPORTER": "console", "OTEL_SERVICE_NAME": "checker-eu"})
    assert tracing is not None and tracing.service == "checker-eu"
    assert tracing.provider.resource.attributes["service.name"] == "checker-eu"
    tracing.shutdown()


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"OTEL_TRACES_EXPORTER": "zipkin"}, "OTEL_TRACES_EXPORTER='zipkin': 'zipkin' is not an exporter"),
        (
            {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"},
            "OTEL_EXPORTER_OTLP_PROTOCOL='http/json': use http/protobuf or grpc",
        ),
    ],
)
async def test_a_bad_otel_setting_stops_the_gateway_and_the_worker_with_its_name(
    env: dict[str, str], message: str, monkeypatch: pytest.MonkeyPatch, redis_url: str
) -> None:
    with pytest.raises(TracingSettingError, match=message):
        from_env("factsentry-gateway", env)
    lean = {"model_name": "m", "litellm_params": {"model": "openai/m", "api_base": "http://127.0.0.1:9/v1"}}
    models = ModelRegistry.from_config({"model_list": [lean]}, env={})
    with pytest.raises(GatewayError, match=message):
        create_app(GatewaySettings(), models=models, env=env)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(SettingsError, match=message):
        await run_worker(load_settings(metrics_port=0, redis_url=redis_url), stop_event=asyncio.Event())


def test_a_lost_publish_ends_its_producer_span_as_an_error() -> None:
    tracing, exporter = traced("factsentry-gateway")
    headers = dict(tracing.send("gen", "fs-1"))
    assert headers["traceparent"].startswith(b"00-")
    tracing.sent("fs-1", "broker_down")
    tracing.sent("fs-1", "broker_down")  # once only
    [span] = exporter.get_finished_spans()
    assert span.status.status_code is StatusCode.ERROR and (span.attributes or {})["error.type"] == "broker_down"
    assert headers["traceparent"].decode().split("-")[2] == f"{span.context.span_id:016x}"


def test_with_tracing_off_no_tracing_module_is_imported() -> None:
    """The gateway and the worker, built with no OTEL_* variable, import neither our spans nor OpenTelemetry's
    trace SDK or exporters: tracing off costs no import time and no work per request. (redis-py imports
    OpenTelemetry's metrics SDK by itself whenever it is installed; that is not ours to skip.)"""
    code = (
        "import sys\n"
        "from bus.tracing import from_env\n"
        "import gateway.app, workers.worker, workers.scoring_stage\n"
        "assert from_env('factsentry-gateway', {}) is None\n"
        "ours = ('bus.spans', 'gateway.tracing', 'opentelemetry.sdk.trace', 'opentelemetry.exporter')\n"
        "print(sorted(m for m in sys.modules if m.startswith(ours)))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip() == "[]"
