"""Scale-out store: every replica sees the same sessions and the same locks, in Redis.

Taking the lock and reading the session is one script, and writing the session and
releasing the lock is another that first checks the lock is still ours: a move costs
two round trips, and a request whose lease ran out never overwrites a newer session.

Where each game is held (locking.py, one game, one place) is a key per game naming its
session's key, written by the same script as the session and living as long: a game is held
while the session its key names exists. The board a game stands on (locking.py, help on the
position) is a set per board of the games standing there, moved by the same script.
"""

import secrets
from contextlib import contextmanager

import redis
from flask_session.redis import RedisSessionInterface

from ..faults import StoreUnavailable, WriteOutcomeUnknown
from .cookies import CookiePolicy
from .locking import GameHeldElsewhere, LockedSessions, retry_until

LOCK_PREFIX = "lock:"
GAME_PREFIX = "game:"
POSITION_PREFIX = "position:"
REDIS_DOWN = (redis.ConnectionError, redis.TimeoutError)


class RedisSessions(CookiePolicy, LockedSessions, RedisSessionInterface):
    """A lock is a key set with NX and a lease, holding a random token, so a request that
    dies holding it (a killed worker, a Redis restart) blocks its session only until the
    lease ends; the lease is what the slowest real request needs, not more.

    An unplayed session lives a shorter time, so when Redis must make room (volatile-lru drops
    what was used longest ago) the sessions that hold no game for long are few.

    A write-back whose answer does not come (a timeout) may still have been applied:
    it is reported as such (WriteOutcomeUnknown), so the client knows to resend with
    ``moves`` rather than assume nothing changed.
    """

    LOCK_AND_READ = (
        "if not redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return false end "
        "return {redis.call('get', KEYS[2])}"
    )
    RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
    # KEYS: the lock, the session, its game's key, the key of the game it held before, its position's
    # key and the one it stood on before (each may be "", for none); ARGV: the lock's token ("" for a
    # new session), the session, its lifetime, its game's id and the one it held before.
    # 0: the lock was lost; -1: another live session holds the game, and this one is forgotten.
    WRITE_AND_RELEASE = """
        if ARGV[1] ~= '' and redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
        if KEYS[3] ~= '' then
            local holder = redis.call('get', KEYS[3])
            if holder and holder ~= KEYS[2] and redis.call('exists', holder) == 1 then
                redis.call('del', KEYS[2])
                if ARGV[1] ~= '' then redis.call('del', KEYS[1]) end
                return -1
            end
            redis.call('set', KEYS[3], KEYS[2], 'EX', ARGV[3])
        end
        if KEYS[4] ~= '' and KEYS[4] ~= KEYS[3] and redis.call('get', KEYS[4]) == KEYS[2] then
            redis.call('del', KEYS[4])
        end
        if KEYS[6] ~= '' then redis.call('srem', KEYS[6], ARGV[5]) end
        if KEYS[5] ~= '' then
            redis.call('sadd', KEYS[5], ARGV[4])
            redis.call('expire', KEYS[5], ARGV[3])
        end
        redis.call('set', KEYS[2], ARGV[2], 'EX', ARGV[3])
        if ARGV[1] ~= '' then redis.call('del', KEYS[1]) end
        return 1
    """
    HOLDER = (
        "local holder = redis.call('get', KEYS[1]) "
        "if holder and redis.call('exists', holder) == 1 then return holder end return false"
    )
    # KEYS: positions' keys. The games standing there whose session is live (a forgotten session's
    # game may still be named until its set expires).
    GAMES_AT = """
        local found = {}
        for _, position in ipairs(KEYS) do
            for _, game in ipairs(redis.call('smembers', position)) do
                local holder = redis.call('get', ARGV[1] .. game)
                if holder and redis.call('exists', holder) == 1 then table.insert(found, game) end
            end
        end
        return found
    """

    @classmethod
    def from_url(cls, app, url, **kwargs):
        """Sessions in the Redis at ``url``, with timeouts that fail a request fast when it is down."""
        client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=2, health_check_interval=10)
        return cls(app, client=client, **kwargs)

    def __init__(self, app, *, lease_seconds, **kwargs):
        super().__init__(app, **kwargs)
        self.lease_ms = int(lease_seconds * 1000)
        self._lock_and_read_script = self.client.register_script(self.LOCK_AND_READ)
        self._release_script = self.client.register_script(self.RELEASE)
        self._write_and_release_script = self.client.register_script(self.WRITE_AND_RELEASE)
        self._holder_script = self.client.register_script(self.HOLDER)
        self._games_at_script = self.client.register_script(self.GAMES_AT)

    def _lock_and_read(self, store_id):
        lock_key, token = LOCK_PREFIX + store_id, secrets.token_hex(16)

        def attempt():
            return self._lock_and_read_script(keys=[lock_key, store_id], args=[token, self.lease_ms])

        with _down_means(StoreUnavailable):
            (raw,) = retry_until(attempt, self.lock_timeout)
        data = None if raw is None else self._decode(store_id, lambda: self.serializer.decode(raw))
        return (lock_key, token), data

    def _write(self, store_id, session, ttl, _played, holding):
        self._write_and_release(("", ""), store_id, session, ttl, _played, holding)

    def _write_and_release(self, handle, store_id, session, ttl, _played, holding):
        lock_key, token = handle
        games = [GAME_PREFIX + game if game else "" for game in (holding.game, holding.before)]
        positions = [POSITION_PREFIX + position if position else ""
                     for position in (holding.position, holding.position_before)]  # fmt: skip
        ids = [holding.game or "", holding.before or ""]
        with _down_means(WriteOutcomeUnknown):
            written = self._write_and_release_script(
                keys=[lock_key, store_id, *games, *positions], args=[token, self.serializer.encode(session), ttl, *ids]
            )
        if written == -1:
            raise GameHeldElsewhere(f"game {holding.game} is held by another session")
        return written

    def _holder(self, game_id):
        with _down_means(StoreUnavailable):
            holder = self._holder_script(keys=[GAME_PREFIX + game_id])
        return None if holder is None else holder.decode()

    def _games_at(self, positions):
        with _down_means(StoreUnavailable):
            games = self._games_at_script(keys=[POSITION_PREFIX + position for position in positions],
                                          args=[GAME_PREFIX])  # fmt: skip
        return [game.decode() for game in games]

    def _release(self, handle):
        lock_key, token = handle
        with _down_means(StoreUnavailable):
            self._release_script(keys=[lock_key], args=[token])

    def _delete_session(self, store_id):
        with _down_means(StoreUnavailable):
            super()._delete_session(store_id)

    def ping(self):
        with _down_means(StoreUnavailable):
            self.client.ping()


@contextmanager
def _down_means(error_class):
    """Redis down or too slow within the block raises ``error_class``, so Redis's own errors stay here:
    StoreUnavailable, or WriteOutcomeUnknown for a write that failed once sent (it may have landed)."""
    try:
        yield
    except REDIS_DOWN as error:
        raise error_class(str(error)) from error
