"""Embedded store: one SQLite file in the instance folder, and flock()ed lock files beside it.

Every operation touches a handful of rows through an index, so a request costs the
same with a hundred stored sessions or a hundred thousand: nothing ever scans the
store. It stays bounded: a new session first deletes a few expired ones (oldest
first), and past ``limit`` sessions it drops the unplayed ones first, then the played
longest idle (to within a hundredth of their lifetime, EXPIRY_AHEAD). A count kept by
triggers says when, so it is never counted. A write that fails (a full disk, a
read-only or vanished folder) is rolled back by SQLite and leaves nothing behind;
the request is answered 503, and nothing was changed.

The lock is flock() on one of a fixed set of lock files: the kernel lets go of it the
moment a worker dies, so a killed request never blocks its session.

Each row names the game its session holds (``game``), under a unique index: SQLite itself keeps
a game in one session (locking.py, one game, one place); and the board that game stands on while
another session's hint there would help it (``position``, locking.py), indexed for the hints. An
expired row is no holder, and a write first clears the expired rows that hold its game. A
write-back that holds the game its row names already leaves the game's index be; and while the expiry
it wrote is still a lifetime away it leaves the expiry be too (each write pushes it a hundredth
further than it must), so a move's write is the row's data and position alone: the indexes of
expiry are rewritten once in a while, not on every move.
"""

import fcntl
import logging
import os
import sqlite3
import threading
import time
import zlib
from pathlib import Path
from typing import NamedTuple

from flask_session.base import ServerSideSessionInterface

from .. import datafiles
from ..faults import StoreUnavailable
from ..lockfiles import open_lock_file, try_flock
from .cookies import CookiePolicy
from .locking import GameHeldElsewhere, LockedSessions, retry_until

log = logging.getLogger(__name__)

FILE_LOCK_STRIPES = 256
EXPIRED_PER_NEW_SESSION = 64  # more than one per new session, so the expired never pile up
EXPIRY_AHEAD = 0.01  # of a lifetime: how much further than its lifetime a write pushes a session's expiry
SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, data BLOB NOT NULL, expires REAL NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS sessions_by_expiry ON sessions (expires);
CREATE TABLE IF NOT EXISTS stored (sessions INTEGER NOT NULL);
INSERT INTO stored SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM stored);
CREATE TRIGGER IF NOT EXISTS count_added AFTER INSERT ON sessions BEGIN UPDATE stored SET sessions = sessions + 1; END;
CREATE TRIGGER IF NOT EXISTS count_deleted AFTER DELETE ON sessions
    BEGIN UPDATE stored SET sessions = sessions - 1; END;
