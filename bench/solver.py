r"""Strength and speed of the solver: ``python -m bench.solver``.

The stored runs live in bench/results/, written by ``--json`` (then ``python -m bench.summary``
refreshes the figures the /solver page shows)::

    nice -n 10 python -m bench.solver --games 12 --seed 1 --budget-ms 100 --jobs 2 \
        --json bench/results/benchmark.json
    nice -n 10 python -m bench.solver --games 48 --seed 1 --budget-ms 10 --jobs 2 \
        --json bench/results/benchmark-10ms.json
    python -m bench.solver --speed --json bench/results/speed.json

``--speed`` instead times single moves on the engine benchmark's boards: the
engine's CPython moves next to the compiled slides the search uses (``--json``
then writes date, command and both rates).

Plays whole games with the engine's own rules and seeded randomness (game i uses
``Game.new(seed=S + i)``), keeps playing after 2048 until no move is left, and
reports how often each big tile was reached, scores, thinking time per move and
moves per second. ``--jobs`` plays games in parallel processes, one per core.

``--cut`` sets the solver's probability cut-off (``app.solver.solver.CUT``; 0 searches
every spawn path), so that full games can compare cut-offs as ``bench.stretch`` does.

``--json PATH`` writes, after every finished game: date, command, budget_ms, cut,
games, games_finished, seed, jobs, cores (the processor cores the run could use), max_moves,
reached ({tile: share of games}), score ({median, best}), ms_per_move ({median,
p99}), cpu_ms_per_move (the processor time a hint costs, mean), moves_per_second,
nodes_per_second (chance nodes the search expanded per second of processor time),
mean_depth and per_game ([{seed, max_tile, score, moves, cpu_seconds, nodes,
directions}]): ``directions`` holds every move's initial (u, d, l, r), so
``replay(seed, directions)`` rebuilds any game exactly, whatever the machine's speed.
"""

import argparse
import json
import os
import statistics
import sys
import time
from datetime import UTC, datetime
from multiprocessing import Pool

import numpy as np
from numba import njit

from app.engine import CLASSIC, DIRECTIONS, Game, max_tile
from app.engine.history import Directions
from app.engine.sliding import SLIDES
from app.solver import layout, search
from app.solver.solver import CUT, DEFAULT_BUDGET_MS, Solver
from bench import engine as engine_bench
from bench.stats import percentile

PROG = "python -m bench.solver"
TILES = (2048, 4096, 8192, 16384, 32768)


def play(seed: int, budget_ms: float, max_moves: int | None, solver: Solver) -> dict:
    """One game to its end (or ``max_moves``): result plus every move's time and depth."""
    game = Game.new(seed=seed)
    times, depths = [], []
    nodes = solver.state[search.NODES]
    start, cpu = time.perf_counter(), time.process_time()
    while not game.over and (max_moves is None or game.moves < max_moves):
        if game.finished:
            game.choose_keep_playing()
        suggestion = solver.suggest(game.board, budget_ms)
        times.append(suggestion.ms)
        depths.append(suggestion.depth)
        game.play(suggestion.direction)
    return {
        "seed": seed,
        "max_tile": max_tile(game.board, CLASSIC),
        "score": game.score,
        "moves": game.moves,
        "cpu_seconds": time.process_time() - cpu,
        "nodes": int(solver.state[search.NODES] - nodes),
        "directions": game.directions.to_letters(),
        "seconds": time.perf_counter() - start,
        "times": times,
        "depths": depths,
    }


def replay(seed: int, directions: str) -> Game:
    """The benchmark's game ``seed`` rebuilt from its stored ``directions``."""
    return Game.replay(seed, None, Directions.from_letters(directions, CLASSIC))


def _play(args) -> dict:
    seed, budget_ms, max_moves, cut = args
    return play(seed, budget_ms, max_moves, Solver(cut=cut))


def summarize(results: list[dict]) -> dict:
    times = [t for r in results for t in r["times"]] or [0.0]
    depths = [d for r in results for d in r["depths"]] or [0]
    scores = [r["score"] for r in results]
    seconds = sum(r["seconds"] for r in results)
    cpu_seconds = sum(r["cpu_seconds"] for r in results)
    moves = sum(r["moves"] for r in results)
    return {
        "reached": {str(tile): sum(r["max_tile"] >= tile for r in results) / len(results) for tile in TILES},
        "score": {"median": statistics.median(scores), "best": max(scores)},
        "ms_per_move": {"median": statistics.median(times), "p99": percentile(times, 0.99)},
        "cpu_ms_per_move": 1000 * cpu_seconds / moves if moves else 0.0,
        "moves_per_second": moves / seconds if seconds else 0.0,
        "nodes_per_second": sum(r["nodes"] for r in results) / cpu_seconds if cpu_seconds else 0.0,
        "mean_depth": statistics.fmean(depths),
        "per_game": [
            {k: r[k] for k in ("seed", "max_tile", "score", "moves", "cpu_seconds", "nodes", "directions")}
            for r in results
        ],
    }


