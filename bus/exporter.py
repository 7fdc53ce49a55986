"""The ``/metrics`` listener on a port of its own, for the gateway, the workers and ``factsentry replay``
(shared here: the gateway's command imported the whole worker package to get it)."""

from __future__ import annotations

import threading

from prometheus_client import CollectorRegistry, start_http_server


class MetricsServer:
    """``prometheus_client``'s HTTP exporter on a port, stoppable (port 0 means off)."""

    def __init__(self, registry: CollectorRegistry, port: int, host: str = "0.0.0.0") -> None:
        self.registry = registry
        self.port = port
        self.host = host
        self._server: object | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> MetricsServer:
        """Start serving ``/metrics``; raises ``OSError`` if the port is taken."""
        if self.port:
            self._server, self._thread = start_http_server(self.port, addr=self.host, registry=self.registry)
        return self

    def stop(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            server.shutdown()  # type: ignore[attr-defined]
            server.server_close()  # type: ignore[attr-defined]
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
