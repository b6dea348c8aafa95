"""Session storage: each session, and the game in it, is read and written under a lock.

Flask-Session reads the whole session when a request starts and writes it back when
the request ends, with no lock, so two overlapping requests of one session could each
write back their own copy and silently undo the other's move (a read-only GET too,
since a session is refreshed on every request). Here the session interface takes the
session's lock before it reads the session and lets go only once it has written it
back: the requests of one session run one at a time. A request that waits longer than
MOVE_LOCK_TIMEOUT is refused (409) rather than queued for ever.

With Redis, taking the lock and reading the session is one pipeline, and writing the
session and releasing the lock is one script that first checks the lock is still ours:
a move costs two round trips, and a request whose lease ran out never overwrites a
newer session. The embedded store (cachelib files) locks with flock().
"""

import fcntl
import hashlib
import logging
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis
from cachelib.file import FileSystemCache
from flask import current_app, g, session
from flask_session.cachelib import CacheLibSessionInterface
from flask_session.redis import RedisSessionInterface

from .engine import Game, InvalidState

log = logging.getLogger(__name__)

LOCK_PREFIX = "lock:"
FILE_LOCK_STRIPES = 256
COOKIE_SENT = "_cookie_sent"  # in the session: [when its cookie was last sent (Unix time), with which settings]
COOKIE_RESENDS_PER_LIFETIME = 10  # the cookie is sent again once a tenth of its lifetime has passed
BOOKKEEPING_KEYS = frozenset({"_permanent", COOKIE_SENT})


class StoreUnavailable(Exception):
    """The session store cannot be reached; the request should be retried later."""


class SessionBusy(Exception):
    """Another request of this session held its lock for too long."""


UNAVAILABLE = (StoreUnavailable, redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)


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


class _LockedSessions:
    """Mixin over a Flask-Session interface: a session's lock is held from its read to its write.

    Subclasses give the four store operations: ``_lock_and_read``, ``_write_and_release``,
    ``_write`` and ``_release``.
    """

    def __init__(self, *args, lock_timeout, session_prefix, **kwargs):
        super().__init__(*args, **kwargs)
        self.lock_timeout = lock_timeout
        self.session_prefix = session_prefix

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
            return super().open_session(app, request)
        except (SessionBusy, *UNAVAILABLE) as error:
            g.session_error = error
            return self.make_null_session(app)

    def save_session(self, app, session, response):
        """The store's copy is refreshed on every request, the cookie only now and then.

        Sending the cookie with every move would add a Set-Cookie header to each answer
        just to push its expiry on by a few seconds. It is sent again once a tenth of its
        lifetime has passed, or at once when its settings changed (e.g. it became Secure),
        so it expires at most that tenth before the stored session; in that window the
        page puts its saved game into a new session.
        """
        if not BOOKKEEPING_KEYS.issuperset(session):
            settings = self._cookie_settings(app)
            session.cookie_due = _cookie_due(session.get(COOKIE_SENT), settings, app.permanent_session_lifetime)
            if session.cookie_due:
                session[COOKIE_SENT] = [time.time(), settings]
        elif COOKIE_SENT in session:
            del session[COOKIE_SENT]  # emptied: Flask-Session deletes it and its cookie
        super().save_session(app, session, response)

    def should_set_cookie(self, app, session):
        return session.cookie_due

    def _cookie_settings(self, app):
        """What the cookie was sent with: a change to any of them sends it again."""
        return "; ".join(
            str(setting)
            for setting in (
                self.get_cookie_domain(app),
                self.get_cookie_path(app),
                self.get_cookie_secure(app),
                self.get_cookie_httponly(app),
                self.get_cookie_samesite(app),
                app.permanent_session_lifetime.total_seconds(),
            )
        )

    def _retrieve_session_data(self, store_id):
        handle, data = self._lock_and_read(store_id)
        if not isinstance(data, dict):
            self._release(handle)  # no session: a new one with a fresh id is made instead
            return None
        g.session_lock = HeldLock(store_id, handle)
        return data

    def _decode(self, store_id, read):
        """A session entry that cannot be decoded is treated as no session, never as a 500."""
        try:
            return read()
        except UNAVAILABLE:
            raise
        except Exception:
            log.warning("unreadable session %s treated as missing", store_id, exc_info=True)
            return None

    def _upsert_session(self, session_lifetime, session, store_id):
        if g.get("session_write_tried"):
            return  # it failed, and this request is being answered with that error
        g.session_write_tried = True
        ttl = int(session_lifetime.total_seconds())
        held = g.get("session_lock")
        if held is None or held.store_id != store_id:
            self._write(store_id, session, ttl)  # a new session: nobody else knows its fresh id
            return
        del g.session_lock  # released by the write, or by its lease if the write fails
        if not self._write_and_release(held.handle, store_id, session, ttl):
            log.warning("session lock expired before the write-back; the change is refused")
            raise SessionBusy

    def release_held_lock(self):
        """After every request: let go of a lock that no write-back released."""
        held = g.pop("session_lock", None)
        if held is None:
            return
        try:
            self._release(held.handle)
        except UNAVAILABLE:
            log.warning("could not release a session lock; its lease will expire", exc_info=True)


