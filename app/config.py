"""Every setting the app reads, with its default and the form it takes: the one place both live.

create_app loads DEFAULTS, then the FLASK_* environment variables (read as JSON where they
parse as JSON: ``true``, ``30``), then a test's own mapping; ``check`` then holds every host
setting to its form, and last ``derive`` fills what depends on other settings or on the instance
folder. SETTINGS are the ones meant for hosts, the table of docs/deployment.md (a test keeps the
two in agreement); FIXED are the app's own choices for its libraries.

A setting's form is a type msgspec converts to, with its bounds (as JSON has it, or from text:
``"30"``, ``true``), and what the form is in words, for the one line a bad value stops the start
with (the app factory, gunicorn and the ``flask`` commands alike): ``FLASK_NAME='value' is not ...``.
A list also takes its items split by commas, a switch also 1/0, yes/no and on/off, a choice of words
any case; rate limits and networks are read by the libraries that use them (limits, ipaddress).
"""

import ipaddress
import logging
import os
import secrets
import tempfile
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Annotated, Literal, NamedTuple

import click
import limits
import msgspec
from msgspec import Meta

from . import datafiles

log = logging.getLogger(__name__)


class Form(NamedTuple):
    """What a setting takes: a type msgspec converts to (its bounds in Meta), in words, and a further
    check by the library that reads it (raising ValueError)."""

    type: object
    words: str
    check: Callable | None = None


class Setting(NamedTuple):
    default: object
    form: Form


def _networks(values):
    for value in values:
        ipaddress.ip_network(value)


HOST_NAME = r"^(\.?[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?$"
STORE_KIND = Form(Literal["sqlite", "redis"], '"sqlite" or "redis"')
REDIS = Form(Annotated[str, Meta(pattern=r"^(redis|rediss|unix)://")] | None, "a Redis URL (redis://HOST:PORT/DB)")
LIFETIME = Form(Annotated[int, Meta(ge=1)], "a whole number of seconds, 1 or more")
SECURE = Form(Literal["auto"] | bool, '"auto", true or false')
AT_LEAST_ONE = Form(Annotated[int, Meta(ge=1)], "a whole number, 1 or more")
COUNT = Form(Annotated[int, Meta(ge=0)], "a whole number, 0 or more")
SECONDS = Form(Annotated[float, Meta(gt=0)], "a number of seconds above 0")
MILLISECONDS = Form(Annotated[float, Meta(gt=0)], "a number of milliseconds above 0")
HOSTS = Form(list[Annotated[str, Meta(pattern=HOST_NAME)]] | None,
             "host names (game.example.org), as a JSON list or split by commas")  # fmt: skip
KEY = Form(Annotated[str, Meta(min_length=1)] | None, "some text")
LOG_FORM = Form(Literal["text", "json"], '"text" or "json"')
SWITCH = Form(bool, "true or false (or 1 and 0, yes and no, on and off)")
NETWORKS = Form(list[str], "networks (127.0.0.0/8), as a JSON list or split by commas", _networks)
RATES = Form(str, 'rate limits, as "40 per second; 1500 per minute"', limits.parse_many)
STORAGE = Form(Annotated[str, Meta(pattern=r"^[a-z][a-z0-9+.-]*://")] | None, "a storage URL (memory://, redis://...)")
DATABASE = Form(Annotated[str, Meta(pattern=r"^(sqlite|postgresql)[a-z0-9+]*://")] | None,
                "a database URL (sqlite:////PATH or postgresql://USER@HOST/NAME)")  # fmt: skip
SWITCH_WORDS = {"true": True, "1": True, "yes": True, "on": True, "false": False, "0": False, "no": False, "off": False}


class ConfigError(click.ClickException):
    """A setting's value is not of its form: one line that names it, the value given and the form.
    A click exception, so that a ``flask`` command says that line alone."""

