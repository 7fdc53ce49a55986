"""``factsentry gateway``: serve the OpenAI-compatible proxy with uvicorn."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import Any

from pydantic import ValidationError


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("gateway", help="run the OpenAI-compatible gateway")
    p.add_argument("--host", help="bind address (FACTSENTRY_HOST, default 127.0.0.1)")
    p.add_argument("--port", type=int, help="port (FACTSENTRY_PORT, default 8080)")
    p.add_argument("--models", type=Path, help="litellm model_list YAML (FACTSENTRY_MODELS_FILE)")
    p.add_argument("--policies", type=Path, help="policies YAML (FACTSENTRY_POLICY_FILE)")
    p.add_argument("--keys", type=Path, help="hashed API keys YAML, from `factsentry keys new` (FACTSENTRY_KEYS_FILE)")
    p.add_argument(
        "--allow-unauthenticated",
        action="store_true",
        default=None,
        help="listen beyond loopback without API keys (FACTSENTRY_ALLOW_UNAUTHENTICATED)",
    )
    p.set_defaults(func=run)


def settings_from(args: argparse.Namespace) -> Any:
    from factsentry.cli import UserError
    from gateway.settings import GatewaySettings

    overrides = {
        key: value
        for key, value in (
            ("host", args.host),
            ("port", args.port),
            ("models_file", args.models),
            ("policy_file", args.policies),
            ("keys_file", args.keys),
            ("allow_unauthenticated", args.allow_unauthenticated),
        )
        if value is not None
    }
    try:
        return GatewaySettings(**overrides)
    except ValidationError as e:
        first = e.errors()[0]
        raise UserError(
            f"bad setting FACTSENTRY_{str(first['loc'][0]).upper()}={first.get('input')!r}: {first['msg']}"
        ) from e


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from bus.exporter import MetricsServer
    from factsentry.cli import UserError
    from factsentry.embedded import port_in_use
    from gateway.app import create_app
    from gateway.auth import check_exposure
    from gateway.errors import GatewayError
    from gateway.server import protocol

    settings = settings_from(args)
    if port_in_use(settings.port, settings.host):
        raise UserError(f"port {settings.host}:{settings.port} is already in use")
    try:
        check_exposure(settings.host, settings.keys_file, settings.allow_unauthenticated)
        app = create_app(settings)
    except GatewayError as e:
        raise UserError(e.message) from e
    gateway = app.state.gateway
    if settings.access_log:
        access = logging.getLogger("factsentry.access")
        handler = logging.StreamHandler(sys.stdout)
        handler.setFormatter(logging.Formatter("%(message)s"))
        access.addHandler(handler)
        access.setLevel(logging.INFO)
        access.propagate = False  # JSON lines on stdout; the process's own log stays on stderr
    metrics = MetricsServer(gateway.registry, settings.metrics_port, settings.metrics_host)
    try:
        metrics.start()
    except OSError as e:
        raise UserError(f"cannot serve metrics on {settings.metrics_host}:{settings.metrics_port}: {e.strerror}") from e
    config = uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        access_log=False,
        loop="uvloop",
        http=protocol(settings.header_timeout_s),  # httptools, with a header read timeout
        lifespan="on",
        ws="none",  # no websocket route: uvicorn need not import a websockets implementation
    )

    class Announced(uvicorn.Server):
        """uvicorn's server, saying once on stderr that it listens (stdout carries the access log)."""

        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.started:
                print(startup_line(settings, gateway), file=sys.stderr, flush=True)

    try:
        Announced(config).run()
    finally:
        metrics.stop()
    return 0


def startup_line(settings: Any, gateway: Any) -> str:
    """The one line ``factsentry gateway`` prints when it listens: where, which models (and which of them wait
    for litellm, loading in the background), the policies file, and whether API keys are on."""
    models = gateway.models
    names = sorted({*models.configured, *(w.pattern for w in models.wildcards)})
    shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
    slow = models.litellm_names
    via = f"; {len(slow)} via litellm, loading in the background" if slow else ""
    policies = str(settings.policy_file) if settings.policy_file else "none (every model: observe)"
    auth = f"on ({len(gateway.keys)} key(s) from {settings.keys_file})" if gateway.keys.enabled else "off"
    return (
        f"factsentry gateway listening on http://{settings.host}:{settings.port} · "
        f"{len(names)} model(s): {shown}{via} · policies: {policies} · API keys: {auth}"
    )
