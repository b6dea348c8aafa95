"""Errors as part of the interface: JSON under /api, a small HTML page elsewhere."""

import json

from flask import current_app, jsonify, make_response, render_template, request
from flask.globals import request_ctx
from flask_limiter import RateLimitExceeded
from limits.errors import StorageError
from werkzeug.exceptions import HTTPException, InternalServerError
from werkzeug.http import HTTP_STATUS_CODES

from . import metrics
from .faults import SolverUnavailable, StoreUnavailable, WriteOutcomeUnknown
from .store import GameHeldElsewhere, SessionBusy

# Answered in JSON, as the API is: what programs ask (health checks, the metrics' scraper).
MACHINE_PATHS = ("/api", "/healthz", "/readyz", "/metrics")
# The session store, or the rate-limit counters kept beside it (limits.py), out of reach.
STORE_DOWN = (StoreUnavailable, StorageError)


class ApiError(Exception):
    """A refusal the client can act on; ``extra`` fields ride along (e.g. the state), and
    ``retry_after`` (seconds) says when asking again makes sense."""

    def __init__(self, status, code, message, retry_after=None, **extra):
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra
        self.retry_after = retry_after


def init_app(app):
    app.register_error_handler(ApiError, api_error)
    app.register_error_handler(SessionBusy, session_busy)
    app.register_error_handler(GameHeldElsewhere, game_elsewhere)
    app.register_error_handler(SolverUnavailable, solver_unavailable)
    for down in STORE_DOWN:
        app.register_error_handler(down, store_unavailable)
    app.register_error_handler(HTTPException, http_error)


def api_error(error):
    response = respond(error.status, error.code, error.message, **error.extra)
    if error.retry_after is not None:
        response.headers["Retry-After"] = str(error.retry_after)
    return response


def session_busy(_error):
    return respond(409, "busy", "another request of this game is still running; try again")


def game_elsewhere(_error):
    """The session's write-back found its game held by another session (app/store/locking.py)."""
    message = "this game is held by another session, so this one was closed; nothing was changed"
    return respond(409, "game_elsewhere", message)


def store_unavailable(error):
    """503 with ``changed``: false when the store is known to hold nothing of this request,
    null when its write-back was sent but never confirmed (resend a move with ``moves``)."""
    current_app.logger.warning("session store unavailable: %s", error)
    metrics.count("store_errors")
    if isinstance(error, WriteOutcomeUnknown):
        message = "the game store did not confirm saving this change; it may have been saved: check before repeating it"
        response = respond(503, "store_unavailable", message, changed=None)
    else:
        message = "the game store is unavailable; nothing was changed: try again shortly"
        response = respond(503, "store_unavailable", message, changed=False)
    response.headers["Retry-After"] = "5"
    return response


def solver_unavailable(error):
    """The solver's slot, a lock file in the instance folder, cannot be opened: no hint or review now."""
    current_app.logger.warning("solver unavailable: %s", error)
    message = "the solver cannot work right now; nothing was changed: try again shortly"
    response = respond(503, "solver_unavailable", message)
    response.headers["Retry-After"] = "5"
    return response


def http_error(error):
    """Every HTTP error, including the 500 that wraps an unhandled exception."""
    original = getattr(error, "original_exception", None)
    if isinstance(error, InternalServerError):
        for refusal_kind, answer in AFTER_THE_ROUTE.items():
            if isinstance(original, refusal_kind):
                return answer(original)
    response = respond(error.code, code_of(error.code), error.description)
    for name, value in error.get_headers():
        if name != "Content-Type":
            response.headers[name] = value
    if isinstance(error, RateLimitExceeded):
        response.headers["Retry-After"] = str(error.limit.limit.get_expiry())
    return response


# What the session's write-back can raise, after the route: Flask wraps it in a 500, answered as itself.
AFTER_THE_ROUTE = {**dict.fromkeys(STORE_DOWN, store_unavailable), SessionBusy: session_busy,
                   GameHeldElsewhere: game_elsewhere}  # fmt: skip


def code_of(status):
    """An HTTP error's code in the JSON body: its name in snake case ("request_entity_too_large")."""
    return HTTP_STATUS_CODES.get(status, "Unknown Error").lower().replace(" ", "_")


def for_machines(path):
    return path in MACHINE_PATHS or path.startswith("/api/")


def error_body(code, message, **extra):
    return {"error": {"code": code, "message": message}, **extra}


def refusal(status, message, path):
    """What the server answers to a request it refuses before the app sees it (gunicorn.conf.py's
    worker: a request that never arrived whole, or that gunicorn cannot parse), as the app answers:
    JSON under /api, plain text elsewhere (no page: the request may not even name one).
    Returns (content type, body)."""
    if for_machines(path):
        return "application/json", json.dumps(error_body(code_of(status), message)).encode()
    return "text/plain; charset=utf-8", f"{status} {HTTP_STATUS_CODES.get(status, '')}: {message}\n".encode()


def respond(status, code, message, **extra):
    if for_machines(request.path):
        response = jsonify(error_body(code, message, **extra))
    elif request_ctx.url_adapter is None:  # Werkzeug refused the Host header: no page can link anywhere
        response = make_response(message, {"Content-Type": "text/plain; charset=utf-8"})
    else:
        response = make_response(render_template("error.html", status=status, message=message))
    response.status_code = status
    return response
