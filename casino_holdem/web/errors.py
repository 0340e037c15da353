"""Refusals as the client needs them: JSON ``{"error": {"code", "message", "field"}}`` for the API
and event streams, a small HTML page otherwise. Service errors keep their status (400 malformed,
404 unknown, 409 not allowed now, 422 refused by the rules, 429 too many logins); nothing was
changed when one is raised (the service rolled its transaction back)."""

from __future__ import annotations

from flask import Flask, Response, jsonify, render_template
from werkzeug.exceptions import HTTPException

from ..services.accounts import TooManyAttempts
from ..services.errors import ServiceError
from .security import wants_json

CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
         409: "conflict", 413: "payload_too_large", 415: "unsupported_media_type", 422: "unprocessable",
         429: "too_many_requests"}


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
    return body, status, {"Retry-After": str(error.retry_after)}


def _http_error(error: HTTPException) -> tuple[Response | str, int]:
    status = error.code or 500
    return error_response(status, error.description or error.name, getattr(error, "field", None))


def register(app: Flask) -> None:
    app.register_error_handler(TooManyAttempts, _too_many)
    app.register_error_handler(ServiceError, _service_error)
    app.register_error_handler(HTTPException, _http_error)
