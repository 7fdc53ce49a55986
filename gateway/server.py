"""The HTTP protocol the gateway is served with: uvicorn's httptools protocol with a header read timeout.

uvicorn closes an idle keep-alive connection, but a client that opens a connection and trickles its request
line and headers (a slow-loris) is held as long as it keeps sending. Here every request's headers must be
complete within ``FACTSENTRY_HEADER_TIMEOUT_S`` of its first byte (or of the connection, for the first
request), else the client gets a 408 and the connection is closed. The body has its own limit
(``FACTSENTRY_BODY_TIMEOUT_S``, gateway/request.py).
"""

from __future__ import annotations

import asyncio
import logging

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

log = logging.getLogger(__name__)

TIMED_OUT = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: %d\r\n\r\n"
)
BODY = (
    b'{"error":{"message":"the request headers did not arrive in time (FACTSENTRY_HEADER_TIMEOUT_S)",'
    b'"type":"invalid_request_error","param":null,"code":"header_timeout"}}'
)


class HeaderTimeoutProtocol(HttpToolsProtocol):
    """``HttpToolsProtocol`` that gives each request's headers ``header_timeout_s`` to arrive."""

    header_timeout_s: float = 10.0
    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        self._disarm()  # idle from here on: uvicorn's keep-alive timeout applies
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_timeout_s, self._expire)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _expire(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.write(TIMED_OUT % len(BODY) + BODY)
            self.transport.close()


def protocol(header_timeout_s: float) -> type[HeaderTimeoutProtocol]:
    """The protocol class to hand uvicorn (``http=``), with the operator's header timeout."""
    return type("GatewayHttpProtocol", (HeaderTimeoutProtocol,), {"header_timeout_s": header_timeout_s})
