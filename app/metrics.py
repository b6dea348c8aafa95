"""Prometheus metrics, off unless METRICS is true: the app then answers /metrics (app/routes/metrics.py).

Under gunicorn each worker writes its counts to files in PROMETHEUS_MULTIPROC_DIR
(prometheus_client's multiprocess mode: gunicorn.conf.py makes that folder, fresh, before the
workers start, and lets go of a dead worker's gauges), and /metrics adds up every worker's. Without
that folder (one process: `flask run`, the tests) the counts are the process's own.

Labels carry routes, methods, statuses and reasons, never an address, a session or a record:
nothing that names a player; and only values the app knows, so that no client can add series by
inventing them (a method it made up counts as ``other``; a path no route matches as ``unmatched``).
/metrics answers only the networks in METRICS_ALLOWED_FROM (loopback by default).
"""

import ipaddress
import os
import time
from functools import cache
from types import SimpleNamespace

from flask import current_app, g, request

# A hint's budget is 100 ms by default; a review position's 30 ms.
SECONDS = (0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5)
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def init_app(app):
    """Count requests when metrics are on; the allowed networks are read now, so a bad one stops the start."""
    if app.config["METRICS"]:
        networks = app.config["METRICS_ALLOWED_FROM"]
        app.extensions["metrics_allowed_from"] = [ipaddress.ip_network(network) for network in networks]
        app.after_request(count_request)


def may_scrape():
    """Whether this request may read the metrics: it came straight (no proxy adds X-Forwarded-For that
    no client can take off) from an allowed network."""
    if "X-Forwarded-For" in request.headers:
        return False
    try:
        address = ipaddress.ip_address(request.remote_addr or "")
    except ValueError:  # a UNIX socket
        return False
    return any(address in network for network in current_app.extensions["metrics_allowed_from"])


@cache
def _metrics():
    """The process's metrics, made once (prometheus_client is loaded only when metrics are on)."""
    from prometheus_client import Counter, Histogram

    return SimpleNamespace(
        requests=Counter("game2048_requests", "Requests answered", ["route", "method", "status"]),
        request_seconds=Histogram("game2048_request_seconds", "Time to answer a request", ["route"], buckets=SECONDS),
        games=Counter("game2048_games_started", "Games started (new ones, not restored)"),
        daily_games=Counter("game2048_daily_games_started", "Attempts at today's game started", ["ranked"]),
        moves=Counter("game2048_moves", "Moves played"),
        hints=Counter("game2048_hints", "Hints answered"),
        hint_seconds=Histogram("game2048_hint_seconds", "The solver's time for a hint", buckets=SECONDS),
        hint_depth=Histogram("game2048_hint_depth", "Moves ahead a hint's search reached", buckets=range(1, 13)),
        solver_refusals=Counter("game2048_solver_refusals", "Solver work refused", ["reason"]),
        store_errors=Counter("game2048_store_errors", "Requests the session store could not serve"),
        database_errors=Counter("game2048_database_errors", "Requests the records database could not serve"),
        records=Counter("game2048_records_saved", "Records saved (new or brought up to date)"),
        sessions=Counter("game2048_sessions_stored", "New sessions stored"),
    )


def count(name, amount=1, **labels):
    """Add ``amount`` to the counter ``name`` (a no-op when metrics are off)."""
    if amount and current_app.config["METRICS"]:
        counter = getattr(_metrics(), name)
        (counter.labels(**labels) if labels else counter).inc(amount)


def observe(name, value):
    if current_app.config["METRICS"]:
        getattr(_metrics(), name).observe(value)


def count_request(response):
    route = request.url_rule.rule if request.url_rule else "unmatched"
    method = request.method if request.method in METHODS else "other"
    count("requests", route=route, method=method, status=str(response.status_code))
    if "request_started" in g:  # app/logs.py's clock
        _metrics().request_seconds.labels(route=route).observe(time.perf_counter() - g.request_started)
    return response


def exposition():
    """Every worker's metrics added up (or this process's), in Prometheus's text format."""
    from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest, multiprocess

    registry = REGISTRY
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    return generate_latest(registry), CONTENT_TYPE_LATEST
