"""Speed of the engine's hot path: ``python -m bench.engine``.

Boards come from games played by a seeded corner-hugging policy (as real play
looks: small tiles, a few big ones), plus copies with every tile raised by up
to 9 steps so that late-game rows with tiles up to 131072 are timed too.

Each figure is timed over many short batches and reported as the best batch
(the code's speed when nothing else wants the core, as timeit does) and the
median batch (what a busy machine gave this run).
"""

import random
import statistics
import time

from app.engine import CLASSIC
from app.engine.board import exponents
from app.engine.directions import DIRECTIONS
from app.engine.game import Game
from app.engine.sliding import SLIDES, move, valid_moves
from app.engine.spawn import spawn, start_board

BATCH = 2_000
ROUNDS = 3
_PREFERENCE = {"down": 8, "left": 8, "right": 2, "up": 1}


def _raised(board: int, steps: int) -> int:
    """The board with every tile's exponent raised by ``steps`` (at most 2**17)."""
    return sum(
        min(e + steps, CLASSIC.max_exponent) << shift
        for e, shift in zip(exponents(board, CLASSIC), CLASSIC.shifts, strict=True)
        if e
    )


def sample_boards(count: int = 20_000, seed: int = 2048) -> list[int]:
    """Realistic boards in shuffled order (see the module docstring)."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < count // 2:
        board = start_board(rng, CLASSIC)
        while valid := valid_moves(board):
            boards.append(board)
            direction = rng.choices(valid, [_PREFERENCE[d] for d in valid])[0]
            board, _, _ = spawn(SLIDES[direction](board), rng, CLASSIC)
    boards = boards[: count // 2]
    boards += [_raised(board, rng.randrange(1, 10)) for board in boards]
    rng.shuffle(boards)
    return boards


def batches(items: list, size: int = BATCH) -> list[list]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def rates(run, batches: list[list]) -> tuple[float, float]:
    """(best, median) items per second of ``run(batch)`` over ROUNDS passes."""
    per_batch = []
    for _ in range(ROUNDS):
        for batch in batches:
            start = time.perf_counter()
            run(batch)
            per_batch.append(len(batch) / (time.perf_counter() - start))
    return max(per_batch), statistics.median(per_batch)


def _unscored(fn):
    def run(batch):
        for board in batch:
            fn(board)

    return run


def _scored(batch):
    for board, direction in batch:
        move(board, direction)


def _player():
    """Runner that plays directions on a game, starting a new one when it ends."""
    rng = random.Random(1)
    game = Game.new(seed=0)

    def run(batch):
        nonlocal game
        for direction in batch:
            if game.over:
                game = Game.new(seed=rng.randrange(2**63))
            elif game.finished:
                game.choose_keep_playing()
            game.play(direction)

    return run


def _line(label: str, rates: tuple[float, float], unit: str) -> str:
    best, median = rates
    return f"{label:<26}{best:>12,.0f}{median:>12,.0f}  {unit}"


def main() -> None:
    boards = sample_boards()
    board_batches = batches(boards)
    print(f"{len(boards)} boards in batches of {BATCH}, {ROUNDS} passes, one core")
    print(f"{'':<26}{'best':>12}{'median':>12}")
    per_direction = {d: rates(_unscored(SLIDES[d]), board_batches) for d in DIRECTIONS}
    for direction, direction_rates in per_direction.items():
        print(_line(f"move_{direction}(board)", direction_rates, "moves/s"))
    mean = tuple(len(DIRECTIONS) / sum(1 / pair[i] for pair in per_direction.values()) for i in (0, 1))
    print(_line("  all four directions", mean, "moves/s (harmonic mean)"))
    pairs = [(board, DIRECTIONS[i % 4]) for i, board in enumerate(boards)]
    print(_line("move(board, direction)", rates(_scored, batches(pairs)), "moves/s, with score"))
    rng = random.Random(2)
    plays = [rng.choice(DIRECTIONS) for _ in range(1_000)]
    print(_line("Game.play(direction)", rates(_player(), batches(plays, 100)), "plays/s"))


if __name__ == "__main__":
    main()
