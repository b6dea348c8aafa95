"""Move cost benchmark: what the server does for one move, against a plain request, in-process.

    python -m bench.move_cost [--requests 2000] [--rounds 5] [--profile 20]

Through Flask's test client (no network, no gunicorn), one player with a game of some forty
moves (its five positions kept for undo full) plays moves round the four directions, in rounds
alternating with as many ``GET /healthz``: the median of each, and their ratio, which is what a
move costs beyond any request (the session's lock and read, the game rebuilt from its stored form,
the move, the write-back). ``--profile N`` prints the N functions a move spends most time in.
"""

import argparse
import cProfile
import pstats
import statistics
import tempfile
import time
from pathlib import Path

from app import create_app
from bench.load import DIRECTIONS


def player(app):
    """A client whose game has played 40 moves (a lost game is begun again)."""
    client = app.test_client()
    client.post("/api/game", json={"seed": 7})
    for step in range(40):
        client.post("/api/game/moves", json={"direction": DIRECTIONS[step % 4]})
    return client


def timings(call, count):
    times = []
    for _ in range(count):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return times


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=2000, help="of each kind, over all rounds")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--profile", type=int, default=0, help="print the N costliest functions of the moves")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"INSTANCE_PATH": Path(folder) / "instance", "RATELIMIT_ENABLED": False})
        client = player(app)
        step = 0

        def move():
            nonlocal step
            step += 1
            state = client.post("/api/game/moves", json={"direction": DIRECTIONS[step % 4]}).get_json()
            if state["over"]:
                client.post("/api/game", json={"seed": step})

        def healthz():
            client.get("/healthz")

        moves, plain = [], []
        per_round = args.requests // args.rounds
        for _ in range(args.rounds):
            plain += timings(healthz, per_round)
            moves += timings(move, per_round)
        result = {
            "move_ms": round(statistics.median(moves) * 1000, 3),
            "healthz_ms": round(statistics.median(plain) * 1000, 3),
        }
        result["ratio"] = round(result["move_ms"] / result["healthz_ms"], 2)
        print(f"move {result['move_ms']} ms, /healthz {result['healthz_ms']} ms (medians of {len(moves)} each):"
              f" a move costs {result['ratio']}x a plain request")  # fmt: skip
        if args.profile:
            profile = cProfile.Profile()
            profile.runcall(timings, move, per_round)
            pstats.Stats(profile).sort_stats("tottime").print_stats(args.profile)
    return result


if __name__ == "__main__":
    main()
