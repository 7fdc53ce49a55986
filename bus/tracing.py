"""Whether this process traces, read from the standard ``OTEL_*`` variables: off unless they ask for it.

Tracing is on when ``OTEL_TRACES_EXPORTER`` names an exporter (``otlp``, ``console``; several with commas), or
when an OTLP endpoint is set (``OTEL_EXPORTER_OTLP_ENDPOINT`` or ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``) and no
exporter is named; ``OTEL_TRACES_EXPORTER=none`` or ``OTEL_SDK_DISABLED=true`` turn it off. ``OTEL_SERVICE_NAME``
names the service (default: the process's own, ``factsentry-gateway`` or ``factsentry-worker``). The exporters
read their own variables (endpoint, headers, timeouts, ``OTEL_BSP_*``) as the OpenTelemetry SDK defines them.

Off, this module imports nothing of OpenTelemetry and :func:`from_env` returns None: every call site is one
``if tracing is not None`` away from costing nothing. On, the spans are :class:`bus.spans.Tracing`'s, which needs
the ``otel`` extra (``pip install 'factsentry[otel]'``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from opentelemetry.sdk.trace.export import SpanExporter

    from bus.spans import Tracing
    from schemas.check import CheckResult

EXPORTERS = ("otlp", "console")

# What a span may carry: OpenTelemetry's attribute values (no None).
Attributes = dict[str, str | bool | int | float]


class TracingSettingError(ValueError):
    """An ``OTEL_*`` value this process cannot trace with; the message names the variable and the fix."""


def exporter_names(env: Mapping[str, str]) -> list[str]:
    """The trace exporters ``env`` asks for: empty when tracing is off.

    >>> exporter_names({})
    []
    >>> exporter_names({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"})
    ['otlp']
    >>> exporter_names({"OTEL_TRACES_EXPORTER": "otlp,console", "OTEL_SDK_DISABLED": "true"})
    []
    """
    if env.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return []
    named = env.get("OTEL_TRACES_EXPORTER", "").strip().lower()
    if not named:
        endpoint = env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") or env.get("OTEL_EXPORTER_OTLP_ENDPOINT")
        return ["otlp"] if endpoint else []
    names = [n.strip() for n in named.split(",") if n.strip() and n.strip() != "none"]
    for name in names:
        if name not in EXPORTERS:
            raise TracingSettingError(
                f"OTEL_TRACES_EXPORTER={named!r}: {name!r} is not an exporter factsentry sends traces with "
                f"(use {', '.join(EXPORTERS)} or none)"
            )
    return names


def from_env(service: str, env: Mapping[str, str], exporter: SpanExporter | None = None) -> Tracing | None:
    """This process's tracing as ``env`` configures it (None: off), its service named ``OTEL_SERVICE_NAME`` or
    ``service``. ``exporter`` replaces the configured ones (tests hand the SDK's in-memory exporter).

    Raises :class:`TracingSettingError` for an exporter it does not know, or when the ``otel`` extra is missing.
    """
    names = exporter_names(env) if exporter is None else ["given"]
    if not names:
        return None
    try:
        from bus.spans import Tracing, make_exporter
    except ImportError as e:
        raise TracingSettingError(
            f"OTEL_TRACES_EXPORTER / OTEL_EXPORTER_OTLP_ENDPOINT ask for traces, but OpenTelemetry is not installed "
            f"({e}): pip install 'factsentry[otel]', or unset them"
        ) from e
    exporters = [exporter] if exporter is not None else [make_exporter(name, env) for name in names]
    return Tracing(env.get("OTEL_SERVICE_NAME", "").strip() or service, exporters, batch=exporter is None)


def check_attributes(check: CheckResult) -> Attributes:
    """A verdict as span attributes: status, scores, counts and engine; never a sentence of the answer.

    >>> from schemas.check import CheckResult
    >>> check_attributes(CheckResult(factscore=0.5, dfactscore=0.25, num_facts=4))["factsentry.dfactscore"]
    0.25
    """
    out: Attributes = {
        "factsentry.check.status": check.status,
        "factsentry.engine": check.engine,
        "factsentry.facts": check.num_facts,
        "factsentry.groups": len(check.groups),
        "factsentry.entities": check.num_entities,
        "factsentry.partial": check.partial,
    }
    optional = {
        "factsentry.factscore": check.factscore,
        "factsentry.dfactscore": check.dfactscore,
        "factsentry.coverage": check.coverage,
        "factsentry.abstained_by": check.abstained_by,
        "factsentry.llm.model": check.llm_model,
    }
    out.update({k: v for k, v in optional.items() if v is not None})
    if check.llm_calls:
        out["factsentry.llm.calls"] = check.llm_calls
    return out
