"""Session storage: each session is read and written under its lock (app/store/locking.py).

One module per job: ``locking`` is the lock protocol every backend follows, ``cookies``
says when the session cookie is sent, ``sqlite_store`` is the embedded store (one machine,
any number of workers, locking with app/lockfiles.py) and ``redis_store`` the scale-out
store (any number of replicas). app/games/session.py, not the store, turns a session into a game.
"""

from datetime import timedelta

from flask import current_app, g

from .locking import GameHeldElsewhere, SessionBusy, session_is_new
from .sqlite_store import SqliteSessions

__all__ = [
    "GameHeldElsewhere",
    "SessionBusy",
    "games_at",
    "held_elsewhere",
    "init_app",
    "ping",
    "session_is_new",
]


def init_app(app, session_prefix, played, game_of, position_of):
    """Pick the store from SESSION_TYPE and install the locked session interface on it.

    Only requests whose path starts with ``session_prefix`` open the session; ``played(session)``
    says whether it holds a game worth keeping for the whole session lifetime, ``game_of(session)``
    the id of the game it holds, kept in one session at most, and ``position_of(session)`` the board
    it stands on while a hint there would help it (locking.py).
    """
    config = app.config
    common = {
        "session_prefix": session_prefix,
        "key_prefix": "session:",
        "permanent": config["SESSION_PERMANENT"],
        "lock_timeout": float(config["SESSION_LOCK_TIMEOUT"]),
        "played": played,
        "game_of": game_of,
        "position_of": position_of,
        "unplayed_lifetime": timedelta(seconds=float(config["UNPLAYED_SESSION_LIFETIME"])),
    }
    if config["SESSION_TYPE"] == "redis":
        if not config.get("REDIS_URL"):
            raise RuntimeError("SESSION_TYPE=redis needs REDIS_URL (FLASK_REDIS_URL)")
        from .redis_store import RedisSessions  # only hosts that use Redis load its client (8 MB a worker)

        lease = float(config["SESSION_LOCK_LEASE"])
        app.session_interface = RedisSessions.from_url(app, config["REDIS_URL"], lease_seconds=lease, **common)
    else:  # "sqlite", the one other kind config.check lets by
        path = f"{app.instance_path}/sessions.sqlite3"
        limit = int(config["SESSION_STORE_LIMIT"])
        app.session_interface = SqliteSessions(app, path=path, limit=limit, **common)
    app.before_request(raise_session_error)
    app.teardown_request(lambda _error: app.session_interface.release_held_lock())


def raise_session_error():
    """A session that could not be opened fails the request here, where error handlers apply."""
    error = g.pop("session_error", None)
    if error is not None:
        raise error


def ping():
    current_app.session_interface.ping()


def games_at(positions):
    """The games of the live sessions whose game stands on any of ``positions`` (locking.py)."""
    return current_app.session_interface.games_at(positions)


def held_elsewhere(game_id):
    """Whether a live session other than this request's holds the game."""
    return current_app.session_interface.held_elsewhere(game_id)
