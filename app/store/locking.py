"""The per-session lock: a session's requests run one at a time, from its read to its write-back.

Flask-Session reads the whole session when a request starts and writes it back when
the request ends, with no lock, so two overlapping requests of one session could each
write back their own copy and silently undo the other's move (a read-only GET too,
since a session is refreshed on every request). Here the session interface takes the
session's lock before it reads the session and lets go only once it has written it
back: the requests of one session run one at a time. A request that waits longer than
SESSION_LOCK_TIMEOUT is refused (409) rather than queued for ever.

Each backend (app/store/sqlite_store.py, app/store/redis_store.py) gives the four store
operations this protocol needs, and two more, ``_holder`` and ``_games_at``, for the rules below.

One game, one place: a session holds at most one game (``game_of``, a function the app gives,
names it), and the store lets no two live sessions hold the same game. The write-back of a
session whose game another live session holds is refused, and that session is forgotten
(GameHeldElsewhere): its page puts its game back, and gets a fork (app/games/session.py). The check and
the write are one step of the store, so two requests can never both win; ``held_elsewhere``
tells a request beforehand whether a game is held by another session.

Help on the position: the store also keeps, beside each session, the board its game stands on
while a hint asked there from another session would help a game that can still be verified
(``position_of``, a function the app gives; None otherwise), written by the same step as the
session; ``games_at`` names the live games standing on any of some boards (app/games/session.py counts
a hint there as help to each of them).

What a session is worth decides how long it is kept: one whose game has a move (``played``,
a predicate the app gives) for the session lifetime, any other for UNPLAYED_SESSION_LIFETIME
only. A store that must make room drops the unplayed first (the embedded store orders by it;
Redis drops what expires first), so opening pages cannot push real games out.
"""

import logging
import time
from dataclasses import dataclass
from typing import Any, NamedTuple

from flask import g
from werkzeug.sansio.http import parse_cookie

from .. import metrics
from ..faults import StoreUnavailable

log = logging.getLogger(__name__)


class SessionBusy(Exception):
    """Another request of this session held its lock for too long."""


class GameHeldElsewhere(Exception):
    """The session's game is held by another live session: its change was refused, and it was forgotten."""


def retry_until(attempt, timeout):
    """Call ``attempt`` with short growing pauses until it returns a true value or time is up."""
    deadline = time.monotonic() + timeout
    pause = 0.001
    while not (result := attempt()):
        if time.monotonic() >= deadline:
            raise SessionBusy
        time.sleep(pause)
        pause = min(pause * 2, 0.02)
    return result


@dataclass
class HeldLock:
    """The lock this request holds on its session, kept in ``g`` until it is let go."""

    store_id: str
    handle: Any
    game: str | None  # the game the session held when it was read
    position: str | None  # and the board it stood on, as position_of names it


class Holding(NamedTuple):
    """The game a session holds as it is written back and the board it stands on (position_of), and the
    game and board it held when it was read (None: none)."""

    game: str | None
    position: str | None
    before: str | None = None
    position_before: str | None = None


def session_is_new():
    """Whether this API request's session is not stored yet (it holds no stored session's lock)."""
    return "session_lock" not in g


class LockedSessions:
    """Mixin over a Flask-Session interface: a session's lock is held from its read to its write.

    Subclasses give the store operations: ``_lock_and_read``, ``_write_and_release``, ``_write``
    and ``_release``; a write gets the session's lifetime in seconds, whether it is played and a
    ``Holding`` (its game and position now and before), and raises GameHeldElsewhere when another
    live session holds that game. ``_holder(game_id)`` is the store id of the live session holding
    a game, or None; ``_games_at(positions)`` the games of the live sessions standing on them.
    """

    def __init__(self, *args, lock_timeout, session_prefix, played, game_of, position_of, unplayed_lifetime,
                 **kwargs):  # fmt: skip
        super().__init__(*args, **kwargs)
        self.lock_timeout = lock_timeout
        self.session_prefix = session_prefix
        self.played = played
        self.game_of = game_of
        self.position_of = position_of
        self.unplayed_lifetime = unplayed_lifetime

    def open_session(self, app, request):
        """Only the API uses the session: pages, static files and /healthz neither wait for
        its lock nor read it, so they load even while the store is down (the page then
        plays on from the browser's saved game).

        A busy or unreachable store is kept for ``raise_session_error``: raised here,
        in the middle of Flask pushing the request, no error handler could answer it.
        """
        if not request.path.startswith(self.session_prefix):
            return self.make_null_session(app)
        try:
            return self._opened(app, request)
        except (SessionBusy, StoreUnavailable) as error:
            g.session_error = error
            return self.make_null_session(app)

    def _opened(self, app, request):
        """Flask-Session's open_session, reading the cookie this request's game names (get_cookie_name:
        the daily page's game has a session of its own, cookies.py); ids are not signed here. The
        cookies are parsed as ``request.cookies`` parses them, from the WSGI environ's one Cookie header:
        ``request.cookies`` first walks every header of the request to gather them, which costs a move
        more than the parse."""
        sid = parse_cookie(request.environ.get("HTTP_COOKIE")).get(self.get_cookie_name(app))
        data = self._retrieve_session_data(self._get_store_id(sid)) if sid else None
        if data is None:
            return self.session_class(sid=self._generate_sid(self.sid_length), permanent=self.permanent)
        return self.session_class(data, sid=sid)

    def _retrieve_session_data(self, store_id):
        handle, data = self._lock_and_read(store_id)
        if not isinstance(data, dict):
            self._release(handle)  # no session: a new one with a fresh id is made instead
            return None
        g.session_lock = HeldLock(store_id, handle, self.game_of(data), self.position_of(data))
        return data

    def _decode(self, store_id, read):
        """A session entry that cannot be decoded is treated as no session, never as a 500."""
        try:
            return read()
        except StoreUnavailable:
            raise
        except Exception:
            log.warning("unreadable session %s treated as missing", store_id, exc_info=True)
            return None

    def _upsert_session(self, session_lifetime, session, store_id):
        if g.get("session_write_tried"):
            return  # it failed, and this request is being answered with that error
        g.session_write_tried = True
        played = self.played(session)
        ttl = int((session_lifetime if played else min(session_lifetime, self.unplayed_lifetime)).total_seconds())
        held = g.get("session_lock")
        if held is None or held.store_id != store_id:
            # A new session: nobody else knows its fresh id (a regenerated one held no game before).
            self._write(store_id, session, ttl, played, Holding(self.game_of(session), self.position_of(session)))
            metrics.count("sessions")
            return
        del g.session_lock  # released by the write, or by its lease if the write fails
        holding = Holding(self.game_of(session), self.position_of(session), held.game, held.position)
        if not self._write_and_release(held.handle, store_id, session, ttl, played, holding):
            log.warning("session lock expired before the write-back; the change is refused")
            raise SessionBusy

    def held_elsewhere(self, game_id):
        """Whether another live session than this request's holds the game (its write-back would be refused)."""
        holder = self._holder(game_id)
        held = g.get("session_lock")
        return holder is not None and (held is None or holder != held.store_id)

    def games_at(self, positions):
        """The games of the live sessions standing on any of ``positions`` (position_of's names)."""
        return self._games_at(list(positions))

    def release_held_lock(self):
        """After every request: let go of a lock that no write-back released."""
        held = g.pop("session_lock", None)
        if held is None:
            return
        try:
            self._release(held.handle)
        except StoreUnavailable:
            log.warning("could not release a session lock; its lease will expire", exc_info=True)
