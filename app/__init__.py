"""A self-hostable 2048: Flask app factory."""

import os
from datetime import timedelta

from flask import Flask
from flask_compress import Compress
from werkzeug.middleware.proxy_fix import ProxyFix

from . import api, assets, db, errors, hints, i18n, records, seals, security, store
from .api import bp as api_bp
from .health import bp as health_bp
from .pages import bp as pages_bp
from .record_pages import bp as record_pages_bp

DEFAULTS = {
    "SESSION_TYPE": "sqlite",
    "REDIS_URL": None,
    "SESSION_PERMANENT": True,
    "PERMANENT_SESSION_LIFETIME": timedelta(days=30),
    # Every request pushes the session's expiry (the lifetime above) forward, so sessions
    # expire when idle that long; the session's lock makes the write-back after a read safe.
    "SESSION_REFRESH_EACH_REQUEST": True,
    "SESSION_COOKIE_SAMESITE": "Lax",
    "SESSION_COOKIE_HTTPONLY": True,
    # Secure when the request came over HTTPS (store/cookies.py); true or false to force it.
    "SESSION_COOKIE_SECURE": "auto",
    # Embedded store: past this many sessions the unplayed, then the longest idle, are dropped (about 30 MB).
    "SESSION_STORE_LIMIT": 100_000,
    # A session whose game has no move yet (a page opened, nothing played) is kept a day only.
    "UNPLAYED_SESSION_LIFETIME": 86400,
    "SESSION_LOCK_TIMEOUT": 5.0,
    # Redis: how long a request may hold its session's lock. A request that dies holding
    # it blocks its session that long at most; a live one still running then is refused.
    "SESSION_LOCK_LEASE": 2.0,
    "MAX_CONTENT_LENGTH": 4096,
    # How many reverse proxies in front of the app to trust for X-Forwarded-* headers.
    "TRUSTED_PROXIES": 0,
    # Per client address; fast human play and fast auto-play stay far below it.
    "API_RATE_LIMIT": "40 per second; 1500 per minute",
    # Per client address: a browser makes one; a household or an office behind one address a few.
    "NEW_SESSION_RATE_LIMIT": "10 per minute; 200 per day",
    # Over every address: the last line against filling the session store from many addresses.
    "NEW_SESSION_GLOBAL_LIMIT": "300 per minute",
    # Per session: fast auto-play asks about five hints a second.
    "HINT_RATE_LIMIT": "10 per second; 400 per minute",
    # Milliseconds of heavy work per client address, over all its sessions (the solver's hints and
    # reviews, replaying a long game to save it): a third of a core over a minute at most, so
    # late-game auto-play (about 100 ms a hint) keeps its normal pace of some three hints a
    # second, and one address cannot take the solver or the workers from everyone.
    "WORK_TIME_LIMIT": "500 per second; 20000 per minute",
    "SOLVER_BUDGET_MS": 100,
    # Saved records, per session and per client address: plenty for sharing, too few to spam.
    "RECORD_SESSION_LIMIT": "5 per minute; 50 per day",
    "RECORD_ADDRESS_LIMIT": "20 per minute; 200 per day",
    # A review request analyses this many positions, each within this budget: a third of a
    # second at most, so that one request never holds a worker long from other players.
    "REVIEW_RANGE": 10,
    "REVIEW_BUDGET_MS": 30,
    # Per client address: reviews keep the solver busy.
    "REVIEW_RATE_LIMIT": "3 per second; 120 per minute",
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
    seals.init_app(app)

    store.init_app(app, session_prefix=f"{api_bp.url_prefix}/", played=api.has_played_game)
    Compress(app)
    assets.init_app(app)
    errors.init_app(app)
    i18n.init_app(app)
    app.register_blueprint(api_bp)
    app.register_blueprint(pages_bp)
    app.register_blueprint(health_bp)
    app.register_blueprint(record_pages_bp)
    security.init_app(app, api_bp)
    db.init_app(app)
    records.init_app(app)
    hints.warm_up()
    proxies = int(app.config["TRUSTED_PROXIES"])
    if proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies, x_prefix=proxies)
    return app