SETTINGS = {
    # --- The game's sessions -----------------------------------------------------------
    "SESSION_TYPE": Setting("sqlite", STORE_KIND),
    "REDIS_URL": Setting(None, REDIS),
    "PERMANENT_SESSION_LIFETIME": Setting(timedelta(days=30), LIFETIME),
    # Secure when the request came over HTTPS (store/cookies.py); true or false to force it.
    "SESSION_COOKIE_SECURE": Setting("auto", SECURE),
    # Embedded store: past this many sessions the unplayed, then the longest idle, are dropped (about 30 MB).
    "SESSION_STORE_LIMIT": Setting(100_000, AT_LEAST_ONE),
    # A session whose game has no move yet (a page opened, nothing played) is kept a day only.
    "UNPLAYED_SESSION_LIFETIME": Setting(86400, SECONDS),
    "SESSION_LOCK_TIMEOUT": Setting(5.0, SECONDS),
    # Redis: how long a request may hold its session's lock. A request that dies holding
    # it blocks its session that long at most; a live one still running then is refused.
    "SESSION_LOCK_LEASE": Setting(2.0, SECONDS),
    # --- Requests ----------------------------------------------------------------------
    "MAX_CONTENT_LENGTH": Setting(4096, AT_LEAST_ONE),
    # How many reverse proxies in front of the app to trust for X-Forwarded-* headers.
    "TRUSTED_PROXIES": Setting(0, COUNT),
    # Connections one client address may hold open at once in each gunicorn worker (app/worker.py):
    # a browser opens six at most, so a household's few browsers fit, and no one address fills a worker.
    "CONNECTIONS_PER_ADDRESS": Setting(32, AT_LEAST_ONE),
    # The host names the game is served under (Flask's own setting); None: any host name.
    "TRUSTED_HOSTS": Setting(None, HOSTS),
    # The key seeds derive from and sealed games are signed with; None: one kept in the instance
    # folder, made when first needed (secret_key).
    "SECRET_KEY": Setting(None, KEY),
    # --- Logs and metrics ---------------------------------------------------------------
    # "json": every line a JSON object (app/logs.py); "text": as Python and gunicorn write them.
    "LOG_FORMAT": Setting("text", LOG_FORM),
    # Client addresses are personal data: left out of the logs unless this asks for them.
    "LOG_CLIENT_ADDRESS": Setting(False, SWITCH),
    # Prometheus metrics at /metrics (app/metrics.py); off, the route does not exist.
    "METRICS": Setting(False, SWITCH),
    # The networks /metrics answers (a 404 elsewhere, and to any request that came through a proxy):
    # loopback only, unless the host names where its Prometheus scrapes from.
    "METRICS_ALLOWED_FROM": Setting(["127.0.0.0/8", "::1/128"], NETWORKS),
    # --- Limits, per client address unless said otherwise ------------------------------
    # Fast human play and fast auto-play stay far below it.
    "API_RATE_LIMIT": Setting("40 per second; 1500 per minute", RATES),
    # A browser makes one; a household or an office behind one address a few.
    "NEW_SESSION_RATE_LIMIT": Setting("10 per minute; 200 per day", RATES),
    # Over every address: the last line against filling the session store from many addresses.
    "NEW_SESSION_GLOBAL_LIMIT": Setting("300 per minute", RATES),
    # Per session: fast auto-play asks about five hints a second.
    "HINT_RATE_LIMIT": Setting("10 per second; 400 per minute", RATES),
    # Milliseconds of heavy work, over all the address's sessions (the solver's hints and
    # reviews, replaying a long game to save it, reading a long record): a third of a core
    # over a minute at most, so late-game auto-play (about 100 ms a hint) keeps its pace of
    # some three hints a second, and one address cannot take the solver or the workers from everyone.
    "WORK_TIME_LIMIT": Setting("500 per second; 20000 per minute", RATES),
    # Saved records, per session and per address: plenty for sharing, too few to spam.
    "RECORD_SESSION_LIMIT": Setting("5 per minute; 50 per day", RATES),
    "RECORD_ADDRESS_LIMIT": Setting("20 per minute; 200 per day", RATES),
    # Reviews keep the solver busy.
    "REVIEW_RATE_LIMIT": Setting("3 per second; 120 per minute", RATES),
    # Flask-Limiter's own switch (the load benchmark turns it off).
    "RATELIMIT_ENABLED": Setting(True, SWITCH),
    # Where the counts live; None: in Redis when it holds the sessions, else in each worker.
    "RATELIMIT_STORAGE_URI": Setting(None, STORAGE),
    # --- Today's game (app/daily.py) ----------------------------------------------------
    # Ranked attempts a day per client address: a browser's first of the day is ranked, up to this many.
    "DAILY_ADDRESS_LIMIT": Setting(3, COUNT),
    # New attempts at today's game, per address: each one shows a line of the day's tiles, so
    # many would let sessions stand in for undo; a household still gets a few tries each.
    "DAILY_GAME_RATE_LIMIT": Setting("2 per minute; 20 per day", RATES),
    # Seconds after a day ends before its seed is shown: a game still being played at midnight
    # (UTC) can be finished, ranked, before anyone can work out its tiles. Then it can move no more.
    "DAILY_REVEAL_DELAY": Setting(3600, COUNT),
    # The solver's budget a move when `flask daily par` plays a finished day's game.
    "DAILY_PAR_BUDGET_MS": Setting(50, MILLISECONDS),
    # --- The solver ---------------------------------------------------------------------
    "SOLVER_BUDGET_MS": Setting(100, MILLISECONDS),
    # A review request analyses this many positions, each within this budget: a third of a
    # second at most, so that one request never holds a worker long from other players.
    "REVIEW_RANGE": Setting(10, AT_LEAST_ONE),
    "REVIEW_BUDGET_MS": Setting(30, MILLISECONDS),
    # --- The records' database -----------------------------------------------------------
    # None: SQLite in the instance folder.
    "SQLALCHEMY_DATABASE_URI": Setting(None, DATABASE),
    # --- Delivery -----------------------------------------------------------------------
    # Flask-Compress's own switch: off where a proxy in front compresses (compose).
    "COMPRESS_REGISTER": Setting(True, SWITCH),
    # A body under 1 KiB fits in one packet with its headers, so compressing it saves no
    # packet and no round trip: the API's answers (100 to 900 bytes) are sent as they are.
    "COMPRESS_MIN_SIZE": Setting(1024, COUNT),
}
FIXED = {
    "SESSION_PERMANENT": True,
    # Every request pushes the session's expiry (its lifetime) forward, so sessions expire
    # when idle that long; the session's lock makes the write-back after a read safe.
    "SESSION_REFRESH_EACH_REQUEST": True,
    "SESSION_COOKIE_SAMESITE": "Lax",
    "SESSION_COOKIE_HTTPONLY": True,
    # Counts out of reach raise limits' own StorageError (a 503, see errors.py), not Redis's.
    "RATELIMIT_STORAGE_OPTIONS": {"wrap_exceptions": True},
    "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": True},
    # Brotli when the browser asks for it, else gzip. Static files are sent as streams,
    # whose list leaves gzip out by default.
    "COMPRESS_ALGORITHM": ["br", "gzip"],
    "COMPRESS_ALGORITHM_STREAMING": ["br", "gzip"],
    # Brotli's quality 5 packs the CSS and JS about 8 % smaller than the library's 4, still in
    # under a millisecond each (quality 11 would take 25 ms for the CSS).
    "COMPRESS_BR_LEVEL": 5,
    "BABEL_DEFAULT_LOCALE": "en",
}
DEFAULTS = {name: setting.default for name, setting in SETTINGS.items()} | FIXED
# Always served besides TRUSTED_HOSTS: health checks ask there, and a link to a loopback name
# points only at the asker's own machine.
LOOPBACK_HOSTS = ("localhost", "127.0.0.1")
KEY_FILE = "secret_key"


