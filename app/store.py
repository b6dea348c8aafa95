"""Session storage: each session's game, kept under a per-session lock.

Flask-Session reads the whole session dict when a request starts and writes it back
when it ends, without a lock, so a game kept inside that dict could be silently
rolled back by any overlapping request. Here the session dict only holds a stable
``game_key``; the game itself lives beside it in the same backend (cachelib files or
Redis) and is only read, changed and written while holding that game's lock.
"""

import fcntl
import hashlib
import json
import logging
import secrets
import time
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from pathlib import Path

import redis
from cachelib.file import FileSystemCache
from flask import current_app, session
from flask_session.cachelib import CacheLibSessionInterface
from flask_session.redis import RedisSessionInterface

from .engine import Game, InvalidState

log = logging.getLogger(__name__)

GAME_PREFIX = "game:"
LOCK_PREFIX = "lock:"
FILE_LOCK_STRIPES = 256
# How stale the session's "touched" mark may get before the session (and its cookie)
# is written again to push its expiry forward: an hour, or a tenth of a short lifetime.
MAX_TOUCH_INTERVAL = timedelta(hours=1)


class StoreUnavailable(Exception):
    """The session store cannot be reached; the request should be retried later."""


class SessionBusy(Exception):
    """Another request of this session held the lock for too long."""


UNAVAILABLE = (StoreUnavailable, redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)


class GameSlot:
    """The game of one session while its lock is held; a save is written as the slot closes."""

    def __init__(self, raw):
        self._raw = raw
        self.pending = None

    def load(self):
        """The stored game, or None when there is none or it cannot be read."""
        if self._raw is None:
            return None
        try:
            return Game.from_record(json.loads(self._raw))
        except (ValueError, TypeError, InvalidState):
            log.warning("corrupted game entry treated as missing")
            return None

    def save(self, game):
        self.pending = json.dumps(game.to_record())


class FileBackend:
    """Embedded default: cachelib files in the instance folder, flock()ed lock files."""

    def __init__(self, cache, lock_dir):
        self.cache = cache
        self.lock_dir = Path(lock_dir)
        self.lock_dir.mkdir(mode=0o700, parents=True, exist_ok=True)

    def get(self, key):
        try:
            return self.cache.get(key)
        except Exception:  # a truncated or corrupted file reads as missing
            log.warning("unreadable store entry %s treated as missing", key, exc_info=True)
            return None

    def set(self, key, value, ttl):
        if not self.cache.set(key, value, timeout=ttl):
            raise StoreUnavailable("could not write the session store")

    @contextmanager
    def lock(self, key, timeout):
        """flock() one of a fixed set of lock files, so the folder never grows."""
        stripe = int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) % FILE_LOCK_STRIPES
        with open(self.lock_dir / f"{stripe}.lock", "ab") as f:
            retry_until(lambda: _try_flock(f), timeout)
            try:
                yield
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)

    @contextmanager
    def transaction(self, key, timeout, ttl):
        with self.lock(key, timeout):
            slot = GameSlot(self.get(GAME_PREFIX + key))
            yield slot
            if slot.pending is not None:
                self.set(GAME_PREFIX + key, slot.pending, ttl)

    def ping(self):
        probe = "healthz"
        self.set(probe, "ok", 60)
        if self.get(probe) != "ok":
            raise StoreUnavailable("the session store does not read back what it wrote")


def _try_flock(f):
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False


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


