"""The embedded store's entries, read and written straight in its SQLite file, as a test needs."""

import sqlite3
import time
from contextlib import closing
from pathlib import Path


def database(app):
    return Path(app.instance_path) / "sessions.sqlite3"


def _query(app, sql, parameters=()):
    with closing(sqlite3.connect(database(app))) as db, db:
        return db.execute(sql, parameters).fetchall()


def has_entry(app, store_id):
    return bool(_query(app, "SELECT 1 FROM sessions WHERE id = ?", (store_id,)))


def read_entry(app, store_id):
    (raw,) = _query(app, "SELECT data FROM sessions WHERE id = ?", (store_id,))[0]
    return app.session_interface.serializer.decode(raw)


def named_game(app, store_id):
    """The game the entry's row names (its unique index keeps a game in one session), or None."""
    rows = _query(app, "SELECT game FROM sessions WHERE id = ?", (store_id,))
    return rows[0][0] if rows else None


def expiry(app, store_id):
    """When the stored session expires (Unix time)."""
    return _query(app, "SELECT expires FROM sessions WHERE id = ?", (store_id,))[0][0]


def drop_entry(app, store_id):
    _query(app, "DELETE FROM sessions WHERE id = ?", (store_id,))


def write_entry(app, store_id, data):
    raw = app.session_interface.serializer.encode(data)
    _query(app, "UPDATE sessions SET data = ?, expires = ? WHERE id = ?", (raw, time.time() + 3600, store_id))


def overwrite_every_entry(app, raw):
    _query(app, "UPDATE sessions SET data = ?", (raw,))


def entry_count(app):
    return _query(app, "SELECT count(*) FROM sessions")[0][0]


def forget(app, cookie):
    """The server forgets the cookie's session (as an evicted or expired one): its game is held nowhere."""
    _query(app, "DELETE FROM sessions WHERE id = ?", ("session:" + cookie,))


def expire(app, cookie):
    """The cookie's session expires, its row still in the store (the store clears expired rows now and then)."""
    _query(app, "UPDATE sessions SET expires = ? WHERE id = ?", (time.time() - 1, "session:" + cookie))
