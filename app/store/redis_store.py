"""Scale-out store: every replica sees the same sessions and the same locks, in Redis.

Taking the lock and reading the session is one script, and writing the session and
releasing the lock is another that first checks the lock is still ours: a move costs
two round trips, and a request whose lease ran out never overwrites a newer session.
"""

import secrets
from contextlib import contextmanager

import redis
from flask_session.redis import RedisSessionInterface

from .cookies import CookiePolicy
from .locking import LockedSessions, StoreUnavailable, WriteOutcomeUnknown, retry_until

LOCK_PREFIX = "lock:"
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
    WRITE_AND_RELEASE = (
        "if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end "
        "redis.call('set', KEYS[2], ARGV[2], 'EX', ARGV[3]) redis.call('del', KEYS[1]) return 1"
    )

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

    def _lock_and_read(self, store_id):
        lock_key, token = LOCK_PREFIX + store_id, secrets.token_hex(16)

        def attempt():
            return self._lock_and_read_script(keys=[lock_key, store_id], args=[token, self.lease_ms])

        with _down_means(StoreUnavailable):
            (raw,) = retry_until(attempt, self.lock_timeout)
        data = None if raw is None else self._decode(store_id, lambda: self.serializer.decode(raw))
        return (lock_key, token), data

    def _write(self, store_id, session, ttl, _played):
        with _down_means(WriteOutcomeUnknown):
            self.client.set(store_id, self.serializer.encode(session), ex=ttl)

    def _write_and_release(self, handle, store_id, session, ttl, _played):
        lock_key, token = handle
        with _down_means(WriteOutcomeUnknown):
            return self._write_and_release_script(
                keys=[lock_key, store_id], args=[token, self.serializer.encode(session), ttl]
            )

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