def check(config) -> None:
    """Every host setting in ``config`` held to its form and written back converted (``"30"`` is 30,
    a lifetime in seconds a timedelta); ConfigError for the first that is not."""
    for name, setting in SETTINGS.items():
        config[name] = _converted(name, config[name], setting.form)


def _converted(name, value, form):
    given = value.total_seconds() if isinstance(value, timedelta) else value
    if isinstance(given, str) and form.type in (bool, SECURE.type):
        given = SWITCH_WORDS.get(given.strip().lower(), given)
    if isinstance(given, str) and form in (HOSTS, NETWORKS):
        given = [item.strip() for item in given.split(",") if item.strip()]
    if isinstance(given, str) and form in (STORE_KIND, LOG_FORM):
        given = given.strip().lower()
    if form is HOSTS and given == []:
        given = None  # no host named: any host, as when it is not set (an empty list would refuse every one)
    try:
        converted = msgspec.convert(given, form.type, strict=False)
        if form.check is not None and converted is not None:
            form.check(converted)
    except (msgspec.ValidationError, ValueError):
        raise ConfigError(f"FLASK_{name}={value!r} is not {form.words}") from None
    return timedelta(seconds=converted) if form is LIFETIME else converted


def derive(app):
    """The defaults that depend on other settings or on the instance folder, where the host set none."""
    config = app.config
    instance = Path(app.instance_path)
    if not config["SQLALCHEMY_DATABASE_URI"]:
        config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{instance / 'records.db'}"
    if config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        # Fail fast when PostgreSQL is down: records answer 503 and the game plays on.
        config["SQLALCHEMY_ENGINE_OPTIONS"] = {"connect_args": {"connect_timeout": 3}} | config[
            "SQLALCHEMY_ENGINE_OPTIONS"
        ]
    if not config["RATELIMIT_STORAGE_URI"]:
        config["RATELIMIT_STORAGE_URI"] = config["REDIS_URL"] or "memory://"
    if config["TRUSTED_HOSTS"]:
        config["TRUSTED_HOSTS"] = [*config["TRUSTED_HOSTS"], *LOOPBACK_HOSTS]


