"""Safe-by-default HTTP: security headers, cross-site request refusal, rate limits."""

import ipaddress
import math
import time
from functools import wraps
from urllib.parse import urlsplit

from flask import current_app, g, request, session
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many
from werkzeug.exceptions import BadRequest

from . import store
from .errors import ApiError, respond
from .store.cookies import secure_cookies

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'{script_hashes}",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "manifest-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "object-src 'none'",
    ]
)
PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# Always served besides TRUSTED_HOSTS: health checks ask there, and a link to a loopback name
# points only at the asker's own machine.
LOOPBACK_HOSTS = ("localhost", "127.0.0.1")


def init_app(app, api_blueprint):
    """Limits are per client address (client_address), shared through Redis when Redis holds the sessions.

    The API limit is one count per address over every API route. New sessions have a
    count of their own, so one address cannot fill the session store: a request that
    would make one is refused once the address is over it, and only a session actually
    stored counts; a count over every address is the last line. One Limiter per app (not
    a module global) so that apps built side by side, as the tests do, never share counters.
    """
    app.config.setdefault("RATELIMIT_STORAGE_URI", app.config["REDIS_URL"] or "memory://")
    # Counters out of reach raise limits' own StorageError (a 503, see errors.py), not Redis's.
    app.config.setdefault("RATELIMIT_STORAGE_OPTIONS", {"wrap_exceptions": True})
    limiter = app.extensions["rate_limiter"] = Limiter(client_address, app=app)
    limiter.shared_limit(lambda: current_app.config["API_RATE_LIMIT"], scope="api")(api_blueprint)
    for scope, setting, key in (
        ("new-session", "NEW_SESSION_RATE_LIMIT", client_address),
        ("new-session-everyone", "NEW_SESSION_GLOBAL_LIMIT", lambda: "everyone"),
    ):
        limiter.shared_limit(
            lambda setting=setting: current_app.config[setting],
            scope=scope,
            key_func=key,
            exempt_when=lambda: not store.session_is_new(),
            deduct_when=lambda _response: bool(session) and store.session_is_new(),
        )(api_blueprint)
    app.view_functions["api.hint"] = limiter.limit(
        lambda: current_app.config["HINT_RATE_LIMIT"], key_func=session_or_address, override_defaults=False
    )(within_work_time(app.view_functions["api.hint"]))
    if app.config.get("TRUSTED_HOSTS"):
        app.config["TRUSTED_HOSTS"] = [*app.config["TRUSTED_HOSTS"], *LOOPBACK_HOSTS]
    app.before_request(refuse_unusable_hosts)
    app.before_request(refuse_cross_site_writes)
    app.after_request(add_security_headers)


def client_address():
    """The client's address as the limits count it: an IPv6 address by its /64, which one
    machine's network gets whole (2**64 addresses), and an IPv4-mapped one as its IPv4."""
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


def session_or_address():
    """A session with a game is limited on its own; other requests by their address."""
    return session.sid if "game" in session else client_address()


def within_work_time(view):
    """Heavy work is shared per client address, whatever its number of sessions: the solver
    (hints, auto-play, reviews) and replays whose cost grows with a game's length (saving a record).

    Each request's time is charged, in milliseconds, to WORK_TIME_LIMIT; an address that has
    used it up is answered 429 before the work starts, so it cannot crowd other players' moves
    out of the workers.
    """

    @wraps(view)
    def limited(*args, **kwargs):
        limiter = current_app.extensions["rate_limiter"]
        if not limiter.enabled:
            return view(*args, **kwargs)
        limits, address = parse_many(current_app.config["WORK_TIME_LIMIT"]), client_address()
        for limit in limits:
            if not limiter.limiter.test(limit, "work-time", address):
                reset = limiter.limiter.get_window_stats(limit, "work-time", address).reset_time
                response = respond(
                    429, "too_many_requests", "this address has used its share of the server's time; try again later"
                )
                response.headers["Retry-After"] = str(max(1, math.ceil(reset - time.time())))
                return response
        started = time.perf_counter()
        try:
            return view(*args, **kwargs)
        finally:
            spent = math.ceil((time.perf_counter() - started) * 1000)
            for limit in limits:
                limiter.limiter.hit(limit, "work-time", address, cost=spent)

    return limited


def refuse_unusable_hosts():
    """Links are built from the Host header: one Werkzeug cannot use (missing, or characters no host
    name has) reads as empty, and would make links to nowhere. With TRUSTED_HOSTS set, any other
    host is refused by Flask itself (also a 400)."""
    if not request.host:
        raise BadRequest("the Host header is missing or is not a host name")


def refuse_cross_site_writes():
    """CSRF defence for the JSON API: browsers say where a request comes from.

    An origin is a scheme and a host: behind the trusted proxy, the forwarded scheme.
    Same-origin requests without an Origin header (old browsers, tests) still pass;
    415 for non-JSON bodies is enforced where the body is parsed (app.api).
    """
    if request.method in SAFE_METHODS or not request.path.startswith("/api/"):
        return
    if request.headers.get("Sec-Fetch-Site") == "cross-site":
        raise ApiError(403, "cross_site", "cross-site requests are not allowed")
    origin = request.headers.get("Origin")
    if origin is not None and urlsplit(origin)[:2] != (request.scheme, request.host):
        raise ApiError(403, "cross_origin", "requests from other origins are not allowed")


def add_security_headers(response):
    """Every answer is nosniff; the headers that govern a document go on what can be one.

    Static scripts, styles and images are never documents (nosniff keeps them so), so the
    policy headers would only cost some 450 bytes on each; an SVG opened alone is a document.
    """
    headers = response.headers
    headers.setdefault("X-Content-Type-Options", "nosniff")
    if request.path.startswith(f"{current_app.static_url_path}/") and response.mimetype != "image/svg+xml":
        return response
    # Inline scripts (the page's import map) run only if their exact text's hash is listed.
    script_hashes = "".join(f" '{digest}'" for digest in g.get("script_hashes", ()))
    headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY.format(script_hashes=script_hashes))
    headers.setdefault("Referrer-Policy", "same-origin")
    headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
    headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
    if secure_cookies(current_app) and request.is_secure:  # browsers ignore it over HTTP
        headers.setdefault("Strict-Transport-Security", "max-age=31536000")
    return response
