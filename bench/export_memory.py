"""What a backup costs in memory: ``flask records export`` over a database of N records.

    python -m bench.export_memory [--records 1000 4000] [--long-every 10] [--reviews 3] [--checkout PATH]

Fills a SQLite database in a temporary instance folder with copies of two records (ids and game
ids of their own): every ``--long-every``-th one the solver's 11,070-move game of
bench/results/long_game.txt, the others its first 300 moves, each with ``--reviews`` reviews of
its positions (a short game has at most 300). Then it runs the real command (``flask --app app
records export FILE``) in a process of its own for each count and prints that process's peak
resident memory, the time it took and the size of the backup. Memory that stays flat as the count
grows is what a streaming export promises. ``--checkout`` runs the command from another checkout
(``git worktree add``), whose app it then imports: the code before a change, on the same database.
"""

import argparse
import os
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import insert, select

from app import create_app, records
from app.database import Record, Review, db
from bench.records import long_game
from tests.support.servers import PROJECT_ROOT, server_env


def fill(instance, count, long_every, reviews):
    """``count`` records in the instance folder's database, copied from a long and a short game."""
    app = create_app({"TESTING": True, "INSTANCE_PATH": instance, "RATELIMIT_ENABLED": False})
    with app.app_context():
        have = db.session.query(Record).count()
        if not have:
            long = records.save(long_game(), "Long")[0]
            templates = [long, _short_copy(long, 300)]
        else:
            templates = [
                db.session.scalars(select(Record).where(Record.name == name)).first() for name in ("Long", "Short")
            ]
        for number in range(have, count):
            template = templates[0] if number % long_every == 0 else templates[1]
            copy = Record(**{column: getattr(template, column) for column in COPIED})
            copy.id, copy.game_id = secrets.token_urlsafe(12), secrets.token_urlsafe(12)[:16]
            db.session.add(copy)
            db.session.flush()
            review = {"record_id": copy.id, "best": "left", "loss": 0.5, "scores": {"left": 1.0, "up": 0.5}}
            positions = range(min(reviews, template.direction_count))
            db.session.execute(insert(Review), [review | {"position": at, "mistake": None} for at in positions])
            if number % 500 == 0:
                db.session.commit()
        db.session.commit()


COPIED = ("name", "score", "max_tile", "moves", "verified", "hints", "autoplay", "over", "seed", "start", "directions",
          "direction_count", "tiles", "restores", "undos")  # fmt: skip


def _short_copy(record, moves):
    """The record cut to its first ``moves`` moves (a game still being played)."""
    from app.engine import CLASSIC
    from app.engine.history import Directions
    from app.games.played import PlayedGame
    from app.review import directions_of

    directions = Directions.from_letters(directions_of(record).to_letters()[:moves], CLASSIC)
    game = PlayedGame.replay(record.seed, record.start, directions)
    game.seed_chosen = False
    game.id = secrets.token_urlsafe(12)[:16]
    return records.save(game, "Short")[0]


def export(instance, target, checkout=PROJECT_ROOT):
    """Run the real export command in a process of its own: (peak resident MB, seconds, bytes written)."""
    script = (
        "import resource, subprocess, sys; "
        "code = subprocess.run(sys.argv[1:]).returncode; "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(code)"
    )
    argv = [sys.executable, "-c", script, sys.executable, "-m", "flask", "--app", "app", "records", "export", target]
    started = time.perf_counter()
    done = subprocess.run(argv, env=server_env({"FLASK_INSTANCE_PATH": instance}), cwd=checkout,
                          capture_output=True, text=True, check=True)  # fmt: skip
    seconds = time.perf_counter() - started
    return int(done.stdout.split()[-1]) / 1024, seconds, os.path.getsize(target), done.stderr.strip().splitlines()[-1]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, nargs="+", default=[1000, 4000])
    parser.add_argument("--long-every", type=int, default=10)
    parser.add_argument("--reviews", type=int, default=3, help="reviews a record has")
    parser.add_argument("--checkout", type=Path, default=PROJECT_ROOT, help="the checkout whose command runs")
    args = parser.parse_args(argv)
    print(f"export memory (load average {os.getloadavg()[0]:.2f})")
    with tempfile.TemporaryDirectory(prefix="export-memory-") as folder:
        instance = Path(folder) / "instance"
        for count in sorted(args.records):
            fill(instance, count, args.long_every, args.reviews)
            peak, seconds, size, said = export(instance, str(Path(folder) / f"backup-{count}.jsonl"), args.checkout)
            print(f"  {count:6d} records: peak {peak:6.1f} MB resident, {seconds:5.1f} s, backup {size / 1e6:6.1f} MB"
                  f"  ({said})")  # fmt: skip


if __name__ == "__main__":
    main()