def secret_key(app) -> str:
    """SECRET_KEY, or the key kept in the instance folder, made there the first time it is needed
    (so an instance folder that is not writable yet only holds up what needs the key).

    Written aside and linked into place, so that workers starting together all read the one key
    that won. OSError when the folder cannot keep it.
    """
    if not app.config["SECRET_KEY"]:
        path = Path(app.instance_path) / KEY_FILE
        if not path.exists():
            draft = path.with_name(f".{path.name}.{os.getpid()}")
            with datafiles.open_for_writing(draft) as out:
                out.write(secrets.token_hex(32))
            try:
                os.link(draft, path)
            except FileExistsError:
                pass
            finally:
                draft.unlink()
        app.config["SECRET_KEY"] = path.read_text().strip()
    return app.config["SECRET_KEY"]


def default_data_folder() -> Path:
    """The instance folder unless FLASK_INSTANCE_PATH names one: the same for the user who runs the
    app whatever the current folder and whichever copy of the app is imported (a checkout's, or the
    one installed in a virtual environment): $XDG_DATA_HOME/game2048, ~/.local/share/game2048 by default."""
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share").absolute() / "game2048"


def describe_data_folder(app) -> list[str]:
    """What a host is told at start (gunicorn.conf.py logs it once): where the data is, and where an
    earlier version kept it, if data is there (Flask's own default: instance/ beside the app)."""
    said = [f"the data folder (sessions, records, secret key) is {app.instance_path}; FLASK_INSTANCE_PATH changes it"]
    earlier = Path(app.auto_find_instance_path())
    data = [name for name in ("records.db", "sessions.sqlite3", KEY_FILE) if (earlier / name).exists()]
    if data and earlier != Path(app.instance_path) and not (Path(app.instance_path) / "records.db").exists():
        said.append(f"{earlier} holds {', '.join(data)} from an earlier version: move them to {app.instance_path}, "
                    f"or set FLASK_INSTANCE_PATH={earlier}")  # fmt: skip
    return said


def check_instance_folder(app) -> bool:
    """Make the instance folder if it is missing, and say once, clearly, if it cannot be written:
    the app starts anyway, /readyz says it is not ready, and it is once the folder is writable."""
    try:
        datafiles.make_folder(app.instance_path)
        with tempfile.TemporaryFile(dir=app.instance_path):
            return True
    except OSError as error:
        log.warning(
            "the instance folder %s cannot be written (%s): it must be a writable folder for the sessions, "
            "their locks, the records and the secret key; /readyz answers 503 until it is",
            app.instance_path,
            error.strerror or error,
        )
        return False
