"""Rate limits and the share of the server's time each client gets.

Limits are declared where the routes are: ``api_routes(bp)`` on an API blueprint (one count
per client address over every API route, and the counts of new sessions), ``per_session`` and
``per_address`` on a view (the setting that names the limit), and ``work_time`` around a view
whose cost is heavy. ``init_app``, run once every blueprint is registered, makes one Limiter
for the app (not a module global: apps built side by side, as the tests do, never share
counts) and applies what was declared.

A client is its address (``client_address``): an IPv6 one by its /64, which one machine's
network gets whole.
"""

import ipaddress
import math
import time
from functools import wraps

from flask import current_app, session
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many

from . import metrics, store
from .errors import ApiError

DECLARED = "declared_limits"  # the attribute that carries a view's or a blueprint's declarations


def client_address():
    """The client's address as the limits count it: an IPv6 address by its /64, and an
    IPv4-mapped one as its IPv4."""
    address = get_remote_address()
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6 and ip.ipv4_mapped:
        return str(ip.ipv4_mapped)
    if ip.version == 6:
        return str(ipaddress.ip_network((ip, 64), strict=False))
    return address


def session_key():
    """A session is limited on its own; a request without one, by its address."""
    return f"session:{session.sid}" if getattr(session, "sid", None) else client_address()


def _declare(target, *declaration):
    setattr(target, DECLARED, [*getattr(target, DECLARED, ()), declaration])
    return target


def api_routes(blueprint):
    """Every route of ``blueprint`` counts against the address's API_RATE_LIMIT (one count over all
    API routes), and a request that would store a new session against the new-session limits."""
    _declare(blueprint, "API_RATE_LIMIT", "api", client_address, False)
    _declare(blueprint, "NEW_SESSION_RATE_LIMIT", "new-session", client_address, True)
    _declare(blueprint, "NEW_SESSION_GLOBAL_LIMIT", "new-session-everyone", lambda: "everyone", True)
    return blueprint


def per_session(setting):
    """The view's own limit, named by ``setting``, counted per session."""
    return lambda view: _declare(view, setting, None, session_key, False)


def per_address(setting):
    """The view's own limit, named by ``setting``, counted per client address."""
    return lambda view: _declare(view, setting, None, client_address, False)


def work_time(view):
    """Heavy work is shared per client address, whatever its number of sessions: the solver
    (hints, auto-play, reviews) and work that grows with a game's length (saving a record,
    reading one).

    Each request's time is charged, in milliseconds, to WORK_TIME_LIMIT; an address that has
    used it up is answered 429 before the work starts, so it cannot crowd other players' moves
    out of the workers.
    """

    @wraps(view)
    def charged(*args, **kwargs):
        limiter = current_app.extensions["rate_limiter"]
        if not limiter.enabled:
            return view(*args, **kwargs)
        limits, address = parse_many(current_app.config["WORK_TIME_LIMIT"]), client_address()
        for limit in limits:
            if not limiter.limiter.test(limit, "work-time", address):
                reset = limiter.limiter.get_window_stats(limit, "work-time", address).reset_time
                metrics.count("solver_refusals", reason="time_used")
                message = "this address has used its share of the server's time; try again later"
                raise ApiError(429, "too_many_requests", message, retry_after=max(1, math.ceil(reset - time.time())))
        started = time.perf_counter()
        try:
            return view(*args, **kwargs)
        finally:
            spent = math.ceil((time.perf_counter() - started) * 1000)
            for limit in limits:
                limiter.limiter.hit(limit, "work-time", address, cost=spent)

    return charged


def init_app(app):
    """One Limiter for the app, and every limit the blueprints and views declared."""
    limiter = app.extensions["rate_limiter"] = Limiter(client_address, app=app)
    for blueprint in app.blueprints.values():
        for setting, scope, key, new_sessions_only in getattr(blueprint, DECLARED, ()):
            limiter.shared_limit(_setting(setting), scope=scope, key_func=key, **_new_sessions(new_sessions_only))(
                blueprint
            )
    for endpoint, view in list(app.view_functions.items()):
        for setting, _scope, key, _new in getattr(view, DECLARED, ()):
            view = limiter.limit(_setting(setting), key_func=key, override_defaults=False)(view)
        app.view_functions[endpoint] = view


def _setting(name):
    return lambda: current_app.config[name]


def _new_sessions(only):
    """A count of new sessions: only a request without a stored session is checked, and only one
    that stored a session counts."""
    if not only:
        return {}
    return {
        "exempt_when": lambda: not store.session_is_new(),
        "deduct_when": lambda _response: bool(session) and store.session_is_new(),
    }