def report(summary: dict) -> str:
    lines = [f"{'tile':>6}  reached"]
    lines += [f"{tile:>6}  {share:7.0%}" for tile, share in summary["reached"].items()]
    lines += [
        f"score: median {summary['score']['median']:.0f}, best {summary['score']['best']}",
        f"ms per move: median {summary['ms_per_move']['median']:.1f}, p99 {summary['ms_per_move']['p99']:.1f}, "
        f"processor time {summary['cpu_ms_per_move']:.1f} (mean)",
        f"moves per second: {summary['moves_per_second']:.1f} (per core), mean depth {summary['mean_depth']:.2f}",
        f"search: {summary['nodes_per_second']:,.0f} chance nodes per second of processor time",
    ]
    return "\n".join(lines)


@njit(cache=True, nogil=True)
def slide_many(boards):
    """Every slide of every board, compiled as the search slides; returns a checksum so none is skipped."""
    total = 0
    for i in range(boards.shape[0]):
        for direction in range(4):
            total ^= search._slide(boards[i], direction)
    return total


def speed() -> dict:
    """Moves per second, one core: CPython's ``SLIDES`` and the search's compiled slides, same boards.

    Timed as bench.engine times, and its best pass kept: other work on the machine only slows one down.
    """
    boards = engine_bench.sample_boards()
    packed = np.array([layout.to_search(board) for board in boards], dtype=np.int64)
    slide_many(packed[:1])  # compile it before timing

    def cpython(batch):
        for board in batch:
            for direction in DIRECTIONS:
                SLIDES[direction](board)

    boards_per_second = {
        "cpython": engine_bench.rates(cpython, engine_bench.batches(boards))[0],
        "compiled": engine_bench.rates(slide_many, engine_bench.batches(packed))[0],
    }
    return {f"{kind}_moves_per_second": rate * len(DIRECTIONS) for kind, rate in boards_per_second.items()}


def parse_args(argv):
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget-ms", type=float, default=DEFAULT_BUDGET_MS)
    parser.add_argument("--cut", type=float, default=CUT, help="spawn paths less likely are not searched further")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--max-moves", type=int, default=None, help="stop each game after this many moves")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    parser.add_argument("--speed", action="store_true", help="time single moves instead of playing games")
    return parser.parse_args(argv)


def main(argv=None) -> dict:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.speed:
        rates = speed()
        for name, rate in rates.items():
            print(f"{name.replace('_', ' ')}: {rate:,.0f}", flush=True)
        if args.json:
            write_document(args.json, {"date": timestamp(), "command": command_line(PROG, argv), **rates})
        return rates
    tasks = [(args.seed + i, args.budget_ms, args.max_moves, args.cut) for i in range(args.games)]
    results = []
    with Pool(args.jobs) as pool:
        for result in pool.imap_unordered(_play, tasks):
            results.append(result)
            print(
                f"game seed {result['seed']}: max tile {result['max_tile']}, score {result['score']}, "
                f"{result['moves']} moves in {result['seconds']:.0f} s",
                flush=True,
            )
            if args.json:  # after every game, so that a run cut short still leaves its finished games
                write_json(args, argv, results)
    summary = summarize(sorted(results, key=lambda r: r["seed"]))
    print(report(summary), flush=True)
    return summary


def write_json(args, argv, results: list[dict]) -> None:
    """The finished games' summary; ``games_finished`` below ``games`` marks a run still going (or cut short)."""
    write_document(
        args.json,
        {
            "date": timestamp(),
            "command": command_line(PROG, argv),
            "budget_ms": args.budget_ms,
            "cut": args.cut,
            "games": args.games,
            "games_finished": len(results),
            "seed": args.seed,
            "jobs": args.jobs,
            "cores": len(os.sched_getaffinity(0)),
            "max_moves": args.max_moves,
            **summarize(sorted(results, key=lambda r: r["seed"])),
        },
    )


def timestamp() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def command_line(prog: str, argv) -> str:
    """The command a run's JSON records: ``prog`` and its arguments (the process's own when ``argv`` is None)."""
    return " ".join([prog, *(sys.argv[1:] if argv is None else argv)])


def write_document(path: str, document: dict) -> None:
    with open(path, "w") as out:
        json.dump(document, out, indent=2)
        out.write("\n")


if __name__ == "__main__":
    main()
