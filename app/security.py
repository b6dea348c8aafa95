"""Safe-by-default HTTP: security headers, cross-site request refusal, usable hosts only.

The rate limits and each client's share of the server's time are app/limits.py's.
"""

from urllib.parse import urlsplit

from flask import current_app, g, request
from werkzeug.exceptions import BadRequest

from .errors import ApiError
from .store.cookies import secure_cookies

# connect-src and manifest-src fall back to default-src: naming them 'self' again would be the same
# policy, 41 bytes longer on every page, API answer and SVG.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'{script_hashes}",
        "style-src 'self'",
        "img-src 'self' data:",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "object-src 'none'",
    ]
)
PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"


def init_app(app):
    app.before_request(refuse_unusable_hosts)
    app.before_request(refuse_cross_site_requests)
    app.after_request(add_security_headers)


def refuse_unusable_hosts():
    """Links are built from the Host header: one Werkzeug cannot use (missing, or characters no host
    name has) reads as empty, and would make links to nowhere. With TRUSTED_HOSTS set, any other
    host is refused by Flask itself (also a 400)."""
    if not request.host:
        raise BadRequest("the Host header is missing or is not a host name")


def refuse_cross_site_requests():
    """CSRF defence for the JSON API: browsers say where a request comes from.

    Every API request from another site is refused, reads too: a link or an image elsewhere sends
    the session's cookie with a GET (SameSite=Lax lets top-level navigations carry it), and no
    other site's page has any use for this API. An Origin that is not this one is refused on every
    method too (a browser sends one with a fetch from another origin). An origin is a scheme and a
    host: behind the trusted proxy, the forwarded scheme. Same-origin requests without these
    headers (old browsers, tests, programs) still pass; 415 for non-JSON bodies is enforced where
    the body is parsed (app/requests.py).
    """
    if not request.path.startswith("/api/"):
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
