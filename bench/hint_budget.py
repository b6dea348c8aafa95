"""Hint budget benchmark: how long hints take over late-game boards, against their budget.

    python -m bench.hint_budget [--budget-ms 100] [--hints 300] [--seed 3]

The web app's solver (app/hints.py: one per worker, its caches carried from hint to
hint and trimmed when full) answers hints for the positions of a game a solver plays,
from move ``--from-move`` on, where boards are tight and searches deep. Prints the p50, p99 and
maximum of the hints' wall time against the budget (the budget is a promise, so p99
must stay within 10% of it), and of the CPU time they used: on a machine whose cores
are busy with other work, wall time also counts the time the benchmark waited for a core.

After each hint it also times a fixed run of arithmetic about as long as the budget,
the same work every time: its p99 against its median is the machine's own spread (a
virtual machine's host taking the core back, for one). A hint stops at its deadline
however slow the machine, so only a stall in its last moments shows in its time.
"""

import argparse
import statistics
import tempfile
import time

from app import hints
from app.engine import Game
from app.solver import Solver
from bench.stats import percentile


def late_game_boards(seed, count, from_move, budget_ms):
    """Boards of one solver-played game from ``from_move`` on (new games when one ends)."""
    solver, boards, game = Solver(), [], Game.new(seed)
    while len(boards) < count:
        if game.over:
            game = Game.new(game.seed + 1)
            continue
        if game.finished:
            game.choose_keep_playing()
        if game.moves >= from_move:
            boards.append(game.board)
        game.play(solver.suggest(game.board, budget_ms).direction)
    return boards


def fixed_work(rounds):
    """Arithmetic that is the same work every run, so any spread in its time is the machine's."""
    x = 1
    for _ in range(rounds):
        x = (x * 6364136223846793005 + 1) & 0xFFFFFFFFFFFFFFFF
    return x


def rounds_lasting(ms):
    """Rounds of ``fixed_work`` that take about ``ms`` on this machine (the best of five tries)."""
    rounds = 100_000
    took = min(timed_ms(fixed_work, rounds) for _ in range(5))
    return round(rounds * ms / took)


def timed_ms(work, *args):
    """Wall time of one call, in milliseconds."""
    started = time.perf_counter()
    work(*args)
    return (time.perf_counter() - started) * 1000


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--budget-ms", type=float, default=100.0)
    parser.add_argument("--hints", type=int, default=300)
    parser.add_argument("--from-move", type=int, default=400)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args(argv)
    boards = late_game_boards(args.seed, args.hints, args.from_move, budget_ms=5)
    rounds = rounds_lasting(args.budget_ms)
    wall, cpu, fixed = [], [], []
    with tempfile.TemporaryDirectory(prefix="hint-budget-") as instance_path:
        hints.suggest(boards[0], args.budget_ms, instance_path)  # the worker's first hint builds its solver
        for board in boards:
            started, used = time.perf_counter(), time.thread_time()
            hints.suggest(board, args.budget_ms, instance_path)
            wall.append((time.perf_counter() - started) * 1000)
            cpu.append((time.thread_time() - used) * 1000)
            fixed.append(timed_ms(fixed_work, rounds))
    print(f"{len(boards)} late-game hints at a {args.budget_ms:.0f} ms budget:")
    for name, times, scale, against in (
        ("wall", wall, args.budget_ms, "the budget"),
        ("CPU", cpu, args.budget_ms, "the budget"),
        ("fixed work, wall", fixed, statistics.median(fixed), "its median"),
    ):
        p99 = percentile(times, 0.99)
        print(
            f"  {name:16} p50 {statistics.median(times):6.1f} ms  p99 {p99:6.1f} ms"
            f" ({p99 / scale:.0%} of {against})  max {max(times):6.1f} ms"
        )
    return wall


if __name__ == "__main__":
    main()
