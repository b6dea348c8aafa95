"""Store scale benchmark: what a new session and a move cost with many sessions already stored.

    python -m bench.store_scale [--sizes 100 20000 100000] [--requests 300]

For each size, a fresh embedded (SQLite) store is filled straight in its file with that
many sessions, each holding a real game (the default limit of 100,000 applies, so at
that size every new session also drops the longest idle one). Then, in-process through
Flask's test client, it times ``--requests`` new sessions (GET /api/game without a
cookie) and as many moves of one player, and prints their medians and their ratio to
the smallest size's: a request must not cost more as sessions pile up.
"""

import argparse
import secrets
import sqlite3
import statistics
import tempfile
import time
from contextlib import closing
from pathlib import Path

from app import create_app
from bench.load import DIRECTIONS


def fill(app, count):
    """``count`` sessions like a real one, idle for up to a day, written in one transaction."""
    client = app.test_client()
    client.post("/api/game", json={"seed": 1})
    interface = app.session_interface
    (raw,) = sqlite3.connect(interface.path).execute("SELECT data FROM sessions").fetchone()
    lifetime = app.permanent_session_lifetime.total_seconds()
    now = time.time()
    rows = (("session:" + secrets.token_urlsafe(32), raw, now + lifetime - i % 86400) for i in range(count - 1))
    with closing(sqlite3.connect(interface.path)) as db, db:
        db.executemany("INSERT INTO sessions (id, data, expires) VALUES (?, ?, ?)", rows)


def median_ms(call, requests):
    times = []
    for number in range(requests):
        started = time.perf_counter()
        call(number)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def measure(size, requests):
    with tempfile.TemporaryDirectory(prefix="store-scale-") as folder:
        app = create_app({"INSTANCE_PATH": Path(folder), "RATELIMIT_ENABLED": False})
        fill(app, size)

        def new_session(_number):
            assert app.test_client().get("/api/game").status_code == 200

        player = app.test_client()
        player.post("/api/game", json={"seed": 2})

        def move(number):
            reply = player.post("/api/game/moves", json={"direction": DIRECTIONS[number % 4]})
            if reply.status_code == 409:  # the game is over: a new one, and on
                player.post("/api/game", json={"seed": number})

        new_ms = median_ms(new_session, requests)
        move_ms = median_ms(move, requests)
        with closing(sqlite3.connect(app.session_interface.path)) as db:
            (stored,) = db.execute("SELECT count(*) FROM sessions").fetchone()
        return {"size": size, "new_session_ms": new_ms, "move_ms": move_ms, "stored_after": stored}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 20_000, 100_000])
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args(argv)
    results = [measure(size, args.requests) for size in args.sizes]
    base = results[0]
    print(f"embedded store, median of {args.requests} requests each (in-process, Flask test client)")
    for row in results:
        print(
            f"  {row['size']:7d} stored: new session {row['new_session_ms']:6.2f} ms"
            f" ({row['new_session_ms'] / base['new_session_ms']:4.2f}x)"
            f"   move {row['move_ms']:6.2f} ms ({row['move_ms'] / base['move_ms']:4.2f}x)"
            f"   {row['stored_after']} stored after"
        )
    return results


if __name__ == "__main__":
    main()
