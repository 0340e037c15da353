"""Refusals as the client needs them: JSON ``{"error": {"code", "message", "field"}}`` for the API
and event streams, a small HTML page otherwise. Service errors keep their status (400 malformed,
404 unknown, 409 not allowed now, 422 refused by the rules, 429 too many logins); nothing was
changed when one is raised (the service rolled its transaction back).

A database that cannot be reached (PostgreSQL restarting, a failover, a full connection pool) is
503 with ``Retry-After``, not a 500 with a traceback (issue 10): the client is told to come back,
and a retry with the same request id is applied at most once (the services' idempotency)."""

from __future__ import annotations

import logging

from flask import Flask, Response, jsonify, render_template
from sqlalchemy.exc import DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import HTTPException

from ..services.accounts import TooManyAttempts
from ..services.errors import ServiceError
from .security import forget_session_for_this_request, retry_after_header, wants_json

CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
         409: "conflict", 413: "payload_too_large", 415: "unsupported_media_type", 422: "unprocessable",
         429: "too_many_requests", 503: "service_unavailable"}
#: what a lost, refused or exhausted database connection raises
OUTAGES: tuple[type[Exception], ...] = (OperationalError, InterfaceError, DisconnectionError, PoolTimeout)
#: seconds a client is asked to wait during an outage (a restarted PostgreSQL answers within a few)
OUTAGE_RETRY_AFTER = 5
OUTAGE_MESSAGE = "database: unavailable for a moment; try again (a retry with the same request id is applied once)"

log = logging.getLogger(__name__)


def error_response(status: int, message: str, field: str | None = None) -> tuple[Response | str, int]:
    """The error in the client's format, with its status."""
    code = CODES.get(status, "error")
    if wants_json():
        return jsonify(error={"code": code, "message": message, "field": field}), status
    return render_template("error.html", status=status, code=code, message=message), status


def _service_error(error: ServiceError) -> tuple[Response | str, int]:
    return error_response(error.status, error.message, error.field)


def _too_many(error: TooManyAttempts) -> tuple[Response | str, int, dict[str, str]]:
    body, status = _service_error(error)
    return body, status, retry_after_header(error.retry_after)


def _outage(error: Exception) -> tuple[Response | str, int, dict[str, str]]:
    log.warning("database unavailable: %s", error.__class__.__name__)
    forget_session_for_this_request()  # the page's header cannot look the session up now
    body, status = error_response(503, OUTAGE_MESSAGE, "database")
    return body, status, {"Retry-After": str(OUTAGE_RETRY_AFTER)}


def _http_error(error: HTTPException) -> tuple[Response | str, int]:
    status = error.code or 500
    return error_response(status, error.description or error.name, getattr(error, "field", None))


def register(app: Flask) -> None:
    app.register_error_handler(TooManyAttempts, _too_many)
    app.register_error_handler(ServiceError, _service_error)
    app.register_error_handler(HTTPException, _http_error)
    for outage in OUTAGES:
        app.register_error_handler(outage, _outage)
