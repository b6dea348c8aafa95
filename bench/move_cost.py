"""Move cost benchmark: what the server does for one move, against a plain request, in-process.

    python -m bench.move_cost [--requests 2000] [--rounds 5] [--profile 20] [--size 4]

Through Flask's test client (no network, no gunicorn), one player with a game of some forty
moves (its five positions kept for undo full) on a seed the server chose, as every player's game
is (so the store keeps the board it stands on, where hints look), plays moves round the four
directions, in rounds alternating with as many ``GET /healthz``: the median of each, and their
ratio, which is what a move costs beyond any request (the session's lock and read, the game
rebuilt from its stored form, the move, the write-back). A move is timed in both forms the API
takes: as the page sends it (a batch of one direction with the count it was played from and a
request id, static/js/api.js), and as one ``direction``, answered with its animation. Each
request is timed alone: reading its answer is the client's work, done after the clock stops.
``--profile N`` prints the N functions the page's moves spend most time in; ``--size N`` plays a game
of that board size (the classic 4x4 by default).
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


def player(app, size=4):
    """A client whose game of ``size`` has played 40 moves (a lost game is begun again)."""
    client = app.test_client()
    client.post("/api/game", json={"size": size})
    for step in range(40):
        client.post("/api/game/moves", json={"direction": DIRECTIONS[step % 4]})
    return client


class Moves:
    """One player's moves round the four directions, each a request timed alone; a lost game begins again."""

    def __init__(self, client, size=4):
        self.client, self.size = client, size
        self.step = 0
        self.moves = client.get("/api/game").get_json()["moves"]

    def page(self):
        """A move as the page sends it."""
        body = {"directions": [self._direction()], "moves": self.moves, "id": f"move-{self.step}"}
        return self._timed(lambda: self.client.post("/api/game/moves", json=body))

    def single(self):
        """A move as one direction, answered with its animation."""
        body = {"direction": self._direction()}
        return self._timed(lambda: self.client.post("/api/game/moves", json=body))

    def _direction(self):
        self.step += 1
        return DIRECTIONS[self.step % 4]

    def _timed(self, send):
        started = time.perf_counter()
        answer = send()
        took = time.perf_counter() - started
        state = answer.get_json()
        state = state.get("state", state)  # a move refused (409) says the game's state
        if state["won"] and not state["keep_playing"]:  # a large board reaches 2048 round the four directions
            state = self.client.post("/api/game/keep-playing", json={}).get_json()
        if state["over"]:
            state = self.client.post("/api/game", json={"size": self.size}).get_json()
        self.moves = state["moves"]
        return took


def timings(call, count):
    return [call() for _ in range(count)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=2000, help="of each kind, over all rounds")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--profile", type=int, default=0, help="print the N costliest functions of the moves")
    parser.add_argument("--size", type=int, default=4, help="the board's side, 3 to 8")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"INSTANCE_PATH": Path(folder) / "instance", "RATELIMIT_ENABLED": False})
        client = player(app, args.size)
        moves = Moves(client, args.size)

        def healthz():
            started = time.perf_counter()
            client.get("/healthz")
            return time.perf_counter() - started

        kinds = {"healthz": healthz, "page": moves.page, "single": moves.single}
        times = {kind: [] for kind in kinds}
        per_round = args.requests // args.rounds
        for _ in range(args.rounds):
            for kind, call in kinds.items():
                times[kind] += timings(call, per_round)
        result = {f"{kind}_ms": round(statistics.median(taken) * 1000, 3) for kind, taken in times.items()}
        for form in ("page", "single"):
            result[f"{form}_ratio"] = round(result[f"{form}_ms"] / result["healthz_ms"], 2)
        print(f"/healthz {result['healthz_ms']} ms; a move as the page sends it {result['page_ms']} ms,"
              f" {result['page_ratio']}x; as one direction with its animation {result['single_ms']} ms,"
              f" {result['single_ratio']}x (medians of {len(times['healthz'])} each)")  # fmt: skip
        if args.profile:
            profile = cProfile.Profile()
            profile.runcall(timings, moves.page, per_round)
            pstats.Stats(profile).sort_stats("tottime").print_stats(args.profile)
    return result


if __name__ == "__main__":
    main()