CREATE TABLE IF NOT EXISTS probe (id INTEGER PRIMARY KEY, at REAL NOT NULL);
"""
# Changes to a store file made by an earlier version, each run once (PRAGMA user_version counts them).
# Sessions stored before sessions were ranked count as played: the safe side.
# Sessions stored before games had a place name none: the next write of each names it.
UPGRADES = [
    "ALTER TABLE sessions ADD COLUMN played INTEGER NOT NULL DEFAULT 1; "
    "CREATE INDEX sessions_by_worth ON sessions (played, expires);",
    "ALTER TABLE sessions ADD COLUMN game TEXT; CREATE UNIQUE INDEX sessions_by_game ON sessions (game);",
    "ALTER TABLE sessions ADD COLUMN position TEXT; "
    "CREATE INDEX sessions_by_position ON sessions (position) WHERE position IS NOT NULL;",
]
UPSERT = (
    "INSERT INTO sessions (id, data, expires, played, game, position) VALUES (?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (id) DO UPDATE SET data = excluded.data, expires = excluded.expires, played = excluded.played, "
    "game = excluded.game, position = excluded.position"
)
READ = "SELECT data, game, expires, played FROM sessions WHERE id = ? AND expires > ?"
REWRITE = "UPDATE sessions SET data = ?, position = ?, expires = ?, played = ? WHERE id = ?"  # the same game
REWRITE_DATA = "UPDATE sessions SET data = ?, position = ? WHERE id = ?"  # the same game, worth and expiry
DELETE_EXPIRED_HOLDERS = "DELETE FROM sessions WHERE game = ? AND id != ? AND expires <= ?"
HOLDER = "SELECT id FROM sessions WHERE game = ? AND expires > ?"
AT_POSITIONS = "SELECT game FROM sessions WHERE position IN ({}) AND expires > ?"
DELETE_EXPIRED = (
    "DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE expires <= ? ORDER BY expires LIMIT ?)"
)
DELETE_LEAST_WORTH = "DELETE FROM sessions WHERE id IN (SELECT id FROM sessions ORDER BY played, expires LIMIT ?)"


class Held(NamedTuple):
    """A session's lock file (its descriptor), the connection that read its row under that lock (its write-back
    uses it, the file just found in place), and what the row said (None: no row). A tuple: made on every
    request, where making a frozen dataclass costs several times as much."""

    fd: int
    db: sqlite3.Connection
    game: str | None
    expires: float | None = None
    played: bool | None = None

    def keeps(self, played, latest):
        """Whether the row can keep its worth and expiry: its expiry is no earlier than ``latest``."""
        return self.played == played and self.expires >= latest


class SqliteSessions(CookiePolicy, LockedSessions, ServerSideSessionInterface):
    """Any number of workers on one machine share the file; each thread keeps its own connection."""

    ttl = True  # expiry is handled here, not by Flask-Session's periodic clean-up

    def __init__(self, app, *, path, limit, **kwargs):
        super().__init__(app, **kwargs)
        self.path = Path(path)
        self._lock_paths = [self.path.parent / "locks" / f"{stripe}.lock" for stripe in range(FILE_LOCK_STRIPES)]
        self.limit = limit
        self._local = threading.local()

    def _database(self):
        """This thread's connection, opened again when the file was deleted or replaced."""
        local = self._local
        try:
            if getattr(local, "inode", None) is None or _inode(self.path) != local.inode:
                if getattr(local, "db", None) is not None:
                    local.db.close()
                local.db, local.inode = None, None
                local.db = _connect(self.path)
                local.inode = _inode(self.path)
        except (OSError, sqlite3.Error) as error:
            raise StoreUnavailable(f"cannot open the session database: {error}") from error
        return local.db

    def _run(self, work, db=None, *, single=False):
        """``work(db)`` on this thread's connection (or ``db``) in one transaction that takes the write lock
        first; with ``single``, work of one statement, which SQLite runs as a transaction of its own (a
        write takes the write lock as it starts, as BEGIN IMMEDIATE would) in one step where a
        transaction around it takes three. Any failure is rolled back and the store is unavailable."""
        db = self._database() if db is None else db
        try:
            if single:
                return work(db)
            with db:  # commits, or rolls back what ``work`` did
                db.execute("BEGIN IMMEDIATE")
                return work(db)
        except sqlite3.IntegrityError as error:  # only the unique index of games can refuse a write
            raise GameHeldElsewhere(f"the game is held by another session: {error}") from error
        except sqlite3.Error as error:
            raise StoreUnavailable(f"the session database failed: {error}") from error

    def _lock_and_read(self, store_id):
        fd = self._lock(store_id)
        try:
            db = self._database()
            row = self._run(lambda db: db.execute(READ, (store_id, time.time())).fetchone(), db, single=True)
        except BaseException:
            _unlock(fd)
            raise
        if row is None:
            return Held(fd, db, None), None
        data, game, expires, played = row
        return Held(fd, db, game, expires, bool(played)), self._decode(store_id, lambda: self.serializer.decode(data))

    def _lock(self, store_id):
        """flock() one of a fixed set of lock files, so the folder never grows. A session's stripe is the
        CRC-32 of its id, which every worker computes alike: ids are random already, so a checksum spreads
        them as well as a cryptographic hash would, and costs less than making OpenSSL's hash object."""
        fd = self._lock_file(zlib.crc32(store_id.encode()) % FILE_LOCK_STRIPES)
        try:
            retry_until(lambda: try_flock(fd), self.lock_timeout)
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _lock_file(self, stripe):
        return open_lock_file(self._lock_paths[stripe], StoreUnavailable, folder_mode=0o700)

    def _write(self, store_id, session, ttl, played, holding):
        """A new session: expired sessions go first, then, if the store is full, the unplayed
        and after them the played longest idle (the earliest to expire)."""
        now = time.time()
        data = self.serializer.encode(session)

        def insert(db):
            db.execute(DELETE_EXPIRED, (now, EXPIRED_PER_NEW_SESSION))
            (stored,) = db.execute("SELECT sessions FROM stored").fetchone()
            if stored >= self.limit:
                db.execute(DELETE_LEAST_WORTH, (stored - self.limit + 1,))
            self._upsert(db, store_id, data, _expiry(now, ttl), played, holding)

        self._run_holding(store_id, insert)

    def _write_and_release(self, handle, store_id, session, ttl, played, holding):
        """Only the row's data rewritten, in one statement, while its game, worth and expiry still hold;
        the row rewritten in place with a new expiry when it names the session's game already; written
        whole when the game changed (or was never named), or when the row has gone (made room for)
        since it was read."""
        data = self.serializer.encode(session)
        now = time.time()
        same_game = handle.game == holding.game

        def rewrite_data(db):
            return db.execute(REWRITE_DATA, (data, holding.position, store_id)).rowcount

        def write(db):
            expires = _expiry(now, ttl)
            if not (same_game and db.execute(REWRITE, (data, holding.position, expires, played, store_id)).rowcount):
                self._upsert(db, store_id, data, expires, played, holding)

        try:
            kept = same_game and handle.keeps(played, now + ttl)
            if not (kept and self._run(rewrite_data, handle.db, single=True)):
                self._run_holding(store_id, write, handle.db)
        finally:
            self._release(handle)
        return True

    @staticmethod
    def _upsert(db, store_id, data, expires, played, holding):
        """Write the session; an expired row that still names its game gives way (then it is written again)."""
        row = (store_id, data, expires, played, holding.game, holding.position)
        try:
            db.execute(UPSERT, row)
        except sqlite3.IntegrityError:
            if not db.execute(DELETE_EXPIRED_HOLDERS, (holding.game, store_id, time.time())).rowcount:
                raise
            db.execute(UPSERT, row)

    def _run_holding(self, store_id, work, db=None):
        """``_run(work, db)``; a session whose game another row holds is forgotten (GameHeldElsewhere)."""
        try:
            self._run(work, db)
        except GameHeldElsewhere:
            self._delete_session(store_id)
            raise

    def _holder(self, game_id):
        row = self._run(lambda db: db.execute(HOLDER, (game_id, time.time())).fetchone(), single=True)
        return None if row is None else row[0]

    def _games_at(self, positions):
        query = AT_POSITIONS.format(", ".join("?" * len(positions)))
        rows = self._run(lambda db: db.execute(query, (*positions, time.time())).fetchall(), single=True)
        return [game for (game,) in rows]

    def _release(self, handle):
        _unlock(handle.fd)

    def _delete_session(self, store_id):
        self._run(lambda db: db.execute("DELETE FROM sessions WHERE id = ?", (store_id,)), single=True)

    def ping(self):
        """The database takes a write and a lock file opens: what every request needs (no lock
        is taken, so /healthz never waits behind a session's request)."""
        probe = "INSERT OR REPLACE INTO probe (id, at) VALUES (1, ?)"
        self._run(lambda db: db.execute(probe, (time.time(),)), single=True)
        os.close(self._lock_file(0))


