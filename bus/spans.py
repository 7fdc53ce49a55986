"""The spans of one process, when tracing is on (bus/tracing.py decides; this module is imported only then).

A request is one trace across processes, joined by W3C trace context (``traceparent``, ``tracestate``): the
gateway's server span honours the incoming request's ``traceparent``; the publish of its generation is a
producer span whose context rides in the Kafka record's headers; the worker's check of that record is a
consumer span under it, with a span per step of the checker; the gateway's wait for the verdict and its
decision is an ``apply_guardrail`` span (the GenAI security conventions' name) under the server span.

Names follow OpenTelemetry's semantic conventions where they have one (HTTP server, messaging, GenAI); the
rest are ``factsentry.*``. No answer, question or document text is ever an attribute.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager

from aiokafka import ConsumerRecord
from opentelemetry.context import Context
from opentelemetry.sdk.resources import SERVICE_NAME, Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter, SimpleSpanProcessor, SpanExporter
from opentelemetry.trace import Span, SpanKind, Status, StatusCode, set_span_in_context
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

from bus.tracing import Attributes, TracingSettingError

TRACE_HEADERS = ("traceparent", "tracestate")


def make_exporter(name: str, env: Mapping[str, str]) -> SpanExporter:
    """The exporter ``name`` of ``OTEL_TRACES_EXPORTER``: OTLP (over HTTP/protobuf, or gRPC when
    ``OTEL_EXPORTER_OTLP[_TRACES]_PROTOCOL=grpc`` and its exporter is installed) or the console."""
    if name == "console":
        return ConsoleSpanExporter()
    protocol = (
        env.get("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") or env.get("OTEL_EXPORTER_OTLP_PROTOCOL") or "http/protobuf"
    )
    endpoint = env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
    base = env.get("OTEL_EXPORTER_OTLP_ENDPOINT")
    if protocol == "grpc":
        try:
            from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter as GrpcExporter
        except ImportError as e:
            raise TracingSettingError(
                "OTEL_EXPORTER_OTLP_PROTOCOL=grpc needs opentelemetry-exporter-otlp-proto-grpc installed "
                "(or use http/protobuf, which factsentry[otel] brings)"
            ) from e
        return GrpcExporter(endpoint=endpoint or base)
    if protocol != "http/protobuf":
        raise TracingSettingError(f"OTEL_EXPORTER_OTLP_PROTOCOL={protocol!r}: use http/protobuf or grpc")
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

    # The SDK reads its variables from os.environ; the mapping this process was configured with wins.
    if endpoint is None and base:
        endpoint = base.rstrip("/") + "/v1/traces"
    return OTLPSpanExporter(endpoint=endpoint)


class Tracing:
    """One process's tracer provider (its own service name, so a gateway and a worker in one process are two
    services) and the spans factsentry makes."""

    def __init__(self, service: str, exporters: Sequence[SpanExporter], *, batch: bool = True) -> None:
        self.service = service
        self.provider = TracerProvider(resource=Resource.create({SERVICE_NAME: service}))
        for exporter in exporters:
            self.provider.add_span_processor(BatchSpanProcessor(exporter) if batch else SimpleSpanProcessor(exporter))
        self.tracer = self.provider.get_tracer("factsentry")
        self.propagator = TraceContextTextMapPropagator()
        # Producer spans from publish to the broker's acknowledgement, by record key (the request id).
        self.sending: dict[str, Span] = {}

    def shutdown(self) -> None:
        """Export what is buffered and stop (spans still sending are ended first)."""
        for key in list(self.sending):
            self.sent(key, "shutdown")
        self.provider.shutdown()

    def _parent(self, headers: Iterable[tuple[str, str]]) -> Context:
        return self.propagator.extract({k.lower(): v for k, v in headers if k.lower() in TRACE_HEADERS})

    @contextmanager
    def serve(self, method: str, path: str, headers: Iterable[tuple[bytes, bytes]]) -> Iterator[Span]:
        """The server span of one HTTP request, current while the app handles it; its parent is the request's
        ``traceparent`` when it has a valid one. The caller names it by route once routing is done."""
        parent = self._parent((k.decode("latin-1"), v.decode("latin-1")) for k, v in headers)
        attributes: Attributes = {"http.request.method": method, "url.path": path}
        with self.tracer.start_as_current_span(method, parent, SpanKind.SERVER, attributes) as span:
            yield span

    @contextmanager
    def guardrail(self, model: str, mode: str) -> Iterator[Span]:
        """The gateway's wait for a verdict and its decision (the GenAI ``apply_guardrail`` span)."""
        attributes: Attributes = {
            "gen_ai.operation.name": "apply_guardrail",
            "gen_ai.guardian.name": "factsentry",
            "gen_ai.security.target.type": "llm_output",
            "gen_ai.request.model": model,
            "factsentry.policy.mode": mode,
        }
        with self.tracer.start_as_current_span("apply_guardrail factsentry", attributes=attributes) as span:
            yield span

    def send(self, topic: str, key: str) -> list[tuple[str, bytes]]:
        """Start the producer span of record ``key`` (under the current span) and return the headers that carry
        its context; :meth:`sent` ends it."""
        attributes: Attributes = {
            "messaging.system": "kafka",
            "messaging.operation.type": "send",
            "messaging.operation.name": "send",
            "messaging.destination.name": topic,
            "messaging.kafka.message.key": key,
        }
        span = self.tracer.start_span(f"send {topic}", kind=SpanKind.PRODUCER, attributes=attributes)
        self.sent(key, "superseded")  # a key published again while in flight: its first span ends here
        self.sending[key] = span
        carrier: dict[str, str] = {}
        self.propagator.inject(carrier, set_span_in_context(span))
        return [(k, v.encode()) for k, v in carrier.items()]

    def sent(self, key: str, lost: str | None = None) -> None:
        """End the producer span of ``key``: acknowledged, or ``lost`` (why), which marks it an error."""
        span = self.sending.pop(key, None)
        if span is None:
            return
        if lost is not None:
            span.set_attribute("error.type", lost)
            span.set_status(Status(StatusCode.ERROR, f"not published: {lost}"))
        span.end()

    def process(self, record: ConsumerRecord[bytes, bytes], group: str | None) -> Span:
        """Start the consumer span of one record, under the producer span its headers carry (a record without
        them starts a trace of its own); the caller ends it with :func:`finish`."""
        parent = self._parent((k, v.decode("latin-1")) for k, v in record.headers or () if v is not None)
        attributes: Attributes = {
            "messaging.system": "kafka",
            "messaging.operation.type": "process",
            "messaging.operation.name": "process",
            "messaging.destination.name": record.topic,
            "messaging.destination.partition.id": str(record.partition),
            "messaging.kafka.offset": record.offset,
        }
        if group:
            attributes["messaging.consumer.group.name"] = group
        if record.key is not None:
            attributes["messaging.kafka.message.key"] = record.key.decode("utf-8", "replace")
        return self.tracer.start_span(f"process {record.topic}", parent, SpanKind.CONSUMER, attributes)

    def step(self, parent: Span, name: str, start_ns: int, end_ns: int, attributes: Attributes) -> Span:
        """A finished child span of ``parent`` that ran from ``start_ns`` to ``end_ns`` (wall clock, ns): a step
        timed where spans are not made (a scoring thread or process)."""
        span = self.tracer.start_span(name, set_span_in_context(parent), attributes=attributes, start_time=start_ns)
        span.end(end_time=end_ns)
        return span

    @staticmethod
    def end(span: Span, error: str | None = None) -> None:
        """End ``span``; with ``error`` (a one-line description) as an error."""
        if error is not None:
            span.set_status(Status(StatusCode.ERROR, error))
        span.end()