class RedisBackend:
    """Scale-out store: every replica sees the same games and the same locks.

    A lock is a key set with NX and a lease, holding a random token. A move costs two
    round trips besides the session's own: take the lock and read the game in one
    pipeline, then write the game and release the lock in one script that first
    checks the token, so a request whose lease ran out can never overwrite a newer game.
    """

    RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
    SAVE_AND_RELEASE = (
        "if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end "
        "redis.call('set', KEYS[2], ARGV[2], 'EX', ARGV[3]) redis.call('del', KEYS[1]) return 1"
    )

    def __init__(self, client, lease_seconds):
        self.client = client
        self.lease_ms = int(lease_seconds * 1000)
        self._release = client.register_script(self.RELEASE)
        self._save_and_release = client.register_script(self.SAVE_AND_RELEASE)

    def _acquire(self, lock_key, token, timeout, read_key=None):
        """Take the lock; returns ``[value of read_key]`` read under it (or ``[]``)."""

        def attempt():
            pipe = self.client.pipeline(transaction=False)
            pipe.set(lock_key, token, nx=True, px=self.lease_ms)
            if read_key:
                pipe.get(read_key)
            acquired, *read = pipe.execute()
            return [read] if acquired else None

        return retry_until(attempt, timeout)[0]

    @contextmanager
    def lock(self, key, timeout):
        lock_key, token = LOCK_PREFIX + key, secrets.token_hex(16)
        self._acquire(lock_key, token, timeout)
        try:
            yield
        finally:
            self._release(keys=[lock_key], args=[token])

    @contextmanager
    def transaction(self, key, timeout, ttl):
        lock_key, game_key, token = LOCK_PREFIX + key, GAME_PREFIX + key, secrets.token_hex(16)
        (raw,) = self._acquire(lock_key, token, timeout, read_key=game_key)
        slot = GameSlot(raw.decode("utf-8", "replace") if raw is not None else None)
        try:
            yield slot
        except BaseException:
            self._release(keys=[lock_key], args=[token])
            raise
        if slot.pending is None:
            self._release(keys=[lock_key], args=[token])
        elif not self._save_and_release(keys=[lock_key, game_key], args=[token, slot.pending, ttl]):
            log.warning("move lock of a game expired before its save; the change is refused")
            raise SessionBusy

    def ping(self):
        self.client.ping()


class GameStore:
    def __init__(self, backend, lock_timeout, ttl):
        self.backend = backend
        self.lock_timeout = lock_timeout
        self.ttl = ttl

    def slot(self, key):
        """Hold the game's lock for a whole read-change-write."""
        return self.backend.transaction(key, self.lock_timeout, self.ttl)

    def exclusive(self, name):
        """Run something once at a time per name, refusing (SessionBusy) rather than queueing."""
        return self.backend.lock(name, timeout=0)

    def ping(self):
        self.backend.ping()


class _TolerantSessionLoading:
    """A session entry that cannot be decoded is treated as no session, never as a 500."""

    def _retrieve_session_data(self, store_id):
        try:
            data = super()._retrieve_session_data(store_id)
        except UNAVAILABLE:
            raise
        except Exception:
            log.warning("unreadable session %s treated as missing", store_id, exc_info=True)
            return None
        return data if isinstance(data, dict) else None


class CacheLibSessions(_TolerantSessionLoading, CacheLibSessionInterface):
    pass


class RedisSessions(_TolerantSessionLoading, RedisSessionInterface):
    pass


def init_app(app):
    """Pick the backend from SESSION_TYPE and install Flask-Session on it."""
    config = app.config
    ttl = int(app.permanent_session_lifetime.total_seconds())
    common = {
        "key_prefix": "session:",
        "permanent": config["SESSION_PERMANENT"],
    }
    kind = str(config["SESSION_TYPE"]).lower()
    if kind == "redis":
        if not config.get("REDIS_URL"):
            raise RuntimeError("SESSION_TYPE=redis needs REDIS_URL (FLASK_REDIS_URL)")
        client = redis.Redis.from_url(
            config["REDIS_URL"], socket_connect_timeout=1, socket_timeout=2, health_check_interval=10
        )
        backend = RedisBackend(client, lease_seconds=max(2 * float(config["MOVE_LOCK_TIMEOUT"]), 10))
        app.session_interface = RedisSessions(app, client=client, **common)
    elif kind == "cachelib":
        cache = FileSystemCache(
            str(Path(app.instance_path) / "sessions"),
            threshold=int(config["SESSION_FILE_THRESHOLD"]),
            default_timeout=ttl,
            mode=0o600,
        )
        backend = FileBackend(cache, Path(app.instance_path) / "locks")
        app.session_interface = CacheLibSessions(app, client=cache, **common)
    else:
        raise RuntimeError(f"unsupported SESSION_TYPE {kind!r}: use 'cachelib' or 'redis'")
    app.extensions["game_store"] = GameStore(backend, float(config["MOVE_LOCK_TIMEOUT"]), ttl)


def game_store():
    return current_app.extensions["game_store"]


def game_key():
    """This session's game key; touching the session now and then keeps it alive."""
    key = session.get("game_key")
    if key is None:
        key = session["game_key"] = secrets.token_urlsafe(18)
    now = datetime.now(timezone.utc)
    touched = session.get("touched")
    interval = min(MAX_TOUCH_INTERVAL, current_app.permanent_session_lifetime / 10)
    if touched is None or now - _parse(touched) > interval:
        session["touched"] = now.isoformat()
    return key


def _parse(stamp):
    try:
        return datetime.fromisoformat(stamp)
    except (TypeError, ValueError):
        return datetime.min.replace(tzinfo=timezone.utc)
