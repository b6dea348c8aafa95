"""Errors as part of the interface: JSON under /api, a small HTML page elsewhere."""

from flask import current_app, jsonify, make_response, render_template, request
from flask_limiter import RateLimitExceeded
from werkzeug.exceptions import HTTPException, InternalServerError

from .store import UNAVAILABLE, SessionBusy


class ApiError(Exception):
    """A refusal the client can act on; ``extra`` fields ride along (e.g. the state)."""

    def __init__(self, status, code, message, **extra):
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra


def init_app(app):
    app.register_error_handler(ApiError, lambda e: respond(e.status, e.code, e.message, **e.extra))
    app.register_error_handler(SessionBusy, session_busy)
    for unavailable in UNAVAILABLE:
        app.register_error_handler(unavailable, store_unavailable)
    app.register_error_handler(HTTPException, http_error)


def session_busy(_error):
    return respond(409, "busy", "another request of this game is still running; try again")


def store_unavailable(_error):
    current_app.logger.warning("session store unavailable: %s", _error)
    response = respond(503, "store_unavailable", "the game store is unavailable; try again shortly")
    response.headers["Retry-After"] = "5"
    return response


def http_error(error):
    """Every HTTP error, including the 500 that wraps an unhandled exception."""
    original = getattr(error, "original_exception", None)
    if isinstance(error, InternalServerError) and isinstance(original, UNAVAILABLE):
        return store_unavailable(original)
    if isinstance(error, InternalServerError) and isinstance(original, SessionBusy):
        return session_busy(original)  # the session's write-back, after the route, was refused
    code = error.name.lower().replace(" ", "_")
    response = respond(error.code, code, error.description)
    for name, value in error.get_headers():
        if name != "Content-Type":
            response.headers[name] = value
    if isinstance(error, RateLimitExceeded):
        response.headers["Retry-After"] = str(error.limit.limit.get_expiry())
    return response


def respond(status, code, message, **extra):
    if request.path in ("/api", "/healthz") or request.path.startswith("/api/"):
        response = jsonify({"error": {"code": code, "message": message}, **extra})
    else:
        response = make_response(render_template("error.html", status=status, message=message))
    response.status_code = status
    return response
