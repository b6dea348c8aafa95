"""Errors as part of the interface: JSON under /api, a small HTML page elsewhere."""

from flask import current_app, jsonify, make_response, render_template, request
from flask.globals import request_ctx
from flask_limiter import RateLimitExceeded
from limits.errors import StorageError
from werkzeug.exceptions import HTTPException, InternalServerError

from . import metrics
from .store import GameHeldElsewhere, SessionBusy, StoreUnavailable, WriteOutcomeUnknown

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


def http_error(error):
    """Every HTTP error, including the 500 that wraps an unhandled exception."""
    original = getattr(error, "original_exception", None)
    if isinstance(error, InternalServerError):
        for refusal, answer in AFTER_THE_ROUTE.items():
            if isinstance(original, refusal):
                return answer(original)
    code = error.name.lower().replace(" ", "_")
    response = respond(error.code, code, error.description)
    for name, value in error.get_headers():
        if name != "Content-Type":
            response.headers[name] = value
    if isinstance(error, RateLimitExceeded):
        response.headers["Retry-After"] = str(error.limit.limit.get_expiry())
    return response


# What the session's write-back can raise, after the route: Flask wraps it in a 500, answered as itself.
AFTER_THE_ROUTE = {**dict.fromkeys(STORE_DOWN, store_unavailable), SessionBusy: session_busy,
                   GameHeldElsewhere: game_elsewhere}  # fmt: skip


def respond(status, code, message, **extra):
    if request.path in MACHINE_PATHS or request.path.startswith("/api/"):
        response = jsonify({"error": {"code": code, "message": message}, **extra})
    elif request_ctx.url_adapter is None:  # Werkzeug refused the Host header: no page can link anywhere
        response = make_response(message, {"Content-Type": "text/plain; charset=utf-8"})
    else:
        response = make_response(render_template("error.html", status=status, message=message))
    response.status_code = status
    return response
