"""A self-hostable 2048: Flask app factory."""

import os
from datetime import timedelta

from flask import Flask
from flask_compress import Compress
from werkzeug.middleware.proxy_fix import ProxyFix

from . import assets, errors, hints, i18n, security, store
from .api import bp as api_bp
from .health import bp as health_bp
from .pages import bp as pages_bp

DEFAULTS = {
    "SESSION_TYPE": "cachelib",
    "REDIS_URL": None,
    "SESSION_PERMANENT": True,
    "PERMANENT_SESSION_LIFETIME": timedelta(days=30),
    # Every request pushes the session's expiry (the lifetime above) forward, so sessions
    # expire when idle that long; the session's lock makes the write-back after a read safe.
    "SESSION_REFRESH_EACH_REQUEST": True,
    "SESSION_COOKIE_SAMESITE": "Lax",
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_FILE_THRESHOLD": 20000,
    "MOVE_LOCK_TIMEOUT": 5.0,
    "MAX_CONTENT_LENGTH": 4096,
    # How many reverse proxies in front of the app to trust for X-Forwarded-* headers.
    "TRUSTED_PROXIES": 0,
    # Per client address; fast human play and fast auto-play stay far below it.
    "API_RATE_LIMIT": "40 per second; 1500 per minute",
    # Per session: fast auto-play asks about five hints a second.
    "HINT_RATE_LIMIT": "10 per second; 400 per minute",
    "SOLVER_BUDGET_MS": 100,
    # Flask-Compress: Brotli when the browser asks for it, else gzip. Static files are sent as
    # streams, whose list leaves gzip out by default.
    "COMPRESS_ALGORITHM": ["br", "gzip"],
    "COMPRESS_ALGORITHM_STREAMING": ["br", "gzip"],
    # Brotli's quality 5 packs the CSS and JS about 8 % smaller than the library's 4, still in
    # under a millisecond each (quality 11 would take 25 ms for the CSS).
    "COMPRESS_BR_LEVEL": 5,
    # A body under 1 KiB fits in one packet with its headers, so compressing it saves no
    # packet and no round trip: the API's answers (100 to 900 bytes) are sent as they are.
    "COMPRESS_MIN_SIZE": 1024,
}


def create_app(test_config=None):
    """Build the app: defaults, then FLASK_* environment variables, then ``test_config``."""
    overrides = dict(test_config or {})
    instance_path = overrides.pop("INSTANCE_PATH", None) or os.environ.get("FLASK_INSTANCE_PATH")
    app = Flask(
        __name__,
        instance_path=os.path.abspath(instance_path) if instance_path else None,
        template_folder="../templates",
        static_folder="../static",
    )
    app.config.from_mapping(DEFAULTS)
    app.config.from_prefixed_env()
    app.config.from_mapping(overrides)
    os.makedirs(app.instance_path, mode=0o700, exist_ok=True)

    store.init_app(app, session_prefix=f"{api_bp.url_prefix}/")
    Compress(app)
    assets.init_app(app)
    errors.init_app(app)
    i18n.init_app(app)
    app.register_blueprint(api_bp)
    app.register_blueprint(pages_bp)
    app.register_blueprint(health_bp)
    security.init_app(app, api_bp)
    hints.warm_up()
    proxies = int(app.config["TRUSTED_PROXIES"])
    if proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies, x_prefix=proxies)
    return app
