"""How often the solver loses the stretch that decides 8192: ``python -m bench.stretch``.

The solver benchmark's games that fell short of 8192 all ended holding a 4096, 3,400 to
4,000 moves in: the stretch from a game's first 4096 to its first 8192 is where they are
lost. A 12-game run plays that stretch 12 times, too few to tell a 2% loss rate from 8%.
This plays it many times: from the position where each stored benchmark game (``--games``,
solver benchmark runs' JSON; by default the stored 10 ms run,
bench/results/benchmark-10ms.json) first held ``--from-tile``, with ``--spawns`` fresh spawn
seeds each, until ``--to-tile`` or the end. Every trial is played once with each cut-off in
``--cuts`` (see ``app.solver.solver.CUT``) on the same position and the same spawns, so the
cut-offs are compared pair by pair.

``--json PATH`` writes, after every trial: date, command, budget_ms, from_tile, to_tile,
starts (the games' seeds), spawns, cuts ({cut: {trials, lost, ms_per_move}}) and trials
([{start, spawn_seed, cut, reached, moves, seconds, directions}]): ``replay(start, spawn_seed,
directions)`` rebuilds a trial's game from its stored start.
"""

import argparse
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path

from app.engine import CLASSIC, Game, max_tile
from app.engine.history import Directions
from app.solver.solver import CUT, DEFAULT_BUDGET_MS, Solver
from bench import RESULTS
from bench.solver import command_line, timestamp, write_document

PROG = "python -m bench.stretch"
RUN = RESULTS / "benchmark-10ms.json"  # the stored 10 ms run: its games are the default starts
SPAWN_SEEDS = 1000  # trial j from game seed s uses spawn seed 1000 * s + j: not the game's own (seeds from 1)


def start_positions(games: list[dict], tile: int) -> list[tuple[int, dict]]:
    """(game seed, state) where each stored game first held ``tile``; games that never did are left out."""
    starts = []
    for stored in sorted(games, key=lambda g: g["seed"]):
        for game, _tile in Game.replaying(stored["seed"], None, Directions.from_letters(stored["directions"], CLASSIC)):
            if max_tile(game.board, CLASSIC) >= tile:
                starts.append((stored["seed"], game.to_state()))
                break
    return starts


def trial(start: int, state: dict, spawn_seed: int, cut: float, budget_ms: float, to_tile: int) -> dict:
    """The solver plays on from ``state`` with spawns from ``spawn_seed`` until ``to_tile`` or no move is left."""
    game = Game.from_state(state, seed=spawn_seed)
    solver = Solver(cut=cut)
    began = time.perf_counter()
    while not game.over and max_tile(game.board, CLASSIC) < to_tile:
        if game.finished:
            game.choose_keep_playing()
        game.play(solver.suggest(game.board, budget_ms).direction)
    return {
        "start": start,
        "spawn_seed": spawn_seed,
        "cut": cut,
        "reached": max_tile(game.board, CLASSIC) >= to_tile,
        "moves": game.moves - state["moves"],
        "seconds": time.perf_counter() - began,
        "directions": game.directions.to_letters(),
    }


def replay(start: int, spawn_seed: int, directions: str, games: list[dict], from_tile: int = 4096) -> Game:
    """A trial's game, rebuilt from the stored game it started in (``games``) and its own directions."""
    state = dict(start_positions([g for g in games if g["seed"] == start], from_tile))[start]
    return Game.replay(spawn_seed, state, Directions.from_letters(directions, CLASSIC))


def _trial(args) -> dict:
    return trial(*args)


def summarize(trials: list[dict], cuts: list[float]) -> dict:
    by_cut = {}
    for cut in cuts:
        mine = [t for t in trials if t["cut"] == cut]
        moves = sum(t["moves"] for t in mine)
        by_cut[str(cut)] = {
            "trials": len(mine),
            "lost": sum(not t["reached"] for t in mine),
            "ms_per_move": 1000 * sum(t["seconds"] for t in mine) / moves if moves else 0.0,
        }
    return by_cut


def write_json(args, argv, starts: list[int], trials: list[dict]) -> None:
    write_document(
        args.json,
        {
            "date": timestamp(),
            "command": command_line(PROG, argv),
            "budget_ms": args.budget_ms,
            "from_tile": args.from_tile,
            "to_tile": args.to_tile,
            "starts": starts,
            "spawns": args.spawns,
            "cuts": summarize(trials, args.cuts),
            "trials": trials,
        },
    )


def parse_args(argv):
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games",
        nargs="+",
        default=[str(RUN)],
        metavar="JSON",
        help="solver benchmark runs to start from (default: bench/results/benchmark-10ms.json)",
    )
    parser.add_argument("--budget-ms", type=float, default=DEFAULT_BUDGET_MS)
    parser.add_argument("--cuts", type=lambda text: [float(c) for c in text.split(",")], default=[CUT])
    parser.add_argument("--spawns", type=int, default=2, help="spawn seeds tried from each position")
    parser.add_argument("--from-tile", type=int, default=4096)
    parser.add_argument("--to-tile", type=int, default=8192)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    return parser.parse_args(argv)


def main(argv=None) -> dict:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    games = [game for path in args.games for game in json.loads(Path(path).read_text())["per_game"]]
    starts = start_positions(games, args.from_tile)
    tasks = [
        (seed, state, SPAWN_SEEDS * seed + j, cut, args.budget_ms, args.to_tile)
        for j in range(args.spawns)
        for seed, state in starts
        for cut in args.cuts
    ]
    trials = []
    with Pool(args.jobs) as pool:
        for result in pool.imap_unordered(_trial, tasks):
            trials.append(result)
            if args.json:  # after every trial, so that a run cut short still leaves its finished trials
                write_json(args, argv, [seed for seed, _ in starts], trials)
    summary = summarize(trials, args.cuts)
    for cut, result in summary.items():
        print(
            f"cut {cut}: lost {result['lost']} of {result['trials']} trials from {args.from_tile} to {args.to_tile}, "
            f"{result['ms_per_move']:.1f} ms a move",
            flush=True,
        )
    return summary


if __name__ == "__main__":
    main()
