"""Every board size against the classic: what a move costs the engine, what a hint takes against its
budget, how far the solver gets, and what a worker's memory grows by once every size has been played.

    python -m bench.sizes [--games 10] [--budget-ms 100] [--hints 200] [--seed 1]

- **moves**: the engine's move (kernel_for(variant).move) on boards of a solver-played game, the median
  over every direction, each size against the classic 4x4 (the request around a move is
  ``bench.move_cost --size N``).
- **hints**: the wall time of the solver's suggestion (app/solver: the compiled search on 4x4, the
  general search on the others) over the positions of a game it plays, p50, p99 and maximum against
  ``--budget-ms`` (FLASK_SOLVER_BUDGET_MS).
- **reach**: ``--games`` games the solver plays at ``--budget-ms`` on 3x3 (where 2048 is out of reach,
  which chose its goal): how often each largest tile is reached.
- **memory**: a fresh process's resident memory after a classic game and hints, then after a game and
  hints on every other size: what the other sizes add to a worker.
"""

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections import Counter

from app.engine import CLASSIC, DIRECTIONS, VARIANTS, Game, kernel_for, max_tile
from app.solver import GeneralSolver, Solver
from bench.stats import percentile


def solver_for(variant):
    return Solver() if variant == CLASSIC else GeneralSolver(variant)


def played_boards(variant, solver, count, budget_ms, seed):
    """The boards of games the solver plays (new ones while they end), ``count`` of them."""
    boards, game = [], Game.new(seed, variant=variant)
    while len(boards) < count:
        if game.over:
            game = Game.new(game.seed + 1, variant=variant)
            continue
        if game.finished:
            game.choose_keep_playing()
        boards.append(game.board)
        game.play(solver.suggest(game.board, budget_ms).direction)
    return boards


def move_cost_us(variant, boards, rounds=5):
    """The median of ``rounds`` timings of every direction on every board, in microseconds a move."""
    move, timings = kernel_for(variant).move, []
    for _ in range(rounds):
        started = time.perf_counter()
        for board in boards:
            for direction in DIRECTIONS:
                move(board, direction)
        timings.append((time.perf_counter() - started) / (len(boards) * len(DIRECTIONS)) * 1e6)
    return round(statistics.median(timings), 2)


def hint_ms(variant, boards, budget_ms):
    solver, taken = solver_for(variant), []
    for board in boards:
        started = time.perf_counter()
        solver.suggest(board, budget_ms)
        taken.append((time.perf_counter() - started) * 1000)
    return {name: round(percentile(taken, p), 1) for name, p in (("p50", 0.5), ("p99", 0.99), ("max", 1.0))}


def reach(variant, games, budget_ms, seed):
    """How often each largest tile is reached in ``games`` games the solver plays to their end."""
    solver, tiles = solver_for(variant), Counter()
    for number in range(games):
        game = Game.new(seed + number, variant=variant)
        while not game.over:
            if game.finished:
                game.choose_keep_playing()
            game.play(solver.suggest(game.board, budget_ms).direction)
        tiles[max_tile(game.board, variant)] += 1
    return dict(sorted(tiles.items()))


MEMORY_PROBE = """
import json, resource, sys
from app.engine import CLASSIC, VARIANTS
from bench.sizes import played_boards, solver_for
def rss_mb():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 2**20
played_boards(CLASSIC, solver_for(CLASSIC), 1000, 5, 1)
classic = rss_mb()
for variant in VARIANTS.values():
    played_boards(variant, solver_for(variant), 1000, 5, 1)
print(json.dumps({"classic_mb": round(classic, 1), "every_size_mb": round(rss_mb(), 1)}))
"""


def memory():
    """A fresh process's resident memory after the classic game, and after every size's."""
    probe = subprocess.run([sys.executable, "-c", MEMORY_PROBE], capture_output=True, text=True, check=True)
    result = json.loads(probe.stdout)
    return result | {"grown_mb": round(result["every_size_mb"] - result["classic_mb"], 1)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10, help="3x3 games the solver plays to their end")
    parser.add_argument("--budget-ms", type=float, default=100.0)
    parser.add_argument("--hints", type=int, default=200, help="positions a size's hints are timed on")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    result = {"sizes": {}}
    rng = random.Random(args.seed)
    for size, variant in VARIANTS.items():
        seed = rng.randrange(2**32)
        boards = played_boards(variant, solver_for(variant), args.hints, min(args.budget_ms, 10), seed)
        timed = {"move_us": move_cost_us(variant, boards), "hint_ms": hint_ms(variant, boards, args.budget_ms)}
        result["sizes"][size] = timed
        print(size, json.dumps(result["sizes"][size]), flush=True)
    classic = result["sizes"][CLASSIC.size]["move_us"]
    result["move_ratio_8x8"] = round(result["sizes"][8]["move_us"] / classic, 2)
    result["reach_3x3"] = reach(VARIANTS[3], args.games, args.budget_ms, args.seed)
    result["memory"] = memory()
    print(json.dumps(result, indent=1))
    return result


if __name__ == "__main__":
    main()