def _expiry(now, ttl):
    """A session's expiry as a write sets it: its lifetime from ``now``, and a hundredth more (EXPIRY_AHEAD)."""
    return now + ttl * (1 + EXPIRY_AHEAD)


def _unlock(fd):
    fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)


def _connect(path):
    datafiles.make_file(path)  # 0600, and so its journals
    # Autocommit: each statement is a transaction unless _run begins one.
    db = sqlite3.connect(path, timeout=5, isolation_level=None, check_same_thread=True)
    try:
        db.execute("PRAGMA journal_mode = WAL")  # readers never wait for the writer
        db.execute("PRAGMA synchronous = NORMAL")  # durable across a crash of the app, fast enough per move
        db.execute("PRAGMA journal_size_limit = 4194304")  # the WAL file shrinks back after a burst
        db.executescript(SCHEMA)
        _upgrade(db)
    except BaseException:
        db.close()
        raise
    return db


def _upgrade(db):
    """Bring a store file written by an earlier version up to date, once, whichever worker comes first."""
    db.execute("BEGIN IMMEDIATE")
    try:
        (version,) = db.execute("PRAGMA user_version").fetchone()
        for number, upgrade in enumerate(UPGRADES[version:], version + 1):
            for statement in upgrade.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA user_version = {number}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def _inode(path):
    try:
        return os.stat(path).st_ino
    except FileNotFoundError:
        return None
