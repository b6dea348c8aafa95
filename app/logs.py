"""Logs a host can read with their tools: a request id on every answer (but immutable files) and, with LOG_FORMAT=json,
every line as a JSON object (python-json-logger), one line per request among them.

The request id comes from the proxy's X-Request-ID when it sends one (compose's nginx does), so a
request can be followed from the proxy's log to the app's; otherwise the app makes one. It goes
back in the answer's X-Request-ID, except a static file's cached for good (assets.py): the same
bytes for every player, never to be asked for again, so no one has a request of theirs to report
by it; its id is still in the logs. Left out, it spares the game page's first load about fifty
bytes a file (some 0.7 KB). Client addresses and session ids are left out unless
LOG_CLIENT_ADDRESS asks for the address. In JSON mode gunicorn's own lines are JSON too, and its
access log gives way to the app's request line (gunicorn.conf.py), which knows the route.
"""

import logging
import re
import secrets
import time

from flask import current_app, g, has_request_context, request
from pythonjsonlogger.json import JsonFormatter

REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
log = logging.getLogger("app.requests")


class RequestId(logging.Filter):
    """Every line written while a request runs carries its id."""

    def filter(self, record):
        if has_request_context() and "request_id" in g and not hasattr(record, "request_id"):
            record.request_id = g.request_id
        return True


def json_formatter():
    """One JSON object a line: time, level, logger, message, the request's fields and a traceback, if any."""
    return JsonFormatter(
        "{asctime}{levelname}{name}{message}",
        style="{",
        rename_fields={"asctime": "time", "levelname": "level", "name": "logger", "exc_info": "traceback"},
        datefmt="%Y-%m-%dT%H:%M:%S%z",
    )


def init_app(app):
    app.before_request(take_request_id)
    app.after_request(answer_request_id)
    if app.config["LOG_FORMAT"] != "json":
        return
    handler = logging.StreamHandler()
    handler.setFormatter(json_formatter())
    handler.addFilter(RequestId())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    app.logger.handlers.clear()  # Flask's own handler would write the same lines as plain text
    app.after_request(log_request)


def take_request_id():
    given = request.headers.get("X-Request-ID", "")
    g.request_id = given if REQUEST_ID.fullmatch(given) else secrets.token_hex(16)
    g.request_started = time.perf_counter()


def answer_request_id(response):
    """Runs after assets.py has marked a fingerprinted static file immutable (registered first)."""
    if "request_id" in g and not response.cache_control.immutable:
        response.headers["X-Request-ID"] = g.request_id
    return response


def log_request(response):
    """The request's line: method, route (the rule, not the path: no record id in it), status, time."""
    fields = {
        "method": request.method,
        "route": request.url_rule.rule if request.url_rule else None,
        "status": response.status_code,
        "duration_ms": round((time.perf_counter() - g.get("request_started", time.perf_counter())) * 1000, 2),
    }
    if current_app.config["LOG_CLIENT_ADDRESS"]:
        fields["client"] = request.remote_addr
    log.info("request", extra=fields)
    return response
