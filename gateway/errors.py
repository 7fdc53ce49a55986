"""Gateway errors, each rendered in OpenAI's error shape ``{"error": {"message", "type", "code"}}``.

GatewayError
├── ClientError             the client's fault: invalid_request_error, counted as client_error
│   ├── InvalidRequest      400
│   │   └── BodyTooLarge    413
│   ├── Unauthorized        401 (no API key, or a wrong one)
│   ├── Forbidden           403 (the key may not use that model or route)
│   ├── ModelNotFound       404
│   ├── ResultNotFound      404
│   └── BodyTimeout         408 (the body did not arrive within FACTSENTRY_BODY_TIMEOUT_S)
├── UpstreamError           upstream's own status and message
├── ClientClosed            499 (the client hung up before its request was read; nobody reads the answer)
├── Unavailable             503 (a broker or Redis is down, or the gateway is overloaded; the client may retry)
├── BlockedAnswer           422 (block policy, error style)
├── CheckFailed             422 (the pipeline could not check a text: dead-lettered, over budget)
└── ConfigError             startup: a bad models or policy file
"""

from __future__ import annotations

from typing import Any, ClassVar

import orjson
from starlette.responses import Response


class GatewayError(Exception):
    status: ClassVar[int] = 500
    type: ClassVar[str] = "server_error"
    retriable: ClassVar[bool] = False
    # The ``outcome`` label of the request counter: whose fault it was (see gateway/access.py).
    outcome: str = "gateway_error"

    def __init__(self, message: str, *, code: str | None = None, param: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.param = param

    def body(self) -> dict[str, Any]:
        return {"error": {"message": self.message, "type": self.type, "param": self.param, "code": self.code}}

    def response(self, headers: dict[str, str] | None = None) -> Response:
        return error_response(self.status, self.body(), headers)


class ClientError(GatewayError):
    """The client's fault: counted as ``client_error``, OpenAI's ``invalid_request_error``."""

    outcome = "client_error"
    type = "invalid_request_error"


class InvalidRequest(ClientError):
    status = 400


class BodyTooLarge(InvalidRequest):
    status = 413


class Unauthorized(ClientError):
    status = 401


class Forbidden(ClientError):
    status = 403


class ModelNotFound(ClientError):
    status = 404


class ResultNotFound(ClientError):
    status = 404


class UpstreamError(GatewayError):
    type = "upstream_error"
    retriable = True

    def __init__(self, message: str, *, status: int = 502, code: str | None = None, type_: str | None = None) -> None:
        super().__init__(message, code=code)
        self.upstream_status = status
        self.upstream_type = type_ or "upstream_error"
        # The provider refusing the client's request (bad parameters, context too long) is the client's
        # error; its failures, rate limits and refusals of our own credentials are the upstream's.
        self.outcome = "client_error" if status in (400, 404, 413, 422) else "upstream_error"

    def body(self) -> dict[str, Any]:
        return {"error": {"message": self.message, "type": self.upstream_type, "param": None, "code": self.code}}

    def response(self, headers: dict[str, str] | None = None) -> Response:
        return error_response(self.upstream_status, self.body(), headers)


class ClientClosed(GatewayError):
    """The client hung up while its request was read: counted and logged as ``client_closed``, no traceback."""

    status = 499
    type = "invalid_request_error"
    outcome = "client_closed"


class BodyTimeout(ClientError):
    status = 408


class Unavailable(GatewayError):
    """A dependency (broker, Redis) is down or the gateway is overloaded; the client may retry."""

    status = 503
    type = "server_error"
    retriable = True
    outcome = "checker_error"


class BlockedAnswer(GatewayError):
    outcome = "block"
    status = 422
    type = "factuality_error"


class CheckFailed(GatewayError):
    outcome = "checker_error"
    status = 422
    type = "invalid_request_error"


class ConfigError(GatewayError):
    """A models or policy file that cannot be used; raised at startup."""


def error_response(status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> Response:
    return Response(orjson.dumps(body), status_code=status, media_type="application/json", headers=headers)