class FileSessions(_LockedSessions, CacheLibSessionInterface):
    """Embedded default: cachelib files in the instance folder, flock()ed lock files."""

    def __init__(self, app, *, lock_dir, **kwargs):
        super().__init__(app, **kwargs)
        self.lock_dir = Path(lock_dir)
        self.lock_dir.mkdir(mode=0o700, parents=True, exist_ok=True)

    def _lock_and_read(self, store_id):
        return self._lock(store_id), self._decode(store_id, lambda: self.cache.get(store_id))

    def _lock(self, store_id):
        """flock() one of a fixed set of lock files, so the folder never grows."""
        stripe = int(hashlib.sha256(store_id.encode()).hexdigest()[:8], 16) % FILE_LOCK_STRIPES
        file = open(self.lock_dir / f"{stripe}.lock", "ab")  # noqa: SIM115 (held until _release closes it)
        try:
            retry_until(lambda: _try_flock(file), self.lock_timeout)
        except BaseException:
            file.close()
            raise
        return file

    def _write(self, store_id, session, ttl):
        if not self.cache.set(store_id, dict(session), timeout=ttl):
            raise StoreUnavailable("could not write the session store")

    def _write_and_release(self, handle, store_id, session, ttl):
        try:
            self._write(store_id, session, ttl)
        finally:
            self._release(handle)
        return True

    def _release(self, handle):
        fcntl.flock(handle, fcntl.LOCK_UN)
        handle.close()

    def ping(self):
        probe = "healthz"
        if not self.cache.set(probe, "ok", timeout=60) or self.cache.get(probe) != "ok":
            raise StoreUnavailable("the session store does not read back what it wrote")


def _cookie_due(sent, settings, lifetime):
    """Whether the cookie must be sent: never sent by this version, sent otherwise, or a while ago."""
    if not (isinstance(sent, list) and len(sent) == 2 and isinstance(sent[0], int | float)) or sent[1] != settings:
        return True
    age = time.time() - sent[0]
    return not 0 <= age < lifetime.total_seconds() / COOKIE_RESENDS_PER_LIFETIME


def _try_flock(file):
    try:
        fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False


class RedisSessions(_LockedSessions, RedisSessionInterface):
    """Scale-out store: every replica sees the same sessions and the same locks.

    A lock is a key set with NX and a lease, holding a random token, so a worker that
    dies holding it blocks its session only until the lease ends.
    """

    LOCK_AND_READ = (
        "if not redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return false end "
        "return {redis.call('get', KEYS[2])}"
    )
    RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
    WRITE_AND_RELEASE = (
        "if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end "
        "redis.call('set', KEYS[2], ARGV[2], 'EX', ARGV[3]) redis.call('del', KEYS[1]) return 1"
    )

    def __init__(self, app, *, lease_seconds, **kwargs):
        super().__init__(app, **kwargs)
        self.lease_ms = int(lease_seconds * 1000)
        self._lock_and_read_script = self.client.register_script(self.LOCK_AND_READ)
        self._release_script = self.client.register_script(self.RELEASE)
        self._write_and_release_script = self.client.register_script(self.WRITE_AND_RELEASE)

    def _lock_and_read(self, store_id):
        lock_key, token = LOCK_PREFIX + store_id, secrets.token_hex(16)

        def attempt():
            return self._lock_and_read_script(keys=[lock_key, store_id], args=[token, self.lease_ms])

        (raw,) = retry_until(attempt, self.lock_timeout)
        data = None if raw is None else self._decode(store_id, lambda: self.serializer.decode(raw))
        return (lock_key, token), data

    def _write(self, store_id, session, ttl):
        self.client.set(store_id, self.serializer.encode(session), ex=ttl)

    def _write_and_release(self, handle, store_id, session, ttl):
        lock_key, token = handle
        return self._write_and_release_script(
            keys=[lock_key, store_id], args=[token, self.serializer.encode(session), ttl]
        )

    def _release(self, handle):
        lock_key, token = handle
        self._release_script(keys=[lock_key], args=[token])

    def ping(self):
        self.client.ping()


def init_app(app, session_prefix):
    """Pick the store from SESSION_TYPE and install the locked session interface on it.

    Only requests whose path starts with ``session_prefix`` open the session.
    """
    config = app.config
    common = {
        "session_prefix": session_prefix,
        "key_prefix": "session:",
        "permanent": config["SESSION_PERMANENT"],
        "lock_timeout": float(config["MOVE_LOCK_TIMEOUT"]),
    }
    kind = str(config["SESSION_TYPE"]).lower()
    if kind == "redis":
        if not config.get("REDIS_URL"):
            raise RuntimeError("SESSION_TYPE=redis needs REDIS_URL (FLASK_REDIS_URL)")
        client = redis.Redis.from_url(
            config["REDIS_URL"], socket_connect_timeout=1, socket_timeout=2, health_check_interval=10
        )
        lease = max(2 * common["lock_timeout"], 10)
        app.session_interface = RedisSessions(app, client=client, lease_seconds=lease, **common)
    elif kind == "cachelib":
        cache = FileSystemCache(
            str(Path(app.instance_path) / "sessions"),
            threshold=int(config["SESSION_FILE_THRESHOLD"]),
            default_timeout=int(app.permanent_session_lifetime.total_seconds()),
            mode=0o600,
        )
        lock_dir = Path(app.instance_path) / "locks"
        app.session_interface = FileSessions(app, client=cache, lock_dir=lock_dir, **common)
    else:
        raise RuntimeError(f"unsupported SESSION_TYPE {kind!r}: use 'cachelib' or 'redis'")
    app.before_request(raise_session_error)
    app.teardown_request(lambda _error: app.session_interface.release_held_lock())


def raise_session_error():
    """A session that could not be opened fails the request here, where error handlers apply."""
    error = g.pop("session_error", None)
    if error is not None:
        raise error


def ping():
    current_app.session_interface.ping()


def load_game():
    """The session's game, or None when there is none or it cannot be read."""
    record = session.get("game")
    if record is None:
        return None
    try:
        return Game.from_record(record)
    except (ValueError, TypeError, InvalidState):
        log.warning("corrupted game in a session treated as missing")
        return None


def save_game(game):
    session["game"] = game.to_record()
