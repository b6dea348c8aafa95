"""What a long game's record costs: saving a 10,000-move record, loading it, a review range.

    python -m bench.records [--database-uri URL] [--repeat 5] [--generate]

The game is a real one: bench/results/long_game.txt holds a seed and the directions the built-in
solver played from it (``--generate MINUTES`` plays seeds in turn and keeps the longest game,
stopping at 10,000 moves). A game that long needs a 16384 tile, which the solver reaches in
most of its games at 100 ms a move (bench/results/benchmark.json); when the stored game
is shorter, the costs that grow with its length are also given per move and for 10,000 moves.
Requests go through Flask's test client, so the times are the app's own work: the replay
that verifies a record, the database, JSON. The database is SQLite in a temporary
instance folder unless ``--database-uri`` names another (e.g. PostgreSQL).
"""

import argparse
import statistics
import tempfile
import time

from app import create_app
from app.engine import CLASSIC, Game
from app.engine.history import Directions
from app.solver import Solver
from bench import RESULTS
from bench import solver as solver_bench

GAME = RESULTS / "long_game.txt"
SLIDES = 10_000


def generate(budget_ms, minutes, first_seed=1):
    """Let the solver play seeds in turn until a game lasts SLIDES moves or time is up; the
    longest game goes to GAME. Only strong play lasts that long (a 16384 tile)."""
    solver = Solver()
    deadline = time.monotonic() + 60 * minutes
    longest = 0
    for seed in range(first_seed, first_seed + 10_000):
        game = solver_bench.play(seed, budget_ms, SLIDES, solver)
        print(f"seed {seed}: {game['moves']} moves, score {game['score']}", flush=True)
        if game["moves"] > longest:
            longest = game["moves"]
            GAME.write_text(f"{seed}\n{game['directions']}\n")
        if game["moves"] >= SLIDES or time.monotonic() > deadline:
            return


def long_game():
    """The stored game, as the server would hold it had it chosen the seed."""
    seed, letters = GAME.read_text().split()
    game = Game.replay(int(seed), None, Directions.from_letters(letters, CLASSIC))
    game.seed_chosen = False
    return game


def play(client, game):
    """The game played into the test client's session through the API, in batches.

    The client names the seed, so the session's game is not verified and saving it skips the
    replay: that replay is timed on its own (``game.verified``), as saving a verified game runs it.
    """
    assert client.post("/api/game", json={"seed": game.seed}).status_code == 201
    directions = list(game.directions)
    played = 0
    while played < len(directions):  # a batch stops at the win: keep playing, go on from there
        reply = client.post("/api/game/moves", json={"directions": directions[played : played + 64]})
        assert reply.status_code == 200, reply.get_json()
        state = reply.get_json()
        played = state["moves"]
        if state["won"] and not state["keep_playing"]:
            assert client.post("/api/game/keep-playing", json={}).status_code == 200
    assert client.get("/api/game").get_json()["board"] == game.to_state()["board"]


def timed(call, repeat):
    """Median and best wall time of ``call`` in ms, and its last result."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), min(times), result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-uri", help="SQLAlchemy URL (default: SQLite in a temporary folder)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--generate",
        type=float,
        metavar="MINUTES",
        help="first let the solver play games for up to MINUTES, keeping the longest",
    )
    parser.add_argument("--budget-ms", type=float, default=8, help="the solver's time a move when generating")
    args = parser.parse_args(argv)
    if args.generate or not GAME.exists():
        generate(args.budget_ms, args.generate or 10)
    game = long_game()
    with tempfile.TemporaryDirectory() as instance:
        config = {"INSTANCE_PATH": instance, "RATELIMIT_ENABLED": False}
        if args.database_uri:
            config["SQLALCHEMY_DATABASE_URI"] = args.database_uri
        app = create_app(config)
        client = app.test_client()
        play(client, game)

        def save():
            reply = client.post("/api/records", json={"name": "Bench"})
            assert reply.status_code == 201, reply.get_json()
            return reply.get_json()["id"]

        rows = []
        median, best, verified = timed(lambda: game.verified, args.repeat)
        assert verified
        rows.append(("verify: replay seed + directions", median, best))
        median, best, record_id = timed(save, args.repeat)
        rows.append(("save: POST /api/records (verified: + the replay)", median, best))
        url = f"/api/records/{record_id}"  # what a replay page loads: the directions and the tiles they placed
        median, best, reply = timed(lambda: client.get(url), args.repeat)
        assert reply.status_code == 200 and reply.get_json()["moves"] == game.moves
        rows.append((f"load the record ({len(reply.data) / 1000:.0f} kB JSON)", median, best))
        review = f"/api/records/{record_id}/review?from={game.moves // 2}"
        first, _, reply = timed(lambda: client.get(review), 1)
        assert reply.status_code == 200, reply.get_json()
        size = len(reply.get_json()["reviews"])
        rows.append((f"review range at move {game.moves // 2} ({size} positions, analysed)", first, first))
        median, best, _ = timed(lambda: client.get(review), args.repeat)
        rows.append(("the same range again (kept)", median, best))
        packed = len(game.directions.packed)

    database = args.database_uri.split(":", 1)[0] if args.database_uri else "sqlite"
    print(f"{game.moves:,}-move record (score {game.score:,}, {packed:,} bytes of directions), {database}:")
    print(f"{'':52} {'median ms':>10} {'best ms':>9}")
    for label, median, best in rows:
        print(f"{label:52} {median:10.1f} {best:9.1f}")
    if game.moves < SLIDES:  # the replays grow with the length: scaled to SLIDES
        scale = SLIDES / game.moves
        print(f"scaled to {SLIDES:,} moves: verify {rows[0][1] * scale:.0f} ms, load {rows[2][1] * scale:.0f} ms")


if __name__ == "__main__":
    main()
